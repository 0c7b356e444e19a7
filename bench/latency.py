"""Latency with a real model: the first turn, warm turns, learned commands.

    .venv/bin/python bench/latency.py --llm-url http://127.0.0.1:8011/v1 --model local \
        [--limit 20] [--lang de] [--first everything-in-the-office] [--wait 185] \
        [--no-repeat]

The home and the dialogues of `bench/dialogues.yaml` (or `--data`), in one
real HA test instance (`bench/harness.py`), Intent Router pointed at the
model through `ModelProxy`, which notes per request what the server
reports (prompt, processed prompt and completion tokens). Three phases:

1. first: the first turn of one dialogue (`--first`; by default one whose
   command HA's own sentences do not handle, so it goes to the model), said
   once set-up's background work is done (timed: `settle_s`, the prompt
   cache warm-up where the checkout has one), as a person speaks some time
   after set-up; `--no-settle` says it right away instead.
2. warm: the chosen dialogues, run and judged exactly as `bench/dialogues.py`
   runs them (`Runner`); the figures are from the turns the model answered.
3. repeat: after the integration's learning window (`LEARN_AFTER`, or
   `--wait`), every first turn the model carried out (`done`) is said once
   more from a new satellite in the same room: a learned command should be
   answered without the model, with the same calls.

Results (`bench/harness.py`, `ResultFiles`): `<out>/latency-<tag>-<time>.jsonl`
(one line per turn, with its `phase`, written as it goes), `.json` (meta and
summary) and `.md` (the figures, and the warm phase judged as
`bench/dialogues.py` reports it; also printed).
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
import dataclasses
from pathlib import Path
import sys
import time
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.dialogues import (
    Dialogue,
    Runner,
    acted_on,
    add_dialogue_options,
    judge,
    load,
    report as dialogues_report,
    select,
    summarize as summarize_dialogues,
)

try:
    from custom_components.intent_router.deciding.learned import (
        LEARN_AFTER as _LEARN_AFTER,
    )
except ImportError:  # a checkout from before learned commands: --wait decides
    _LEARN_AFTER = None

# Seconds after which the integration learns a model-planned command that
# was not undone; None when this checkout does not learn commands.
LEARN_AFTER: float | None = _LEARN_AFTER
# What to wait before the repeats: past the window, so every command of the
# warm phase is learned by then (or `DEFAULT_WAIT` without a known window).
LEARN_MARGIN = 5.0
DEFAULT_WAIT = 185.0

# An English command HA's sentences leave to the model (it went to the model
# in the run `dialogues-router-after-20261122T164351Z`, bench/summaries/
# dialogues.md) and that acts: the default first turn.
DEFAULT_FIRST = "everything-in-the-office"

# Turn kinds that are one command on their own, with nothing before it.
SINGLE_KINDS = frozenset({"command", "alias", "area-default", "units", "typo"})


# --- choosing -------------------------------------------------------------


def first_dialogue(dialogues: Sequence[Dialogue], wanted: str | None) -> Dialogue:
    """The dialogue whose first turn is said first.

    `wanted` by id; else `DEFAULT_FIRST` when the data has it; else the
    first dialogue that opens with a command (another `--data` file).
    """
    by_id = {d.id: d for d in dialogues}
    if wanted is not None:
        if wanted not in by_id:
            msg = f"--first {wanted}: no such dialogue in the data"
            raise SystemExit(msg)
        return by_id[wanted]
    if DEFAULT_FIRST in by_id:
        return by_id[DEFAULT_FIRST]
    return next((d for d in dialogues if d.steps[0].kind == "command"), dialogues[0])


def repeatable(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """First turns the model planned and that ran: the ones it may learn."""
    return [
        r
        for r in rows
        if r["turn"] == 1
        and r["source"] == "model"
        and r["result"]["outcome"] == "done"
    ]


def wait_seconds(wait: float | None) -> float:
    """`--wait`, else the learning window and a margin, else `DEFAULT_WAIT`."""
    if wait is not None:
        return wait
    return DEFAULT_WAIT if LEARN_AFTER is None else LEARN_AFTER + LEARN_MARGIN


def device_calls(calls: Iterable[harness.Call]) -> list[tuple[str, str]]:
    """(service, entity) of what reached the home, read as the judge reads it."""
    return sorted(
        (service, entity_id)
        for entity_id, services in acted_on(calls).items()
        for service in services
    )


# --- running --------------------------------------------------------------


async def first_turn(runner: Runner, dialogue: Dialogue) -> dict[str, Any]:
    """The dialogue's first turn alone, run and judged as in the warm phase."""
    rows = await runner.run(dataclasses.replace(dialogue, steps=dialogue.steps[:1]))
    return rows[0]


async def repeat(
    runner: Runner, dialogue: Dialogue, earlier: dict[str, Any]
) -> dict[str, Any]:
    """Say a first turn again, from a new satellite in the same room.

    The home goes back to the dialogue's setup, as before its first run. A
    learned command is keyed by the speaker's area, not the device, so a
    new satellite there must get it; a new one also carries no conversation.
    """
    instance, proxy = runner.instance, runner.proxy
    assert proxy is not None
    home = instance.home
    step = dialogue.steps[0]
    home.reset(dialogue.setup)
    await instance.hass.async_block_till_done()
    device_id = home.new_satellite(earlier["from"])
    proxy.take()
    before = runner.states()
    started = time.perf_counter()
    turn = await instance.async_converse(
        earlier["say"], device_id, language=earlier["lang"], agent_id=runner.agent_id
    )
    ms = (time.perf_counter() - started) * 1000
    requests = proxy.take()
    verdict = judge(step, turn, before, runner.states(), home.spec, asked_before=False)
    calls = device_calls(turn.calls)
    first_calls = device_calls(harness.Call(**c) for c in earlier["result"]["calls"])
    return {
        "phase": "repeat",
        "dialogue": earlier["dialogue"],
        "turn": 1,
        "kind": earlier["kind"],
        "lang": earlier["lang"],
        "from": earlier["from"],
        "say": earlier["say"],
        "source": turn.source,
        "outcome": turn.outcome,
        "ms": round(ms, 1),
        "first_ms": round(earlier["seconds"] * 1000, 1),
        "model_requests": [r.as_dict() for r in requests],
        "calls": calls,
        "first_calls": first_calls,
        "same_calls": calls == first_calls,
        "passed": verdict.passed,
        "why": "; ".join(verdict.reasons),
        "speech": turn.speech,
        "result": turn.as_dict(),
    }


# --- summary --------------------------------------------------------------


def _ms(rows: Iterable[dict[str, Any]]) -> list[float]:
    return [r["seconds"] * 1000 for r in rows]


def _per_request(rows: Iterable[dict[str, Any]], key: str) -> list[float]:
    return [q[key] for r in rows for q in r["model"]["requests"] if q[key] is not None]


def summarize(
    first: dict[str, Any],
    warm: list[dict[str, Any]],
    repeats: list[dict[str, Any]] | None,
    wait: float | None,
) -> dict[str, Any]:
    """The three phases' figures; token counts are per model request."""
    model_rows = [r for r in warm if r["source"] == "model"]
    singles = [r for r in model_rows if r["turn"] == 1 and r["kind"] in SINGLE_KINDS]
    requests = [q for r in model_rows for q in r["model"]["requests"]]
    summary: dict[str, Any] = {
        "first": {
            "dialogue": first["dialogue"],
            "say": first["say"],
            "from": first["from"],
            "source": first["source"],
            "outcome": first["result"]["outcome"],
            "passed": first["passed"],
            "ms": round(first["seconds"] * 1000, 1),
            "wall_ms": first["result"]["wall_ms"],
            "requests": [
                {
                    key: q[key]
                    for key in (
                        "status",
                        "wall_ms",
                        "prompt_tokens",
                        "processed_prompt_tokens",
                        "completion_tokens",
                    )
                }
                for q in first["model"]["requests"]
            ],
        },
        "warm": {
            "turns": len(warm),
            "by_source": dict(sorted(Counter(str(r["source"]) for r in warm).items())),
            "model_turns": len(model_rows),
            # Turns that asked the model but were answered otherwise (a
            # fallback after a timeout or a refused plan): not in the figures.
            "other_turns_with_requests": sum(
                1 for r in warm if r["source"] != "model" and r["model"]["requests"]
            ),
            "requests": len(requests),
            "failed_requests": sum(1 for q in requests if q["status"] != 200),
            "latency_ms": harness.spread(_ms(model_rows)),
            "completion_tokens": harness.spread(
                _per_request(model_rows, "completion_tokens")
            ),
            "prompt_tokens": harness.spread(_per_request(model_rows, "prompt_tokens")),
            "processed_prompt_tokens": harness.spread(
                _per_request(model_rows, "processed_prompt_tokens")
            ),
            "single_commands": {
                "turns": len(singles),
                "latency_ms": harness.spread(_ms(singles)),
                "completion_tokens": harness.spread(
                    _per_request(singles, "completion_tokens")
                ),
            },
        },
        # Accuracy and the rest, as bench/dialogues.py reports them.
        "dialogues": summarize_dialogues(warm),
        "repeat": None,
    }
    if repeats is not None:
        learned = [r["ms"] for r in repeats if r["source"] == "learned"]
        summary["repeat"] = {
            "wait_s": wait,
            "learn_after": LEARN_AFTER,
            "repeated": len(repeats),
            "learned": len(learned),
            "by_source": dict(
                sorted(Counter(str(r["source"]) for r in repeats).items())
            ),
            "learned_latency_ms": {
                **harness.spread(learned),
                "max": round(max(learned), 1) if learned else None,
            },
            "latency_ms": harness.spread([r["ms"] for r in repeats]),
            "model_requests": sum(len(r["model_requests"]) for r in repeats),
            "calls_differ": sum(1 for r in repeats if not r["same_calls"]),
            "passed": sum(1 for r in repeats if r["passed"]),
        }
    return summary


def _pair(spread: dict[str, Any]) -> str:
    return f"{spread['p50']} / {spread['p95']} (n={spread['n']})"


def markdown(
    results: harness.ResultFiles,
    summary: dict[str, Any],
    warm_rows: list[dict[str, Any]],
    repeats: list[dict[str, Any]],
) -> str:
    """The figures as one table, the repeats one by one, the warm phase judged."""
    meta = results.meta
    first, warm, again = summary["first"], summary["warm"], summary["repeat"]
    singles = warm["single_commands"]

    def per_request(key: str) -> str:
        return " + ".join(str(q[key]) for q in first["requests"]) or "none"

    said = f'{first["source"]}, {first["dialogue"]}#1 "{first["say"]}"'
    processed = per_request("processed_prompt_tokens")
    model_turns = f"{warm['model_turns']} of {warm['turns']}"
    failed = f"{warm['failed_requests']}/{warm['requests']}"
    warmed = [q for q in meta.get("setup_requests", []) if q.get("kind") == "text"]
    figures: list[tuple[str, Any]] = [
        (
            "set-up's background work (s), requests to the model",
            f"{meta.get('settle_s', 'not waited for')}, {len(warmed)}",
        ),
        ("first turn ms", f"{first['ms']} ({said})"),
        ("first turn prompt tokens processed", processed),
        ("first turn prompt tokens", per_request("prompt_tokens")),
        ("warm model turns (requests failed)", f"{model_turns} ({failed})"),
        ("warm model-turn latency p50 / p95 ms", _pair(warm["latency_ms"])),
        ("single-command latency p50 / p95 ms", _pair(singles["latency_ms"])),
        ("completion tokens p50 / p95", _pair(warm["completion_tokens"])),
        (
            "single-command completion tokens p50 / p95",
            _pair(singles["completion_tokens"]),
        ),
        ("prompt tokens p50 / p95", _pair(warm["prompt_tokens"])),
        ("prompt tokens processed p50 / p95", _pair(warm["processed_prompt_tokens"])),
    ]
    if again is not None:
        learned = again["learned_latency_ms"]
        answered = f"{again['repeated']} / {again['learned']}"
        sources = ", ".join(f"{k} {v}" for k, v in again["by_source"].items())
        figures += [
            (
                "repeated / answered by learned",
                f"{answered} (after {again['wait_s']:g} s; by source: {sources})",
            ),
            (
                "learned latency p50 / p95 / max ms",
                f"{learned['p50']} / {learned['p95']} / {learned['max']}",
            ),
            ("repeats whose calls differed", again["calls_differ"]),
        ]
    lines = [
        *results.header("Latency"),
        *harness.table(["figure", "value"], figures, "ll"),
    ]
    if repeats:
        lines += [
            "",
            *harness.table(
                ["repeat", "source", "ms", "first ms", "calls", "passed"],
                [
                    (
                        f'`{r["dialogue"]}` "{r["say"]}"',
                        r["source"],
                        r["ms"],
                        r["first_ms"],
                        "same" if r["same_calls"] else "differ",
                        "yes" if r["passed"] else r["why"],
                    )
                    for r in repeats
                ],
                "llrrll",
            ),
        ]
    lines += [
        "",
        "### Warm phase, judged as bench/dialogues.py judges",
        "",
        *dialogues_report(summary["dialogues"], warm_rows),
    ]
    return "\n".join(lines) + "\n"


# --- the run --------------------------------------------------------------


def _emit(results: harness.ResultFiles, row: dict[str, Any], note: str) -> None:
    ms = row.get("ms", row.get("seconds", 0) * 1000)
    results.add(
        row,
        f"[{note}] {row['source']} {ms / 1000:.2f}s "
        f"{row['dialogue']}#{row['turn']} {row['say']!r}",
    )


async def settle(instance: harness.Instance) -> float:
    """Wait for set-up's background work; how long it took, in seconds.

    A person speaks some time after set-up: by then the integration's
    background work (a prompt-cache warm-up, where it has one) is done.
    """
    started = time.perf_counter()
    await instance.hass.async_block_till_done(wait_background_tasks=True)
    return round(time.perf_counter() - started, 2)


async def main(args: argparse.Namespace) -> None:
    """Run the three phases in one instance and write the results."""
    home, dialogues = load(Path(args.data))
    chosen = select(dialogues, args.lang, args.limit)
    first_of = first_dialogue(dialogues, args.first)
    by_id = {d.id: d for d in dialogues}
    wait = None if args.no_repeat else wait_seconds(args.wait)
    total = sum(len(d.steps) for d in chosen)
    options = harness.entry_options(args.model, local_first=True, timeout=args.timeout)
    warm: list[dict[str, Any]] = []
    repeats: list[dict[str, Any]] | None = None
    with harness.ResultFiles(
        "latency",
        args.out,
        args.tag,
        tag=args.tag,
        model=args.model,
        llm_url=args.llm_url,
        local_first=True,
        timeout=args.timeout,
        data=str(args.data),
        lang=args.lang,
        limit=args.limit,
        first=first_of.id,
        dialogues=[d.id for d in chosen],
        wait=wait,
        learn_after=LEARN_AFTER,
    ) as results:
        meta = results.meta
        sys.stderr.write(
            f"first {first_of.id}#1, then {len(chosen)} dialogues ({total} turns)"
            f"{'' if wait is None else ', then the repeats'} -> {results.path('.*')}\n"
        )
        async with (
            harness.model_proxy(args.llm_url) as proxy,
            harness.async_instance(home, proxy.url, options) as instance,
        ):
            runner = Runner(instance, instance.entry_id, proxy)
            if args.settle:
                meta["settle_s"] = await settle(instance)
            # What set-up sent the model (its probe, a warm-up), before the
            # first turn.
            meta["setup_requests"] = [
                r.as_dict() for r in (*proxy.cache_requests, *proxy.take())
            ]
            first = {"phase": "first", **await first_turn(runner, first_of)}
            _emit(results, first, "first")
            if first["source"] != "model":
                sys.stderr.write(
                    f"note: the first turn was answered by {first['source']}, "
                    "not the model; pick another with --first\n"
                )
            for dialogue in chosen:
                for row in await runner.run(dialogue):
                    warm.append({"phase": "warm", **row})
                    _emit(results, warm[-1], f"warm {len(warm)}/{total}")
            if wait is not None:
                repeats = []
                todo = repeatable(warm)
                if todo:
                    window = (
                        "no LEARN_AFTER in this checkout"
                        if LEARN_AFTER is None
                        else f"LEARN_AFTER {LEARN_AFTER:g} s"
                    )
                    sys.stderr.write(
                        f"waiting {wait:g} s ({window}), then {len(todo)} repeats\n"
                    )
                    await asyncio.sleep(wait)
                for row in todo:
                    repeats.append(await repeat(runner, by_id[row["dialogue"]], row))
                    _emit(results, repeats[-1], f"repeat {len(repeats)}/{len(todo)}")
        summary = summarize(first, warm, repeats, wait)
        results.finish(summary, markdown(results, summary, warm, repeats or []))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    parser.add_argument(
        "--settle",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="wait for set-up's background work (a cache warm-up) before the first turn",
    )
    harness.add_model_options(parser, required=True)
    harness.add_entry_options(parser, local_first=False)
    add_dialogue_options(parser)
    parser.add_argument(
        "--first",
        help=f"dialogue whose first turn is said first (default {DEFAULT_FIRST})",
    )
    parser.add_argument(
        "--wait",
        type=float,
        help="seconds before the repeats (default LEARN_AFTER + "
        f"{LEARN_MARGIN:g}, or {DEFAULT_WAIT:g} where the checkout has none)",
    )
    parser.add_argument(
        "--no-repeat", action="store_true", help="skip the learned-command phase"
    )
    harness.add_output_options(parser, tag="router")
    return parser.parse_args(argv)


if __name__ == "__main__":
    harness.run(main, parse_args())
