"""The prompt for core's demo home stays lean and says only what can be done."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.const import DATA_EXPOSED_ENTITIES
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .llm_server import ScriptedLLMServer
from .test_conversation import converse, plan

# chars / 4. The demo's config-entry platforms expose 9 entities under HA's
# default rules; measured at 948 (the fixed rules are some 350 of it, the
# music tools 170).
DEMO_PROMPT_TOKEN_BUDGET = 1200


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

    await converse(hass, mock_config_entry.entry_id, "turn on the kitchen lights")

    prompt_chars = sum(len(m["content"]) for m in llm_server.requests[0]["messages"])
    exposed = [s.entity_id for s in hass.states.async_all() if s.domain == "light"]
    assert all(entity_id in str(llm_server.requests[0]) for entity_id in exposed)
    assert prompt_chars // 4 < DEMO_PROMPT_TOKEN_BUDGET
    # Only what the entities support, with hints of the values it takes.
    system = llm_server.requests[0]["messages"][0]["content"]
    assert "cover.open_cover_tilt" not in system  # no exposed cover tilts
    assert "transition" not in system  # no exposed light transitions
    assert "brightness_pct 0..100" in system
    assert "rgb_color [r,g,b]" in system
    assert "repeat off|all|one" in system
