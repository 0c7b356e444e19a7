"""The home's one thermostat heats every room: "it's cold in here" from any.

Said in a room with no thermostat of its own, a complaint about the cold
or a request for more heat means the home's one thermostat, wherever it
hangs. A light lights only its own room: "it's dark in here", said where
there is none, switches no other room's light.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.core import HomeAssistant

from .helpers import converse
from .home import async_setup_agent, satellite_in, with_thermostat
from .llm_server import ScriptedLLMServer

THERMOSTAT = "climate.hvac"  # in the hallway
LIGHTS = ("light.kitchen_lights", "light.ceiling_lights", "light.bed_light")


@pytest.fixture
async def agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The demo home and its one thermostat, the model off."""
    with_thermostat(monkeypatch)
    return await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "it's cold in here"),
        ("en", "turn up the heating in the bedroom"),
        ("de", "es ist kalt hier"),
        ("fr", "il fait froid ici"),
        ("es", "hace frío aquí"),
        ("nl", "het is koud hier"),
        ("it", "fa freddo qui"),
    ],
)
async def test_the_homes_one_thermostat_heats_a_room_without_one(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """From the bedroom, which has none, the hallway's thermostat goes up."""
    bedroom = satellite_in(hass, "Bedroom")
    before = hass.states.get(THERMOSTAT).attributes["temperature"]

    await converse(hass, agent_id, said, bedroom, language=language)

    assert hass.states.get(THERMOSTAT).attributes["temperature"] > before


async def test_a_light_lights_only_its_own_room(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """From the garage, which has no light, no other room's light is switched."""
    garage = satellite_in(hass, "Garage")
    before = {light: hass.states.get(light).state for light in LIGHTS}

    await converse(hass, agent_id, "it's dark in here", garage)

    assert {light: hass.states.get(light).state for light in LIGHTS} == before
