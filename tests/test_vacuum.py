"""A robot vacuum started and sent home by everyday words, without a model.

"Start vacuuming", "turn on the vacuum" start it; "stop the vacuum" and
"turn it off" send it to its base, as Home Assistant's HassTurnOff means
for a vacuum; said to one HA shows cleaning, start is sent again. The model
is scripted to pause the kitchen's speaker (what a 1.5B model did with
these words): it is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component

from .helpers import (
    act,
    async_setup_template_entity,
    converse,
    plan,
    speech,
    switched_on,
)
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

ROBOT = "input_boolean.robo_power"


async def _robot(hass: HomeAssistant, area: str | None = None) -> str:
    """A template vacuum whose state follows an input boolean; its id.

    In `area` when one is given (as the owner would place it).
    """
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"robo_power": {"initial": False}}}
    )
    robot = await async_setup_template_entity(
        hass,
        "vacuum",
        {
            "name": "Robo",
            "unique_id": "robo",
            "state": f"{{{{ 'cleaning' if is_state('{ROBOT}', 'on') else 'docked' }}}}",
            "start": [
                {"action": "input_boolean.turn_on", "target": {"entity_id": ROBOT}}
            ],
            "return_to_base": [
                {"action": "input_boolean.turn_off", "target": {"entity_id": ROBOT}}
            ],
        },
    )
    if area is not None:
        area_id = ar.async_get(hass).async_get_or_create(area).id
        er.async_get(hass).async_update_entity(robot, area_id=area_id)
    return robot


@pytest.mark.parametrize(
    ("start", "stop"),
    [
        ("start vacuuming", "stop the vacuum"),
        ("turn on the vacuum", "turn off the robot"),
    ],
)
async def test_everyday_words_start_and_dock_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    start: str,
    stop: str,
) -> None:
    """Started, said again while it cleans (started again), sent home."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    started = await converse(hass, agent_id, start, kitchen)
    assert hass.states.get(robot).state == "cleaning"
    again = await converse(hass, agent_id, start, kitchen)
    docked = await converse(hass, agent_id, stop, kitchen)

    assert speech(started) == "Started Robo."
    assert speech(again) == "Started Robo."
    assert speech(docked) == "Sent Robo back to its base."
    assert hass.states.get(robot).state == "docked"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "said", "done"),
    [
        ("en", "can you start the roomba", "Started Robo."),
        ("de", "starte mal den Roomba", "Ich habe Robo gestartet."),
        ("es", "empieza con la roomba", "He puesto en marcha Robo."),
        ("it", "avvia il roomba", "Ho avviato Robo."),
    ],
)
async def test_a_roomba_is_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    done: str,
) -> None:
    """A Roomba is said for any robot vacuum, as a Hoover is for a vacuum cleaner."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)

    result = await converse(hass, agent_id, said, language=language)

    assert hass.states.get(robot).state == "cleaning"
    assert speech(result) == done
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "back"),
    [
        ("en", "Vacuum return to base"),
        ("en", "send Robo back to its base"),
        ("en", "Return the vacuum to its base"),
        ("de", "Schick Robo zurück zur Ladestation"),
        ("fr", "Robo, retourne à la base"),
        ("es", "Robo, vuelve a la base"),
        ("nl", "Stuur Robo terug naar het basisstation"),
        ("it", "Robo torna alla base"),
    ],
)
async def test_back_to_its_base_docks_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    back: str,
) -> None:
    """Sent back to its base by the vacuum's own verb; nothing else is done."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)
    await hass.services.async_call(
        "input_boolean", "turn_on", {"entity_id": ROBOT}, blocking=True
    )
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, back, kitchen, language)

    assert hass.states.get(robot).state == "docked"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


# (language, the kitchen's vacuum asked to clean it, the same of a room it is not in)
CLEAN_THE_ROOM = [
    ("en", "vacuum the kitchen", "clean the bedroom"),
    ("en", "clean the kitchen", "mop the bedroom"),
    ("de", "Sauge die Küche", "Putze das Schlafzimmer"),
    ("de", "die Küche staubsaugen", "das Schlafzimmer wischen"),
    ("fr", "Aspire la cuisine", "Nettoie la chambre"),
    ("es", "Aspira la cocina", "Limpia el dormitorio"),
    ("nl", "Stofzuig de keuken", "Maak de slaapkamer schoon"),
    ("it", "Pulisci la cucina", "Aspira la camera da letto"),
]


@pytest.mark.parametrize(("language", "clean", "elsewhere"), CLEAN_THE_ROOM)
async def test_cleaning_a_room_starts_the_vacuum_that_is_in_it(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    clean: str,
    elsewhere: str,
) -> None:
    """The room's own vacuum starts; a room with none starts nothing.

    Robo cannot clean one room (no area cleaning), so HA's own sentence
    finds no device that can; the kitchen is where it lives. The lights of
    the room said are never touched.
    """
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    robot = await _robot(hass, "Kitchen")
    await switched_on(hass, "light.kitchen_lights", "light.bed_light")

    await converse(hass, agent_id, elsewhere, None, language)
    assert hass.states.get(robot).state == "docked"
    await converse(hass, agent_id, clean, None, language)

    assert hass.states.get(robot).state == "cleaning"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert hass.states.get("light.bed_light").state == "on"


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "is the kitchen clean?"),
        ("de", "Ist die Küche sauber?"),
        ("es", "¿Está limpia la cocina?"),
    ],
)
async def test_asking_whether_a_room_is_clean_starts_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """A question about cleanliness is no command to clean."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    robot = await _robot(hass, "Kitchen")

    await converse(hass, agent_id, text, None, language)

    assert hass.states.get(robot).state == "docked"


@pytest.mark.parametrize(
    ("language", "start", "back"),
    [
        ("en", "vacuum here", "go back to base"),
        ("de", "sauge hier", "zurück zur Ladestation"),
        ("es", "aspira aquí", "vuelve a la base"),
        ("nl", "stofzuig hier", "terug naar het basisstation"),
        ("en", "clean this room", "return to base"),
        ("de", "dieses Zimmer staubsaugen", "zurück zur Basis"),
        ("fr", "nettoie cette pièce", "retourne à la base"),
        ("it", "pulisci questa stanza", "torna alla base"),
    ],
)
async def test_the_vacuums_own_verb_says_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    start: str,
    back: str,
) -> None:
    """No noun: cleaning and going back to base are only a vacuum's to do."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    robot = await _robot(hass, "Kitchen")
    kitchen = satellite_in(hass, "Kitchen")

    await converse(hass, agent_id, start, kitchen, language)
    assert hass.states.get(robot).state == "cleaning"
    await converse(hass, agent_id, back, kitchen, language)

    assert hass.states.get(robot).state == "docked"
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_cleaning_is_no_part_named_sensors(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Starting house cleaning is no question about House current draw.

    The sensor's "house" is all the words name of it, and no verb said
    changes a sensor: the model's plan for the vacuum asks first (the words
    name no vacuum), and a yes starts it.
    """
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)
    hass.states.async_set(
        "sensor.house_current_draw",
        "19",
        {"friendly_name": "House current draw", "unit_of_measurement": "A"},
    )
    async_expose_entity(hass, CONVERSATION_DOMAIN, "sensor.house_current_draw", True)

    llm_server.add_plan(plan(act("vacuum.start", robot)))

    hallway = satellite_in(hass, "Hallway")

    result = await converse(hass, agent_id, "start house cleaning", hallway)

    assert speech(result) == "Do you want me to run “Start vacuum cleaner” on Robo?"
    await converse(hass, agent_id, "yes", hallway)
    assert hass.states.get(robot).state == "cleaning"
