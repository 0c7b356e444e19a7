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

Results (`bench/harness.py`, `ResultFiles`): `<out>/overhead-<time>.json`
(meta and the figures per home size) and `.md` (tables, also printed).
"""

from __future__ import annotations

import argparse
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

from bench import harness
from bench.home import synthetic_home
from custom_components.intent_router.core.settings import Settings
from homeassistant.core import Context
from homeassistant.helpers import llm

DEFAULT_TIMEOUT = Settings().timeout
PLAN = {"do": ["turn_on light.kitchen_light_1"], "c": 9}
LOCAL_TEXT = "turn on the Kitchen Light 1"
MISS_TEXT = "make the kitchen a bit cosier please"


def stats(values: list[float]) -> dict[str, Any]:
    """Median, p95 and minimum of some milliseconds."""
    return {
        "n": len(values),
        "median": round(statistics.median(values), 1),
        "p95": harness.percentile(values, 95),
        "min": round(min(values), 1),
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


async def core_assist_prompt(
    instance: harness.Instance, device_id: str, text: str
) -> str:
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
    instance: harness.Instance,
    server: harness.ScriptedServer,
    text: str,
    runs: int,
    *,
    plan_delay: float | None,
) -> dict[str, Any]:
    """`runs` turns of one sentence, each from a fresh satellite in the Kitchen.

    The satellites are registered before the turns, and one more turn is
    said first and not counted: a device placed in an area makes Home
    Assistant rebuild its sentence lists and gazetteer on the next turn, a
    cost of adding a satellite, not of a turn.
    """
    walls, agent = [], []
    sources: dict[str, int] = {}
    devices = [instance.home.new_satellite("Kitchen") for _ in range(runs + 1)]
    await instance.hass.async_block_till_done()
    for counted, device_id in enumerate(devices):
        instance.home.reset()
        if plan_delay is not None:
            server.add_plan(PLAN, delay=plan_delay)
        turn = await instance.async_converse(text, device_id)
        if not counted:
            continue
        walls.append(turn.wall_ms)
        if turn.latency_ms is not None:
            agent.append(turn.latency_ms)
        sources[str(turn.source)] = sources.get(str(turn.source), 0) + 1
    return {"wall_ms": stats(walls), "agent_ms": stats(agent), "sources": sources}


async def run_size(
    size: int, server: harness.ScriptedServer, runs: int, tokenizer_url: str | None
) -> dict[str, Any]:
    """All scenarios for one home size."""
    home = synthetic_home(size)
    result: dict[str, Any] = {"exposed_entities": len(home.entities)}
    for local_first in (True, False):
        options = harness.entry_options(
            "test-model", local_first=local_first, timeout=DEFAULT_TIMEOUT
        )
        async with harness.async_instance(home, server.url, options) as instance:
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


def markdown(results: harness.ResultFiles, sizes: dict[str, Any]) -> str:
    """Short tables for the README."""
    latency = [
        [size]
        + [
            f"{r[k]['wall_ms']['median']} ({r[k]['wall_ms']['p95']})"
            for k in ("local", "model", "local_miss_model", "fallback_timeout")
        ]
        for size, r in sizes.items()
    ]
    prompts = []
    for size, r in sizes.items():
        p = r["prompt"]
        ours = p["intent_router_tokens"] or p["intent_router_tokens_chars4"]
        core = p["core_assist_tokens"] or p["core_assist_tokens_chars4"]
        prompts.append(
            (
                size,
                f"{p['intent_router_tokens']} ({p['intent_router_tokens_chars4']})",
                f"{p['core_assist_tokens']} ({p['core_assist_tokens_chars4']})",
                f"{core / ours:.1f}x",
            )
        )
    lines = [
        *results.header("Overhead"),
        (
            "Turn latency in ms, median (p95) of "
            f"{results.meta['runs']} runs; the scripted model answers at once, "
            "except in the fallback column, where it answers after the "
            f"{DEFAULT_TIMEOUT:g} s timeout."
        ),
        "",
        *harness.table(
            [
                "exposed entities",
                "local-first, local match",
                "model path (local-first off)",
                "local-first, local miss, model",
                "fallback after timeout",
            ],
            latency,
            "rrrrr",
        ),
        "",
        (
            "Prompt per model turn (system + user message), Intent Router against "
            "core's Assist LLM API prompt for the same home:"
        ),
        "",
        *harness.table(
            [
                "exposed entities",
                "Intent Router tokens (chars/4)",
                "core Assist tokens (chars/4)",
                "ratio",
            ],
            prompts,
            "rrrr",
        ),
    ]
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """Measure every home size; write JSON and Markdown."""
    results = harness.ResultFiles(
        "overhead", args.out, args.tag, runs=args.runs, timeout_s=DEFAULT_TIMEOUT
    )
    sizes: dict[str, Any] = {}
    async with harness.scripted_server() as server:
        for size in args.sizes:
            started = time.perf_counter()
            sizes[str(size)] = await run_size(
                size, server, args.runs, args.tokenizer_url
            )
            sys.stderr.write(
                f"{size} entities: {time.perf_counter() - started:.0f} s\n"
            )
    results.finish(sizes, markdown(results, sizes), key="sizes")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument(
        "--tokenizer-url", help="llama.cpp server root, for real token counts"
    )
    harness.add_output_options(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    harness.run(main, parse_args())
