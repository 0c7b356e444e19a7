"""Never stuck: local-first, the fallback chain, retries, cancellation, limits."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.intent_router.const import (
    CONF_LOCAL_FIRST,
    CONF_TIMEOUT,
    CONF_USE_LLM,
    DOMAIN,
    EVENT_HANDLED,
    RATE_LIMIT_PER_MINUTE,
)
from homeassistant.components import conversation
from homeassistant.const import CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent
from homeassistant.setup import async_setup_component

from .agents import API_KEY, agent_data, agent_diagnostics
from .helpers import act, converse, plan, speech, switched_on
from .home import async_setup_agent, satellite_in
from .llm_server import NEVER, ScriptedLLMServer

# Generous where the timeout is not what is tested, so a busy machine cannot
# turn a working turn into a timeout; where it is tested, a short one and a
# server that never answers.
TIMEOUT = 30.0
SHORT_TIMEOUT = 1.5
# Spare time for the spoken fallback after the timeout (the promise is one
# second; the rest is room for a loaded test machine).
FALLBACK_SLACK = 2.5


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent with local-first off, so every turn reaches the model."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT})


@pytest.fixture
async def short_agent_id(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> str:
    """The agent with a short timeout, for the tests of the timeout itself."""
    return await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: SHORT_TIMEOUT}
    )


async def _timed(
    hass: HomeAssistant, agent_id: str, text: str, device_id: str | None = None
) -> tuple[conversation.ConversationResult, float]:
    started = time.monotonic()
    result = await converse(hass, agent_id, text, device_id)
    return result, time.monotonic() - started


async def test_slow_model_falls_back_within_the_timeout(
    hass: HomeAssistant, short_agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Past the timeout, a spoken explanation comes right after it."""
    llm_server.add_plan(plan(speech="too late"), delay=NEVER)

    result, elapsed = await _timed(hass, short_agent_id, "make it cosy in here")

    assert elapsed < SHORT_TIMEOUT + FALLBACK_SLACK
    assert "took too long" in speech(result)
    assert _details(result)["fallback"] == "timeout"


async def test_slow_model_falls_back_to_local_intents(
    hass: HomeAssistant, short_agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A sentence HA knows still works when the model is too slow."""
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_plan(plan(speech="too late"), delay=NEVER)

    result, elapsed = await _timed(hass, short_agent_id, "turn off the kitchen lights")

    assert elapsed < SHORT_TIMEOUT + FALLBACK_SLACK
    assert hass.states.get("light.kitchen_lights").state == "off"
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    # HA's sentences answered: the source says so; why the model was not
    # heard is the trace's.
    assert events[-1].data["source"] == "local"
    assert _details(result)["fallback"] == "timeout"


async def test_server_error_is_retried(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A 500 then a plan: the retry acts, within the budget."""
    llm_server.add_reply(status=500)
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, "turn the kitchen lights off")

    assert len(llm_server.requests) == 2
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_rate_limit_honours_retry_after(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A 429 with a Retry-After that fits is waited out, then retried."""
    llm_server.add_reply(status=429, headers={"Retry-After": "0.4"})
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    _, elapsed = await _timed(hass, agent_id, "turn the kitchen lights off")

    assert len(llm_server.requests) == 2
    assert elapsed >= 0.4
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_retry_after_beyond_the_budget_is_not_waited(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A Retry-After longer than the budget ends the attempt at once."""
    llm_server.add_reply(status=429, headers={"Retry-After": "300"})

    result = await converse(hass, agent_id, "kitchen off please")

    assert len(llm_server.requests) == 1
    assert "couldn't reach" in speech(result)


async def test_auth_error_is_not_retried_and_starts_reauth(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A 401 is final: one request, a reauth flow, a spoken explanation."""
    llm_server.add_reply(status=401)

    result = await converse(hass, agent_id, "kitchen off please")

    assert len(llm_server.requests) == 1
    assert [
        f["context"]["source"] for f in hass.config_entries.flow.async_progress()
    ] == ["reauth"]
    assert result.response.response_type is intent.IntentResponseType.ERROR


async def test_other_client_errors_are_not_retried(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A 404 (say, a model the server does not have) is not retried."""
    llm_server.add_reply(status=404)

    result = await converse(hass, agent_id, "kitchen off please")

    assert len(llm_server.requests) == 1
    assert "didn't understand" in speech(result)


async def test_connection_refused(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The server went away after set-up: a quick, spoken explanation."""
    await llm_server.stop()

    result = await converse(hass, agent_id, "make it cosy in here")

    assert "couldn't reach the language model" in speech(result)
    assert _details(result)["fallback"] == "connection"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ({"body": b'{"choices": [{"message": {"content": "{"'}, "invalid_response"),
        ({"body": b"<html>Bad gateway</html>"}, "invalid_response"),
        (
            {"content": '{"do": ["turn_off light.kitchen'},
            "invalid_response",
        ),
        ({"content": "x" * 2_000_000}, "invalid_response"),
        ({"body": b"[" * 2_000_000}, "invalid_response"),
        (
            {"content": '{"do": ["turn_off light.nope"], "c": 9}'},
            "unknown_entity",
        ),
    ],
    ids=[
        "malformed",
        "not json",
        "truncated",
        "2 MB content",
        "2 MB body",
        "unknown entity",
    ],
)
async def test_unusable_replies_fall_back(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    reply: dict[str, Any],
    reason: str,
) -> None:
    """Whatever the server sends, the user gets a short reply and nothing runs."""
    llm_server.add_reply(**reply)

    result = await converse(hass, agent_id, "kitchen lights off now")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert _details(result)["fallback"] == reason
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert len(llm_server.requests) == 1


async def test_local_first_needs_no_model_and_is_remembered(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """An exact HA sentence runs locally; undo works on it afterwards."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT, CONF_LOCAL_FIRST: True}
    )
    device = satellite_in(hass, "Kitchen")
    events = async_capture_events(hass, EVENT_HANDLED)

    await converse(hass, agent_id, "turn off the kitchen lights", device)
    assert hass.states.get("light.kitchen_lights").state == "off"
    assert events[-1].data["source"] == "local"

    await converse(hass, agent_id, "undo", device)

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []
    turns = agent_data(mock_config_entry).context.recent(device)
    assert turns[0].actions[0].tool == "light.turn_off"
    assert turns[0].source == "local"


async def test_local_turn_resolves_a_model_follow_up(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A follow-up after a local turn: the model sees what the local turn did."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT, CONF_LOCAL_FIRST: True}
    )
    device = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))

    await converse(hass, agent_id, "turn off the kitchen lights", device)
    # Words the reading leaves open ("gently"), so the model plans.
    await converse(hass, agent_id, "do the same in the bedroom, gently", device)

    assert "Did: turn_off light.kitchen_lights" in str(llm_server.requests[0])
    assert hass.states.get("light.bed_light").state == "off"


async def test_without_the_model_only_local_sentences_work(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The instant rollback: "use the language model" off means local only."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT, CONF_USE_LLM: False}
    )

    await converse(hass, agent_id, "turn off the kitchen lights")
    result = await converse(hass, agent_id, "make it cosy in here")

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert "language model is switched off" in speech(result)
    assert llm_server.requests == []


async def test_newer_utterance_cancels_the_waiting_one(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A second command from the same device supersedes the first."""
    device = satellite_in(hass, "Kitchen")
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights")), delay=NEVER
    )
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))
    await switched_on(hass, "light.bed_light")

    first = hass.async_create_task(
        converse(hass, agent_id, "turn the kitchen lights off", device)
    )
    await llm_server.wait_for_requests(1)
    second = await converse(hass, agent_id, "no, the bedroom light", device)
    first_result = await first

    assert "newer request" in speech(first_result)
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert hass.states.get("light.bed_light").state == "off"
    assert speech(second) == "Turned off Bed Light."
    texts = [t.text for t in mock_turns(hass, device)]
    assert texts == ["no, the bedroom light"]


def mock_turns(hass: HomeAssistant, key: str) -> list[Any]:
    """The turns the only loaded entry remembers for a key."""
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    return list(agent_data(entry).context.recent(key))


async def test_many_devices_at_once(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """50 utterances over 10 devices talking at once: all answered, none mixed.

    Each device speaks its five in turn (a device waiting on the model is
    superseded by its own next utterance, tested above); the ten devices
    overlap, so their turns interleave at the model server and the store.
    """
    devices = [satellite_in(hass, f"Room {i}") for i in range(10)]
    for _ in range(50):
        llm_server.add_plan(plan(speech="OK."), delay=0.02)

    async def talk(d: int, device: str) -> list[str]:
        return [
            speech(await converse(hass, agent_id, f"note {d} {n}", device))
            for n in range(5)
        ]

    spoken = await asyncio.gather(*(talk(d, dev) for d, dev in enumerate(devices)))

    assert spoken == [["OK."] * 5] * 10
    assert len(llm_server.requests) == 50
    for d, device in enumerate(devices):
        assert [t.text for t in mock_turns(hass, device)] == [
            f"note {d} {n}" for n in range(5)
        ]


async def test_rate_limit_per_device(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """More than the per-minute limit from one device gets a clear reply."""
    device, other = satellite_in(hass, "Kitchen"), satellite_in(hass, "Bedroom")
    for _ in range(RATE_LIMIT_PER_MINUTE + 1):
        llm_server.add_plan(plan(speech="OK."))
    for n in range(RATE_LIMIT_PER_MINUTE):
        await converse(hass, agent_id, f"hello {n}", device)

    limited = await converse(hass, agent_id, "hello again", device)
    other_device = await converse(hass, agent_id, "hello", other)

    assert "a lot of requests" in speech(limited)
    assert speech(other_device) == "OK."
    assert len(llm_server.requests) == RATE_LIMIT_PER_MINUTE + 1


async def test_events_and_diagnostics_hold_no_key_and_no_text(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_client: ClientSessionGenerator,
) -> None:
    """What the user said and the API key never leave the agent."""
    assert await async_setup_component(hass, "diagnostics", {})
    events = async_capture_events(hass, EVENT_HANDLED)
    spoken_text = "turn off the kitchen lights for grandma's visit"
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), confidence=0.9),
        usage=(321, 45),
    )

    await converse(hass, agent_id, spoken_text)

    event = events[-1].data
    assert event["text_length"] == len(spoken_text)
    assert event["source"] == "model"
    assert event["outcome"] == "done"
    assert event["tools"] == ["light.turn_off"]
    assert event["confidence"] == 0.9
    assert (event["prompt_tokens"], event["completion_tokens"]) == (321, 45)
    assert event["latency_ms"] > 0
    diagnostics = await get_diagnostics_for_config_entry(
        hass, hass_client, mock_config_entry
    )
    for blob in (str(event), str(diagnostics)):
        assert API_KEY not in blob
        assert "grandma" not in blob
    agent = agent_diagnostics(diagnostics, mock_config_entry)
    assert agent["turns"]["counters"]["turns"] == 1
    assert agent["context"] == {"keys": 1, "turns": 1}
    assert set(agent["turns"]["latency_ms"]) == {"p50", "p95"}


def _details(result: conversation.ConversationResult) -> dict[str, Any]:
    """The merged agent details of the last turn's debug trace."""
    last = conversation.trace.async_get_traces()[-1].as_dict()
    merged: dict[str, Any] = {}
    for event in last["events"]:
        if event["event_type"] == "agent_detail":
            merged.update(event["data"])
    return merged


async def test_info_logs_hold_no_key_and_no_text(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At INFO and above the integration logs classes of failure, not content."""
    caplog.set_level(logging.INFO, logger="custom_components.intent_router")
    llm_server.add_reply(status=500)
    llm_server.add_reply(status=500)
    llm_server.add_reply(status=500)
    llm_server.add_plan(plan(act("light.turn_off", "light.secret_lamp")))
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    for text in ("whisper alpha", "whisper bravo", "whisper charlie"):
        await converse(hass, agent_id, text)

    ours = [r for r in caplog.records if r.name.startswith("custom_components")]
    assert any(r.levelno == logging.INFO for r in ours)
    logged = "\n".join(r.getMessage() for r in ours if r.levelno >= logging.INFO)
    assert "whisper" not in logged
    assert API_KEY not in logged


async def test_local_light_set_is_remembered_with_its_value(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A local brightness change is stored as the service call; undo reverts it."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT, CONF_LOCAL_FIRST: True}
    )
    device = satellite_in(hass, "Kitchen")
    before = hass.states.get("light.kitchen_lights").attributes["brightness"]

    await converse(hass, agent_id, "set the kitchen lights to 20%", device)
    assert hass.states.get("light.kitchen_lights").attributes["brightness"] == 51
    action = mock_turns(hass, device)[0].actions[0]
    assert (action.tool, action.args) == ("light.turn_on", {"brightness_pct": 20})

    await converse(hass, agent_id, "undo that", device)

    assert hass.states.get("light.kitchen_lights").attributes["brightness"] == before
    assert llm_server.requests == []


async def test_diagnostics_redact_url_credentials(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_client: ClientSessionGenerator,
) -> None:
    """user:password in the server URL is not shown."""
    url = llm_server.url.replace("http://", "http://me:hunter2@")
    hass.config_entries.async_update_entry(
        mock_config_entry, data={**mock_config_entry.data, CONF_URL: url}
    )
    await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT})
    assert await async_setup_component(hass, "diagnostics", {})

    diagnostics = await get_diagnostics_for_config_entry(
        hass, hass_client, mock_config_entry
    )

    assert "hunter2" not in str(diagnostics)
    assert diagnostics["entry"]["data"][CONF_URL].startswith(
        "http://**REDACTED**@127.0.0.1:"
    )


async def test_a_local_match_that_fails_goes_to_the_model(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA matches a sentence but cannot handle it: the model gets its turn."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_TIMEOUT: TIMEOUT, CONF_LOCAL_FIRST: True}
    )
    # A shopping-list sentence with no shopping list set up: HA raises.
    llm_server.add_plan(plan(speech="Sorry, I can't help with that."))

    result = await converse(hass, agent_id, "add apples to my shopping list")

    assert speech(result) == "Sorry, I can't help with that."
    assert len(llm_server.requests) == 1
