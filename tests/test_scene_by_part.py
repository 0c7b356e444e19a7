"""A scene turned on by a part of its name: "turn on movie" is Movie Night.

A scene is turned on, never off: its domain's own "on" is `scene.turn_on`,
so the reading runs it where the words name it, with the model off.
"""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_USE_LLM
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .helpers import converse
from .home import async_setup_agent, satellite_in

BED_LIGHT = "light.bed_light"


async def test_a_scene_is_turned_on_by_a_part_of_its_name(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """The scene's lights go on as the scene says."""
    agent_id = await async_setup_agent(hass, mock_config_entry, **{CONF_USE_LLM: False})
    scene = {"name": "Movie Night", "entities": {BED_LIGHT: "on"}}
    assert await async_setup_component(hass, "scene", {"scene": [scene]})
    await hass.async_block_till_done()
    async_expose_entity(hass, CONVERSATION_DOMAIN, "scene.movie_night", True)

    await converse(hass, agent_id, "turn on movie", satellite_in(hass, "Bedroom"))

    assert hass.states.get(BED_LIGHT).state == "on"
