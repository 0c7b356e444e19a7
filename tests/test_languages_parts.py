"""A compound's parts find the home's names in another language, whole turns.

The household speaks German, Dutch, French, Spanish or Italian in a home
whose names are English. A compound ("Nachttischleuchte", "plafond-
ventilator") or a phrase ("lámpara de la mesita de noche", "ventilateur de
plafond") says a part of a thing's name (what it stands on, where it
hangs, what it is for) and its kind: the part finds the name that says it
in English ("Bedside Lamp", "Ceiling Fan", "Desk Lamp"), the kind says
which of the names' kinds is meant. No model is asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)

from . import home
from .helpers import converse, home_states
from .llm_server import ScriptedLLMServer

BEDSIDE = "light.bed_light"
BEDROOM = "light.ceiling_lights"
DESK = "light.kitchen_lights"
CEILING_FAN = "fan.ceiling_fan"
FAN = "fan.living_room_fan"


@pytest.fixture
async def bedroom(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[str, str]:
    """The agent and a satellite in the bedroom, of a home named in English.

    The bedroom has two lights, "Bedroom Light" and "Bedside Lamp"; the
    kitchen's light is called "Desk Lamp"; the home has two fans, "Ceiling
    Fan" and "Living Room Fan" (demo fans have no area). Names are set as a
    user sets them in the UI; everything starts off.
    """
    monkeypatch.setattr(home, "DEMO_PLATFORMS", [*home.DEMO_PLATFORMS, Platform.FAN])
    for fan in (CEILING_FAN, FAN):
        monkeypatch.setitem(home.EXPOSED_AREAS, fan, None)
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    entities = er.async_get(hass)
    entities.async_update_entity(BEDSIDE, name="Bedside Lamp")
    entities.async_update_entity(BEDROOM, name="Bedroom Light")
    entities.async_update_entity(DESK, name="Desk Lamp")
    area = ar.async_get(hass).async_get_or_create("Bedroom")
    entry = entities.async_get(BEDROOM)
    assert entry is not None
    assert entry.device_id is not None
    dr.async_get(hass).async_update_device(entry.device_id, area_id=area.id)
    await hass.services.async_call(
        "homeassistant",
        "turn_off",
        {"entity_id": [BEDSIDE, BEDROOM, DESK, CEILING_FAN, FAN]},
        blocking=True,
    )
    await hass.async_block_till_done()
    return agent_id, home.satellite_in(hass, "Bedroom")


# (language, what is said, the one device it switches on)
PARTS = [
    ("de", "Schalte die Nachttischleuchte ein", BEDSIDE),
    ("de", "Mach das Nachttischlicht an", BEDSIDE),
    ("de", "Schalte den Deckenventilator ein", CEILING_FAN),
    ("de", "Mach das Licht am Schreibtisch an", DESK),
    ("nl", "Zet de nachtkastlamp aan", BEDSIDE),
    ("nl", "Zet de plafondventilator aan", CEILING_FAN),
    ("nl", "Doe de bureauverlichting aan", DESK),
    ("fr", "Allume la lampe de la table de chevet", BEDSIDE),
    ("fr", "Allume la lumière de la table de nuit", BEDSIDE),
    ("fr", "Allume le ventilateur de plafond", CEILING_FAN),
    ("es", "Enciende la lámpara de la mesilla", BEDSIDE),
    ("es", "Enciende la lámpara de la mesita de noche", BEDSIDE),
    ("es", "Enciende el ventilador de techo", CEILING_FAN),
    ("es", "Enciende la luz del escritorio", DESK),
    ("it", "Accendi la luce del comodino", BEDSIDE),
    ("it", "Accendi il ventilatore a soffitto", CEILING_FAN),
    ("it", "Accendi la luce della scrivania", DESK),
]


@pytest.mark.parametrize(("language", "said", "entity_id"), PARTS)
async def test_a_part_said_finds_the_name_that_says_it_in_english(
    hass: HomeAssistant,
    bedroom: tuple[str, str],
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    entity_id: str,
) -> None:
    """That device alone is switched on: no "which one?", no model."""
    agent_id, satellite = bedroom
    before = home_states(hass)

    await converse(hass, agent_id, said, satellite, language)
    await hass.async_block_till_done()

    changed = {k for k, v in home_states(hass).items() if before.get(k) != v}
    assert changed == {entity_id}
    assert hass.states.get(entity_id).state == "on"
    assert llm_server.requests == []
