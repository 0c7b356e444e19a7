"""What ran is in Home Assistant's chat log, as core's LLM agents record it.

Each turn's actions are tool calls with their results, then the reply, so
Assist's debug view and the conversation history show what ran, whichever
path answered; the model's request is in the turn's trace.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from custom_components.intent_router.conversation import DECISION
from homeassistant.components import conversation
from homeassistant.components.conversation import (
    AssistantContent,
    Content,
    ToolResultContent,
)
from homeassistant.components.conversation.chat_log import DATA_CHAT_LOGS
from homeassistant.core import Context, HomeAssistant

from .agents import agent_entity
from .helpers import (
    act,
    agent_details,
    async_setup_template_entity,
    plan,
    speech,
    switched_on,
)
from .home import async_setup_agent, satellite_in
from .llm_server import NEVER, ScriptedLLMServer

KITCHEN = "light.kitchen_lights"


def _log(hass: HomeAssistant, conversation_id: str | None) -> list[Content]:
    """A conversation's chat log, as HA's own chat log API reads it."""
    assert conversation_id is not None
    return list(hass.data[DATA_CHAT_LOGS][conversation_id].content)


def _turn_content(hass: HomeAssistant, conversation_id: str | None) -> list[Content]:
    """The chat log's content after the last user message."""
    content = _log(hass, conversation_id)
    last_user = max(i for i, c in enumerate(content) if c.role == "user")
    return content[last_user + 1 :]


def _calls(content: list[Content]) -> list[tuple[str, dict[str, object], bool]]:
    """Each call that ran in a turn: name, arguments, and whether it is external."""
    return [
        (call.tool_name, call.tool_args, call.external)
        for c in content
        if isinstance(c, AssistantContent)
        for call in c.tool_calls or ()
        if call.tool_name != DECISION
    ]


def _results(content: list[Content]) -> list[tuple[str, dict[str, object], bool]]:
    """Each result of a call that ran: name, data, and whether it is an error."""
    return [
        (c.tool_name, dict(c.result.data), c.result.error)
        for c in content
        if isinstance(c, ToolResultContent) and c.tool_name != DECISION
    ]


def _decision(content: list[Content]) -> dict[str, Any]:
    """How the turn was decided, as its one `intent_router.decision` call says."""
    (decided,) = [
        call.tool_args
        for c in content
        if isinstance(c, AssistantContent)
        for call in c.tool_calls or ()
        if call.tool_name == DECISION
    ]
    return dict(decided)


async def _converse(
    hass: HomeAssistant,
    agent_id: str,
    text: str,
    conversation_id: str | None = None,
    device_id: str | None = None,
) -> conversation.ConversationResult:
    return await conversation.async_converse(
        hass,
        text,
        conversation_id,
        Context(),
        language="en",
        agent_id=agent_id,
        device_id=device_id,
    )


@pytest.fixture
async def model_agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """An agent that asks the model first (HA's sentences not tried)."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: False})


async def test_a_model_turn_records_its_calls_results_and_request(
    hass: HomeAssistant, model_agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The model's plan as tool calls, each answered, then the reply."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN)))

    result = await _converse(hass, model_agent, "kitchen lights off")

    content = _turn_content(hass, result.conversation_id)
    assert _calls(content) == [("light.turn_off", {"entity_id": [KITCHEN]}, True)]
    assert _results(content) == [("light.turn_off", {"success": True}, False)]
    assert isinstance(content[-1], AssistantContent)
    assert content[-1].content == speech(result)
    call, decided, answered, _ = content
    assert isinstance(call, AssistantContent)
    assert isinstance(decided, ToolResultContent)
    assert isinstance(answered, ToolResultContent)
    # The ids tie the results to their calls.
    assert [decided.tool_call_id, answered.tool_call_id] == [
        c.id for c in call.tool_calls or ()
    ]
    (request,) = [d["model_request"] for d in agent_details() if "model_request" in d]
    assert request["messages"] == llm_server.requests[-1]["messages"]


async def test_the_decision_says_what_answered_the_plan_and_why_each_target(
    hass: HomeAssistant, model_agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The first call of a turn: the source, the options, the pick, the plan, why."""
    llm_server.add_reply('{"pick":1}')

    result = await _converse(hass, model_agent, "kitchen lights off")

    decided = _decision(_turn_content(hass, result.conversation_id))
    assert decided["source"] == "model"
    assert decided["outcome"] == "done"
    assert decided["options"] == ["Turned off Kitchen Lights."]
    assert decided["picked"] == 0
    assert decided["plan"]["actions"] == [
        {"tool": "light.turn_off", "targets": [KITCHEN], "args": {}}
    ]
    assert decided["grounded"] == {KITCHEN: "named"}
    assert "model_request" not in decided


async def test_what_the_model_added_unasked_is_not_recorded_as_run(
    hass: HomeAssistant, model_agent: str, llm_server: ScriptedLLMServer
) -> None:
    """A device the words did not ground is dropped, and not in the chat log."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": "light.bed_light"}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN, "light.bed_light")))

    result = await _converse(hass, model_agent, "kitchen lights off")

    content = _turn_content(hass, result.conversation_id)
    assert _calls(content) == [("light.turn_off", {"entity_id": [KITCHEN]}, True)]
    assert hass.states.get("light.bed_light").state == "on"


async def test_every_path_records_what_ran(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's sentences record their intent; the reading and a shortcut, the calls."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )

    # Home Assistant's own sentence: its intent call and result, once.
    local = await _converse(hass, agent_id, "turn off the kitchen lights")
    conversation_id = local.conversation_id
    content = _turn_content(hass, conversation_id)
    assert [name for name, _, _ in _calls(content)] == ["HassTurnOff"]
    assert [name for name, _, _ in _results(content)] == ["HassTurnOff"]
    assert _decision(content)["source"] == "local"

    # "undo that": a shortcut, from memory.
    await _converse(hass, agent_id, "undo that", conversation_id)
    content = _turn_content(hass, conversation_id)
    assert [(name, args["entity_id"]) for name, args, _ in _calls(content)] == [
        ("light.turn_on", [KITCHEN])
    ]
    assert hass.states.get(KITCHEN).state == "on"

    # "Too dark" is no sentence of HA's: the reading's plan (or the model's),
    # which switches a light that is off on.
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": KITCHEN}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN)))
    await _converse(hass, agent_id, "it's too dark in the kitchen", conversation_id)
    content = _turn_content(hass, conversation_id)
    assert _calls(content) == [("light.turn_on", {"entity_id": [KITCHEN]}, True)]
    assert _results(content) == [("light.turn_on", {"success": True}, False)]


async def test_an_answer_records_no_call(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A question answered ran nothing, whatever it was: the reply alone."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    llm_server.add_plan(plan(speech="Yes, the front door is locked."))

    result = await _converse(hass, agent_id, "is the front door locked?")

    content = _turn_content(hass, result.conversation_id)
    assert _calls(content) == []
    assert content[-1].content == speech(result) != ""


async def test_a_newer_turn_of_the_conversation_takes_over_without_busy(
    hass: HomeAssistant, model_agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The same device, the same conversation, the model still thinking.

    Home Assistant (2026.11 on) gives a conversation's chat log to one turn at
    a time; the newer turn supersedes ours in flight and waits for it to end,
    so the user hears no "busy", and the log holds both turns in order.
    """
    kitchen = satellite_in(hass, "Kitchen")
    await switched_on(hass, "light.bed_light")
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN)), delay=NEVER)
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))
    first = hass.async_create_task(
        _converse(hass, model_agent, "turn the kitchen lights off", "chat", kitchen)
    )
    await llm_server.wait_for_requests(1)

    second = await _converse(
        hass, model_agent, "no, the bedroom light", "chat", kitchen
    )
    superseded = await first

    assert "newer request" in speech(superseded)
    assert speech(second) == "Turned off Bed Light."
    assert hass.states.get(KITCHEN).state == "on"
    log = _log(hass, "chat")
    assert [(c.role, c.content) for c in log if c.role == "user"] == [
        ("user", "turn the kitchen lights off"),
        ("user", "no, the bedroom light"),
    ]
    replies = [c.content for c in log if isinstance(c, AssistantContent) and c.content]
    assert replies == [speech(superseded), speech(second)]


async def test_a_failed_turn_is_our_reply_in_the_log_and_the_next_one_runs(
    hass: HomeAssistant, model_agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The model server fails: the log holds the spoken reply, not an error."""
    llm_server.add_reply(None, status=500)
    llm_server.add_reply(None, status=500)
    llm_server.add_reply(None, status=500)

    failed = await _converse(hass, model_agent, "make it cosy", "chat")
    llm_server.add_plan(plan(speech="Hello."))
    greeted = await _converse(hass, model_agent, "hello", "chat")

    assert "busy" not in speech(failed)
    assert speech(failed) != ""
    assert [
        c.content for c in _log(hass, "chat") if c.role == "assistant" and c.content
    ] == [speech(failed), "Hello."]
    assert speech(greeted) == "Hello."


async def test_a_turn_with_nothing_said_adds_its_silence(
    hass: HomeAssistant, model_agent: str
) -> None:
    """Nothing said, nothing answered: an empty reply, not "(no response)"."""
    result = await _converse(hass, model_agent, "?", "chat")

    assert speech(result) == ""
    assert [(c.role, c.content) for c in _log(hass, "chat") if c.role != "system"] == [
        ("user", "?"),
        ("assistant", ""),
    ]


async def test_an_action_of_the_turn_may_route_into_its_conversation(
    hass: HomeAssistant,
    model_agent: str,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A script the turn runs says something in the same conversation: no wait.

    The turn holds the conversation's chat log; the nested turn shares it,
    as Home Assistant lets it, rather than wait for the turn that runs it.
    """
    doorbell = await async_setup_template_entity(
        hass,
        "switch",
        {
            "name": "Doorbell",
            "turn_on": {
                "action": "intent_router.route",
                "data": {
                    "agent_id": agent_entity(hass, mock_config_entry),
                    "text": "who is at the door",
                    "conversation_id": "chat",
                },
            },
            "turn_off": [],
        },
    )
    llm_server.add_plan(plan(act("switch.turn_on", doorbell)))
    llm_server.add_plan(plan(speech="Nobody."))

    async with asyncio.timeout(10):
        result = await _converse(hass, model_agent, "turn on the doorbell", "chat")

    assert speech(result) == "Turned on Doorbell."
    assert [c.content for c in _log(hass, "chat") if c.role == "user"] == [
        "turn on the doorbell",
        "who is at the door",
    ]
