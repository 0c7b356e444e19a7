"""Music by name on every path: HA's sentences, the reading, the model, memory.

Real speakers (a test platform) and core's real `spotify` integration with
only its Web API client patched, as in test_music.py.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import timedelta
from unittest.mock import patch

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from spotifyaio.models import SearchType

from custom_components.intent_router.const import (
    CONF_LOCAL_FIRST,
    CONF_USE_LLM,
    MUSIC_KINDS,
)
from custom_components.intent_router.core.said import Said
from custom_components.intent_router.deciding.learned import LEARN_AFTER
from custom_components.intent_router.language import LANGUAGES
from custom_components.intent_router.language.music import MUSIC_WORDS
from custom_components.intent_router.music.media import KIND_CLASSES
from custom_components.intent_router.music.request import play_request
from homeassistant.components.media_player.const import (
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er, intent

from .helpers import act, agent_details, converse, plan, speech, user_prompt
from .home import satellite_in
from .llm_server import ScriptedLLMServer
from .music_home import (
    BLUE_TRAIN,
    KIND_OF_BLUE,
    SO_WHAT,
    SPOTIFY_KIND_OF_BLUE,
    Speakers,
    SpotifyAccount,
    async_setup_music_agent,
    async_setup_speakers,
    async_setup_spotify,
    async_start_playing,
)
from .test_resilience import _details

KITCHEN = "media_player.kitchen_speaker"
BEDROOM = "media_player.bedroom_radio"


@pytest.fixture
async def speakers(hass: HomeAssistant, core_components: None) -> Speakers:
    """The kitchen, bedroom and living-room speakers, exposed, in their areas."""
    return await async_setup_speakers(hass)


@pytest.fixture
async def model_off(
    hass: HomeAssistant, speakers: Speakers, mock_config_entry: MockConfigEntry
) -> str:
    """The agent without a model: HA's sentences and the reading only."""
    return await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_USE_LLM: False}
    )


@pytest.fixture
async def local_first(
    hass: HomeAssistant, speakers: Speakers, mock_config_entry: MockConfigEntry
) -> str:
    """The agent with the model, trying HA's sentences and the reading first."""
    return await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )


async def test_has_sentence_plays_by_search_with_the_model_off(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's "play <query> in <area>": its area and query stand, verified.

    Said in the bedroom: the kitchen named is where it plays.
    """
    bedroom = satellite_in(hass, "Bedroom")

    result = await converse(
        hass, model_off, "play the album Kind of Blue in the kitchen", bedroom
    )

    assert speech(result) == "Playing Kind of Blue by Miles Davis on Kitchen Speaker."
    (search,) = speakers.kitchen.searches
    assert search.search_query == "Kind of Blue"
    assert set(search.media_filter_classes or ()) == {"album"}
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert speakers.bedroom.played == []
    assert llm_server.requests == []


async def test_has_sentence_on_a_named_player_that_only_browses(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA cannot search the bedroom radio; our search walks its library."""
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(
        hass, model_off, "play Blue Train on the Bedroom Radio", kitchen
    )

    assert speakers.bedroom.played == [("album", BLUE_TRAIN.media_id)]
    assert speakers.kitchen.played == []
    assert speech(result).startswith("Playing Blue Train")
    assert llm_server.requests == []


async def test_what_is_not_found_is_said_with_the_model_off(
    hass: HomeAssistant, model_off: str, speakers: Speakers
) -> None:
    """Nothing by that name: said truthfully, nothing plays."""
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(hass, model_off, "play Bitches Brew", kitchen)

    assert speech(result) == "I couldn't find Bitches Brew on Kitchen Speaker."
    assert speakers.kitchen.played == []


async def test_the_reading_plays_what_has_sentences_do_not_read(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """A kind and a name HA's sentences do not read: played, no model call."""
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(
        hass, local_first, "put on the song So What please", kitchen
    )

    assert speakers.kitchen.played == [("track", SO_WHAT.media_id)]
    assert speech(result) == "Playing So What by Miles Davis on Kitchen Speaker."
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("spiel das Album Kind of Blue auf dem Kitchen Speaker", "de"),
        ("mets l'album Kind of Blue sur le Kitchen Speaker", "fr"),
        ("pon el álbum Kind of Blue en el Kitchen Speaker", "es"),
        ("speel het album Kind of Blue op de Kitchen Speaker", "nl"),
        ("metti l'album Kind of Blue sul Kitchen Speaker", "it"),
    ],
)
async def test_the_reading_plays_in_every_language(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    text: str,
    language: str,
) -> None:
    """The verb, the kind and the speaker named, in each shipped language."""
    bedroom = satellite_in(hass, "Bedroom")

    result = await converse(hass, local_first, text, bedroom, language=language)

    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert "Kind of Blue" in speech(result)
    assert "Miles Davis" in speech(result)
    assert llm_server.requests == []


@pytest.mark.parametrize(
    "text",
    ["put on the lights in the kitchen", "put on Light My Fire"],
)
async def test_words_of_other_devices_are_not_music(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    text: str,
) -> None:
    """Words naming another kind of device are the model's, never a search.

    A title that names one ("Light My Fire") is the model's to read too,
    where HA's own sentences do not take it ("play Light My Fire" they do).
    """
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(speech="OK."))

    await converse(hass, local_first, text, kitchen)

    assert speakers.kitchen.searches == []
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I'd like to hear the album Kind of Blue on the Kitchen Speaker", "en"),
        ("ich möchte das Album Kind of Blue auf dem Kitchen Speaker hören", "de"),
        ("je voudrais écouter l'album Kind of Blue sur le Kitchen Speaker", "fr"),
        ("quiero escuchar el álbum Kind of Blue en el Kitchen Speaker", "es"),
        ("ik wil het album Kind of Blue op de Kitchen Speaker horen", "nl"),
        ("vorrei ascoltare l'album Kind of Blue sul Kitchen Speaker", "it"),
    ],
)
async def test_music_wished_for_is_played(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    text: str,
    language: str,
) -> None:
    """A wish and a verb of hearing ask for music as "play" does."""
    bedroom = satellite_in(hass, "Bedroom")

    await converse(hass, local_first, text, bedroom, language=language)

    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert llm_server.requests == []


def test_a_wish_that_names_no_music_is_no_search() -> None:
    """Not heard, not wished, or only music itself: nothing to search for."""
    for text in (
        "I can't hear the TV",
        "I don't want to hear jazz",
        "let me hear some music",
        "I want to turn off the lights",
    ):
        assert play_request(Said.of(text, "en"), lambda _: False) is None


@pytest.mark.parametrize(
    ("text", "volume"),
    [
        ("turn the lights down to seven", 0.3),
        ("lower the lights please", 0.3),
        ("turn the volume down to seven", 0.07),
    ],
)
async def test_lights_said_are_no_speakers_volume(
    hass: HomeAssistant, model_off: str, text: str, volume: float
) -> None:
    """HA's English volume sentences take "the lights" down; the speaker's stays.

    Only the volume said is the speaker's (HA's own match runs).
    """
    kitchen = satellite_in(hass, "Kitchen")

    await converse(hass, model_off, text, kitchen)

    level = hass.states.get(KITCHEN).attributes["volume_level"]
    assert level == pytest.approx(volume)


def test_every_language_says_the_kinds_music_is_played_as() -> None:
    """One set of kinds: the search's classes, and each language's words for them."""
    assert set(KIND_CLASSES) == MUSIC_KINDS
    assert set(MUSIC_WORDS) == set(LANGUAGES)
    for words in MUSIC_WORDS.values():
        assert set(words.kinds) == MUSIC_KINDS


def test_a_title_with_a_preposition_keeps_its_words() -> None:
    """Only a place that names a speaker is taken off the end."""
    request = play_request(
        Said.of("play Songs in the Key of Life in the kitchen", "en"),
        lambda said: said.casefold() in {"kitchen", "the kitchen"},
    )

    assert request is not None
    assert request.query == "Songs in the Key of Life"
    assert request.places == ("the kitchen",)
    assert play_request(Said.of("play some music", "en"), lambda _: False) is None
    assert play_request(Said.of("turn on the radio", "en"), lambda _: False) is None


async def test_the_model_can_play_by_name_in_its_compact_plan(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """What the reading leaves open: the model's `music.play query=.. kind=..`."""
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("music.play", query="Kind of Blue", kind="album")))

    result = await converse(
        hass, local_first, "I would love to hear Kind of Blue on the speaker", kitchen
    )

    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert speech(result) == "Playing Kind of Blue by Miles Davis on Kitchen Speaker."
    assert "Playing X." in user_prompt(llm_server, 0)


async def test_a_play_that_plays_something_else_says_so(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """The player reports another title: not a success, and what plays is said."""
    kitchen = satellite_in(hass, "Kitchen")
    speakers.kitchen.plays_instead = BLUE_TRAIN

    result = await converse(hass, local_first, "play the album Kind of Blue", kitchen)

    assert speech(result) == (
        "Kind of Blue didn't start on Kitchen Speaker; it's playing Blue Train "
        "(John Coltrane) instead."
    )
    assert _details(result)["outcomes"] == [
        {"tool": "music.play", "error": "not_started"}
    ]


@pytest.fixture
async def spotify(
    hass: HomeAssistant, core_components: None, speakers: Speakers
) -> AsyncGenerator[tuple[SpotifyAccount, str]]:
    """Core's spotify integration, paused on the living-room TV."""
    with patch(
        "homeassistant.components.spotify.SpotifyClient", autospec=True
    ) as client_class:
        account = SpotifyAccount(client_class.return_value, active=True)
        yield account, await async_setup_spotify(hass)


async def test_on_spotify_chooses_the_spotify_player(
    hass: HomeAssistant,
    spotify: tuple[SpotifyAccount, str],
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """On Spotify: the account is searched and plays, not the room's speaker."""
    account, player = spotify
    agent_id = await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = satellite_in(hass, "Kitchen")

    result = await converse(
        hass, agent_id, "play the album Kind of Blue on Spotify", kitchen
    )

    account.client.search.assert_awaited_once_with(
        "Kind of Blue", [SearchType.ALBUM], limit=5
    )
    account.client.start_playback.assert_awaited_once_with(
        context_uri=SPOTIFY_KIND_OF_BLUE
    )
    state = hass.states.get(player)
    assert state.state == MediaPlayerState.PLAYING
    assert speech(result) == f"Playing Kind of Blue by Miles Davis on {state.name}."
    assert llm_server.requests == []


async def test_a_learned_command_that_fails_on_replay_is_forgotten(
    hass: HomeAssistant,
    speakers: Speakers,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Learned, then failing when replayed: the next time the model is asked."""
    agent_id = await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: False}
    )
    kitchen = satellite_in(hass, "Kitchen")
    sentence = "kitchen speaker hold on a moment"
    llm_server.add_plan(plan(act("media_player.media_pause", KITCHEN)))
    await converse(hass, agent_id, sentence, kitchen)
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PAUSED
    freezer.tick(timedelta(seconds=LEARN_AFTER + 1))
    await hass.services.async_call(
        "media_player", "media_play", {"entity_id": KITCHEN}, blocking=True
    )
    speakers.kitchen.failure = HomeAssistantError("the speaker is gone")

    failed = await converse(hass, agent_id, sentence, kitchen)

    assert _details(failed)["learned"]
    assert _details(failed)["outcomes"] == [
        {"tool": "media_player.media_pause", "error": "HomeAssistantError"}
    ]
    speakers.kitchen.failure = None
    llm_server.add_plan(plan(act("media_player.media_pause", KITCHEN)))
    await converse(hass, agent_id, sentence, kitchen)
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("zet de waterkoker uit", "nl"),
        ("metti in pausa timer pizza", "it"),
        ("mets le minuteur en pause", "fr"),
        ("pon un temporizador de diez minutos", "es"),
        ("pon el flexo al veintidós por ciento", "es"),
        ("mets le lampadaire à 40 %", "fr"),
        ("metti la piantana al quaranta per cento", "it"),
    ],
)
def test_an_opener_other_commands_share_is_not_always_music(
    text: str, language: str
) -> None:
    """Openers other commands share ("zet", "metti", "mets", "pon"): not searched."""
    assert play_request(Said.of(text, language), lambda _: False) is None


@pytest.mark.parametrize(
    ("text", "language", "query"),
    [
        ("zet Queen op", "nl", "Queen"),
        ("metti i Pink Floyd", "it", "Pink Floyd"),
        ("mets du Daft Punk", "fr", "Daft Punk"),
    ],
)
def test_the_same_openers_still_play_a_name(
    text: str, language: str, query: str
) -> None:
    """Without another command's word, the shared opener plays what is named."""
    request = play_request(Said.of(text, language), lambda _: False)

    assert request is not None
    assert request.query == query


async def test_pause_asks_which_and_the_answer_pauses_it(
    hass: HomeAssistant, local_first: str, llm_server: ScriptedLLMServer
) -> None:
    """Two players playing, none here: "which one?", then the one answered.

    The model is scripted to resume instead; it is never asked.
    """
    hallway = satellite_in(hass, "Hallway")
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    await async_start_playing(hass, BEDROOM, BLUE_TRAIN.media_id)
    llm_server.add_plan(plan(act("media_player.media_play", KITCHEN)))

    asked = await converse(hass, local_first, "pause the speaker", hallway)
    await converse(hass, local_first, "the kitchen one", hallway)

    assert "Kitchen Speaker" in speech(asked)
    assert "Bedroom Radio" in speech(asked)
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PAUSED
    assert hass.states.get(BEDROOM).state == MediaPlayerState.PLAYING
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("pause", "en"),
        ("pausiere die Musik", "de"),
        ("mets la musique en pause", "fr"),
        ("pausa la música", "es"),
        ("metti in pausa la musica", "it"),
        ("pauzeer de muziek", "nl"),
    ],
)
async def test_pause_with_no_player_said_is_the_one_used_last(
    hass: HomeAssistant,
    model_off: str,
    llm_server: ScriptedLLMServer,
    text: str,
    language: str,
) -> None:
    """Nothing plays here: the player this device started is paused, by reading."""
    hallway = satellite_in(hass, "Hallway")
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    await converse(hass, model_off, "play Blue Train on the Bedroom Radio", hallway)

    await converse(hass, model_off, text, hallway, language=language)

    assert hass.states.get(BEDROOM).state == MediaPlayerState.PAUSED
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PLAYING


async def test_a_model_that_resumes_what_was_to_be_paused_does_nothing(
    hass: HomeAssistant,
    speakers: Speakers,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model decides and reverses the verb: refused, the player stays paused."""
    agent_id = await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: False}
    )
    await async_start_playing(hass, KITCHEN, SO_WHAT.media_id)
    await hass.services.async_call(
        "media_player", "media_pause", {"entity_id": KITCHEN}, blocking=True
    )
    llm_server.add_plan(plan(act("media_player.media_pause", KITCHEN)))

    await converse(
        hass, agent_id, "resume the kichen speaker", satellite_in(hass, "Kitchen")
    )

    assert hass.states.get(KITCHEN).state == MediaPlayerState.PAUSED
    assert {"against_the_words": ["media_player.media_pause"]} in agent_details()


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Pon la tele", "es"),
        ("Put on the TV", "en"),
        ("Mets la télé", "fr"),
        ("Metti la tv", "it"),
    ],
)
async def test_a_search_for_a_device_here_switches_it_on(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    text: str,
    language: str,
) -> None:
    """HA's "pon {query}" whose query is the TV: it is switched on, not searched."""
    speakers.living_room._attr_supported_features |= MediaPlayerEntityFeature.TURN_ON
    speakers.living_room._attr_state = MediaPlayerState.OFF
    speakers.living_room.async_write_ha_state()

    await converse(
        hass, model_off, text, satellite_in(hass, "Living Room"), language=language
    )

    assert hass.states.get("media_player.living_room_tv").state == MediaPlayerState.ON
    assert speakers.living_room.played == []
    assert speakers.kitchen.searches == []


@pytest.mark.parametrize(
    ("text", "state", "muted"),
    [
        ("Spegni la tv", MediaPlayerState.OFF, False),
        ("Silenzia la tv", MediaPlayerState.PLAYING, True),
        ("Disattiva l'audio", MediaPlayerState.PLAYING, True),
    ],
)
async def test_switching_the_tv_off_is_no_mute(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    text: str,
    state: MediaPlayerState,
    muted: bool,
) -> None:
    """HA's Italian mute takes a bare "spegni": said with no sound word, it is off.

    "Spegni la tv" switches the TV off (HA's own agent mutes it); a word of
    the sound ("silenzia", "disattiva l'audio") still mutes it as HA's sentence does.
    """
    tv = speakers.living_room
    tv._attr_supported_features |= (
        MediaPlayerEntityFeature.TURN_OFF | MediaPlayerEntityFeature.VOLUME_MUTE
    )
    tv._attr_state = MediaPlayerState.PLAYING
    tv.async_write_ha_state()
    er.async_get(hass).async_update_entity(tv.entity_id, aliases=["TV"])

    await converse(
        hass, model_off, text, satellite_in(hass, "Living Room"), language="it"
    )

    after = hass.states.get(tv.entity_id)
    assert after.state == state
    assert bool(after.attributes.get("is_volume_muted")) is muted


async def test_a_timer_read_as_a_search_plays_nothing(
    hass: HomeAssistant, model_off: str, speakers: Speakers
) -> None:
    """HA's "démarre {query}" matches a timer too: a timer's word is no search."""
    await converse(
        hass,
        model_off,
        "Démarre un minuteur de 5 minutes appelé pizza",
        satellite_in(hass, "Kitchen"),
        "fr",
    )

    assert speakers.kitchen.searches == []
    assert speakers.kitchen.played == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("pause the pizza timer", "en"),
        ("Mets sur pause le minuteur appelé Pizza", "fr"),
        ("metti in pausa il timer da 10 minuti", "it"),
        ("Pausiere den Timer", "de"),
        ("pauzeer de timer", "nl"),
        ("pausa el temporizador", "es"),
    ],
)
async def test_a_timer_ha_cannot_find_is_no_players_pause(
    hass: HomeAssistant,
    local_first: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    text: str,
    language: str,
) -> None:
    """HA's timer sentence with no such timer: HA's answer, never a guess.

    The model is scripted as a small one guesses ("pause" is a player's
    verb): it must not be asked, and the TV playing in the room plays on.
    """
    tv = speakers.living_room
    tv._attr_state = MediaPlayerState.PLAYING
    tv.async_write_ha_state()
    llm_server.add_plan(plan(act("media_player.media_pause", tv.entity_id)))

    result = await converse(
        hass, local_first, text, satellite_in(hass, "Living Room"), language
    )

    assert hass.states.get(tv.entity_id).state == MediaPlayerState.PLAYING
    assert llm_server.requests == []
    # HA's own answer: no such timer.
    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result)
