"""Development only: Home Assistant's demo home, furnished for Intent Router.

`scripts/develop` starts Home Assistant with `demo:` and this integration.
The demo's devices come with no areas, and its Kitchen Lights start on; the
README's check needs rooms ("it's too dark in the kitchen") and a light to
turn on. Once Home Assistant has started, this puts the demo's devices in
rooms, as a user would in Settings > Areas, and switches Kitchen Lights
off. Its speakers keep their room-like names ("Kitchen", "Living Room",
"Bedroom") and stay in no room: they are what the agent must not mistake
for the room. The tests set up the same home with `async_furnish`.
"""

from __future__ import annotations

from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    config_validation as cv,
    device_registry as dr,
    entity_registry as er,
)
from homeassistant.helpers.typing import ConfigType

DOMAIN = "demo_home"
CONFIG_SCHEMA = cv.empty_config_schema(DOMAIN)

# The room of each demo device, by one of its entities.
ROOMS = {
    "light.kitchen_lights": "Kitchen",
    "light.ceiling_lights": "Living Room",
    "light.living_room_rgbww_lights": "Living Room",
    "light.bed_light": "Bedroom",
    "light.office_rgbw_lights": "Office",
    "light.entrance_color_white_lights": "Hallway",
    "climate.heatpump": "Kitchen",
    "climate.hvac": "Living Room",
    "climate.ecobee": "Bedroom",
    "cover.kitchen_window": "Kitchen",
    "cover.living_room_window": "Living Room",
    "cover.hall_window": "Hallway",
    "cover.garage_door": "Garage",
}
# Off when the home is furnished: the README's check turns it on.
STARTS_OFF = "light.kitchen_lights"


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Furnish the demo home once Home Assistant has started."""

    async def started(_: Event) -> None:
        await async_furnish(hass)

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STARTED, started)
    return True


async def async_furnish(hass: HomeAssistant) -> None:
    """Put the demo's devices in their rooms; switch the check's light off."""
    areas = ar.async_get(hass)
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    for entity_id, room in ROOMS.items():
        entry = entities.async_get(entity_id)
        if entry is None or entry.device_id is None:
            continue
        area = areas.async_get_area_by_name(room) or areas.async_create(room)
        devices.async_update_device(entry.device_id, area_id=area.id)
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": STARTS_OFF}, blocking=True
    )
