"""HA's own sentences, tried first: what they may handle and what they leave."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .agents import set_agent_options
from .helpers import converse, speech
from .home import satellite_in
from .llm_server import ScriptedLLMServer
from .music_home import KIND_OF_BLUE, async_setup_speakers


async def test_play_by_name_is_left_to_music_play(
    hass: HomeAssistant,
    core_components: None,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's sentence reads it; music.play searches, plays and checks it plays.

    The kitchen speaker can search, so HA's HassMediaSearchAndPlay would
    handle "play Kind of Blue" on its own, unverified: its query and speaker
    go to music.play instead, with no model call.
    """
    speakers = await async_setup_speakers(hass)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(
        hass, mock_config_entry.entry_id, "play Kind of Blue", kitchen
    )

    assert llm_server.requests == []
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert speech(result) == "Playing Kind of Blue by Miles Davis on Kitchen Speaker."
