"""A door opened by its lock, in homes named in the household's language.

The front door has a contact sensor and a lock: the lock's name holds the
door's ("Haustürschloss", "Cerradura puerta principal"), or the two share
one device. Opening or unlocking the door unlocks its lock, and asks first;
only a yes unlocks it. The model is scripted to open the garage instead,
and is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.setup import async_setup_component

from . import home
from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer

GARAGE_DOOR = "cover.garage_door"


async def _door(hass: HomeAssistant, sensor: str, lock: str) -> str:
    """A closed door's contact sensor and its locked lock, exposed; the lock's id."""
    assert await async_setup_component(
        hass,
        "template",
        {
            "template": [
                {
                    "lock": [
                        {
                            "name": lock,
                            "unique_id": "door_lock",
                            "optimistic": True,
                            "lock": [],
                            "unlock": [],
                        }
                    ],
                    "binary_sensor": [
                        {
                            "name": sensor,
                            "unique_id": "door_contact",
                            "state": "{{ false }}",
                            "device_class": "door",
                        }
                    ],
                }
            ]
        },
    )
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    lock_id = registry.async_get_entity_id("lock", "template", "door_lock")
    sensor_id = registry.async_get_entity_id(
        "binary_sensor", "template", "door_contact"
    )
    assert lock_id is not None
    assert sensor_id is not None
    for entity_id in (lock_id, sensor_id):
        async_expose_entity(hass, conversation.DOMAIN, entity_id, True)
    await hass.services.async_call(
        "lock", "lock", {"entity_id": lock_id}, blocking=True
    )
    return lock_id


def _one_device(hass: HomeAssistant, names: dict[str, str]) -> None:
    """Put entities on one device, as an integration with a door lock does.

    Each keeps the name it is given (a user's name in the registry), not
    the device's name before its own.
    """
    entry = MockConfigEntry(domain="door_test")
    entry.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id, identifiers={("door_test", "front")}
    )
    registry = er.async_get(hass)
    for entity_id, name in names.items():
        registry.async_update_entity(entity_id, device_id=device.id, name=name)


# The lock's name holds the door's, in the household's language.
NAMED = [
    ("de", "Haustür", "Haustürschloss", "Mach die Haustür auf", "ja"),
    ("de", "Haustür", "Haustürschloss", "Schließ die Haustür auf", "ja"),
    (
        "es",
        "Puerta principal",
        "Cerradura puerta principal",
        "Abre la puerta principal",
        "sí",
    ),
    ("nl", "Voordeur", "Slot voordeur", "Doe de voordeur open", "ja"),
    ("it", "Porta di casa", "Serratura porta di casa", "Apri la porta di casa", "sì"),
]


@pytest.mark.parametrize(("language", "sensor", "lock", "said", "yes"), NAMED)
async def test_opening_a_door_unlocks_its_lock_after_asking(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    sensor: str,
    lock: str,
    said: str,
    yes: str,
) -> None:
    """The contact sensor cannot open: its lock is asked about, then unlocked."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    lock_id = await _door(hass, sensor, lock)
    llm_server.add_plan(plan(act("cover.open_cover", GARAGE_DOOR)))
    satellite = home.satellite_in(hass, "Hallway")

    asked = await converse(hass, agent_id, said, satellite, language)
    locked_while_asking = hass.states.get(lock_id).state
    await converse(hass, agent_id, yes, satellite, language)

    assert lock in speech(asked)
    assert asked.continue_conversation is True
    assert locked_while_asking == "locked"
    assert hass.states.get(lock_id).state == "unlocked"
    assert hass.states.get(GARAGE_DOOR).state == "closed"
    assert llm_server.requests == []


# The lock and the sensor share a device; their names share nothing.
SAME_DEVICE = [
    ("es", "Abre la puerta principal", "Puerta principal", "sí"),
    ("nl", "Doe de voordeur open", "Voordeur", "ja"),
    ("it", "Apri la porta di casa", "Porta di casa", "sì"),
]


@pytest.mark.parametrize(("language", "said", "sensor", "yes"), SAME_DEVICE)
async def test_a_door_opens_by_the_lock_on_its_device(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    sensor: str,
    yes: str,
) -> None:
    """The door's lock is "Nuki", on the door's device."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    lock_id = await _door(hass, sensor, "Nuki")
    sensor_id = er.async_get(hass).async_get_entity_id(
        "binary_sensor", "template", "door_contact"
    )
    assert sensor_id is not None
    _one_device(hass, {lock_id: "Nuki", sensor_id: sensor})
    await hass.async_block_till_done()
    llm_server.add_plan(plan(act("cover.open_cover", GARAGE_DOOR)))
    satellite = home.satellite_in(hass, "Hallway")

    asked = await converse(hass, agent_id, said, satellite, language)
    await converse(hass, agent_id, yes, satellite, language)

    assert "Nuki" in speech(asked)
    assert hass.states.get(lock_id).state == "unlocked"
    assert llm_server.requests == []


async def test_closing_a_door_locks_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A lock stands in for its door's opening only: "zumachen" is no "abschließen"."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    lock_id = await _door(hass, "Haustür", "Haustürschloss")
    await hass.services.async_call(
        "lock", "unlock", {"entity_id": lock_id}, blocking=True
    )
    llm_server.add_plan(plan(speech="OK."))

    await converse(
        hass, agent_id, "Mach die Haustür zu", home.satellite_in(hass, "Hallway"), "de"
    )

    assert hass.states.get(lock_id).state == "unlocked"
