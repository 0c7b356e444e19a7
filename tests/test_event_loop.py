"""Nothing the integration does blocks Home Assistant's event loop.

Home Assistant's own blocking-call detection (`homeassistant.block_async_io`,
which the test harness leaves off for imports) is on, and the SDKs are
imported afresh, as in a new process: the test runs in a pytest of its own,
where `openai`, `mcp` and the integration leave `sys.modules` first (two
copies of an SDK in one process do not mix). The config flow, a set-up with
an MCP server and a model turn then run. An import on the event loop's
thread fails the test, whether HA's check catches it
(`importlib.import_module`, as the SDKs' lazy loaders call it) or it is an
`import` statement in a function.
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
import importlib.util
import logging
import os
from pathlib import Path
import sys
import threading
from typing import Any
from unittest.mock import patch

import pytest

from custom_components.intent_router.const import CONF_MCP_SERVERS, DOMAIN
from homeassistant import block_async_io
from homeassistant.components.conversation import ConversationResult
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.util import loop as loop_util

from .agents import API_KEY, agent_entity, only_agent
from .helpers import converse, plan, speech
from .home import async_setup_demo_home
from .llm_server import ScriptedLLMServer
from .test_mcp import StartServer, start_mcp_server  # noqa: F401 - a fixture

# What a new process has not imported when the integration first loads.
FRESH = ("openai", "mcp", "mcp_types", "custom_components.intent_router")
# Set in the pytest this module starts for the test that needs a fresh process.
IN_FRESH_PROCESS = "INTENT_ROUTER_FRESH_PROCESS"

type Import = Callable[..., Any]


def _fresh(name: str) -> bool:
    """Whether a module is one of those the test imports afresh."""
    return any(name == top or name.startswith(f"{top}.") for top in FRESH)


def _targets(
    name: str,
    importer: Mapping[str, Any] | None,
    fromlist: Sequence[str] | None,
    level: int,
) -> list[str]:
    """The modules an `import` statement may load, parents first."""
    package = (importer or {}).get("__package__") or ""
    absolute = (
        importlib.util.resolve_name("." * level + name, package) if level else name
    )
    parts = absolute.split(".")
    modules = [".".join(parts[: i + 1]) for i in range(len(parts))]
    return modules + [f"{absolute}.{item}" for item in fromlist or () if item != "*"]


def _guard(real: Import, loop_thread: int, loaded: list[str]) -> Import:
    """`__import__` that notes what the loop's thread loads of the fresh modules."""

    def guarded(
        name: str,
        globals: Mapping[str, Any] | None = None,  # noqa: A002 - as builtins names it
        locals: Mapping[str, Any] | None = None,  # noqa: A002
        fromlist: Sequence[str] | None = (),
        level: int = 0,
    ) -> Any:
        if threading.get_ident() != loop_thread:
            return real(name, globals, locals, fromlist, level)
        importer = str((globals or {}).get("__name__", ""))
        missing = [
            module
            for module in _targets(name, globals, fromlist, level)
            if module not in sys.modules
        ]
        result = real(name, globals, locals, fromlist, level)
        loaded.extend(
            f"{module} (imported by {importer})"
            for module in missing
            if module in sys.modules and (_fresh(module) or _fresh(importer))
        )
        return result

    return guarded


@contextmanager
def _imports_in_loop() -> Generator[list[str]]:
    """HA's blocking-call detection on, the SDKs unimported; yields loop imports.

    For a process of its own: the modules it drops stay dropped. The caller
    requests `disable_block_async_io`, which turns detection off after it.
    """
    for name in [name for name in sys.modules if _fresh(name)]:
        del sys.modules[name]
    loop_util._PREVIOUSLY_REPORTED.clear()
    with patch.object(block_async_io, "_IN_TESTS", False):
        block_async_io.enable()
    loaded: list[str] = []
    guarded = _guard(builtins.__import__, threading.get_ident(), loaded)
    with patch.object(builtins, "__import__", guarded):
        yield loaded


def _blocking_calls(caplog: pytest.LogCaptureFixture) -> list[str]:
    """HA's reports of blocking calls in the event loop by the integration.

    (The test's MCP server, in the same loop, reads its package's metadata.)
    """
    return [
        message
        for record in caplog.records
        if record.levelno >= logging.WARNING
        and "Detected blocking call" in (message := record.getMessage())
        and DOMAIN in message
    ]


@pytest.mark.timeout(300)
async def test_flow_set_up_and_a_turn_block_nothing_in_a_fresh_process() -> None:
    """The test below, in a pytest of its own: it passes there."""
    test = (
        f"{Path(__file__).name}::test_flow_set_up_and_a_turn_import_nothing_in_the_loop"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        f"tests/{test}",
        cwd=Path(__file__).parent.parent,
        env={**os.environ, IN_FRESH_PROCESS: "1"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    report = output.decode(errors="replace")
    assert process.returncode == 0, report[-4000:]
    assert "1 passed" in report


@pytest.mark.skipif(
    not os.environ.get(IN_FRESH_PROCESS), reason="needs a process of its own"
)
@pytest.mark.usefixtures("core_components", "disable_block_async_io")
async def test_flow_set_up_and_a_turn_import_nothing_in_the_loop(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    start_mcp_server: StartServer,  # noqa: F811 - the fixture
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first flow, a set-up with an MCP server and a model turn."""
    mcp_server = await start_mcp_server("streamable")
    await async_setup_demo_home(hass)
    llm_server.add_plan(plan(speech="Good evening."))

    with _imports_in_loop() as loaded_in_loop:
        result = await _async_first_hour(hass, llm_server, mcp_server.url)

    assert speech(result) == "Good evening."
    assert loaded_in_loop == []
    assert _blocking_calls(caplog) == []


async def _async_first_hour(
    hass: HomeAssistant, llm_server: ScriptedLLMServer, mcp_url: str
) -> ConversationResult:
    """The config flow, a set-up with an MCP server, then a model turn."""
    assert "openai" not in sys.modules
    flow = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_USER}
    )
    created = await hass.config_entries.flow.async_configure(
        flow["flow_id"],
        {CONF_URL: llm_server.url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: True},
    )
    assert created["type"] is FlowResultType.CREATE_ENTRY
    entry = created["result"]
    await hass.async_block_till_done(wait_background_tasks=True)
    assert entry.state is ConfigEntryState.LOADED
    subentry = only_agent(entry)
    hass.config_entries.async_update_subentry(
        entry,
        subentry,
        data={**subentry.data, CONF_MCP_SERVERS: [{"url": mcp_url, "token": None}]},
    )
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert "mcp" in sys.modules
    return await converse(hass, agent_entity(hass, entry), "good evening")
