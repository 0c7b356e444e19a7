"""The model server's speed, measured at warm-up, against the turn's timeout.

The warm-up sends the prompt's stable part (prompt speed), then the same,
now cached, prompt once more for a few tokens (output speed). llama.cpp's
`timings` give both rates; servers without them (Ollama, vLLM) are timed by
the wall clock, which counts the request's whole time against it. A typical
plan (const.py) that cannot fit the timeout raises a repair issue whose fix
flow (repairs.py) applies a timeout that fits; a measurement that fits
withdraws it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
import math
import time
from typing import TYPE_CHECKING, Any, cast

from ..const import (
    TIMEOUT_MARGIN,
    TYPICAL_PLAN_OUTPUT_TOKENS,
    TYPICAL_PLAN_PROMPT_TOKENS,
)
from .issues import async_warn, async_withdraw

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from homeassistant.core import HomeAssistant

# The agent form's bounds and step for the timeout, in seconds.
MIN_TIMEOUT = 1.0
MAX_TIMEOUT = 60.0
TIMEOUT_STEP = 0.5
ISSUE_TRANSLATION_KEY = "server_too_slow"
# Tokens the warm-up's second request writes, to time the server's output.
SPEED_PROBE_TOKENS = 16
# Numbers the second request adds after a mark no cache holds, for the
# server to read afresh (about 150 tokens: digits are a token each in most
# tokenizers). A rate from a prompt the cache held but a token or two of is
# per-token latency, not throughput: llama.cpp reported 17-25 tokens a
# second for those on a server that reads 50-90 a second.
SPEED_PROBE_NUMBERS = range(100, 150)
# Below this many prompt tokens a second, a conversation's earlier turns
# (~150 tokens) take the server a noticeable part of a turn to read.
SLOW_READING = 500.0


@dataclass(slots=True, frozen=True)
class ServerSpeed:
    """Tokens per second the server read and wrote at the last warm-up."""

    prompt_per_second: float
    output_per_second: float
    # "timings" (what the server reported) or "wall_clock".
    measured_by: str

    def plan_seconds(self) -> float:
        """What a typical plan takes on this server, in seconds."""
        return (
            TYPICAL_PLAN_PROMPT_TOKENS / self.prompt_per_second
            + TYPICAL_PLAN_OUTPUT_TOKENS / self.output_per_second
        )

    def reads_slowly(self) -> bool:
        """Whether reading a conversation ahead of its turn saves time.

        A small CPU's server, yes; a fast or cloud one, no, and a cloud one
        bills what it reads.
        """
        return self.prompt_per_second < SLOW_READING

    def fits(self, timeout: float) -> bool:
        """Whether a typical plan fits this timeout."""
        return self.plan_seconds() <= timeout

    def fitting_timeout(self) -> float:
        """The smallest timeout the options allow that fits, with a margin."""
        wanted = self.plan_seconds() * TIMEOUT_MARGIN
        rounded = math.ceil(wanted / TIMEOUT_STEP) * TIMEOUT_STEP
        return min(max(rounded, MIN_TIMEOUT), MAX_TIMEOUT)

    def as_dict(self) -> dict[str, Any]:
        """The figures for diagnostics, with what a plan needs."""
        return {
            **asdict(self),
            "typical_plan_seconds": round(self.plan_seconds(), 2),
            "typical_plan_tokens": {
                "prompt": TYPICAL_PLAN_PROMPT_TOKENS,
                "output": TYPICAL_PLAN_OUTPUT_TOKENS,
            },
        }


def rate_from_timings(timings: object, kind: str) -> float | None:
    """llama.cpp's `<kind>_per_second` from a reply's `timings`, if sensible."""
    if not isinstance(timings, dict):
        return None
    value = timings.get(f"{kind}_per_second")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def rate_from_clock(tokens: int | None, seconds: float) -> float | None:
    """Tokens over the request's whole time (an upper bound on what it took)."""
    if not tokens or seconds <= 0:
        return None
    return tokens / seconds


def speed_probe(
    messages: list[ChatCompletionMessageParam],
) -> list[ChatCompletionMessageParam]:
    """The messages with fresh numbers to read at the end of the last one.

    The clock's nanoseconds come first, so no cache holds what follows.
    """
    *before, last = messages
    numbers = " ".join(map(str, SPEED_PROBE_NUMBERS))
    fresh = f"{last.get('content') or ''}{time.time_ns()} {numbers}"
    return [*before, cast("ChatCompletionMessageParam", {**last, "content": fresh})]


def measure(probed: object, seconds: float) -> ServerSpeed | None:
    """The speeds the server reported for the probe, or else the wall clock's.

    The wall clock counts the whole request against the output, an upper
    bound on the time it took.
    """
    timings = getattr(probed, "timings", None)
    prompt = rate_from_timings(timings, "prompt")
    output = rate_from_timings(timings, "predicted")
    if prompt is not None and output is not None:
        return ServerSpeed(prompt, output, "timings")
    usage = getattr(probed, "usage", None)
    tokens = token_count(getattr(usage, "prompt_tokens", None))
    cached = token_count(
        getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
    )
    written = token_count(getattr(usage, "completion_tokens", None))
    fresh = tokens - (cached or 0) if tokens is not None else None
    prompt = rate_from_clock(fresh, seconds)
    output = rate_from_clock(written, seconds)
    if prompt is None or output is None:
        return None
    return ServerSpeed(prompt, output, "wall_clock")


def token_count(value: object) -> int | None:
    """A token count, if the server gave a sensible one."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def issue_id(agent_id: str) -> str:
    """The repair issue of one agent (config subentry) on its server."""
    return f"{ISSUE_TRANSLATION_KEY}_{agent_id}"


def async_check_speed(
    hass: HomeAssistant,
    entry_id: str,
    agent_id: str,
    agent_name: str,
    timeout: float,
    speed: ServerSpeed,
) -> None:
    """Raise the agent's repair issue if a typical plan cannot fit, else withdraw it.

    The fix (repairs.py) sets this agent's timeout: another agent on the
    same server has its own model and timeout.
    """
    if speed.fits(timeout):
        async_withdraw(hass, issue_id(agent_id))
        return
    async_warn(
        hass,
        issue_id(agent_id),
        ISSUE_TRANSLATION_KEY,
        {
            "agent": agent_name,
            "prompt_speed": f"{speed.prompt_per_second:.0f}",
            "output_speed": f"{speed.output_per_second:.1f}",
            "prompt_tokens": str(TYPICAL_PLAN_PROMPT_TOKENS),
            "output_tokens": str(TYPICAL_PLAN_OUTPUT_TOKENS),
            "needed": f"{speed.plan_seconds():.1f}",
            "timeout": f"{timeout:g}",
            "fitting_timeout": f"{speed.fitting_timeout():g}",
        },
        fix={
            "entry_id": entry_id,
            "subentry_id": agent_id,
            "timeout": speed.fitting_timeout(),
        },
    )
