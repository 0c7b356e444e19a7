"""Routing accuracy of Intent Router on public Home Assistant test sentences.

    .venv/bin/python bench/accuracy.py --llm-url http://127.0.0.1:8011/v1 \
        --model local --set intents --set legacy --limit 80 --seed 1

For each case: a real HA test instance with the case's fixture home (one
instance per home, reused by its cases, with the home reset in between), a
fresh voice satellite in the speaker's area, the sentence sent through
`conversation.async_converse` to an Intent Router config entry pointed at
`--llm-url`, and the executed actions scored as `bench/cases.py` describes.
Results: `<out>/accuracy-<stamp>.jsonl` (one line per case, written as it
goes), `.json` (summary) and `.md` (tables).
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter, defaultdict
from collections.abc import Iterable
import contextlib
from datetime import UTC, datetime
import json
from pathlib import Path
import statistics
import subprocess
import sys
import time
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
from bench.harness import Instance, Turn, async_instance, entry_options, quiet_logs
from custom_components.intent_router.const import CONF_USE_LLM

RESULTS = Path(__file__).resolve().parent / "results"
TIMER_INTENTS = frozenset(i for i in INTENT_ONLY if "Timer" in i) - {"HassStartTimer"}


def percentile(values: Iterable[float], pct: int) -> float | None:
    """Nearest-rank percentile, or None without values."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, round(pct / 100 * len(ordered)))
    return round(ordered[min(rank, len(ordered)) - 1], 1)


def checkout() -> dict[str, Any]:
    """Which integration code ran: the commit, and whether it had edits."""

    def git(*args: str) -> str:
        return subprocess.run(  # noqa: S603 - fixed git arguments
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=Path(__file__).resolve().parent.parent,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()

    return {
        "commit": git("rev-parse", "HEAD"),
        "edited": git("status", "--porcelain", "custom_components").splitlines(),
    }


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


def snapshot(instance: Instance) -> dict[str, tuple[str, dict[str, Any]]]:
    """The home's states and attributes, for end-state scoring."""
    ids = set(instance.home.devices) | set(instance.home.static)
    return {
        state.entity_id: (state.state, dict(state.attributes))
        for state in instance.hass.states.async_all()
        if state.entity_id in ids
    }


async def run_case(instance: Instance, case: Case) -> tuple[Turn, Verdict]:
    """Reset the home, say the sentence, judge what happened."""
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
    turn = await instance.async_converse(case.text, device_id)
    if turn.outcome == "confirm":
        # Locks, alarms and garage doors ask first (DESIGN.md, Safety): say
        # yes, as the user would, and judge both turns together.
        first = turn
        turn = await instance.async_converse("yes", device_id)
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

    def table(key: str) -> dict[str, dict[str, Any]]:
        buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in scored:
            buckets[str(row[key])].append(row)
        return {
            name: {
                "n": len(items),
                "correct": sum(1 for r in items if r["correct"]),
                "accuracy": round(
                    sum(1 for r in items if r["correct"]) / len(items), 3
                ),
            }
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
        "by_set": table("set"),
        "by_intent": table("intent_key"),
        "by_source": table("source"),
        "by_kind": table("kind"),
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
            "p50": percentile(walls, 50),
            "p95": percentile(walls, 95),
            "by_source": {
                source: {
                    "n": len(values),
                    "p50": percentile(values, 50),
                    "p95": percentile(values, 95),
                }
                for source, values in sorted(by_source.items())
            },
        },
        "prompt_tokens": {
            "model_turns": len(model_turns),
            "mean": round(statistics.mean(model_turns)) if model_turns else None,
            "p50": percentile(model_turns, 50),
            "p95": percentile(model_turns, 95),
        },
        "sources": dict(Counter(str(r["source"]) for r in rows)),
    }


def markdown(meta: dict[str, Any], summary: dict[str, Any]) -> str:
    """Short tables for the README."""
    lines = [
        f"# Accuracy: {meta['model']} ({meta['started']})",
        "",
        f"Command: `{meta['command']}`",
        "",
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
        lines += [f"| {title} | n | correct | accuracy |", "|---|---:|---:|---:|"]
        lines += [
            f"| {name} | {v['n']} | {v['correct']} | {v['accuracy']:.2f} |"
            for name, v in summary[key].items()
        ]
        lines.append("")
    lines += ["| path | turns | p50 ms | p95 ms |", "|---|---:|---:|---:|"]
    lines += [
        f"| {source} | {v['n']} | {v['p50']} | {v['p95']} |"
        for source, v in summary["latency_ms"]["by_source"].items()
    ]
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """Run the chosen cases, home by home."""
    quiet_logs()
    if args.no_model:
        # HA's local sentences only: the agent's "use the language model"
        # option off; a scripted server answers the set-up probe.
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from llm_server import ScriptedLLMServer  # noqa: PLC0415

        server = ScriptedLLMServer()
        await server.start()
        args.llm_url, args.model, args.local_first = server.url, "none", True
    sets = args.set or list(SETS)
    cases, homes = load(sets)
    chosen = sample(cases, sets, args.limit, args.seed)
    by_home: dict[str, list[Case]] = defaultdict(list)
    for case in chosen:
        by_home[case.home].append(case)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    name = f"accuracy-{args.tag or args.model}-{stamp}"
    meta = {
        "model": args.model,
        "llm_url": args.llm_url,
        "sets": sets,
        "limit": args.limit,
        "seed": args.seed,
        "local_first": args.local_first,
        "use_llm": not args.no_model,
        "timeout": args.timeout,
        "started": stamp,
        "command": " ".join(["bench/accuracy.py", *sys.argv[1:]]),
        "checkout": checkout(),
    }
    rows: list[dict[str, Any]] = []
    sys.stderr.write(f"{len(chosen)} cases in {len(by_home)} homes -> {out / name}.*\n")
    with (out / f"{name}.jsonl").open("w", encoding="utf-8") as raw:
        for key, home_cases in by_home.items():
            home = homes[key]
            synthetic = prepare_home(home, home_cases)
            options = entry_options(
                args.model,
                local_first=args.local_first,
                timeout=args.timeout,
                **({CONF_USE_LLM: False} if args.no_model else {}),
            )
            async with async_instance(home, args.llm_url, options) as instance:
                for case in home_cases:
                    started = time.perf_counter()
                    try:
                        turn, verdict = await run_case(instance, case)
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
                    raw.write(json.dumps(row) + "\n")
                    raw.flush()
                    mark = {True: "ok ", False: "BAD", None: " - "}[verdict.correct]
                    sys.stderr.write(
                        f"[{len(rows)}/{len(chosen)}] {mark} {row['source']} "
                        f"{row['seconds']:.1f}s {case.text!r} {verdict.why}\n"
                    )
    summary = summarize(rows)
    (out / f"{name}.json").write_text(
        json.dumps({"meta": meta, "summary": summary}, indent=2) + "\n", "utf-8"
    )
    (out / f"{name}.md").write_text(markdown(meta, summary), "utf-8")
    sys.stdout.write(markdown(meta, summary))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--llm-url", help="OpenAI-compatible base URL")
    parser.add_argument("--model", help="model name on that server")
    parser.add_argument(
        "--no-model",
        action="store_true",
        help="HA's local sentences only (the entry's use-LLM option off)",
    )
    parser.add_argument("--set", action="append", choices=SETS, help="repeatable")
    parser.add_argument("--limit", type=int, help="cases in all, spread over sets")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--tag", help="name part of the result files")
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="the entry's model timeout in s (default 60: a CPU model is slow)",
    )
    parser.add_argument(
        "--local-first",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the entry's local-first option (on by default, as in the product)",
    )
    args = parser.parse_args(argv)
    if not args.no_model and not (args.llm_url and args.model):
        parser.error("--llm-url and --model are required, unless --no-model")
    return args


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(parse_args()))
