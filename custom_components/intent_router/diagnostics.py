"""Diagnostics: settings, counters and timings, never keys or what was said.

The entry is the connection; each agent (config subentry) has its own
section, named by its title, with its options, client and counters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY, CONF_URL

from .const import CONF_EXTRA_INSTRUCTIONS, CONF_MCP_SERVERS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from homeassistant.config_entries import ConfigSubentry
    from homeassistant.core import HomeAssistant

    from .data import AgentData, IntentRouterConfigEntry

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
    """Describe the server and each agent for a bug report, redacted."""
    data = entry.runtime_data
    return {
        "entry": {
            "version": entry.version,
            "minor_version": entry.minor_version,
            "state": entry.state,
            "data": {
                **async_redact_data(dict(entry.data), TO_REDACT),
                CONF_URL: _redact_url(entry.data[CONF_URL]),
            },
        },
        "models": data.models,
        "agents": {
            agent_id: _agent(entry.subentries[agent_id], agent)
            for agent_id, agent in data.agents.items()
        },
    }


def _agent(subentry: ConfigSubentry, agent: AgentData) -> dict[str, Any]:
    """One agent: its name, redacted options, client and counters."""
    return {
        "title": subentry.title,
        "options": _redact_options(subentry.data),
        "client": {
            "openai_sdk": agent.client.sdk_version,
            "response_mode": agent.client.mode,
            # The last warm-up's measurement (server_speed.py), if any.
            "speed": agent.client.speed.as_dict() if agent.client.speed else None,
        },
        "context": agent.context.counts(),
        "learned_commands": agent.learned.counts(),
        "turns": {
            "counters": dict(agent.stats.counters),
            "latency_ms": agent.stats.latency_percentiles(),
            "recent": list(agent.stats.decisions),
        },
    }


def _redact_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """An agent's options without its prompt, tokens and URL credentials."""
    redacted = async_redact_data(dict(options), TO_REDACT)
    redacted[CONF_MCP_SERVERS] = [
        {**server, CONF_URL: _redact_url(server[CONF_URL])}
        for server in redacted.get(CONF_MCP_SERVERS, [])
    ]
    return redacted
