"""The model server's speed as the integration measures it at set-up.

    .venv/bin/python bench/warmup.py --llm-url http://127.0.0.1:8011/v1 \
        --model local [--runs 3] [--timeout 5]

Each run sets up Intent Router in a fresh HA with the dialogue benchmark's
home (`bench/dialogues.yaml`) against the server, with the product's
timeout unless `--timeout` says otherwise, and waits for its warm-up: the
prompt's stable part for one token, then again for a few (server_speed.py).
It reports what the warm-up measured (prompt and output tokens a second,
from the server's `timings` or the wall clock), what a typical plan needs,
whether that fits the timeout, whether the repair issue was raised and the
timeout it offers. The first run may find the prompt in the server's cache
from an earlier run; the figures that matter are the rates.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import sys
import time
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import harness
from bench.dialogues import DATA, load
from custom_components.intent_router.const import DOMAIN
from custom_components.intent_router.core.settings import Settings
from custom_components.intent_router.home.server_speed import issue_id
from homeassistant.helpers import issue_registry as ir


async def _measure(llm_url: str, model: str, timeout: float) -> dict[str, Any]:
    """One set-up and its warm-up's measurement."""
    home, _ = load(Path(DATA))
    options = harness.entry_options(model, local_first=True, timeout=timeout)
    started = time.monotonic()
    async with harness.async_instance(home, llm_url, options) as instance:
        hass = instance.hass
        await hass.async_block_till_done(wait_background_tasks=True)
        seconds = time.monotonic() - started
        entry = hass.config_entries.async_get_entry(instance.entry_id)
        assert entry is not None
        agent_id, agent = harness.the_agent(entry)
        speed = agent.client.speed
        issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id(agent_id))
        return {
            "set_up_and_warm_up_s": round(seconds, 1),
            "speed": speed.as_dict() if speed else None,
            "fits": speed.fits(timeout) if speed else None,
            "fitting_timeout": speed.fitting_timeout() if speed else None,
            "issue": issue.translation_placeholders if issue else None,
        }


def _markdown(results: harness.ResultFiles, rows: list[dict[str, Any]]) -> str:
    """The runs as a table."""
    lines = results.header("Warm-up measurement")
    lines += [
        (
            "| run | prompt tok/s | output tok/s | by | typical plan s | fits | "
            "issue | timeout offered | set-up + warm-up s |"
        ),
        "|---:|---:|---:|---|---:|---|---|---:|---:|",
    ]
    for number, row in enumerate(rows, 1):
        speed = row["speed"] or {}
        rates = [
            f"{speed[key]:.1f}" if key in speed else "-"
            for key in ("prompt_per_second", "output_per_second")
        ]
        lines.append(
            f"| {number} | {rates[0]} | {rates[1]} | "
            f"{speed.get('measured_by', '-')} | "
            f"{speed.get('typical_plan_seconds', '-')} | {row['fits']} | "
            f"{'raised' if row['issue'] else 'none'} | {row['fitting_timeout']} | "
            f"{row['set_up_and_warm_up_s']} |"
        )
    return "\n".join(lines) + "\n"


async def main(args: argparse.Namespace) -> None:
    """Set up `--runs` times and report each warm-up's measurement."""
    rows: list[dict[str, Any]] = []
    with harness.ResultFiles(
        "warmup",
        args.out,
        args.tag,
        tag=args.tag,
        model=args.model,
        llm_url=args.llm_url,
        timeout=args.timeout,
    ) as results:
        for number in range(1, args.runs + 1):
            row = await _measure(args.llm_url, args.model, args.timeout)
            rows.append(row)
            results.add(row, f"[{number}/{args.runs}] {row}")
        results.finish({"runs": rows}, _markdown(results, rows))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.arguments(__doc__)
    harness.add_model_options(parser, required=True)
    harness.add_entry_options(parser, local_first=False, timeout=Settings().timeout)
    parser.add_argument("--runs", type=int, default=3, help="set-ups (default 3)")
    harness.add_output_options(parser)
    return parser.parse_args(argv)


if __name__ == "__main__":
    harness.run(main, parse_args())
