"""How often following one utterance through the code goes back to a file.

    .venv/bin/python bench/walk.py [--text "turn off the kitchen light 1"]...

A reader follows an utterance from the agent to the reply by reading each
function of the integration the turn calls, the first time it is called,
in the order it is called: each is a stop. A stop re-enters a file when it
is in another file than the stop before and that file was read before. The
figure is re-entries per stop: 0 is a path read file by file, 1 a path
that jumps back on every step.

Each sentence is said once to warm up (imports, caches), then once more,
traced, from a satellite in the Kitchen of a synthetic home of 50 entities
(`bench/home.py`), with a scripted model that answers at once
(`tests/llm_server.py`). The defaults are a sentence HA's own intents
match, one the reading settles, one that reaches the model and a question
answered from the states.

Results (`bench/harness.py`, `ResultFiles`): `<out>/walk-<time>.json` (the
stops of each turn, by file) and `.md` (tables, also printed).
"""

from __future__ import annotations

import argparse
from pathlib import Path
import sys
from types import FrameType
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.home import synthetic_home

PACKAGE = Path(__file__).resolve().parent.parent / "custom_components" / "intent_router"
TEXTS = [
    "turn on the Kitchen Light 1",
    "it's too dark in the kitchen",
    "make the kitchen a bit cosier please",
    "is the Kitchen Light 1 on?",
]
PLAN = {"do": ["turn_on light.kitchen_light_1"], "c": 9}


def walked(stops: list[str]) -> dict[str, Any]:
    """Stops, files, and the stops that re-enter a file read before."""
    seen: set[str] = set()
    reentries = 0
    previous = None
    for path in stops:
        if path != previous and path in seen:
            reentries += 1
        seen.add(path)
        previous = path
    return {
        "stops": len(stops),
        "files": len(seen),
        "reentries": reentries,
        "per_stop": round(reentries / len(stops), 2) if stops else None,
    }


class Tracer:
    """The integration's functions a turn calls, each once, in call order."""

    def __init__(self) -> None:
        """No stops yet."""
        self.stops: list[str] = []
        self._read: set[Any] = set()

    def __call__(self, frame: FrameType, event: str, _: Any) -> None:
        """On each call, a stop the first time a function of ours is entered."""
        if event != "call" or frame.f_code in self._read:
            return
        path = Path(frame.f_code.co_filename)
        if PACKAGE in path.parents:
            self._read.add(frame.f_code)
            self.stops.append(str(path.relative_to(PACKAGE)))


async def walk(instance: harness.Instance, server: Any, text: str) -> dict[str, Any]:
    """One sentence, warmed up, then traced, each from its own satellite.

    The satellites are placed first: a device placed in an area makes Home
    Assistant rebuild its sentence lists on the next turn.
    """
    devices = [instance.home.new_satellite("Kitchen") for _ in range(2)]
    await instance.hass.async_block_till_done()
    tracer = Tracer()
    for device_id, profile in zip(devices, (None, tracer), strict=True):
        instance.home.reset()
        server.add_plan(PLAN)
        sys.setprofile(profile)
        try:
            turn = await instance.async_converse(text, device_id)
        finally:
            sys.setprofile(None)
    server._replies.clear()  # noqa: SLF001 - drop unused scripted replies
    return {"text": text, "source": str(turn.source), **walked(tracer.stops)}


def markdown(results: harness.ResultFiles, turns: list[dict[str, Any]]) -> str:
    """The figures per sentence, and over all of them."""
    rows = [
        [
            t["text"],
            t["source"],
            str(t["stops"]),
            str(t["files"]),
            str(t["reentries"]),
            str(t["per_stop"]),
        ]
        for t in turns
    ]
    return "\n".join(
        [
            *results.header("Walk"),
            *harness.table(
                ["said", "path", "stops", "files", "re-entries", "per stop"],
                rows,
                "llrrrr",
            ),
        ]
    )


async def main(args: argparse.Namespace) -> None:
    """Walk every sentence; write JSON and Markdown."""
    results = harness.ResultFiles("walk", args.out, args.tag)
    options = harness.entry_options("test-model", local_first=True, timeout=5.0)
    async with (
        harness.scripted_server() as server,
        harness.async_instance(synthetic_home(50), server.url, options) as instance,
    ):
        turns = [await walk(instance, server, text) for text in args.text or TEXTS]
    results.finish(turns, markdown(results, turns), key="turns")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    parser.add_argument("--text", action="append", help="a sentence (repeatable)")
    harness.add_output_options(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    harness.run(main, parse_args())
