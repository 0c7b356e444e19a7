"""Model output that cannot run away: a token budget, bounded patterns, real plans.

A small model that repeats an entity id writes until the budget ends it;
the schema's pattern ends it sooner; JSON that is no plan is spoken to.
"""

from __future__ import annotations

import json

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_TIMEOUT, EVENT_HANDLED
from custom_components.intent_router.core.safety import MAX_ACTIONS
from custom_components.intent_router.deciding.plan import (
    MAX_SAID,
    MAX_TARGETS,
    PLAN_TOKENS,
)
from custom_components.intent_router.diagnostics import (
    async_get_config_entry_diagnostics,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from .agents import agent_diagnostics
from .helpers import act, converse, plan, schema_allows, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer
from .test_resilience import _details

KITCHEN_LIGHTS = "light.kitchen_lights"


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent with local-first off, so every turn reaches the model.

    A turn's budget no busy machine exceeds: these tests time nothing.
    """
    return await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: 30})


async def test_a_plan_is_asked_for_in_tens_of_tokens(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The request's `max_tokens` is the plan's budget, not hundreds."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))

    await converse(hass, agent_id, "kitchen lights off now")

    assert llm_server.requests[0]["max_tokens"] == PLAN_TOKENS
    # Tens of tokens, yet room for the longest answer a plan may say.
    assert MAX_SAID // 4 + 8 <= PLAN_TOKENS < 100
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"


async def test_a_reply_cut_at_the_budget_is_spoken_to(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A model repeating one id until the budget: nothing runs, the user hears why."""
    looping = '{"do":["turn_off ' + f"{KITCHEN_LIGHTS} " * PLAN_TOKENS
    llm_server.add_reply(looping, usage=(100, PLAN_TOKENS))

    result = await converse(hass, agent_id, "kitchen lights off now")

    assert "didn't understand the language model's answer" in speech(result)
    assert hass.states.get(KITCHEN_LIGHTS).state == "on"


async def test_the_pattern_bounds_ids_per_action_and_actions_per_plan(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """An id written again and again, or a tool with two players, does not fit.

    Music shared with one more speaker is the model's to plan: its plan's
    schema bounds what it may write.
    """
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))

    await converse(hass, agent_id, "play the evening mix in the kitchen too")

    request = llm_server.requests[0]
    assert schema_allows(request, f"turn_off {KITCHEN_LIGHTS}")
    repeated = f"turn_off {' '.join([KITCHEN_LIGHTS] * (MAX_TARGETS + 1))}"
    assert not schema_allows(request, repeated)
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["anyOf"][0]["properties"]["do"]["maxItems"] == MAX_ACTIONS


@pytest.mark.parametrize(
    "reply",
    [
        {"actions": [{"tool": "light.turn_off", "targets": [KITCHEN_LIGHTS]}]},
        {"c": 9},
        {},
    ],
    ids=["old actions form", "confidence only", "empty object"],
)
async def test_json_that_is_not_a_plan_is_an_invalid_answer(
    hass: HomeAssistant,
    agent_id: str,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    reply: dict[str, object],
) -> None:
    """None of `do`, `say`, `ask`: "didn't understand", counted as invalid."""
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_reply(json.dumps(reply))

    result = await converse(hass, agent_id, "kitchen lights off now")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "didn't understand the language model's answer" in speech(result)
    assert _details(result)["fallback"] == "malformed"
    assert events[-1].data["failure"] == "model_invalid_reply"
    diagnostics = await async_get_config_entry_diagnostics(hass, mock_config_entry)
    counters = agent_diagnostics(diagnostics, mock_config_entry)["turns"]["counters"]
    assert counters["failure_model_invalid_reply"] == 1
    assert hass.states.get(KITCHEN_LIGHTS).state == "on"


async def test_json_not_a_plan_is_spoken_to_in_the_turns_language(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The same answer in German: the translated "didn't understand"."""
    llm_server.add_reply(json.dumps({"actions": []}))

    result = await converse(
        hass, agent_id, "Küchenlicht aus bitte jetzt", language="de"
    )

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "Sprachmodell" in speech(result)
