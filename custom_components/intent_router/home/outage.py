"""Failures logged once per outage, as Home Assistant's log-when-unavailable asks.

One info line when something the integration depends on starts failing,
one when it answers again; the failures in between are per-turn details,
logged at debug level (the turn's trace has them too).
"""

from __future__ import annotations

from ..const import LOGGER


class Outage:
    """Whether one dependency (the model server, an MCP server) is failing."""

    def __init__(self, name: str, consequence: str) -> None:
        """Name it for the log, with what its failing means for turns."""
        self._name = name
        self._consequence = consequence
        self.failing = False

    def failed(self, reason: str) -> None:
        """It failed: say so if it had been working, else only at debug level."""
        if self.failing:
            LOGGER.debug("%s is still unavailable: %s", self._name, reason)
            return
        self.failing = True
        LOGGER.info("%s is unavailable (%s); %s", self._name, reason, self._consequence)

    def answered(self) -> None:
        """It worked: say it is back if it had been failing."""
        if self.failing:
            self.failing = False
            LOGGER.info("%s is back", self._name)
