"""Benchmark cases, their homes, and how each one is scored.

Sets (all from `../shared/benchmarks/`, written by nobody on this project):

- `intents`: OHF-Voice/intents English tests, each with its per-file mini-home.
- `legacy`: home-assistant/intents legacy English tests, one shared home.
- `datasets`: home-assistant-datasets assist, assist-mini, intents (scored by
  end state, `expect_changes`) and questions (scored by `expect_response`).
- `slurp`: SLURP devel sentences whose label `slurp/ha_intent_map.json` maps
  to an HA intent, run in the legacy shared home, scored at intent level.

Scoring the intents tests (`intents`, `legacy`) by what was executed. HA
intent -> the service calls that carry it out (any listed one will do):

| intent | service calls on every expected target | data checked |
|---|---|---|
| HassTurnOn | `<domain>.turn_on`; cover `open_cover`, lock `lock`, valve `open_valve`, vacuum `start`, lawn_mower `start_mowing` | - |
| HassTurnOff | `<domain>.turn_off`; cover `close_cover`, lock `unlock`, valve `close_valve`, vacuum `return_to_base`/`stop`, lawn_mower `dock` | - |
| HassLightSet | `light.turn_on` | brightness (pct, or 0-255 within 3), colour (name, rgb or hs), colour temperature (kelvin) |
| HassClimateSetTemperature | `climate.set_temperature` | temperature |
| HassSetPosition | `cover.set_cover_position` / `valve.set_valve_position` | position |
| HassFanSetSpeed | `fan.set_percentage` / `fan.turn_on` | percentage |
| HassMediaPause / Unpause / Next / Previous | `media_player.media_pause` / `media_play` / `media_next_track` / `media_previous_track` | - |
| HassSetVolume | `media_player.volume_set` | volume_level = percent / 100 |
| HassSetVolumeRelative | `volume_up` / `volume_down`, or `volume_set` above / below the level before | direction |
| HassMediaPlayerMute / Unmute | `media_player.volume_mute` | is_volume_muted true / false |
| HassMediaSearchAndPlay | `media_player.play_media` | the content id or title contains the query |
| HassVacuumStart / ReturnToBase / CleanArea | `vacuum.start` / `return_to_base` / `clean_area` (or `start`) | - |
| HassLawnMowerStartMowing / Dock | `lawn_mower.start_mowing` / `dock` | - |
| HassListAddItem / CompleteItem / RemoveItem | `todo.add_item` / `update_item` (completed) / `remove_item` | item |

The expected targets are what HA's own matcher (`intent.async_match_targets`)
finds for the case's slots in the case's home, with the speaker's area as
the preference (and as the area when the sentence says "in here"). A case
is right when every expected target got a listed call with the right data
and nothing else in the home was acted on.

- Queries (HassGetState, HassClimateGetTemperature, HassGetWeather): right
  when nothing was acted on, the reply is not an error, and it agrees with
  the source's expected reply: the same leading yes/no and every number in it.
- HassRespond, HassNevermind: right when nothing was acted on and no error.
- Timers, date, time, broadcast, shopping list: these are not service calls
  at all; right only when HA's own intent of that type handled the turn
  (so only the local or fallback path can get them).

Fixture homes of the intents tests are written for the grammar's tests and
often have no device the sentence could act on ("kitchen lights off" in a
home with a Kitchen and no lights). Such homes get one plain device of the
implied kind where the slots point (area, floor, or the speaker's area),
plus one decoy of the same kind in another area when the slots narrow by
place, so that acting on everything is wrong. Added devices are listed in
each result (`synthetic`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
import json
import math
from pathlib import Path
import random
import re
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, intent
from homeassistant.util import color as color_util

from .harness import Call, Turn
from .home import EntitySpec, HomeSpec, home_from_fixture, slug

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks"
SETS = ("intents", "legacy", "datasets", "slurp")
SLURP_SPEAKER_AREA = "Living Room"
DECOY_AREA, DECOY_FLOOR = "Study", "Attic"

# Which domain an intent acts on when its slots do not say.
IMPLIED_DOMAIN = {
    "HassLightSet": "light",
    "HassClimateSetTemperature": "climate",
    "HassClimateGetTemperature": "climate",
    "HassSetPosition": "cover",
    "HassFanSetSpeed": "fan",
    "HassMediaPause": "media_player",
    "HassMediaUnpause": "media_player",
    "HassMediaNext": "media_player",
    "HassMediaPrevious": "media_player",
    "HassSetVolume": "media_player",
    "HassSetVolumeRelative": "media_player",
    "HassMediaPlayerMute": "media_player",
    "HassMediaPlayerUnmute": "media_player",
    "HassMediaSearchAndPlay": "media_player",
    "HassVacuumStart": "vacuum",
    "HassVacuumReturnToBase": "vacuum",
    "HassVacuumCleanArea": "vacuum",
    "HassLawnMowerStartMowing": "lawn_mower",
    "HassLawnMowerDock": "lawn_mower",
    "HassListAddItem": "todo",
    "HassListCompleteItem": "todo",
    "HassListRemoveItem": "todo",
}
ON_SERVICES = {
    "cover": "open_cover",
    "lock": "lock",
    "valve": "open_valve",
    "vacuum": "start",
    "lawn_mower": "start_mowing",
}
OFF_SERVICES = {
    "cover": ("close_cover",),
    "lock": ("unlock",),
    "valve": ("close_valve",),
    "vacuum": ("return_to_base", "stop"),
    "lawn_mower": ("dock",),
}
SIMPLE_SERVICES: dict[str, tuple[str, ...]] = {
    "HassMediaPause": ("media_player.media_pause",),
    "HassMediaUnpause": ("media_player.media_play",),
    "HassMediaNext": ("media_player.media_next_track",),
    "HassMediaPrevious": ("media_player.media_previous_track",),
    "HassVacuumStart": ("vacuum.start",),
    "HassVacuumReturnToBase": ("vacuum.return_to_base",),
    "HassVacuumCleanArea": ("vacuum.clean_area", "vacuum.start"),
    "HassLawnMowerStartMowing": ("lawn_mower.start_mowing",),
    "HassLawnMowerDock": ("lawn_mower.dock",),
}
QUERY_INTENTS = frozenset(
    {"HassGetState", "HassClimateGetTemperature", "HassGetWeather"}
)
NO_ACTION_INTENTS = frozenset({"HassRespond", "HassNevermind"})
INTENT_ONLY = frozenset(
    {
        "HassStartTimer",
        "HassCancelTimer",
        "HassCancelAllTimers",
        "HassIncreaseTimer",
        "HassDecreaseTimer",
        "HassPauseTimer",
        "HassUnpauseTimer",
        "HassTimerStatus",
        "HassGetCurrentDate",
        "HassGetCurrentTime",
        "HassBroadcast",
        "HassShoppingListAddItem",
        "HassShoppingListCompleteItem",
    }
)
# Plain names for devices added to sparse homes, by domain / device class.
KIND_NAMES = {
    "light": "Ceiling Light",
    "switch": "Plug",
    "fan": "Fan",
    "cover": "Blind",
    "window": "Window",
    "curtain": "Curtain",
    "garage": "Garage Door",
    "blind": "Blind",
    "shade": "Shade",
    "door": "Door",
    "lock": "Door Lock",
    "valve": "Water Valve",
    "media_player": "Speaker",
    "climate": "Thermostat",
    "vacuum": "Robot Vacuum",
    "lawn_mower": "Mower",
    "todo": "Shopping List",
}


@dataclass(slots=True)
class Case:
    """One sentence, its home, and what it should do."""

    id: str
    set: str
    group: str
    text: str
    home: str
    intent: str | None = None
    slots: dict[str, Any] = field(default_factory=dict)
    speaker_area: str | None = None
    context_area_required: bool = False
    response: str | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    expect_changes: dict[str, Any] | None = None
    expect_response: list[str] | None = None
    expects_no_action: bool = False
    accepted_intents: tuple[str, ...] = ()


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def _case(
    raw: dict[str, Any], set_name: str, group: str, home: str, **more: Any
) -> Case:
    """A case of a set from its source line (which has `id` and `text`)."""
    return Case(
        id=raw["id"], set=set_name, group=group, text=raw["text"], home=home, **more
    )


def _intents_test(
    raw: dict[str, Any], set_name: str, group: str, home: str, **more: Any
) -> Case:
    """A case of the intents tests: an intent, its slots, the expected reply."""
    return _case(
        raw,
        set_name,
        group,
        home,
        intent=raw["intent"],
        slots=raw.get("slots") or {},
        speaker_area=(raw.get("context") or {}).get("area"),
        response=raw.get("response"),
        **more,
    )


def load(
    sets: Sequence[str], language: str = "en"
) -> tuple[list[Case], dict[str, HomeSpec]]:
    """All cases of the chosen sets, and their homes by key.

    `language` picks the intents tests' files (`intents`, `legacy`).
    """
    cases: list[Case] = []
    homes: dict[str, HomeSpec] = {}
    if "intents" in sets:
        fixtures = json.loads(
            (DATA / "ha_intents" / f"tests_{language}_fixtures.json").read_text("utf-8")
        )
        for raw in _jsonl(DATA / "ha_intents" / f"tests_{language}.jsonl"):
            key = f"intents:{raw['fixture']}"
            if key not in homes:
                homes[key] = home_from_fixture(key, fixtures[raw["fixture"]])
            cases.append(
                _intents_test(
                    raw,
                    "intents",
                    f"{raw['intent']}/{raw.get('slot_combination')}",
                    key,
                    context_area_required="area" in (raw.get("context") or {}),
                )
            )
    if "legacy" in sets or "slurp" in sets:
        legacy = json.loads(
            (DATA / "ha_intents" / f"legacy_fixtures_{language}.json").read_text(
                "utf-8"
            )
        )
        homes["legacy"] = home_from_fixture("legacy", legacy)
    if "legacy" in sets:
        for raw in _jsonl(DATA / "ha_intents" / f"legacy_tests_{language}.jsonl"):
            source = raw["source"].rsplit("/", 1)[-1].removesuffix(".yaml")
            cases.append(_intents_test(raw, "legacy", source, "legacy"))
    if "datasets" in sets:
        cases.extend(_load_datasets(homes))
    if "slurp" in sets:
        mapping = json.loads((DATA / "slurp" / "ha_intent_map.json").read_text())
        for raw in _jsonl(DATA / "slurp" / "slurp_devel.jsonl"):
            accepted = mapping.get(raw["intent"])
            if not accepted or raw["intent"].startswith("_"):
                continue
            cases.append(
                _case(
                    raw,
                    "slurp",
                    raw["intent"],
                    "legacy",
                    speaker_area=SLURP_SPEAKER_AREA,
                    accepted_intents=tuple(accepted),
                )
            )
    return cases, homes


def _load_datasets(homes: dict[str, HomeSpec]) -> list[Case]:
    fixtures = json.loads((DATA / "ha_datasets" / "fixtures.json").read_text("utf-8"))
    cases = []
    for name in ("assist", "assist-mini", "intents", "questions"):
        for raw in _jsonl(DATA / "ha_datasets" / f"{name}.jsonl"):
            fixture = fixtures[raw["fixture"]]
            key = f"datasets:{raw['fixture']}"
            if key not in homes:
                homes[key] = home_from_fixture(key, fixture)
            device_areas = {
                d["id"]: d.get("area") for d in fixture.get("devices") or []
            }
            area_names = {a.get("id", a["name"]): a["name"] for a in fixture["areas"]}
            speaker = None
            if device := (raw.get("context") or {}).get("device"):
                speaker = area_names.get(device_areas.get(device) or "")
            category = raw.get("category")
            if isinstance(category, list):
                category = "/".join(category)
            expect_response = raw.get("expect_response")
            if isinstance(expect_response, str):
                expect_response = [expect_response]
            cases.append(
                _case(
                    raw,
                    "datasets",
                    f"{name}/{category}",
                    key,
                    speaker_area=speaker,
                    setup=raw.get("setup") or {},
                    expect_changes=raw.get("expect_changes"),
                    expect_response=expect_response,
                    expects_no_action=bool(raw.get("expects_no_action")),
                )
            )
    return cases


def sample(
    cases: list[Case], sets: Sequence[str], limit: int | None, seed: int
) -> list[Case]:
    """Up to `limit` cases, spread evenly over the sets, reproducibly."""
    rng = random.Random(seed)  # noqa: S311 - reproducible sampling
    chosen: list[Case] = []
    per_set = math.ceil(limit / len(sets)) if limit else None
    for name in sets:
        pool = [c for c in cases if c.set == name]
        rng.shuffle(pool)
        chosen.extend(pool[:per_set] if per_set else pool)
    if limit:
        chosen = chosen[:limit]
    return sorted(chosen, key=lambda c: (c.home, c.id))


# --- making sparse homes fit their sentences ---------------------------------


def _name(slots: dict[str, Any]) -> str | None:
    """The name slot; the legacy tests write "all" for "every device"."""
    name = slots.get("name")
    if name is None or str(name).casefold() == "all":
        return None
    return str(name)


def _slot_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def prepare_home(home: HomeSpec, cases: Iterable[Case]) -> list[str]:
    """Give an intents-test home what its cases need; return added entity ids."""
    added: list[str] = []
    for case in cases:
        if case.set not in {"intents", "legacy"} or case.intent is None:
            continue
        if case.context_area_required and case.speaker_area is None:
            case.speaker_area = home.context_area or next(iter(home.areas), None)
            if case.speaker_area is None:
                case.speaker_area = "Living Room"
                home.add_area("Living Room")
        added.extend(_fit(home, case))
    return added


def _fit(home: HomeSpec, case: Case) -> list[str]:
    slots = case.slots
    intent_type = case.intent or ""
    if intent_type in INTENT_ONLY or intent_type in NO_ACTION_INTENTS:
        return []
    domains = _slot_list(slots.get("domain"))
    domain = domains[0] if len(domains) == 1 else IMPLIED_DOMAIN.get(intent_type)
    device_class = (_slot_list(slots.get("device_class")) or [None])[0]
    area = slots.get("area")
    floor = slots.get("floor")
    if intent_type == "HassMediaSearchAndPlay":
        query = str(slots.get("search_query", ""))
        if query and query not in home.media:
            home.media.append(query)
    if floor and not area:
        area = next((a for a, f in home.areas.items() if f == floor), None)
        if area is None:
            area = f"{floor} Hall"
            home.add_area(area, str(floor))
    if area:
        home.add_area(str(area))
    if not area and case.context_area_required:
        area = case.speaker_area
    if intent_type in {"HassListCompleteItem", "HassListRemoveItem"}:
        # The item must be on the list for it to be ticked off or removed.
        for entity in home.entities:
            if entity.domain == "todo" and (
                not slots.get("name")
                or entity.name.casefold() == str(slots["name"]).casefold()
            ):
                items = list(entity.attributes.get("todo_items") or [])
                if slots.get("item") and slots["item"] not in items:
                    entity.attributes["todo_items"] = [*items, str(slots["item"])]
    if name := _name(slots):
        found = [e for e in home.entities if e.name.casefold() == str(name).casefold()]
        for entity in found:
            if area and entity.area != area:
                entity.area = str(area)
        if found or domain is None or intent_type in QUERY_INTENTS:
            return []
        return [_add(home, domain, None, str(area) if area else None, str(name))]
    if domain is None or intent_type in QUERY_INTENTS:
        return []
    if any(
        e.domain == domain
        and (device_class is None or e.attributes.get("device_class") == device_class)
        and (area is None or e.area == area)
        for e in home.entities
    ):
        return []
    added = [_add(home, domain, device_class, str(area) if area else None)]
    if area:
        home.add_area(DECOY_AREA, DECOY_FLOOR)
        added.append(_add(home, domain, device_class, DECOY_AREA))
    return added


def _add(
    home: HomeSpec,
    domain: str,
    device_class: str | None,
    area: str | None,
    name: str | None = None,
) -> str:
    kind = KIND_NAMES.get(device_class or "", KIND_NAMES.get(domain, domain))
    name = name or (f"{area} {kind}" if area else kind)
    entity_id = f"{domain}.{slug(name)}"
    while home.entity(entity_id):
        entity_id += "_2"
    attributes: dict[str, Any] = {}
    if device_class:
        attributes["device_class"] = device_class
    state = {"media_player": "playing", "vacuum": "docked"}.get(domain)
    home.entities.append(EntitySpec(entity_id, name, state, attributes, area))
    return entity_id


# --- expectations and scoring ---------------------------------------------------


@dataclass(slots=True)
class Verdict:
    """How a case was judged."""

    correct: bool | None  # None: not scorable in this home
    kind: str
    expected: list[str] = field(default_factory=list)
    why: str = ""


def expected_targets(hass: HomeAssistant, case: Case) -> list[str]:
    """What HA's own matcher finds for the case's slots."""
    slots = case.slots
    intent_type = case.intent or ""
    domains = set(_slot_list(slots.get("domain")))
    if not domains and intent_type in IMPLIED_DOMAIN:
        domains = {IMPLIED_DOMAIN[intent_type]}
    area = slots.get("area")
    floor = slots.get("floor")
    name = _name(slots)
    if case.context_area_required and not (area or floor or name):
        area = case.speaker_area
    preferred = None
    if case.speaker_area and (
        area_entry := ar.async_get(hass).async_get_area_by_name(case.speaker_area)
    ):
        preferred = area_entry.id
    constraints = intent.MatchTargetsConstraints(
        name=str(name) if name else None,
        area_name=str(area) if area else None,
        floor_name=str(floor) if floor else None,
        domains=domains or None,
        device_classes=set(_slot_list(slots.get("device_class"))) or None,
        assistant="conversation",
    )
    result = intent.async_match_targets(
        hass, constraints, intent.MatchTargetsPreferences(area_id=preferred)
    )
    if not result.is_match:
        return []
    return sorted(state.entity_id for state in result.states)


def _services_for(intent_type: str, entity_id: str) -> tuple[str, ...]:
    domain = entity_id.partition(".")[0]
    if intent_type == "HassTurnOn":
        return (f"{domain}.{ON_SERVICES.get(domain, 'turn_on')}",)
    if intent_type == "HassTurnOff":
        return tuple(f"{domain}.{s}" for s in OFF_SERVICES.get(domain, ("turn_off",)))
    if intent_type in SIMPLE_SERVICES:
        return SIMPLE_SERVICES[intent_type]
    return {
        "HassLightSet": ("light.turn_on",),
        "HassClimateSetTemperature": ("climate.set_temperature",),
        "HassSetPosition": (
            "cover.set_cover_position",
            "valve.set_valve_position",
        ),
        "HassFanSetSpeed": ("fan.set_percentage", "fan.turn_on"),
        "HassSetVolume": ("media_player.volume_set",),
        "HassSetVolumeRelative": (
            "media_player.volume_up",
            "media_player.volume_down",
            "media_player.volume_set",
        ),
        "HassMediaPlayerMute": ("media_player.volume_mute",),
        "HassMediaPlayerUnmute": ("media_player.volume_mute",),
        "HassMediaSearchAndPlay": ("media_player.play_media",),
        "HassListAddItem": ("todo.add_item",),
        "HassListCompleteItem": ("todo.update_item",),
        "HassListRemoveItem": ("todo.remove_item",),
    }.get(intent_type, ())


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except TypeError, ValueError:
        return None


def _close(value: Any, wanted: float, tolerance: float) -> bool:
    number = _number(value)
    return number is not None and abs(number - wanted) <= tolerance


def _data_ok(
    intent_type: str, slots: dict[str, Any], call: Call, before: dict[str, Any]
) -> bool:
    """Whether a call carries the slots' values (in service or device terms)."""
    data = call.data
    if intent_type == "HassLightSet":
        if (pct := _number(slots.get("brightness"))) is not None:
            return _close(data.get("brightness_pct"), pct, 1) or _close(
                data.get("brightness"), pct * 255 / 100, 3
            )
        if color := slots.get("color"):
            if str(data.get("color_name", "")).casefold() == str(color).casefold():
                return True
            try:
                rgb = color_util.color_name_to_rgb(str(color))
            except ValueError:
                return False
            hue, sat = color_util.color_RGB_to_hs(*rgb)
            if (given := data.get("rgb_color")) is not None:
                hue2, sat2 = color_util.color_RGB_to_hs(*given)
                return abs(hue2 - hue) % 360 <= 10 and abs(sat2 - sat) <= 15
            if (given := data.get("hs_color")) is not None:
                return abs(given[0] - hue) % 360 <= 10 and abs(given[1] - sat) <= 15
            return False
        if (kelvin := _number(slots.get("temperature"))) is not None:
            return _close(data.get("color_temp_kelvin"), kelvin, 50) or _close(
                data.get("kelvin"), kelvin, 50
            )
        return True
    if intent_type == "HassClimateSetTemperature":
        return _close(data.get("temperature"), float(slots["temperature"]), 0.5)
    if intent_type == "HassSetPosition":
        return _close(data.get("position"), float(slots["position"]), 1)
    if intent_type == "HassFanSetSpeed":
        return _close(data.get("percentage"), float(slots["percentage"]), 1)
    if intent_type == "HassSetVolume":
        return _close(
            data.get("volume_level"), float(slots["volume_level"]) / 100, 0.01
        )
    if intent_type == "HassSetVolumeRelative":
        step = slots.get("volume_step")
        down = step == "down" or (_number(step) or 0) < 0
        if call.service.endswith(("volume_up", "volume_down")):
            return call.service.endswith("down") == down
        level = _number(data.get("volume_level"))
        prior = _number(before.get(call.entity_id or ""))
        if level is None or prior is None:
            return False
        return level < prior if down else level > prior
    if intent_type in {"HassMediaPlayerMute", "HassMediaPlayerUnmute"}:
        return data.get("is_volume_muted") is (intent_type == "HassMediaPlayerMute")
    if intent_type == "HassMediaSearchAndPlay":
        query = str(slots.get("search_query", "")).casefold()
        given = " ".join(
            str(data.get(k, "")) for k in ("media_content_id", "media_id")
        ).casefold()
        return bool(query) and query in given
    if intent_type in {"HassListAddItem", "HassListRemoveItem"}:
        return str(data.get("item", "")).casefold() == str(slots["item"]).casefold()
    if intent_type == "HassListCompleteItem":
        return (
            str(data.get("item", "")).casefold() == str(slots["item"]).casefold()
            and str(data.get("status")) == "completed"
        )
    return True


NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?")


def answer_agrees(expected: str | None, speech: str) -> bool:
    """Same leading yes/no and every number of the expected reply."""
    if not expected:
        return True
    said = speech.casefold()
    first = expected.split(",")[0].strip().casefold()
    if first in {"yes", "no"}:
        other = "no" if first == "yes" else "yes"
        if not re.search(rf"\b{first}\b", said) or said.startswith(other):
            return False
    numbers = {float(n) for n in NUMBER_RE.findall(said)}
    return all(float(n) in numbers for n in NUMBER_RE.findall(expected))


def judge_intent_case(
    hass: HomeAssistant,
    case: Case,
    turn: Turn,
    targets: list[str],
    before: dict[str, Any],
) -> Verdict:
    """Score an intents-test case by what it executed."""
    intent_type = case.intent or ""
    acted = {c.entity_id for c in turn.calls if c.entity_id}
    error = turn.response_type.endswith("ERROR")
    if intent_type in INTENT_ONLY:
        ok = turn.intent_type == intent_type and not error
        return Verdict(ok, "intent_only", why="" if ok else "needs HA's own intent")
    if intent_type in NO_ACTION_INTENTS:
        ok = not acted and not error
        return Verdict(ok, "no_action", why="" if ok else "acted or error")
    if intent_type in QUERY_INTENTS:
        if acted:
            return Verdict(False, "query", why=f"acted on {sorted(acted)}")
        if error:
            return Verdict(False, "query", why="error reply")
        ok = answer_agrees(case.response, turn.speech)
        return Verdict(ok, "query", why="" if ok else "answer disagrees")
    if not targets:
        return Verdict(None, "action", why="no target for the slots in this home")
    missing = [
        target
        for target in targets
        if not any(
            c.entity_id == target
            and c.service in _services_for(intent_type, target)
            and _data_ok(intent_type, case.slots, c, before)
            for c in turn.calls
        )
    ]
    extra = sorted(acted - set(targets))
    ok = not missing and not extra
    why = "; ".join(
        part
        for part in (
            f"missing {missing}" if missing else "",
            f"also acted on {extra}" if extra else "",
        )
        if part
    )
    return Verdict(ok, "action", targets, why)


def judge_end_state(
    case: Case,
    turn: Turn,
    states_before: dict[str, tuple[str, dict[str, Any]]],
    states_after: dict[str, tuple[str, dict[str, Any]]],
) -> Verdict:
    """Score a home-assistant-datasets case by the home's end state."""
    error = turn.response_type.endswith("ERROR")
    if case.expect_response is not None:
        said = turn.speech.casefold()
        ok = all(
            re.search(rf"\b{re.escape(str(item).casefold())}\b", said)
            for item in case.expect_response
        )
        changed = _changed(states_before, states_after, {})
        if changed:
            return Verdict(False, "response", why=f"changed {changed}")
        return Verdict(ok and not error, "response", why="" if ok else "reply")
    expected = case.expect_changes or {}
    ignore = set()
    for values in (case.setup or {}).values():
        ignore.update((values.get("attributes") or {}).keys())
    wrong = []
    for entity_id, want in expected.items():
        state, attributes = states_after.get(entity_id, ("missing", {}))
        if "state" in want and str(want["state"]) != state:
            wrong.append(f"{entity_id} is {state}, not {want['state']}")
        for key, value in (want.get("attributes") or {}).items():
            have = attributes.get(key)
            if (
                key == "volume_level"
                and value == 0
                and attributes.get("is_volume_muted")
            ):
                # The dataset writes "mute" as volume 0; HA mutes instead.
                continue
            tolerance = 3 if key == "brightness" else 0.5
            if not (
                _close(have, float(value), tolerance)
                if _number(value) is not None
                else have == value
            ):
                wrong.append(f"{entity_id}.{key} is {have}, not {value}")
    changed = _changed(states_before, states_after, expected)
    if case.expects_no_action and (changed or turn.calls):
        wrong.append(f"acted although it should not ({changed})")
    elif changed:
        wrong.append(f"also changed {changed}")
    return Verdict(not wrong, "end_state", sorted(expected), "; ".join(wrong))


def _changed(
    before: dict[str, tuple[str, dict[str, Any]]],
    after: dict[str, tuple[str, dict[str, Any]]],
    expected: dict[str, Any],
) -> list[str]:
    """Entities whose state (on/off, position...) changed but were not expected to."""
    return sorted(
        entity_id
        for entity_id, (state, attributes) in after.items()
        if entity_id not in expected
        and entity_id in before
        and (
            before[entity_id][0] != state
            or any(
                before[entity_id][1].get(k) != attributes.get(k)
                for k in ("brightness", "current_position", "temperature")
            )
        )
    )


# What an executed call amounts to, as an HA intent (for SLURP).
def intents_of(turn: Turn) -> set[str]:
    """The HA intents a turn's calls (or its local intent) carried out."""
    if turn.intent_type:
        return {turn.intent_type}
    found = set()
    for call in turn.calls:
        domain, _, service = call.service.partition(".")
        if service in {"turn_on", "open_cover", "lock", "open_valve"}:
            lightset = domain == "light" and any(
                k in call.data
                for k in (
                    "brightness",
                    "brightness_pct",
                    "color_name",
                    "rgb_color",
                    "hs_color",
                    "color_temp_kelvin",
                    "brightness_step_pct",
                )
            )
            found.add("HassLightSet" if lightset else "HassTurnOn")
        elif service in {"turn_off", "close_cover", "unlock", "close_valve"}:
            found.add("HassTurnOff")
        elif service in {"volume_up", "volume_down"}:
            found.add("HassSetVolumeRelative")
        elif service == "volume_set":
            found.add("HassSetVolume")
        elif service == "volume_mute":
            muted = call.data.get("is_volume_muted")
            found.add("HassMediaPlayerMute" if muted else "HassMediaPlayerUnmute")
        else:
            found.add(
                {
                    "media_pause": "HassMediaPause",
                    "media_play": "HassMediaUnpause",
                    "media_next_track": "HassMediaNext",
                    "media_previous_track": "HassMediaPrevious",
                    "play_media": "HassMediaSearchAndPlay",
                    "start": "HassVacuumStart",
                    "clean_area": "HassVacuumCleanArea",
                    "return_to_base": "HassVacuumReturnToBase",
                    "add_item": "HassListAddItem",
                    "remove_item": "HassListRemoveItem",
                    "update_item": "HassListCompleteItem",
                    "set_temperature": "HassClimateSetTemperature",
                    "set_cover_position": "HassSetPosition",
                    "set_percentage": "HassFanSetSpeed",
                }.get(service, call.service)
            )
    return found


QUERY_LABELS = frozenset(
    {"HassGetWeather", "HassGetCurrentTime", "HassGetCurrentDate", "HassGetState"}
)


def judge_slurp(case: Case, turn: Turn) -> Verdict:
    """Intent level: the executed calls amount to one of the accepted intents.

    Weather and date/time questions count when answered with no action and
    no error (lenient: the answer itself is not checked).
    """
    done = intents_of(turn)
    accepted = set(case.accepted_intents)
    error = turn.response_type.endswith("ERROR")
    if accepted & QUERY_LABELS and not turn.calls and not done - QUERY_LABELS:
        ok = not error and (not done or bool(done & accepted))
        return Verdict(ok, "intent_level", sorted(accepted), "" if ok else "error")
    ok = bool(done) and done <= accepted
    return Verdict(
        ok, "intent_level", sorted(accepted), "" if ok else f"did {sorted(done)}"
    )
