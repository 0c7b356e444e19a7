"""Config entry versions, brought up one step at a time (`async_migrate_entry`).

Version 1 holds the connection in the entry's data and one agent's options
in its options. Version 2 holds the connection alone; each agent is a
`conversation` subentry (subentries.py). The step from 1 to 2 makes the
options the entry's first agent and moves everything keyed by the entry to
it, as core's LLM integrations moved theirs (openai_conversation and
anthropic, `async_migrate_integration`): the conversation entity keeps its
entity id and takes the subentry id as unique id, its service device
follows, and the memory and learned-command files take the subentry's key.
Entries are not merged: there is one per server URL already.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.config_entries import ConfigSubentry
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .const import DOMAIN, LOGGER, SUBENTRY_AGENT
from .deciding.learned import learned_file
from .home.context_store import context_file
from .home.issues import async_withdraw
from .home.server_speed import issue_id
from .home.storage import async_move_file

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .data import IntentRouterConfigEntry

VERSION: Final = 2
MINOR_VERSION: Final = 1


async def async_migrate(hass: HomeAssistant, entry: IntentRouterConfigEntry) -> bool:
    """Bring the entry to the current version, one step at a time.

    Home Assistant itself refuses an entry of a newer version.
    """
    LOGGER.debug("Migrating from version %s.%s", entry.version, entry.minor_version)
    if entry.version == 1:
        await _async_options_to_agent(hass, entry)
    return True


async def _async_options_to_agent(
    hass: HomeAssistant, entry: IntentRouterConfigEntry
) -> None:
    """1 -> 2: the entry's options become its first agent, named as the entry."""
    entry_id = entry.entry_id
    agent = ConfigSubentry(
        data=MappingProxyType(dict(entry.options)),
        subentry_type=SUBENTRY_AGENT,
        title=entry.title,
        unique_id=None,
    )
    hass.config_entries.async_add_subentry(entry, agent)
    _move_entity_and_device(hass, entry_id, agent.subentry_id)
    hass.config_entries.async_update_entry(
        entry, options={}, version=2, minor_version=1
    )
    for file in (context_file, learned_file):
        await async_move_file(hass, file(entry_id), file(agent.subentry_id))
    # Raised for the entry's timeout; the next warm-up raises the agent's.
    async_withdraw(hass, issue_id(entry_id))


def _move_entity_and_device(hass: HomeAssistant, entry_id: str, agent_id: str) -> None:
    """The entry's conversation entity and its device become the agent's.

    Both were identified by the entry id. The entity id stays, so pipelines
    and automations that name it keep working; the unique id and the
    device's identifier become the agent's.
    """
    entities = er.async_get(hass)
    entity_id = entities.async_get_entity_id(CONVERSATION_DOMAIN, DOMAIN, entry_id)
    if entity_id is not None:
        entities.async_update_entity(
            entity_id, config_subentry_id=agent_id, new_unique_id=agent_id
        )
    devices = dr.async_get(hass)
    device = devices.async_get_device_by_identifier((DOMAIN, entry_id), entry_id)
    if device is not None:
        devices.async_update_device(
            device.id,
            new_identifiers={(DOMAIN, agent_id)},
            new_config_subentry_id=agent_id,
        )
