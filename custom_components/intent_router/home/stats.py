"""Counters, latencies and recent decisions of handled turns, for diagnostics."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
import statistics
from typing import Any

RECENT_DECISIONS = 20
RECENT_LATENCIES = 500


@dataclass(slots=True)
class TurnStats:
    """What diagnostics show of recent turns: never what was said."""

    counters: Counter[str] = field(default_factory=Counter)
    latencies_ms: deque[float] = field(
        default_factory=lambda: deque(maxlen=RECENT_LATENCIES)
    )
    decisions: deque[dict[str, Any]] = field(
        default_factory=lambda: deque(maxlen=RECENT_DECISIONS)
    )

    def record(self, turn: dict[str, Any]) -> None:
        """Count one handled turn (the `intent_router_handled` event data)."""
        self.counters["turns"] += 1
        self.counters[f"source_{turn['source']}"] += 1
        self.counters[f"outcome_{turn['outcome']}"] += 1
        if failure := turn.get("failure"):
            # e.g. `failure_model_invalid_reply`: a model answer not usable.
            self.counters[f"failure_{failure}"] += 1
        self.latencies_ms.append(turn["latency_ms"])
        self.decisions.append(turn)

    def latency_percentiles(self) -> dict[str, float]:
        """p50 and p95 of recent turns' latency, in milliseconds."""
        if len(self.latencies_ms) < 2:  # noqa: PLR2004 - quantiles need two
            return {f"p{p}": value for p in (50, 95) for value in self.latencies_ms}
        cuts = statistics.quantiles(self.latencies_ms, n=20, method="inclusive")
        return {"p50": round(cuts[9], 1), "p95": round(cuts[18], 1)}
