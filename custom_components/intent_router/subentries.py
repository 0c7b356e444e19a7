"""The conversation agents of a model server: one per config subentry.

The config entry is the connection; each agent is a `conversation`
subentry with its own options (settings.py). An agent has its own client,
memory, learned commands, tools, counters and repair issues, all keyed by
its subentry id, so two agents on one server share only the connection.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL

from .const import SUBENTRY_AGENT
from .core.settings import Settings
from .data import AgentData
from .deciding.learned import LearnedCommands
from .home.context_store import ContextStore
from .home.issues import async_withdraw
from .home.server_speed import async_check_speed, issue_id
from .home.stats import TurnStats
from .model.llm_client import LLMClient
from .music import MusicSource
from .turn.agent import IntentRouterAgent

if TYPE_CHECKING:
    from homeassistant.config_entries import ConfigSubentry
    from homeassistant.core import HomeAssistant

    from .data import IntentRouterConfigEntry
    from .home.tools import ToolSource


def connect(hass: HomeAssistant, entry: IntentRouterConfigEntry) -> LLMClient:
    """A client for the entry's server; `async_prime` it before use."""
    return LLMClient(
        hass,
        entry.data[CONF_URL],
        entry.data.get(CONF_API_KEY),
        entry.data[CONF_VERIFY_SSL],
    )


def agent_subentries(entry: IntentRouterConfigEntry) -> list[ConfigSubentry]:
    """The entry's conversation agents, in the order they were added."""
    return [
        subentry
        for subentry in entry.subentries.values()
        if subentry.subentry_type == SUBENTRY_AGENT
    ]


async def async_setup_agent(
    hass: HomeAssistant,
    entry: IntentRouterConfigEntry,
    subentry: ConfigSubentry,
    languages: frozenset[str],
) -> AgentData:
    """Build one agent from its options: client, memory, lessons and tools."""
    agent_id = subentry.subentry_id
    settings = Settings.from_options(subentry.data)
    client = connect(hass, entry)
    await client.async_prime(hass)
    if not settings.use_llm:  # no model, no warm-up: nothing is too slow
        async_withdraw(hass, issue_id(agent_id))
    # Each warm-up measures the server with this agent's model and timeout.
    client.on_measured = lambda speed: async_check_speed(
        hass, entry.entry_id, agent_id, subentry.title, settings.timeout, speed
    )
    context = ContextStore(
        hass, agent_id, settings.context_turns, settings.context_ttl_seconds
    )
    await context.async_load()
    learned = LearnedCommands(hass, agent_id)
    await learned.async_load()
    stats = TurnStats()
    agent = IntentRouterAgent(
        hass,
        entry_id=entry.entry_id,
        subentry_id=agent_id,
        settings=settings,
        client=client,
        context=context,
        learned=learned,
        tool_sources=await _async_tool_sources(hass, entry, subentry, settings),
        stats=stats,
        languages=languages,
        on_auth_failed=lambda: entry.async_start_reauth(hass),
    )
    return AgentData(client, context, learned, agent, stats)


async def _async_tool_sources(
    hass: HomeAssistant,
    entry: IntentRouterConfigEntry,
    subentry: ConfigSubentry,
    settings: Settings,
) -> list[ToolSource]:
    """Music always; the agent's MCP servers when it has any."""
    sources: list[ToolSource] = [MusicSource(hass, settings.default_music_player)]
    if settings.mcp_servers:
        # `mcp` is a large import: only when a server is configured, and off
        # the event loop.
        await hass.async_add_import_executor_job(
            importlib.import_module, f"{__package__}.mcp_tools"
        )
        from .mcp_tools import async_setup_mcp  # noqa: PLC0415

        sources.append(
            await async_setup_mcp(hass, entry, subentry, settings.mcp_servers)
        )
    return sources


async def async_remove_agent_files(hass: HomeAssistant, agent_id: str) -> None:
    """Delete an agent's memory and learned commands, and its speed issue."""
    async_withdraw(hass, issue_id(agent_id))
    await ContextStore(hass, agent_id, 0, 0).async_remove()
    await LearnedCommands(hass, agent_id).async_remove()
