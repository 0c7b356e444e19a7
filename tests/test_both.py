"""Them both: the two things the last turns acted on, one each.

"Turn on the kitchen lights", "and the bed light", "now turn them both
off": the last turn acted on one light, and "both" says two, so the one
acted on before it is meant too, in six languages. The model is scripted
to switch off only the last light; it is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import act, converse, plan
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

KITCHEN_LIGHTS = "light.kitchen_lights"
BED_LIGHT = "light.bed_light"


@pytest.fixture
async def lit(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> tuple[str, str]:
    """The agent and a kitchen satellite, after two turns of one light each."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = satellite_in(hass, "Kitchen")
    await converse(hass, agent_id, "turn on the kitchen lights", kitchen)
    await converse(hass, agent_id, "turn on the bed light", kitchen)
    return agent_id, kitchen


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "now turn them both off"),
        ("de", "mach jetzt beide aus"),
        ("fr", "éteins les deux"),
        ("es", "apaga los dos"),
        ("nl", "doe ze allebei uit"),
        ("it", "spegni tutte e due"),
    ],
)
async def test_both_are_the_last_two_acted_on(
    hass: HomeAssistant,
    lit: tuple[str, str],
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Both lights go off, the one of each turn; the model is not asked."""
    llm_server.add_plan(plan(act("light.turn_off", BED_LIGHT)))

    agent_id, kitchen = lit
    await converse(hass, agent_id, said, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert hass.states.get(BED_LIGHT).state == "off"
    assert llm_server.requests == []


async def test_them_alone_is_the_last_turns(
    hass: HomeAssistant, lit: tuple[str, str], llm_server: ScriptedLLMServer
) -> None:
    """Without "both", "it" is what the last turn acted on, and only that."""
    agent_id, kitchen = lit
    await converse(hass, agent_id, "now turn it off", kitchen)

    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
    assert hass.states.get(BED_LIGHT).state == "off"


@pytest.mark.parametrize(
    ("language", "first", "then"),
    [
        ("en", "turn on the kitchen lights", "and the bed light too"),
        ("de", "schalte Kitchen Lights ein", "und Bed Light auch"),
        ("fr", "allume Kitchen Lights", "et Bed Light aussi"),
        ("es", "enciende Kitchen Lights", "y Bed Light también"),
        ("nl", "zet Kitchen Lights aan", "en Bed Light ook"),
        ("it", "accendi Kitchen Lights", "e anche Bed Light"),
    ],
)
async def test_and_that_one_too_does_the_same_to_it(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    first: str,
    then: str,
) -> None:
    """With "too", a device gets what the last turn did; the model is not asked."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", BED_LIGHT)))
    await converse(hass, agent_id, first, kitchen, language)

    await converse(hass, agent_id, then, kitchen, language)

    assert hass.states.get(BED_LIGHT).state == "on"
    assert llm_server.requests == []
