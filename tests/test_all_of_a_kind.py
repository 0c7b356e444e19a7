"""A kind said with "all", in no place: every device of it, not "which one?".

"Dim all the lights" reached every light on, each by its own step (one
within a step of dark goes to its lowest, so the plan dims in parts); a part
of the lights is no guess among rooms when "all" was said.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_USE_LLM
from homeassistant.core import HomeAssistant

from .helpers import converse
from .home import async_setup_agent, satellite_in

LIGHTS_ON = ("light.ceiling_lights", "light.kitchen_lights")


@pytest.mark.parametrize(
    ("language", "said", "direction"),
    [
        ("en", "will you dim all the lights", -1),
        ("en", "make all the lights brighter", 1),
        ("en", "brighten all the lights", 1),
        ("de", "mach alle Lichter heller", 1),
        ("fr", "baisse toutes les lumières", -1),
        ("es", "sube todas las luces", 1),
        ("it", "abbassa tutte le luci", -1),
        ("nl", "zet alle lampen zachter", -1),
    ],
)
async def test_all_lights_step_together(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    language: str,
    said: str,
    direction: int,
) -> None:
    """Every light that is on steps, in whatever room it is."""
    agent_id = await async_setup_agent(hass, mock_config_entry, **{CONF_USE_LLM: False})
    before = {e: hass.states.get(e).attributes["brightness"] for e in LIGHTS_ON}

    await converse(
        hass, agent_id, said, satellite_in(hass, "Bedroom"), language=language
    )

    for entity_id, brightness in before.items():
        after = hass.states.get(entity_id).attributes["brightness"]
        assert (after - brightness) * direction > 0, entity_id
