"""A device named by a kind's word yields to that kind where a verb says so.

A light sensor called "Light", "Licht", "Lumière" or "Luz" cannot be
switched off or dimmed: "switch off the light" means the lights, and with
no place said and several lights, the home asks which. A question still
asks the sensor.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import async_setup_template_entity, converse, home_states, offered, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer

LIGHTS = ("Bed Light", "Ceiling Lights", "Kitchen Lights")

SAID = [
    ("en", "Light", "switch off the light"),
    ("en", "Light", "dim the light"),
    ("de", "Licht", "schalte das Licht aus"),
    ("fr", "Lumière", "éteins la lumière"),
    ("es", "Luz", "apaga la luz"),
]


async def _agent_with_sensor(
    hass: HomeAssistant, entry: MockConfigEntry, name: str
) -> str:
    """The test home, its lights, and a light sensor called like the kind."""
    agent = await async_setup_agent(hass, entry, **{CONF_LOCAL_FIRST: True})
    await async_setup_template_entity(
        hass,
        "binary_sensor",
        {"name": name, "state": "{{ true }}", "device_class": "light"},
    )
    return agent


@pytest.mark.parametrize(("language", "name", "said"), SAID)
async def test_a_verb_the_sensor_cannot_do_means_the_kind(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    name: str,
    said: str,
) -> None:
    """The lights are asked about, never the sensor; nothing changes."""
    agent = await _agent_with_sensor(hass, mock_config_entry, name)
    before = home_states(hass)

    result = await converse(hass, agent, said, language=language)

    reply = speech(result)
    assert any(light in reply for light in LIGHTS), reply
    assert f"{name} " not in reply
    assert home_states(hass) == before
    assert llm_server.requests == []


async def test_a_question_still_asks_the_sensor(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Asking what the light says offers the sensor, as named."""
    agent = await _agent_with_sensor(hass, mock_config_entry, "Light")
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent, "what does the light say?")

    assert speech(result) == "Light is light detected."


@pytest.mark.parametrize(
    ("language", "name", "said"),
    [
        ("en", "Light", "minimize the light power"),
        ("de", "Licht", "das Licht etwas gemütlicher"),
    ],
)
async def test_a_command_with_no_verb_read_offers_the_kind(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    name: str,
    said: str,
) -> None:
    """Words the reading cannot read ask something of the lights, not the sensor."""
    agent = await _agent_with_sensor(hass, mock_config_entry, name)
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent, said, language=language)

    options = " ".join(offered(llm_server, 0))
    assert any(light in options for light in LIGHTS), options
    assert f"{name} (" not in options
