"""What every turn keeps to, whatever the model or the devices do.

One deadline covers the model and the actions; any newer turn of a device
supersedes its turn in flight, whichever path the newer one takes; refused
turns leave memory as it was; failed turns are not shown to the model as
something the assistant said.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import (
    CONF_CONTEXT_TURNS,
    CONF_LOCAL_FIRST,
    CONF_TIMEOUT,
    MAX_TEXT_LENGTH,
    RATE_LIMIT_PER_MINUTE,
)
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import slugify

from .agents import agent_data
from .helpers import act, agent_details, converse, plan, speech, user_prompt
from .home import async_setup_agent, satellite_in
from .llm_server import NEVER, ScriptedLLMServer


def _remembered(entry: MockConfigEntry, key: str) -> list[str]:
    """The texts a device's memory holds."""
    return [turn.text for turn in agent_data(entry).context.recent(key)]


async def test_actions_share_the_turns_deadline(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Three actions on lights that never answer: all end at one deadline.

    Before, each action got a fresh timeout and they ran one after another.
    """
    agent_id = await async_setup_agent(hass, mock_config_entry, **{CONF_TIMEOUT: 1})
    started = async_capture_events(hass, "stuck_light_started")
    stuck = {
        "state": "{{ false }}",
        "turn_on": [
            {"event": "stuck_light_started"},
            {"wait_template": "{{ false }}"},
        ],
        "turn_off": [],
    }
    names = ["Stuck Light", "Stuck Lamp", "Stuck Strip"]
    assert await async_setup_component(
        hass,
        "template",
        {"template": [{"light": [{"name": name, **stuck} for name in names]}]},
    )
    await hass.async_block_till_done()
    lights = [f"light.{slugify(name)}" for name in names]
    for light in lights:
        async_expose_entity(hass, CONVERSATION_DOMAIN, light, True)
    llm_server.add_plan(plan(*(act("light.turn_on", light) for light in lights)))

    result = await converse(hass, agent_id, "turn on the stuck lights")

    outcomes = next(d["outcomes"] for d in agent_details() if "outcomes" in d)
    assert [o["error"] for o in outcomes] == ["timeout"] * 3
    # Started together, ended together at the turn's one deadline.
    assert len(started) == 3
    assert speech(result).startswith("Sorry, Stuck Light")


@pytest.mark.parametrize(
    ("newer", "lights"),
    [
        # HA's own sentence, handled locally: the older plan must not undo it.
        ("turn off the kitchen lights", "off"),
        # A shortcut that answers from memory.
        ("never mind", "on"),
    ],
)
async def test_any_newer_turn_supersedes_the_one_in_flight(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    newer: str,
    lights: str,
) -> None:
    """The model is still thinking about the first request when the second comes."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = satellite_in(hass, "Kitchen")
    handled = async_capture_events(hass, "intent_router_handled")
    llm_server.add_plan(
        plan(act("light.turn_on", "light.kitchen_lights", brightness_pct=100)),
        delay=NEVER,
    )
    first = hass.async_create_task(
        converse(hass, agent_id, "make the kitchen lights really bright", kitchen)
    )
    await llm_server.wait_for_requests(1)

    await converse(hass, agent_id, newer, kitchen)
    superseded = await first
    await hass.async_block_till_done()

    assert "newer request" in speech(superseded)
    assert hass.states.get("light.kitchen_lights").state == lights
    # The superseded turn is counted on the path it was on: the model's.
    assert [e.data["source"] for e in handled if e.data["outcome"] == "superseded"] == [
        "model"
    ]
    assert "make the kitchen lights really bright" not in _remembered(
        mock_config_entry, kitchen
    )


async def test_over_long_text_is_refused_and_never_stored_or_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A refusal changes nothing: not memory, not the next prompt."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    kitchen = satellite_in(hass, "Kitchen")
    events = async_capture_events(hass, "intent_router_handled")
    long_text = "1-" * MAX_TEXT_LENGTH

    refused = await converse(hass, agent_id, long_text, kitchen)
    llm_server.add_plan(plan(speech="Hi."))
    await converse(hass, agent_id, "hello", kitchen)

    assert "too long" in speech(refused)
    assert len(events) == 2  # the refusal is still reported
    assert _remembered(mock_config_entry, kitchen) == ["hello"]
    assert "1-1-1" not in user_prompt(llm_server, 0)


async def test_refused_turns_leave_the_history_as_it_was(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Past the rate limit, turns are refused and nothing is forgotten."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_CONTEXT_TURNS: 50}
    )
    kitchen = satellite_in(hass, "Kitchen")
    for _ in range(RATE_LIMIT_PER_MINUTE):
        await converse(hass, agent_id, "again", kitchen)
    kept = _remembered(mock_config_entry, kitchen)

    for _ in range(10):
        refused = await converse(hass, agent_id, "undo", kitchen)
        assert "too many" in speech(refused).casefold() or "moment" in speech(refused)

    assert _remembered(mock_config_entry, kitchen) == kept
    assert len(kept) == RATE_LIMIT_PER_MINUTE


async def test_a_failed_turn_is_not_shown_to_the_model_as_said(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The canned failure reply stays out of the next prompt's history."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_reply(status=400)
    failed = await converse(hass, agent_id, "lights in the kitchen off for me", kitchen)
    llm_server.add_plan(plan(speech="Hi."))

    await converse(hass, agent_id, "hello", kitchen)

    prompt = user_prompt(llm_server, -1)
    assert "lights in the kitchen off for me" in prompt
    assert speech(failed) not in prompt
