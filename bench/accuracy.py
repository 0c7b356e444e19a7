"""Routing accuracy of Intent Router (or HA's own agent) on public test sentences.

    .venv/bin/python bench/accuracy.py --llm-url http://127.0.0.1:8011/v1 \
        --model local --set intents --set legacy --limit 80 --seed 1
    .venv/bin/python bench/accuracy.py --no-model --set intents --set legacy \
        [--lang de ...] [--agent ha_default]

For each case: a real HA test instance with the case's fixture home (one
instance per home, reused by its cases, with the home reset in between), a
fresh voice satellite in the speaker's area, the sentence sent in the case's
language through `conversation.async_converse` to an Intent Router config
entry pointed at `--llm-url` (or, `--agent ha_default`, to HA's own agent
`conversation.home_assistant`, path "ha"), and the executed actions scored as
`bench/cases.py` describes.
Results (`bench/harness.py`, `ResultFiles`): `<out>/accuracy-<tag>-<time>.jsonl`
(one line per case, written as it goes), `.json` (summary) and `.md` (tables).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
import contextlib
import json
from pathlib import Path
import statistics
import sys
import time
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.answers import model_tokens, reached_model, unfounded_facts
from bench.cases import (
    INTENT_ONLY,
    LANGUAGES,
    SETS,
    Case,
    Verdict,
    expected_targets,
    judge_end_state,
    judge_intent_case,
    judge_refusal,
    judge_slurp,
    load,
    outside_targets,
    prepare_home,
    sample,
)
from custom_components.intent_router.core.records import Outcome
from homeassistant.components import conversation

TIMER_INTENTS = frozenset(i for i in INTENT_ONLY if "Timer" in i) - {"HassStartTimer"}
# Intents about every timer, and slots that say which timer.
ALL_TIMER_INTENTS = frozenset({"HassCancelAllTimers", "HassTimerStatus"})
TIMER_SLOTS = ("start_hours", "start_minutes", "start_seconds", "name", "area")
AGENTS = ("intent_router", "ha_default")
# The path a turn of HA's own agent is counted under.
HA_PATH = "ha"
# Yes, in the case's language, for a turn that asks first.
YES_WORDS = {"en": "yes", "de": "ja", "fr": "oui", "es": "sí", "nl": "ja", "it": "sì"}
# Intents shown in the report's per-intent table: those with this many cases.
MIN_INTENT_CASES = 10


def timer_for(case: Case) -> dict[str, Any]:
    """A timer the sentence can refer to, when the fixture home has none."""
    timer: dict[str, Any] = {
        key: value for key, value in case.slots.items() if key in TIMER_SLOTS
    }
    if not any(key.startswith("start_") for key in timer):
        timer["start_hours"] = 2
    if case.intent == "HassUnpauseTimer":
        timer["is_active"] = False  # only a paused timer can be resumed
    return timer


def timers_for(instance: harness.Instance, case: Case) -> list[dict[str, Any]]:
    """The timers running when the sentence is said.

    The fixture's, unless the sentence acts on one timer without saying
    which (HA's handler then refuses: "multiple timers matched"); then one.
    """
    timers = instance.home.spec.timers
    says_which = any(key in case.slots for key in TIMER_SLOTS)
    if timers and (says_which or case.intent in ALL_TIMER_INTENTS):
        return timers
    return [timer_for(case)]


def snapshot(instance: harness.Instance) -> harness.States:
    """The home's devices and read-only entities, for end-state scoring."""
    return instance.states([*instance.home.devices, *instance.home.static])


async def run_case(
    instance: harness.Instance, case: Case
) -> tuple[harness.Turn, Verdict, list[str]]:
    """Reset the home, say the sentence, judge what happened.

    Also returns the entities acted on outside the expected targets.
    """
    instance.home.reset(case.setup)
    await instance.hass.async_block_till_done()
    device_id = instance.home.new_satellite(case.speaker_area)
    if case.intent in TIMER_INTENTS:
        await instance.async_start_timers(device_id, timers_for(instance, case))
    targets = (
        expected_targets(instance.hass, case)
        if case.set in {"intents", "legacy"}
        else []
    )
    before = snapshot(instance)
    volumes = {
        entity_id: attributes.get("volume_level")
        for entity_id, (_, attributes) in before.items()
    }
    turn = await instance.async_converse(case.text, device_id, language=case.language)
    if turn.outcome == "confirm":
        # What opens the home asks first (docs/design.md, Safety): say
        # yes, as the user would, and judge both turns together.
        first = turn
        turn = await instance.async_converse(
            YES_WORDS[case.language], device_id, language=case.language
        )
        turn.calls[:0] = first.calls
        turn.details[:0] = [*first.details, {"bench": "confirmed with 'yes'"}]
        turn.wall_ms += first.wall_ms
        turn.prompt_tokens = first.prompt_tokens
        turn.source = first.source
    if instance.entry_id == conversation.HOME_ASSISTANT_AGENT:
        turn.source = HA_PATH
    after = snapshot(instance)
    turn.unfounded = unfounded_facts(
        turn.speech,
        [before, after],
        turn.details,
        turn.source,
        [call.data for call in turn.calls],
    )
    await instance.async_cancel_timers()
    if case.set == "datasets":
        verdict = judge_end_state(case, turn, before, after)
    elif case.set == "slurp":
        verdict = judge_slurp(case, turn)
    elif case.set == "home_llm_refusals":
        verdict = judge_refusal(case, turn, after)
    else:
        verdict = judge_intent_case(instance.hass, case, turn, targets, volumes)
    return turn, verdict, outside_targets(case, turn, targets)


def _rates(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Correct / total of scored rows, by the value of `key`."""
    buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        buckets[str(row[key])].append(row)
    return {
        name: harness.rate(sum(1 for r in items if r["correct"]), len(items), "correct")
        for name, items in sorted(buckets.items())
    }


def by_language(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per language: overall, per set, per path, per intent, and what acted outside.

    `reading` is the reading's own accuracy (the turns it acted or answered
    on); `reading_asked` counts the turns it asked "which one?" instead (no
    act, no answer: right or wrong as any case, apart here); `outside`
    counts cases that acted on an entity outside the expected targets.
    """
    found: dict[str, dict[str, Any]] = {}
    for language in sorted({str(r["language"]) for r in rows}):
        mine = [r for r in rows if r["language"] == language]
        read = [r for r in mine if r["source"] == "reading"]
        own = [r for r in read if not _asked(r)]
        found[language] = {
            **harness.rate(sum(1 for r in mine if r["correct"]), len(mine), "correct"),
            "by_set": _rates(mine, "set"),
            "by_source": _rates(mine, "source"),
            "by_intent": _rates(mine, "intent_key"),
            "reading": harness.rate(
                sum(1 for r in own if r["correct"]), len(own), "correct"
            ),
            "reading_asked": len(read) - len(own),
            "outside": sum(1 for r in mine if r["outside"]),
        }
    return found


def _asked(row: dict[str, Any]) -> bool:
    """Whether the turn asked which device was meant (it neither acted nor answered)."""
    return bool(row.get("turn")) and row["turn"]["outcome"] == Outcome.CLARIFY


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy by language, set, intent, group and path; latency and tokens."""
    scored = [r for r in rows if r["correct"] is not None]
    groups: dict[str, list[bool]] = defaultdict(list)
    for row in scored:
        groups[f"{row['set']}:{row['group']}"].append(bool(row["correct"]))
    walls = [r["turn"]["wall_ms"] for r in rows if r.get("turn")]
    model_turns = [
        r["turn"]["prompt_tokens"]
        for r in rows
        if r.get("turn") and r["turn"]["prompt_tokens"]
    ]
    by_source: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if row.get("turn"):
            by_source[str(row["turn"]["source"])].append(row["turn"]["wall_ms"])
    seconds = sum(r["seconds"] for r in rows)
    return {
        "cases": len(rows),
        "scored": len(scored),
        "unscorable": len(rows) - len(scored),
        "correct": sum(1 for r in scored if r["correct"]),
        "accuracy": round(sum(1 for r in scored if r["correct"]) / len(scored), 3)
        if scored
        else None,
        "outside": sum(1 for r in scored if r["outside"]),
        "by_language": by_language(scored),
        "by_set": _rates(scored, "set"),
        "by_intent": _rates(scored, "intent_key"),
        "by_source": _rates(scored, "source"),
        "by_kind": _rates(scored, "kind"),
        "groups": {
            "n": len(groups),
            "all_correct": sum(1 for v in groups.values() if all(v)),
            "mean_group_accuracy": round(
                statistics.mean(sum(v) / len(v) for v in groups.values()), 3
            )
            if groups
            else None,
        },
        "latency_ms": {
            "p50": harness.percentile(walls, 50),
            "p95": harness.percentile(walls, 95),
            "by_source": {
                source: harness.spread(values)
                for source, values in sorted(by_source.items())
            },
        },
        "prompt_tokens": {
            "model_turns": len(model_turns),
            "mean": round(statistics.mean(model_turns)) if model_turns else None,
            "p50": harness.percentile(model_turns, 50),
            "p95": harness.percentile(model_turns, 95),
        },
        "model_path": model_path(scored),
        "sources": dict(Counter(str(r["source"]) for r in rows)),
        "case_seconds": round(seconds, 1),
    }


def model_path(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The turns that reached the model, on their own.

    Right or wrong as every case is scored; of those not right, whether the
    turn asked back (a question or a confirmation), was refused or failed
    (an error reply), or acted or answered wrongly. Latency is the whole
    turn's; tokens are what the model read anew and wrote.
    """
    reached = [r for r in rows if r.get("model")]
    wrong = [r for r in reached if not r["correct"]]
    outcome = Counter(
        "asked"
        if r["turn"]["outcome"] in ("clarify", "confirm")
        else "refused"
        if r["turn"]["outcome"] in ("error", "failed", "refused")
        else "wrong"
        for r in wrong
    )
    written = [t for r in reached if (t := model_tokens(r["turn"], "completion"))]
    read = [t for r in reached if (t := model_tokens(r["turn"], "processed_prompt"))]
    walls = [r["turn"]["wall_ms"] for r in reached]
    return {
        **harness.rate(len(reached) - len(wrong), len(reached), "correct"),
        "wrong": outcome["wrong"],
        "asked": outcome["asked"],
        "refused": outcome["refused"],
        "latency_ms": harness.spread(walls),
        "completion_tokens": harness.spread(written),
        "processed_prompt_tokens": harness.spread(read),
        "unfounded": sum(1 for r in rows if r.get("unfounded")),
    }


def _cell(rate: dict[str, Any] | None) -> str:
    """`correct/n (share)`, or a dash."""
    if not rate or not rate["n"]:
        return "-"
    return f"{rate['correct']}/{rate['n']} ({rate['accuracy']:.0%})"


def language_tables(summary: dict[str, Any]) -> list[str]:
    """Per language: overall, per file, reading, outside; then paths and intents."""
    languages = summary["by_language"]
    names = list(languages)
    sets = sorted({s for v in languages.values() for s in v["by_set"]})
    lines = harness.table(
        [
            "language",
            "all",
            *sets,
            "reading's own",
            "reading asked which",
            "acted outside targets",
        ],
        [
            (
                name,
                _cell(v),
                *(_cell(v["by_set"].get(s)) for s in sets),
                _cell(v["reading"]),
                v["reading_asked"],
                v["outside"],
            )
            for name, v in languages.items()
        ],
        "l" + "r" * (len(sets) + 4),
    )
    sources = sorted({s for v in languages.values() for s in v["by_source"]})
    lines += [
        "",
        *harness.table(
            ["path", *names],
            [
                (source, *(_cell(languages[n]["by_source"].get(source)) for n in names))
                for source in sources
            ],
            "l" + "r" * len(names),
        ),
    ]
    intents = [
        name
        for name, rate in summary["by_intent"].items()
        if rate["n"] >= MIN_INTENT_CASES
    ]
    lines += [
        "",
        *harness.table(
            ["intent", "all", *names],
            [
                (
                    intent,
                    _cell(summary["by_intent"][intent]),
                    *(_cell(languages[n]["by_intent"].get(intent)) for n in names),
                )
                for intent in intents
            ],
            "ll" + "r" * len(names),
        ),
    ]
    return lines


def markdown(results: harness.ResultFiles, summary: dict[str, Any]) -> str:
    """Short tables for the README."""
    meta = results.meta
    lines = [
        *results.header(f"Accuracy, {meta['agent']}, {meta['model']}"),
        (
            f"Cases {summary['cases']}, scored {summary['scored']}, correct "
            f"{summary['correct']} ({summary['accuracy']}); acted outside the "
            f"expected targets {summary['outside']}; latency p50 "
            f"{summary['latency_ms']['p50']} ms, p95 {summary['latency_ms']['p95']} ms; "
            f"prompt tokens per model turn p50 {summary['prompt_tokens']['p50']}, "
            f"p95 {summary['prompt_tokens']['p95']}; run {meta['wall_seconds']} s "
            f"({meta['cases_per_second']} cases/s)."
        ),
        "",
        *language_tables(summary),
        "",
    ]
    for title, key in (("set", "by_set"), ("path (source)", "by_source")):
        lines += [*harness.rate_table(title, summary[key], "correct"), ""]
    lines += [*model_path_table(summary["model_path"]), ""]
    lines += harness.path_table(summary["latency_ms"]["by_source"])
    return "\n".join(lines) + "\n"


def model_path_table(found: dict[str, Any]) -> list[str]:
    """The model path's own line: right, wrong, asked, refused, time, tokens."""

    def both(spread: dict[str, Any]) -> str:
        return " / ".join(
            "-" if spread.get(pct) is None else f"{spread[pct]:g}"
            for pct in ("p50", "p95")
        )

    heading = (
        f"Turns that reached the model: {found['n']}; turns speaking a number "
        f"the home did not show: {found['unfounded']}."
    )
    return [
        heading,
        "",
        *harness.table(
            [
                "right",
                "wrong",
                "asked",
                "refused",
                "latency p50 / p95 ms",
                "completion tokens p50 / p95",
                "prompt tokens read p50 / p95",
            ],
            [
                (
                    _cell(found),
                    found["wrong"],
                    found["asked"],
                    found["refused"],
                    both(found["latency_ms"]),
                    both(found["completion_tokens"]),
                    both(found["processed_prompt_tokens"]),
                )
            ],
            "rrrrrrr",
        ),
    ]


async def main(args: argparse.Namespace) -> None:
    """Run the chosen cases, home by home."""
    async with contextlib.AsyncExitStack() as stack:
        if args.no_model:
            # HA's local sentences only: the agent's "use the language model"
            # option off; a scripted server answers the set-up probe.
            server = await stack.enter_async_context(harness.scripted_server())
            args.llm_url, args.model, args.local_first = server.url, "none", True
        await run_cases(args)


async def run_cases(args: argparse.Namespace) -> None:
    """Run the chosen cases, home by home, and write the results."""
    sets = args.set or list(SETS)
    languages = args.lang or list(LANGUAGES)
    cases, homes = load(sets, languages)
    if args.group:
        # One source of a set, e.g. home-assistant-datasets' assist-mini.
        cases = [case for case in cases if case.group.startswith(args.group)]
    if args.rerun:
        # The cases of an earlier run's lines (all, or those picked from it).
        wanted = {
            json.loads(line)["id"] for line in args.rerun.read_text().splitlines()
        }
        cases = [case for case in cases if case.id in wanted]
    chosen = sample(cases, sets, args.limit, args.seed, args.limit_per_lang)
    by_home: dict[str, list[Case]] = defaultdict(list)
    for case in chosen:
        by_home[case.home].append(case)
    router = args.agent == "intent_router"
    rows: list[dict[str, Any]] = []
    with harness.ResultFiles(
        "accuracy",
        args.out,
        args.tag or (args.model if router else args.agent),
        agent=args.agent,
        model=args.model if router else "none",
        llm_url=args.llm_url,
        sets=sets,
        languages=languages,
        limit=args.limit,
        limit_per_lang=args.limit_per_lang,
        seed=args.seed,
        local_first=args.local_first,
        use_llm=router and not args.no_model,
        timeout=args.timeout,
    ) as results:
        sys.stderr.write(
            f"{len(chosen)} cases in {len(by_home)} homes -> {results.path('.*')}\n"
        )
        started = time.perf_counter()
        options = harness.entry_options(
            args.model,
            local_first=args.local_first,
            timeout=args.timeout,
            use_llm=not args.no_model,
        )
        for key, home_cases in by_home.items():
            home = homes[key]
            synthetic = prepare_home(home, home_cases)
            async with harness.async_instance(
                home, args.llm_url, options, router=router
            ) as instance:
                for case in home_cases:
                    rows.append(await _row(instance, case, key, synthetic))
                    row = rows[-1]
                    mark = {True: "ok ", False: "BAD", None: " - "}[row["correct"]]
                    results.add(
                        row,
                        f"[{len(rows)}/{len(chosen)}] {mark} {case.language} "
                        f"{row['source']} {row['seconds']:.2f}s {case.text!r} "
                        f"{row['why']}",
                    )
        wall = time.perf_counter() - started
        results.meta["wall_seconds"] = round(wall)
        results.meta["cases_per_second"] = round(len(rows) / wall, 1) if wall else None
        summary = summarize(rows)
        results.finish(summary, markdown(results, summary))


async def _row(
    instance: harness.Instance, case: Case, home: str, synthetic: list[str]
) -> dict[str, Any]:
    """One case run and judged, as a line of the results."""
    started = time.perf_counter()
    turn: harness.Turn | None
    try:
        turn, verdict, outside = await run_case(instance, case)
    except Exception as err:  # noqa: BLE001 - a crash is a result
        turn, verdict, outside = None, Verdict(False, "crash", why=repr(err)), []
    return {
        "id": case.id,
        "set": case.set,
        "language": case.language,
        "group": case.group,
        "intent_key": case.intent or case.group,
        "text": case.text,
        "home": home,
        "speaker_area": case.speaker_area,
        "correct": verdict.correct,
        "kind": verdict.kind,
        "expected": verdict.expected,
        "expected_reply": case.response,
        "why": verdict.why,
        "note": case.note,
        "outside": outside,
        "unfounded": turn.unfounded if turn else [],
        "model": reached_model(turn.details) if turn else False,
        "source": turn.source if turn else None,
        "synthetic": synthetic,
        "turn": turn.as_dict() if turn else None,
        "seconds": round(time.perf_counter() - started, 3),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    harness.add_model_options(parser)
    parser.add_argument(
        "--no-model",
        action="store_true",
        help="HA's local sentences only (the entry's use-LLM option off)",
    )
    parser.add_argument(
        "--agent",
        choices=AGENTS,
        default="intent_router",
        help="Intent Router's entry, or HA's own agent (conversation.home_assistant)",
    )
    parser.add_argument("--set", action="append", choices=SETS, help="repeatable")
    parser.add_argument(
        "--lang",
        action="append",
        choices=LANGUAGES,
        help="repeatable; default all six (datasets, slurp, home-llm: en only)",
    )
    parser.add_argument(
        "--group", help="only cases whose group starts so, e.g. assist-mini/"
    )
    parser.add_argument(
        "--rerun",
        type=Path,
        help="only the cases of these result lines (.jsonl of an earlier run)",
    )
    parser.add_argument("--limit", type=int, help="cases in all, spread over sets")
    parser.add_argument(
        "--limit-per-lang",
        type=int,
        help="at most N cases per language, drawn with --seed",
    )
    parser.add_argument("--seed", type=int, default=0)
    harness.add_entry_options(parser)
    harness.add_output_options(parser)
    args = parser.parse_args(argv)
    if args.agent == "ha_default":
        args.no_model = True  # HA's agent needs no model server
    if not args.no_model and not (args.llm_url and args.model):
        parser.error("--llm-url and --model are required, unless --no-model")
    return args


if __name__ == "__main__":
    harness.run(main, parse_args())
