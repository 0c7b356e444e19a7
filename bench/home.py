"""Fixture homes: the benchmark data's mini-homes, built as real HA homes.

A `HomeSpec` is one home in a neutral form (floors, areas, entities with
names, aliases, states and attributes, timers, media titles), read from
any of the fixture formats in `../shared/benchmarks/`, written for a
benchmark (`bench/dialogues.yaml`) or made up (`synthetic_home`).
`async_build_home` turns it into registries, real entities and exposure
settings inside a running Home Assistant.

How entities are made, and why: what is scored is what reached the devices,
so devices must be real. Controllable domains (light, switch, fan, cover,
lock, valve, media_player, climate, vacuum, lawn_mower, todo, calendar,
scene) are
entities of the real components, added through a test platform
(`setup_test_component_platform`, as core's own tests do), so HA's services,
their schemas, the intent handlers and supported-feature checks all run
unchanged; each entity records the action that reached it and changes its
state like a device. Scripts are real `script` entities. Read-only domains
(sensor, binary_sensor, person, weather, ...) are entity registry
entries plus `hass.states.async_set`, which is all that reading them needs.
Every entity of the home is exposed to Assist through HA's expose API.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
import json
import re
from typing import Any

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    setup_test_component_platform,
)

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.intent import async_register_timer_handler
from homeassistant.const import ATTR_FRIENDLY_NAME
from homeassistant.core import HomeAssistant, valid_entity_id
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)
from homeassistant.setup import async_setup_component
from homeassistant.util import slugify

from .devices import DEVICE_CLASSES, BenchEntity, BenchMediaPlayer, Record, _enum_value

SATELLITE_DOMAIN = "bench_satellite"


@dataclass(slots=True)
class EntitySpec:
    """One entity of a fixture home."""

    entity_id: str
    name: str
    state: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    area: str | None = None
    aliases: tuple[str, ...] = ()
    # Locks, for one, are not exposed by default in a real home.
    exposed: bool = True

    @property
    def domain(self) -> str:
        """The entity's domain."""
        return self.entity_id.partition(".")[0]


@dataclass(slots=True)
class HomeSpec:
    """A home: floors, areas (name -> floor name), entities, timers, media."""

    key: str
    floors: list[str] = field(default_factory=list)
    areas: dict[str, str | None] = field(default_factory=dict)
    entities: list[EntitySpec] = field(default_factory=list)
    timers: list[dict[str, Any]] = field(default_factory=list)
    media: list[str] = field(default_factory=list)
    context_area: str | None = None
    # Other names of areas ("Küche" for the Kitchen), as HA's area aliases.
    area_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The unit system the home's numbers are written in ("us" or "metric").
    units: str = "metric"
    # The household's language: HA's `config.language` in the instance.
    language: str = "en"

    def entity(self, entity_id: str) -> EntitySpec | None:
        """The entity with this id, if the home has it."""
        return next((e for e in self.entities if e.entity_id == entity_id), None)

    def add_area(self, name: str, floor: str | None = None) -> None:
        """Add an area (and its floor) unless the home has it."""
        if floor and floor not in self.floors:
            self.floors.append(floor)
        if name not in self.areas or (floor and self.areas[name] is None):
            self.areas[name] = floor


def slug(text: str) -> str:
    """`Living Room` -> `living_room`, as HA makes object ids."""
    return re.sub(r"[^a-z0-9]+", "_", text.casefold()).strip("_") or "x"


def _state_text(domain: str, value: Any) -> str | None:
    """Fixture states (strings, booleans, {in, out} pairs) as HA states."""
    if isinstance(value, dict):
        value = value.get("out", value.get("in"))
    if isinstance(value, bool):
        if domain in {"cover", "valve"}:
            return "open" if value else "closed"
        if domain == "lock":
            return "locked" if value else "unlocked"
        return "on" if value else "off"
    return None if value is None else str(value)


def _attributes(raw: dict[str, Any] | None) -> dict[str, Any]:
    attributes = {key: _enum_value(value) for key, value in (raw or {}).items()}
    if "native_unit_of_measurement" in attributes:
        attributes.setdefault(
            "unit_of_measurement", attributes.pop("native_unit_of_measurement")
        )
    if "temperature_unit" in attributes and "temperature" in attributes:
        attributes.setdefault("unit_of_measurement", attributes["temperature_unit"])
    return attributes


# A synthetic home writes a weather entity's native fields; Home Assistant
# shows them under these names, and its condition as the state.
_WEATHER_FIELDS = {
    "native_temperature": "temperature",
    "native_temperature_unit": "temperature_unit",
    "native_wind_speed": "wind_speed",
    "native_wind_speed_unit": "wind_speed_unit",
}


def _as_weather(state: str, attributes: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A weather entity's state and attributes as Home Assistant shows them."""
    shown = {_WEATHER_FIELDS.get(key, key): value for key, value in attributes.items()}
    if isinstance(shown.get("temperature"), str):
        shown["temperature"] = float(shown["temperature"])
    return str(shown.pop("condition", state)), shown


def _valid_id(entity_id: str) -> str:
    """An entity id HA accepts: the intents tests write "light.küchenlicht".

    HA would register such an entity as `light.kuchenlicht` while the home
    kept the fixture's id, so its state and area were lost; HA's own slug is
    what a real install would have.
    """
    if valid_entity_id(entity_id):
        return entity_id
    domain, _, object_id = entity_id.partition(".")
    return f"{domain}.{slugify(object_id)}"


def home_from_fixture(key: str, raw: dict[str, Any], language: str = "en") -> HomeSpec:
    """Read any of the fixture formats (intents tests, legacy, datasets)."""
    home = HomeSpec(key, language=language)
    floor_names: dict[str, str] = {}
    for floor in raw.get("floors") or []:
        floor_names[floor.get("id", floor["name"])] = floor["name"]
        home.floors.append(floor["name"])
    area_names: dict[str, str] = {}
    for area in raw.get("areas") or []:
        area_names[area.get("id", area["name"])] = area["name"]
        floor = area.get("floor")
        home.add_area(area["name"], floor_names.get(floor, floor) if floor else None)
        if area.get("context_area"):
            home.context_area = area["name"]
    for entity in raw.get("entities") or []:
        domain = entity.get("domain") or entity["id"].partition(".")[0]
        attributes = _attributes(entity.get("attributes"))
        state = _state_text(domain, entity.get("state"))
        if state is None and "native_value" in attributes:
            state = str(attributes.pop("native_value"))
        area = entity.get("area_name") or area_names.get(
            entity.get("area") or "", entity.get("area")
        )
        if area and area not in home.areas:
            home.add_area(area)
        entity_id = _valid_id(entity["id"])
        while home.entity(entity_id):
            # Two fixture entities with one id: HA registers the second as _2.
            entity_id += "_2"
        home.entities.append(
            EntitySpec(
                entity_id=entity_id,
                name=entity.get("name") or entity["id"],
                state=state,
                attributes=attributes,
                area=area,
                aliases=tuple(entity.get("aliases") or ()),
            )
        )
    for raw_timer in raw.get("timers") or []:
        timer = dict(raw_timer)
        if timer.get("area"):
            timer["area"] = area_names.get(timer["area"], timer["area"])
        home.timers.append(timer)
    home.media = [item["title"] for item in raw.get("media") or [] if "title" in item]
    if "°F" in json.dumps(raw, ensure_ascii=False) or (
        key.startswith("intents:") and language == "en"
    ):
        # The English intents tests' homes are American (68 degrees in the
        # living room, 42 °F outside): answers must come out in those numbers.
        home.units = "us"
    return home


# Synthetic homes (overhead.py, soak.py): areas, and the share of each kind
# of device: (domain, kind, share of the home, state, attributes).
SYNTHETIC_AREAS = [
    "Kitchen",
    "Living Room",
    "Bedroom",
    "Office",
    "Hallway",
    "Bathroom",
    "Garage",
    "Dining Room",
    "Guest Room",
    "Laundry",
    "Basement",
    "Attic",
    "Porch",
    "Garden",
    "Nursery",
    "Study",
    "Gym",
    "Pantry",
    "Library",
    "Loft",
]
SYNTHETIC_MIX: list[tuple[str, str, float, str, dict[str, Any]]] = [
    ("light", "Light", 0.30, "off", {}),
    ("switch", "Plug", 0.12, "off", {}),
    ("sensor", "Temperature", 0.20, "21.5", {"unit_of_measurement": "°C"}),
    ("binary_sensor", "Motion", 0.12, "off", {"device_class": "motion"}),
    ("cover", "Blind", 0.10, "closed", {"device_class": "blind"}),
    ("media_player", "Speaker", 0.06, "idle", {}),
    ("fan", "Fan", 0.04, "off", {}),
    ("climate", "Thermostat", 0.03, "heat", {"current_temperature": 20}),
    ("lock", "Door Lock", 0.03, "locked", {}),
]


def synthetic_home(size: int) -> HomeSpec:
    """A home with `size` exposed entities spread over areas and domains."""
    areas = SYNTHETIC_AREAS[: max(4, min(len(SYNTHETIC_AREAS), size // 10))]
    home = HomeSpec(f"synthetic-{size}")
    for area in areas:
        home.add_area(area)
    counts = {
        domain: max(1, round(share * size)) for domain, _, share, _, _ in SYNTHETIC_MIX
    }
    counts["light"] += size - sum(counts.values())
    for domain, kind, _, state, attributes in SYNTHETIC_MIX:
        for index in range(counts[domain]):
            area = areas[index % len(areas)]
            number = index // len(areas) + 1
            name = f"{area} {kind} {number}"
            entity_id = f"{domain}.{name.casefold().replace(' ', '_')}"
            home.entities.append(EntitySpec(entity_id, name, state, attributes, area))
    return home


DEFAULT_STATES = {
    "light": "off",
    "switch": "off",
    "fan": "off",
    "cover": "closed",
    "lock": "locked",
    "valve": "closed",
    "media_player": "playing",
    "climate": "heat",
    "vacuum": "docked",
    "lawn_mower": "docked",
    "sensor": "unknown",
    "binary_sensor": "off",
    "person": "home",
    "weather": "sunny",
}


class BuiltHome:
    """A home inside a running HA: its devices, for resets and recording."""

    def __init__(self, hass: HomeAssistant, spec: HomeSpec) -> None:
        """Nothing is built yet."""
        self.hass = hass
        self.spec = spec
        self.devices: dict[str, BenchEntity] = {}
        self.static: dict[str, tuple[str, dict[str, Any]]] = {}
        self.area_ids: dict[str, str] = {}
        self._satellite_entry: MockConfigEntry | None = None
        self._satellites = 0

    def reset(self, setup: dict[str, Any] | None = None) -> None:
        """Every entity back to its fixture state, then a case's setup."""
        setup = setup or {}
        for entity_id, device in self.devices.items():
            change = setup.get(entity_id) or {}
            device.reset(
                _state_text(device.entity_id.partition(".")[0], change.get("state")),
                _attributes(change.get("attributes")),
            )
        for entity_id, (state, attributes) in self.static.items():
            change = setup.get(entity_id) or {}
            domain = entity_id.partition(".")[0]
            new_state = _state_text(domain, change.get("state"))
            new_state = new_state if new_state is not None else state
            new_attributes = {**attributes, **_attributes(change.get("attributes"))}
            if domain == "weather":
                new_state, new_attributes = _as_weather(new_state, new_attributes)
            self.hass.states.async_set(entity_id, new_state, new_attributes)

    def new_satellite(self, area: str | None) -> str:
        """A fresh voice satellite (in an area), able to run timers."""
        if self._satellite_entry is None:
            self._satellite_entry = MockConfigEntry(domain=SATELLITE_DOMAIN)
            self._satellite_entry.add_to_hass(self.hass)
        self._satellites += 1
        device_reg = dr.async_get(self.hass)
        device = device_reg.async_get_or_create(
            config_entry_id=self._satellite_entry.entry_id,
            identifiers={(SATELLITE_DOMAIN, str(self._satellites))},
            name=f"Satellite {self._satellites}",
        )
        if area is not None:
            device_reg.async_update_device(device.id, area_id=self.area_id(area))
        async_register_timer_handler(self.hass, device.id, _ignore_timer)
        return device.id

    def area_id(self, name: str) -> str:
        """The id of an area by name, creating the area if needed."""
        if name not in self.area_ids:
            area_reg = ar.async_get(self.hass)
            area = area_reg.async_get_area_by_name(name) or area_reg.async_create(name)
            self.area_ids[name] = area.id
        return self.area_ids[name]


def _ignore_timer(*_: Any) -> None:
    """Satellites would ring; the benchmark only needs timers to be allowed."""


async def async_build_home(
    hass: HomeAssistant, spec: HomeSpec, record: Record
) -> BuiltHome:
    """Create the home's floors, areas, entities and exposure in `hass`."""
    built = BuiltHome(hass, spec)
    floor_reg = fr.async_get(hass)
    area_reg = ar.async_get(hass)
    floor_ids = {}
    for name in spec.floors:
        level = floor_reg.async_get_floor_by_name(name) or floor_reg.async_create(name)
        floor_ids[name] = level.floor_id
    for name, floor in spec.areas.items():
        area = area_reg.async_get_area_by_name(name) or area_reg.async_create(
            name,
            aliases=set(spec.area_aliases.get(name, ())),
            floor_id=floor_ids.get(floor) if floor else None,
        )
        built.area_ids[name] = area.id

    by_domain: dict[str, list[EntitySpec]] = {}
    for entity in spec.entities:
        by_domain.setdefault(entity.domain, []).append(entity)

    BenchMediaPlayer.media_titles = tuple(spec.media)
    for domain, entities in by_domain.items():
        if domain in DEVICE_CLASSES:
            devices = [
                DEVICE_CLASSES[domain](
                    e.entity_id,
                    e.name,
                    e.state or DEFAULT_STATES.get(domain),
                    e.attributes,
                    record,
                )
                for e in entities
            ]
            built.devices.update((d.entity_id, d) for d in devices)
            setup_test_component_platform(hass, domain, devices)
            assert await async_setup_component(
                hass, domain, {domain: [{"platform": "test"}]}
            )
        elif domain == "scene":
            assert await async_setup_component(
                hass,
                "scene",
                {
                    "scene": [
                        # An id gives a registry entry, so areas and aliases.
                        {"id": e.entity_id, "name": e.name, "entities": {}}
                        for e in entities
                    ]
                },
            )
        elif domain == "script":
            assert await async_setup_component(
                hass,
                "script",
                {
                    "script": {
                        e.entity_id.partition(".")[2]: {
                            "alias": e.name,
                            "sequence": [{"event": "bench_script_ran"}],
                        }
                        for e in entities
                    }
                },
            )
        else:
            if domain == "weather":
                # Its intent (HassGetWeather) comes with the component.
                assert await async_setup_component(hass, domain, {})
            _add_static(hass, built, entities)
    await hass.async_block_till_done()

    entity_reg = er.async_get(hass)
    for entity in spec.entities:
        if (entry := entity_reg.async_get(entity.entity_id)) is not None:
            entity_reg.async_update_entity(
                entry.entity_id,
                area_id=built.area_id(entity.area) if entity.area else None,
                aliases=[er.COMPUTED_NAME, *entity.aliases],
            )
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity.entity_id, entity.exposed)
    exposed = {e.entity_id for e in spec.entities}
    for state in hass.states.async_all():
        if state.entity_id not in exposed:
            async_expose_entity(hass, CONVERSATION_DOMAIN, state.entity_id, False)
    return built


def _add_static(
    hass: HomeAssistant, built: BuiltHome, entities: Iterable[EntitySpec]
) -> None:
    """Read-only entities: a registry entry (for area and aliases) and a state."""
    entity_reg = er.async_get(hass)
    for entity in entities:
        domain, _, object_id = entity.entity_id.partition(".")
        entry = entity_reg.async_get_or_create(
            domain,
            "bench",
            entity.entity_id,
            suggested_object_id=object_id,
            original_name=entity.name,
        )
        if entry.entity_id != entity.entity_id:  # pragma: no cover - id clash
            continue
        attributes = {**entity.attributes, ATTR_FRIENDLY_NAME: entity.name}
        if not isinstance(attributes.get("supported_features", 0), int):
            # Feature names only mean something to a real entity.
            del attributes["supported_features"]
        state = entity.state or DEFAULT_STATES.get(domain, "unknown")
        if domain == "weather":
            state, attributes = _as_weather(state, attributes)
        built.static[entity.entity_id] = (state, attributes)
        hass.states.async_set(entity.entity_id, state, attributes)
