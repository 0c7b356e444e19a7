"""Diagnostics: settings, counters and timings, never keys or what was said."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY, CONF_URL

from .const import CONF_EXTRA_INSTRUCTIONS, CONF_MCP_SERVERS

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .data import IntentRouterConfigEntry

# The API key, MCP bearer tokens and the owner's prompt text.
TO_REDACT = {CONF_API_KEY, "token", CONF_EXTRA_INSTRUCTIONS}


def _redact_url(url: str) -> str:
    """A URL without user:password credentials."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"**REDACTED**@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> dict[str, Any]:
    """Describe the entry's state for a bug report, redacted."""
    data = entry.runtime_data
    options = async_redact_data(dict(entry.options), TO_REDACT)
    options[CONF_MCP_SERVERS] = [
        {**server, CONF_URL: _redact_url(server[CONF_URL])}
        for server in options.get(CONF_MCP_SERVERS, [])
    ]
    return {
        "entry": {
            "version": entry.version,
            "minor_version": entry.minor_version,
            "state": entry.state,
            "data": {
                **async_redact_data(dict(entry.data), TO_REDACT),
                CONF_URL: _redact_url(entry.data[CONF_URL]),
            },
            "options": options,
        },
        "client": {
            "openai_sdk": data.client.sdk_version,
            "response_mode": data.client.mode,
            "models": data.models,
            # The last warm-up's measurement (server_speed.py), if any.
            "speed": data.client.speed.as_dict() if data.client.speed else None,
        },
        "context": data.context.counts(),
        "learned_commands": data.learned.counts(),
        "turns": {
            "counters": dict(data.stats.counters),
            "latency_ms": data.stats.latency_percentiles(),
            "recent": list(data.stats.decisions),
        },
    }
