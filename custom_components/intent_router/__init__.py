"""Intent Router: Assist conversation agents on any OpenAI-compatible server.

The config entry is the server connection; each conversation agent on it is
a config subentry (subentries.py), as in core's LLM integrations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from homeassistant.const import Platform
from homeassistant.exceptions import (
    ConfigEntryAuthFailed,
    ConfigEntryError,
    ConfigEntryNotReady,
)
from homeassistant.helpers import config_validation as cv

from .const import DOMAIN, PROBE_TIMEOUT
from .core.llm_reply import LLMAuthError, LLMConnectionError, LLMError
from .core.speech import shipped_languages
from .data import IntentRouterData
from .migration import async_migrate
from .services import async_setup_services
from .subentries import (
    agent_subentries,
    async_remove_agent_files,
    async_setup_agent,
    connect,
)

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant
    from homeassistant.helpers.typing import ConfigType

    from .data import IntentRouterConfigEntry

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)
PLATFORMS = [Platform.CONVERSATION]


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the actions, once for all entries (they name their agent)."""
    async_setup_services(hass)
    return True


async def async_setup_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> bool:
    """Probe the model server, then add its conversation agents."""
    models = await _async_probe(hass, entry)
    languages = await hass.async_add_executor_job(shipped_languages)
    agents = {
        subentry.subentry_id: await async_setup_agent(hass, entry, subentry, languages)
        for subentry in agent_subentries(entry)
    }
    entry.runtime_data = IntentRouterData(models=models, agents=agents)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    for agent in agents.values():
        # The server's prompt cache, warmed in the background (planner.py).
        entry.async_on_unload(agent.agent.planner.async_start())
    # An agent added, changed or removed, or the connection changed.
    entry.async_on_unload(entry.add_update_listener(_async_entry_updated))
    return True


async def _async_probe(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> list[str]:
    """The server's models; a failure says whether retrying can help."""
    client = connect(hass, entry)
    await client.async_prime(hass)
    try:
        return await client.async_list_models(PROBE_TIMEOUT)
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


async def _async_entry_updated(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> None:
    """Reload with what changed; a removed agent's files go with it."""
    removed = entry.runtime_data.agents.keys() - entry.subentries.keys()
    await hass.config_entries.async_reload(entry.entry_id)
    for agent_id in removed:
        await async_remove_agent_files(hass, agent_id)


async def async_unload_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> bool:
    """Remove the conversation agents and write their memory out now."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        for agent in entry.runtime_data.agents.values():
            await agent.context.async_flush()
            await agent.learned.async_flush()
    return unloaded


async def async_remove_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> None:
    """Delete every agent's stored memory with the entry: nothing stays behind."""
    for agent_id in entry.subentries:
        await async_remove_agent_files(hass, agent_id)


async def async_migrate_entry(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> bool:
    """Bring an entry of an older version up to date (migration.py)."""
    return await async_migrate(hass, entry)
