"""Tools of MCP servers, offered to the model as `mcp.<server>.<tool>`.

The only module that imports `mcp`; it is loaded only when a server is
configured. Each server is asked for its tools at set-up and every
REFRESH_INTERVAL, over streamable HTTP, falling back to SSE (as core's `mcp`
integration does). A server that is down or refuses its token loses its
tools, and nothing else does; a repair issue says which server and why, and
goes away once the server answers again.

A plan's arguments are checked against the tool's JSON input schema before
anything is sent, with `jsonschema` (a dependency of `mcp` itself), and each
call has its own timeout. The tool's text comes back as data for the second,
short model call to phrase (docs/design.md, step 11).

Both SDK majors work: mcp 1 (HA 2026.10's, httpx) and mcp 2 (2026.11's,
httpx2, snake_case fields, an `MCPError` for an HTTP error). Tools and results
are read in the protocol's own JSON names, and a refused request is an HTTP
error again (as in core's `mcp`): a 401 names the token, a 404/405 means SSE.

`<server>` is the URL's host and port as a slug: http://192.168.1.5:8000/mcp
is `192_168_1_5_8000`, https://tools.example.com/mcp is `tools_example_com`.
A second server on the same host and port gets `_2`, and so on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from enum import StrEnum
from http import HTTPStatus
import json
from typing import Any
from urllib.parse import urlsplit

import jsonschema
from jsonschema.exceptions import best_match
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import PaginatedRequestParams
from pydantic import BaseModel
from referencing.exceptions import Unresolvable

from homeassistant.config_entries import ConfigSubentry
from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.httpx_client import SERVER_SOFTWARE, USER_AGENT
from homeassistant.util import slugify
from homeassistant.util.ssl import SSL_ALPN_HTTP11, SSLCipherList, client_context

try:  # mcp 1, over httpx
    import httpx
    from mcp import McpError as MCPError
except ImportError:  # mcp 2, over httpx2 (HA 2026.11 imports httpx as httpx2)
    import httpx2 as httpx  # type: ignore[no-redef]
    from mcp import MCPError  # type: ignore[attr-defined, no-redef]

from .const import DOMAIN, LOGGER
from .core.records import Action, EntityInfo
from .core.safety import is_denied
from .core.settings import McpServerConfig
from .core.speech import phrase
from .data import IntentRouterConfigEntry
from .deciding.plan import PlanError, Rejection
from .home.issues import async_warn, async_withdraw
from .home.outage import Outage
from .home.tools import HomeView, ToolRun
from .language import words

REFRESH_INTERVAL = timedelta(minutes=10)
# Connecting to one server and listing its tools, at set-up and on refresh.
LIST_TIMEOUT = 10.0
# A server that pages its tool list forever is cut off after this many pages.
MAX_LIST_PAGES = 10
# httpx's own limits; the asyncio timeouts (listing, each call) come first.
HTTP_TIMEOUT = httpx.Timeout(10.0, read=300.0)
MAX_DESCRIPTION_CHARS = 200
MAX_ERROR_CHARS = 200

# What can go wrong between us and a server. anyio task groups inside the
# transports wrap whatever a server makes them raise in an ExceptionGroup.
CONNECTION_ERRORS = (TimeoutError, ExceptionGroup, httpx.HTTPError, MCPError)
# The statuses that tell a streamable HTTP request to an SSE-only server.
SSE_ONLY = (HTTPStatus.NOT_FOUND, HTTPStatus.METHOD_NOT_ALLOWED)


class Problem(StrEnum):
    """Why a server's tools are missing (the repair issue's translation key)."""

    UNAVAILABLE = "mcp_server_unavailable"
    UNAUTHORIZED = "mcp_server_unauthorized"


class McpServerError(Exception):
    """A server could not be reached, refused us, or broke the protocol."""

    def __init__(self, problem: Problem, reason: str) -> None:
        """Keep the problem and a short reason (never a URL or a token)."""
        super().__init__(reason)
        self.problem = problem
        self.reason = reason


def _leaf(err: BaseException) -> BaseException:
    """The first real error inside (nested) exception groups."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return err


def _classify(err: BaseException) -> McpServerError:
    """Name what went wrong, without the URL (which may hold a token)."""
    err = _leaf(err)
    if isinstance(err, httpx.HTTPStatusError):
        status = err.response.status_code
        if status in (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN):
            return McpServerError(Problem.UNAUTHORIZED, f"HTTP {status}")
        return McpServerError(Problem.UNAVAILABLE, f"HTTP {status}")
    if isinstance(err, TimeoutError | httpx.TimeoutException):
        return McpServerError(Problem.UNAVAILABLE, "timeout")
    if isinstance(err, httpx.HTTPError):
        return McpServerError(Problem.UNAVAILABLE, "cannot connect")
    if isinstance(err, MCPError):
        return McpServerError(Problem.UNAVAILABLE, f"MCP error: {err.error.message}")
    return McpServerError(Problem.UNAVAILABLE, type(err).__name__)


def server_names(urls: Iterable[str]) -> list[str]:
    """The `<server>` part of tool names: host and port as a slug, unique."""
    names: list[str] = []
    for url in urls:
        parts = urlsplit(url)
        host = parts.hostname or "server"
        base = slugify(f"{host}_{parts.port}" if parts.port else host)
        name, count = base, 1
        while name in names:
            count += 1
            name = f"{base}_{count}"
        names.append(name)
    return names


def _wire(model: BaseModel) -> dict[str, Any]:
    """An SDK object as the protocol's JSON names it (`inputSchema`, `isError`)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def _raise_on_post_error(response: httpx.Response) -> None:
    """A refused request is an HTTP error (mcp 2 would make it an MCP error)."""
    if response.request.method == "POST":
        response.raise_for_status()


def _public_url(url: str) -> str:
    """The URL without credentials or query, for repair issues."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


class McpServer:
    """One configured server: its tools, and sessions for listing and calls."""

    def __init__(
        self,
        hass: HomeAssistant,
        agent: ConfigSubentry,
        name: str,
        url: str,
        token: str | None,
    ) -> None:
        """Prepare the server's HTTP client; nothing is sent yet."""
        self._hass = hass
        self._agent = agent
        self.name = name
        self.url = url
        self.tools: dict[str, McpTool] = {}
        self.problem: McpServerError | None = None
        # The server and its tool calls failing, each logged once per outage.
        self._listing = Outage(
            f"MCP server {name}", "its tools are left out until it answers"
        )
        self._calls = Outage(
            f"MCP server {name}'s tool calls", "its tools fail until it answers"
        )
        # None until a transport has worked; then whether it was SSE.
        self._sse: bool | None = None
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}

    @property
    def issue_id(self) -> str:
        """The repair issue of this server of this agent."""
        return f"mcp_{self._agent.subentry_id}_{self.name}"

    def _client(
        self,
        headers: dict[str, str] | None = None,
        timeout: httpx.Timeout | None = None,
        auth: httpx.Auth | None = None,
    ) -> httpx.AsyncClient:
        """A client for one session, of the SDK's httpx, closed when it ends.

        As core's `mcp` makes its own: HA's SSL context (no disk read in the
        loop) and user agent; our timeouts, not the SSE transport's.
        """
        return httpx.AsyncClient(
            verify=client_context(SSLCipherList.PYTHON_DEFAULT, SSL_ALPN_HTTP11),
            headers={USER_AGENT: SERVER_SOFTWARE, **self._headers, **(headers or {})},
            timeout=HTTP_TIMEOUT,
            follow_redirects=True,
            event_hooks={"response": [_raise_on_post_error]},
        )

    async def _async_session[T](
        self, work: Callable[[ClientSession], Awaitable[T]]
    ) -> T:
        """Run `work` in a new session: streamable HTTP, else SSE (remembered)."""
        if not self._sse:
            started = False
            try:
                async with (
                    self._client() as http,
                    # mcp 1 adds a third item (the session id), mcp 2 does not.
                    streamable_http_client(self.url, http_client=http) as streams,
                    ClientSession(streams[0], streams[1]) as session,
                ):
                    await session.initialize()
                    started = True
                    self._sse = False
                    return await work(session)
            except (ExceptionGroup, httpx.HTTPStatusError, MCPError) as err:
                # 404 or 405 (or an MCP error from a proxy) at the handshake:
                # an SSE-only server, by the MCP transport compatibility rules.
                error = _leaf(err)
                legacy = isinstance(error, MCPError) or (
                    isinstance(error, httpx.HTTPStatusError)
                    and error.response.status_code in SSE_ONLY
                )
                if started or self._sse is False or not legacy:
                    raise
                LOGGER.debug("MCP server %s: trying SSE", self.name)
        async with (
            sse_client(self.url, httpx_client_factory=self._client) as streams,
            ClientSession(*streams) as session,
        ):
            await session.initialize()
            self._sse = True
            return await work(session)

    async def async_refresh(self) -> None:
        """List the tools; when that fails, drop them and raise a repair issue."""
        try:
            async with asyncio.timeout(LIST_TIMEOUT):
                listed = await self._async_session(_async_list_tools)
        except CONNECTION_ERRORS as err:
            self._set_problem(_classify(err))
            return
        # Names the validator would refuse (restart, reload...) are not offered.
        self.tools = {
            tool.name: tool
            for remote in listed
            if (tool := McpTool.from_remote(self, remote)) is not None
            and not is_denied(tool.name)
        }
        self._set_problem(None)

    def _set_problem(self, problem: McpServerError | None) -> None:
        """Log it once per outage, and keep the repair issue in step."""
        self.problem = problem
        if problem is None:
            self._listing.answered()
            self.async_remove_issue()
            return
        self.tools = {}
        self._listing.failed(problem.reason)
        # The token is an option of this agent, not its credentials, so a
        # refusal is a repair issue pointing at the options, not a reauth.
        async_warn(
            self._hass,
            self.issue_id,
            problem.problem,
            {
                "agent": self._agent.title,
                "server": self.name,
                "url": _public_url(self.url),
                "reason": problem.reason,
            },
        )

    @callback
    def async_remove_issue(self) -> None:
        """Withdraw the server's repair issue, if there is one."""
        async_withdraw(self._hass, self.issue_id)

    async def async_call(
        self, tool: str, args: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        """The tool's result (in wire names) within `timeout` s, or McpServerError."""

        async def call(session: ClientSession) -> dict[str, Any]:
            return _wire(await session.call_tool(tool, args))

        try:
            async with asyncio.timeout(timeout):
                result = await self._async_session(call)
        except CONNECTION_ERRORS as err:
            failure = _classify(err)
            self._calls.failed(failure.reason)
            raise failure from err
        self._calls.answered()
        return result


async def _async_list_tools(session: ClientSession) -> list[dict[str, Any]]:
    """Every tool the server lists (in wire names), page by page (within reason)."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_LIST_PAGES):
        page = _wire(
            await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
        )
        tools.extend(page["tools"])
        if not (cursor := page.get("nextCursor")):
            break
    return tools


class McpTool:
    """One tool of one server, as the catalog, the validator and executor see it."""

    def __init__(
        self,
        server: McpServer,
        remote: dict[str, Any],
        validator: jsonschema.protocols.Validator,
    ) -> None:
        """Bind the remote tool (as listed) to its server and its validator."""
        self.remote_name: str = remote["name"]
        self.name = f"mcp.{server.name}.{self.remote_name}"
        self.kind: str | None = None
        self.spoken_name: str = remote.get("title") or self.remote_name.replace(
            "_", " "
        )
        # A tool that may change things acts on what its name says.
        read_only = (remote.get("annotations") or {}).get("readOnlyHint")
        self.subject: frozenset[str] | None = (
            None if read_only else frozenset(words(self.spoken_name))
        )
        self._server = server
        self._remote = remote
        self._validator = validator

    @classmethod
    def from_remote(cls, server: McpServer, remote: dict[str, Any]) -> McpTool | None:
        """The tool, or None (logged) when its input schema is not valid."""
        schema = remote["inputSchema"]
        validator_class = jsonschema.validators.validator_for(schema)
        try:
            validator_class.check_schema(schema)
        except jsonschema.SchemaError as err:
            LOGGER.warning(
                "MCP server %s: tool %s left out, its input schema is invalid: %s",
                server.name,
                remote["name"],
                err.message,
            )
            return None
        return cls(server, remote, validator_class(schema))

    def describe(self) -> str:
        """`mcp.server.tool(arg: type, optional?: type): description`."""
        schema = self._remote["inputSchema"]
        required = set(schema.get("required") or ())
        args = ", ".join(
            f"{name}{'' if name in required else '?'}: {_type_text(spec)}"
            for name, spec in (schema.get("properties") or {}).items()
        )
        description = " ".join((self._remote.get("description") or "").split())
        if len(description) > MAX_DESCRIPTION_CHARS:
            description = f"{description[: MAX_DESCRIPTION_CHARS - 3]}..."
        return f"{self.name}({args}): {description}"

    def validate(self, action: Action, home: HomeView) -> Action:
        """Refuse targets (tools act outside HA) and schema-invalid arguments."""
        if action.targets:
            raise PlanError(Rejection.INVALID_ARGS, f"{self.name} takes no targets")
        try:
            error = best_match(self._validator.iter_errors(action.args))
        except Unresolvable as err:
            # A $ref to elsewhere: nothing is fetched, and nothing is sent.
            raise PlanError(Rejection.INVALID_ARGS, f"{self.name}: {err}") from err
        if error is not None:
            raise PlanError(Rejection.INVALID_ARGS, f"{self.name}: {error.message}")
        return action

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """Call the tool; its text is data for the reply, its failure is spoken."""
        try:
            result = await self._server.async_call(
                self.remote_name, action.args, timeout
            )
        except McpServerError as err:
            LOGGER.debug("MCP tool %s failed: %s", self.name, err.reason)
            key = "mcp_tool_timeout" if err.reason == "timeout" else "mcp_tool_failed"
            return ToolRun(error=err.reason, speech=phrase(key, tool=self.spoken_name))
        text = _result_text(result)
        if result.get("isError"):
            message = text[:MAX_ERROR_CHARS] or "?"
            return ToolRun(
                error="tool_error",
                speech=phrase("mcp_tool_error", tool=self.spoken_name, message=message),
            )
        return ToolRun(result=text)


def _type_text(spec: Any) -> str:
    """A JSON schema property in a word or two: `integer`, `"a"/"b"`."""
    if not isinstance(spec, Mapping):
        return "any"
    if "enum" in spec:
        return "/".join(json.dumps(value) for value in spec["enum"])
    kind = spec.get("type", "any")
    if isinstance(kind, list):
        return "|".join(str(item) for item in kind)
    if kind == "array" and isinstance(items := spec.get("items"), Mapping):
        return f"list of {_type_text(items)}"
    return str(kind)


def _result_text(result: dict[str, Any]) -> str:
    """What the tool said: its text blocks, else its structured content."""
    texts = [
        block["text"]
        for block in result.get("content") or ()
        if block.get("type") == "text"
    ]
    if texts:
        return "\n".join(texts).strip()
    if (structured := result.get("structuredContent")) is not None:
        return json.dumps(structured, default=str)
    return ""


class McpToolSource:
    """The configured servers, as one source of tools for each turn."""

    def __init__(self, servers: list[McpServer]) -> None:
        """Serve the tools of these servers."""
        self.servers = servers

    def tools(self, exposed: Mapping[str, EntityInfo]) -> Iterable[McpTool]:
        """The tools of the servers that answered at their last listing."""
        return [tool for server in self.servers for tool in server.tools.values()]

    async def async_refresh(self) -> None:
        """List every server's tools at once; each within its own timeout."""
        await asyncio.gather(*(server.async_refresh() for server in self.servers))

    @callback
    def async_remove_issues(self) -> None:
        """Drop the servers' repair issues (the entry unloads or reloads)."""
        for server in self.servers:
            server.async_remove_issue()


async def async_setup_mcp(
    hass: HomeAssistant,
    entry: IntentRouterConfigEntry,
    agent: ConfigSubentry,
    configured: Sequence[McpServerConfig],
) -> McpToolSource:
    """Connect to the agent's servers, list their tools and keep them fresh."""
    names = server_names([server.url for server in configured])
    source = McpToolSource(
        [
            McpServer(hass, agent, name, server.url, server.token)
            for name, server in zip(names, configured, strict=True)
        ]
    )
    entry.async_on_unload(source.async_remove_issues)
    await source.async_refresh()

    @callback
    def refresh(now: datetime) -> None:
        entry.async_create_background_task(
            hass, source.async_refresh(), f"{DOMAIN} MCP tools refresh"
        )

    entry.async_on_unload(
        async_track_time_interval(
            hass, refresh, REFRESH_INTERVAL, cancel_on_shutdown=True
        )
    )
    return source
