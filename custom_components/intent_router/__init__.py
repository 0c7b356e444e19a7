"""Intent Router: an Assist conversation agent on any OpenAI-compatible server."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL, Platform
from homeassistant.exceptions import (
    ConfigEntryAuthFailed,
    ConfigEntryError,
    ConfigEntryNotReady,
)
from homeassistant.helpers import config_validation as cv

from .agent import IntentRouterAgent
from .const import DOMAIN, PROBE_TIMEOUT
from .context_store import ContextStore
from .data import IntentRouterData
from .issues import async_withdraw
from .learned import LearnedCommands
from .llm_client import LLMClient
from .llm_reply import LLMAuthError, LLMConnectionError, LLMError
from .music import MusicSource
from .server_speed import async_check_speed, issue_id
from .services import async_setup_services
from .settings import Settings
from .speech import shipped_languages
from .stats import TurnStats

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant
    from homeassistant.helpers.typing import ConfigType

    from .data import IntentRouterConfigEntry
    from .tools import ToolSource

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)
PLATFORMS = [Platform.CONVERSATION]


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the actions, once for all entries (they name their entry)."""
    async_setup_services(hass)
    return True


async def async_setup_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> bool:
    """Probe the model server, then add the conversation agent."""
    client = LLMClient(
        hass,
        entry.data[CONF_URL],
        entry.data.get(CONF_API_KEY),
        entry.data[CONF_VERIFY_SSL],
    )
    await client.async_prime(hass)
    settings = Settings.from_options(entry.options)
    if not settings.use_llm:  # no model, no warm-up: nothing is too slow
        async_withdraw(hass, issue_id(entry.entry_id))
    # Each warm-up measures the server against this entry's timeout.
    client.on_measured = lambda speed: async_check_speed(
        hass, entry.entry_id, entry.title, settings.timeout, speed
    )
    try:
        models = await client.async_list_models(PROBE_TIMEOUT)
    except LLMAuthError as err:
        raise ConfigEntryAuthFailed(
            translation_domain=DOMAIN, translation_key="invalid_auth"
        ) from err
    except LLMConnectionError as err:
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN, translation_key="cannot_connect"
        ) from err
    except LLMError as err:
        # Reachable but not speaking the OpenAI API: retrying will not help.
        raise ConfigEntryError(
            translation_domain=DOMAIN,
            translation_key="incompatible_server",
            translation_placeholders={"error": str(err)},
        ) from err

    context = ContextStore(
        hass, entry.entry_id, settings.context_turns, settings.context_ttl_seconds
    )
    await context.async_load()
    learned = LearnedCommands(hass, entry.entry_id)
    await learned.async_load()
    tool_sources: list[ToolSource] = [MusicSource(hass, settings.default_music_player)]
    if settings.mcp_servers:
        # `mcp` is a large import: only when a server is configured, and off
        # the event loop.
        await hass.async_add_import_executor_job(
            importlib.import_module, f"{__name__}.mcp_tools"
        )
        from .mcp_tools import async_setup_mcp  # noqa: PLC0415

        tool_sources.append(await async_setup_mcp(hass, entry, settings.mcp_servers))
    stats = TurnStats()
    agent = IntentRouterAgent(
        hass,
        entry_id=entry.entry_id,
        settings=settings,
        client=client,
        context=context,
        learned=learned,
        tool_sources=tool_sources,
        stats=stats,
        languages=await hass.async_add_executor_job(shipped_languages),
        on_auth_failed=lambda: entry.async_start_reauth(hass),
    )
    entry.runtime_data = IntentRouterData(
        client=client,
        context=context,
        learned=learned,
        agent=agent,
        stats=stats,
        models=models,
    )
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    # The server's prompt cache, warmed in the background (planner.py).
    entry.async_on_unload(agent.planner.async_start())
    return True


async def async_unload_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> bool:
    """Remove the conversation agent and write the context out now."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        await entry.runtime_data.context.async_flush()
        await entry.runtime_data.learned.async_flush()
    return unloaded


async def async_remove_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> None:
    """Delete the stored context with the entry: nothing of it stays behind."""
    async_withdraw(hass, issue_id(entry.entry_id))
    await ContextStore(hass, entry.entry_id, 0, 0).async_remove()
    await LearnedCommands(hass, entry.entry_id).async_remove()
