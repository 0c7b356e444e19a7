"""Repair issues: what the user should know and can act on outside a turn.

Each issue is a warning, withdrawn by id when the cause is gone. Most are
resolved elsewhere (a file, the server); one with `fix` data has a fix
flow (repairs.py) that applies the fix it describes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from homeassistant.helpers import issue_registry as ir

from ..const import DOMAIN

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant


def async_warn(
    hass: HomeAssistant,
    issue_id: str,
    translation_key: str,
    placeholders: Mapping[str, str],
    *,
    fix: dict[str, str | int | float | None] | None = None,
) -> None:
    """Raise (or update) a warning in Home Assistant's repairs."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        data=fix,
        is_fixable=fix is not None,
        severity=ir.IssueSeverity.WARNING,
        translation_key=translation_key,
        translation_placeholders=dict(placeholders),
    )


def async_withdraw(hass: HomeAssistant, issue_id: str) -> None:
    """Remove a warning whose cause is gone (nothing if there is none)."""
    ir.async_delete_issue(hass, DOMAIN, issue_id)
