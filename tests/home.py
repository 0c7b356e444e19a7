"""A small real home for end-to-end tests: core demo devices in areas.

The entities come from core's `demo` integration (real entities with real
service handlers); areas, aliases and exposure are set through HA's own
registries and expose API, the way a user would set them in the UI.
"""

from __future__ import annotations

import sys
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from homeassistant.setup import async_setup_component

from .agents import set_agent_options

DEMO_PLATFORMS = [Platform.LIGHT, Platform.LOCK, Platform.COVER]

# entity id -> area name; everything listed is exposed to Assist. Demo locks
# have no unique id, so no registry entry and no area (like YAML entities).
EXPOSED_AREAS: dict[str, str | None] = {
    "light.kitchen_lights": "Kitchen",
    "light.ceiling_lights": "Living Room",
    "light.bed_light": "Bedroom",
    "lock.front_door": None,
    "cover.garage_door": "Garage",
    "cover.kitchen_window": "Kitchen",
    "cover.hall_window": "Hallway",
}
# Real entities that exist but are not exposed: they must never reach a prompt.
NOT_EXPOSED = ["light.office_rgbw_lights", "lock.kitchen_door"]


def with_thermostat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo home with core's demo thermostats, "Hvac" exposed in the hallway."""
    monkeypatch.setattr(
        sys.modules[__name__], "DEMO_PLATFORMS", [*DEMO_PLATFORMS, Platform.CLIMATE]
    )
    monkeypatch.setitem(EXPOSED_AREAS, "climate.hvac", "Hallway")


async def async_setup_demo_home(hass: HomeAssistant) -> None:
    """Set up demo lights, locks and covers, with areas and exposure."""
    assert await async_setup_component(hass, "homeassistant", {})
    with patch(
        "homeassistant.components.demo.COMPONENTS_WITH_CONFIG_ENTRY_DEMO_PLATFORM",
        DEMO_PLATFORMS,
    ):
        demo_entry = MockConfigEntry(domain="demo")
        demo_entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(demo_entry.entry_id)
        await hass.async_block_till_done()

    area_reg = ar.async_get(hass)
    entity_reg = er.async_get(hass)
    device_reg = dr.async_get(hass)
    for entity_id, area_name in EXPOSED_AREAS.items():
        if area_name is not None:
            area = area_reg.async_get_or_create(area_name)
            # Demo entities take their name from their device: the area goes there.
            entry = entity_reg.async_get(entity_id)
            assert entry is not None
            assert entry.device_id is not None
            device_reg.async_update_device(entry.device_id, area_id=area.id)
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    for entity_id in NOT_EXPOSED:
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, False)
    for state in hass.states.async_all():
        if state.entity_id not in EXPOSED_AREAS:
            async_expose_entity(hass, CONVERSATION_DOMAIN, state.entity_id, False)


async def async_setup_agent(
    hass: HomeAssistant, entry: MockConfigEntry, **options: Any
) -> str:
    """The demo home, then the entry with some options; return the agent id.

    The entry's id names its one agent (`conversation.async_set_agent`).
    """
    await async_setup_demo_home(hass)
    set_agent_options(hass, entry, options)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return str(entry.entry_id)


def satellite_in(hass: HomeAssistant, area_name: str) -> str:
    """Register a voice satellite device in an area; return its device id."""
    config_entry = MockConfigEntry(domain="assist_satellite_test")
    config_entry.add_to_hass(hass)
    area = ar.async_get(hass).async_get_or_create(area_name)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=config_entry.entry_id,
        identifiers={("assist_satellite_test", area_name)},
        name=f"{area_name} satellite",
    )
    dr.async_get(hass).async_update_device(device.id, area_id=area.id)
    return device.id
