"""A hostile or broken model server: odd bodies, odd headers, odd 400s, outages.

Every case goes through Home Assistant (a turn through Assist against a real
HTTP server on 127.0.0.1): the user gets a spoken reply and an event, and
nothing the server sends escapes as an exception or holds the event loop.
"""

from __future__ import annotations

from datetime import timedelta
import json
import logging
import time
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_TIMEOUT, EVENT_HANDLED
from custom_components.intent_router.core.llm_reply import (
    LLMResponseError,
    extract_json_object,
)
from custom_components.intent_router.model.llm_client import REPROBE_AFTER
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from .helpers import act, converse, plan, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer
from .test_resilience import _details

TIMEOUT = 1.5
KITCHEN_OFF = plan(act("light.turn_off", "light.kitchen_lights"))
# Braces that never close: an extraction that re-parses once per brace
# would block the loop for seconds.
UNCLOSED = '{"a":[' * 10_500


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent with local-first off, so every turn reaches the model."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT})


@pytest.fixture
async def patient_agent_id(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> str:
    """The agent with a timeout a backoff and a retry fit in on a busy machine."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: 15.0})


def _completion(content: Any, **extra: Any) -> bytes:
    """A chat completion body with any content, and any other fields."""
    return json.dumps(
        {
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}}
            ]
        }
        | extra
    ).encode()


@pytest.mark.parametrize(
    "reply",
    [
        {
            "body": b"<html><body>Welcome to nginx</body></html>",
            "content_type": "text/html",
        },
        {"body": b"upstream connect error", "content_type": "text/plain"},
        {"body": b'{"status": "ok"}'},
        {"body": b"null"},
        {"body": b'{"choices": "none"}'},
        {"body": b'{"choices": [{"text": "legacy completion"}]}'},
        {"body": _completion(42)},
        {"body": _completion({"actions": []})},
        {"content": '{"a":' + "[" * 5_000 + "]" * 5_000 + "}"},
        {"content": '{"a":' * 5_000 + "1" + "}" * 5_000},
        {"content": UNCLOSED},
    ],
    ids=[
        "html",
        "text/plain",
        "json, not a completion",
        "null",
        "choices not a list",
        "choice without a message",
        "content a number",
        "content an object",
        "deeply nested array",
        "deeply nested object",
        "63 KB of unclosed braces",
    ],
)
async def test_replies_that_are_not_plans_fall_back(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    reply: dict[str, Any],
) -> None:
    """A 200 that is not a usable chat completion: a spoken fallback and an event."""
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_reply(**reply)

    result = await converse(hass, agent_id, "kitchen lights off now")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "didn't understand the language model's answer" in speech(result)
    assert _details(result)["fallback"] == "invalid_response"
    assert [e.data["source"] for e in events] == ["fallback"]
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert len(llm_server.requests) == 1


async def test_odd_usage_does_not_spoil_a_good_plan(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Token counts the server got wrong are left out; the plan still runs."""
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_reply(body=_completion(json.dumps(KITCHEN_OFF), usage="lots"))

    await converse(hass, agent_id, "kitchen lights off now")

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert events[-1].data["prompt_tokens"] is None


def test_extraction_of_unclosed_braces_is_linear() -> None:
    """63 KB of `{"a":[` is refused in a few linear passes, not one per brace.

    Measured as this process's CPU time, with a bound a hundred times what a
    linear pass needs (a few ms) and far below the quadratic 6.5 s.
    """
    started = time.process_time()
    with pytest.raises(LLMResponseError):
        extract_json_object("Here is the plan: " + UNCLOSED)
    with pytest.raises(LLMResponseError):
        extract_json_object("{ " * 30_000)
    with pytest.raises(LLMResponseError, match="nested too deeply"):
        extract_json_object('{"a":' * 10_000 + "1" + "}" * 10_000)

    assert time.process_time() - started < 0.5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"speech": "hi"}', {"speech": "hi"}),
        ('Sure! {"speech": "hi"} Anything else?', {"speech": "hi"}),
        (
            'Use {placeholders} like so:\n```json\n{"speech": "hi"}\n```',
            {"speech": "hi"},
        ),
        ('{"broken": [} then {"speech": "hi"}', {"speech": "hi"}),
    ],
    ids=["bare", "after prose", "fenced after braces", "after a broken object"],
)
def test_extraction_finds_the_object(text: str, expected: dict[str, Any]) -> None:
    """Bare, after prose, fenced, or after a broken attempt."""
    assert extract_json_object(text) == expected


@pytest.mark.parametrize(
    ("retry_after", "requests"),
    [("NaN", 2), ("inf", 2), ("-5", 2), ("1e308", 1), ("Wed, 21 Oct 2015", 2)],
)
async def test_retry_after_is_sanitised(
    hass: HomeAssistant,
    patient_agent_id: str,
    llm_server: ScriptedLLMServer,
    retry_after: str,
    requests: int,
) -> None:
    """A Retry-After that is not a usable wait gets the usual backoff instead.

    A finite wait longer than the turn is not waited at all: a spoken
    fallback at once, after one request.
    """
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_reply(status=429, headers={"Retry-After": retry_after})
    llm_server.add_plan(KITCHEN_OFF)

    result = await converse(hass, patient_agent_id, "lights in the kitchen off for me")

    assert len(llm_server.requests) == requests
    assert len(events) == 1
    if requests == 1:
        assert "couldn't reach the language model" in speech(result)
    else:
        assert hass.states.get("light.kitchen_lights").state == "off"


def _format(llm_server: ScriptedLLMServer, index: int) -> str | None:
    """The response format type a request asked for (None: plain text)."""
    response_format = llm_server.requests[index].get("response_format")
    return response_format["type"] if response_format else None


async def test_unrelated_bad_requests_keep_the_schema(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Three 400s about other things: each turn fails once, the schema stays."""
    for _ in range(3):
        llm_server.add_reply(status=400)
        result = await converse(hass, agent_id, "lights in the kitchen off for me")
        assert "didn't understand the language model's answer" in speech(result)
    llm_server.add_plan(KITCHEN_OFF)

    await converse(hass, agent_id, "lights in the kitchen off for me")

    assert [_format(llm_server, i) for i in range(4)] == ["json_schema"] * 4
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_response_format_rejection_steps_down_then_recovers(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A rejected json_schema steps down at once, and is tried again 10 min later."""
    llm_server.rejected_formats = {"json_schema"}
    llm_server.add_plan(KITCHEN_OFF)
    await converse(hass, agent_id, "lights in the kitchen off for me")
    assert [_format(llm_server, i) for i in range(2)] == ["json_schema", "json_object"]
    assert hass.states.get("light.kitchen_lights").state == "off"

    # The server learns schemas (say, an upgrade); the step-down holds a while.
    llm_server.rejected_formats = set()
    freezer.tick(timedelta(seconds=REPROBE_AFTER - 60))
    llm_server.add_plan(plan(speech="Still object mode."))
    await converse(hass, agent_id, "hello")
    assert _format(llm_server, 2) == "json_object"

    freezer.tick(timedelta(seconds=61))
    llm_server.add_plan(plan(speech="Schema again."))
    llm_server.add_plan(plan(speech="And it stays."))
    await converse(hass, agent_id, "hello")
    await converse(hass, agent_id, "hello there")

    assert [_format(llm_server, i) for i in (3, 4)] == ["json_schema", "json_schema"]
    assert len(llm_server.requests) == 5


async def test_unavailability_is_logged_once_and_so_is_the_return(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """HA's log-when-unavailable rule: one line when it goes, one when it is back."""
    caplog.set_level(logging.INFO, logger="custom_components.intent_router")

    # With nothing scripted the server answers 500: busy, on every retry.
    for text in ("kitchen off", "lights in the kitchen off for me", "the kitchen, off"):
        result = await converse(hass, agent_id, text)
        assert "couldn't reach the language model" in speech(result)
    for _ in range(2):
        llm_server.add_plan(plan(speech="Back."))
        await converse(hass, agent_id, "are you there")

    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert sum("model server is unavailable" in m for m in messages) == 1
    assert sum("model server is back" in m for m in messages) == 1
    assert messages.index(
        next(m for m in messages if "unavailable" in m)
    ) < messages.index("The model server is back")


async def test_rejected_plans_are_a_per_turn_detail(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A model planning a service that does not exist, twice: debug, not info."""
    caplog.set_level(logging.DEBUG, logger="custom_components.intent_router")
    for _ in range(2):
        llm_server.add_plan(plan(act("light.explode", "light.kitchen_lights")))
        await converse(hass, agent_id, "make it cosy")

    rejected = [r for r in caplog.records if "Rejected a plan" in r.getMessage()]
    assert len(rejected) == 2
    assert all(r.levelno == logging.DEBUG for r in rejected)
    assert hass.states.get("light.kitchen_lights").state == "on"
