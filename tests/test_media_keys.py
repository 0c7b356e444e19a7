"""A player's next and previous track, by everyday words, without a model.

"Next song", "nächstes Lied", "chanson suivante": the track a player moves
to is a player's own verb, so no noun is needed and nothing else is
touched; "turn off the walkman next to the tv" switches it off. The model is scripted
to pause the player (what a 1.5B model did with "next song"): it is never
asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant

from . import home
from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer

WALKMAN = "media_player.walkman"

# Each language: the words for the next track, then for the previous one.
KEYS = [
    ("en", "next song", "previous track"),
    ("en", "skip this song", "last song"),
    ("de", "Nächstes Lied", "vorheriges Lied"),
    ("fr", "Chanson suivante", "Piste précédente"),
    ("es", "Siguiente canción", "Canción anterior"),
    ("nl", "Volgende nummer", "Vorige nummer"),
    ("it", "Canzone successiva", "Canzone precedente"),
]


@pytest.fixture
async def agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The demo home with its Walkman playing, exposed (demo players have no area)."""
    monkeypatch.setattr(
        home, "DEMO_PLATFORMS", [*home.DEMO_PLATFORMS, Platform.MEDIA_PLAYER]
    )
    monkeypatch.setitem(home.EXPOSED_AREAS, WALKMAN, None)
    return await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )


def _track(hass: HomeAssistant) -> int:
    return int(hass.states.get(WALKMAN).attributes["media_track"])


@pytest.mark.parametrize(("language", "forward", "back"), KEYS)
async def test_next_and_previous_track_move_the_player(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    forward: str,
    back: str,
) -> None:
    """One track on, then one back; the player keeps playing."""
    llm_server.add_plan(plan(act("media_player.media_pause", WALKMAN)))
    first = _track(hass)

    await converse(hass, agent_id, forward, None, language)
    assert _track(hass) == first + 1
    await converse(hass, agent_id, back, None, language)

    assert _track(hass) == first
    assert hass.states.get(WALKMAN).state == "playing"
    assert llm_server.requests == []


async def test_next_to_a_device_is_no_track(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Next to says where the player is: it is switched off, no track skipped."""
    result = await converse(hass, agent_id, "turn off the walkman next to the tv")

    assert hass.states.get(WALKMAN).state == "off", speech(result)
    assert llm_server.requests == []
