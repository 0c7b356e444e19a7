"""Real Home Assistant entities for benchmark homes.

Each class is an ordinary entity of its domain's component (LightEntity,
CoverEntity, ...), added through a test platform, so HA's own service
handlers, schemas, supported-feature checks and intent handlers all run as
they do in a real home. The entities change their state the way a device
would (a light turned on is on, at the brightness asked), so the end state
can be scored as well as the calls. `reset` restores the fixture state
between cases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any

from homeassistant.components.calendar import CalendarEntity, CalendarEvent
from homeassistant.components.climate import (
    ClimateEntity,
    ClimateEntityFeature,
    HVACMode,
)
from homeassistant.components.cover import (
    ATTR_POSITION,
    CoverDeviceClass,
    CoverEntity,
    CoverEntityFeature,
)
from homeassistant.components.fan import FanEntity, FanEntityFeature
from homeassistant.components.lawn_mower import (
    LawnMowerActivity,
    LawnMowerEntity,
    LawnMowerEntityFeature,
)
from homeassistant.components.light import (
    ATTR_BRIGHTNESS,
    ATTR_COLOR_TEMP_KELVIN,
    ATTR_HS_COLOR,
    ATTR_RGB_COLOR,
    ColorMode,
    LightEntity,
)
from homeassistant.components.lock import LockEntity
from homeassistant.components.media_player import (
    BrowseMedia,
    MediaClass,
    MediaPlayerDeviceClass,
    MediaPlayerEntity,
    MediaPlayerEntityFeature,
    MediaPlayerState,
    SearchMedia,
    SearchMediaQuery,
)
from homeassistant.components.switch import SwitchEntity
from homeassistant.components.todo import (
    TodoItem,
    TodoItemStatus,
    TodoListEntity,
    TodoListEntityFeature,
)
from homeassistant.components.vacuum import (
    StateVacuumEntity,
    VacuumActivity,
    VacuumEntityFeature,
)
from homeassistant.components.valve import (
    ValveDeviceClass,
    ValveEntity,
    ValveEntityFeature,
)
from homeassistant.const import UnitOfTemperature
from homeassistant.helpers.entity import Entity
from homeassistant.util import color as color_util, dt as dt_util

# Called with (service-equivalent, entity_id, data) for every device action.
type Record = Callable[[str, str, dict[str, Any]], None]

ON_STATES = {"on", "true", "open", "opening", "playing", "locked", "home"}


class BenchEntity(Entity):
    """What all benchmark devices share: naming, recording, reset."""

    _attr_should_poll = False
    _attr_has_entity_name = False

    def __init__(
        self,
        entity_id: str,
        name: str,
        state: str | None,
        attributes: dict[str, Any],
        record: Record,
    ) -> None:
        """Keep the fixture state; `apply` sets it."""
        self.entity_id = entity_id
        self._attr_unique_id = f"bench-{entity_id}"
        self._attr_name = name
        self._record = record
        self._initial = (state, dict(attributes))
        self.apply(state, attributes)

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set the entity to a state (from a fixture or a case's setup)."""

    def reset(self, state: str | None = None, attributes: dict | None = None) -> None:
        """Back to the fixture state, then the case's setup on top."""
        base_state, base_attributes = self._initial
        self.apply(base_state, base_attributes)
        if state is not None or attributes:
            self.apply(state if state is not None else base_state, attributes or {})
        if self.hass is not None:
            self.async_write_ha_state()

    def record(self, service: str, data: dict[str, Any] | None = None) -> None:
        """Note an action that reached this device."""
        self._record(service, self.entity_id, dict(data or {}))

    def act(
        self, service: str, data: dict[str, Any] | None = None, **attr: Any
    ) -> None:
        """Note an action, take the `_attr_` values it sets, write the state."""
        self.record(service, data)
        for name, value in attr.items():
            setattr(self, f"_attr_{name}", value)
        self.async_write_ha_state()


def _is_on(state: str | None) -> bool:
    return str(state).casefold() in ON_STATES


def _features(flag_type: type, value: Any, default: int) -> int:
    """Supported features from a fixture: an int, names like `X.Y.OPEN`, or none."""
    if value is None:
        return default
    if isinstance(value, int):
        return value
    result = 0
    for item in value if isinstance(value, list) else [value]:
        name = str(item).rsplit(".", 1)[-1]
        if name in flag_type.__members__:
            result |= flag_type[name]
    return result or default


def _member[E: StrEnum](kind: type[E], value: Any, default: E) -> E:
    """`value` (in any case) as a member of `kind`, else `default`."""
    text = str(value).casefold()
    return kind(text) if text in kind.__members__.values() else default


def _enum_value(value: Any) -> Any:
    """`sensor.SensorDeviceClass.ENERGY` -> `energy`; other values unchanged."""
    if isinstance(value, str) and value.count(".") >= 2 and value.isascii():
        head, _, name = value.rpartition(".")
        if head[:1].islower() and name.isupper():
            return name.lower()
    return value


def _color_mode(value: Any) -> ColorMode | None:
    """A colour mode from a fixture (`brightness`, `light.ColorMode.HS`, ...)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None:
        return None
    name = str(_enum_value(value)).rsplit(".", 1)[-1].lower()
    return ColorMode(name) if name in ColorMode.__members__.values() else None


class BenchLight(BenchEntity, LightEntity):
    """A light with brightness, colour and colour temperature (unless told)."""

    _attr_min_color_temp_kelvin = 2000
    _attr_max_color_temp_kelvin = 6500

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set on/off, brightness and colour modes."""
        if state is not None:
            self._attr_is_on = _is_on(state)
        modes = attributes.get("supported_color_modes")
        if modes is not None:
            parsed = {_color_mode(m) for m in modes} - {None}
            self._attr_supported_color_modes = parsed or {ColorMode.ONOFF}
        elif getattr(self, "_attr_supported_color_modes", None) is None:
            self._attr_supported_color_modes = {ColorMode.HS, ColorMode.COLOR_TEMP}
        supported = self._attr_supported_color_modes or {ColorMode.ONOFF}
        mode = _color_mode(attributes.get("color_mode"))
        self._attr_color_mode = mode if mode in supported else min(supported)
        if ATTR_BRIGHTNESS in attributes:
            self._attr_brightness = attributes[ATTR_BRIGHTNESS]
        elif getattr(self, "_attr_brightness", None) is None:
            self._attr_brightness = 255 if self._attr_is_on else None
        self._attr_hs_color = attributes.get(ATTR_HS_COLOR, (0.0, 0.0))
        self._attr_color_temp_kelvin = attributes.get(ATTR_COLOR_TEMP_KELVIN, 4000)

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Turn on, taking brightness and colour as HA converted them."""
        self.record("light.turn_on", kwargs)
        self._attr_is_on = True
        if ATTR_BRIGHTNESS in kwargs:
            self._attr_brightness = kwargs[ATTR_BRIGHTNESS]
        elif self._attr_brightness is None:
            self._attr_brightness = 255
        if ATTR_HS_COLOR in kwargs:
            self._attr_hs_color = kwargs[ATTR_HS_COLOR]
            self._attr_color_mode = ColorMode.HS
        if ATTR_RGB_COLOR in kwargs:
            self._attr_hs_color = color_util.color_RGB_to_hs(*kwargs[ATTR_RGB_COLOR])
            self._attr_color_mode = ColorMode.HS
        if ATTR_COLOR_TEMP_KELVIN in kwargs:
            self._attr_color_temp_kelvin = kwargs[ATTR_COLOR_TEMP_KELVIN]
            self._attr_color_mode = ColorMode.COLOR_TEMP
        self.async_write_ha_state()

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Turn off."""
        self.act("light.turn_off", kwargs, is_on=False)


class BenchSwitch(BenchEntity, SwitchEntity):
    """A switch or plug."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set on/off."""
        if state is not None:
            self._attr_is_on = _is_on(state)
        if "device_class" in attributes:
            self._attr_device_class = _enum_value(attributes["device_class"])

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Turn on."""
        self.act("switch.turn_on", kwargs, is_on=True)

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Turn off."""
        self.act("switch.turn_off", kwargs, is_on=False)


class BenchFan(BenchEntity, FanEntity):
    """A fan with speed."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set on/off and speed."""
        self._attr_supported_features = _features(
            FanEntityFeature,
            attributes.get("supported_features"),
            FanEntityFeature.SET_SPEED
            | FanEntityFeature.TURN_ON
            | FanEntityFeature.TURN_OFF,
        ) | (FanEntityFeature.TURN_ON | FanEntityFeature.TURN_OFF)
        if state is not None:
            self._attr_is_on = _is_on(state)
        self._attr_percentage = attributes.get(
            "percentage", 100 if getattr(self, "_attr_is_on", False) else 0
        )
        self._attr_oscillating = attributes.get("oscillating")

    @property
    def is_on(self) -> bool | None:
        """On unless off (speed alone does not say)."""
        return self._attr_is_on

    async def async_turn_on(
        self,
        percentage: int | None = None,
        preset_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        """Turn on, at a speed if given (else as before, or full)."""
        self.act(
            "fan.turn_on",
            {"percentage": percentage} if percentage is not None else {},
            is_on=True,
            percentage=percentage
            if percentage is not None
            else (self._attr_percentage or 100),
        )

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Turn off."""
        self.act("fan.turn_off", is_on=False, percentage=0)

    async def async_set_percentage(self, percentage: int) -> None:
        """Set the speed (0 turns it off)."""
        self.act(
            "fan.set_percentage",
            {"percentage": percentage},
            percentage=percentage,
            is_on=percentage > 0,
        )


class BenchCover(BenchEntity, CoverEntity):
    """Blinds, curtains, windows, garage doors."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set open/closed, position, device class and features."""
        self._attr_supported_features = _features(
            CoverEntityFeature,
            attributes.get("supported_features"),
            CoverEntityFeature.OPEN
            | CoverEntityFeature.CLOSE
            | CoverEntityFeature.SET_POSITION
            | CoverEntityFeature.STOP,
        )
        if (device_class := attributes.get("device_class")) is not None:
            value = str(_enum_value(device_class)).rsplit(".", 1)[-1].lower()
            if value in CoverDeviceClass.__members__.values():
                self._attr_device_class = CoverDeviceClass(value)
        if "current_position" in attributes:
            self._attr_current_cover_position = attributes["current_position"]
        elif state is not None:
            self._attr_current_cover_position = 100 if _is_on(state) else 0
        if state is not None and "current_position" not in attributes:
            self._attr_current_cover_position = 100 if _is_on(state) else 0
        if not self._attr_supported_features & CoverEntityFeature.SET_POSITION:
            closed = not _is_on(state) if state is not None else True
            self._attr_is_closed = closed
        else:
            self._attr_is_closed = None

    @property
    def is_closed(self) -> bool | None:
        """Closed at position 0."""
        if self._attr_is_closed is not None:
            return self._attr_is_closed
        return (self._attr_current_cover_position or 0) == 0

    def _move(self, position: int) -> None:
        self._attr_current_cover_position = position
        if self._attr_is_closed is not None:
            self._attr_is_closed = position == 0
        self.async_write_ha_state()

    async def async_open_cover(self, **kwargs: Any) -> None:
        """Open fully."""
        self.record("cover.open_cover")
        self._move(100)

    async def async_close_cover(self, **kwargs: Any) -> None:
        """Close."""
        self.record("cover.close_cover")
        self._move(0)

    async def async_set_cover_position(self, **kwargs: Any) -> None:
        """Move to a position."""
        self.record("cover.set_cover_position", {"position": kwargs[ATTR_POSITION]})
        self._move(kwargs[ATTR_POSITION])

    async def async_stop_cover(self, **kwargs: Any) -> None:
        """Stop moving."""
        self.record("cover.stop_cover")


class BenchLock(BenchEntity, LockEntity):
    """A door lock."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set locked/unlocked."""
        if state is not None:
            self._attr_is_locked = str(state).casefold() in {"locked", "on", "true"}

    async def async_lock(self, **kwargs: Any) -> None:
        """Lock."""
        self.act("lock.lock", is_locked=True)

    async def async_unlock(self, **kwargs: Any) -> None:
        """Unlock."""
        self.act("lock.unlock", is_locked=False)


class BenchValve(BenchEntity, ValveEntity):
    """A water valve, with a position when the fixture says so."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set open/closed and position support."""
        position = attributes.get(
            "current_position", attributes.get("current_valve_position")
        )
        # Valves move to a position unless the fixture says they cannot.
        self._attr_reports_position = bool(attributes.get("reports_position", True))
        self._attr_supported_features = _features(
            ValveEntityFeature,
            attributes.get("supported_features"),
            ValveEntityFeature.OPEN | ValveEntityFeature.CLOSE,
        ) | (ValveEntityFeature.SET_POSITION if self._attr_reports_position else 0)
        self._attr_device_class = ValveDeviceClass.WATER
        if self._attr_reports_position:
            if position is None:
                position = 100 if _is_on(state) else 0
            self._attr_current_valve_position = position
            self._attr_is_closed = position == 0
        elif state is not None:
            self._attr_is_closed = not _is_on(state)

    def _move(self, position: int) -> None:
        if self._attr_reports_position:
            self._attr_current_valve_position = position
        self._attr_is_closed = position == 0
        self.async_write_ha_state()

    async def async_open_valve(self) -> None:
        """Open."""
        self.record("valve.open_valve")
        self._move(100)

    async def async_close_valve(self) -> None:
        """Close."""
        self.record("valve.close_valve")
        self._move(0)

    async def async_set_valve_position(self, position: int) -> None:
        """Move to a position."""
        self.record("valve.set_valve_position", {"position": position})
        self._move(position)


class BenchMediaPlayer(BenchEntity, MediaPlayerEntity):
    """A speaker or TV that can search and play the home's media titles."""

    media_titles: Sequence[str] = ()

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set the player state, volume and features."""
        self._attr_supported_features = _features(
            MediaPlayerEntityFeature,
            attributes.get("supported_features"),
            0,
        ) | (
            MediaPlayerEntityFeature.PAUSE
            | MediaPlayerEntityFeature.PLAY
            | MediaPlayerEntityFeature.STOP
            | MediaPlayerEntityFeature.NEXT_TRACK
            | MediaPlayerEntityFeature.PREVIOUS_TRACK
            | MediaPlayerEntityFeature.VOLUME_SET
            | MediaPlayerEntityFeature.VOLUME_STEP
            | MediaPlayerEntityFeature.VOLUME_MUTE
            | MediaPlayerEntityFeature.PLAY_MEDIA
            | MediaPlayerEntityFeature.SEARCH_MEDIA
            | MediaPlayerEntityFeature.TURN_ON
            | MediaPlayerEntityFeature.TURN_OFF
        )
        if (device_class := attributes.get("device_class")) is not None:
            value = str(_enum_value(device_class)).rsplit(".", 1)[-1].lower()
            if value in MediaPlayerDeviceClass.__members__.values():
                self._attr_device_class = MediaPlayerDeviceClass(value)
        if state is not None:
            self._attr_state = _member(
                MediaPlayerState, state, MediaPlayerState.PLAYING
            )
        elif getattr(self, "_attr_state", None) is None:
            self._attr_state = MediaPlayerState.PLAYING
        self._attr_media_content_id = None
        # What it plays, when a home says (bench/day.yaml asks about it).
        self._attr_media_title = attributes.get("media_title")
        self._attr_media_artist = attributes.get("media_artist")
        self._attr_media_track = attributes.get("media_track", 1)
        # Fixtures write numbers as text sometimes ("0.5"): a device holds a number.
        self._attr_volume_level = float(attributes.get("volume_level", 0.5))
        self._attr_is_volume_muted = attributes.get("is_volume_muted", False)

    async def async_media_pause(self) -> None:
        """Pause."""
        self.act("media_player.media_pause", state=MediaPlayerState.PAUSED)

    async def async_media_play(self) -> None:
        """Play or resume."""
        self.act("media_player.media_play", state=MediaPlayerState.PLAYING)

    async def async_media_stop(self) -> None:
        """Stop."""
        self.act("media_player.media_stop", state=MediaPlayerState.IDLE)

    async def async_media_next_track(self) -> None:
        """Next track."""
        track = (self._attr_media_track or 0) + 1
        self.act("media_player.media_next_track", media_track=track)

    async def async_media_previous_track(self) -> None:
        """Previous track."""
        track = max(1, (self._attr_media_track or 1) - 1)
        self.act("media_player.media_previous_track", media_track=track)

    async def async_set_volume_level(self, volume: float) -> None:
        """Set the volume (0..1)."""
        self.act(
            "media_player.volume_set", {"volume_level": volume}, volume_level=volume
        )

    async def async_volume_up(self) -> None:
        """One step up."""
        volume = min(1.0, (self._attr_volume_level or 0) + 0.1)
        self.act("media_player.volume_up", volume_level=volume)

    async def async_volume_down(self) -> None:
        """One step down."""
        volume = max(0.0, (self._attr_volume_level or 0) - 0.1)
        self.act("media_player.volume_down", volume_level=volume)

    async def async_mute_volume(self, mute: bool) -> None:
        """Mute or unmute."""
        self.act(
            "media_player.volume_mute", {"is_volume_muted": mute}, is_volume_muted=mute
        )

    async def async_turn_on(self) -> None:
        """Turn on."""
        self.act("media_player.turn_on", state=MediaPlayerState.ON)

    async def async_turn_off(self) -> None:
        """Turn off."""
        self.act("media_player.turn_off", state=MediaPlayerState.OFF)

    async def async_play_media(
        self, media_type: str, media_id: str, **kwargs: Any
    ) -> None:
        """Play something by id."""
        self.act(
            "media_player.play_media",
            {"media_content_type": str(media_type), "media_content_id": media_id},
            state=MediaPlayerState.PLAYING,
            media_title=media_id,
            media_content_id=media_id,
            media_content_type=str(media_type),
        )

    async def async_search_media(self, query: SearchMediaQuery) -> SearchMedia:
        """The home's titles that match, else the query itself.

        Like a streaming service's library, every search finds something, so
        "play <anything>" can succeed: what is scored is whether the right
        query reached the right player.
        """
        wanted = query.search_query.casefold()
        found = [
            title
            for title in self.media_titles
            if wanted in title.casefold() or title.casefold() in wanted
        ] or [query.search_query]
        media_class = min(query.media_filter_classes or [MediaClass.MUSIC])
        return SearchMedia(
            result=[
                BrowseMedia(
                    media_class=media_class,
                    media_content_id=title,
                    media_content_type="music",
                    title=title,
                    can_play=True,
                    can_expand=False,
                )
                for title in found
            ]
        )


class BenchClimate(BenchEntity, ClimateEntity):
    """A thermostat."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set mode, temperatures and unit."""
        self._attr_supported_features = (
            ClimateEntityFeature.TARGET_TEMPERATURE
            | ClimateEntityFeature.TURN_ON
            | ClimateEntityFeature.TURN_OFF
        )
        modes = attributes.get("hvac_modes") or ["off", "heat", "cool", "auto"]
        self._attr_hvac_modes = [HVACMode(m) for m in modes]
        value = attributes.get("hvac_mode", state)
        self._attr_hvac_mode = (
            HVACMode(value) if value in HVACMode.__members__.values() else HVACMode.HEAT
        )
        current = attributes.get("current_temperature")
        if current is None and state is not None:
            try:
                current = float(state)
            except ValueError:
                current = None
        self._attr_current_temperature = current
        self._attr_target_temperature = attributes.get(
            "temperature", attributes.get("target_temperature", current)
        )
        unit = str(attributes.get("unit_of_measurement", ""))
        self._fixture_unit = (
            UnitOfTemperature.FAHRENHEIT
            if "F" in unit
            else UnitOfTemperature.CELSIUS
            if "C" in unit
            else None
        )
        self._attr_min_temp = 0
        self._attr_max_temp = 100

    @property
    def temperature_unit(self) -> str:
        """The fixture's unit, else the home's: its numbers are as written."""
        if self._fixture_unit is not None:
            return self._fixture_unit
        return self.hass.config.units.temperature_unit

    async def async_set_temperature(self, **kwargs: Any) -> None:
        """Set the target temperature."""
        self.record("climate.set_temperature", kwargs)
        if "temperature" in kwargs:
            self._attr_target_temperature = kwargs["temperature"]
        if "hvac_mode" in kwargs:
            self._attr_hvac_mode = HVACMode(kwargs["hvac_mode"])
        self.async_write_ha_state()

    async def async_set_hvac_mode(self, hvac_mode: HVACMode) -> None:
        """Set the mode."""
        self.act(
            "climate.set_hvac_mode", {"hvac_mode": str(hvac_mode)}, hvac_mode=hvac_mode
        )

    async def async_turn_on(self) -> None:
        """Turn on (heat)."""
        self.act("climate.turn_on", hvac_mode=HVACMode.HEAT)

    async def async_turn_off(self) -> None:
        """Turn off."""
        self.act("climate.turn_off", hvac_mode=HVACMode.OFF)


class BenchVacuum(BenchEntity, StateVacuumEntity):
    """A robot vacuum."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set its activity."""
        self._attr_supported_features = (
            VacuumEntityFeature.START
            | VacuumEntityFeature.STOP
            | VacuumEntityFeature.PAUSE
            | VacuumEntityFeature.RETURN_HOME
            | VacuumEntityFeature.STATE
        )
        self._attr_activity = _member(VacuumActivity, state, VacuumActivity.DOCKED)

    async def async_start(self) -> None:
        """Start cleaning."""
        self.act("vacuum.start", activity=VacuumActivity.CLEANING)

    async def async_stop(self, **kwargs: Any) -> None:
        """Stop."""
        self.act("vacuum.stop", activity=VacuumActivity.IDLE)

    async def async_pause(self) -> None:
        """Pause."""
        self.act("vacuum.pause", activity=VacuumActivity.PAUSED)

    async def async_return_to_base(self, **kwargs: Any) -> None:
        """Go home."""
        self.act("vacuum.return_to_base", activity=VacuumActivity.RETURNING)


class BenchLawnMower(BenchEntity, LawnMowerEntity):
    """A robot lawn mower."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Set its activity."""
        self._attr_supported_features = (
            LawnMowerEntityFeature.START_MOWING
            | LawnMowerEntityFeature.DOCK
            | LawnMowerEntityFeature.PAUSE
        )
        self._attr_activity = _member(
            LawnMowerActivity, state, LawnMowerActivity.DOCKED
        )

    async def async_start_mowing(self) -> None:
        """Start mowing."""
        self.act("lawn_mower.start_mowing", activity=LawnMowerActivity.MOWING)

    async def async_dock(self) -> None:
        """Go back to the dock."""
        self.act("lawn_mower.dock", activity=LawnMowerActivity.DOCKED)

    async def async_pause(self) -> None:
        """Pause."""
        self.act("lawn_mower.pause", activity=LawnMowerActivity.PAUSED)


class BenchTodo(BenchEntity, TodoListEntity):
    """A to-do list (HA's list intents call its methods, not services)."""

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Fill the list from the fixture."""
        self._attr_supported_features = (
            TodoListEntityFeature.CREATE_TODO_ITEM
            | TodoListEntityFeature.UPDATE_TODO_ITEM
            | TodoListEntityFeature.DELETE_TODO_ITEM
        )
        items = attributes.get("todo_items") or attributes.get("items") or []
        self._attr_todo_items = [
            TodoItem(
                summary=str(
                    item.get("summary", item) if isinstance(item, dict) else item
                ),
                uid=f"{index}",
                status=TodoItemStatus.NEEDS_ACTION,
            )
            for index, item in enumerate(items)
        ]

    async def async_create_todo_item(self, item: TodoItem) -> None:
        """Add an item."""
        self.record("todo.add_item", {"item": item.summary})
        items = list(self._attr_todo_items or [])
        item.uid = item.uid or f"new-{len(items)}"
        self._attr_todo_items = [*items, item]
        self.async_write_ha_state()

    async def async_update_todo_item(self, item: TodoItem) -> None:
        """Change an item (complete it)."""
        items = self._attr_todo_items or []
        summary = next((i.summary for i in items if i.uid == item.uid), item.summary)
        self.record(
            "todo.update_item",
            {"item": summary, "status": str(item.status) if item.status else None},
        )
        self._attr_todo_items = [item if i.uid == item.uid else i for i in items]
        self.async_write_ha_state()

    async def async_delete_todo_items(self, uids: list[str]) -> None:
        """Remove items."""
        items = self._attr_todo_items or []
        for removed in (i for i in items if i.uid in uids):
            self.record("todo.remove_item", {"item": removed.summary})
        self._attr_todo_items = [i for i in items if i.uid not in uids]
        self.async_write_ha_state()


class BenchCalendar(BenchEntity, CalendarEntity):
    """A calendar with a case's events, on the day the benchmark runs.

    A case's events are written for the day of its `now` ("2025-04-02
    08:30"); they move to today, at the same hour, so that "today" and
    "tonight" mean what the case meant.
    """

    def apply(self, state: str | None, attributes: dict[str, Any]) -> None:
        """Keep the case's events and the day they were written for."""
        self._written = list(attributes.get("events") or [])
        said_now = attributes.get("now")
        self._day = dt_util.parse_datetime(said_now).date() if said_now else None

    def _events(self) -> list[CalendarEvent]:
        """The events, moved from the case's day to today."""
        days = (dt_util.now().date() - self._day).days if self._day else 0
        return [
            CalendarEvent(
                start=_moved(event["start"], days),
                end=_moved(event["end"], days),
                summary=str(event.get("summary", "")),
                description=event.get("description"),
                location=event.get("location"),
            )
            for event in self._written
        ]

    @property
    def event(self) -> CalendarEvent | None:
        """The event on now, or the next one."""
        now = dt_util.now()
        coming = [e for e in self._events() if e.end_datetime_local > now]
        return min(coming, key=lambda e: e.start_datetime_local, default=None)

    async def async_get_events(
        self, hass: Any, start_date: datetime, end_date: datetime
    ) -> list[CalendarEvent]:
        """The events between two times."""
        return [
            e
            for e in self._events()
            if e.start_datetime_local < end_date and e.end_datetime_local > start_date
        ]


def _moved(when: str, days: int) -> date | datetime:
    """A case's event time `days` later, at the same hour in HA's time zone."""
    if len(when) == len("2025-04-06"):
        return date.fromisoformat(when) + timedelta(days=days)
    parsed = dt_util.parse_datetime(when)
    assert parsed is not None, when
    wall = parsed.replace(tzinfo=dt_util.get_default_time_zone())
    return wall + timedelta(days=days)


DEVICE_CLASSES: dict[str, type[BenchEntity]] = {
    "calendar": BenchCalendar,
    "light": BenchLight,
    "switch": BenchSwitch,
    "fan": BenchFan,
    "cover": BenchCover,
    "lock": BenchLock,
    "valve": BenchValve,
    "media_player": BenchMediaPlayer,
    "climate": BenchClimate,
    "vacuum": BenchVacuum,
    "lawn_mower": BenchLawnMower,
    "todo": BenchTodo,
}
