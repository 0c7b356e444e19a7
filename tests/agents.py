"""Entries as the integration makes them: a server with its agents.

The config entry is the model server; each conversation agent is a
`conversation` subentry whose data are its options. Tests give an agent its
options before set-up, as the agent flow would, and reach what it has at
run time by its subentry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import (
    CONF_LOCAL_FIRST,
    DOMAIN,
    SUBENTRY_AGENT,
)
from custom_components.intent_router.core.settings import default_options
from custom_components.intent_router.data import AgentData
from homeassistant.config_entries import ConfigSubentry, ConfigSubentryData
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

API_KEY = "sk-test-secret"
# The default options, with a model the scripted server lists. Most tests
# script the model; local-first has tests of its own.
AGENT_OPTIONS: dict[str, Any] = {
    **default_options(["test-model"]),
    CONF_LOCAL_FIRST: False,
}


def agent_subentry(
    options: dict[str, Any] | None = None, title: str = "127.0.0.1"
) -> ConfigSubentryData:
    """A conversation agent with these options, for `subentries_data`."""
    return ConfigSubentryData(
        data=AGENT_OPTIONS if options is None else options,
        subentry_type=SUBENTRY_AGENT,
        title=title,
        unique_id=None,
    )


def server_entry(
    hass: HomeAssistant, url: str, *subentries: ConfigSubentryData
) -> MockConfigEntry:
    """An entry for the server at `url` with these agents, added to hass."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="127.0.0.1",
        data={CONF_URL: url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: True},
        subentries_data=list(subentries),
        unique_id=None,
        version=2,
        minor_version=1,
    )
    entry.add_to_hass(hass)
    return entry


def agents(entry: MockConfigEntry) -> list[ConfigSubentry]:
    """The entry's agents, in the order they were added."""
    return [
        subentry
        for subentry in entry.subentries.values()
        if subentry.subentry_type == SUBENTRY_AGENT
    ]


def only_agent(entry: MockConfigEntry) -> ConfigSubentry:
    """The entry's one agent."""
    (subentry,) = agents(entry)
    return subentry


def set_agent_options(
    hass: HomeAssistant, entry: MockConfigEntry, options: Mapping[str, Any]
) -> None:
    """Change some of the one agent's options (before set-up)."""
    subentry = only_agent(entry)
    hass.config_entries.async_update_subentry(
        entry, subentry, data={**subentry.data, **options}
    )


def agent_data(entry: MockConfigEntry, subentry_id: str | None = None) -> AgentData:
    """What an agent (the one, if none is named) has at run time."""
    data: AgentData = entry.runtime_data.agents[
        subentry_id or only_agent(entry).subentry_id
    ]
    return data


def agent_entity_id(hass: HomeAssistant, subentry_id: str) -> str:
    """The conversation entity of an agent."""
    entity_id = er.async_get(hass).async_get_entity_id(
        "conversation", "intent_router", subentry_id
    )
    assert entity_id is not None
    return entity_id


def agent_entity(hass: HomeAssistant, entry: MockConfigEntry) -> str:
    """The conversation entity of the entry's one agent."""
    return agent_entity_id(hass, only_agent(entry).subentry_id)


def agent_diagnostics(
    diagnostics: Mapping[str, Any], entry: MockConfigEntry
) -> dict[str, Any]:
    """The one agent's part of the entry's diagnostics."""
    part: dict[str, Any] = diagnostics["agents"][only_agent(entry).subentry_id]
    return part
