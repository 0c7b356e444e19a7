"""What the model may see and use, built from HA's registries and exposure.

Only entities exposed to Assist ever enter the catalog. A house with hundreds
of exposed entities would make every prompt slow on a small local model, so
the entities sent are a shortlist: those named in the utterance (by name,
alias, area or kind of device) and those in the speaker's area. Validation
still accepts any exposed entity (a follow-up may name one off the list).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.core import HomeAssistant, State, SupportsResponse
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)
from homeassistant.helpers.service import async_get_all_descriptions

from ..core.domains import (
    DOMAINS,
    ConfirmPolicy,
    action_asks_first,
    asks_first,
    domain_info,
)
from ..core.records import EntityInfo
from ..core.safety import is_denied
from ..language import content_words, fold, kind_words
from .tools import Tool, ToolSource

# Small homes are sent whole; larger ones get a shortlist of this size.
MAX_PROMPT_ENTITIES = 40
# Up to this many exposed entities are all listed in the prompt's stable
# part, the same for every turn, satellite and area, so a server's prompt
# cache holds them; larger homes list the shortlist (which varies).
MAX_LISTED_ENTITIES = 100

# Searching, browsing and playing by media id is what `music.play` does, by
# name; the raw services would only tempt the model to invent ids.
HIDDEN_SERVICES = frozenset(
    {
        "media_player.browse_media",
        "media_player.play_media",
        "media_player.search_media",
    }
)

# What the last turns acted on outranks anything merely mentioned.
RECENT_BONUS = 10


@dataclass(slots=True, frozen=True)
class ServiceInfo:
    """An allowed service and the data fields it takes (with value hints)."""

    tool: str
    fields: tuple[str, ...]
    # Returns data (a forecast, a list) rather than changing anything.
    responds: bool = False
    # The field names offered: one way to say each quantity (a model may not
    # use a field it was not shown, such as raw 0-255 `brightness`).
    accepts: frozenset[str] = frozenset()


@dataclass(slots=True)
class Catalog:
    """What one utterance may see and act on.

    `listed` are named to the model in the prompt's stable part, `entities`
    (the shortlist, a subset) come with their states and are what the plan
    may target; `exposed` bounds what any plan may touch.
    """

    exposed: dict[str, EntityInfo]
    entities: list[EntityInfo]
    listed: list[EntityInfo]
    services: dict[str, ServiceInfo]
    areas: list[str]
    speaker_area: str | None
    # Every area's name, with its floor's name when it has one.
    area_floors: dict[str, str | None] = field(default_factory=dict)
    # Each area's aliases set in HA, by the area's name.
    area_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tools: dict[str, Tool] = field(default_factory=dict)
    # What the speaker's last turns acted on (newest last).
    recent_targets: list[str] = field(default_factory=list)

    def is_here(self, info: EntityInfo) -> bool:
        """Whether a device is in the speaker's area (never when either has none)."""
        return self.speaker_area is not None and info.area == self.speaker_area

    def place_names(self) -> list[str]:
        """Every name a place goes by: areas, their aliases, floors."""
        return [
            *self.area_floors,
            *(alias for aliases in self.area_aliases.values() for alias in aliases),
            *filter(None, self.area_floors.values()),
        ]

    def all_names(self) -> frozenset[str]:
        """Every name the home gives: entities, their aliases, and places."""
        return frozenset(
            name
            for name in (
                *self.place_names(),
                *(n for i in self.exposed.values() for n in (i.name, *i.aliases)),
            )
            if name
        )

    def reads_only(self, tool: str) -> bool:
        """Whether a service only returns data, such as weather.get_forecasts."""
        info = self.services.get(tool)
        return info is not None and info.responds

    def needs_confirmation(
        self, entity_id: str, confirm_domains: Iterable[str]
    ) -> bool:
        """Locks, alarms, garage doors and the like ask before acting."""
        info = self.exposed.get(entity_id)
        return info is not None and asks_first(
            info.domain, info.all_attributes.get("device_class"), confirm_domains
        )

    def action_needs_confirmation(
        self, tool: str, entity_id: str, policy: ConfirmPolicy
    ) -> bool:
        """Whether this action on this entity asks first (unlock, not lock).

        A tool of another domain acting on it asks whenever the entity does:
        what it does to the entity is not known.
        """
        info = self.exposed.get(entity_id)
        if info is None:
            return False
        domain, _, service = tool.partition(".")
        if domain != info.domain:
            return self.needs_confirmation(entity_id, policy.domains)
        device_class = info.all_attributes.get("device_class")
        return action_asks_first(service, info.domain, device_class, policy)


async def async_build_catalog(
    hass: HomeAssistant,
    said: Sequence[str],
    language: str,
    device_id: str | None,
    allowed_domains: Iterable[str],
    recent_targets: Iterable[str] = (),
    tool_sources: Iterable[ToolSource] = (),
    speaker_area_id: str | None = None,
) -> Catalog:
    """Build the catalog for one utterance's words (`said`, as `Said.words`).

    `recent_targets` (what the last turns acted on) always make the
    shortlist, so "turn it off again" finds "it" in a large home too. The
    speaker's area is the device's, unless `speaker_area_id` says otherwise
    (an automation routing text on behalf of a room).
    """
    device_reg = dr.async_get(hass)
    area_reg = ar.async_get(hass)
    floors = _floors(area_reg, fr.async_get(hass))
    exposed = _exposed(hass, device_reg, area_reg, floors)
    speaker_area = _speaker_area(device_reg, area_reg, device_id, speaker_area_id)
    recent_targets = list(recent_targets)
    entities = shortlist(
        exposed.values(), said, language, speaker_area, set(recent_targets)
    )
    listed = (
        sorted(exposed.values(), key=_listing_order)
        if len(exposed) <= MAX_LISTED_ENTITIES
        else entities
    )
    allowed = set(allowed_domains)
    services = await _async_services(hass, [e for e in listed if e.domain in allowed])
    return Catalog(
        exposed=exposed,
        entities=entities,
        listed=listed,
        services=services,
        areas=sorted(
            f"{area.name} ({floors[area.id]})" if area.id in floors else area.name
            for area in area_reg.async_list_areas()
        ),
        speaker_area=speaker_area,
        area_floors={
            area.name: floors.get(area.id) for area in area_reg.async_list_areas()
        },
        area_aliases={
            area.name: tuple(sorted(area.aliases))
            for area in area_reg.async_list_areas()
            if area.aliases
        },
        tools={
            tool.name: tool for source in tool_sources for tool in source.tools(exposed)
        },
        recent_targets=list(recent_targets),
    )


def _floors(area_reg: ar.AreaRegistry, floor_reg: fr.FloorRegistry) -> dict[str, str]:
    """Each area's floor by name, keyed by area id: where a device is, said."""
    return {
        area.id: floor.name
        for area in area_reg.async_list_areas()
        if area.floor_id and (floor := floor_reg.async_get_floor(area.floor_id))
    }


def _exposed(
    hass: HomeAssistant,
    device_reg: dr.DeviceRegistry,
    area_reg: ar.AreaRegistry,
    floors: Mapping[str, str],
) -> dict[str, EntityInfo]:
    """The entities exposed to Assist: the only ones a turn may see or act on."""
    entity_reg = er.async_get(hass)
    return {
        state.entity_id: _entity_info(state, entity_reg, device_reg, area_reg, floors)
        for state in hass.states.async_all()
        if async_should_expose(hass, CONVERSATION_DOMAIN, state.entity_id)
    }


def _speaker_area(
    device_reg: dr.DeviceRegistry,
    area_reg: ar.AreaRegistry,
    device_id: str | None,
    speaker_area_id: str | None,
) -> str | None:
    """The speaker's area by name: the one given, else the device's."""
    area_id = speaker_area_id
    if area_id is None and device_id and (device := device_reg.async_get(device_id)):
        area_id = device.area_id
    area = area_reg.async_get_area(area_id) if area_id else None
    return area.name if area else None


def unexposed_named(
    hass: HomeAssistant,
    exposed: Collection[str],
    said: Collection[str],
    places: Collection[str],
    language: str,
) -> list[str]:
    """Devices the words name in full that are not exposed to Assist.

    Only devices of the kinds the agent knows (domains.py): "Home
    Assistant", the built-in agent, is no device. A name must say more than
    the places said ("Kitchen" alone names the room, "Kitchen Door" a
    door). Nothing here is ever acted on; the user hears where to expose it
    (router.py).
    """
    entity_reg = er.async_get(hass)
    heard, place_words = set(said), set(places)
    found: set[str] = set()
    for state in hass.states.async_all():
        if state.entity_id in exposed or state.domain not in DOMAINS:
            continue
        entry = entity_reg.async_get(state.entity_id)
        aliases = entry.aliases if entry else ()
        for name in (state.name, *(a for a in aliases if isinstance(a, str))):
            name_words = _name_words(name, language)
            if name_words - place_words and name_words <= heard:
                found.add(state.name)
                break
    return sorted(found)


@lru_cache(maxsize=4096)
def _name_words(name: str, language: str) -> frozenset[str]:
    """A name's content words: the same names are read on every turn."""
    return content_words(name, language)


@lru_cache(maxsize=4096)
def folded_name(name: str) -> str:
    """A name as the words are folded: the same names are read on every turn."""
    return fold(name)


def shortlist(
    entities: Iterable[EntityInfo],
    said: Sequence[str],
    language: str,
    speaker_area: str | None,
    recent: set[str] | None = None,
) -> list[EntityInfo]:
    """The entities worth sending, in a stable order (area, then id)."""
    candidates = list(entities)
    if len(candidates) > MAX_PROMPT_ENTITIES:
        heard = set(said)
        folded = " ".join(said)
        recent = recent or set()
        scored = [
            (score, info)
            for info in candidates
            if (
                score := _relevance(info, heard, folded, language, speaker_area)
                + (RECENT_BONUS if info.entity_id in recent else 0)
            )
            > 0
        ]
        scored.sort(key=lambda pair: pair[0], reverse=True)
        candidates = [info for _, info in scored[:MAX_PROMPT_ENTITIES]]
    return sorted(candidates, key=_listing_order)


def _listing_order(info: EntityInfo) -> tuple[str, str]:
    """Area, then id: a stable order that keeps a room's devices together."""
    return (info.area or "~", info.entity_id)


def _relevance(
    info: EntityInfo,
    said: set[str],
    folded: str,
    language: str,
    speaker_area: str | None,
) -> int:
    """How strongly an utterance points at an entity (0: not at all)."""
    score = 0
    for name in (info.name, *info.aliases):
        if name and folded_name(name) in folded:
            score += 6
        score += 2 * len(_name_words(name, language) & said)
    if info.area:
        if folded_name(info.area) in folded:
            score += 3
        if info.area == speaker_area:
            score += 1
    if info.floor and folded_name(info.floor) in folded:
        score += 3
    if kind_words(info.domain, language) & said:
        score += 2
    return score


def _entity_info(
    state: State,
    entity_reg: er.EntityRegistry,
    device_reg: dr.DeviceRegistry,
    area_reg: ar.AreaRegistry,
    floors: Mapping[str, str],
) -> EntityInfo:
    """Name, aliases, area, floor and the attributes that matter, for one entity."""
    aliases: tuple[str, ...] = ()
    area_id: str | None = None
    device_id: str | None = None
    platform: str | None = None
    if entry := entity_reg.async_get(state.entity_id):
        device_id = entry.device_id
        platform = entry.platform
        aliases = tuple(sorted(a for a in entry.aliases if isinstance(a, str) and a))
        area_id = entry.area_id
        if area_id is None and entry.device_id:
            device = device_reg.async_get(entry.device_id)
            area_id = device.area_id if device else None
    area = area_reg.async_get_area(area_id) if area_id else None
    keep = domain_info(state.domain).acting_attributes
    return EntityInfo(
        entity_id=state.entity_id,
        name=state.name,
        aliases=aliases,
        area=area.name if area else None,
        state=state.state,
        attributes={k: v for k in keep if (v := state.attributes.get(k)) is not None},
        all_attributes=state.attributes,
        floor=floors.get(area.id) if area else None,
        device_id=device_id,
        platform=platform,
    )


async def _async_services(
    hass: HomeAssistant, entities: list[EntityInfo]
) -> dict[str, ServiceInfo]:
    """Allowed services these entities support, with the fields they support.

    HA's service descriptions say which entity features a service and each
    of its fields need; offering only what the entities in the prompt can
    do keeps the prompt short and the model from picking the impossible.
    """
    if not entities:
        return {}
    by_domain: dict[str, list[EntityInfo]] = {}
    for info in entities:
        by_domain.setdefault(info.domain, []).append(info)
    descriptions = await async_get_all_descriptions(hass)
    services: dict[str, ServiceInfo] = {}
    for domain, members in sorted(by_domain.items()):
        for service, description in sorted(descriptions.get(domain, {}).items()):
            tool = f"{domain}.{service}"
            # Only services that act on target entities: those are the ones
            # whose reach exposure can bound.
            if (
                is_denied(tool)
                or tool in HIDDEN_SERVICES
                or not description
                or "target" not in description
                or not any(_target_fits(description["target"], m) for m in members)
            ):
                continue
            fields = dict(_field_names(description.get("fields", {}), members))
            responds = hass.services.supports_response(domain, service) is not (
                SupportsResponse.NONE
            )
            services[tool] = ServiceInfo(
                tool, tuple(fields.values()), responds, frozenset(fields)
            )
    return services


def _target_fits(target: Mapping[str, Any], info: EntityInfo) -> bool:
    """Whether an entity passes a service's target filter."""
    filters = target.get("entity") or [{}]
    return any(
        info.domain in entity_filter.get("domain", [info.domain])
        and _features_fit(entity_filter.get("supported_features"), info)
        for entity_filter in filters
    )


def _features_fit(required: list[int] | None, info: EntityInfo) -> bool:
    """Whether an entity has one of the required feature sets (none: yes)."""
    if not required:
        return True
    features = info.all_attributes.get("supported_features")
    if not isinstance(features, int):  # a misbehaving integration's attribute
        features = 0
    return any(features & needed == needed for needed in required)


def _field_fits(spec: Mapping[str, Any], info: EntityInfo) -> bool:
    """Whether an entity passes a field's feature and attribute filters."""
    field_filter = spec.get("filter") or {}
    if not _features_fit(field_filter.get("supported_features"), info):
        return False
    for attribute, allowed in (field_filter.get("attribute") or {}).items():
        value = info.all_attributes.get(attribute)
        values = value if isinstance(value, (list, tuple, set)) else [value]
        if not any(item in allowed for item in values):
            return False
    return True


def _field_names(
    fields: Mapping[str, Any], members: list[EntityInfo]
) -> Iterable[tuple[str, str]]:
    """Fields some of the entities support, each with a hint of its values.

    Collapsed sections (advanced options, such as raw 0-255 brightness next
    to brightness_pct) are left out.
    """
    for name, spec in fields.items():
        if isinstance(spec, Mapping) and "fields" in spec:
            if not spec.get("collapsed"):
                yield from _field_names(spec["fields"], members)
        elif not isinstance(spec, Mapping):
            yield name, name
        elif any(_field_fits(spec, m) for m in members):
            yield name, _field_text(name, spec.get("selector") or {})


MAX_HINT_OPTIONS = 8


def _field_text(name: str, selector: Mapping[str, Any]) -> str:
    """`name` and what its values look like, from the field's UI selector.

    Small models write `"rgb_color": "red"` or a volume of 40 unless told.
    """
    for kind in ("number", "color_temp"):
        if (spec := selector.get(kind)) and "min" in spec and "max" in spec:
            return f"{name} {_number(spec['min'])}..{_number(spec['max'])}"
    if "color_rgb" in selector:
        return f"{name} [r,g,b]"
    if "boolean" in selector:
        return f"{name} true|false"
    options = (selector.get("select") or {}).get("options") or []
    values = [o if isinstance(o, str) else o.get("value") for o in options]
    if 0 < len(values) <= MAX_HINT_OPTIONS:
        return f"{name} {'|'.join(str(v) for v in values)}"
    return name


def _number(value: float) -> str:
    """1.0 as 1, 0.5 as 0.5."""
    return str(int(value)) if float(value).is_integer() else str(value)
