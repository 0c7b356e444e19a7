"""The fix flow of the one fixable repair issue: a timeout that fits the server.

The issue (server_speed.py) carries the agent (its entry and subentry) and
the timeout that fits; confirming applies it to that agent's options, which
reloads the entry, whose next warm-up measures the server again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import voluptuous as vol

from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.helpers import issue_registry as ir

from .const import CONF_TIMEOUT
from .home.issues import async_withdraw

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant


class TimeoutFixFlow(RepairsFlow):
    """Apply the timeout the measured speed fits to the agent."""

    def __init__(self, entry_id: str, subentry_id: str, timeout: float) -> None:
        """Keep the agent and the timeout to apply."""
        self._entry_id = entry_id
        self._subentry_id = subentry_id
        self._timeout = timeout

    async def async_step_init(
        self, user_input: dict[str, str] | None = None
    ) -> RepairsFlowResult:
        """Show what will change."""
        return await self.async_step_confirm()

    async def async_step_confirm(
        self, user_input: dict[str, str] | None = None
    ) -> RepairsFlowResult:
        """Apply the timeout once confirmed; abort if the agent is gone."""
        entry = self.hass.config_entries.async_get_entry(self._entry_id)
        subentry = entry.subentries.get(self._subentry_id) if entry else None
        if entry is None or subentry is None:
            return self.async_abort(reason="agent_removed")
        if user_input is not None:
            async_withdraw(self.hass, self.issue_id)
            # A loaded entry reloads on the change (its update listener).
            self.hass.config_entries.async_update_subentry(
                entry, subentry, data={**subentry.data, CONF_TIMEOUT: self._timeout}
            )
            return self.async_create_entry(data={})
        issue = ir.async_get(self.hass).async_get_issue(self.handler, self.issue_id)
        return self.async_show_form(
            step_id="confirm",
            data_schema=vol.Schema({}),
            description_placeholders=issue.translation_placeholders if issue else None,
        )


async def async_create_fix_flow(
    hass: HomeAssistant,
    issue_id: str,
    data: dict[str, str | int | float | None] | None,
) -> RepairsFlow:
    """The fix flow of a `server_too_slow` issue."""
    if data is None:
        raise ValueError(f"Issue {issue_id} has no fix")
    return TimeoutFixFlow(
        str(data["entry_id"]), str(data["subentry_id"]), float(data["timeout"] or 0)
    )
