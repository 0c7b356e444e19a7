"""Dimming never switches a light off.

Home Assistant switches off a light that a brightness step takes to 0: a
light at 10 percent, dimmed by a step of 20, would go dark. Dimmed, it goes
to its lowest instead, in every language and whoever read the words.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import converse, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer

KITCHEN = "light.kitchen_lights"


@pytest.fixture
async def agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent, HA's sentences and the reading first."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})


async def _kitchen(hass: HomeAssistant, service: str, **data: Any) -> None:
    """The kitchen's light, as the household left it."""
    await hass.services.async_call(
        "light", service, {"entity_id": KITCHEN, **data}, blocking=True
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "dim the kitchen lights"),
        ("de", "mach das Licht in der Küche dunkler"),
        ("fr", "baisse la lumière de la cuisine"),
        ("nl", "doe het licht in de keuken zachter"),
    ],
)
async def test_a_dim_light_dimmed_stays_on_at_its_lowest(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """At 10 percent, a step down is 1 percent, never off."""
    await _kitchen(hass, "turn_on", brightness_pct=10)

    await converse(hass, agent, said, language=language)

    state = hass.states.get(KITCHEN)
    assert state.state == "on"
    assert state.attributes["brightness"] == round(255 / 100)
    assert llm_server.requests == []


async def test_a_bright_light_dims_by_a_step(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """At 60 percent, a step down is 40 percent."""
    await _kitchen(hass, "turn_on", brightness_pct=60)

    await converse(hass, agent, "dim the kitchen lights")

    assert round(hass.states.get(KITCHEN).attributes["brightness"] / 2.55) == 40


@pytest.mark.parametrize(
    ("language", "said", "answered"),
    [
        ("en", "please dim the kitchen lights", "Kitchen Lights is off."),
        ("de", "mach das Licht in der Küche dunkler", "Kitchen Lights ist aus."),
        ("fr", "baisse la lumière de la cuisine", "Kitchen Lights : éteint."),
        ("es", "baja la luz de la cocina", "Kitchen Lights: apagado."),
    ],
)
async def test_a_light_that_is_off_is_dimmed_no_further(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answered: str,
) -> None:
    """Off, there is nothing to dim: its state is said, and it stays off.

    Before, "Dimmed Kitchen Lights" was said while the step switched it off.
    """
    await _kitchen(hass, "turn_off")

    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answered
    assert hass.states.get(KITCHEN).state == "off"
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "it's too dark in the kitchen"),
        ("en", "make the kitchen lights brighter"),
        ("de", "in der Küche ist es zu dunkel"),
        ("it", "in cucina è troppo buio"),
    ],
)
async def test_a_light_that_is_off_made_brighter_is_switched_on(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Brighter than off is on, at the brightness it keeps, not a step's 20 %."""
    await _kitchen(hass, "turn_on", brightness_pct=80)
    await _kitchen(hass, "turn_off")

    await converse(hass, agent, said, language=language)

    state = hass.states.get(KITCHEN)
    assert state.state == "on"
    assert round(state.attributes["brightness"] / 2.55) == 80
    assert llm_server.requests == []
