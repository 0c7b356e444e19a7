"""Words that say both ways: the model's side is asked about, never run unasked.

"Open the kitchen window, I'm off for a run" says "off" in a saying: the
window's own verb, "open", is what the words ask of it, and a model that
closes it goes against them. "Turn the bed light on, no, off" says both
ways of one light: whichever the model picks is asked first.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import agent_details, converse, offered, speech, switched_on
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

BED_LIGHT = "light.bed_light"
WINDOW = "cover.kitchen_window"


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home, HA's sentences and the reading first, as shipped."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "open the kitchen window, I'm off for a run, it's stuffy"),
        ("fr", "ouvre la Kitchen Window, j'ai éteint le four, ça sent le brûlé"),
    ],
)
async def test_a_devices_own_verb_is_what_the_words_ask_of_it(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Only "open" is offered, and a model that closes it anyway is refused."""
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_reply('{"do":["close_cover cover.kitchen_window"]}')
    state = hass.states.get(WINDOW).state

    await converse(hass, agent_id, said, kitchen, language=language)

    options = offered(llm_server)
    assert len(options) <= 2
    assert {"against_the_words": ["cover.close_cover"]} in agent_details()
    assert hass.states.get(WINDOW).state == state


async def test_both_ways_said_is_asked_about(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Said "on, no, off": the model's off is asked first; a yes runs it."""
    bedroom = satellite_in(hass, "Bedroom")
    await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"do":["turn_off light.bed_light"]}')

    result = await converse(
        hass, agent_id, "bed light on, no wait, off, sorry, my bad", bedroom
    )

    assert speech(result) == "Do you want me to turn off Bed Light?"
    assert hass.states.get(BED_LIGHT).state == "on"
    await converse(hass, agent_id, "yes", bedroom)
    assert hass.states.get(BED_LIGHT).state == "off"
