"""Everyday questions about the home, asked as people ask them, in six languages.

In Home Assistant's demo home (as `scripts/develop` furnishes it): how warm
it is outside is its outside temperature sensor's answer, found by the
outside its name says in any language, else the weather's; whether a light
is still on anywhere, the lights'. Never the model's.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .agents import agent_entity, set_agent_options
from .demo_home import async_setup_develop_home
from .helpers import converse, speech
from .llm_server import ScriptedLLMServer

SENSOR = "sensor.outside_temperature"

ASKED = [
    ("en", "how warm is it outside?", "It's 15.6 degrees outside."),
    ("en", "is it cold outside?", "It's 15.6 degrees outside."),
    ("de", "wie warm ist es draußen?", "Draußen sind es 15,6 Grad."),
    ("fr", "il fait combien dehors ?", "Il fait 15,6 degrés dehors."),
    ("es", "¿qué temperatura hace fuera?", "Fuera hace 15,6 grados."),
    ("nl", "hoe warm is het buiten?", "Buiten is het 15,6 graden."),
    ("it", "quanti gradi ci sono fuori?", "Fuori ci sono 15,6 gradi."),
]


@pytest.fixture
async def agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home of `scripts/develop` and the agent as shipped."""
    await async_setup_develop_home(hass)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return agent_entity(hass, mock_config_entry)


@pytest.mark.parametrize(("language", "said", "answer"), ASKED)
async def test_outside_is_the_sensor_that_says_so(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """The sensor named Outside Temperature is what draußen, dehors, fuori ask of."""
    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answer
    assert llm_server.requests == []


async def test_a_sensor_named_in_the_homes_language_answers(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """A name like Außentemperatur says outside as its start."""
    er.async_get(hass).async_update_entity(SENSOR, name="Außentemperatur")
    await hass.async_block_till_done()

    result = await converse(hass, agent, "ist es draußen kalt?", language="de")

    assert speech(result) == "Draußen sind es 15,6 Grad."


async def test_with_no_sensor_outside_the_weather_answers(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The weather's own temperature, when no sensor's name says outside."""
    async_expose_entity(hass, CONVERSATION_DOMAIN, SENSOR, False)
    weather = next(iter(sorted(hass.states.async_entity_ids("weather"))))
    async_expose_entity(hass, CONVERSATION_DOMAIN, weather, True)
    temperature = hass.states.get(weather).attributes["temperature"]

    result = await converse(hass, agent, "how warm is it outside?")

    assert speech(result) == f"It's {temperature:g} degrees outside."


STILL_ON = [
    ("en", "is there still a light on?", "Yes. Ceiling Lights is on."),
    ("de", "ist noch ein Licht an?", "Ja, Ceiling Lights"),
    ("es", "¿todavía hay alguna luz encendida?", "Sí. Ceiling Lights: encendido."),
    ("nl", "is er nog ergens licht aan?", "Ja. Ceiling Lights is aan."),
]


@pytest.mark.parametrize(("language", "said", "answer"), STILL_ON)
async def test_still_on_anywhere_is_whether_any_is_on(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Still asks what on asks; anywhere asks of any light in the home."""
    result = await converse(hass, agent, said, language=language)

    assert speech(result).startswith(answer)
    assert llm_server.requests == []
