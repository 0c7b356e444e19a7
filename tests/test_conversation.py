"""End-to-end turns: Assist -> agent -> scripted model server -> real entities."""

from __future__ import annotations

from datetime import timedelta
import json
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_TIMEOUT
from custom_components.intent_router.deciding.utterance import RATE_LIMIT_KEYS
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, floor_registry as fr, intent
from homeassistant.setup import async_setup_component

from .agents import agent_data, set_agent_options
from .helpers import (
    act,
    agent_details,
    async_setup_template_entity,
    converse,
    home_states,
    plan,
    schema_allows,
    schema_targets,
    speech,
    user_prompt,
)
from .home import EXPOSED_AREAS, NOT_EXPOSED, async_setup_agent, satellite_in
from .llm_server import NEVER, ScriptedLLMServer


@pytest.fixture
async def agent_id(home: None, init_integration: MockConfigEntry) -> str:
    """The agent id Assist knows the integration by."""
    return str(init_integration.entry_id)


async def test_turns_off_a_light(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The plan's service call runs and its speech is spoken."""
    assert hass.states.get("light.kitchen_lights").state == "on"
    llm_server.add_plan(
        plan(
            act("light.turn_off", "light.kitchen_lights"),
            speech="Kitchen lights are off.",
        )
    )

    result = await converse(hass, agent_id, "turn off the kitchen lights")

    assert hass.states.get("light.kitchen_lights").state == "off"
    # The reply says what ran, not what the model wrote.
    assert speech(result) == "Turned off Kitchen Lights."
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert [t.id for t in result.response.success_results] == ["light.kitchen_lights"]
    assert result.continue_conversation is False
    sent = llm_server.requests[0]
    assert sent["model"] == "test-model"
    assert sent["response_format"]["type"] == "json_schema"
    assert "turn off the kitchen lights" in sent["messages"][-1]["content"]


async def test_prompt_holds_only_exposed_entities(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Unexposed entities never reach the model, neither in text nor schema.

    Music shared with one more speaker is the model's own plan to write,
    with the home's devices listed.
    """
    llm_server.add_plan(plan(speech="Hello."))

    await converse(hass, agent_id, "play some jazz in the kitchen too")

    sent = json.dumps(llm_server.requests[0])
    for entity_id in EXPOSED_AREAS:
        assert entity_id in sent
    for entity_id in NOT_EXPOSED:
        assert hass.states.get(entity_id) is not None
        assert entity_id not in sent
    allowed = schema_targets(llm_server.requests[0])
    assert set().union(*allowed.values()) == set(EXPOSED_AREAS)
    # Each service takes only entities of its own domain.
    for tool, targets in allowed.items():
        assert {t.partition(".")[0] for t in targets} == {tool.partition(".")[0]}


async def test_brightness_args_and_concurrent_actions(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Arguments pass the service schema; independent actions all run."""
    llm_server.add_plan(
        plan(
            act("light.turn_on", "light.bed_light", brightness_pct=40),
            act("light.turn_off", "light.ceiling_lights"),
            speech="Bedroom at 40 percent, living room off.",
        )
    )

    result = await converse(hass, agent_id, "bedroom light to 40 and living room off")

    assert hass.states.get("light.bed_light").attributes["brightness"] == 102
    assert hass.states.get("light.ceiling_lights").state == "off"
    assert speech(result) == "Set Bed Light to 40 percent. Turned off Ceiling Lights."


def _set_desk_level(value: int | str) -> dict[str, Any]:
    """A script step that sets the desk lamp's brightness (0 is off)."""
    return {
        "action": "input_number.set_value",
        "target": {"entity_id": "input_number.desk_level"},
        "data": {"value": value},
    }


async def test_actions_on_one_entity_run_in_plan_order(
    hass: HomeAssistant,
    home: None,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """Turn on, then set brightness: a lamp slow to power up ends at 40 %.

    Run at once, the brightness would land first and the late power-up at
    full brightness would win.
    """
    assert await async_setup_component(
        hass,
        "input_number",
        {"input_number": {"desk_level": {"min": 0, "max": 255, "initial": 0}}},
    )
    lamp = await async_setup_template_entity(
        hass,
        "light",
        {
            "name": "Desk Lamp",
            "state": "{{ states('input_number.desk_level') | int > 0 }}",
            "level": "{{ states('input_number.desk_level') | int }}",
            "turn_on": [{"delay": {"milliseconds": 300}}, _set_desk_level(255)],
            "turn_off": [_set_desk_level(0)],
            "set_level": [_set_desk_level("{{ brightness }}")],
        },
    )
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    llm_server.add_plan(
        plan(act("light.turn_on", lamp), act("light.turn_on", lamp, brightness_pct=40))
    )

    await converse(hass, mock_config_entry.entry_id, "desk lamp on at 40 percent")

    assert hass.states.get(lamp).attributes["brightness"] == 102


async def test_state_question_is_answered_without_actions(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The model says what a question is about; the state answers it."""
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, "is the front door locked?")

    assert "1 about Front Door (Lock)." in user_prompt(llm_server, 0)
    assert speech(result).startswith("Yes")
    assert result.response.response_type is intent.IntentResponseType.QUERY_ANSWER
    assert hass.states.get("lock.front_door").state == "locked"


async def test_speaker_area_goes_to_the_prompt(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The satellite's area lets "the lights" mean the ones in that room."""
    device_id = satellite_in(hass, "Bedroom")
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))

    await converse(hass, agent_id, "lights off", device_id=device_id)

    assert "Speaker area: Bedroom" in user_prompt(llm_server, 0)
    assert hass.states.get("light.bed_light").state == "off"


async def test_low_confidence_with_question_asks_and_keeps_listening(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Below the threshold: the home asks which one, never the model's words."""
    llm_server.add_plan(
        plan(
            act("light.turn_off", "light.kitchen_lights"),
            confidence=0.4,
            clarify="Which light, the kitchen or the living room?",
        )
    )

    result = await converse(hass, agent_id, "turn off the light")

    assert speech(result) == (
        "Which one do you mean: Bed Light, Ceiling Lights or Kitchen Lights?"
    )
    assert result.continue_conversation is True
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_the_models_own_question_is_never_heard(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A question back with nothing to ask about: not sure, in our words."""
    llm_server.add_plan(plan(clarify="What is your favourite colour?"))

    result = await converse(hass, agent_id, "favourite")

    assert "not sure" in speech(result)
    assert "colour" not in speech(result)


async def test_low_confidence_without_question_admits_doubt(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Below the threshold with no question: a polite "not sure", no action."""
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), confidence=0.3)
    )

    result = await converse(hass, agent_id, "mumble")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "not sure" in speech(result)
    assert hass.states.get("light.kitchen_lights").state == "on"


@pytest.mark.parametrize(
    ("text", "tool", "entity_id"),
    [
        ("unlock the front door", "lock.unlock", "lock.front_door"),
        ("open the garage door", "cover.open_cover", "cover.garage_door"),
    ],
)
async def test_locks_and_garage_doors_ask_first(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    text: str,
    tool: str,
    entity_id: str,
) -> None:
    """However confident the plan, security devices need a yes first."""
    before = hass.states.get(entity_id).state
    llm_server.add_plan(plan(act(tool, entity_id), confidence=1.0))

    result = await converse(hass, agent_id, text)

    assert result.continue_conversation is True
    assert speech(result).endswith("?")
    assert hass.states.get(entity_id).state == before


@pytest.mark.parametrize(
    ("action", "rejection"),
    [
        (act("light.explode", "light.kitchen_lights"), "unknown_tool"),
        (act("light.turn_off", "light.office_rgbw_lights"), "unknown_entity"),
        (act("light.turn_off", "light.made_up"), "unknown_entity"),
        (act("homeassistant.turn_off", "light.kitchen_lights"), "denied_service"),
        (
            act("light.turn_on", "light.kitchen_lights", brightness_pct=500),
            "invalid_args",
        ),
        (
            act("light.turn_on", "light.kitchen_lights", area_id="kitchen"),
            "invalid_args",
        ),
        (act("light.turn_off", "cover.kitchen_window"), "wrong_domain"),
        (act("light.turn_off"), "missing_targets"),
    ],
)
async def test_invalid_plans_are_rejected(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    action: str,
    rejection: str,
) -> None:
    """Each kind of bad plan is refused with its reason, and nothing runs."""
    states_before = home_states(hass)
    llm_server.add_plan(plan(action))

    result = await converse(hass, agent_id, "do something")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert home_states(hass) == states_before
    details = agent_details()
    assert any(d.get("rejection") == rejection for d in details), details


async def test_too_many_actions_are_rejected(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A plan with more actions than allowed does nothing at all."""
    llm_server.add_plan(
        plan(
            *(
                act("light.turn_on", "light.kitchen_lights", brightness_pct=level)
                for level in range(10, 70, 10)
            )
        )
    )

    result = await converse(hass, agent_id, "everything")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_why_each_target_was_chosen_goes_to_the_trace(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The model writes no reasons (tokens are time); the gate derives them."""
    llm_server.add_reply('{"pick":1}')

    await converse(hass, agent_id, "kitchen lights off")

    details = agent_details()
    assert {"grounded": {"light.kitchen_lights": "named"}} in details
    assert any("prompt_tokens_estimate" in d for d in details)
    # The one option the words leave is all the model may pick.
    schema = llm_server.requests[0]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["pick"]["enum"] == [1, 2]
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_a_plan_of_the_models_own_is_held_to_the_catalog(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Words no option fits ("lock" a light) get a plan whose schema is the home's."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, "lock the kitchen lights")

    schema = llm_server.requests[0]["response_format"]["json_schema"]["schema"]
    acting, answering, asking = schema["anyOf"]
    # Acting is actions, nothing else; the other forms have no actions and
    # one thing to say; each may add a confidence, written only when unsure.
    assert acting["required"] == ["do"]
    assert answering["required"] == ["say"]
    assert asking["required"] == ["ask"]
    assert all(
        set(form["properties"]) == {*form["required"], "c"} for form in schema["anyOf"]
    )
    assert all(not form["additionalProperties"] for form in schema["anyOf"])
    # Each action is one line of words; a service with no fields to fill
    # gets none, a service with fields only its own.
    request = llm_server.requests[0]
    assert schema_allows(request, "open_cover cover.kitchen_window")
    assert not schema_allows(request, "open_cover cover.kitchen_window position=5")
    assert schema_allows(request, "set_cover_position cover.kitchen_window position=5")
    assert schema_allows(request, "turn_off light.kitchen_lights")
    # The words name one light: the others are not offered.
    assert not schema_allows(request, "turn_off light.bed_light")
    assert not schema_allows(request, "turn_off light.kitchen_lights cover.hall_window")
    assert not schema_allows(request, "explode light.kitchen_lights")
    assert not schema_allows(request, 'turn_on light.kitchen_lights color_name=a"b')


@pytest.mark.parametrize("text", ["   ", "?", " ¿? "])
async def test_empty_text_ends_quietly(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer, text: str
) -> None:
    """Nothing said (a mark is no word), nothing asked of the model, no speech."""
    result = await converse(hass, agent_id, text)

    assert speech(result) == ""
    assert llm_server.requests == []


async def test_over_long_text_gets_a_clear_error(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Text over the limit is refused before any model call."""
    result = await converse(hass, agent_id, "light " * 300)

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert "1000" in speech(result)
    assert llm_server.requests == []


async def test_the_rate_limiter_forgets_chats_gone_quiet(
    hass: HomeAssistant,
    agent_id: str,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Each chat without a device is a key of its own; idle ones are dropped.

    What the limiter holds is the only trace of it (memory), so the test
    counts its keys.
    """
    agent = agent_data(mock_config_entry).agent
    for _ in range(RATE_LIMIT_KEYS + 1):
        # A new conversation every time; "again" with nothing to repeat
        # needs no model.
        await converse(hass, agent_id, "again")
    assert len(agent._rate_limiter._times) == RATE_LIMIT_KEYS + 1

    freezer.tick(timedelta(minutes=1, seconds=1))
    await converse(hass, agent_id, "again")

    assert len(agent._rate_limiter._times) == 1
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("rejected", "used"),
    [
        (set(), "json_schema"),
        ({"json_schema"}, "json_object"),
        ({"json_schema", "json_object"}, None),
    ],
)
async def test_response_format_modes_step_down_and_are_remembered(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    rejected: set[str],
    used: str | None,
) -> None:
    """Schema, then JSON mode, then text; the working mode sticks."""
    llm_server.rejected_formats = rejected
    reply = json.dumps(plan(act("light.turn_off", "light.kitchen_lights")))
    llm_server.add_reply(f"Sure! Here is the plan:\n```json\n{reply}\n```")
    llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))

    await converse(hass, agent_id, "kitchen lights off")
    assert hass.states.get("light.kitchen_lights").state == "off"
    await converse(hass, agent_id, "kitchen lights on")
    assert hass.states.get("light.kitchen_lights").state == "on"

    formats = [r.get("response_format", {}).get("type") for r in llm_server.requests]
    # Each rejected mode costs one request, once; then the working one is reused.
    assert formats[len(rejected) :] == [used, used]
    assert len(formats) == len(rejected) + 2


async def async_setup_broken_switch(hass: HomeAssistant, name: str) -> None:
    """An exposed switch whose turn_on fails, as a device that errors does."""
    await async_setup_template_entity(
        hass,
        "switch",
        {
            "name": name,
            "state": "{{ false }}",
            "turn_on": [{"action": "notify.does_not_exist"}],
            "turn_off": [],
        },
    )


async def test_partial_failure_is_reported_honestly(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    home: None,
    mock_config_entry: MockConfigEntry,
) -> None:
    """One action works, one fails: the reply says which is which."""
    await async_setup_broken_switch(hass, "Speaker Power")
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    llm_server.add_plan(
        plan(
            act("light.turn_off", "light.kitchen_lights"),
            act("switch.turn_on", "switch.speaker_power"),
            speech="Kitchen off and speaker on.",
        )
    )

    result = await converse(
        hass, mock_config_entry.entry_id, "kitchen lights off and speaker power on"
    )

    assert hass.states.get("light.kitchen_lights").state == "off"
    reply = speech(result)
    assert "Kitchen Lights" in reply
    assert "Speaker Power" in reply
    assert reply != "Kitchen off and speaker on."
    assert [t.id for t in result.response.failed_results] == ["switch.speaker_power"]


@pytest.mark.parametrize(
    ("reply", "kwargs", "key_phrase"),
    [
        (None, {"status": 500}, "couldn't reach"),
        ("this is not json", {}, "didn't understand"),
        ('{"do": ["turn_off light.kitchen_lights"', {}, "didn't understand"),
        ('{"say": "far too sure", "c": 50}', {}, "didn't understand"),
    ],
)
async def test_model_failures_get_a_spoken_explanation(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    reply: str | None,
    kwargs: dict[str, Any],
    key_phrase: str,
) -> None:
    """Server errors and unusable replies become a short translated reply."""
    llm_server.add_reply(reply, **kwargs)

    result = await converse(hass, agent_id, "kitchen off")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert key_phrase in speech(result)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_slow_model_is_cut_off_at_the_timeout(
    hass: HomeAssistant,
    home: None,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """A model that never answers: the timeout ends the turn, with a reply."""
    set_agent_options(hass, mock_config_entry, {CONF_TIMEOUT: 1.0})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights")), delay=NEVER
    )

    result = await converse(hass, mock_config_entry.entry_id, "kitchen off")

    assert "took too long" in speech(result)
    assert {"fallback": "timeout"} in agent_details()
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_rejected_api_key_starts_reauth(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A 401 during a turn asks the user for a new key."""
    llm_server.add_reply(status=401)

    result = await converse(hass, agent_id, "kitchen off")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    flows = hass.config_entries.flow.async_progress()
    assert [flow["context"]["source"] for flow in flows] == ["reauth"]


async def test_a_question_never_changes_anything(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A model that "answers" by acting: the action is dropped.

    Its answer is not spoken either: what the lights are doing is the
    home's to say, never the model's.
    """
    llm_server.add_plan(
        plan(
            act("light.turn_off", "light.kitchen_lights"),
            speech="The kitchen lights are off.",
        )
    )

    result = await converse(hass, agent_id, "Are the kitchen lights on?")

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result) == "I don't know that."
    assert result.response.response_type is intent.IntentResponseType.QUERY_ANSWER


async def test_a_question_answered_only_by_acting_is_not_answered_with_silence(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The compact plan has no speech when it acts: nothing is left to say.

    The action is dropped and the turn counts as a model failure, so Home
    Assistant's own sentences answer (the integration's fixture tries them
    after the model), instead of an empty reply.
    """
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights"), speech=""))

    result = await converse(hass, agent_id, "Is the kitchen lights on?")

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result)
    assert {"fallback": "no_answer"} in agent_details()


async def test_a_polite_request_is_not_a_question(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A polite "can you" asks for an action, and gets it."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, "can you turn off the kitchen lights?")

    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_floors_reach_the_prompt(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The floor said finds its areas' devices: "the ground floor lights"."""
    floor = fr.async_get(hass).async_create("Ground Floor")
    area_reg = ar.async_get(hass)
    kitchen = area_reg.async_get_area_by_name("Kitchen")
    assert kitchen is not None
    area_reg.async_update(kitchen.id, floor_id=floor.floor_id)
    llm_server.add_reply('{"pick":1}')

    await converse(hass, agent_id, "turn off the ground floor lights")

    assert "1 Turned off Kitchen Lights." in user_prompt(llm_server, 0)
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_an_entity_with_odd_attributes_does_not_break_a_turn(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A state written by a misbehaving integration is read defensively."""
    hass.states.async_set(
        "media_player.odd",
        "idle",
        {"supported_features": ["PAUSE"], "friendly_name": "Odd"},
    )
    async_expose_entity(hass, conversation.DOMAIN, "media_player.odd", True)
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, "turn off the kitchen lights")

    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_nothing_worked_is_reported_as_a_failure(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    home: None,
    mock_config_entry: MockConfigEntry,
) -> None:
    """When every action fails, clients see an error, not ACTION_DONE."""
    await async_setup_broken_switch(hass, "Broken Plug")
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    llm_server.add_plan(plan(act("switch.turn_on", "switch.broken_plug")))

    result = await converse(hass, mock_config_entry.entry_id, "plug on")

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result) == "Sorry, Broken Plug didn't respond."
    assert [t.id for t in result.response.failed_results] == ["switch.broken_plug"]


async def test_an_action_that_never_finishes_is_reported_as_unanswered(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """A device that never answers: cut off at the timeout, and said so.

    HA's own sentence switches it off and "undo" switches it back on, so no
    model call shares the short budget; the switch's turn_on never returns.
    """
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_TIMEOUT: 0.5}
    )
    # On at first; switched off by its input boolean; switching on hangs.
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"stuck": {"initial": True}}}
    )
    switch = await async_setup_template_entity(
        hass,
        "switch",
        {
            "name": "Stuck Switch",
            "state": "{{ is_state('input_boolean.stuck', 'on') }}",
            "turn_on": [{"wait_template": "{{ false }}"}],
            "turn_off": [
                {
                    "action": "input_boolean.turn_off",
                    "target": {"entity_id": "input_boolean.stuck"},
                }
            ],
        },
    )
    device = satellite_in(hass, "Kitchen")
    await converse(hass, agent_id, "turn off the stuck switch", device)

    result = await converse(hass, agent_id, "undo", device)

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result) == "Sorry, Stuck Switch didn't respond."
    assert [t.id for t in result.response.failed_results] == [switch]
    outcomes = next(d["outcomes"] for d in agent_details() if "outcomes" in d)
    assert outcomes == [{"tool": "switch.turn_on", "error": "timeout"}]
    assert llm_server.requests == []
