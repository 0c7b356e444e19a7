"""What every benchmark shares: a real HA with a home and Intent Router, and a run.

The instance is the one `pytest-homeassistant-custom-component` gives tests
(`async_test_home_assistant`), used outside pytest with the same few patches
its `hass` fixture applies (no HTTP port is bound). The integration is set
up from this checkout's `custom_components/` through a config entry pointed
at `llm_url`, exactly as a user's would be; turns go through
`conversation.async_converse`, as a voice satellite's do.

Model servers: the test suite's scripted one (`scripted_server`, for runs
that need no model) and a relay to a real one that notes what the server
reports per request (`model_proxy`).

A run: the shared command-line options (`add_model_options`,
`add_entry_options`, `add_output_options`), its result files
(`ResultFiles`: `<out>/<benchmark>[-<tag>]-<time>.jsonl|json|md`, by default
in the git-ignored `bench/results/`), percentiles, Markdown tables, and `run`,
the entry point of every script.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
import contextlib
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
import json
import logging
from pathlib import Path
import subprocess
import sys
import tempfile
import time
from types import TracebackType
from typing import IO, Any, Self
from unittest.mock import patch

from aiohttp import ClientSession, ClientTimeout, web
from yarl import URL

# Home Assistant before the test harness: on import it makes `voluptuous`
# an alias of `probatio`, which must happen before anything imports it.
import homeassistant  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_test_home_assistant,
)

from custom_components.intent_router.const import (
    CONF_LOCAL_FIRST,
    CONF_TIMEOUT,
    CONF_USE_LLM,
    DOMAIN,
    EVENT_HANDLED,
    SUBENTRY_AGENT,
)
from custom_components.intent_router.core.settings import default_options
from custom_components.intent_router.data import AgentData
from homeassistant import loader
from homeassistant.components import conversation
from homeassistant.components.conversation import trace
from homeassistant.components.conversation.default_agent import (
    DefaultAgent,
    LanguageIntents,
)
from homeassistant.components.intent.const import TIMER_DATA
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigEntryState,
    ConfigSubentryData,
)
from homeassistant.const import (
    ATTR_DOMAIN,
    ATTR_ENTITY_ID,
    ATTR_SERVICE,
    ATTR_SERVICE_DATA,
    CONF_API_KEY,
    CONF_URL,
    CONF_VERIFY_SSL,
    EVENT_CALL_SERVICE,
)
from homeassistant.core import Context, Event, HomeAssistant, callback
from homeassistant.helpers import frame, intent, translation
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
from tests.llm_server import ScriptedLLMServer

from .home import BuiltHome, HomeSpec, async_build_home

# Raw result files of every run; git ignores the folder. The figures the
# READMEs quote are in bench/summaries/ (see bench/README.md).
RESULTS = Path(__file__).resolve().parent / "results"
# The entry's model timeout in benchmarks: a CPU model is slow (the
# product's default is 5 s).
BENCH_TIMEOUT = 60.0
# Domains whose actions no bench device performs: counted from service calls.
SERVICE_ONLY_DOMAINS = frozenset({"script", "scene", "vacuum", "todo"})

# Service calls of these domains are plumbing, not device actions: core's
# `homeassistant.turn_on` fans out to the domain services, recorded anyway.
NOT_DEVICE_DOMAINS = frozenset({"homeassistant", "conversation", "intent_router"})

# Entity id -> (state, attributes), as a benchmark compares them.
type States = dict[str, tuple[str, dict[str, Any]]]
# The test suite's scripted model server (`scripted_server`), by its type.
type ScriptedServer = ScriptedLLMServer


@dataclass(slots=True)
class Call:
    """One action that reached the home: service, entity and data."""

    service: str
    entity_id: str | None
    data: dict[str, Any]
    via: str  # "device" (the entity ran it) or "service" (a service call)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "service": self.service,
            "entity_id": self.entity_id,
            "data": _jsonable(self.data),
            "via": self.via,
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


@dataclass(slots=True)
class Turn:
    """What one utterance did and said."""

    speech: str
    response_type: str
    error_code: str | None
    intent_type: str | None
    source: str | None
    outcome: str | None
    latency_ms: float | None
    wall_ms: float
    prompt_tokens: int | None
    completion_tokens: int | None = None
    conversation_id: str | None = None
    calls: list[Call] = field(default_factory=list)
    service_calls: list[Call] = field(default_factory=list)
    continue_conversation: bool = False
    # The agent's debug-trace details: plan, rejection, model error, timings.
    details: list[dict[str, Any]] = field(default_factory=list)
    # Numbers the reply says that nothing in the home showed (answers.py).
    unfounded: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "speech": self.speech,
            "response_type": self.response_type,
            "error_code": self.error_code,
            "intent_type": self.intent_type,
            "source": self.source,
            "outcome": self.outcome,
            "latency_ms": self.latency_ms,
            "wall_ms": round(self.wall_ms, 1),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "conversation_id": self.conversation_id,
            "calls": [c.as_dict() for c in self.calls],
            "service_calls": [c.as_dict() for c in self.service_calls],
            "continue_conversation": self.continue_conversation,
            "details": _jsonable(self.details),
        }


def entry_options(
    model: str, *, local_first: bool, timeout: float, use_llm: bool = True
) -> dict[str, Any]:
    """The agent's options: its defaults, with the benchmark's choices.

    `use_llm=False` turns the agent's "use the language model" option off:
    Home Assistant's own sentences only.
    """
    return {
        **default_options([model]),
        CONF_TIMEOUT: timeout,
        CONF_LOCAL_FIRST: local_first,
        **({} if use_llm else {CONF_USE_LLM: False}),
    }


def the_agent(entry: ConfigEntry) -> tuple[str, AgentData]:
    """The bench entry's one agent: its subentry id and what it has at run time."""
    ((subentry_id, agent),) = entry.runtime_data.agents.items()
    return subentry_id, agent


class Instance:
    """A running HA with one home and one Intent Router entry (or none).

    `entry_id` is the agent its turns go to: Intent Router's entry, or
    `conversation.home_assistant` when it was set up without one.
    """

    def __init__(self, hass: HomeAssistant, home: BuiltHome, entry_id: str) -> None:
        """Bind to the running instance; start recording."""
        self.hass = hass
        self.home = home
        self.entry_id = entry_id
        self._calls: list[Call] = []
        self._service_calls: list[Call] = []
        self._handled: list[dict[str, Any]] = []
        hass.bus.async_listen(EVENT_CALL_SERVICE, self._on_service_call)
        hass.bus.async_listen(EVENT_HANDLED, self._on_handled)

    def record(self, service: str, entity_id: str, data: dict[str, Any]) -> None:
        """Called by the home's devices for every action that reaches them."""
        self._calls.append(Call(service, entity_id, data, "device"))

    @callback
    def _on_service_call(self, event: Event) -> None:
        domain = event.data[ATTR_DOMAIN]
        if domain in NOT_DEVICE_DOMAINS:
            return
        data = dict(event.data.get(ATTR_SERVICE_DATA) or {})
        entity_ids = data.pop(ATTR_ENTITY_ID, None)
        if isinstance(entity_ids, str):
            entity_ids = [entity_ids]
        service = f"{domain}.{event.data[ATTR_SERVICE]}"
        for entity_id in entity_ids or [None]:
            self._service_calls.append(Call(service, entity_id, data, "service"))

    @callback
    def _on_handled(self, event: Event) -> None:
        self._handled.append(dict(event.data))

    def states(self, entity_ids: Iterable[str]) -> States:
        """State and attributes of these entities, as they are now."""
        wanted = set(entity_ids)
        return {
            state.entity_id: (state.state, dict(state.attributes))
            for state in self.hass.states.async_all()
            if state.entity_id in wanted
        }

    async def async_converse(
        self,
        text: str,
        device_id: str | None,
        *,
        language: str = "en",
        agent_id: str | None = None,
        conversation_id: str | None = None,
    ) -> Turn:
        """Send one sentence as a satellite would; collect what happened.

        The agent is this instance's Intent Router unless `agent_id` names
        another (`conversation.home_assistant`). A satellite passes the
        conversation id of its previous turn, so follow-ups can use it.
        """
        self._calls.clear()
        self._service_calls.clear()
        self._handled.clear()
        trace.async_clear_traces()
        started = time.perf_counter()
        result = await conversation.async_converse(
            self.hass,
            text,
            conversation_id,
            Context(),
            language=language,
            agent_id=agent_id or self.entry_id,
            device_id=device_id,
        )
        wall_ms = (time.perf_counter() - started) * 1000
        await self.hass.async_block_till_done()
        handled = self._handled[-1] if self._handled else {}
        traces = trace.async_get_traces()
        details = (
            [
                event["data"]
                for event in traces[-1].as_dict()["events"]
                if event["event_type"] == trace.ConversationTraceEventType.AGENT_DETAIL
            ]
            if traces
            else []
        )
        response = result.response
        calls = list(self._calls)
        # Script runs and other actions no bench device performs (Home
        # Assistant's own shopping list) are known only from their service
        # calls; from a turn that ended in an error, none counts.
        device_ids = set(self.home.devices)
        failed = response.response_type is intent.IntentResponseType.ERROR
        calls.extend(
            c
            for c in self._service_calls
            if not failed
            and c.entity_id not in device_ids
            and c.service.partition(".")[0] in SERVICE_ONLY_DOMAINS
        )
        return Turn(
            speech=str(response.speech.get("plain", {}).get("speech", "")),
            response_type=str(response.response_type),
            error_code=str(response.error_code) if response.error_code else None,
            intent_type=response.intent.intent_type if response.intent else None,
            source=handled.get("source"),
            outcome=handled.get("outcome"),
            latency_ms=handled.get("latency_ms"),
            wall_ms=wall_ms,
            prompt_tokens=handled.get("prompt_tokens"),
            completion_tokens=handled.get("completion_tokens"),
            conversation_id=result.conversation_id,
            calls=calls,
            service_calls=list(self._service_calls),
            continue_conversation=result.continue_conversation,
            details=details,
        )

    async def async_start_timers(
        self, device_id: str, timers: list[dict[str, Any]]
    ) -> None:
        """Start timers (for the timer intents) as if set by voice earlier."""
        for timer in timers:
            slots = {
                unit: {"value": timer[f"start_{unit}"]}
                for unit in ("hours", "minutes", "seconds")
                if timer.get(f"start_{unit}")
            }
            if not slots:
                slots = {"minutes": {"value": 5}}
            if timer.get("name"):
                slots["name"] = {"value": timer["name"]}
            owner = (
                self.home.new_satellite(timer["area"])
                if timer.get("area")
                else device_id
            )
            await intent.async_handle(
                self.hass, "bench", intent.INTENT_START_TIMER, slots, device_id=owner
            )
            if timer.get("is_active") is False:
                await intent.async_handle(
                    self.hass,
                    "bench",
                    intent.INTENT_PAUSE_TIMER,
                    {"name": {"value": timer["name"]}} if timer.get("name") else {},
                    device_id=owner,
                )

    async def async_cancel_timers(self) -> None:
        """Cancel every timer."""
        manager = self.hass.data.get(TIMER_DATA)
        if manager is None:
            return
        for timer_id in list(manager.timers):
            manager.cancel_timer(timer_id)


# HA's own agent parses a language's sentence templates anew in every
# instance (hassil parses each template once per `Intents` object): seconds
# per home in German. A benchmark starts hundreds of instances, none with
# custom sentences, so each language is parsed once per process; the
# result is HA's own, unchanged.
_LANGUAGE_INTENTS: dict[str, LanguageIntents | None] = {}
_LOAD_INTENTS = DefaultAgent._load_intents  # noqa: SLF001 - wrapped, not changed


def _shared_load_intents(agent: DefaultAgent, language: str) -> LanguageIntents | None:
    """`DefaultAgent._load_intents`, once per language while nothing custom."""
    custom = Path(agent.hass.config.path("custom_sentences")).exists()
    configured = agent._config_intents_config.get("intents")  # noqa: SLF001
    if custom or configured:
        return _LOAD_INTENTS(agent, language)
    if language not in _LANGUAGE_INTENTS:
        _LANGUAGE_INTENTS[language] = _LOAD_INTENTS(agent, language)
    return _LANGUAGE_INTENTS[language]


@asynccontextmanager
async def async_instance(
    spec: HomeSpec,
    llm_url: str,
    options: dict[str, Any],
    *,
    api_key: str | None = None,
    router: bool = True,
) -> AsyncIterator[Instance]:
    """A fresh HA with `spec` built and Intent Router set up against `llm_url`.

    HA's `config.language` is the home's language. `router=False` leaves
    Intent Router out (turns go to HA's own agent): a quicker set-up.
    """
    with (
        tempfile.TemporaryDirectory(prefix="bench-ha-") as config_dir,
        patch("homeassistant.components.http.HomeAssistantHTTP.async_bind"),
        patch("homeassistant.components.http.HomeAssistantHTTP.start"),
        patch.object(DefaultAgent, "_load_intents", _shared_load_intents),
    ):
        async with async_test_home_assistant(config_dir=config_dir) as hass:
            frame.async_setup(hass)
            hass.config.language = spec.language
            if spec.units == "us":
                hass.config.units = US_CUSTOMARY_SYSTEM
            # Allow custom integrations, as the `enable_custom_integrations`
            # fixture does.
            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            await translation.async_load_integrations(hass, {"homeassistant"})
            assert await async_setup_component(hass, "homeassistant", {})
            assert await async_setup_component(hass, "conversation", {})
            assert await async_setup_component(hass, "intent", {})
            holder: list[Instance] = []

            def record(service: str, entity_id: str, data: dict[str, Any]) -> None:
                holder[0].record(service, entity_id, data)

            home = await async_build_home(hass, spec, record)
            # The shopping list's intents (HassShoppingListAddItem...) come
            # with its config entry, as in a default install. After the home:
            # it sets up `todo`, which must first load the home's lists.
            shopping = MockConfigEntry(domain="shopping_list")
            shopping.add_to_hass(hass)
            await hass.config_entries.async_setup(shopping.entry_id)
            if not router:
                # Its turns go to HA's own agent by default.
                instance = Instance(hass, home, conversation.HOME_ASSISTANT_AGENT)
                holder.append(instance)
                try:
                    yield instance
                finally:
                    await instance.async_cancel_timers()
                    await hass.async_stop(force=True)
                return
            entry = MockConfigEntry(
                domain=DOMAIN,
                title="bench",
                data={CONF_URL: llm_url, CONF_API_KEY: api_key, CONF_VERIFY_SSL: True},
                subentries_data=[
                    ConfigSubentryData(
                        data=options,
                        subentry_type=SUBENTRY_AGENT,
                        title="bench",
                        unique_id=None,
                    )
                ],
                version=2,
                minor_version=1,
            )
            entry.add_to_hass(hass)
            await hass.config_entries.async_setup(entry.entry_id)
            await hass.async_block_till_done()
            if entry.state is not ConfigEntryState.LOADED:
                msg = f"Intent Router did not load against {llm_url}: {entry.state}"
                raise RuntimeError(msg)
            instance = Instance(hass, home, entry.entry_id)
            holder.append(instance)
            try:
                yield instance
            finally:
                await instance.async_cancel_timers()
                await hass.config_entries.async_unload(entry.entry_id)
                await hass.async_stop(force=True)
                # Let the SDK's connections close before the loop moves on.
                await asyncio.sleep(0)


@dataclass(slots=True)
class ModelRequest:
    """One chat request to the model server, with what the server reported."""

    kind: str  # "plan" (asked for JSON) or "text"
    status: int  # 0: the integration gave up before the answer came
    wall_ms: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    # Prompt tokens the server had to evaluate: the rest came from its cache.
    processed_prompt_tokens: int | None = None
    prompt_ms: float | None = None
    generation_ms: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "kind": self.kind,
            "status": self.status,
            "wall_ms": round(self.wall_ms, 1),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "processed_prompt_tokens": self.processed_prompt_tokens,
            "prompt_ms": self.prompt_ms,
            "generation_ms": self.generation_ms,
        }

    def read(self, body: dict[str, Any]) -> None:
        """Take the counts from a chat completion's reply.

        OpenAI's `usage`, and llama.cpp's `timings`, whose `prompt_n` is the
        part of the prompt that was not in the server's cache.
        """
        usage = body.get("usage") or {}
        timings = body.get("timings") or {}
        self.prompt_tokens = usage.get("prompt_tokens")
        self.completion_tokens = usage.get("completion_tokens")
        self.prompt_ms = timings.get("prompt_ms")
        self.generation_ms = timings.get("predicted_ms")
        cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens")
        if "prompt_n" in timings:
            self.processed_prompt_tokens = timings["prompt_n"]
        elif cached is not None and self.prompt_tokens is not None:
            self.processed_prompt_tokens = self.prompt_tokens - cached


class ModelProxy:
    """Relays the integration's requests to a model server, noting each one.

    The integration reads only `usage` from a reply; how much of the prompt
    the server evaluated (its cache) is in llama.cpp's `timings`. Measuring
    between the two needs no change to the integration and costs a local hop.
    """

    def __init__(self, upstream: str) -> None:
        """Relay to `upstream` (an OpenAI-compatible base URL)."""
        self._upstream = URL(upstream)
        self.url = ""
        self.requests: list[ModelRequest] = []
        # Single-token requests that fill the server's cache (the warm-up,
        # the conversation sent ahead): no turn's, and one a newer one
        # replaced is no failure.
        self.cache_requests: list[ModelRequest] = []
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        # Requests being relayed: one the integration gave up on is noted
        # only once the proxy sees the connection close, after the turn.
        self._open = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        self._session = ClientSession(timeout=ClientTimeout(total=None))
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._relay)
        self._runner = web.AppRunner(app, handler_cancellation=True)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}{self._upstream.path.rstrip('/')}"

    async def stop(self) -> None:
        """Close the port and the upstream connections."""
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def take(self) -> list[ModelRequest]:
        """The requests since the last call (one turn's)."""
        taken, self.requests = self.requests, []
        return taken

    async def async_idle(self, timeout: float = 10.0) -> bool:
        """Wait (at most `timeout` s) until no request is being relayed.

        Call before `take` after a turn: a request the integration gave up
        on (its timeout) is noted, with status 0, only when the proxy sees
        the connection close, which may be just after the turn's answer.
        False when one was still open at the end.
        """
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        return self._idle.is_set()

    async def _relay(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        chat = request.path.endswith("/chat/completions")
        record = ModelRequest(
            kind="plan" if chat and b"response_format" in body else "text",
            status=0,
            wall_ms=0.0,
        )
        started = time.perf_counter()
        self._open += 1
        self._idle.clear()
        headers = {
            name: value
            for name, value in request.headers.items()
            if name.casefold() in {"authorization", "content-type", "accept"}
        }
        try:
            async with self._session.request(
                request.method,
                self._upstream.origin().join(request.rel_url),
                headers=headers,
                data=body,
            ) as upstream:
                reply = await upstream.read()
                record.status = upstream.status
                content_type = upstream.content_type
        finally:
            record.wall_ms = (time.perf_counter() - started) * 1000
            if chat:
                (self.cache_requests if _fills_cache(body) else self.requests).append(
                    record
                )
            self._open -= 1
            if not self._open:
                self._idle.set()
        if chat and content_type == "application/json":
            with contextlib.suppress(ValueError, AttributeError):
                record.read(json.loads(reply))
        return web.Response(body=reply, status=record.status, content_type=content_type)


def _fills_cache(body: bytes) -> bool:
    """Whether a chat request asks for one token: it only fills the cache."""
    try:
        return bool(json.loads(body).get("max_tokens") == 1)
    except ValueError, AttributeError:
        return False


@asynccontextmanager
async def model_proxy(upstream: str) -> AsyncIterator[ModelProxy]:
    """A `ModelProxy` to `upstream`, listening until the block ends."""
    proxy = ModelProxy(upstream)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()


@asynccontextmanager
async def scripted_server() -> AsyncIterator[ScriptedServer]:
    """The test suite's scripted model server (`tests/llm_server.py`).

    It answers Intent Router's set-up probe, and the plans a benchmark
    queues (`add_plan`): for runs that need no model.
    """
    server = ScriptedLLMServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


# --- a run: options, result files, figures ------------------------------------


def checkout() -> dict[str, Any]:
    """Which integration code ran: the commit, and whether it had edits."""

    def git(*args: str) -> str:
        return subprocess.run(  # noqa: S603 - fixed git arguments
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()

    return {
        "commit": git("rev-parse", "HEAD"),
        "edited": git("status", "--porcelain", "custom_components").splitlines(),
    }


def percentile(values: Iterable[float], pct: int) -> float | None:
    """Nearest-rank percentile, or None without values."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, round(pct / 100 * len(ordered)))
    return round(ordered[min(rank, len(ordered)) - 1], 1)


def spread(values: Sequence[float]) -> dict[str, Any]:
    """How many, p50 and p95."""
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
    }


def rate(hits: int, n: int, key: str = "passed") -> dict[str, Any]:
    """How many, how many were right (under `key`), and the share."""
    return {"n": n, key: hits, "accuracy": round(hits / n, 3) if n else None}


def table(
    header: Sequence[str], rows: Iterable[Sequence[Any]], align: str
) -> list[str]:
    """A Markdown table; `align` has an `l` (left) or `r` (right) per column."""
    rule = "".join("---|" if side == "l" else "---:|" for side in align)
    return [
        f"| {' | '.join(header)} |",
        f"|{rule}",
        *(f"| {' | '.join(map(str, row))} |" for row in rows),
    ]


def rate_table(title: str, rates: dict[str, Any], key: str = "passed") -> list[str]:
    """Rates by name (as `rate` makes them) as a table."""
    return table(
        [title, "n", key, "accuracy"],
        [(name, v["n"], v[key], f"{v['accuracy']:.2f}") for name, v in rates.items()],
        "lrrr",
    )


def path_table(by_source: dict[str, Any]) -> list[str]:
    """Latency by the path that answered (spreads by `source`) as a table."""
    return table(
        ["path", "turns", "p50 ms", "p95 ms"],
        [(source, v["n"], v["p50"], v["p95"]) for source, v in by_source.items()],
        "lrrr",
    )


def arguments(doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's parser, described by its docstring's first line."""
    return argparse.ArgumentParser(description=(doc or "").split("\n", 1)[0])


def add_agent_option(parser: argparse.ArgumentParser) -> None:
    """--agent: Intent Router (with a model) or Home Assistant's own agent."""
    parser.add_argument(
        "--agent",
        choices=("router", "ha"),
        default="router",
        help="Intent Router (needs --llm-url and --model) or HA's own agent",
    )


def add_model_options(
    parser: argparse.ArgumentParser, *, required: bool = False
) -> None:
    """`--llm-url` and `--model`: the model server Intent Router is pointed at."""
    parser.add_argument(
        "--llm-url", required=required, help="OpenAI-compatible base URL"
    )
    parser.add_argument("--model", required=required, help="model name on that server")


def add_entry_options(
    parser: argparse.ArgumentParser,
    *,
    local_first: bool = True,
    timeout: float = BENCH_TIMEOUT,
) -> None:
    """`--timeout` and (unless the benchmark fixes it) `--[no-]local-first`.

    The timeout's default is `BENCH_TIMEOUT` (a CPU model is slow) unless
    the benchmark measures the product as shipped (`timeout` of `Settings`).
    """
    why = "a CPU model is slow" if timeout == BENCH_TIMEOUT else "the product's"
    parser.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        help=f"the entry's model timeout in s (default {timeout:g}: {why})",
    )
    if local_first:
        parser.add_argument(
            "--local-first",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="the entry's local-first option (on by default, as in the product)",
        )


def add_output_options(
    parser: argparse.ArgumentParser, *, tag: str | None = None
) -> None:
    """`--out` (the result files' folder) and `--tag` (a part of their name)."""
    parser.add_argument(
        "--out",
        default=str(RESULTS),
        help="folder of the result files (default bench/results/, ignored by git)",
    )
    parser.add_argument("--tag", default=tag, help="name part of the result files")


class ResultFiles:
    """One run's files: `<out>/<benchmark>[-<tag>]-<time>.jsonl|json|md`.

    Rows go to the `.jsonl` as the run goes (a run that stops keeps what it
    did); `finish` writes the `.json` (meta and summary) and the `.md`
    report, and prints the report. The report starts with `header`: the
    run's command, time and commit, as `bench/summaries/` quotes it.
    """

    def __init__(
        self, benchmark: str, out: str | Path, tag: str | None = None, /, **meta: Any
    ) -> None:
        """Name the files and note the run: `meta`, time, command and checkout."""
        self.started = datetime.now(UTC)
        stamp = self.started.strftime("%Y%m%dT%H%M%SZ")
        self.name = "-".join(part for part in (benchmark, tag, stamp) if part)
        self.folder = Path(out)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.meta: dict[str, Any] = {
            **meta,
            "started": stamp,
            "command": " ".join([f"bench/{benchmark}.py", *sys.argv[1:]]),
            "checkout": checkout(),
        }
        self._rows: IO[str] | None = None

    def __enter__(self) -> Self:
        """The files, closed again when the block ends."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace_back: TracebackType | None,
    ) -> None:
        """Close the `.jsonl`."""
        if self._rows is not None:
            self._rows.close()
            self._rows = None

    def path(self, suffix: str) -> Path:
        """The file with this suffix (`.jsonl`, `.json`, `.md`)."""
        return self.folder / f"{self.name}{suffix}"

    def add(self, row: dict[str, Any], progress: str) -> None:
        """Write one row to the `.jsonl` now, and a line of progress to stderr."""
        if self._rows is None:
            self._rows = self.path(".jsonl").open("w", encoding="utf-8")
        self._rows.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._rows.flush()
        sys.stderr.write(progress + "\n")

    def header(self, title: str) -> list[str]:
        """The report's first lines: what ran, when, on which commit."""
        meta = self.meta
        edited = meta["checkout"]["edited"]
        state = (
            f"uncommitted edits of custom_components/: {', '.join(edited)}"
            if edited
            else "custom_components/ as committed"
        )
        return [
            f"## {title}: `{self.name}`",
            "",
            f"- command: `{meta['command']}`",
            (
                f"- run: {self.started:%Y-%m-%d %H:%M:%S} UTC, commit "
                f"{meta['checkout']['commit'] or 'unknown'} ({state})"
            ),
            "",
        ]

    def finish(self, summary: Any, report: str, key: str = "summary") -> None:
        """Write the `.json` (`meta` and `summary` under `key`) and the `.md`."""
        self.path(".json").write_text(
            json.dumps({"meta": self.meta, key: summary}, indent=2, ensure_ascii=False)
            + "\n",
            "utf-8",
        )
        self.path(".md").write_text(report, "utf-8")
        sys.stdout.write(report)
        sys.stderr.write(f"results: {self.path('.*')}\n")


def run(
    main: Callable[[argparse.Namespace], Coroutine[Any, Any, None]],
    args: argparse.Namespace,
) -> None:
    """A benchmark's entry point: `main(args)` with HA's logs kept quiet."""
    quiet_logs()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(args))


def quiet_logs(level: int = logging.WARNING) -> None:
    """Keep HA's start-up chatter out of a benchmark's output."""
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    for name in ("homeassistant", "custom_components", "httpx", "openai", "aiohttp"):
        logging.getLogger(name).setLevel(logging.ERROR)
    # Camera's optional JPEG library is missing in a bare venv: not our concern.
    logging.getLogger("homeassistant.components.camera").setLevel(logging.CRITICAL)
    logging.getLogger("aiohttp_fast_zlib").setLevel(logging.ERROR)
