"""The README's two-minute check against a real model, with default options.

    .venv/bin/python bench/readme_check.py --llm-url http://127.0.0.1:8011/v1 \
        --model local [--runs 3] [--pause 3]

Each run sets up Intent Router with its default options (the model aside)
in a fresh HA whose home has the README's Kitchen Lights (off) and a Front
Door lock that is not exposed, then says the README's sentences in order in
one conversation (tests/test_readme_check.py holds them to the README), and
one sentence only a model can work out. It reports each reply, what
answered it and how long the turn took. Between turns it waits `--pause`
seconds, as a person reading the reply and saying the next sentence does
(0: back to back, which no person manages).
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import sys
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.home import EntitySpec, HomeSpec
from custom_components.intent_router.core.settings import default_options
from tests.test_readme_check import STEPS

# What the README's step 6 says only the model works out.
MODEL_SENTENCE = "I'm heading to bed"
LOCK = "lock.front_door"


def _home() -> HomeSpec:
    """The README's kitchen, and a lock that is there but not exposed."""
    return HomeSpec(
        "readme",
        areas={"Kitchen": None, "Hallway": None},
        entities=[
            EntitySpec("light.kitchen_lights", "Kitchen Lights", "off", area="Kitchen"),
            EntitySpec("light.hall_light", "Hall Light", "on", area="Hallway"),
            EntitySpec(LOCK, "Front Door", "locked", area="Hallway", exposed=False),
        ],
    )


async def _run(llm_url: str, model: str, pause: float) -> list[dict[str, Any]]:
    """One set-up, and the README's sentences in one conversation."""
    async with harness.async_instance(
        _home(), llm_url, default_options([model])
    ) as instance:
        hass = instance.hass
        await hass.async_block_till_done(wait_background_tasks=True)
        rows: list[dict[str, Any]] = []
        conversation_id = None
        for said, promised in [*STEPS, (MODEL_SENTENCE, None)]:
            await asyncio.sleep(pause)
            turn = await instance.async_converse(
                said, None, conversation_id=conversation_id
            )
            conversation_id = turn.conversation_id
            rows.append(
                {
                    "said": said,
                    "heard": turn.speech,
                    "as_promised": None
                    if promised is None
                    else turn.speech == promised,
                    "source": turn.source,
                    "wall_ms": round(turn.wall_ms),
                    "kitchen_lights": hass.states.get("light.kitchen_lights").state,
                    "lock": hass.states.get(LOCK).state,
                }
            )
        return rows


def _markdown(results: harness.ResultFiles, runs: list[list[dict[str, Any]]]) -> str:
    lines = results.header("The README's two-minute check")
    lines += [
        "| run | said | heard | as promised | source | ms |",
        "|---:|---|---|---|---|---:|",
    ]
    for number, rows in enumerate(runs, 1):
        lines.extend(
            f"| {number} | {row['said']} | {row['heard']} | "
            f"{'-' if row['as_promised'] is None else row['as_promised']} | "
            f"{row['source']} | {row['wall_ms']} |"
            for row in rows
        )
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """`--runs` set-ups, each saying the check's sentences."""
    runs: list[list[dict[str, Any]]] = []
    with harness.ResultFiles(
        "readme_check", args.out, args.tag, model=args.model, llm_url=args.llm_url
    ) as results:
        for number in range(1, args.runs + 1):
            rows = await _run(args.llm_url, args.model, args.pause)
            runs.append(rows)
            results.add({"run": number, "turns": rows}, f"[{number}] {rows}")
        results.finish({"runs": runs}, _markdown(results, runs))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    harness.add_model_options(parser, required=True)
    parser.add_argument("--runs", type=int, default=3, help="set-ups (default 3)")
    parser.add_argument(
        "--pause",
        type=float,
        default=3.0,
        help="seconds between turns, as a person takes (default 3)",
    )
    harness.add_output_options(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    harness.run(main, parse_args())
