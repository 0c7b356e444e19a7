"""The music switched on or off: the player plays or pauses.

"Turn on the music" says the music, not the player: switching a TV or a
speaker on plays nothing, and "music off" is no speaker switched off.
Model off: the reading alone.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_USE_LLM
from homeassistant.core import HomeAssistant

from .helpers import converse
from .home import satellite_in
from .music_home import async_setup_music_agent, async_setup_speakers

KITCHEN = "media_player.kitchen_speaker"


@pytest.mark.parametrize(
    ("language", "said", "state"),
    [
        ("en", "please turn on my music", "playing"),
        ("en", "music off", "paused"),
        ("de", "mach die Musik an", "playing"),
        ("de", "mach die Musik aus", "paused"),
        ("fr", "allume la musique", "playing"),
        ("it", "accendi la musica", "playing"),
        ("nl", "zet de muziek uit", "paused"),
    ],
)
async def test_the_music_switched_plays_or_pauses(
    hass: HomeAssistant,
    core_components: None,
    mock_config_entry: MockConfigEntry,
    language: str,
    said: str,
    state: str,
) -> None:
    """The kitchen's speaker plays or pauses where the music is said."""
    await async_setup_speakers(hass)
    agent_id = await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_USE_LLM: False}
    )

    await converse(
        hass, agent_id, said, satellite_in(hass, "Kitchen"), language=language
    )

    assert hass.states.get(KITCHEN).state == state
