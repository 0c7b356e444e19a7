"""Fixtures: a real Home Assistant, a real model server, one entry with one agent."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.syrupy import HomeAssistantSnapshotExtension
from syrupy.assertion import SnapshotAssertion

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .agents import agent_subentry, server_entry
from .home import async_setup_agent, async_setup_demo_home, satellite_in
from .llm_server import ScriptedLLMServer


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let Home Assistant load integrations from custom_components/."""


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Serialise Home Assistant types the way core's snapshots do."""
    return snapshot.use_extension(HomeAssistantSnapshotExtension)


@pytest.fixture
async def llm_server(socket_enabled: None) -> AsyncGenerator[ScriptedLLMServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1, fresh for each test.

    The harness blocks sockets; `socket_enabled` lets this test open one, and
    connections stay limited to 127.0.0.1.
    """
    server = ScriptedLLMServer()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def mock_config_entry(
    hass: HomeAssistant, llm_server: ScriptedLLMServer
) -> MockConfigEntry:
    """An entry for the scripted server, with one agent of the default options."""
    return server_entry(hass, llm_server.url, agent_subentry())


@pytest.fixture
async def core_components(hass: HomeAssistant) -> None:
    """Set up what the agent builds on, in start-up order.

    `conversation` needs `homeassistant` (entity exposure) to be set up first.
    """
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})


@pytest.fixture
async def home(hass: HomeAssistant) -> None:
    """The demo home, before the integration is set up."""
    await async_setup_demo_home(hass)


@pytest.fixture
async def init_integration(
    hass: HomeAssistant, core_components: None, mock_config_entry: MockConfigEntry
) -> MockConfigEntry:
    """Set the entry up against the scripted server, as at start-up."""
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert mock_config_entry.state is ConfigEntryState.LOADED
    return mock_config_entry


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent, with default options, in the demo home (modules may differ)."""
    return await async_setup_agent(hass, mock_config_entry)


@pytest.fixture
def kitchen(hass: HomeAssistant, agent_id: str) -> str:
    """A satellite in the kitchen, where the household talks."""
    return satellite_in(hass, "Kitchen")
