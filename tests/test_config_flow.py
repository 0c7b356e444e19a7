"""The config, reauth and reconfigure flows, and the agent flow, against a real server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
import json
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.agent_flow import SECTIONS
from custom_components.intent_router.const import (
    CONF_ALLOWED_DOMAINS,
    CONF_CONFIDENCE_THRESHOLD,
    CONF_CONFIRM_DOMAINS,
    CONF_CONFIRM_EVERY_ACTION,
    CONF_CONTEXT_TTL,
    CONF_CONTEXT_TURNS,
    CONF_DEFAULT_MUSIC_PLAYER,
    CONF_EXTRA_INSTRUCTIONS,
    CONF_LEARN_COMMANDS,
    CONF_LOCAL_FIRST,
    CONF_MCP_SERVERS,
    CONF_MODEL,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_USE_LLM,
    DEFAULT_URL,
    DOMAIN,
)
from custom_components.intent_router.core.settings import (
    DEFAULT_ALLOWED_DOMAINS,
    DEFAULT_CONFIRM_DOMAINS,
    DEFAULT_MODEL,
    Settings,
)
from homeassistant.config_entries import (
    SOURCE_USER,
    ConfigEntryState,
    ConfigFlowResult,
    SubentryFlowResult,
)
from homeassistant.const import CONF_API_KEY, CONF_NAME, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, section
from homeassistant.helpers import device_registry as dr

from .agents import (
    API_KEY,
    agent_entity,
    agent_entity_id,
    agent_subentry,
    agents,
    only_agent,
    set_agent_options,
)
from .llm_server import ScriptedLLMServer

# Starting a flow sets the integration up, and with it `conversation`.
pytestmark = pytest.mark.usefixtures("core_components")

DEFAULTS = Settings()
TRANSLATIONS = (
    Path(__file__).parent.parent / "custom_components" / DOMAIN / "translations"
)
DEFAULT_OPTIONS = {
    CONF_TIMEOUT: DEFAULTS.timeout,
    CONF_CONFIDENCE_THRESHOLD: DEFAULTS.confidence_threshold,
    CONF_TEMPERATURE: DEFAULTS.temperature,
    CONF_ALLOWED_DOMAINS: list(DEFAULT_ALLOWED_DOMAINS),
    CONF_CONFIRM_DOMAINS: list(DEFAULT_CONFIRM_DOMAINS),
    CONF_CONFIRM_EVERY_ACTION: False,
    CONF_EXTRA_INSTRUCTIONS: "",
    CONF_CONTEXT_TURNS: DEFAULTS.context_turns,
    CONF_CONTEXT_TTL: float(DEFAULTS.context_ttl),
    CONF_LOCAL_FIRST: True,
    CONF_LEARN_COMMANDS: True,
    CONF_USE_LLM: True,
    CONF_DEFAULT_MUSIC_PLAYER: None,
    CONF_MCP_SERVERS: [],
}


type FormResult = ConfigFlowResult | SubentryFlowResult


@pytest.fixture
def mock_setup_entry() -> Generator[AsyncMock]:
    """Keep flow tests to the flow: entries they create are not set up."""
    with patch(
        "custom_components.intent_router.async_setup_entry", return_value=True
    ) as mock:
        yield mock


async def _closed_port_url() -> str:
    """The URL of a server that has just gone away."""
    server = ScriptedLLMServer()
    await server.start()
    await server.stop()
    return server.url


def _schema(result: FormResult) -> dict[Any, Any]:
    """The fields of a form, keyed by their markers, sections opened."""
    assert result["type"] is FlowResultType.FORM
    assert result["data_schema"] is not None
    fields: dict[Any, Any] = {}
    for key, value in result["data_schema"].schema.items():
        if isinstance(value, section):
            fields.update(value.schema.schema)
        else:
            fields[key] = value
    return fields


def _sections(flat: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A flat options form as the browser submits it: by section."""
    return {
        name: {key: flat[key] for key in keys if key in flat}
        for name, keys in SECTIONS.items()
    }


def _suggested(result: FormResult, field: str) -> Any:
    """The value a form pre-fills for a field."""
    for key in _schema(result):
        if key == field:
            return key.description and key.description.get("suggested_value")
    raise KeyError(field)


def _as_shown(result: FormResult) -> dict[str, Any]:
    """What saving a form unchanged submits: every value it pre-fills."""
    return {
        str(key): key.description["suggested_value"]
        for key in _schema(result)
        if key.description and key.description.get("suggested_value") is not None
    }


def _selector_options(result: FormResult, field: str) -> list[str]:
    """The choices a select field offers."""
    for key, selector in _schema(result).items():
        if key == field:
            return list(selector.config["options"])
    raise KeyError(field)


async def test_user_flow(
    hass: HomeAssistant, llm_server: ScriptedLLMServer, mock_setup_entry: AsyncMock
) -> None:
    """The server is probed, and the entry starts with a model it serves."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert result["errors"] == {}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            CONF_URL: f" {llm_server.url}/ ",
            CONF_API_KEY: API_KEY,
            CONF_VERIFY_SSL: True,
        },
    )

    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Intent Router"
    assert result["data"] == {
        CONF_URL: llm_server.url,
        CONF_API_KEY: API_KEY,
        CONF_VERIFY_SSL: True,
    }
    # The connection has no options; its first agent has the defaults.
    assert result["options"] == {}
    entry = result["result"]
    agent = only_agent(entry)
    assert agent.title == "Intent Router"
    assert dict(agent.data) == {CONF_MODEL: "other-model", **DEFAULT_OPTIONS}
    assert (entry.version, entry.minor_version) == (2, 1)
    assert len(mock_setup_entry.mock_calls) == 1


@pytest.mark.parametrize(
    ("models", "model"),
    [([], DEFAULT_MODEL), (["a-model", DEFAULT_MODEL], DEFAULT_MODEL)],
    ids=["server lists none", "server lists the default"],
)
async def test_user_flow_initial_model(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_setup_entry: AsyncMock,
    models: list[str],
    model: str,
) -> None:
    """The default model is kept when the server has it or lists nothing."""
    llm_server.models = models
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: llm_server.url, CONF_VERIFY_SSL: False}
    )

    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {
        CONF_URL: llm_server.url,
        CONF_API_KEY: None,
        CONF_VERIFY_SSL: False,
    }
    assert only_agent(result["result"]).data[CONF_MODEL] == model


async def _answer_401(server: ScriptedLLMServer) -> str:
    server.models_status = 401
    return server.url


async def _answer_403(server: ScriptedLLMServer) -> str:
    server.models_status = 403
    return server.url


async def _answer_503(server: ScriptedLLMServer) -> str:
    server.models_status = 503
    return server.url


async def _answer_404(server: ScriptedLLMServer) -> str:
    server.models_status = 404
    return server.url


async def _answer_garbage(server: ScriptedLLMServer) -> str:
    server.models_body = b"<html>not an API</html>"
    return server.url


async def _no_scheme(server: ScriptedLLMServer) -> str:
    return server.url.removeprefix("http://")


async def _broken_url(server: ScriptedLLMServer) -> str:
    return "http://[::1/v1"


async def _closed_port(server: ScriptedLLMServer) -> str:
    return await _closed_port_url()


BREAKAGES = pytest.mark.parametrize(
    ("break_server", "errors"),
    [
        (_answer_401, {"base": "invalid_auth"}),
        (_answer_403, {"base": "invalid_auth"}),
        (_closed_port, {"base": "cannot_connect"}),
        (_answer_503, {"base": "cannot_connect"}),
        (_answer_404, {"base": "incompatible_server"}),
        (_answer_garbage, {"base": "incompatible_server"}),
        (_no_scheme, {CONF_URL: "invalid_url"}),
        (_broken_url, {CONF_URL: "invalid_url"}),
    ],
    ids=[
        "401",
        "403",
        "closed port",
        "503",
        "404",
        "not JSON",
        "no scheme",
        "unparsable URL",
    ],
)


def _repair(server: ScriptedLLMServer) -> None:
    """Undo whatever a breakage did to the server."""
    server.models_status = 200
    server.models_body = None


@BREAKAGES
async def test_user_flow_errors(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_setup_entry: AsyncMock,
    break_server: Callable[[ScriptedLLMServer], Awaitable[str]],
    errors: dict[str, str],
) -> None:
    """Each failure shows its error, and a corrected form then succeeds."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    url = await break_server(llm_server)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_URL: url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: True},
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == errors
    assert _suggested(result, CONF_URL) == url

    _repair(llm_server)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_URL: llm_server.url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: True},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"][CONF_URL] == llm_server.url


async def test_user_flow_suggests_default_url(hass: HomeAssistant) -> None:
    """A new form points at a local Ollama, the most common server."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    key = next(key for key in _schema(result) if key == CONF_URL)
    assert key.default() == DEFAULT_URL


async def test_user_flow_already_configured(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """One entry per server, whatever the spelling of its URL."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_URL: f"{llm_server.url}/", CONF_VERIFY_SSL: True},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"


@pytest.mark.usefixtures("mock_setup_entry")
async def test_reauth(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """A refused key shows an error; a new key is probed, stored and reloaded."""
    result = await mock_config_entry.start_reauth_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reauth_confirm"
    assert result["description_placeholders"][CONF_URL] == llm_server.url

    llm_server.models_status = 401
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: "sk-wrong"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}

    llm_server.models_status = 200
    llm_server.headers.clear()
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: "sk-new"}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert mock_config_entry.data == {
        CONF_URL: llm_server.url,
        CONF_API_KEY: "sk-new",
        CONF_VERIFY_SSL: True,
    }
    await hass.async_block_till_done()
    assert mock_config_entry.state is ConfigEntryState.LOADED


@pytest.mark.usefixtures("mock_setup_entry")
async def test_reauth_without_key(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """An empty key field means the server now takes none."""
    result = await mock_config_entry.start_reauth_flow(hass)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert mock_config_entry.data[CONF_API_KEY] is None


@pytest.mark.usefixtures("mock_setup_entry")
async def test_reconfigure(hass: HomeAssistant, llm_server: ScriptedLLMServer) -> None:
    """A new URL is probed and stored; agents are kept; the title follows."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="127.0.0.2",
        data={
            CONF_URL: "http://127.0.0.2:9/v1",
            CONF_API_KEY: "sk-old",
            CONF_VERIFY_SSL: True,
        },
        subentries_data=[
            agent_subentry({CONF_MODEL: "test-model", **DEFAULT_OPTIONS}, "127.0.0.2")
        ],
        version=2,
        minor_version=1,
    )
    entry.add_to_hass(hass)

    result = await entry.start_reconfigure_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure"
    assert _suggested(result, CONF_URL) == "http://127.0.0.2:9/v1"
    assert _suggested(result, CONF_VERIFY_SSL) is True
    assert _suggested(result, CONF_API_KEY) is None  # never sent to the browser

    llm_server.models_status = 401
    user_input = {
        CONF_URL: llm_server.url,
        CONF_API_KEY: "sk-new",
        CONF_VERIFY_SSL: False,
    }
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], user_input
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}
    assert _suggested(result, CONF_API_KEY) == "sk-new"

    llm_server.models_status = 200
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], user_input
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.title == "127.0.0.1"
    assert entry.data == {
        CONF_URL: llm_server.url,
        CONF_API_KEY: "sk-new",
        CONF_VERIFY_SSL: False,
    }
    agent = only_agent(entry)
    assert dict(agent.data) == {CONF_MODEL: "test-model", **DEFAULT_OPTIONS}
    assert agent.title == "127.0.0.2"  # the agent's own name stays


async def test_reconfigure_reloads_a_loaded_entry(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    init_integration: MockConfigEntry,
) -> None:
    """A running server's new settings take effect at once, its agents kept."""
    entry = init_integration
    running = entry.runtime_data
    agent = only_agent(entry)
    result = await entry.start_reconfigure_flow(hass)
    llm_server.models = ["new-model"]
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_URL: llm_server.url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: False},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()

    assert entry.state is ConfigEntryState.LOADED
    assert entry.data[CONF_VERIFY_SSL] is False
    assert entry.runtime_data is not running
    assert entry.runtime_data.models == ["new-model"]
    assert list(entry.runtime_data.agents) == [agent.subentry_id]


async def test_the_agent_is_named_after_what_it_is(
    hass: HomeAssistant, llm_server: ScriptedLLMServer
) -> None:
    """It is "Intent Router", not the server's address; a host tells two apart."""
    first = await _add_entry(hass, llm_server.url)
    await hass.async_block_till_done()
    entity = agent_entity(hass, first["result"])
    assert entity == "conversation.intent_router"
    state = hass.states.get(entity)
    assert state is not None
    assert state.attributes["friendly_name"] == "Intent Router"

    other = ScriptedLLMServer()
    await other.start()
    try:
        second = await _add_entry(hass, other.url)
        await hass.async_block_till_done()
        assert second["title"] == "Intent Router (127.0.0.1)"
        assert only_agent(second["result"]).title == "Intent Router (127.0.0.1)"
        assert first["result"].title == "Intent Router"
        assert await hass.config_entries.async_unload(second["result"].entry_id)
    finally:
        await other.stop()


async def _add_entry(hass: HomeAssistant, url: str) -> ConfigFlowResult:
    """Add an entry for a server through the user flow."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: url, CONF_VERIFY_SSL: True}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    return result


@pytest.mark.usefixtures("mock_setup_entry")
async def test_reconfigure_keeps_custom_title(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """A title the user chose is not replaced by the host."""
    hass.config_entries.async_update_entry(mock_config_entry, title="Kitchen GPU")
    result = await mock_config_entry.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: llm_server.url, CONF_VERIFY_SSL: True}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert mock_config_entry.title == "Kitchen GPU"
    assert mock_config_entry.data[CONF_API_KEY] is None


@pytest.mark.usefixtures("mock_setup_entry")
async def test_reconfigure_to_configured_server(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """Pointing an entry at a server another entry has is refused."""
    other = MockConfigEntry(
        domain=DOMAIN,
        title="127.0.0.2",
        data={
            CONF_URL: "http://127.0.0.2:9/v1",
            CONF_API_KEY: None,
            CONF_VERIFY_SSL: True,
        },
        subentries_data=[agent_subentry()],
        version=2,
        minor_version=1,
    )
    other.add_to_hass(hass)
    result = await other.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: llm_server.url, CONF_VERIFY_SSL: True}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert other.data[CONF_URL] == "http://127.0.0.2:9/v1"


async def _reconfigure_agent(
    hass: HomeAssistant, entry: MockConfigEntry
) -> SubentryFlowResult:
    """Open the one agent's form."""
    result: SubentryFlowResult = await entry.start_subentry_reconfigure_flow(
        hass, only_agent(entry).subentry_id
    )
    return result


async def _save(
    hass: HomeAssistant, result: SubentryFlowResult, flat: dict[str, Any], **top: Any
) -> SubentryFlowResult:
    """Submit the agent form: its top fields, then the flat options by section."""
    return await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_NAME: "Intent Router", **top, **_sections(flat)}
    )


async def test_agent_flow(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    init_integration: MockConfigEntry,
) -> None:
    """An agent's form offers the server's models; saved typed, then reloaded."""
    entry = init_integration
    agent = only_agent(entry)
    result = await _reconfigure_agent(hass, entry)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    assert _selector_options(result, CONF_MODEL) == ["other-model", "test-model"]
    assert _suggested(result, CONF_MODEL) == "test-model"
    assert _suggested(result, CONF_TIMEOUT) == DEFAULTS.timeout
    assert _suggested(result, CONF_NAME) == agent.title
    domains = _selector_options(result, CONF_ALLOWED_DOMAINS)
    assert {"light", "lock", "conversation"} <= set(domains)
    assert not {"homeassistant", "shell_command", DOMAIN} & set(domains)
    assert _selector_options(result, CONF_CONFIRM_DOMAINS) == domains

    llm_server.models = ["new-model"]
    result = await _save(
        hass,
        result,
        {
            CONF_MODEL: " my-custom-model ",
            CONF_TIMEOUT: 12,
            CONF_CONFIDENCE_THRESHOLD: 0.5,
            CONF_TEMPERATURE: 0,
            CONF_ALLOWED_DOMAINS: ["switch", "light", "light"],
            CONF_CONFIRM_DOMAINS: ["lock"],
            CONF_CONFIRM_EVERY_ACTION: True,
            CONF_EXTRA_INSTRUCTIONS: "  Answer in French.\n",
            CONF_CONTEXT_TURNS: 4.0,
            CONF_CONTEXT_TTL: 90,
            CONF_LOCAL_FIRST: False,
            CONF_LEARN_COMMANDS: False,
            CONF_USE_LLM: True,
            CONF_DEFAULT_MUSIC_PLAYER: "media_player.kitchen",
            CONF_MCP_SERVERS: "http://127.0.0.1:9000/mcp secret-token\n\nhttp://127.0.0.1:9001/sse\n",
        },
        **{CONF_NAME: "  Assistant français "},
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    agent = only_agent(entry)
    assert agent.title == "Assistant français"
    assert dict(agent.data) == {
        CONF_MODEL: "my-custom-model",
        CONF_TIMEOUT: 12.0,
        CONF_CONFIDENCE_THRESHOLD: 0.5,
        CONF_TEMPERATURE: 0.0,
        CONF_ALLOWED_DOMAINS: ["light", "switch"],
        CONF_CONFIRM_DOMAINS: ["lock"],
        CONF_CONFIRM_EVERY_ACTION: True,
        CONF_EXTRA_INSTRUCTIONS: "Answer in French.",
        CONF_CONTEXT_TURNS: 4,
        CONF_CONTEXT_TTL: 90.0,
        CONF_LOCAL_FIRST: False,
        CONF_LEARN_COMMANDS: False,
        CONF_USE_LLM: True,
        CONF_DEFAULT_MUSIC_PLAYER: "media_player.kitchen",
        CONF_MCP_SERVERS: [
            {"url": "http://127.0.0.1:9000/mcp", "token": "secret-token"},
            {"url": "http://127.0.0.1:9001/sse", "token": None},
        ],
    }
    # Equal is not enough: 12 == 12.0, but the stored types must be these.
    assert {key: type(value) for key, value in agent.data.items()} == {
        CONF_MODEL: str,
        CONF_TIMEOUT: float,
        CONF_CONFIDENCE_THRESHOLD: float,
        CONF_TEMPERATURE: float,
        CONF_ALLOWED_DOMAINS: list,
        CONF_CONFIRM_DOMAINS: list,
        CONF_CONFIRM_EVERY_ACTION: bool,
        CONF_EXTRA_INSTRUCTIONS: str,
        CONF_CONTEXT_TURNS: int,
        CONF_CONTEXT_TTL: float,
        CONF_LOCAL_FIRST: bool,
        CONF_LEARN_COMMANDS: bool,
        CONF_USE_LLM: bool,
        CONF_DEFAULT_MUSIC_PLAYER: str,
        CONF_MCP_SERVERS: list,
    }

    # The entry was reloaded: set-up probed the server again, and the agent's
    # device took its new name and model.
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.models == ["new-model"]
    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, agent.subentry_id), entry.entry_id
    )
    assert device is not None
    assert (device.name, device.model) == ("Assistant français", "my-custom-model")

    # The servers are edited as lines, without their tokens.
    result = await _reconfigure_agent(hass, entry)
    assert _suggested(result, CONF_MCP_SERVERS) == (
        "http://127.0.0.1:9000/mcp\nhttp://127.0.0.1:9001/sse"
    )


async def test_adding_an_agent(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    init_integration: MockConfigEntry,
) -> None:
    """A second agent starts from the defaults; saving adds its own entity."""
    entry = init_integration
    first = only_agent(entry)
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, "conversation"), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    assert _suggested(result, CONF_NAME) == "Intent Router"
    # The defaults, with a model the server lists.
    shown = {CONF_MODEL: "other-model", **DEFAULT_OPTIONS, CONF_MCP_SERVERS: ""}
    del shown[CONF_DEFAULT_MUSIC_PLAYER]  # no player: the field stays empty
    assert _as_shown(result) == {CONF_NAME: "Intent Router", **shown}

    result = await _save(
        hass,
        result,
        {**shown, CONF_EXTRA_INSTRUCTIONS: "Antworte auf Deutsch."},
        **{CONF_NAME: "Deutsch"},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()

    second = next(a for a in agents(entry) if a.subentry_id != first.subentry_id)
    assert second.title == "Deutsch"
    assert second.data[CONF_EXTRA_INSTRUCTIONS] == "Antworte auf Deutsch."
    assert second.data[CONF_MODEL] == "other-model"
    assert entry.state is ConfigEntryState.LOADED
    assert set(entry.runtime_data.agents) == {first.subentry_id, second.subentry_id}
    assert agent_entity_id(hass, second.subentry_id) == "conversation.deutsch"
    assert agent_entity_id(hass, first.subentry_id) == "conversation.127_0_0_1"


async def test_agent_flow_denied_domain(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Domains on the fixed deny list cannot be allowed, even typed by hand."""
    entry = init_integration
    result = await _reconfigure_agent(hass, entry)
    user_input = {
        CONF_MODEL: "test-model",
        CONF_TIMEOUT: 5,
        CONF_CONFIDENCE_THRESHOLD: 0.7,
        CONF_TEMPERATURE: 0.1,
        CONF_ALLOWED_DOMAINS: ["light", "shell_command", "homeassistant"],
        CONF_CONFIRM_DOMAINS: ["lock"],
        CONF_CONTEXT_TURNS: 10,
        CONF_CONTEXT_TTL: 30,
        CONF_LOCAL_FIRST: True,
        CONF_USE_LLM: True,
        CONF_MCP_SERVERS: "not a url\nhttp://127.0.0.1:1/mcp",
    }
    result = await _save(hass, result, user_input)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {
        CONF_ALLOWED_DOMAINS: "denied_domain",
        CONF_MCP_SERVERS: "invalid_mcp_servers",
    }
    assert result["description_placeholders"] == {
        "denied": "homeassistant, shell_command"
    }
    assert _suggested(result, CONF_ALLOWED_DOMAINS) == user_input[CONF_ALLOWED_DOMAINS]
    assert only_agent(entry).data[CONF_ALLOWED_DOMAINS] == list(DEFAULT_ALLOWED_DOMAINS)

    user_input[CONF_ALLOWED_DOMAINS] = ["light"]
    user_input[CONF_MCP_SERVERS] = "http://127.0.0.1:1/mcp\nhttp://127.0.0.1:1/mcp"
    result = await _save(hass, result, user_input)
    assert result["errors"] == {CONF_MCP_SERVERS: "invalid_mcp_servers"}

    user_input[CONF_MCP_SERVERS] = ""
    result = await _save(hass, result, user_input, **{CONF_NAME: "  "})
    assert result["type"] is FlowResultType.ABORT
    agent = only_agent(entry)
    assert agent.data[CONF_ALLOWED_DOMAINS] == ["light"]
    assert agent.data[CONF_EXTRA_INSTRUCTIONS] == ""
    assert agent.title == "Intent Router"  # an empty name is the default one


async def test_agent_flow_entry_not_loaded(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """Without a probe to go on, the model list holds the agent's model."""
    llm_server.models_status = 503
    await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY

    result = await _reconfigure_agent(hass, mock_config_entry)
    assert result["type"] is FlowResultType.FORM
    assert _selector_options(result, CONF_MODEL) == ["test-model"]


async def test_agent_flow_suggests_default_model(hass: HomeAssistant) -> None:
    """An agent without options is offered the defaults `Settings` holds."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="127.0.0.2",
        data={
            CONF_URL: "http://127.0.0.2:9/v1",
            CONF_API_KEY: None,
            CONF_VERIFY_SSL: True,
        },
        subentries_data=[agent_subentry({}, "127.0.0.2")],
        version=2,
        minor_version=1,
    )
    entry.add_to_hass(hass)
    result = await _reconfigure_agent(hass, entry)
    assert _suggested(result, CONF_MODEL) == DEFAULT_MODEL
    assert _selector_options(result, CONF_MODEL) == [DEFAULT_MODEL]
    shown = {CONF_MODEL: DEFAULT_MODEL, **DEFAULT_OPTIONS, CONF_MCP_SERVERS: ""}
    del shown[CONF_DEFAULT_MUSIC_PLAYER]  # no player: the field stays empty
    assert _as_shown(result) == {CONF_NAME: "127.0.0.2", **shown}


MCP_A = "http://127.0.0.1:9000/mcp"
MCP_B = "http://127.0.0.1:9001/sse"
MCP_C = "http://127.0.0.1:9002/mcp"


async def _store_mcp_servers(
    hass: HomeAssistant, entry: MockConfigEntry, servers: list[dict[str, str | None]]
) -> SubentryFlowResult:
    """Give the agent these MCP servers and open its form."""
    set_agent_options(hass, entry, {CONF_MCP_SERVERS: servers})
    return await _reconfigure_agent(hass, entry)


def _flat_shown(result: SubentryFlowResult) -> dict[str, Any]:
    """What saving the form unchanged submits, without its name."""
    shown = _as_shown(result)
    del shown[CONF_NAME]
    return shown


@pytest.mark.usefixtures("mock_setup_entry")
async def test_agent_flow_never_shows_mcp_tokens(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Stored tokens stay out of the form, and saving it unchanged keeps them."""
    servers: list[dict[str, str | None]] = [
        {"url": MCP_A, "token": "secret-a"},
        {"url": MCP_B, "token": None},
    ]
    result = await _store_mcp_servers(hass, mock_config_entry, servers)
    stored = dict(only_agent(mock_config_entry).data)

    shown = _flat_shown(result)
    assert "secret-a" not in repr(_as_shown(result))
    assert shown[CONF_MCP_SERVERS] == f"{MCP_A}\n{MCP_B}"

    result = await _save(hass, result, shown, **{CONF_NAME: "127.0.0.1"})
    assert result["type"] is FlowResultType.ABORT
    assert dict(only_agent(mock_config_entry).data) == stored


@pytest.mark.usefixtures("mock_setup_entry")
async def test_agent_flow_replaces_and_removes_mcp_tokens(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """A typed token replaces the stored one, "-" removes it, a new URL has none."""
    result = await _store_mcp_servers(
        hass,
        mock_config_entry,
        [
            {"url": MCP_A, "token": "secret-a"},
            {"url": MCP_B, "token": "secret-b"},
            {"url": MCP_C, "token": "secret-c"},
        ],
    )
    moved_c = MCP_C.replace("/mcp", "/other")
    result = await _save(
        hass,
        result,
        {
            **_flat_shown(result),
            CONF_MCP_SERVERS: f"{MCP_A} -\n{MCP_B} new-b\n{moved_c}",
        },
    )
    assert result["type"] is FlowResultType.ABORT
    assert only_agent(mock_config_entry).data[CONF_MCP_SERVERS] == [
        {"url": MCP_A, "token": None},
        {"url": MCP_B, "token": "new-b"},
        {"url": moved_c, "token": None},
    ]


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "nl", "it"])
def test_agent_form_sections_and_domains_are_named_in_every_language(
    language: str,
) -> None:
    """Each section, field and default domain is named: no bare ids.

    The agent form has a name and help, its name field and each section's
    fields a label and help, a domain offered by default its translated
    name; adding and changing an agent are named too.
    """
    translations = json.loads(
        (TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8")
    )
    agent = translations["config_subentries"]["conversation"]
    assert agent["entry_type"]
    assert set(agent["initiate_flow"]) == {"user", "reconfigure"}
    step = agent["step"]["init"]
    assert step["title"]
    assert step["description"]
    assert set(step["data"]) == set(step["data_description"]) == {CONF_NAME}
    sections = step["sections"]
    assert list(sections) == list(SECTIONS)
    for name, keys in SECTIONS.items():
        assert sections[name]["name"], name
        assert sections[name]["description"], name
        assert set(sections[name]["data"]) == set(keys), name
        assert set(sections[name]["data_description"]) == set(keys), name
    assert set(agent["error"]) == {"denied_domain", "invalid_mcp_servers"}
    labels = translations["selector"]["domain"]["options"]
    assert set(DEFAULT_ALLOWED_DOMAINS) | set(DEFAULT_CONFIRM_DOMAINS) <= set(labels)
    assert all(label and label != domain for domain, label in labels.items())


async def test_agent_form_is_in_sections_with_translated_domains(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A name, then one section per concern, in order; domains by translated names.

    The options stay stored flat: an agent's options open in the form as
    they are, with nothing to migrate.
    """
    entry = init_integration
    result = await _reconfigure_agent(hass, entry)
    schema = result["data_schema"]
    assert schema is not None
    assert [str(key) for key in schema.schema] == [CONF_NAME, *SECTIONS]
    assert all(
        isinstance(value, section)
        for key, value in schema.schema.items()
        if str(key) != CONF_NAME
    )
    fields = _schema(result)
    for field in (CONF_ALLOWED_DOMAINS, CONF_CONFIRM_DOMAINS):
        selector = next(v for k, v in fields.items() if k == field)
        assert selector.config["translation_key"] == "domain"
    agent = only_agent(entry)
    assert _as_shown(result) == {
        CONF_NAME: agent.title,
        **{k: v for k, v in agent.data.items() if v is not None},
        CONF_MCP_SERVERS: "",
    }
