"""A command for the state a device is in already calls nothing and says so.

home-llm's refusals ask for a state the device has ("Turn on the Hallway
Lights" when they are on): on every path (HA's own sentences, the reading,
the model) nothing is called and the reply says the state, in the turn's
language. A device whose state HA only assumes, a room where one device is
not yet as asked, and a lock already unlocked (no "Do you want me to ...?")
are the edges. A value asked (a brightness, a thermostat's degrees, a
valve's position) that the device reports already is said, not sent; one
it does not have, or a thermostat that is off, is set.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.const import EVENT_CALL_SERVICE, Platform
from homeassistant.core import Event, HomeAssistant

from . import home
from .helpers import (
    act,
    agent_details,
    async_setup_template_entity,
    converse,
    plan,
    speech,
    switched_on,
)
from .home import async_setup_agent, satellite_in, with_thermostat
from .llm_server import ScriptedLLMServer

LIGHTS = "light.kitchen_lights"

# (language, a command HA's sentences match, the reply)
ALREADY_ON = [
    ("en", "turn on the kitchen lights", "Kitchen Lights is already on."),
    ("de", "Schalte Kitchen Lights an", "Kitchen Lights ist schon ein."),
    ("fr", "Allume Kitchen Lights", "Kitchen Lights : déjà allumé."),
    ("es", "Enciende Kitchen Lights", "Kitchen Lights: ya encendido."),
    ("nl", "Zet Kitchen Lights aan", "Kitchen Lights is al aan."),
    ("it", "Accendi Kitchen Lights", "Kitchen Lights: già acceso."),
]


@pytest.fixture
async def local_agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home and the agent with HA's sentences first, the model off."""
    return await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )


def _device_calls(calls: list[Event]) -> list[str]:
    """The services called on devices (not the agent's own)."""
    return [
        f"{call.data['domain']}.{call.data['service']}"
        for call in calls
        if call.data["domain"] not in ("homeassistant", "input_boolean")
    ]


@pytest.mark.parametrize(("language", "text", "reply"), ALREADY_ON)
async def test_ha_sentence_for_the_state_it_has_calls_nothing(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    reply: str,
) -> None:
    """HA's own sentence matches; the lights are on: said so, nothing called."""
    await switched_on(hass, LIGHTS)
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, local_agent, text, satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert _device_calls(calls) == []
    assert any(d.get("decision") == "already" for d in agent_details())
    assert llm_server.requests == []


async def test_the_model_planning_the_state_a_device_has_calls_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model's plan for lights that are on: no call; then a real change runs."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")
    await switched_on(hass, LIGHTS)
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS)))
    llm_server.add_plan(plan(act("light.turn_off", LIGHTS)))
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    same = await converse(hass, agent_id, "kitchen lights on", kitchen)
    changed = await converse(hass, agent_id, "kitchen lights off", kitchen)

    assert speech(same) == "Kitchen Lights is already on."
    assert speech(changed) == "Turned off Kitchen Lights."
    assert _device_calls(calls) == ["light.turn_off"]
    assert hass.states.get(LIGHTS).state == "off"


async def test_a_room_not_all_as_asked_runs_as_ha_runs_it(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """One light on, one off: "turn off the lights" is HA's, on both."""
    await switched_on(hass, LIGHTS, "light.ceiling_lights")
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.ceiling_lights"}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, local_agent, "turn off all the lights")

    assert hass.states.get(LIGHTS).state == "off"
    assert "light.turn_off" in _device_calls(calls)


async def test_a_state_ha_only_assumes_is_set_again(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A switch with no state of its own (assumed): "on" is sent again."""
    plug = await async_setup_template_entity(
        hass, "switch", {"name": "Radio Plug", "turn_on": [], "turn_off": []}
    )
    await switched_on(hass, plug)
    assert hass.states.get(plug).attributes.get("assumed_state") is True
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, local_agent, "turn on the radio plug")

    assert _device_calls(calls) == ["switch.turn_on"]


async def test_a_lock_already_unlocked_is_not_asked_about(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """No "Do you want me to unlock ...?" for a door that is unlocked."""
    await hass.services.async_call(
        "lock", "unlock", {"entity_id": "lock.front_door"}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(hass, local_agent, "unlock the front door")

    assert speech(result) == "Front Door is already unlocked."
    assert not result.continue_conversation
    assert _device_calls(calls) == []


# (language, HA's sentence for Kitchen Lights at 50 percent, the reply)
ALREADY_AT = [
    (
        "en",
        "set the kitchen lights brightness to 50%",
        "Kitchen Lights is already at 50 percent.",
    ),
    (
        "de",
        "Setze die Helligkeit von Kitchen Lights auf 50%",
        "Kitchen Lights steht schon auf 50 Prozent.",
    ),
    (
        "fr",
        "règle la luminosité de Kitchen Lights à 50%",
        "Kitchen Lights est déjà à 50 pour cent.",
    ),
    (
        "es",
        "pon el brillo de Kitchen Lights al 50%",
        "Kitchen Lights ya está a 50 por ciento.",
    ),
    (
        "nl",
        "Zet de helderheid van Kitchen Lights op 50%",
        "Kitchen Lights staat al op 50 procent.",
    ),
    (
        "it",
        "imposta la luminosità di Kitchen Lights al 50%",
        "Kitchen Lights è già a 50 per cento.",
    ),
]


async def _at_half(hass: HomeAssistant) -> None:
    """Kitchen Lights on at 50 percent, set at the wall."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHTS, "brightness_pct": 50}, blocking=True
    )


@pytest.mark.parametrize(("language", "text", "reply"), ALREADY_AT)
async def test_ha_sentence_for_the_brightness_a_light_has_calls_nothing(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    reply: str,
) -> None:
    """HA's brightness sentence for the level the light is at: said, not sent."""
    await _at_half(hass)
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, local_agent, text, satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert _device_calls(calls) == []


async def test_a_value_a_device_does_not_have_yet_is_set(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """At 50 percent, "to 80%" runs; a light that is off is switched on at 50."""
    await _at_half(hass)
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, local_agent, "set the kitchen lights brightness to 80%")
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": LIGHTS}, blocking=True
    )
    await converse(hass, local_agent, "set the kitchen lights brightness to 80%")

    assert _device_calls(calls).count("light.turn_on") == 2
    assert hass.states.get(LIGHTS).state == "on"
    assert hass.states.get(LIGHTS).attributes["brightness"] == 204


async def test_a_thermostat_at_its_target_is_told_and_one_off_is_set(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heating to the degrees it holds: said so; off, the same words are sent."""
    with_thermostat(monkeypatch)
    local_agent = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    thermostat = "climate.hvac"
    target = hass.states.get(thermostat).attributes["temperature"]
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    held = await converse(hass, local_agent, f"set the hvac to {target:g} degrees")
    await hass.services.async_call(
        "climate", "turn_off", {"entity_id": thermostat}, blocking=True
    )
    sent = await converse(hass, local_agent, f"set the hvac to {target:g} degrees")

    assert speech(held) == f"Hvac is already at {target:g} degrees."
    assert _device_calls(calls) == ["climate.turn_off", "climate.set_temperature"]
    assert sent.response.response_type.value == "action_done"


async def test_the_model_planning_the_level_a_light_has_calls_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model's plan for the brightness the light has: no call; another runs."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")
    await _at_half(hass)
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS, brightness_pct=50)))
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS, brightness_pct=20)))
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    same = await converse(hass, agent_id, "kitchen lights half way", kitchen)
    changed = await converse(hass, agent_id, "kitchen lights a fifth", kitchen)

    assert speech(same) == "Kitchen Lights is already at 50 percent."
    assert _device_calls(calls) == ["light.turn_on"]
    assert changed.response.response_type.value == "action_done"
    assert hass.states.get(LIGHTS).attributes["brightness"] == 51


# The demo valve moves on a timer that outlives the test.
@pytest.mark.parametrize("expected_lingering_timers", [True])
async def test_a_valve_at_the_position_asked_is_told_and_another_is_set(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    expected_lingering_timers: bool,
) -> None:
    """A valve at 70 percent asked to 70 is told; asked to 40, its own service runs."""
    monkeypatch.setattr(home, "DEMO_PLATFORMS", [*home.DEMO_PLATFORMS, Platform.VALVE])
    monkeypatch.setitem(home.EXPOSED_AREAS, "valve.back_garden", "Garden")
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    assert hass.states.get("valve.back_garden").attributes["current_position"] == 70
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    held = await converse(hass, agent_id, "set back garden to 70%")
    moved = await converse(hass, agent_id, "set back garden to 40%")

    assert speech(held) == "Back Garden is already at 70 percent."
    assert _device_calls(calls) == ["valve.set_valve_position"]
    assert moved.response.response_type.value == "action_done"
