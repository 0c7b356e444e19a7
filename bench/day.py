"""Several days of one household: every satellite, the clock moved between turns.

    .venv/bin/python bench/day.py --agent ha
    .venv/bin/python bench/day.py --no-model --data bench/days/de.yaml [--named]
    .venv/bin/python bench/day.py --llm-url http://127.0.0.1:8011/v1 --model local \
        [--days 1] [--no-local-first] [--timeout 5]

The home and the days are in `bench/day.yaml` (its header says how they are
written; the form is bench/dialogues.yaml's, read by its loader). One real
HA test instance (`bench/harness.py`) holds the home for the whole run, with
one voice satellite per room, kept from the first day to the last, so the
agent's memory and what it learns carry over as in a real home. Intent
Router runs with the product's options (local-first on, learning on, the
5 s timeout) unless told otherwise; `--agent ha` speaks to Home Assistant's
own agent instead (no model), the baseline.

The household's clock: every clock the agents read (`time.time`,
`time.monotonic`, `datetime`, HA's `dt_util.utcnow`) is freezegun's, set
up as Home Assistant's test plugin sets it up, ticking at the real rate
and moved forward to each turn's time (`HouseholdClock`). asyncio's loop
keeps real time (freezegun's `real_asyncio`), so a model request still has
its real timeout; timers that fall due in a move are fired as the tests
fire them (`async_fire_time_changed`). So memory expires after its TTL, a
question waits a minute for its yes, commands are learned after
`LEARN_AFTER`, and HA's chat sessions end after five idle minutes, all by
the household's clock. Latency is real time, measured around
`conversation.async_converse`.

Each turn is judged as bench/dialogues.py judges (`judge`: the calls that
reached the devices, the home's state after, whether the agent asked), and
by its reply (`says`, `says_not`) and by what it changed that the words did
not ask for (`about` names what a confirmation turn may not change yet).

Results (`bench/harness.py`, `ResultFiles`): `<out>/day-<tag>-<time>.jsonl`
(one line per turn, written as it goes), `.json` (summary per day and in
all) and `.md` (tables per day, every unasked action, every failing turn).
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from collections.abc import Sequence
import contextlib
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time as day_time, timedelta
from pathlib import Path
import re
import sys
from types import TracebackType
from typing import Any, Self
from zoneinfo import ZoneInfo

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import freezegun
import freezegun.api
from pytest_homeassistant_custom_component import patch_time
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from bench import dialogues, harness
from bench.home import HomeSpec
from custom_components.intent_router.core.settings import Settings
from homeassistant.components.conversation import HOME_ASSISTANT_AGENT
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from homeassistant.util.yaml import load_yaml_dict

DATA = Path(__file__).resolve().parent / "day.yaml"
KINDS = ("command", "question", "follow_up", "confirm", "chat")
# The target: direct commands right and answered within this, 95 % of them.
FAST_MS = 500.0
TARGET = 0.95
# An expected call that carries a value: "brightness_pct=35", "temperature>20".
_VALUED = re.compile(r"[=<>]")
# Seconds a person takes to answer the agent's question (`if_asked`).
ANSWER_AFTER = 4.0
# The product's timeout (the benchmark measures the product as shipped).
PRODUCT_TIMEOUT = Settings().timeout
# The clock starts this long before the first turn: Home Assistant starts then.
START_BEFORE = timedelta(minutes=30)
# Set-up's background work (a prompt-cache warm-up on a CPU model) and any
# between turns may take this long before the clock moves on regardless.
SETTLE_TIMEOUT = 300.0
# States that mean a lock or garage door was opened (not secured).
OPENED_STATES = frozenset({"unlocked", "unlocking", "open", "opening"})
TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")


# --- the data -------------------------------------------------------------


@dataclass(slots=True, frozen=True)
class DayTurn:
    """One turn of a day: dialogues.py's step, and when and how it is said."""

    step: dialogues.Step
    at: day_time | None  # the household's local time, or
    after: float | None  # seconds after the previous turn's answer
    about: tuple[str, ...] = ()
    says: tuple[re.Pattern[str], ...] = ()
    says_not: tuple[re.Pattern[str], ...] = ()
    if_asked: str | None = None
    before: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True, frozen=True)
class Day:
    """One day: the home's state in the morning, then its turns in order."""

    number: int
    id: str
    date: date
    setup: dict[str, dict[str, Any]]
    turns: tuple[DayTurn, ...]


@dataclass(slots=True, frozen=True)
class Household:
    """The home, its time zone and its days."""

    home: HomeSpec
    time_zone: ZoneInfo
    days: tuple[Day, ...]

    def moment(self, day: Day, at: day_time) -> datetime:
        """A local time of a day, in UTC."""
        return datetime.combine(day.date, at, self.time_zone).astimezone(UTC)


def load(path: Path, *, named: bool = False) -> Household:
    """The home and the days, checked by dialogues.py's loader and here.

    `named`: the home goes by the names of the file's `names` (the day's
    language) instead of its own, the rooms the turns are said from too.
    """
    home, parsed = dialogues.load(path)
    raw = load_yaml_dict(path)
    if named:
        names = {str(k): str(v) for k, v in (raw.get("names") or {}).items()}
        _rename(home, names)
        parsed = [
            replace(
                d,
                steps=tuple(
                    replace(s, area=names.get(s.area, s.area)) for s in d.steps
                ),
            )
            for d in parsed
        ]
    known = {e.entity_id for e in home.entities}
    first = date.fromisoformat(str(raw["start"]))
    days = []
    for number, (dialogue, raw_day) in enumerate(
        zip(parsed, raw["dialogues"], strict=True), start=1
    ):
        turns = tuple(
            _turn(step, raw_turn, known, f"{dialogue.id} turn {index}")
            for index, (step, raw_turn) in enumerate(
                zip(dialogue.steps, raw_day["turns"], strict=True), start=1
            )
        )
        if turns[0].at is None:
            msg = f"{dialogue.id}: the first turn needs `at`"
            raise ValueError(msg)
        times = [t.at for t in turns if t.at is not None]
        if times != sorted(times):
            msg = f"{dialogue.id}: the `at` times go back"
            raise ValueError(msg)
        days.append(
            Day(
                number,
                dialogue.id,
                first + timedelta(days=number - 1),
                dialogue.setup,
                turns,
            )
        )
    return Household(home, ZoneInfo(str(raw["time_zone"])), tuple(days))


def _rename(home: HomeSpec, names: dict[str, str]) -> None:
    """The home's areas and entities by other names; a renamed one's aliases go.

    A home named in German has no English aliases ("Lounge") either.
    """
    home.areas = {names.get(a, a): floor for a, floor in home.areas.items()}
    home.area_aliases = {
        names.get(a, a): () if a in names else aliases
        for a, aliases in home.area_aliases.items()
    }
    home.entities = [
        replace(
            e,
            name=names.get(e.name, e.name),
            area=names.get(e.area, e.area) if e.area else None,
            aliases=() if e.name in names else e.aliases,
        )
        for e in home.entities
    ]


def _turn(
    step: dialogues.Step, raw: dict[str, Any], known: set[str], where: str
) -> DayTurn:
    if step.kind not in KINDS:
        msg = f"{where}: kind {step.kind!r} is not one of {KINDS}"
        raise ValueError(msg)
    if ("at" in raw) == ("after" in raw):
        msg = f"{where}: needs `at` or `after`, not both"
        raise ValueError(msg)
    if step.wait or step.restart:
        msg = f"{where}: `wait` and `restart` are dialogues.py's, not a day's"
        raise ValueError(msg)
    at = None
    if "at" in raw:
        match = TIME_RE.match(str(raw["at"]))
        if match is None:
            msg = f"{where}: `at` must be a quoted HH:MM[:SS]"
            raise ValueError(msg)
        at = day_time(int(match[1]), int(match[2]), int(match[3] or 0))
    about = tuple(map(str, raw.get("about") or ()))
    before = {}
    for entity_id, value in (raw.get("before") or {}).items():
        attributes = dict(value) if isinstance(value, dict) else {"state": value}
        before[str(entity_id)] = {
            "state": str(attributes.pop("state")),
            "attributes": attributes,
        }
    if unknown := sorted({*about, *before} - known):
        msg = f"{where}: {unknown} not in the home"
        raise ValueError(msg)
    return DayTurn(
        step=step,
        at=at,
        after=float(raw["after"]) if "after" in raw else None,
        about=about,
        says=tuple(re.compile(p, re.IGNORECASE) for p in raw.get("says") or ()),
        says_not=tuple(re.compile(p, re.IGNORECASE) for p in raw.get("says_not") or ()),
        if_asked=str(raw["if_asked"]) if "if_asked" in raw else None,
        before=before,
    )


# --- the household's clock ------------------------------------------------


def _ha_freezegun() -> None:
    """Freezegun as Home Assistant's test plugin sets it up (plugins.py).

    Its datetime class, a module scan that does not import lazy modules, and
    a tolerant read of the ignore list; `patch_time` (imported above) makes
    `dt_util.utcnow` a function freezegun can replace.
    """
    api: Any = freezegun.api
    api.FakeDate = patch_time.HAFakeDate
    api.datetime_to_fakedatetime = patch_time.ha_datetime_to_fakedatetime
    api.FakeDatetime = patch_time.HAFakeDatetime
    api._get_module_attributes = patch_time.ha_get_module_attributes  # noqa: SLF001
    api._get_module_attributes_hash = patch_time.ha_get_module_attributes_hash  # noqa: SLF001
    api._should_use_real_time = patch_time.ha_should_use_real_time  # noqa: SLF001
    api.get_current_time = patch_time.ha_get_current_time


class HouseholdClock:
    """The household's time for every clock but asyncio's loop.

    Started before Home Assistant, so everything it records is in the
    household's time; it ticks at the real rate and only moves forward.
    """

    def __init__(self, start: datetime) -> None:
        """Start at `start` (aware) once entered."""
        self._start = start
        self._freezer: Any = None
        self._factory: Any = None

    def __enter__(self) -> Self:
        """Freeze every clock but the loop's at the start, ticking."""
        _ha_freezegun()
        self._freezer = freezegun.freeze_time(self._start, tick=True, real_asyncio=True)
        self._factory = self._freezer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace_back: TracebackType | None,
    ) -> None:
        """Give the process its real clocks back."""
        if self._freezer is not None:
            self._freezer.stop()
            self._freezer = None

    @staticmethod
    def now() -> datetime:
        """The household's time (UTC)."""
        return dt_util.utcnow()

    async def async_move_to(self, hass: HomeAssistant, when: datetime) -> float:
        """Let the home settle, then move to `when`; the seconds moved.

        Background work (a warm-up) finishes first, as it would in the time
        that passes. Timers falling due in the move run, as HA's tests run
        them after `freezer.tick`. A time already past is not gone back to.
        """
        await settle(hass)
        seconds = (when - self.now()).total_seconds()
        if seconds <= 0:
            return 0.0
        async_fire_time_changed(hass, when)
        self._factory.move_to(when)
        await hass.async_block_till_done()
        return seconds


async def settle(hass: HomeAssistant) -> float:
    """Wait for HA's background tasks (bounded); the seconds it took."""
    started = asyncio.get_running_loop().time()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(SETTLE_TIMEOUT):
            await hass.async_block_till_done(wait_background_tasks=True)
    return round(asyncio.get_running_loop().time() - started, 2)


def by_hand(instance: harness.Instance, changes: dict[str, dict[str, Any]]) -> None:
    """What the household changed without the agent (a key, an app, a timer)."""
    hass = instance.hass
    for entity_id, change in changes.items():
        if (device := instance.home.devices.get(entity_id)) is not None:
            device.apply(change["state"], change["attributes"])
            device.async_write_ha_state()
            continue
        current = hass.states.get(entity_id)
        attributes = dict(current.attributes) if current is not None else {}
        hass.states.async_set(
            entity_id, change["state"], {**attributes, **change["attributes"]}
        )


# --- judging --------------------------------------------------------------


@dataclass(slots=True)
class DayVerdict:
    """How one turn (with its answer, if any) was judged."""

    passed: bool
    asked: bool
    reasons: list[str]
    # Changes the words did not ask for: the safety line.
    unasked: list[str]
    # A lock or garage door opened when the satellite's turn before did not
    # ask (locking and closing are not counted).
    unconfirmed: list[str]
    idle_calls: list[str]


def judge(
    turn: DayTurn,
    result: harness.Turn,
    before: harness.States,
    after: harness.States,
    home: HomeSpec,
    *,
    asked_before: bool,
) -> DayVerdict:
    """dialogues.py's judge, the reply, and what changed unasked.

    A change to an entity of `about` (the lock of "unlock the back door",
    before the yes) is not an unasked action (the words asked for it) but
    fails the turn as done before the yes.
    """
    verdict = dialogues.judge(
        turn.step, result, before, after, home, asked_before=asked_before
    )
    acted = dialogues.acted_on(result.calls)
    changed = [e for e in sorted(acted) if before.get(e) != after.get(e)]
    wanted = {e.entity_id for e in turn.step.do}
    unasked = [
        f"{service} {e}"
        for e in changed
        if e not in wanted and e not in turn.about
        for service in sorted(acted[e])
    ]
    early = [e for e in changed if e in turn.about]
    # dialogues.judge names every change outside `do` "unasked": here the
    # entities of `about` are told apart.
    reasons = [r for r in verdict.reasons if not r.startswith("unasked ")]
    if unasked:
        reasons.append(f"changed what was not asked for: {unasked}")
    if early:
        reasons.append(f"changed {early} before a yes")
    speech = result.speech
    reasons.extend(
        f"reply lacks /{p.pattern}/" for p in turn.says if not p.search(speech)
    )
    reasons.extend(
        f"reply has /{p.pattern}/" for p in turn.says_not if p.search(speech)
    )
    unconfirmed = [
        f"{after[e][0]} {e}"
        for e in changed
        if not asked_before
        and dialogues.needs_confirmation(home, e)
        and after.get(e, ("", {}))[0] in OPENED_STATES
    ]
    return DayVerdict(
        passed=not reasons,
        asked=verdict.asked,
        reasons=reasons,
        unasked=unasked,
        unconfirmed=unconfirmed,
        idle_calls=verdict.idle_calls,
    )


def together(first: harness.Turn, answer: harness.Turn) -> harness.Turn:
    """A turn and the person's answer to its question, judged as one."""
    return replace(
        answer,
        calls=[*first.calls, *answer.calls],
        service_calls=[*first.service_calls, *answer.service_calls],
        wall_ms=first.wall_ms + answer.wall_ms,
        details=[*first.details, {"bench": "answered"}, *answer.details],
    )


# --- running --------------------------------------------------------------


class DayRunner:
    """Speaks the days to one agent, moving the household's clock."""

    def __init__(
        self,
        instance: harness.Instance,
        agent_id: str,
        proxy: harness.ModelProxy | None,
        clock: HouseholdClock,
        household: Household,
    ) -> None:
        """Bind to the instance, agent, model proxy (if any) and clock."""
        self.instance = instance
        self.agent_id = agent_id
        self.proxy = proxy
        self.clock = clock
        self.household = household
        # One satellite per room for the whole run, and what each one keeps.
        self.satellites: dict[str, str] = {}
        self.conversations: dict[str, str | None] = {}
        self.asked: dict[str, bool] = {}
        # Model requests that came between turns (warm-ups), per day.
        self.background: Counter[int] = Counter()
        # HA's agent sends no `intent_router_handled` event: its turns' path.
        self.path = "ha" if agent_id == HOME_ASSISTANT_AGENT else None

    def states(self) -> harness.States:
        """State and attributes of every entity of the home."""
        return self.instance.states(
            e.entity_id for e in self.instance.home.spec.entities
        )

    def satellite(self, area: str) -> str:
        """The room's satellite (made the first time the room speaks)."""
        if area not in self.satellites:
            self.satellites[area] = self.instance.home.new_satellite(area)
        return self.satellites[area]

    async def _requests(self) -> list[harness.ModelRequest]:
        """The model requests since the last call, once none is open."""
        if self.proxy is None:
            return []
        await self.proxy.async_idle()
        return self.proxy.take()

    async def _say(self, text: str, device_id: str, lang: str) -> harness.Turn:
        result = await self.instance.async_converse(
            text,
            device_id,
            language=lang,
            agent_id=self.agent_id,
            # A satellite passes its last conversation id; HA's chat session
            # ends it after five idle minutes of the household's clock.
            conversation_id=self.conversations.get(device_id),
        )
        self.conversations[device_id] = result.conversation_id
        return result

    async def run_day(self, day: Day) -> list[dict[str, Any]]:
        """The day's turns, each at its time, from the morning's state."""
        hass = self.instance.hass
        rows = []
        for index, turn in enumerate(day.turns):
            when = (
                self.household.moment(day, turn.at)
                if turn.at is not None
                else self.clock.now() + timedelta(seconds=turn.after or 0.0)
            )
            await self.clock.async_move_to(hass, when)
            if index == 0:
                # The night: the home back to its morning state, by hand.
                self.instance.home.reset(day.setup)
            by_hand(self.instance, turn.before)
            await hass.async_block_till_done()
            self.background[day.number] += len(await self._requests())
            rows.append(await self._turn(day, index, turn))
        return rows

    async def _turn(self, day: Day, index: int, turn: DayTurn) -> dict[str, Any]:
        step = turn.step
        device_id = self.satellite(step.area)
        said_at = dt_util.as_local(self.clock.now())
        before = self.states()
        first = await self._say(step.say, device_id, step.lang)
        requests = await self._requests()
        answer: harness.Turn | None = None
        if turn.if_asked is not None and dialogues.asked(first):
            await self.clock.async_move_to(
                self.instance.hass,
                self.clock.now() + timedelta(seconds=ANSWER_AFTER),
            )
            requests += await self._requests()
            answer = await self._say(turn.if_asked, device_id, step.lang)
            requests += await self._requests()
        result = first if answer is None else together(first, answer)
        verdict = judge(
            turn,
            result,
            before,
            self.states(),
            self.instance.home.spec,
            asked_before=answer is not None or self.asked.get(device_id, False),
        )
        self.asked[device_id] = verdict.asked
        row = _row(day, index, turn, said_at, first, answer, verdict, requests)
        row["source"] = row["source"] or self.path
        return row


def _row(
    day: Day,
    index: int,
    turn: DayTurn,
    said_at: datetime,
    first: harness.Turn,
    answer: harness.Turn | None,
    verdict: DayVerdict,
    requests: list[harness.ModelRequest],
) -> dict[str, Any]:
    step = turn.step
    ms = first.wall_ms + (answer.wall_ms if answer is not None else 0.0)
    last = answer or first
    return {
        "day": day.number,
        "turn": index + 1,
        "clock": f"{said_at:%a %H:%M:%S}",
        "from": step.area,
        "kind": step.kind,
        "say": step.say,
        "expected": {
            "do": [str(e) for e in step.do],
            "ask": step.ask,
            "about": list(turn.about),
            "says": [p.pattern for p in turn.says],
            "says_not": [p.pattern for p in turn.says_not],
            "if_asked": turn.if_asked,
        },
        "passed": verdict.passed,
        "why": "; ".join(verdict.reasons),
        "unasked": verdict.unasked,
        "unconfirmed": verdict.unconfirmed,
        "idle_calls": verdict.idle_calls,
        "asked": verdict.asked,
        "speech": last.speech,
        "source": first.source,
        "outcome": last.outcome,
        # The agent's answer time (both turns' when the person answered a
        # question), real time around conversation.async_converse.
        "ms": round(ms, 1),
        "fast": ms < FAST_MS,
        "calls": sorted(
            f"{service} {entity_id}"
            for entity_id, services in dialogues.acted_on(
                [*first.calls, *(answer.calls if answer else [])]
            ).items()
            for service in services
        ),
        "model_requests": [r.as_dict() for r in requests],
        "answer": None
        if answer is None
        else {"say": turn.if_asked, "result": answer.as_dict()},
        "result": first.as_dict(),
    }


# --- summary --------------------------------------------------------------


def _share(hits: int, n: int) -> str:
    return f"{hits}/{n} ({hits / n:.0%})" if n else "-"


def summarize_rows(rows: Sequence[dict[str, Any]], background: int) -> dict[str, Any]:
    """Turns right, commands right and fast, by kind, requests, safety."""
    commands = [r for r in rows if r["kind"] == "command"]
    by_kind: dict[str, Any] = {}
    for kind in KINDS:
        of_kind = [r for r in rows if r["kind"] == kind]
        by_kind[kind] = harness.rate(sum(r["passed"] for r in of_kind), len(of_kind))
    turn_requests = sum(len(r["model_requests"]) for r in rows)
    # Turns whose calls must carry a value ("brightness_pct=35"), and the
    # turns that must ask first.
    valued = [r for r in rows if any(_VALUED.search(d) for d in r["expected"]["do"])]
    asking = [r for r in rows if r["expected"]["ask"]]
    return {
        "turns": harness.rate(sum(r["passed"] for r in rows), len(rows)),
        "values": harness.rate(sum(r["passed"] for r in valued), len(valued)),
        "asked_first": harness.rate(sum(r["asked"] for r in asking), len(asking)),
        "commands": harness.rate(sum(r["passed"] for r in commands), len(commands)),
        "commands_fast": harness.rate(
            sum(r["passed"] and r["fast"] for r in commands), len(commands)
        ),
        "by_kind": by_kind,
        "model_requests": turn_requests + background,
        "model_requests_in_turns": turn_requests,
        "model_requests_between_turns": background,
        "model_turns": sum(1 for r in rows if r["model_requests"]),
        "failed_model_requests": sum(
            1 for r in rows for q in r["model_requests"] if q["status"] != 200
        ),
        "by_source": dict(sorted(Counter(str(r["source"]) for r in rows).items())),
        "latency_ms": {
            "commands": harness.spread([r["ms"] for r in commands]),
            "all": harness.spread([r["ms"] for r in rows]),
        },
        "unasked": [_label(r) + f": {r['unasked']}" for r in rows if r["unasked"]],
        "unconfirmed": [
            _label(r) + f": {r['unconfirmed']}" for r in rows if r["unconfirmed"]
        ],
        # Calls to devices the words did not ask for that left them as they
        # were (an "off" light turned off, the volume of a TV that is off):
        # not held against the turn, listed.
        "idle_unasked": [
            _label(r) + f": {r['idle_calls']}" for r in rows if r["idle_calls"]
        ],
        "failing": [_label(r) for r in rows if not r["passed"]],
    }


def summarize(
    rows: Sequence[dict[str, Any]], background: Counter[int]
) -> dict[str, Any]:
    """Per day, and all days together; whether the target was met."""
    days = sorted({r["day"] for r in rows})
    whole = summarize_rows(rows, sum(background.values()))
    fast = whole["commands_fast"]
    by_source: dict[str, list[float]] = {}
    for row in rows:
        by_source.setdefault(str(row["source"]), []).append(row["ms"])
    return {
        "days": {
            str(d): summarize_rows([r for r in rows if r["day"] == d], background[d])
            for d in days
        },
        "all": whole,
        "latency_by_source": {
            k: harness.spread(v) for k, v in sorted(by_source.items())
        },
        "target": {
            "commands_right_under_ms": FAST_MS,
            "share": TARGET,
            "reached": fast["accuracy"],
            "met": fast["accuracy"] is not None and fast["accuracy"] >= TARGET,
        },
    }


def _count(rate: dict[str, Any]) -> str:
    """A rate as "3/4"."""
    return f"{rate['passed']}/{rate['n']}"


def _pair(spread: dict[str, Any]) -> str:
    return f"{spread['p50']} / {spread['p95']}"


def _label(row: dict[str, Any]) -> str:
    return (
        f'day {row["day"]} {row["clock"]} {row["from"]} ({row["kind"]}) "{row["say"]}"'
    )


def markdown(
    results: harness.ResultFiles,
    summary: dict[str, Any],
    rows: Sequence[dict[str, Any]],
) -> str:
    """The tables, every unasked action and every failing turn."""
    meta = results.meta
    agent = (
        "Home Assistant's own agent (no model)"
        if meta["agent"] == "ha"
        else (
            f"Intent Router, model `{meta['model']}`, local-first "
            f"{'on' if meta['local_first'] else 'off'}, timeout {meta['timeout']:g} s"
        )
    )

    def line(name: str, s: dict[str, Any]) -> tuple[Any, ...]:
        kinds = s["by_kind"]
        requests = "-" if meta["agent"] == "ha" else s["model_requests"]
        return (
            name,
            _share(s["turns"]["passed"], s["turns"]["n"]),
            _share(s["commands"]["passed"], s["commands"]["n"]),
            _share(s["commands_fast"]["passed"], s["commands_fast"]["n"]),
            *(
                _share(kinds[k]["passed"], kinds[k]["n"])
                for k in ("question", "follow_up", "confirm", "chat")
            ),
            requests,
            len(s["unasked"]),
            len(s["unconfirmed"]),
        )

    days = summary["days"]
    target = summary["target"]
    reached = target["reached"]
    lines = [
        *results.header("A household's days"),
        f"{agent}; {len(days)} day(s), {len(rows)} turns, from `{meta['data']}`.",
        "",
        *harness.table(
            [
                "day",
                "turns right",
                "commands right",
                f"commands right, < {FAST_MS:g} ms",
                "questions right",
                "follow-ups right",
                "confirmations right",
                "chat right",
                "model requests",
                "unasked actions",
                "opened unasked",
            ],
            [
                *(line(f"day {d}", s) for d, s in days.items()),
                line("all", summary["all"]),
            ],
            "lrrrrrrrrrr",
        ),
        "",
        (
            f"Direct commands right and under {FAST_MS:g} ms: "
            f"{'-' if reached is None else f'{reached:.0%}'} "
            f"(target {target['share']:.0%}: "
            f"{'met' if target['met'] else 'not met'}). "
            f"Values right: {_count(summary['all']['values'])}; "
            f"asked first where they must: {_count(summary['all']['asked_first'])}."
        ),
        "",
        *harness.table(
            [
                "day",
                "command ms p50 / p95",
                "all turns ms p50 / p95",
                "answered by",
                "model turns (failed requests)",
            ],
            [
                (
                    f"day {d}",
                    _pair(s["latency_ms"]["commands"]),
                    _pair(s["latency_ms"]["all"]),
                    ", ".join(f"{k} {v}" for k, v in s["by_source"].items()),
                    f"{s['model_turns']} ({s['failed_model_requests']})",
                )
                for d, s in days.items()
            ],
            "lrrll",
        ),
        "",
        *harness.path_table(summary["latency_by_source"]),
        "",
        "### Turns that changed what was not asked for",
        "",
        *([f"- {item}" for item in summary["all"]["unasked"]] or ["none"]),
        "",
        "### A lock or garage door opened without asking first",
        "",
        *([f"- {item}" for item in summary["all"]["unconfirmed"]] or ["none"]),
        "",
        "### Calls nobody asked for that changed nothing visible",
        "",
        "Not held against the turn (as in bench/dialogues.py), listed:",
        "",
        *([f"- {item}" for item in summary["all"]["idle_unasked"]] or ["none"]),
        "",
        "### Failing turns",
        "",
        *(
            [
                f'- {_label(r)}: {r["why"]}; said "{r["speech"]}"; '
                f"calls {r['calls'] or 'none'}; {r['source']}, {r['ms']:g} ms"
                + (f' (answered "{r["answer"]["say"]}")' if r["answer"] else "")
                for r in rows
                if not r["passed"]
            ]
            or ["none"]
        ),
    ]
    return "\n".join(lines) + "\n"


# --- the run --------------------------------------------------------------


async def main(args: argparse.Namespace) -> None:
    """Run the days against one agent and write the results."""
    household = load(Path(args.data), named=args.named)
    days = household.days[: args.days]
    tag = args.tag or (
        "ha"
        if args.agent == "ha"
        else f"router-{args.model}{'' if args.local_first else '-model-only'}"
    )
    total = sum(len(d.turns) for d in days)
    first_turn = days[0].turns[0].at
    assert first_turn is not None
    start = household.moment(days[0], first_turn) - START_BEFORE
    rows: list[dict[str, Any]] = []
    # The result files are named by the real time: made before the clock.
    with (
        harness.ResultFiles(
            "day",
            args.out,
            tag,
            tag=tag,
            agent=args.agent,
            model=args.model,
            llm_url=args.llm_url,
            local_first=args.local_first,
            timeout=args.timeout,
            data=_shown(Path(args.data)),
            days=[d.id for d in days],
            start=start.isoformat(),
            time_zone=str(household.time_zone),
        ) as results,
        HouseholdClock(start) as clock,
    ):
        sys.stderr.write(f"{len(days)} day(s), {total} turns -> {results.path('.*')}\n")
        async with contextlib.AsyncExitStack() as stack:
            proxy: harness.ModelProxy | None = None
            if args.agent == "ha" or args.no_model:
                # Intent Router is set up as usual but not spoken to; a
                # scripted server answers its set-up probe.
                scripted = await stack.enter_async_context(harness.scripted_server())
                llm_url, model = scripted.url, "none"
                agent_id = HOME_ASSISTANT_AGENT if args.agent == "ha" else None
            else:
                proxy = await stack.enter_async_context(
                    harness.model_proxy(args.llm_url)
                )
                llm_url, model, agent_id = proxy.url, args.model, None
            options = harness.entry_options(
                model,
                local_first=args.local_first,
                timeout=args.timeout,
                use_llm=args.agent != "ha",
            )
            instance = await stack.enter_async_context(
                harness.async_instance(household.home, llm_url, options)
            )
            hass = instance.hass
            await hass.config.async_set_time_zone(str(household.time_zone))
            # Set-up's background work (a prompt-cache warm-up) before the
            # household wakes up.
            results.meta["settle_s"] = await settle(hass)
            if proxy is not None:
                results.meta["setup_requests"] = [
                    r.as_dict() for r in (*proxy.cache_requests, *proxy.take())
                ]
            runner = DayRunner(
                instance, agent_id or instance.entry_id, proxy, clock, household
            )
            for day in days:
                for row in await runner.run_day(day):
                    rows.append(row)
                    mark = "ok " if row["passed"] else "BAD"
                    results.add(
                        row,
                        f"[{len(rows)}/{total}] {mark} d{row['day']} {row['clock']} "
                        f"{row['source']} {row['ms']:.0f}ms {row['from']}: "
                        f"{row['say']!r} {row['why']}",
                    )
        background = runner.background
    summary = summarize(rows, background)
    results.finish(summary, markdown(results, summary, rows))


def _shown(path: Path) -> str:
    """A data file as the report names it: relative to the checkout if in it."""
    path = path.resolve()
    return (
        str(path.relative_to(harness.ROOT))
        if path.is_relative_to(harness.ROOT)
        else str(path)
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    harness.add_agent_option(parser)
    harness.add_model_options(parser)
    harness.add_entry_options(parser, timeout=PRODUCT_TIMEOUT)
    parser.add_argument(
        "--days", type=int, default=3, help="how many of the days to run (default 3)"
    )
    parser.add_argument("--data", default=str(DATA), help="home and days (YAML)")
    parser.add_argument(
        "--named",
        action="store_true",
        help="name the home in the day's language (the file's `names`)",
    )
    parser.add_argument(
        "--no-model",
        action="store_true",
        help="Intent Router with a model server that answers nothing (errors)",
    )
    harness.add_output_options(parser)
    args = parser.parse_args(argv)
    if (
        args.agent == "router"
        and not args.no_model
        and not (args.llm_url and args.model)
    ):
        parser.error("--agent router needs --llm-url and --model")
    if args.days < 1:
        parser.error("--days must be at least 1")
    return args


if __name__ == "__main__":
    harness.run(main, parse_args())
