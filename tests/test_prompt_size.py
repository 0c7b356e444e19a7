"""The prompt stays lean: what can be done, what matters now, a bounded history."""

from __future__ import annotations

import re

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.home.catalog import MAX_PROMPT_ENTITIES
from custom_components.intent_router.model.prompt import HISTORY_CHAR_BUDGET
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.const import DATA_EXPOSED_ENTITIES
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .helpers import act, converse, plan, system_prompt, user_prompt
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

# chars / 4. The demo's config-entry platforms, HA's default exposure: every
# exposed entity is listed in the stable part (cached by the server after
# the first request); measured at 1,694, of which the user message, what
# the server reads anew each turn, 160.
DEMO_PROMPT_TOKEN_BUDGET = 1800
DEMO_TURN_TOKEN_BUDGET = 250


async def test_demo_home_prompt_size(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Every demo platform, HA's default exposure: the prompt stays in budget."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    # As in a new installation: new entities of common domains are exposed.
    hass.data[DATA_EXPOSED_ENTITIES].async_set_expose_new_entities(
        CONVERSATION_DOMAIN, True
    )
    demo = MockConfigEntry(domain="demo")
    demo.add_to_hass(hass)
    assert await hass.config_entries.async_setup(demo.entry_id)
    await hass.async_block_till_done()
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    llm_server.add_plan(plan(speech="OK."))

    # Words no option fits: the model's own plan, with the home's catalog.
    await converse(hass, mock_config_entry.entry_id, "the evening routine, please")

    prompt_chars = sum(len(m["content"]) for m in llm_server.requests[0]["messages"])
    exposed = [s.entity_id for s in hass.states.async_all() if s.domain == "light"]
    assert all(entity_id in str(llm_server.requests[0]) for entity_id in exposed)
    assert prompt_chars // 4 < DEMO_PROMPT_TOKEN_BUDGET
    turn_chars = len(llm_server.requests[0]["messages"][-1]["content"])
    assert turn_chars // 4 < DEMO_TURN_TOKEN_BUDGET
    # Only what the entities support, with hints of the values it takes.
    system = system_prompt(llm_server, 0)
    assert "transition" not in system  # no exposed light transitions
    assert "brightness_pct 0..100" in system
    assert "rgb_color [r,g,b]" in system
    assert "repeat off|all|one" in system


async def test_in_a_large_home_what_was_just_done_stays_in_the_prompt(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """More entities than the prompt takes: "turn it back on" still finds "it"."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    for n in range(MAX_PROMPT_ENTITIES):
        hass.states.async_set(
            f"switch.socket_{n}", "off", {"friendly_name": f"Socket {n}"}
        )
        async_expose_entity(hass, CONVERSATION_DOMAIN, f"switch.socket_{n}", True)
    hallway = satellite_in(hass, "Hallway")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))
    llm_server.add_reply('{"pick":1}')
    await converse(hass, agent_id, "turn off the kitchen lights", hallway)

    await converse(hass, agent_id, "turn it back on", hallway)

    # Nothing in the words or the hallway points at the kitchen lights but
    # "it": what was just done is the option offered, no socket is.
    assert "1 Turned on Kitchen Lights." in user_prompt(llm_server)
    assert "Socket" not in user_prompt(llm_server)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_long_turns_are_cut_to_the_history_budget(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Ten long remembered turns: the newest that fit are sent, the rest cut."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    kitchen = satellite_in(hass, "Kitchen")
    padding = "the quick brown fox jumps over the lazy dog " * 6
    for n in range(10):
        llm_server.add_plan(plan(speech=f"Noted {n}."))
        await converse(hass, agent_id, f"note {n}: {padding}", kitchen)
    llm_server.add_plan(plan(speech="OK."))

    await converse(hass, agent_id, "thanks", kitchen)

    after = user_prompt(llm_server).split("Recent turns")[1]
    history = re.split(r"\n\n(?:States|Request):", after)[0]
    kept = [n for n in range(10) if f"note {n}:" in history]
    # About five of these turns fit; ten would be twice the budget.
    assert len(history) <= HISTORY_CHAR_BUDGET + 100
    assert kept == list(range(10 - len(kept), 10))
    assert 0 < len(kept) < 10
