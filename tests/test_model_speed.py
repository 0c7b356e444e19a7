"""Speed on a small CPU model: a compact plan, a cached prompt, slow told apart.

A server caches the processed prompt up to the first changed byte, so the
prompt's stable part must be the same for every turn, satellite, area and
conversation, and is sent once at set-up (a warm-up for one token) and again
when it changes. The scripted server keeps warm-ups apart from plan requests.
"""

from __future__ import annotations

from datetime import timedelta

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.intent_router.const import CONF_TIMEOUT, DOMAIN, EVENT_HANDLED
from custom_components.intent_router.model.planner import FOLLOW_DELAY, WARM_UP_DELAY
from custom_components.intent_router.model.prompt import CHOICE_RULES
from custom_components.intent_router.reading.senses import sense_bridges
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util

from .helpers import act, agent_details, converse, plan, speech, system_prompt
from .home import async_setup_agent, satellite_in
from .llm_server import NEVER, ScriptedLLMServer


async def _warmed(hass: HomeAssistant) -> None:
    """Let the background warm-up run to its end."""
    await hass.async_block_till_done(wait_background_tasks=True)


async def _changed(hass: HomeAssistant, after: float = WARM_UP_DELAY) -> None:
    """Let what waits `after` seconds (the warm-up after a change) run."""
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=after + 1))
    await _warmed(hass)


async def test_set_up_warms_the_stable_part_of_the_prompt(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """One request for one token, whose system message a turn then repeats."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    await _warmed(hass)

    assert len(llm_server.warm_ups) == 1
    warm_up = llm_server.warm_ups[0]
    assert "response_format" not in warm_up
    llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))
    await converse(hass, agent_id, "kitchen lights on", satellite_in(hass, "Kitchen"))

    sent = llm_server.requests[0]["messages"]
    assert sent[0] == warm_up["messages"][0]
    assert sent[1]["content"].startswith(warm_up["messages"][1]["content"])
    # A registry change the prompt does not show: the turn already put the
    # same prefix in the cache, so there is nothing to warm.
    er.async_get(hass).async_update_entity("light.kitchen_lights", icon="mdi:lamp")
    await _changed(hass)
    assert len(llm_server.warm_ups) == 1


async def test_the_prefix_is_the_same_for_every_room_and_conversation(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Speaker's area, history and the request come after the stable part.

    Music shared with one more speaker is the model's own plan to write.

    In a home larger than the shortlist too: every exposed entity is listed
    in the stable part; states are sent for the shortlist only.
    """
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    for n in range(45):
        hass.states.async_set(
            f"switch.socket_{n}", "off", {"friendly_name": f"Socket {n}"}
        )
        async_expose_entity(hass, CONVERSATION_DOMAIN, f"switch.socket_{n}", True)
    for area in ("Kitchen", "Bedroom", "Kitchen"):
        llm_server.add_plan(plan(speech="Fine."))
        await converse(
            hass, agent_id, "play jazz in the office too", satellite_in(hass, area)
        )
    llm_server.add_plan(plan(speech="Fine."))
    await converse(hass, agent_id, "now play blues in the office too")

    prompts = {system_prompt(llm_server, n) for n in range(4)}
    assert len(prompts) == 1
    assert "switch.socket_44 |" in prompts.pop()
    user = llm_server.requests[0]["messages"][1]["content"]
    assert "switch.socket_44:" not in user


async def test_the_warm_up_builds_the_readings_table_of_names_for_the_first_turn(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Built off the event loop at warm-up, the first turn finds it built.

    (In a home of a thousand entities it held the loop ~0.4 s of that turn.)
    """
    sense_bridges.cache_clear()
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    await _warmed(hass)
    built = sense_bridges.cache_info()
    llm_server.add_plan(plan(speech="Fine."))

    await converse(hass, agent_id, "how are you")

    after = sense_bridges.cache_info()
    assert (built.misses, built.currsize) == (1, 1)
    assert after.misses == built.misses
    assert after.hits > built.hits


async def test_the_choices_prompt_is_warmed_once_whatever_the_home_does(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The stable part of a choice names no device: a rename leaves it warm."""
    await async_setup_agent(hass, mock_config_entry, local_first=False)
    await _warmed(hass)
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.kitchen_lights"}, blocking=True
    )
    er.async_get(hass).async_update_entity("light.kitchen_lights", name="Worktop")
    await _changed(hass)

    assert len(llm_server.warm_ups) == 1
    assert llm_server.warm_ups[0]["messages"][0]["content"] == CHOICE_RULES


async def test_a_slow_server_is_told_apart_from_an_unreachable_one(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Up but slow: "took too long"; gone: "couldn't reach".

    The timeout leaves a refused connection seconds to be told, however
    busy the machine; the slow server never answers at all.
    """
    agent_id = await async_setup_agent(
        hass, mock_config_entry, local_first=False, **{CONF_TIMEOUT: 3.0}
    )
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights")), delay=NEVER
    )

    slow = await converse(hass, agent_id, "make it cosy")

    assert "took too long" in speech(slow)
    await llm_server.stop()

    gone = await converse(hass, agent_id, "make it cosy")

    assert "couldn't reach" in speech(gone)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_processed_prompt_tokens_are_traced_and_reported(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """What the server had to evaluate shows per turn, so a broken cache shows."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    handled = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_plan(
        plan(act("light.turn_on", "light.kitchen_lights")),
        usage=(1400, 24),
        cached=1380,
    )

    await converse(hass, agent_id, "kitchen lights on")

    assert any(d.get("processed_prompt_tokens") == 20 for d in agent_details())
    assert handled[-1].data["processed_prompt_tokens"] == 20
    assert handled[-1].data["completion_tokens"] == 24
    assert DOMAIN in handled[-1].event_type


async def test_at_boot_the_cache_is_warmed_once_home_assistant_has_started(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Entities keep coming while HA starts: one warm-up after, not one per change."""
    hass.set_state(CoreState.starting)
    await async_setup_agent(hass, mock_config_entry, local_first=False)
    er.async_get(hass).async_update_entity("light.kitchen_lights", name="Worktop")
    await _changed(hass)
    assert llm_server.warm_ups == []

    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await _warmed(hass)

    assert len(llm_server.warm_ups) == 1
    assert llm_server.warm_ups[0]["messages"][0]["content"] == CHOICE_RULES


async def test_the_conversation_so_far_is_sent_ahead_of_the_next_turn(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A model turn after turns the model never saw reads only its own part.

    After a turn, the conversation so far goes to the server for one token;
    the next model request starts with exactly what was sent.
    """
    # A small CPU's server, as the warm-up measures it (this machine's).
    llm_server.timings = {"prompt_per_second": 60.0, "predicted_per_second": 20.0}
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=True)
    await _warmed(hass)
    kitchen = satellite_in(hass, "Kitchen")
    await converse(hass, agent_id, "turn on the kitchen lights", kitchen)
    await _warmed(hass)
    # Not while the user may still be speaking: after a person's pause.
    assert llm_server.follow_ups == []
    await _changed(hass, FOLLOW_DELAY)

    assert llm_server.requests == []  # HA's own sentence answered it
    assert len(llm_server.follow_ups) == 1
    ahead = llm_server.follow_ups[0]["messages"]
    assert "User: turn on the kitchen lights" in ahead[1]["content"]
    llm_server.add_plan(plan(speech="Good night."))
    await converse(hass, agent_id, "I'm heading to bed", kitchen)

    sent = llm_server.requests[0]["messages"]
    assert sent[0] == ahead[0]
    assert sent[1]["content"].startswith(ahead[1]["content"] + "\n\nRequest:")


async def test_a_fast_server_is_not_sent_the_conversation_ahead(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A server that reads fast gains nothing from it, and a cloud one bills it."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=True)
    await _warmed(hass)
    await converse(hass, agent_id, "turn on the kitchen lights")
    await _changed(hass, FOLLOW_DELAY)

    assert llm_server.follow_ups == []
