"""Benchmark cases, their homes, and how each one is scored.

Sets (all from `../shared/benchmarks/`, written by nobody on this project):

- `intents`: OHF-Voice/intents tests (`tests_<lang>`), each with its
  per-file mini-home, in en, de, fr, es, nl and it.
- `legacy`: home-assistant/intents legacy tests (`legacy_tests_<lang>`), one
  shared home per language.
- `datasets`: home-assistant-datasets assist, assist-mini, intents (scored by
  end state, `expect_changes`) and questions (scored by `expect_response`).
- `slurp`: SLURP devel sentences whose label `slurp/ha_intent_map.json` maps
  to an HA intent, run in the legacy shared home, scored at intent level.
- `home_llm_refusals`: acon96/home-llm's refusals (`expects_no_action`), in
  a home made for them (`refusal_homes`); right when nothing acted, or, for
  a state the device has already, when only it was called and it stays so.

Each case is said in its own language (the conversation turn's `language`),
in a home whose HA `config.language` is that language.

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
and nothing else in the home was acted on. A target already in the state
or at the value asked (an "on" light asked on) still needs its call, as HA's
own agent makes it: the state a home shows may be stale, and leaving it
alone is not done.

The legacy tests are an older release of the same tests. Where one expects
every cover for a sentence that says a cover class in Home Assistant's
current words for it ("schließe alle Rollos": the `cover_classes` list of
the installed home-assistant-intents, where "Rollos" are blinds), the
expected targets are that class's, as the current tests expect; the case's
`note` says so. Both agents are scored so.

- Queries (HassGetState, HassClimateGetTemperature, HassGetWeather): right
  when nothing was acted on, the reply is not an error, and it agrees with
  the source's expected reply, read in the case's language
  (`bench/answers.py`): the same leading yes/no, "none", and every number.
- HassRespond, HassNevermind: right when nothing was acted on and no error.
- Timers, date, time, shopping list: these are not service calls at all;
  right only when HA's own intent of that type handled the turn (so only
  the local or fallback path can get them). Broadcast is not scored: the
  bench's HA has no satellites to announce on (`UNSCORABLE`).
- Media pause, next and previous are said while the home's players play,
  resume while they are paused (the fixtures leave them idle).
- Fixture entity ids HA does not accept ("light.küchenlicht") become HA's
  own slug of them ("light.kuchenlicht"), as a real install's would; a
  second entity with an id already taken gets "_2", as HA registers it.

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
import functools
import json
import math
from pathlib import Path
import random
import re
from typing import Any

from hassil.intents import Intents, TextSlotList
from hassil.sample import sample_expression
import home_assistant_intents

from custom_components.intent_router.const import TIMER_INTENTS
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, intent
from homeassistant.util import color as color_util

from .answers import answer_agrees
from .harness import Call, States, Turn
from .home import EntitySpec, HomeSpec, home_from_fixture, slug

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks"
SETS = ("intents", "legacy", "datasets", "slurp", "home_llm_refusals")
LANGUAGES = ("en", "de", "fr", "es", "nl", "it")
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
# Intents whose handler takes more than the domain implied for added devices.
HANDLED_DOMAINS = {"HassSetPosition": ("cover", "valve")}
ON_SERVICES = {
    "cover": ("open_cover",),
    "lock": ("lock",),
    # HA's valve component opens a valve with a position by setting it to 100.
    "valve": ("open_valve", "set_valve_position"),
    "vacuum": ("start",),
    "lawn_mower": ("start_mowing",),
}
OFF_SERVICES = {
    "cover": ("close_cover",),
    "lock": ("unlock",),
    "valve": ("close_valve", "set_valve_position"),
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
INTENT_ONLY = TIMER_INTENTS | frozenset(
    {
        "HassGetCurrentDate",
        "HassGetCurrentTime",
        "HassBroadcast",
        "HassShoppingListAddItem",
        "HassShoppingListCompleteItem",
    }
)
# Intents the bench's HA cannot carry out, whoever routes them, and why.
UNSCORABLE = {
    "HassBroadcast": "no assist_satellite in the bench (it needs satellites, STT, TTS)"
}
# Shopping-list intents, and the to-do list intent that does the same.
SHOPPING_LIST = {
    "HassShoppingListAddItem": "HassListAddItem",
    "HassShoppingListCompleteItem": "HassListCompleteItem",
}
# What a media player must be doing for these intents to apply to it.
MEDIA_STATES = {
    "HassMediaPause": "playing",
    "HassMediaNext": "playing",
    "HassMediaPrevious": "playing",
    "HassMediaUnpause": "paused",
}
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
    language: str = "en"
    # Why the expectation differs from the source's slots, if it does.
    note: str = ""


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
    """A case of the intents tests: an intent, its slots, the expected reply.

    A legacy test's `context` domain or device class ("close the door" in a
    lock's file) narrows what is expected as its slots would.
    """
    context = raw.get("context") or {}
    narrowing = {k: context[k] for k in ("domain", "device_class") if k in context}
    language = raw.get("language") or "en"
    slots = {**narrowing, **(raw.get("slots") or {})}
    note = ""
    if (
        set_name == "legacy"
        and slots.get("domain") == "cover"
        and not {"device_class", "name"} & set(slots)
        and (said := said_cover_class(raw["text"], language))
    ):
        slots["device_class"] = said
        note = f"cover class said, as HA's current sentences read it: {said}"
    return _case(
        raw,
        set_name,
        group,
        home,
        intent=raw["intent"],
        slots=slots,
        speaker_area=context.get("area"),
        response=raw.get("response"),
        language=language,
        note=note,
        **more,
    )


@functools.cache
def _cover_class_words(language: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """HA's current words for each cover class ("Rollos": blind), longest first.

    From the `cover_classes` list of the installed home-assistant-intents
    (HA's own sentences, not ours).
    """
    data = home_assistant_intents.get_intents(language)
    if data is None:
        return ()
    values = Intents.from_dict(data).slot_lists.get("cover_classes")
    if not isinstance(values, TextSlotList):
        return ()
    words: list[tuple[str, tuple[str, ...]]] = []
    for value in values.values:
        out = value.value_out
        classes = tuple(map(str, out)) if isinstance(out, list) else (str(out),)
        words.extend(
            (phrase, classes)
            for text in sample_expression(value.text_in)
            if (phrase := " ".join(text.casefold().split()))
        )
    return tuple(sorted(set(words), key=lambda item: -len(item[0])))


def said_cover_class(text: str, language: str) -> str | list[str] | None:
    """The one cover class a sentence says in HA's current words, if one.

    The legacy tests are an older release of HA's tests: where they expect
    every cover for "schließe alle Rollos", the current tests (and HA's
    current sentences) read "Rollos" as the blinds. The longest phrase said
    wins ("garage door" over "door"); two classes said leave the slots.
    """
    folded = " ".join(re.findall(r"\w+", text.casefold()))
    found: set[tuple[str, ...]] = set()
    for phrase, classes in _cover_class_words(language):
        pattern = rf"\b{re.escape(phrase)}\b"
        if re.search(pattern, folded):
            found.add(classes)
            folded = re.sub(pattern, " ", folded)
    if len(found) != 1:
        return None
    classes = next(iter(found))
    return classes[0] if len(classes) == 1 else list(classes)


def load(
    sets: Sequence[str], languages: Sequence[str] = LANGUAGES
) -> tuple[list[Case], dict[str, HomeSpec]]:
    """All cases of the chosen sets and languages, and their homes by key.

    Datasets, SLURP and home-llm are English only.
    """
    cases: list[Case] = []
    homes: dict[str, HomeSpec] = {}
    folder = DATA / "ha_intents"
    for language in languages:
        if "intents" in sets:
            fixtures = json.loads(
                (folder / f"tests_{language}_fixtures.json").read_text("utf-8")
            )
            for raw in _jsonl(folder / f"tests_{language}.jsonl"):
                key = f"intents:{raw['fixture']}"
                if key not in homes:
                    homes[key] = home_from_fixture(
                        key, fixtures[raw["fixture"]], language
                    )
                cases.append(
                    _intents_test(
                        raw,
                        "intents",
                        f"{raw['intent']}/{raw.get('slot_combination')}",
                        key,
                        context_area_required="area" in (raw.get("context") or {}),
                    )
                )
        if "legacy" in sets or ("slurp" in sets and language == "en"):
            legacy = json.loads(
                (folder / f"legacy_fixtures_{language}.json").read_text("utf-8")
            )
            key = legacy_home(language)
            homes[key] = home_from_fixture(key, legacy, language)
        if "legacy" in sets:
            for raw in _jsonl(folder / f"legacy_tests_{language}.jsonl"):
                source = raw["source"].rsplit("/", 1)[-1].removesuffix(".yaml")
                cases.append(
                    _intents_test(raw, "legacy", source, legacy_home(language))
                )
    if "en" not in languages:
        return cases, homes
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
                    legacy_home("en"),
                    speaker_area=SLURP_SPEAKER_AREA,
                    accepted_intents=tuple(accepted),
                )
            )
    if "home_llm_refusals" in sets:
        cases.extend(_load_refusals(homes))
    return cases, homes


def legacy_home(language: str) -> str:
    """The key of a language's shared legacy home."""
    return f"legacy:{language}"


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
                    setup=_dated(raw),
                    expect_changes=raw.get("expect_changes"),
                    expect_response=expect_response,
                    expects_no_action=bool(raw.get("expects_no_action")),
                )
            )
    return cases


def _dated(raw: dict[str, Any]) -> dict[str, Any]:
    """A case's setup, with the day its calendars' events were written for."""
    setup: dict[str, Any] = raw.get("setup") or {}
    now = (raw.get("context") or {}).get("now")
    return {
        entity_id: (
            {**change, "attributes": {**change["attributes"], "now": now}}
            if now and "events" in (change.get("attributes") or {})
            else change
        )
        for entity_id, change in setup.items()
    }


# --- home-llm's refusals ---------------------------------------------------------

# home-llm's own domains that HA does not have, as HA covers.
HOME_LLM_DOMAINS = {"blinds": ("cover", "blind"), "garage_door": ("cover", "garage")}
# A refusal sentence is a command around the device's name: the name is what
# is left without these (home-llm's templates, "Close the <device_name> blinds").
_COMMAND = re.compile(
    r"^(?:hey assistant, please )?(?:turn (?:on|off)|lock|unlock|pause|close|"
    r"open|start|stop|toggle|return|play or pause|volume up|"
    r"(?:increase|decrease) the (?:volume|speed) of|turn (?:up|down) the volume on|"
    r"set the temperature (?:to \S+ on|of))\s+(?:the\s+)?",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(
    r"\s+(?:with color \w+|to \d+% brightness|to (?:its )?base|return to base|"
    r"to \w+|blinds|climate|cover)$",
    re.IGNORECASE,
)
# The state a device is "already" in, as HA states.
_ALREADY = {("climate", "on"): "heat"}


def refusal_name(text: str) -> str:
    """The device name a home-llm command says ("Turn on the X." -> X)."""
    name = _COMMAND.sub("", text.strip().rstrip("."))
    return _QUALIFIER.sub("", name).strip()


# A brightness a home-llm command asks for ("to 51% brightness").
_BRIGHTNESS = re.compile(r"\bto (\d+)% brightness\b", re.IGNORECASE)


def _refusal_entity(raw: dict[str, Any]) -> EntitySpec:
    """The target of a refusal, in the state its sentence asks for.

    A brightness the sentence asks for is part of that state (HA reports
    it 0-255).
    """
    domain, _, object_id = str(raw["target"]).partition(".")
    domain, device_class = HOME_LLM_DOMAINS.get(domain, (domain, None))
    state = str(raw["desired_state"])
    attributes: dict[str, Any] = {"device_class": device_class} if device_class else {}
    if state == "on" and (asked := _BRIGHTNESS.search(raw["text"])):
        attributes["brightness"] = round(int(asked.group(1)) * 255 / 100)
    return EntitySpec(
        f"{domain}.{object_id}",
        refusal_name(raw["text"]),
        _ALREADY.get((domain, state), state),
        attributes,
    )


def _load_refusals(homes: dict[str, HomeSpec]) -> list[Case]:
    """home-llm's refusals and the two homes they run in.

    home-llm pairs each refusal with a random device list; the file keeps
    only the target. `already_state` cases run in a home of every
    already-state target, each named as its sentence names it and in the
    state the sentence asks for; `not_available` cases in the same home
    without any device a not-available case names (the same device is
    "already locked" in one case and "not available" in another). No
    areas: home-llm's homes have none.
    """
    raws = [
        raw
        for raw in _jsonl(DATA / "home_llm" / "home_llm_en.jsonl")
        if raw.get("expects_no_action")
    ]
    present = {
        entity.entity_id: entity
        for entity in map(
            _refusal_entity,
            (r for r in raws if r["refusal_reason"] == "already_state"),
        )
    }
    absent_ids = {
        _refusal_entity({**r, "desired_state": None}).entity_id
        for r in raws
        if r["refusal_reason"] != "already_state"
    }
    homes["home_llm:already_state"] = HomeSpec(
        "home_llm:already_state", entities=list(present.values())
    )
    homes["home_llm:not_available"] = HomeSpec(
        "home_llm:not_available",
        entities=[e for key, e in present.items() if key not in absent_ids],
    )
    return [
        _case(
            raw,
            "home_llm_refusals",
            str(raw["refusal_reason"]),
            f"home_llm:{raw['refusal_reason']}",
            expects_no_action=True,
            expect_changes=_kept(raw),
        )
        for raw in raws
    ]


def _kept(raw: dict[str, Any]) -> dict[str, Any] | None:
    """For a state the device has already: that device, in that state."""
    if raw["refusal_reason"] != "already_state":
        return None
    entity = _refusal_entity(raw)
    return {entity.entity_id: {"state": entity.state}}


def judge_refusal(case: Case, turn: Turn, after: States) -> Verdict:
    """A refusal is right when nothing reached any device.

    A command for the state its device has already (`expect_changes`: that
    device, as it is) may be sent to that device, as HA's own agent sends
    it: right when nothing else was called and it stays as it is.
    """
    kept = case.expect_changes or {}
    acted = sorted({c.entity_id or c.service for c in turn.calls} - set(kept))
    moved = [
        entity_id
        for entity_id, want in kept.items()
        if after.get(entity_id, ("missing", {}))[0] != want["state"]
    ]
    why = "; ".join(
        part
        for part in (
            f"acted on {acted}" if acted else "",
            f"changed {moved}" if moved else "",
        )
        if part
    )
    return Verdict(not why, "refusal", why=why)


def sample(
    cases: list[Case],
    sets: Sequence[str],
    limit: int | None,
    seed: int,
    per_language: int | None = None,
) -> list[Case]:
    """Up to `limit` cases, spread evenly over the sets, reproducibly.

    `per_language`: at most that many cases of each language (all sets),
    drawn with the same seed.
    """
    rng = random.Random(seed)  # noqa: S311 - reproducible sampling
    if per_language:
        drawn: list[Case] = []
        for language in LANGUAGES:
            pool = [c for c in cases if c.language == language]
            rng.shuffle(pool)
            drawn.extend(pool[:per_language])
        cases = drawn
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
        if case.intent in MEDIA_STATES:
            # The fixtures' players are idle; HA pauses only what plays.
            case.setup = {
                entity.entity_id: {"state": MEDIA_STATES[case.intent]}
                for entity in home.entities
                if entity.domain == "media_player"
            }
    return added


def _fit(home: HomeSpec, case: Case) -> list[str]:
    slots = case.slots
    intent_type = case.intent or ""
    if intent_type in INTENT_ONLY or intent_type in NO_ACTION_INTENTS:
        return []
    domains = _slot_list(slots.get("domain"))
    domain = domains[0] if len(domains) == 1 else IMPLIED_DOMAIN.get(intent_type)
    device_class = next(iter(_slot_list(slots.get("device_class"))), None)
    area = slots.get("area")
    floor = slots.get("floor")
    if case.context_area_required and domain and not (area or floor or _name(slots)):
        # "What is the temperature" is about the speaker's area: a device of
        # the kind that the fixture leaves in no area is there.
        for entity in home.entities:
            if entity.domain == domain and entity.area is None:
                entity.area = case.speaker_area
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
        domains = set(HANDLED_DOMAINS.get(intent_type, {IMPLIED_DOMAIN[intent_type]}))
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


def outside_targets(case: Case, turn: Turn, targets: Sequence[str]) -> list[str]:
    """Entities the turn acted on that the case did not ask to be acted on.

    Queries, timers, "never mind" and refusals ask for no action at all.
    """
    acted = {c.entity_id for c in turn.calls if c.entity_id}
    if case.set in ("datasets", "home_llm_refusals"):
        allowed = set(case.expect_changes or {})
    elif case.expects_no_action or (case.intent or "") in (
        QUERY_INTENTS | NO_ACTION_INTENTS | INTENT_ONLY
    ):
        allowed = set()
    else:
        allowed = set(targets)
    return sorted(acted - allowed)


def _services_for(intent_type: str, entity_id: str) -> tuple[str, ...]:
    domain = entity_id.partition(".")[0]
    if intent_type == "HassTurnOn":
        return tuple(f"{domain}.{s}" for s in ON_SERVICES.get(domain, ("turn_on",)))
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
    if call.service == "valve.set_valve_position" and intent_type in {
        "HassTurnOn",
        "HassTurnOff",
    }:
        return _close(
            data.get("position"), 100 if intent_type == "HassTurnOn" else 0, 0
        )
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
                return bool(
                    abs(given[0] - hue) % 360 <= 10 and abs(given[1] - sat) <= 15
                )
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


def judge_intent_case(
    hass: HomeAssistant,
    case: Case,
    turn: Turn,
    targets: list[str],
    before: dict[str, Any],
) -> Verdict:
    """Score an intents-test case by what it executed.

    Every expected target needs its call, whatever state it showed before
    the turn (`before`: the volume levels, for relative volume).
    """
    intent_type = case.intent or ""
    acted = {c.entity_id for c in turn.calls if c.entity_id}
    error = turn.response_type.endswith("ERROR")
    if intent_type in UNSCORABLE:
        return Verdict(None, "intent_only", why=UNSCORABLE[intent_type])
    if intent_type in SHOPPING_LIST:
        # HA now adds to the shopping list (a to-do list) with its to-do intents.
        ok = not error and turn.intent_type in {intent_type, SHOPPING_LIST[intent_type]}
        return Verdict(ok, "intent_only", why="" if ok else "needs HA's own intent")
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
        ok = answer_agrees(case.response, turn.speech, case.language)
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
    """Score a home-assistant-datasets case by the home's end state.

    A question is right when the reply says any one of `expect_response`'s
    alternatives, as the dataset's own evaluation reads them
    (home_assistant_datasets/tool/assist/eval: "did not contain any of"),
    here as a whole word or phrase, not inside another word.
    """
    error = turn.response_type.endswith("ERROR")
    if case.expect_response is not None:
        said = turn.speech.casefold()
        ok = any(
            re.search(rf"\b{re.escape(str(item).casefold())}\b", said)
            for item in case.expect_response
        )
        changed = _changed(states_before, states_after, {})
        if changed:
            return Verdict(False, "response", why=f"changed {changed}")
        return Verdict(ok and not error, "response", why="" if ok else "reply")
    expected = case.expect_changes or {}
    ignore: set[str] = set()
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
