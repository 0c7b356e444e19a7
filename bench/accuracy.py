"""Routing accuracy of Intent Router on public Home Assistant test sentences.

    .venv/bin/python bench/accuracy.py --llm-url http://127.0.0.1:8011/v1 \
        --model local --set intents --set legacy --limit 80 --seed 1

For each case: a real HA test instance with the case's fixture home (one
instance per home, reused by its cases, with the home reset in between), a
fresh voice satellite in the speaker's area, the sentence sent through
`conversation.async_converse` to an Intent Router config entry pointed at
`--llm-url`, and the executed actions scored as `bench/cases.py` describes.
Results (`bench/harness.py`, `ResultFiles`): `<out>/accuracy-<tag>-<time>.jsonl`
(one line per case, written as it goes), `.json` (summary) and `.md` (tables).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
import contextlib
from pathlib import Path
import statistics
import sys
import time
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.cases import (
    INTENT_ONLY,
    SETS,
    Case,
    Verdict,
    expected_targets,
    judge_end_state,
    judge_intent_case,
    judge_slurp,
    load,
    prepare_home,
    sample,
)

TIMER_INTENTS = frozenset(i for i in INTENT_ONLY if "Timer" in i) - {"HassStartTimer"}


def timer_for(case: Case) -> dict[str, Any]:
    """A timer the sentence can refer to, when the fixture home has none."""
    timer: dict[str, Any] = {
        key: value
        for key, value in case.slots.items()
        if key in {"start_hours", "start_minutes", "start_seconds", "name", "area"}
    }
    if not any(key.startswith("start_") for key in timer):
        timer["start_hours"] = 2
    if case.intent == "HassUnpauseTimer":
        timer["is_active"] = False  # only a paused timer can be resumed
    return timer


def snapshot(instance: harness.Instance) -> harness.States:
    """The home's devices and read-only entities, for end-state scoring."""
    return instance.states([*instance.home.devices, *instance.home.static])


async def run_case(
    instance: harness.Instance,
    case: Case,
    language: str = "en",
    agent: str | None = None,
) -> tuple[harness.Turn, Verdict]:
    """Reset the home, say the sentence, judge what happened.

    `agent` is another agent to send it to (HA's own), to compare.
    """
    instance.home.reset(case.setup)
    await instance.hass.async_block_till_done()
    device_id = instance.home.new_satellite(case.speaker_area)
    if case.intent in TIMER_INTENTS:
        await instance.async_start_timers(
            device_id, instance.home.spec.timers or [timer_for(case)]
        )
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
    turn = await instance.async_converse(
        case.text, device_id, language=language, agent_id=agent
    )
    if turn.outcome == "confirm":
        # Locks, alarms and garage doors ask first (docs/design.md, Safety): say
        # yes, as the user would, and judge both turns together.
        first = turn
        turn = await instance.async_converse(
            "yes", device_id, language=language, agent_id=agent
        )
        turn.calls[:0] = first.calls
        turn.details[:0] = [*first.details, {"bench": "confirmed with 'yes'"}]
        turn.wall_ms += first.wall_ms
        turn.prompt_tokens = first.prompt_tokens
        turn.source = first.source
    after = snapshot(instance)
    await instance.async_cancel_timers()
    if case.set == "datasets":
        verdict = judge_end_state(case, turn, before, after)
    elif case.set == "slurp":
        verdict = judge_slurp(case, turn)
    else:
        verdict = judge_intent_case(instance.hass, case, turn, targets, volumes)
    return turn, verdict


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy by set, intent, group and path; latency and tokens."""
    scored = [r for r in rows if r["correct"] is not None]

    def by(key: str) -> dict[str, dict[str, Any]]:
        buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in scored:
            buckets[str(row[key])].append(row)
        return {
            name: harness.rate(
                sum(1 for r in items if r["correct"]), len(items), "correct"
            )
            for name, items in sorted(buckets.items())
        }

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
    return {
        "cases": len(rows),
        "scored": len(scored),
        "unscorable": len(rows) - len(scored),
        "correct": sum(1 for r in scored if r["correct"]),
        "accuracy": round(sum(1 for r in scored if r["correct"]) / len(scored), 3)
        if scored
        else None,
        "by_set": by("set"),
        "by_intent": by("intent_key"),
        "by_source": by("source"),
        "by_kind": by("kind"),
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
        "sources": dict(Counter(str(r["source"]) for r in rows)),
    }


def markdown(results: harness.ResultFiles, summary: dict[str, Any]) -> str:
    """Short tables for the README."""
    lines = [
        *results.header(f"Accuracy, {results.meta['model']}"),
        (
            f"Cases {summary['cases']}, scored {summary['scored']}, correct "
            f"{summary['correct']} ({summary['accuracy']}); latency p50 "
            f"{summary['latency_ms']['p50']} ms, p95 {summary['latency_ms']['p95']} ms; "
            f"prompt tokens per model turn p50 {summary['prompt_tokens']['p50']}, "
            f"p95 {summary['prompt_tokens']['p95']}."
        ),
        "",
    ]
    for title, key in (
        ("set", "by_set"),
        ("path (source)", "by_source"),
        ("kind", "by_kind"),
        ("intent / category", "by_intent"),
    ):
        lines += [*harness.rate_table(title, summary[key], "correct"), ""]
    lines += harness.path_table(summary["latency_ms"]["by_source"])
    return "\n".join(lines) + "\n"


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
    agent = "conversation.home_assistant" if args.ha_agent else None
    cases, homes = load(sets, args.language)
    if args.group:
        # One source of a set, e.g. home-assistant-datasets' assist-mini.
        cases = [case for case in cases if case.group.startswith(args.group)]
    if args.intent:
        # HA intents by name prefix, e.g. HassMedia.
        cases = [
            c for c in cases if c.intent and c.intent.startswith(tuple(args.intent))
        ]
    chosen = sample(cases, sets, args.limit, args.seed)
    by_home: dict[str, list[Case]] = defaultdict(list)
    for case in chosen:
        by_home[case.home].append(case)
    rows: list[dict[str, Any]] = []
    with harness.ResultFiles(
        "accuracy",
        args.out,
        args.tag or args.model,
        model=args.model,
        llm_url=args.llm_url,
        sets=sets,
        limit=args.limit,
        seed=args.seed,
        local_first=args.local_first,
        use_llm=not args.no_model,
        timeout=args.timeout,
    ) as results:
        sys.stderr.write(
            f"{len(chosen)} cases in {len(by_home)} homes -> {results.path('.*')}\n"
        )
        for key, home_cases in by_home.items():
            home = homes[key]
            synthetic = prepare_home(home, home_cases)
            options = harness.entry_options(
                args.model,
                local_first=args.local_first,
                timeout=args.timeout,
                use_llm=not args.no_model,
            )
            async with harness.async_instance(home, args.llm_url, options) as instance:
                for case in home_cases:
                    started = time.perf_counter()
                    try:
                        turn, verdict = await run_case(
                            instance, case, args.language, agent
                        )
                    except Exception as err:  # noqa: BLE001 - a crash is a result
                        turn, verdict = None, Verdict(False, "crash", why=repr(err))
                    row = {
                        "id": case.id,
                        "set": case.set,
                        "group": case.group,
                        "intent_key": case.intent or case.group,
                        "text": case.text,
                        "home": key,
                        "speaker_area": case.speaker_area,
                        "correct": verdict.correct,
                        "kind": verdict.kind,
                        "expected": verdict.expected,
                        "why": verdict.why,
                        "source": turn.source if turn else None,
                        "synthetic": synthetic,
                        "turn": turn.as_dict() if turn else None,
                        "seconds": round(time.perf_counter() - started, 2),
                    }
                    rows.append(row)
                    mark = {True: "ok ", False: "BAD", None: " - "}[verdict.correct]
                    results.add(
                        row,
                        f"[{len(rows)}/{len(chosen)}] {mark} {row['source']} "
                        f"{row['seconds']:.1f}s {case.text!r} {verdict.why}",
                    )
        summary = summarize(rows)
        results.finish(summary, markdown(results, summary))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    harness.add_model_options(parser)
    parser.add_argument(
        "--no-model",
        action="store_true",
        help="HA's local sentences only (the entry's use-LLM option off)",
    )
    parser.add_argument("--set", action="append", choices=SETS, help="repeatable")
    parser.add_argument(
        "--group", help="only cases whose group starts so, e.g. assist-mini/"
    )
    parser.add_argument(
        "--language", default="en", help="the intents tests' language (en, de, ...)"
    )
    parser.add_argument(
        "--ha-agent",
        action="store_true",
        help="send the sentences to HA's own agent instead, to compare",
    )
    parser.add_argument(
        "--intent", action="append", help="only HA intents starting so; repeatable"
    )
    parser.add_argument("--limit", type=int, help="cases in all, spread over sets")
    parser.add_argument("--seed", type=int, default=0)
    harness.add_entry_options(parser)
    harness.add_output_options(parser)
    args = parser.parse_args(argv)
    if not args.no_model and not (args.llm_url and args.model):
        parser.error("--llm-url and --model are required, unless --no-model")
    return args


if __name__ == "__main__":
    harness.run(main, parse_args())
