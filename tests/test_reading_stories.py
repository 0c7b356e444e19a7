"""User stories of the reading issue, through Home Assistant.

The home knows the answer or the words say it all: the integration answers
and acts without the model, which is scripted wrong in every story and must
not be needed. Where the model is asked (local-first off), what it gets
wrong against the words does not run.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er

from .helpers import act, agent_details, converse, home_states, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer


def _sensor(
    hass: HomeAssistant, entity_id: str, name: str, area: str, state: str, **attrs: Any
) -> None:
    """A device that only reports (no service): registered, in an area, exposed."""
    domain, _, object_id = entity_id.partition(".")
    registry = er.async_get(hass)
    entry = registry.async_get_or_create(
        domain, "reading_test", object_id, suggested_object_id=object_id
    )
    area_id = ar.async_get(hass).async_get_or_create(area).id
    registry.async_update_entity(entry.entity_id, area_id=area_id)
    hass.states.async_set(entry.entity_id, state, {"friendly_name": name, **attrs})
    async_expose_entity(hass, CONVERSATION_DOMAIN, entry.entity_id, True)


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home with a kettle, a study sensor and a hallway thermostat."""
    agent = await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})
    _sensor(hass, "switch.kettle", "Kettle", "Kitchen", "on")
    _sensor(
        hass,
        "sensor.study_temperature",
        "Study Temperature",
        "Study",
        "21.5",
        device_class="temperature",
        unit_of_measurement="°C",
    )
    _sensor(
        hass,
        "climate.hallway",
        "Thermostat",
        "Hallway",
        "heat",
        current_temperature=19.5,
        temperature=21,
    )
    return agent


# A small model's wrong plan for a question: a toggle.
WRONG = plan(act("light.toggle", "light.kitchen_lights"), speech="")


@pytest.mark.parametrize(
    ("language", "question", "said"),
    [
        ("en", "is the kettle on?", "Yes. Kettle is on."),
        ("de", "Ist Kettle an?", "Ja. Kettle ist ein."),  # HA's word for "on"
        ("fr", "Kettle est allumé ?", "Oui. Kettle : activé."),
        ("es", "¿Kettle está encendido?", "Sí. Kettle: encendido."),
        ("nl", "Staat Kettle aan?", "Ja. Kettle is aan."),
        ("it", "Kettle è acceso?", "Sì. Kettle: acceso."),
    ],
)
async def test_a_state_question_is_answered_from_the_home(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    question: str,
    said: str,
) -> None:
    """The kettle's state, in the turn's language; no model, nothing changed."""
    llm_server.add_plan(WRONG)
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(hass, agent_id, question, kitchen, language=language)

    assert speech(result) == said
    assert llm_server.requests == []
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_the_temperature_here_is_this_rooms_own(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The study's sensor, not the hallway thermostat's reading."""
    llm_server.add_plan(WRONG)
    study = satellite_in(hass, "Study")

    result = await converse(hass, agent_id, "what's the temperature in here?", study)

    assert speech(result) == "It's 21.5 degrees in the Study."
    assert llm_server.requests == []


async def test_brighter_steps_without_a_model(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Said "brighter" in the kitchen: a step within range, never 110 percent."""
    llm_server.add_plan(
        plan(act("light.turn_on", "light.kitchen_lights", brightness_pct=110))
    )
    await hass.services.async_call(
        "light",
        "turn_on",
        {"entity_id": "light.kitchen_lights", "brightness_pct": 50},
        blocking=True,
    )
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(hass, agent_id, "brighter", kitchen)

    assert (
        hass.states.get("light.kitchen_lights").attributes["brightness"] == 178
    )  # 50 % + 20 %
    assert speech(result) == "Made Kitchen Lights brighter."
    assert llm_server.requests == []
    assert {
        "read_plan": {
            "actions": [
                {
                    "tool": "light.turn_on",
                    "targets": ["light.kitchen_lights"],
                    "args": {"brightness_step_pct": 20},
                }
            ],
            "speech": "",
            "confidence": 1.0,
            "clarify": None,
        }
    } in agent_details()


async def test_it_after_home_assistants_own_sentence(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """HA's sentence acted; "dim it to 30 percent" dims that lamp, no other."""
    llm_server.add_plan(
        plan(act("light.turn_on", "light.ceiling_lights", brightness_pct=30))
    )
    bedroom = satellite_in(hass, "Bedroom")
    ceiling = hass.states.get("light.ceiling_lights")
    assert ceiling is not None

    await converse(hass, agent_id, "turn on the bed light", bedroom)
    await converse(hass, agent_id, "dim it to 30 percent", bedroom)

    assert hass.states.get("light.bed_light").attributes["brightness"] == 76  # 30 %
    assert hass.states.get("light.ceiling_lights") == ceiling
    assert llm_server.requests == []


async def test_the_same_in_another_room_acts_only_there(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The last action's kind in the room said, not the first room again."""
    kitchen = satellite_in(hass, "Kitchen")

    await converse(hass, agent_id, "turn off the kitchen lights", kitchen)
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": "light.kitchen_lights"}, blocking=True
    )
    await converse(hass, agent_id, "do the same in the living room", kitchen)

    assert hass.states.get("light.ceiling_lights").state == "off"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


async def test_and_on_again_in_german(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Said "und wieder an": on again what the last turn turned off."""
    kitchen = satellite_in(hass, "Kitchen")

    await converse(hass, agent_id, "turn off the kitchen lights", kitchen)
    await converse(hass, agent_id, "und wieder an", kitchen, language="de")

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


async def test_a_misspelt_off_never_turns_on(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model reverses the verb; the plan is refused, the light stays on."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: False}
    )
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.bed_light"}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_on", "light.bed_light")))

    await converse(
        hass, agent_id, "trun off the bed lihgt", satellite_in(hass, "Bedroom")
    )

    assert hass.states.get("light.bed_light").state == "off"
    assert {"against_the_words": ["light.turn_on"]} in agent_details()


async def test_unlock_never_opens_the_blinds_of_another_room(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A lock and a contact sensor named alike; the model opens a window.

    "Door" is a word of the names, not a kind: the hall window nothing said
    points at does not open, and the lock asks before it unlocks.
    """
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: False}
    )
    _sensor(
        hass,
        "binary_sensor.front_door",
        "Front Door",
        "Hallway",
        "off",
        device_class="door",
    )
    window = hass.states.get("cover.hall_window")
    assert window is not None
    lock = hass.states.get("lock.front_door")
    assert lock is not None
    llm_server.add_plan(plan(act("cover.open_cover", "cover.hall_window")))

    await converse(
        hass, agent_id, "unlock the front door", satellite_in(hass, "Bedroom")
    )

    assert hass.states.get("cover.hall_window") == window
    assert hass.states.get("lock.front_door") == lock


@pytest.mark.parametrize(
    ("language", "said", "lamps"),
    [
        ("en", "turn off the lamp", ("Study Lamp", "Bedside Lamp")),
        ("de", "schalte die Lampe aus", ("Schreibtischlampe", "Nachttischlampe")),
        # A home named in English, spoken to in German and Italian.
        ("de", "schalte die Lampe aus", ("Study Lamp", "Bedside Lamp")),
        ("it", "spegni la lampada", ("Study Lamp", "Bedside Lamp")),
    ],
)
async def test_the_lamp_is_not_the_rooms_lights_when_lamps_are_elsewhere(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    lamps: tuple[str, str],
) -> None:
    """Home Assistant's sentence would turn off the kitchen's lights: it asks.

    The kitchen's lights are not called lamps; the study's and the
    bedroom's are. The model is not asked, and would be wrong.
    """
    _sensor(hass, "light.study_lamp", lamps[0], "Study", "on")
    _sensor(hass, "light.bedside_lamp", lamps[1], "Bedroom", "on")
    llm_server.add_plan(WRONG)
    kitchen_lights = hass.states.get("light.kitchen_lights")
    assert kitchen_lights is not None
    assert kitchen_lights.state == "on"

    result = await converse(
        hass, agent_id, said, satellite_in(hass, "Kitchen"), language
    )

    assert hass.states.get("light.kitchen_lights") == kitchen_lights
    assert result.continue_conversation is True
    assert all(lamp in speech(result) for lamp in lamps)
    assert "Kitchen Lights" in speech(result)
    assert llm_server.requests == []


async def test_the_lights_are_the_rooms_lights(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Where the room's devices are called what was said, HA's sentence acts."""
    _sensor(hass, "light.study_lamp", "Study Lamp", "Study", "on")

    await converse(hass, agent_id, "turn off the lights", satellite_in(hass, "Kitchen"))

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert {"local_match": True} in agent_details()
    assert llm_server.requests == []


async def test_the_light_is_the_rooms_lamp(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The kind's own name, "light", calls the room's lamp: no question."""
    _sensor(hass, "light.guest_lamp", "Guest Lamp", "Guest Room", "on")
    before = home_states(hass)

    result = await converse(
        hass, agent_id, "turn off the light", satellite_in(hass, "Guest Room")
    )

    assert result.continue_conversation is False
    assert "Which" not in speech(result)
    changed = {e for e, state in home_states(hass).items() if before[e] != state}
    assert changed <= {"light.guest_lamp"}
    assert llm_server.requests == []


async def test_it_after_home_assistants_answer_is_what_it_was_about(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """HA's own sentences answer "is the front door locked?"; "lock it" locks it."""
    kitchen = satellite_in(hass, "Kitchen")
    await hass.services.async_call(
        "lock", "unlock", {"entity_id": "lock.front_door"}, blocking=True
    )
    llm_server.add_plan(WRONG)

    answer = await converse(hass, agent_id, "is the front door locked?", kitchen)
    await converse(hass, agent_id, "lock it", kitchen)

    assert speech(answer) == "No, unlocked"
    assert hass.states.get("lock.front_door").state == "locked"
    assert llm_server.requests == []
