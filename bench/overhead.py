"""The agent's own cost per utterance, without a model, and its prompt size.

    .venv/bin/python bench/overhead.py [--runs 20] [--sizes 50 200 1000]
        [--tokenizer-url http://127.0.0.1:8011]

For synthetic homes of 50, 200 and 1,000 exposed entities (real entities in
a real HA test instance, `bench/home.py`), with a scripted OpenAI-compatible
server that answers at once (`tests/llm_server.py`), it measures the median
and p95 over `--runs` turns of:

- `local`: local-first on, a sentence HA's own intents match;
- `model`: local-first off, the model path (the scripted plan comes back at
  once, so this is the agent's own time plus one HTTP round trip);
- `local_miss_model`: local-first on, a sentence local intents do not match,
  then the model path;
- `fallback_timeout`: local-first off, the model answers too late: the
  timeout (the default, 5 s), then HA's local intents as the fallback.

Prompt size per model turn is the messages Intent Router sent, against the
prompt core's Assist LLM API (`homeassistant.helpers.llm`, api "assist")
produces for the same home: the default instructions, `api_prompt`, the date
line and the tool specs (formatted as core's Ollama integration sends them).
Counted as characters / 4 and, with `--tokenizer-url` (llama.cpp's server),
with the Qwen2.5 tokenizer through its `/tokenize` endpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from datetime import UTC, datetime
import json
from pathlib import Path
import statistics
import sys
import time
from typing import Any
import urllib.request

import probatio

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.accuracy import checkout
from bench.harness import ROOT, Instance, async_instance, entry_options, quiet_logs
from bench.home import EntitySpec, HomeSpec
from custom_components.intent_router.settings import Settings
from homeassistant.core import Context
from homeassistant.helpers import llm

sys.path.insert(0, str(ROOT / "tests"))
from llm_server import ScriptedLLMServer

DEFAULT_TIMEOUT = Settings().timeout
RESULTS = Path(__file__).resolve().parent / "results"
AREAS = [
    "Kitchen",
    "Living Room",
    "Bedroom",
    "Office",
    "Hallway",
    "Bathroom",
    "Garage",
    "Dining Room",
    "Guest Room",
    "Laundry",
    "Basement",
    "Attic",
    "Porch",
    "Garden",
    "Nursery",
    "Study",
    "Gym",
    "Pantry",
    "Library",
    "Loft",
]
# (domain, kind, share of the home, state, attributes)
MIX: list[tuple[str, str, float, str, dict[str, Any]]] = [
    ("light", "Light", 0.30, "off", {}),
    ("switch", "Plug", 0.12, "off", {}),
    ("sensor", "Temperature", 0.20, "21.5", {"unit_of_measurement": "°C"}),
    ("binary_sensor", "Motion", 0.12, "off", {"device_class": "motion"}),
    ("cover", "Blind", 0.10, "closed", {"device_class": "blind"}),
    ("media_player", "Speaker", 0.06, "idle", {}),
    ("fan", "Fan", 0.04, "off", {}),
    ("climate", "Thermostat", 0.03, "heat", {"current_temperature": 20}),
    ("lock", "Door Lock", 0.03, "locked", {}),
]


def synthetic_home(size: int) -> HomeSpec:
    """A home with `size` exposed entities spread over areas and domains."""
    areas = AREAS[: max(4, min(len(AREAS), size // 10))]
    home = HomeSpec(f"synthetic-{size}")
    for area in areas:
        home.add_area(area)
    counts = {domain: max(1, round(share * size)) for domain, _, share, _, _ in MIX}
    counts["light"] += size - sum(counts.values())
    for domain, kind, _, state, attributes in MIX:
        for index in range(counts[domain]):
            area = areas[index % len(areas)]
            number = index // len(areas) + 1
            name = f"{area} {kind} {number}"
            entity_id = f"{domain}.{name.casefold().replace(' ', '_')}"
            home.entities.append(EntitySpec(entity_id, name, state, attributes, area))
    return home


PLAN = {
    "actions": [
        {"tool": "light.turn_on", "targets": ["light.kitchen_light_1"], "args": {}}
    ],
    "speech": "The kitchen light is on.",
    "confidence": 0.95,
    "clarify": None,
    "reason": "named light",
}
LOCAL_TEXT = "turn on the Kitchen Light 1"
MISS_TEXT = "make the kitchen a bit cosier please"


def stats(values: list[float]) -> dict[str, float | int]:
    """Median and p95 of some milliseconds."""
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "median": round(statistics.median(ordered), 1),
        "p95": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1),
        "min": round(ordered[0], 1),
    }


def count_tokens(url: str | None, text: str) -> int | None:
    """Tokens of `text` by llama.cpp's /tokenize (the served model's tokenizer)."""
    if not url:
        return None
    request = urllib.request.Request(
        f"{url.rstrip('/')}/tokenize",
        data=json.dumps({"content": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.load(response)["tokens"])


async def core_assist_prompt(instance: Instance, device_id: str, text: str) -> str:
    """What core's LLM agents send for this home: system prompt, tools, text."""
    hass = instance.hass
    llm_context = llm.LLMContext(
        platform="ollama",
        context=Context(),
        language="en",
        assistant="conversation",
        device_id=device_id,
    )
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context)
    now = datetime.now(UTC)
    system = "\n".join(
        [
            llm.DEFAULT_INSTRUCTIONS_PROMPT,
            api.api_prompt,
            f"Current time is {now:%H:%M:%S}. Today's date is {now:%Y-%m-%d}.\n",
        ]
    )
    tools = [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": probatio.to_openapi(
                    tool.parameters,
                    custom_serializer=api.custom_serializer,
                    openapi_version="3.1.0",
                ),
            },
        }
        for tool in api.tools
    ]
    return f"{system}\n{json.dumps(tools)}\n{text}"


async def measure(
    instance: Instance,
    server: ScriptedLLMServer,
    text: str,
    runs: int,
    *,
    plan_delay: float | None,
) -> dict[str, Any]:
    """`runs` turns of one sentence, each from a fresh satellite in the Kitchen."""
    walls, agent = [], []
    sources: dict[str, int] = {}
    for _ in range(runs):
        instance.home.reset()
        device_id = instance.home.new_satellite("Kitchen")
        if plan_delay is not None:
            server.add_plan(PLAN, delay=plan_delay)
        turn = await instance.async_converse(text, device_id)
        walls.append(turn.wall_ms)
        if turn.latency_ms is not None:
            agent.append(turn.latency_ms)
        sources[str(turn.source)] = sources.get(str(turn.source), 0) + 1
    return {"wall_ms": stats(walls), "agent_ms": stats(agent), "sources": sources}


async def run_size(
    size: int, server: ScriptedLLMServer, runs: int, tokenizer_url: str | None
) -> dict[str, Any]:
    """All scenarios for one home size."""
    home = synthetic_home(size)
    result: dict[str, Any] = {"exposed_entities": len(home.entities)}
    for local_first in (True, False):
        options = entry_options(
            "test-model", local_first=local_first, timeout=DEFAULT_TIMEOUT
        )
        async with async_instance(home, server.url, options) as instance:
            # One warm-up turn per path: first-use imports and caches are
            # start-up costs, not per-utterance ones.
            await measure(instance, server, LOCAL_TEXT, 1, plan_delay=0)
            await measure(instance, server, MISS_TEXT, 1, plan_delay=0)
            server._replies.clear()  # noqa: SLF001 - drop unused scripted replies
            if local_first:
                result["local"] = await measure(
                    instance, server, LOCAL_TEXT, runs, plan_delay=None
                )
                result["local_miss_model"] = await measure(
                    instance, server, MISS_TEXT, runs, plan_delay=0
                )
                continue
            before = len(server.requests)
            result["model"] = await measure(
                instance, server, MISS_TEXT, runs, plan_delay=0
            )
            request = server.requests[before]
            prompt = "\n".join(str(m["content"]) for m in request["messages"])
            schema = json.dumps(request.get("response_format", {}))
            device_id = instance.home.new_satellite("Kitchen")
            core = await core_assist_prompt(instance, device_id, MISS_TEXT)
            result["prompt"] = {
                "intent_router_chars": len(prompt),
                "intent_router_tokens_chars4": len(prompt) // 4,
                "intent_router_tokens": count_tokens(tokenizer_url, prompt),
                "intent_router_schema_chars": len(schema),
                "core_assist_chars": len(core),
                "core_assist_tokens_chars4": len(core) // 4,
                "core_assist_tokens": count_tokens(tokenizer_url, core),
            }
            result["fallback_timeout"] = await measure(
                instance, server, LOCAL_TEXT, runs, plan_delay=DEFAULT_TIMEOUT + 5
            )
            server._replies.clear()  # noqa: SLF001
    return result


def markdown(meta: dict[str, Any], sizes: dict[str, Any]) -> str:
    """Short tables for the README."""
    lines = [
        f"# Overhead ({meta['started']})",
        "",
        f"Command: `{meta['command']}`",
        "",
        (
            "Turn latency in ms, median (p95) of "
            f"{meta['runs']} runs; the scripted model answers at once, except in "
            f"the fallback column, where it answers after the {DEFAULT_TIMEOUT:g} s timeout."
        ),
        "",
        (
            "| exposed entities | local-first, local match | model path (local-first off) "
            "| local-first, local miss, model | fallback after timeout |"
        ),
        "|---:|---:|---:|---:|---:|",
    ]
    for size, r in sizes.items():
        cells = [
            f"{r[k]['wall_ms']['median']} ({r[k]['wall_ms']['p95']})"
            for k in ("local", "model", "local_miss_model", "fallback_timeout")
        ]
        lines.append(f"| {size} | " + " | ".join(cells) + " |")
    lines += [
        "",
        (
            "Prompt per model turn (system + user message), Intent Router against "
            "core's Assist LLM API prompt for the same home:"
        ),
        "",
        (
            "| exposed entities | Intent Router tokens (chars/4) | core Assist tokens "
            "(chars/4) | ratio |"
        ),
        "|---:|---:|---:|---:|",
    ]
    for size, r in sizes.items():
        p = r["prompt"]
        ours = p["intent_router_tokens"] or p["intent_router_tokens_chars4"]
        core = p["core_assist_tokens"] or p["core_assist_tokens_chars4"]
        lines.append(
            f"| {size} | {p['intent_router_tokens']} ({p['intent_router_tokens_chars4']}) "
            f"| {p['core_assist_tokens']} ({p['core_assist_tokens_chars4']}) "
            f"| {core / ours:.1f}x |"
        )
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """Measure every home size; write JSON and Markdown."""
    quiet_logs()
    server = ScriptedLLMServer()
    await server.start()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    meta = {
        "started": stamp,
        "runs": args.runs,
        "command": " ".join(["bench/overhead.py", *sys.argv[1:]]),
        "timeout_s": DEFAULT_TIMEOUT,
        "checkout": checkout(),
    }
    sizes: dict[str, Any] = {}
    try:
        for size in args.sizes:
            started = time.perf_counter()
            sizes[str(size)] = await run_size(
                size, server, args.runs, args.tokenizer_url
            )
            sys.stderr.write(
                f"{size} entities: {time.perf_counter() - started:.0f} s\n"
            )
    finally:
        await server.stop()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"overhead-{stamp}.json").write_text(
        json.dumps({"meta": meta, "sizes": sizes}, indent=2) + "\n", "utf-8"
    )
    text = markdown(meta, sizes)
    (out / f"overhead-{stamp}.md").write_text(text, "utf-8")
    sys.stdout.write(text)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument(
        "--tokenizer-url", help="llama.cpp server root, for real token counts"
    )
    parser.add_argument("--out", default=str(RESULTS))
    return parser.parse_args(argv)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(parse_args()))
