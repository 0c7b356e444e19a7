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
from homeassistant.core import Event, EventStateChangedData, HomeAssistant, callback
from homeassistant.helpers import (
    area_registry as ar,
    config_validation as cv,
    device_registry as dr,
    entity_registry as er,
)
from homeassistant.helpers.event import async_track_state_change_event
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
    """Furnish the demo home once it has started, and each demo device as it comes.

    On a first start the demo's own entry adds its devices after Home
    Assistant has started: each is put in its room when it is registered,
    and the check's light is switched off when it appears.
    """

    async def started(_: Event) -> None:
        await async_furnish(hass)

    @callback
    def registered(event: Event[er.EventEntityRegistryUpdatedData]) -> None:
        if event.data["action"] == "create" and event.data["entity_id"] in ROOMS:
            _place(hass, event.data["entity_id"])

    @callback
    def appeared(event: Event[EventStateChangedData]) -> None:
        if event.data["old_state"] is None and event.data["new_state"] is not None:
            hass.async_create_task(_async_switch_off(hass))

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STARTED, started)
    hass.bus.async_listen(er.EVENT_ENTITY_REGISTRY_UPDATED, registered)
    async_track_state_change_event(hass, STARTS_OFF, appeared)
    return True


async def async_furnish(hass: HomeAssistant) -> None:
    """Put the demo's devices in their rooms; switch the check's light off."""
    for entity_id in ROOMS:
        _place(hass, entity_id)
    await _async_switch_off(hass)


@callback
def _place(hass: HomeAssistant, entity_id: str) -> None:
    """One demo device in its room, once it is registered."""
    entry = er.async_get(hass).async_get(entity_id)
    if entry is None or entry.device_id is None:
        return
    areas = ar.async_get(hass)
    room = ROOMS[entity_id]
    area = areas.async_get_area_by_name(room) or areas.async_create(room)
    dr.async_get(hass).async_update_device(entry.device_id, area_id=area.id)


async def _async_switch_off(hass: HomeAssistant) -> None:
    """The light the README's check turns on, off."""
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": STARTS_OFF}, blocking=True
    )
