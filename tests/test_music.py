"""Music by name, end to end: Assist -> agent -> scripted model -> real players.

The speakers are real media player entities (a test platform) and Spotify is
core's real `spotify` integration; only its Web API client is patched.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
import logging
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from spotifyaio import SpotifyConnectionError
from spotifyaio.models import SearchType

from custom_components.intent_router.const import CONF_DEFAULT_MUSIC_PLAYER
from custom_components.intent_router.music.media import Found
from custom_components.intent_router.music.search import Search, best
from custom_components.intent_router.music.verify import plays as plays_found
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.media_player.const import MediaPlayerState
from homeassistant.core import HomeAssistant, State
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .agents import set_agent_options
from .helpers import act, converse, offered, plan, speech, user_prompt
from .home import satellite_in
from .llm_server import ScriptedLLMServer
from .music_home import (
    BLUE_TRAIN,
    JAZZ,
    KIND_OF_BLUE,
    KITCHEN_DEVICE,
    SO_WHAT,
    SPOTIFY_KIND_OF_BLUE,
    Speakers,
    SpotifyAccount,
    async_setup_speakers,
    async_setup_spotify,
    async_start_playing,
)

KITCHEN = "media_player.kitchen_speaker"
BEDROOM = "media_player.bedroom_radio"
TV = "media_player.living_room_tv"


@pytest.fixture
async def speakers(hass: HomeAssistant, core_components: None) -> Speakers:
    """The kitchen, bedroom and living-room speakers, exposed, in their areas."""
    return await async_setup_speakers(hass)


@pytest.fixture
async def agent_id(speakers: Speakers, init_integration: MockConfigEntry) -> str:
    """The agent, set up after the speakers."""
    return str(init_integration.entry_id)


@pytest.fixture
def kitchen(hass: HomeAssistant, agent_id: str) -> str:
    """A satellite in the kitchen."""
    return satellite_in(hass, "Kitchen")


def play(query: str, kind: str | None = None, **args: Any) -> str:
    """A `music.play` action."""
    return act("music.play", query=query, kind=kind, **args)


def control(command: str, **args: Any) -> str:
    """A `music.control` action."""
    return act("music.control", command=command, **args)


async def test_plays_by_search_on_the_speaker_of_the_area(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """No player named: the kitchen's own speaker searches, plays and is heard."""
    llm_server.add_plan(plan(play("Kind of Blue", "album"), speech="Sure."))

    result = await converse(hass, agent_id, "play the album Kind of Blue", kitchen)

    assert speech(result) == "Playing Kind of Blue by Miles Davis on Kitchen Speaker."
    (search,) = speakers.kitchen.searches
    assert search.search_query == "Kind of Blue"
    assert set(search.media_filter_classes or ()) == {"album"}
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    state = hass.states.get(KITCHEN)
    assert state.state == MediaPlayerState.PLAYING
    assert state.attributes["media_album_name"] == "Kind of Blue"
    assert [t.id for t in result.response.success_results] == [KITCHEN]
    assert speakers.bedroom.played == []
    # Music by name is offered to the model, its words to fill in.
    assert "Playing X." in user_prompt(llm_server, 0)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "the volume in here, way too meek"),
        ("de", "die Lautstärke hier ist irgendwie zaghaft"),
        ("fr", "le volume ici, beaucoup trop timide"),
    ],
)
async def test_a_players_level_said_offers_no_music_to_play(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Said "the volume", the speaker's level: up, down or to N, and no music."""
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent_id, said, kitchen, language=language)

    assert "X." not in user_prompt(llm_server, 0)
    assert len(offered(llm_server, 0)) == 4


@pytest.mark.parametrize(
    ("language", "said", "first"),
    [
        ("en", "put the radio on", "1 Playing X."),
        ("en", "carry on with my audiobook please", "1 Playing X."),
        ("de", "mach mal das Radio an", "1 Ich spiele X."),
        ("es", "la radio, por favor", "1 Pongo X."),
    ],
)
async def test_the_radio_and_an_audiobook_are_music_to_play(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    first: str,
) -> None:
    """Said with no name of the home, the radio is offered as music to play, first."""
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent_id, said, kitchen, language=language)

    assert offered(llm_server, 0)[0] == first


async def test_music_said_to_play_offers_a_player_nothing_but_playing(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """No verb of the player's own: it is not offered off, up or the next track."""
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent_id, "arrange and play all songs of Miles Davis", kitchen)

    assert offered(llm_server, 0) == [
        "1 Playing X.",
        "2 Resumed playback on Kitchen Speaker.",
        "3 Resumed playback on Bedroom Radio.",
        "4 Resumed playback on Living Room TV.",
        "5 none of these.",
    ]


@pytest.mark.parametrize(
    ("said", "query"),
    [
        ("put the radio on", "radio"),
        ("start podcast Heavyweight please", "Heavyweight"),
        ("carry on with my audiobook now", "audiobook"),
    ],
)
async def test_a_model_that_writes_the_option_back_plays_from_the_music_said(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    said: str,
    query: str,
) -> None:
    """No verb that plays: the words from the first that says what to play are X.

    No player is said either: what would play is asked first.
    """
    llm_server.add_reply('{"pick":1,"text":"Playing X."}')

    question = await converse(hass, agent_id, said, kitchen)
    assert speakers.kitchen.searches == []
    await converse(hass, agent_id, "yes", kitchen)

    assert speech(question) == f"Do you want me to play {query}?"
    (search,) = speakers.kitchen.searches
    assert search.search_query == query


@pytest.mark.parametrize(
    ("language", "said", "first"),
    [
        ("en", "let me hear some music", "1 Resumed playback on Kitchen Speaker."),
        (
            "de",
            "ich will etwas Musik hören",
            "1 Ich spiele auf Kitchen Speaker weiter.",
        ),
    ],
)
async def test_music_itself_with_nothing_to_search_is_a_player_playing(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    first: str,
) -> None:
    """No name to search: the player here plays; no search is offered."""
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent_id, said, kitchen, language=language)

    assert offered(llm_server, 0)[:-1] == [first]
    assert speakers.kitchen.searches == []


async def test_a_model_that_writes_the_option_back_plays_the_words_after_play(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """It picks "Playing X." and fills in "Playing X.": the words after "play" are X."""
    llm_server.add_reply('{"pick":1,"text":"Playing X."}')

    result = await converse(
        hass, agent_id, "go find my jazz and play the album Kind of Blue", kitchen
    )

    assert "Playing X." in user_prompt(llm_server, 0)
    (search,) = speakers.kitchen.searches
    assert search.search_query == "Kind of Blue"
    assert speech(result) == "Playing Kind of Blue by Miles Davis on Kitchen Speaker."


async def test_a_named_player_that_can_only_browse_finds_by_title(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """A player named by its name is used; its library is walked for the title."""
    llm_server.add_plan(plan(play("blue train", "album", player="Bedroom Radio")))

    result = await converse(
        hass, agent_id, "play Blue Train on the bedroom radio", kitchen
    )

    assert speech(result) == "Playing Blue Train by John Coltrane on Bedroom Radio."
    # The root, then its directories in order, until the title turned up.
    assert speakers.bedroom.browsed == [None, "podcasts", "albums"]
    assert speakers.bedroom.played == [("album", BLUE_TRAIN.media_id)]
    assert speakers.kitchen.played == []


async def test_the_default_player_when_the_area_has_none(
    hass: HomeAssistant,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
) -> None:
    """From a hallway without a speaker, the default music player plays."""
    # Options are read at set-up: changing an agent reloads the entry.
    set_agent_options(hass, mock_config_entry, {CONF_DEFAULT_MUSIC_PLAYER: KITCHEN})
    await hass.async_block_till_done()
    hallway = satellite_in(hass, "Hallway")
    llm_server.add_plan(plan(play("So What Miles Davis", "track")))

    result = await converse(hass, agent_id, "play So What by Miles Davis", hallway)

    assert speech(result) == "Playing So What by Miles Davis on Kitchen Speaker."
    assert speakers.kitchen.played == [("track", SO_WHAT.media_id)]


@pytest.mark.parametrize("area", ["Hallway", None])
async def test_asks_which_speaker_when_none_fits(
    hass: HomeAssistant,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    area: str | None,
) -> None:
    """No player named, none in the area (or no area), no default: ask."""
    device = satellite_in(hass, area) if area else None
    llm_server.add_plan(plan(play("So What", "track")))

    result = await converse(hass, agent_id, "play So What", device)

    assert speech(result) == (
        "Which speaker should I use: Bedroom Radio, Kitchen Speaker or Living Room TV?"
    )
    assert result.continue_conversation is True
    assert speakers.kitchen.played == speakers.bedroom.played == []


async def test_an_unknown_speaker_name_is_a_question_too(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """A name that fits no speaker, or fits several, asks among the fitting."""
    llm_server.add_plan(plan(play("So What", player="the garage")))
    llm_server.add_plan(plan(play("So What", player="media_player.made_up")))

    unknown = await converse(hass, agent_id, "play So What in the garage", kitchen)
    made_up = await converse(hass, agent_id, "play So What there", kitchen)

    assert speech(unknown).startswith("Which speaker should I use: Bedroom Radio")
    assert speech(made_up) == speech(unknown)
    assert speakers.kitchen.searches == []


async def test_says_so_when_nothing_is_found(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """Not found: an honest reply, nothing played, nothing remembered as done."""
    llm_server.add_plan(
        plan(play("Bitches Brew", "album"), speech="Playing Bitches Brew.")
    )

    result = await converse(hass, agent_id, "play Bitches Brew", kitchen)

    assert speech(result) == "I couldn't find Bitches Brew on Kitchen Speaker."
    assert speakers.kitchen.played == []
    assert [t.id for t in result.response.failed_results] == [KITCHEN]


async def test_says_so_when_it_does_not_start(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """Play accepted but the player never reports it: not claimed, and quickly."""
    speakers.kitchen.starts = False
    llm_server.add_plan(plan(play("Kind of Blue", "album")))

    started = hass.loop.time()
    result = await converse(hass, agent_id, "play Kind of Blue", kitchen)

    assert hass.loop.time() - started < 2.0
    assert speech(result) == "Kind of Blue didn't start on Kitchen Speaker."
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]


async def test_a_mood_plays_a_fitting_playlist(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """A genre is searched as genres and playlists; a new item playing counts."""
    llm_server.add_plan(plan(play("jazz", "genre")))

    result = await converse(hass, agent_id, "play some jazz", kitchen)

    assert set(speakers.kitchen.searches[0].media_filter_classes or ()) == {
        "genre",
        "playlist",
    }
    assert speakers.kitchen.played == [("playlist", JAZZ.media_id)]
    assert speech(result) == "Playing Jazz Classics on Kitchen Speaker."


async def test_verification_waits_for_a_late_report(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """A player that reports a moment after the call is heard, not doubted."""
    speakers.kitchen.reports_after = 0.3
    llm_server.add_plan(plan(play("So What", "track")))

    started = hass.loop.time()
    result = await converse(hass, agent_id, "play So What", kitchen)

    assert hass.loop.time() - started >= 0.3
    assert speech(result) == "Playing So What by Miles Davis on Kitchen Speaker."


@pytest.mark.parametrize("failure", ["raises", "hangs"])
async def test_a_failing_or_hanging_player_is_reported(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    failure: str,
) -> None:
    """An error or a call that outlasts the timeout: it did not start."""
    set_agent_options(hass, mock_config_entry, {"timeout": 1.0})
    await hass.async_block_till_done()
    if failure == "raises":
        speakers.kitchen.failure = HomeAssistantError("speaker offline")
    else:
        speakers.kitchen.hangs = True
    llm_server.add_plan(plan(play("Kind of Blue", "album")))

    result = await converse(hass, agent_id, "play Kind of Blue", kitchen)

    assert speech(result) == "Kind of Blue didn't start on Kitchen Speaker."
    assert hass.states.get(KITCHEN).state == MediaPlayerState.IDLE


async def test_no_music_tools_without_an_exposed_player(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Players hidden from Assist: the model is not offered music at all."""
    for entity_id in (KITCHEN, BEDROOM, TV):
        async_expose_entity(hass, "conversation", entity_id, False)
    llm_server.add_plan(plan(speech="There is no speaker I can use."))

    await converse(hass, agent_id, "play Kind of Blue", kitchen)

    assert "music." not in llm_server.requests[0]["messages"][0]["content"]


async def test_a_player_that_cannot_look_music_up_says_so(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A TV with neither search nor library gets a plain explanation."""
    llm_server.add_plan(plan(play("Kind of Blue", player=TV)))

    result = await converse(hass, agent_id, "play Kind of Blue on the TV", kitchen)

    assert speech(result) == "Living Room TV can't look music up by name."


@pytest.mark.parametrize(
    "action",
    [
        play(""),
        play("Kind of Blue", "audiobook"),
        act("music.play", KITCHEN, BEDROOM, query="Kind of Blue"),
        control("louder"),
        control("volume_set"),
        control("shuffle", mode="all"),
        control("transfer"),
        control("transfer", target="kitchen"),
    ],
)
async def test_bad_music_arguments_are_rejected(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    action: str,
) -> None:
    """A malformed music action is refused before anything runs."""
    llm_server.add_plan(plan(action))

    result = await converse(hass, agent_id, "do something musical", kitchen)

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speakers.kitchen.searches == []
    assert speakers.kitchen.played == []
    assert hass.states.get(KITCHEN).state == MediaPlayerState.IDLE


async def test_a_bit_louder_after_play_reaches_the_same_player(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model sees which player played, and turns that one up."""
    llm_server.add_plan(plan(play("Kind of Blue", "album")))
    llm_server.add_plan(plan(act("media_player.volume_up", KITCHEN), speech="Louder."))
    await converse(hass, agent_id, "play Kind of Blue", kitchen)

    result = await converse(hass, agent_id, "a bit louder", kitchen)

    history = user_prompt(llm_server).split("Recent turns")[1]
    assert f"Did: music.play {KITCHEN}" in history
    assert "query=Kind of Blue" in history
    assert speech(result) == "Turned up Kitchen Speaker."
    assert hass.states.get(KITCHEN).attributes["volume_level"] == pytest.approx(0.4)


async def test_stop_that_after_play_pauses_without_the_model(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Stopping what was started pauses that player, with no model call."""
    llm_server.add_plan(plan(play("Kind of Blue", "album")))
    await converse(hass, agent_id, "play Kind of Blue", kitchen)

    result = await converse(hass, agent_id, "stop that", kitchen)

    assert hass.states.get(KITCHEN).state == MediaPlayerState.PAUSED
    assert speech(result) == "Stopped Kitchen Speaker."
    assert len(llm_server.requests) == 1


async def test_undo_restores_what_play_and_volume_changed(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Undo after play pauses again; undo after a volume change restores it."""
    await hass.services.async_call(
        "media_player", "media_pause", {"entity_id": KITCHEN}, blocking=True
    )
    llm_server.add_plan(plan(play("Kind of Blue", "album")))
    llm_server.add_plan(plan(control("volume_set", level=80)))

    await converse(hass, agent_id, "play Kind of Blue", kitchen)
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PLAYING
    await converse(hass, agent_id, "undo", kitchen)
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PAUSED

    await converse(hass, agent_id, "volume 80", kitchen)
    assert hass.states.get(KITCHEN).attributes["volume_level"] == 0.8
    await converse(hass, agent_id, "undo", kitchen)
    assert hass.states.get(KITCHEN).attributes["volume_level"] == 0.3
    assert len(llm_server.requests) == 2


async def test_whats_playing_is_answered_from_the_states(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model says what the question is about; the player's state answers it."""
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, "what's playing?", kitchen)

    assert "1 about Kitchen Speaker (Media player)." in user_prompt(llm_server)
    assert "So What" in speech(result)
    assert result.response.response_type is intent.IntentResponseType.QUERY_ANSWER


@pytest.mark.parametrize(
    ("command", "args", "attribute", "value"),
    [
        ("pause", {}, "state", MediaPlayerState.PAUSED),
        ("stop", {}, "state", MediaPlayerState.IDLE),
        ("next", {}, "media_title", "Next"),
        ("volume_set", {"level": 55}, "volume_level", 0.55),
        ("volume_down", {}, "volume_level", pytest.approx(0.2)),
        ("shuffle", {"mode": True}, "shuffle", True),
        ("shuffle", {"mode": "off"}, "shuffle", False),
    ],
)
async def test_control_acts_on_what_plays_in_the_area(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    command: str,
    args: dict[str, Any],
    attribute: str,
    value: Any,
) -> None:
    """With music in the kitchen and the bedroom, the kitchen's is meant."""
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    await async_start_playing(hass, BEDROOM, BLUE_TRAIN.media_id)
    llm_server.add_plan(plan(control(command, **args), speech="OK."))

    result = await converse(hass, agent_id, f"{command} the music", kitchen)

    state = hass.states.get(KITCHEN)
    assert (state.state if attribute == "state" else state.attributes[attribute]) == (
        value
    )
    assert hass.states.get(BEDROOM).state == MediaPlayerState.PLAYING
    # The reply says what ran on which player, not the model's words.
    assert "Kitchen Speaker" in speech(result)
    assert speech(result) != "OK."


async def test_control_uses_the_player_this_device_used_last(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Nothing plays where the speaker is: the player it started last is meant."""
    hallway = satellite_in(hass, "Hallway")
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    llm_server.add_plan(plan(play("Blue Train", "album", player=BEDROOM)))
    llm_server.add_plan(plan(control("pause")))

    await converse(hass, agent_id, "play Blue Train in the bedroom", hallway)
    await converse(hass, agent_id, "pause", hallway)

    assert hass.states.get(BEDROOM).state == MediaPlayerState.PAUSED
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PLAYING


async def test_control_asks_when_nothing_says_which(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Two players playing, none here, none used: ask between those two."""
    hallway = satellite_in(hass, "Hallway")
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    await async_start_playing(hass, BEDROOM, BLUE_TRAIN.media_id)
    llm_server.add_plan(plan(control("pause")))

    result = await converse(hass, agent_id, "pause", hallway)

    assert speech(result) == (
        "Which speaker should I use: Bedroom Radio or Kitchen Speaker?"
    )
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PLAYING


async def test_control_failure_is_reported(
    hass: HomeAssistant,
    kitchen: str,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A command the player cannot do gets an honest reply."""
    llm_server.add_plan(plan(control("repeat", mode="one", player="Kitchen Speaker")))

    result = await converse(hass, agent_id, "repeat this song", kitchen)

    assert speech(result) == "Kitchen Speaker couldn't do that."


@pytest.fixture
async def spotify(
    hass: HomeAssistant,
    core_components: None,
    speakers: Speakers,
    request: pytest.FixtureRequest,
) -> AsyncGenerator[tuple[SpotifyAccount, str]]:
    """Core's spotify integration, paused on the living-room TV.

    Parametrised indirectly with False: no Connect device is active.
    """
    with patch(
        "homeassistant.components.spotify.SpotifyClient", autospec=True
    ) as client_class:
        account = SpotifyAccount(
            client_class.return_value, active=getattr(request, "param", True)
        )
        yield account, await async_setup_spotify(hass)


async def test_spotify_searches_the_account_and_plays_the_uri(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A Spotify player: the Web API is searched, and the album's URI played."""
    account, player = spotify
    llm_server.add_plan(plan(play("Kind of Blue", "album", player=player)))

    result = await converse(hass, agent_id, "play Kind of Blue on Spotify")

    account.client.search.assert_awaited_once_with(
        "Kind of Blue", [SearchType.ALBUM], limit=5
    )
    account.client.start_playback.assert_awaited_once_with(
        context_uri=SPOTIFY_KIND_OF_BLUE
    )
    account.client.transfer_playback.assert_not_called()
    state = hass.states.get(player)
    assert speech(result) == f"Playing Kind of Blue by Miles Davis on {state.name}."
    assert state.state == MediaPlayerState.PLAYING


async def test_spotify_plays_on_a_named_connect_speaker(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Named Connect speaker: it is selected as the source, then played on."""
    account, player = spotify
    llm_server.add_plan(plan(play("So What", "track", player="Kitchen Echo")))

    result = await converse(hass, agent_id, "play So What on the kitchen echo")

    account.client.transfer_playback.assert_awaited_once_with(KITCHEN_DEVICE)
    account.client.start_playback.assert_awaited_once_with(
        uris=["spotify:track:4vLYewWIvqHfKtJDk8c8tq"]
    )
    state = hass.states.get(player)
    assert state.attributes["source"] == "Kitchen Echo"
    assert speech(result) == "Playing So What by Miles Davis on Kitchen Echo."
    # The Spotify player is what was acted on: "stop that" pauses it.
    assert [t.id for t in result.response.success_results] == [player]


async def test_spotify_not_found(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Nothing on Spotify by that name: said plainly, nothing started."""
    account, player = spotify
    llm_server.add_plan(plan(play("Bitches Brew", player=player)))

    result = await converse(hass, agent_id, "play Bitches Brew")

    assert speech(result) == "I couldn't find Bitches Brew on Spotify."
    account.client.start_playback.assert_not_called()


@pytest.mark.parametrize("spotify", [False], indirect=True)
async def test_idle_spotify_asks_which_connect_speaker(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """With no active device, Spotify cannot play until a speaker is chosen."""
    account, player = spotify
    llm_server.add_plan(plan(play("Kind of Blue", "album", player=player)))

    result = await converse(hass, agent_id, "play Kind of Blue on Spotify")

    name = hass.states.get(player).name
    assert speech(result) == (
        f"Which speaker should {name} play on: Kitchen Echo or Living Room TV?"
    )
    assert result.continue_conversation is True
    account.client.search.assert_not_called()


@pytest.mark.parametrize("named", [False, True])
async def test_move_it_to_the_kitchen_transfers_playback(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
    named: bool,
) -> None:
    """Moving playback to a room selects the Connect speaker named after it."""
    account, player = spotify
    args = {"player": player} if named else {}
    llm_server.add_plan(
        plan(control("transfer", target="kitchen", **args), speech="Moved.")
    )

    result = await converse(hass, agent_id, "move it to the kitchen")

    account.client.transfer_playback.assert_awaited_once_with(KITCHEN_DEVICE)
    assert hass.states.get(player).attributes["source"] == "Kitchen Echo"
    assert speech(result) == "Moved the music to Kitchen Echo."


async def test_an_unloaded_spotify_cannot_search(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Spotify unloaded: its account is not searched, and nothing is claimed."""
    account, player = spotify
    (entry,) = hass.config_entries.async_entries("spotify")
    assert await hass.config_entries.async_unload(entry.entry_id)
    llm_server.add_plan(plan(play("Kind of Blue", player=player)))

    result = await converse(hass, agent_id, "play Kind of Blue on Spotify")

    name = hass.states.get(player).name
    assert speech(result) == f"Kind of Blue didn't start on {name}."
    account.client.search.assert_not_called()


async def test_spotify_stop_pauses(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Spotify cannot stop, only pause: "stop" pauses it."""
    account, player = spotify
    llm_server.add_plan(plan(control("stop", player=player)))

    await converse(hass, agent_id, "stop the music")

    account.client.pause_playback.assert_awaited_once()


@pytest.mark.parametrize(
    ("error", "logged", "times"),
    [
        # The client no longer takes the call as made: core's internals changed.
        (TypeError("search() got an unexpected kwarg"), "Cannot search Spotify", 1),
        # The Web API failed this time: a per-turn detail, at debug level
        # (core's spotify integration reports its own outages).
        (SpotifyConnectionError("timeout"), "Spotify search failed", 0),
    ],
)
async def test_spotify_search_failure_falls_back_to_browsing(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    agent_id: str,
    llm_server: ScriptedLLMServer,
    caplog: pytest.LogCaptureFixture,
    error: Exception,
    logged: str,
    times: int,
) -> None:
    """The search fails: it is found in the library instead, with a warning."""
    account, player = spotify
    account.client.search.side_effect = error
    llm_server.add_plan(plan(play("Kind of Blue", "album", player=player)))
    llm_server.add_plan(plan(play("Kind of Blue", "album", player=player)))

    with caplog.at_level(logging.WARNING):
        first = await converse(hass, agent_id, "play Kind of Blue on Spotify")
        await converse(hass, agent_id, "play Kind of Blue on Spotify")

    assert speech(first) == (
        f"Playing Kind of Blue by Miles Davis on {hass.states.get(player).name}."
    )
    account.client.start_playback.assert_awaited_with(context_uri=SPOTIFY_KIND_OF_BLUE)
    # Internals that changed are worth one warning; API failures none.
    assert sum(logged in r.message for r in caplog.records) == times


ALBUM = Found("Kind of Blue", "Miles Davis", "album", "spotify:album:kob", "album")
ARTIST = Found("Miles Davis", None, "artist", "spotify:artist:md", "artist")
PLAYLIST = Found("Jazz Classics", None, "playlist", "spotify:playlist:jc", "playlist")


def _player(state: str = "playing", **attributes: Any) -> State:
    return State(KITCHEN, state, attributes)


@pytest.mark.parametrize(
    ("found", "before", "after", "plays"),
    [
        # Named kinds: the player must name what was asked for.
        (ALBUM, None, _player(media_album_name="Kind of Blue"), True),
        (ALBUM, None, _player(media_content_id="spotify:album:kob"), True),
        (ALBUM, None, _player(media_album_name="Blue Train"), False),
        (ALBUM, None, _player("paused", media_album_name="Kind of Blue"), False),
        (ARTIST, None, _player(media_artist="Miles Davis, John Coltrane"), True),
        # Playlists are rarely named: something new playing is enough...
        (PLAYLIST, _player(media_title="A"), _player(media_title="B"), True),
        (PLAYLIST, _player("idle"), _player(media_title="A"), True),
        # ...but what was already playing is not proof.
        (PLAYLIST, _player(media_title="A"), _player(media_title="A"), False),
        (PLAYLIST, None, None, False),
    ],
)
def test_verification_recognises_the_item(
    found: Found, before: State | None, after: State | None, plays: bool
) -> None:
    """What counts as "playing what was asked" for each kind of request."""
    assert plays_found(found, before, after) is plays


def _track(title: str, artist: str) -> Found:
    return Found(title, artist, "track", f"{artist}/{title}", "music")


@pytest.mark.parametrize(
    ("query", "artist"),
    [
        ("queen's barcelona", "Queen"),
        ("Queen\u2019s Barcelona", "Queen"),
        ("the scorpions' barcelona", "Scorpions"),
        ("freddie mercury's barcelona", "Freddie Mercury"),
    ],
)
def test_a_possessive_names_the_artist(query: str, artist: str) -> None:
    """A possessive is the artist: "Queen's Barcelona" though another ranks first."""
    search = Search(
        [
            _track("Barcelona", "Montserrat Caballé"),
            _track("Barcelona", "Scorpions"),
            _track("Barcelona", "Freddie Mercury"),
            _track("Barcelona", "Queen"),
        ],
        "TV",
    )

    found = best(search, query, "track")

    assert found is not None
    assert found.artist == artist
