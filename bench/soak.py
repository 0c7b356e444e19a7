"""Soak: many devices talking at once to a slow, faulty model server.

    .venv/bin/python bench/soak.py [--devices 50] [--seconds 60] [--timeout 3]
        [--prefill 1000] [--seed 7] [--freeze-gc]

A real Home Assistant test instance (`bench/harness.py`) with a synthetic
home of 50 exposed entities and Intent Router set up through its config
entry (local-first off, so every turn reaches the model), against a
fault-injecting OpenAI-compatible server on 127.0.0.1 in a child process
(this file with `--serve`). The server answers after a random latency, and
one request in four goes wrong: it hangs past the timeout, answers 429 with
a Retry-After (sane, NaN, infinite, negative or too long), 500, a malformed
or HTML or text body, JSON that is not a completion, a huge unclosed reply
or a deeply nested one. Otherwise it plans what the words ask.

Before the soak, the memory is filled with `--prefill` other devices' ten
turns each (1,000 x 10 turns with prior states: an 8 MB memory file), so the
delayed saves during the soak are large. `--devices` satellites then talk at once for `--seconds`:
each says "turn on/off the <light>, speaker <n> turn <k>" and waits 2-4 s
after each answer (under the per-device rate limit).

It reports turns answered, p50/p95/max latency, turns slower than the
timeout + 1 s, how the turns ended, event-loop stalls over 100 ms (a ticker
in HA's loop measures how late it wakes; stalls that overlap one of Python's
full garbage collections, which stop the whole process, are counted apart,
and `--freeze-gc` hides the set-up heap from them), the memory file's size
and the time of a save, and whether any device's memory holds another
device's turns.
Everything stops by itself: the devices after `--seconds`, the server after
its own lifetime. Results (`bench/harness.py`, `ResultFiles`):
`<out>/soak-<time>.json` (meta and figures) and `.md` (a table, also printed).
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
import contextlib
from dataclasses import dataclass, field
import gc
import json
import os
from pathlib import Path
import random
import re
import statistics
import sys
import threading
import time
import traceback
from typing import Any

from aiohttp import web

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.home import synthetic_home
from custom_components.intent_router.const import DOMAIN, EVENT_HANDLED
from custom_components.intent_router.core.records import (
    ExecutedAction,
    PriorState,
    Turn,
)
from homeassistant.components import conversation
from homeassistant.core import Context, Event, callback

HOST = "127.0.0.1"
MODEL = "soak-model"
STALL = 0.1  # seconds: a loop this late is a stall
TICK = 0.02
FULL_COLLECTION = 2  # the garbage collector's oldest generation
STACK_DEPTH = 12  # frames kept of what the loop ran during a stall
PAUSE = (2.0, 4.0)  # seconds between a device's turns
REQUEST = re.compile(r"Request: turn (on|off) the (.+?), speaker (\d+) turn")
HANG = 60.0

# (fault, share of requests); the rest are good plans.
FAULTS: list[tuple[str, float]] = [
    ("hang", 0.04),
    ("429", 0.05),
    ("500", 0.05),
    ("malformed", 0.02),
    ("html", 0.02),
    ("text", 0.01),
    ("not_a_completion", 0.02),
    ("unclosed", 0.02),
    ("nested", 0.01),
]
RETRY_AFTER = ["0.3", "1", "NaN", "inf", "-1", "30"]


# --- the faulty model server (child process) ---------------------------------


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "soak",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 500, "completion_tokens": 30, "total_tokens": 530},
    }


def _plan_for(body: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The plan the words ask for: on/off of the light they name."""
    words = str(body["messages"][-1]["content"])
    match = REQUEST.search(words)
    if match is None:
        return {"say": "Sorry?", "c": 8}
    service, name = match[1], match[2]
    entity_id = "light." + name.casefold().replace(" ", "_")
    fields = f" brightness_pct={rng.randint(10, 100)}" if service == "on" else ""
    return {"do": [f"turn_{service} {entity_id}{fields}"], "c": 9}


def _fault_reply(fault: str, rng: random.Random) -> web.Response:
    """The response of one kind of fault (a hang is handled by the caller)."""
    if fault == "429":
        return web.json_response(
            {"error": {"message": "slow down"}},
            status=429,
            headers={"Retry-After": rng.choice(RETRY_AFTER)},
        )
    if fault == "500":
        return web.json_response({"error": {"message": "boom"}}, status=500)
    bodies = {
        "malformed": (b'{"choices": [{"message": {"content": "{', "application/json"),
        "html": (b"<html><body>502 Bad Gateway</body></html>", "text/html"),
        "text": (b"upstream connect error", "text/plain"),
        "not_a_completion": (b'{"status": "ok"}', "application/json"),
    }
    if fault in bodies:
        body, content_type = bodies[fault]
        return web.Response(body=body, content_type=content_type)
    contents = {
        "unclosed": '{"a":[' * 10_500,  # 63 KB that never closes
        "nested": '{"a":' * 5_000 + "1" + "}" * 5_000,
    }
    return web.json_response(_completion(contents[fault]))


def _make_app(seed: int) -> web.Application:
    rng = random.Random(seed)  # noqa: S311 - reproducible faults
    kinds = [name for name, _ in FAULTS] + ["ok"]
    weights = [share for _, share in FAULTS] + [1 - sum(s for _, s in FAULTS)]

    async def models(_: web.Request) -> web.Response:
        return web.json_response(
            {
                "object": "list",
                "data": [
                    {"id": MODEL, "object": "model", "created": 0, "owned_by": "x"}
                ],
            }
        )

    async def chat(request: web.Request) -> web.Response:
        body = await request.json()
        kind = rng.choices(kinds, weights)[0]
        await asyncio.sleep(HANG if kind == "hang" else rng.uniform(0.05, 1.2))
        if kind == "ok":
            return web.json_response(_completion(json.dumps(_plan_for(body, rng))))
        return _fault_reply(kind, rng)

    app = web.Application()
    app.router.add_get("/v1/models", models)
    app.router.add_post("/v1/chat/completions", chat)
    return app


async def serve(args: argparse.Namespace) -> None:
    """Listen on 127.0.0.1, print the URL, and stop after `--lifetime` seconds."""
    runner = web.AppRunner(_make_app(args.seed), handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, HOST, 0)
    await site.start()
    port = runner.addresses[0][1]
    sys.stdout.write(f"http://{HOST}:{port}/v1\n")
    sys.stdout.flush()
    try:
        await asyncio.sleep(args.lifetime)
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def faulty_server(seed: int, lifetime: float) -> Any:
    """The server in a child process; yields its URL, stops it afterwards."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).resolve()),
        "--serve",
        "--seed",
        str(seed),
        "--lifetime",
        str(lifetime),
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        url = (await process.stdout.readline()).decode().strip()
        if not url.startswith(f"http://{HOST}:"):
            msg = f"the soak server did not start: {url!r}"
            raise RuntimeError(msg)
        yield url
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


# --- Home Assistant side -------------------------------------------------------


@dataclass(slots=True)
class LoopWatch:
    """How late HA's event loop wakes a ticker: the stalls everything sees.

    To explain a stall, the garbage collector's full collections (which stop
    every thread of the process) are timed, and a watchdog thread notes what
    the loop's thread was running whenever the ticker is overdue.
    """

    # (when the tick woke, how late it was), time.monotonic seconds
    ticks: list[tuple[float, float]] = field(default_factory=list)
    # (start, end) of each full collection, time.monotonic seconds
    collections: list[tuple[float, float]] = field(default_factory=list)
    stacks: list[str] = field(default_factory=list)
    _collection_started: float = 0.0

    async def run(self, stop: asyncio.Event) -> None:
        """Tick every TICK seconds until `stop`; record how late each tick is."""
        done = threading.Event()
        watchdog = threading.Thread(
            target=self._watch, args=(threading.get_ident(), done), daemon=True
        )
        self.ticks.append((time.monotonic(), 0.0))
        watchdog.start()
        gc.callbacks.append(self._on_collection)
        try:
            while not stop.is_set():
                started = time.monotonic()
                await asyncio.sleep(TICK)
                woke = time.monotonic()
                self.ticks.append((woke, woke - started - TICK))
        finally:
            gc.callbacks.remove(self._on_collection)
            done.set()
            await asyncio.to_thread(watchdog.join)

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        """Time the collections of the oldest generation (a gc callback)."""
        if info["generation"] != FULL_COLLECTION:
            return
        if phase == "start":
            self._collection_started = time.monotonic()
        else:
            self.collections.append((self._collection_started, time.monotonic()))

    def _watch(self, loop_thread: int, done: threading.Event) -> None:
        """Worker thread: the loop thread's stack, once per overdue stretch."""
        noted = 0.0
        while not done.wait(STALL / 4):
            last = self.ticks[-1][0]
            if time.monotonic() - last > STALL + TICK and noted != last:
                noted = last
                frame = sys._current_frames().get(loop_thread)  # noqa: SLF001
                if frame is not None:
                    stack = traceback.format_stack(frame)[-STACK_DEPTH:]
                    self.stacks.append("".join(stack))

    def lateness(self) -> list[float]:
        """How late each tick woke, in seconds."""
        return [late for _, late in self.ticks[1:]]

    def stalls(self) -> list[tuple[float, float]]:
        """Ticks later than STALL: (when they woke, how late)."""
        return [(woke, late) for woke, late in self.ticks if late > STALL]

    def stalls_in_collections(self) -> int:
        """Stalls that overlap a full garbage collection."""
        return sum(
            any(start < woke and end > woke - late for start, end in self.collections)
            for woke, late in self.stalls()
        )

    def figures(self) -> dict[str, Any]:
        """The loop's figures for the report."""
        lateness = self.lateness()
        return {
            "ticks": len(lateness),
            "stalls_over_100ms": len(self.stalls()),
            "stalls_during_full_gc": self.stalls_in_collections(),
            "max_lateness_ms": round(max(lateness) * 1000, 1),
            "p99_lateness_ms": round(quantile(lateness, 0.99) * 1000, 1),
            "full_gc": len(self.collections),
            "full_gc_ms": [
                round((end - start) * 1000) for start, end in self.collections
            ],
            "stall_stacks": self.stacks,
        }


def quantile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values, unrounded.

    Not the harness's `percentile` (nearest rank, rounded to 0.1): the soak
    figures in bench/summaries/soak.md were computed this way.
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def prefill(instance: harness.Instance, devices: int, lights: list[str]) -> None:
    """Fill the memory as `devices` other satellites' ten turns would."""
    hass = instance.hass
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    context = harness.the_agent(entry)[1].context
    state = hass.states.get(lights[0])
    attributes = dict(state.attributes) if state else {}
    for device in range(devices):
        for turn in range(context.max_turns):
            light = lights[(device + turn) % len(lights)]
            action = {
                "tool": "light.turn_on",
                "targets": [light],
                "args": {"brightness_pct": 40},
            }
            context.add(
                f"prefill-{device}",
                Turn(
                    time=time.time(),
                    text=f"turn on the light, prefill {device} turn {turn}",
                    speech="",
                    outcome="done",
                    source="model",
                    plan={"actions": [action], "speech": "", "confidence": 0.95},
                    actions=[
                        ExecutedAction(
                            "light.turn_on",
                            [light],
                            {"brightness_pct": 40},
                            {light: PriorState("off", attributes)},
                        )
                    ],
                ),
            )
        await asyncio.sleep(0)  # a device at a time: the watch is not running yet


@dataclass(slots=True)
class Soak:
    """The devices' turns and what came of them."""

    instance: harness.Instance
    lights: list[str]
    names: dict[str, str]
    seconds: float
    rng: random.Random
    latencies: list[float] = field(default_factory=list)
    answered: int = 0
    unanswered: int = 0
    handled: Counter[str] = field(default_factory=Counter)

    @callback
    def on_handled(self, event: Event) -> None:
        """Count how turns ended (the agent's event)."""
        self.handled[f"{event.data['source']}/{event.data['outcome']}"] += 1

    async def device(self, index: int, device_id: str, end: float) -> None:
        """One satellite: a turn, a pause, until the time is up."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(self.rng.uniform(0, PAUSE[1]))
        turn = 0
        while loop.time() < end:
            light = self.rng.choice(self.lights)
            text = (
                f"turn {self.rng.choice(['on', 'off'])} the {self.names[light]},"
                f" speaker {index} turn {turn}"
            )
            started = loop.time()
            result = await conversation.async_converse(
                self.instance.hass,
                text,
                None,
                Context(),
                language="en",
                agent_id=self.instance.entry_id,
                device_id=device_id,
            )
            self.latencies.append(loop.time() - started)
            spoken = result.response.speech.get("plain", {}).get("speech", "")
            if spoken:
                self.answered += 1
            else:
                self.unanswered += 1
            turn += 1
            await asyncio.sleep(self.rng.uniform(*PAUSE))


def foreign_turns(instance: harness.Instance, tags: dict[str, str]) -> int:
    """Turns remembered under a key that did not say them (each says its tag)."""
    entry = instance.hass.config_entries.async_entries(DOMAIN)[0]
    context = harness.the_agent(entry)[1].context
    return sum(
        tag not in turn.text
        for key, tag in tags.items()
        for turn in context.recent(key)
    )


async def timed(call: Callable[[], Awaitable[None]]) -> float:
    """Seconds `call` takes."""
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def run_soak(args: argparse.Namespace) -> dict[str, Any]:
    """Set up, prefill, soak, save; return the figures."""
    home = synthetic_home(50)
    lights = [e.entity_id for e in home.entities if e.domain == "light"]
    names = {e.entity_id: e.name for e in home.entities}
    rng = random.Random(args.seed)  # noqa: S311 - reproducible talk
    options = harness.entry_options(MODEL, local_first=False, timeout=args.timeout)
    async with (
        faulty_server(args.seed, args.seconds + 120) as url,
        harness.async_instance(home, url, options) as instance,
    ):
        hass = instance.hass
        entry = hass.config_entries.async_entries(DOMAIN)[0]
        context = harness.the_agent(entry)[1].context
        await prefill(instance, args.prefill, lights)
        soak = Soak(instance, lights, names, args.seconds, rng)
        hass.bus.async_listen(EVENT_HANDLED, soak.on_handled)
        speakers = {
            instance.home.new_satellite(rng.choice(list(home.areas))): index
            for index in range(args.devices)
        }
        if args.freeze_gc:
            gc.collect()
            gc.freeze()
        watch, stop = LoopWatch(), asyncio.Event()
        watcher = asyncio.create_task(watch.run(stop))
        end = hass.loop.time() + args.seconds
        await asyncio.gather(
            *(soak.device(index, device, end) for device, index in speakers.items())
        )
        save_seconds = await timed(context.async_flush)
        stop.set()
        await watcher
        path = hass.config.path(".storage", f"{DOMAIN}.context.{entry.entry_id}")
        size = await hass.async_add_executor_job(os.path.getsize, path)
        counts = context.counts()
        tags = {device: f"speaker {i} turn" for device, i in speakers.items()} | {
            f"prefill-{i}": f"prefill {i} turn" for i in range(args.prefill)
        }
        foreign = foreign_turns(instance, tags)
    latencies = soak.latencies
    return {
        "turns": len(latencies),
        "answered": soak.answered,
        "unanswered": soak.unanswered,
        "latency_s": {
            "p50": round(statistics.median(latencies), 3),
            "p95": round(quantile(latencies, 0.95), 3),
            "max": round(max(latencies), 3),
        },
        "slower_than_timeout_plus_1s": sum(
            latency > args.timeout + 1 for latency in latencies
        ),
        "ended_as": dict(soak.handled.most_common()),
        "loop": watch.figures(),
        "memory": {
            "file_bytes": size,
            "keys": counts["keys"],
            "keys_expected": len(tags),
            "turns": counts["turns"],
            "save_s": round(save_seconds, 3),
        },
        "foreign_turns": foreign,
    }


def markdown(results: harness.ResultFiles, figures: dict[str, Any]) -> str:
    """A short report for the README."""
    latency, loop, memory = figures["latency_s"], figures["loop"], figures["memory"]
    rows = [
        ("turns (answered with speech)", f"{figures['turns']} ({figures['answered']})"),
        (
            "latency p50 / p95 / max (s)",
            f"{latency['p50']} / {latency['p95']} / {latency['max']}",
        ),
        ("turns slower than timeout + 1 s", figures["slower_than_timeout_plus_1s"]),
        (
            "loop stalls over 100 ms (of them during a full GC)",
            f"{loop['stalls_over_100ms']} ({loop['stalls_during_full_gc']})",
        ),
        (
            "loop lateness p99 / max",
            f"{loop['p99_lateness_ms']} / {loop['max_lateness_ms']} ms",
        ),
        (
            "full garbage collections (ms each)",
            f"{loop['full_gc']} ({loop['full_gc_ms']})",
        ),
        (
            "memory file",
            (
                f"{memory['file_bytes'] / 1e6:.1f} MB, {memory['keys']} keys "
                f"({memory['keys_expected']} expected), {memory['turns']} turns"
            ),
        ),
        ("save of the memory (flush)", f"{memory['save_s']} s"),
        ("turns in another device's memory", figures["foreign_turns"]),
    ]
    lines = [
        *results.header("Soak"),
        *harness.table(["figure", "value"], rows, "lr"),
        "",
        "How turns ended (source/outcome): "
        + ", ".join(f"{k} {v}" for k, v in figures["ended_as"].items()),
    ]
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """Soak, then write JSON and Markdown."""
    results = harness.ResultFiles("soak", args.out, args.tag, args=vars(args))
    figures = await run_soak(args)
    results.finish(figures, markdown(results, figures), key="figures")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=3.0, help="the entry's")
    parser.add_argument("--prefill", type=int, default=1000, help="other devices")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--freeze-gc",
        action="store_true",
        help="move the set-up heap out of the collector's sight, as pytest's HA"
        " plugin does, so that the stalls left are not full collections of it",
    )
    harness.add_output_options(parser)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--lifetime", type=float, default=180.0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    options = parse_args()
    harness.run(serve if options.serve else main, options)
