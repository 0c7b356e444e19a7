"""Set-up and unload against a real model server, and how failures are classed."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.config_entries import SOURCE_REAUTH, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .agents import agent_entity_id, only_agent
from .llm_server import ScriptedLLMServer

# Failed set-ups still need what a real start-up has already set up.
FAILED_SETUP = pytest.mark.usefixtures("core_components")


async def test_setup_and_unload(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    entity_registry: er.EntityRegistry,
) -> None:
    """Set-up probes the server, keeps its models and adds the agent."""
    entry = init_integration
    assert entry.runtime_data.models == ["other-model", "test-model"]
    agent = only_agent(entry)
    assert list(entry.runtime_data.agents) == [agent.subentry_id]
    registered = entity_registry.async_get(agent_entity_id(hass, agent.subentry_id))
    assert registered is not None
    assert registered.config_subentry_id == agent.subentry_id
    assert hass.states.get(registered.entity_id) is not None

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.NOT_LOADED


async def test_ha_sentences_loaded_before_the_first_turn(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    entity_registry: er.EntityRegistry,
) -> None:
    """HA's sentences load at start and when a pipeline prepares the agent.

    A typed first turn would otherwise wait seconds for them (the README's
    first step took 2-3.5 s on a small machine).
    """
    default_agent = get_agent_manager(hass).default_agent
    assert default_agent is not None
    await hass.async_block_till_done(wait_background_tasks=True)
    # Private, but the only record of what HA's agent has loaded.
    assert "en" in default_agent._lang_intents
    assert "de" not in default_agent._lang_intents

    entity_id = agent_entity_id(hass, only_agent(init_integration).subentry_id)
    await conversation.async_prepare_agent(hass, entity_id, "de")
    assert "de" in default_agent._lang_intents


@FAILED_SETUP
async def test_setup_auth_failure_starts_reauth(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A server that refuses the key starts reauthentication, not retries."""
    llm_server.models_status = 401
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()

    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR
    assert mock_config_entry.reason == "The model server refused the API key"
    flows = hass.config_entries.flow.async_progress_by_handler("intent_router")
    assert [flow["context"]["source"] for flow in flows] == [SOURCE_REAUTH]
    assert flows[0]["step_id"] == "reauth_confirm"


@FAILED_SETUP
@pytest.mark.parametrize("status", [429, 500, 503])
async def test_setup_retries_when_server_is_busy(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    status: int,
) -> None:
    """Overload and server errors are temporary: set-up is retried."""
    llm_server.models_status = status
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert mock_config_entry.reason == "Cannot reach the model server"


@FAILED_SETUP
async def test_setup_retries_when_server_is_down(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A closed port is temporary: set-up is retried."""
    await llm_server.stop()
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY


@FAILED_SETUP
async def test_setup_fails_for_incompatible_server(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A server without the OpenAI API (404) is an error retries will not fix."""
    llm_server.models_status = 404
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR
    assert mock_config_entry.reason == (
        "The model server did not answer as an OpenAI-compatible API: "
        "the model server answered 404"
    )
    assert not hass.config_entries.flow.async_progress_by_handler("intent_router")


async def test_unload_saves_and_remove_deletes_context(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """Unloading writes the context now; removing the entry deletes it."""
    entry = init_integration
    key = f"intent_router.context.{only_agent(entry).subentry_id}"
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert hass_storage[key]["data"] == {"turns": {}}

    assert await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()
    assert key not in hass_storage
