"""MCP tools end to end: a real FastMCP server on 127.0.0.1, a real agent.

The servers run in the test's event loop under uvicorn (streamable HTTP or
SSE); the agent reaches them over HTTP through the `mcp` client, exactly as
it would reach a server on the network.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
import contextlib
from datetime import timedelta
import json
import logging
import socket
from typing import Any, Literal

from mcp.types import ListToolsRequest, ToolAnnotations
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)
from starlette.types import ASGIApp, Receive, Scope, Send
import uvicorn
import uvicorn.lifespan.on
from uvicorn.protocols.http.h11_impl import H11Protocol

from custom_components.intent_router.const import CONF_MCP_SERVERS, CONF_TIMEOUT, DOMAIN
from custom_components.intent_router.mcp_tools import server_names
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent, issue_registry as ir
from homeassistant.util import dt as dt_util

from .agents import only_agent, set_agent_options
from .helpers import (
    act,
    agent_details,
    converse,
    plan,
    schema_allows,
    speech,
    system_prompt,
    user_prompt,
)
from .home import async_setup_demo_home, satellite_in
from .llm_server import NEVER, ScriptedLLMServer

try:  # mcp 1 (the pinned test stack)
    from mcp.server.fastmcp import FastMCP
    from mcp.server.fastmcp.exceptions import ToolError
except ModuleNotFoundError:  # mcp 2 renamed it (Home Assistant 2026.11's)
    from mcp.server.mcpserver import MCPServer as FastMCP  # type: ignore[import-not-found, no-redef]
    from mcp.server.mcpserver.exceptions import ToolError  # type: ignore[import-not-found, no-redef]

TOKEN = "mcp-secret-token"  # noqa: S105 - a test token


class _Uvicorn(uvicorn.Server):
    """uvicorn without signal handlers: the test runner owns the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None]:
        """Leave the process's signal handlers alone."""
        yield


class _H11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, whose keep-alive timer dies with a reset.

    uvicorn cancels that timer only when a connection closes cleanly; a client
    that gives up (a timed-out call) would leave it to the harness's check
    for lingering timers.
    """

    def connection_lost(self, exc: Exception | None) -> None:
        """Close as uvicorn does, then drop the keep-alive timer in any case."""
        super().connection_lost(exc)
        self._unset_keepalive_if_required()


class McpTestServer:
    """A FastMCP server with a fast and a slow tool, recording every call."""

    def __init__(
        self,
        transport: Literal["streamable", "sse"],
        token: str | None = None,
        fail_status: int | None = None,
    ) -> None:
        """Define the tools.

        `token`, when set, is required as a bearer token; `fail_status`, when
        set, is the HTTP status of every answer (a broken server or proxy).
        """
        self.transport = transport
        self.token = token
        self.fail_status = fail_status
        self.calls: list[tuple[str, dict[str, Any]]] = []
        # The HTTP methods of the requests a guarded server refused.
        self.refused: list[str] = []
        self.url = ""
        self._server: _Uvicorn | None = None
        self._task: asyncio.Task[None] | None = None
        mcp = FastMCP("test", log_level="WARNING")

        # Reads the weather and changes nothing: marked so, it runs when asked.
        @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
        def lookup(
            city: str,
            units: Literal["metric", "imperial"] = "metric",
            fields: list[str] | None = None,
        ) -> str:
            """Look up the current weather of a city."""
            self.calls.append(("lookup", {"city": city, "units": units}))
            if city == "Atlantis":
                raise ToolError("no such city")
            return f"It is 21 degrees and sunny in {city}."

        @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
        async def slow_report(seconds: float = 3.0) -> str:
            """Write a long report (takes a while)."""
            self.calls.append(("slow_report", {"seconds": seconds}))
            await asyncio.sleep(seconds)
            return "Report ready."

        self.mcp = mcp

    def _app(self) -> ASGIApp:
        """The transport's ASGI app, behind a bearer-token check if asked."""
        app = (
            self.mcp.streamable_http_app()
            if self.transport == "streamable"
            else self.mcp.sse_app()
        )
        if self.token is None and self.fail_status is None:
            return app

        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            headers = dict(scope.get("headers", []))
            status = self.fail_status
            if (
                self.token is not None
                and headers.get(b"authorization") != f"Bearer {self.token}".encode()
            ):
                status = 401
            if scope["type"] == "http" and status is not None:
                self.refused.append(scope["method"])
                await send({"type": "http.response.start", "status": status})
                await send({"type": "http.response.body", "body": b""})
                return
            await app(scope, receive, send)

        return guarded

    async def start(self, port: int = 0) -> None:
        """Serve on 127.0.0.1 (`port` 0: any free one)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        port = sock.getsockname()[1]
        path = "/mcp" if self.transport == "streamable" else "/sse"
        self.url = f"http://127.0.0.1:{port}{path}"
        config = uvicorn.Config(
            self._app(),
            http=_H11,
            ws="none",
            lifespan="on",
            log_config=None,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        self._server = _Uvicorn(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            assert not self._task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Stop serving and wait until uvicorn has let go of everything."""
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task
            self._server = self._task = None


type StartServer = Callable[..., Awaitable[McpTestServer]]


@pytest.fixture
async def start_mcp_server(
    socket_enabled: None,
) -> AsyncGenerator[StartServer]:
    """Start MCP test servers; all are stopped after the test."""
    servers: list[McpTestServer] = []

    async def start(
        transport: Literal["streamable", "sse"] = "streamable",
        token: str | None = None,
        port: int = 0,
        fail_status: int | None = None,
        extra: Callable[[FastMCP], None] | None = None,
    ) -> McpTestServer:
        server = McpTestServer(transport, token, fail_status)
        if extra is not None:
            extra(server.mcp)
        servers.append(server)
        await server.start(port)
        return server

    yield start
    for server in servers:
        await server.stop()
    # sse-starlette polls for a shutdown in a task of its own, forever.
    watchers = [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__name__", "") == "_shutdown_watcher"
    ]
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (just closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def tool_name(url: str, tool: str) -> str:
    """The plan's name for a tool of the server at `url`."""
    return f"mcp.{server_names([url])[0]}.{tool}"


async def setup_entry(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    servers: list[dict[str, str | None]],
    **options: Any,
) -> None:
    """Set the integration up with these MCP servers (and options)."""
    await async_setup_demo_home(hass)
    set_agent_options(hass, entry, {CONF_MCP_SERVERS: servers, **options})
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED


@pytest.mark.usefixtures("core_components")
async def test_tools_of_both_transports_are_listed(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
) -> None:
    """Streamable HTTP and SSE servers' tools reach the prompt and the schema."""
    streamable = await start_mcp_server("streamable")
    sse = await start_mcp_server("sse")
    await setup_entry(
        hass,
        mock_config_entry,
        [{"url": streamable.url, "token": None}, {"url": sse.url, "token": None}],
    )
    llm_server.add_plan(plan(speech="Hello."))

    await converse(hass, mock_config_entry.entry_id, "hello")

    system = system_prompt(llm_server, 0)
    for server in (streamable, sse):
        lookup = tool_name(server.url, "lookup")
        assert (
            f'{lookup}(city: string, units?: "metric"/"imperial", fields?: any): '
            "Look up the current weather of a city." in system
        )
        assert (
            f"{tool_name(server.url, 'slow_report')}(seconds?: number): "
            "Write a long report (takes a while)." in system
        )
        assert schema_allows(llm_server.requests[0], f"{lookup} city=Paris")
    assert not ir.async_get(hass).issues


@pytest.mark.parametrize("transport", ["streamable", "sse"])
@pytest.mark.usefixtures("core_components")
async def test_valid_call_is_phrased_and_spoken(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    transport: Literal["streamable", "sse"],
) -> None:
    """The tool runs once; its text goes to a second call, whose answer is spoken."""
    server = await start_mcp_server(transport)
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    llm_server.add_plan(
        plan(act(tool_name(server.url, "lookup"), city="Paris"), speech="Checking.")
    )
    llm_server.add_reply("It's a sunny 21 degrees in Paris.")

    result = await converse(
        hass, mock_config_entry.entry_id, "what's the weather in Paris?"
    )

    assert server.calls == [("lookup", {"city": "Paris", "units": "metric"})]
    assert speech(result) == "It's a sunny 21 degrees in Paris."
    phrase_request = llm_server.requests[1]
    assert "response_format" not in phrase_request
    assert (
        "It is 21 degrees and sunny in Paris."
        in phrase_request["messages"][-1]["content"]
    )


@pytest.mark.parametrize(
    ("args", "targets"),
    [
        ({}, []),
        ({"city": 5}, []),
        ({"city": "Paris", "units": "kelvin"}, []),
        ({"city": "Paris", "unknown": 1, "fields": "not a list"}, []),
        ({"city": "Paris"}, ["light.kitchen_lights"]),
    ],
)
@pytest.mark.usefixtures("core_components")
async def test_invalid_args_are_rejected_before_sending(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    args: dict[str, Any],
    targets: list[str],
) -> None:
    """Arguments the input schema refuses, or targets, never reach the server."""
    server = await start_mcp_server()
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    llm_server.add_plan(
        plan(act(tool_name(server.url, "lookup"), *targets, **args), speech="Sure.")
    )

    result = await converse(hass, mock_config_entry.entry_id, "weather please")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert any(d.get("rejection") == "invalid_args" for d in agent_details())
    assert server.calls == []
    assert len(llm_server.requests) == 1


@pytest.mark.usefixtures("core_components")
async def test_slow_tool_times_out_with_a_clear_reply(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
) -> None:
    """A tool that never answers is cut off at the timeout; the reply names it.

    The default timeout, since the model call shares it with the tool.
    """
    server = await start_mcp_server()
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    llm_server.add_plan(
        plan(act(tool_name(server.url, "slow_report"), seconds=NEVER), speech="On it.")
    )

    result = await converse(hass, mock_config_entry.entry_id, "write the report")

    assert speech(result) == "The slow report tool didn't answer in time."
    assert server.calls == [("slow_report", {"seconds": NEVER})]
    assert len(llm_server.requests) == 1


@pytest.mark.usefixtures("core_components")
async def test_failing_calls_are_logged_once_per_outage(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two calls time out, one answers: one line when it fails, one when back."""
    caplog.set_level(logging.INFO, logger="custom_components.intent_router")
    server = await start_mcp_server()
    await setup_entry(
        hass,
        mock_config_entry,
        [{"url": server.url, "token": None}],
        **{CONF_TIMEOUT: 1.0},
    )
    for _ in range(2):
        llm_server.add_plan(
            plan(act(tool_name(server.url, "slow_report"), seconds=NEVER))
        )
        await converse(hass, mock_config_entry.entry_id, "write the report")
    llm_server.add_plan(plan(act(tool_name(server.url, "lookup"), city="Oslo")))
    llm_server.add_reply("Sunny in Oslo.")
    await converse(hass, mock_config_entry.entry_id, "weather in Oslo")

    logged = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.INFO and "tool calls" in r.getMessage()
    ]
    assert len(logged) == 2
    assert "is unavailable (timeout)" in logged[0]
    assert logged[1].endswith("is back")


@pytest.mark.usefixtures("core_components")
async def test_tool_error_is_spoken(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
) -> None:
    """A tool that reports an error is not phrased as success."""
    server = await start_mcp_server()
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    llm_server.add_plan(
        plan(act(tool_name(server.url, "lookup"), city="Atlantis"), speech="Sure.")
    )

    result = await converse(hass, mock_config_entry.entry_id, "weather in Atlantis")

    assert speech(result).startswith("The lookup tool reported a problem:")
    assert "no such city" in speech(result)
    assert len(llm_server.requests) == 1


@pytest.mark.usefixtures("core_components")
async def test_down_server_leaves_the_rest_working(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
) -> None:
    """Set-up succeeds, the live server's tools work, a repair issue says why.

    When the server comes up, the next refresh lists its tools and withdraws
    the issue; unloading the entry withdraws any issue left.
    """
    live = await start_mcp_server()
    port = free_port()
    down_url = f"http://127.0.0.1:{port}/mcp"
    await setup_entry(
        hass,
        mock_config_entry,
        [{"url": down_url, "token": None}, {"url": live.url, "token": None}],
    )
    agent = only_agent(mock_config_entry)
    issue_id = f"mcp_{agent.subentry_id}_{server_names([down_url])[0]}"
    issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_key == "mcp_server_unavailable"
    assert issue.translation_placeholders == {
        "agent": agent.title,
        "server": f"127_0_0_1_{port}",
        "url": down_url,
        "reason": "cannot connect",
    }
    llm_server.add_plan(plan(act(tool_name(live.url, "lookup"), city="Oslo")))
    llm_server.add_reply("Sunny in Oslo.")

    result = await converse(hass, mock_config_entry.entry_id, "weather in Oslo")

    assert speech(result) == "Sunny in Oslo."
    system = system_prompt(llm_server, 0)
    assert tool_name(live.url, "lookup") in system
    assert tool_name(down_url, "lookup") not in system

    back = await start_mcp_server(port=port)
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(minutes=11))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None
    llm_server.add_plan(plan(act(tool_name(back.url, "lookup"), city="Rome")))
    llm_server.add_reply("Sunny in Rome.")
    assert (
        speech(await converse(hass, mock_config_entry.entry_id, "Rome?"))
        == "Sunny in Rome."
    )
    assert back.calls == [("lookup", {"city": "Rome", "units": "metric"})]

    await back.stop()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(minutes=22))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is not None
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None


@pytest.mark.parametrize(
    ("token", "issue_key"),
    [
        (TOKEN, None),
        ("wrong-token", "mcp_server_unauthorized"),
        (None, "mcp_server_unauthorized"),
    ],
)
@pytest.mark.usefixtures("core_components")
async def test_bearer_token(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    token: str | None,
    issue_key: str | None,
) -> None:
    """The token is sent; a refused one is a repair issue, not a reauth."""
    server = await start_mcp_server(token=TOKEN)
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": token}])
    llm_server.add_plan(plan(speech="Hi."))

    await converse(hass, mock_config_entry.entry_id, "hi")

    issues = list(ir.async_get(hass).issues.values())
    system = system_prompt(llm_server, 0)
    if issue_key is None:
        assert not issues
        assert tool_name(server.url, "lookup") in system
    else:
        assert [issue.translation_key for issue in issues] == [issue_key]
        assert issues[0].translation_placeholders is not None
        assert issues[0].translation_placeholders["reason"] == "HTTP 401"
        # Refused at once: no second try over SSE.
        assert server.refused == ["POST"]
        assert "mcp." not in system
        assert TOKEN not in json.dumps(issues[0].translation_placeholders)
    assert not hass.config_entries.flow.async_progress()


def _without_tools(mcp: FastMCP) -> None:
    """A server that offers no tools at all (resources only, say)."""
    server: Any = mcp  # the SDK's private parts differ between its majors
    if hasattr(server, "_mcp_server"):  # mcp 1
        server._mcp_server.request_handlers.pop(ListToolsRequest)
    else:  # mcp 2
        server._lowlevel_server._request_handlers.pop("tools/list")


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"fail_status": 500}, "HTTP 500"),
        ({"extra": _without_tools}, "MCP error: Method not found"),
    ],
)
@pytest.mark.usefixtures("core_components")
async def test_broken_server_is_named_in_the_issue(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    kwargs: dict[str, Any],
    reason: str,
) -> None:
    """A server error or a protocol error is a repair issue with its reason."""
    server = await start_mcp_server(**kwargs)
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])

    issues = list(ir.async_get(hass).issues.values())
    assert [issue.translation_key for issue in issues] == ["mcp_server_unavailable"]
    assert issues[0].translation_placeholders is not None
    assert issues[0].translation_placeholders["reason"] == reason


LONG_DESCRIPTION = "Does odd things. " * 20


def _odd_tools(mcp: FastMCP) -> None:
    """Tools with unusual schemas and results, as servers in the wild have."""

    @mcp.tool(description=LONG_DESCRIPTION)
    def odd(**kwargs: Any) -> str:
        return "odd"

    @mcp.tool()
    def broken(x: int) -> str:
        """Has an input schema that is not valid JSON schema."""
        return "broken"

    @mcp.tool()
    def quiet():  # type: ignore[no-untyped-def]  # noqa: ANN202 - no output schema
        """Answers with nothing at all."""
        return []

    @mcp.tool()
    def empty() -> None:
        """Answers with structured content only."""

    @mcp.tool()
    def restart_everything() -> str:
        """A name the plan validator refuses, so it is not offered either."""
        return "restarted"

    tools = mcp._tool_manager._tools
    tools["odd"].parameters = {
        "type": "object",
        "properties": {
            "flag": True,
            "name": {"type": ["string", "null"]},
            "ids": {"type": "array", "items": {"type": "integer"}},
            "ref": {"$ref": "https://schemas.invalid/thing.json"},
        },
    }
    tools["broken"].parameters = {"type": "object", "properties": {"x": {"type": 5}}}


@pytest.mark.usefixtures("core_components")
async def test_unusual_tools(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Odd schemas are described, invalid ones left out; odd results handled."""
    server = await start_mcp_server(extra=_odd_tools)
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    odd, quiet, empty = (
        tool_name(server.url, name) for name in ("odd", "quiet", "empty")
    )
    llm_server.add_plan(plan(act(odd, ref=1), speech="Odd."))

    result = await converse(hass, mock_config_entry.entry_id, "do the odd thing")

    system = system_prompt(llm_server, 0)
    described = (
        f"{odd}(flag?: any, name?: string|null, ids?: list of integer, ref?: any): "
    )
    assert described in system
    line = next(line for line in system.splitlines() if line.startswith(described))
    assert line.endswith("...")
    assert len(line) == len(described) + 200
    assert tool_name(server.url, "broken") not in system
    assert "restart_everything" not in system
    assert "tool broken left out" in caplog.text
    # A $ref elsewhere is never fetched: the plan is refused instead.
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert any(d.get("rejection") == "invalid_args" for d in agent_details())

    llm_server.add_plan(plan(act(quiet), speech="All quiet."))
    assert speech(await converse(hass, mock_config_entry.entry_id, "quiet")) == "Done."
    llm_server.add_plan(plan(act(empty), speech="Empty."))
    llm_server.add_reply("There was nothing to report.")
    result = await converse(hass, mock_config_entry.entry_id, "empty")
    assert speech(result) == "There was nothing to report."
    content = user_prompt(llm_server)
    assert json.dumps('{"result": null}') in content


def test_server_names_are_unique_slugs() -> None:
    """Host and port make the name; a repeat gets a number."""
    assert server_names(
        [
            "http://192.168.1.5:8000/mcp",
            "https://tools.example.com/mcp",
            "http://192.168.1.5:8000/other",
            "http://192.168.1.5:8000/third",
        ]
    ) == [
        "192_168_1_5_8000",
        "tools_example_com",
        "192_168_1_5_8000_2",
        "192_168_1_5_8000_3",
    ]


def _writer(mcp: FastMCP, added: list[str]) -> None:
    """A tool that changes something and says so by not being read-only."""

    @mcp.tool()
    def add_todo(item: str) -> str:
        """Add an item to the shopping list."""
        added.append(item)
        return f"Added {item}."


@pytest.mark.usefixtures("core_components")
async def test_a_tool_that_changes_things_runs_only_when_named_or_after_a_yes(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    start_mcp_server: StartServer,
) -> None:
    """Called for words that do not say what it acts on, it asks first."""
    added: list[str] = []
    server = await start_mcp_server(extra=lambda mcp: _writer(mcp, added))
    await setup_entry(hass, mock_config_entry, [{"url": server.url, "token": None}])
    add = tool_name(server.url, "add_todo")
    llm_server.add_plan(plan(act(add, item="bleach")))

    kitchen = satellite_in(hass, "Kitchen")
    question = await converse(
        hass, mock_config_entry.entry_id, "what's on the list today?", kitchen
    )

    assert question.continue_conversation
    assert added == []
    llm_server.add_reply("Added bleach.")
    await converse(hass, mock_config_entry.entry_id, "yes", kitchen)
    assert speech(question) == "Do you want me to run “add todo”?"
    assert added == ["bleach"]

    llm_server.add_plan(plan(act(add, item="milk")))
    llm_server.add_reply("Added milk.")
    await converse(
        hass, mock_config_entry.entry_id, "add milk to the todo list", kitchen
    )
    assert added == ["bleach", "milk"]
