"""What ran is in Home Assistant's chat log, as core's LLM agents record it.

Each turn's actions are tool calls with their results, then the reply, so
Assist's debug view and the conversation history show what ran, whichever
path answered; the model's request is in the turn's trace.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components import conversation
from homeassistant.components.conversation import (
    AssistantContent,
    Content,
    ToolResultContent,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session

from .helpers import act, agent_details, plan, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer

KITCHEN = "light.kitchen_lights"


def _turn_content(hass: HomeAssistant, conversation_id: str | None) -> list[Content]:
    """The chat log's content after the last user message."""
    assert conversation_id is not None
    with (
        chat_session.async_get_chat_session(hass, conversation_id) as session,
        conversation.async_get_chat_log(hass, session) as chat_log,
    ):
        content = list(chat_log.content)
    last_user = max(i for i, c in enumerate(content) if c.role == "user")
    return content[last_user + 1 :]


def _calls(content: list[Content]) -> list[tuple[str, dict[str, object], bool]]:
    """Each tool call of a turn: name, arguments, and whether it is external."""
    return [
        (call.tool_name, call.tool_args, call.external)
        for c in content
        if isinstance(c, AssistantContent)
        for call in c.tool_calls or ()
    ]


def _results(content: list[Content]) -> list[tuple[str, dict[str, object], bool]]:
    """Each tool result of a turn: name, data, and whether it is an error."""
    return [
        (c.tool_name, dict(c.result.data), c.result.error)
        for c in content
        if isinstance(c, ToolResultContent)
    ]


async def _converse(
    hass: HomeAssistant, agent_id: str, text: str, conversation_id: str | None = None
) -> conversation.ConversationResult:
    return await conversation.async_converse(
        hass, text, conversation_id, Context(), language="en", agent_id=agent_id
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
    call, answered, _ = content
    assert isinstance(call, AssistantContent)
    assert isinstance(answered, ToolResultContent)
    # The id ties the result to its call.
    assert [answered.tool_call_id] == [c.id for c in call.tool_calls or ()]
    (request,) = [d["model_request"] for d in agent_details() if "model_request" in d]
    assert request["messages"] == llm_server.requests[-1]["messages"]


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

    # "undo that": a shortcut, from memory.
    await _converse(hass, agent_id, "undo that", conversation_id)
    content = _turn_content(hass, conversation_id)
    assert [(name, args["entity_id"]) for name, args, _ in _calls(content)] == [
        ("light.turn_on", [KITCHEN])
    ]
    assert hass.states.get(KITCHEN).state == "on"

    # "Too dark" is no sentence of HA's: the reading's plan (or the model's).
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": KITCHEN}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN)))
    await _converse(hass, agent_id, "it's too dark in the kitchen", conversation_id)
    content = _turn_content(hass, conversation_id)
    assert _calls(content) == [
        ("light.turn_on", {"entity_id": [KITCHEN], "brightness_step_pct": 20}, True)
    ]
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
    assert [c.role for c in content] == ["assistant"]
    assert content[0].content == speech(result) != ""
