"""Music in one more room: "play it in the office too" joins the players.

Real speakers (a test platform, as in test_music.py) that lead a group
through Home Assistant's own `media_player.join` where they support
GROUPING; the model is the scripted server.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_USE_LLM
from custom_components.intent_router.core.said import Said
from custom_components.intent_router.music.request import join_request
from homeassistant.components.media_player.const import (
    ATTR_GROUP_MEMBERS,
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .helpers import act, converse, plan, speech
from .home import satellite_in
from .llm_server import ScriptedLLMServer
from .music_home import (
    BASIC_FEATURES,
    KIND_OF_BLUE,
    SEARCHABLE_LIBRARY,
    FakeSpeaker,
    Speakers,
    async_setup_music_agent,
    async_setup_speakers,
)

KITCHEN = "media_player.kitchen_speaker"
OFFICE = "media_player.office_speaker"


@pytest.fixture
def office() -> FakeSpeaker:
    """An office speaker that can group, called "office" in every language."""
    return FakeSpeaker(
        "Office Speaker",
        BASIC_FEATURES
        | MediaPlayerEntityFeature.SEARCH_MEDIA
        | MediaPlayerEntityFeature.GROUPING,
        SEARCHABLE_LIBRARY,
    )


@pytest.fixture
async def speakers(
    hass: HomeAssistant, core_components: None, office: FakeSpeaker
) -> Speakers:
    """The music home's speakers and the office, exposed, in their areas."""
    found = await async_setup_speakers(hass, [(office, "Office")])
    er.async_get(hass).async_update_entity(
        OFFICE, aliases=["Büro", "bureau", "oficina", "kantoor", "ufficio"]
    )
    return found


@pytest.fixture
async def model_off(
    hass: HomeAssistant, speakers: Speakers, mock_config_entry: MockConfigEntry
) -> str:
    """The agent without a model: HA's sentences and the reading only."""
    return await async_setup_music_agent(
        hass, mock_config_entry, **{CONF_USE_LLM: False}
    )


@pytest.fixture
async def model_on(
    hass: HomeAssistant, speakers: Speakers, mock_config_entry: MockConfigEntry
) -> str:
    """The agent with the model."""
    return await async_setup_music_agent(hass, mock_config_entry)


def _playing(speaker: FakeSpeaker, *, groups: bool = True) -> None:
    """A speaker that plays (and, with `groups`, can lead a group)."""
    speaker._attr_state = MediaPlayerState.PLAYING
    if groups:
        speaker._attr_supported_features |= MediaPlayerEntityFeature.GROUPING
    speaker.async_write_ha_state()


async def test_play_it_in_the_office_too_joins_after_playing_here(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    office: FakeSpeaker,
    llm_server: ScriptedLLMServer,
) -> None:
    """After "play … in the kitchen", the kitchen leads and the office joins."""
    speakers.kitchen._attr_supported_features |= MediaPlayerEntityFeature.GROUPING
    device = satellite_in(hass, "Bedroom")
    await converse(
        hass, model_off, "play the album Kind of Blue in the kitchen", device
    )
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]

    result = await converse(hass, model_off, "play it in the office too", device)

    assert speech(result) == "Now playing on Office Speaker too."
    assert speakers.kitchen.joined == [[OFFICE]]
    assert hass.states.get(KITCHEN).attributes[ATTR_GROUP_MEMBERS] == [KITCHEN, OFFICE]
    # Not a search for "it": nothing new played anywhere.
    assert office.played == []
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]
    assert llm_server.requests == []
    # Undo parts the group again: the office leaves, the kitchen plays on.
    undone = await converse(hass, model_off, "undo", device)
    assert speech(undone) == "OK, Office Speaker is back the way it was."
    assert office.left == 1
    assert hass.states.get(KITCHEN).state == MediaPlayerState.PLAYING
    assert speakers.kitchen.played == [("album", KIND_OF_BLUE.media_id)]


async def test_undo_says_so_where_the_joined_player_cannot_leave(
    hass: HomeAssistant, model_off: str, speakers: Speakers
) -> None:
    """The bedroom radio joins but cannot group itself: nothing is undone."""
    _playing(speakers.kitchen)
    device = satellite_in(hass, "Kitchen")
    joined = await converse(hass, model_off, "play it in the bedroom too", device)
    assert speakers.kitchen.joined == [["media_player.bedroom_radio"]]

    undone = await converse(hass, model_off, "undo", device)

    assert speech(joined) == "Now playing on Bedroom Radio too."
    assert speech(undone) == "There's nothing I can undo."
    assert speakers.bedroom.left == 0


@pytest.mark.parametrize(
    ("language", "text", "reply"),
    [
        ("en", "also in the office", "Now playing on Office Speaker too."),
        ("en", "the music in the office as well", "Now playing on Office Speaker too."),
        ("de", "auch im Büro", "Jetzt läuft es auch auf Office Speaker."),
        (
            "de",
            "spiel das auch im Büro",
            "Jetzt läuft es auch auf Office Speaker.",
        ),
        ("fr", "aussi dans le bureau", "La musique joue aussi sur Office Speaker."),
        (
            "fr",
            "mets-la aussi dans le bureau",
            "La musique joue aussi sur Office Speaker.",
        ),
        ("es", "también en la oficina", "Ahora también suena en Office Speaker."),
        ("es", "ponla también en la oficina", "Ahora también suena en Office Speaker."),
        ("nl", "ook in het kantoor", "Het speelt nu ook op Office Speaker."),
        (
            "nl",
            "speel het ook in het kantoor af",
            "Het speelt nu ook op Office Speaker.",
        ),
        ("it", "anche in ufficio", "Ora suona anche su Office Speaker."),
        (
            "it",
            "metti la musica anche in ufficio",
            "Ora suona anche su Office Speaker.",
        ),
    ],
)
async def test_also_in_the_office_in_every_language(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    reply: str,
) -> None:
    """What plays in the speaker's room joins the office, in its language."""
    _playing(speakers.kitchen)

    result = await converse(
        hass, model_off, text, satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert speakers.kitchen.joined == [[OFFICE]]
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "reply"),
    [
        (
            "en",
            (
                "Kitchen Speaker can't play together with Office Speaker, "
                "so I didn't change anything."
            ),
        ),
        (
            "de",
            (
                "Kitchen Speaker kann nicht zusammen mit Office Speaker spielen, "
                "deshalb habe ich nichts geändert."
            ),
        ),
    ],
)
async def test_a_player_that_cannot_group_says_so(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    office: FakeSpeaker,
    language: str,
    reply: str,
) -> None:
    """No GROUPING: nothing is called, and the reply says why."""
    _playing(speakers.kitchen, groups=False)
    text = {"en": "play it in the office too", "de": "spiel es auch im Büro"}

    result = await converse(
        hass, model_off, text[language], satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert speakers.kitchen.joined == []
    assert ATTR_GROUP_MEMBERS not in hass.states.get(KITCHEN).attributes
    assert office.played == []


@pytest.mark.parametrize(
    ("language", "text", "reply"),
    [
        ("en", "play it in the office too", "There's nothing playing to share."),
        (
            "fr",
            "mets la musique aussi dans le bureau",
            "Rien n'est en cours de lecture à partager.",
        ),
    ],
)
async def test_nothing_playing_to_share(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    office: FakeSpeaker,
    language: str,
    text: str,
    reply: str,
) -> None:
    """Nothing plays anywhere: said so, and nothing searched or played."""
    result = await converse(hass, model_off, text, None, language)

    assert speech(result) == reply
    assert office.played == []
    assert speakers.kitchen.searches == []


async def test_the_only_player_playing_is_shared(
    hass: HomeAssistant, model_off: str, speakers: Speakers
) -> None:
    """Said from no room: the one player that plays leads."""
    _playing(speakers.bedroom)

    result = await converse(hass, model_off, "play this in the office too")

    assert speech(result) == "Now playing on Office Speaker too."
    assert speakers.bedroom.joined == [[OFFICE]]


async def test_also_in_the_office_alone_needs_music_here(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """Bare "also in the office" with no music here is no join (a light's, maybe)."""
    _playing(speakers.bedroom)

    await converse(hass, model_off, "also in the office", satellite_in(hass, "Kitchen"))

    assert speakers.bedroom.joined == []


async def test_playing_something_in_the_office_is_no_join(
    hass: HomeAssistant,
    model_off: str,
    speakers: Speakers,
    office: FakeSpeaker,
) -> None:
    """Playing "Kind of Blue in the office" plays it there, whatever else plays."""
    _playing(speakers.kitchen)

    result = await converse(
        hass,
        model_off,
        "play Kind of Blue in the office",
        satellite_in(hass, "Kitchen"),
    )

    assert speech(result) == "Playing Kind of Blue by Miles Davis on Office Speaker."
    assert office.played == [("album", KIND_OF_BLUE.media_id)]
    assert speakers.kitchen.joined == []


async def test_the_model_plan_can_join(
    hass: HomeAssistant,
    model_on: str,
    speakers: Speakers,
    llm_server: ScriptedLLMServer,
) -> None:
    """`music.control command=join target=<room>` from the model's plan."""
    _playing(speakers.kitchen)
    llm_server.add_plan(plan(act("music.control", command="join", target="office")))

    result = await converse(
        hass,
        model_on,
        "let the music play in the office as well",
        satellite_in(hass, "Kitchen"),
    )

    assert speech(result) == "Now playing on Office Speaker too."
    assert speakers.kitchen.joined == [[OFFICE]]
    system = llm_server.requests[0]["messages"][0]["content"]
    assert "join (target: the speaker or room" in system


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "play Me Too in the office"),
        ("en", "play Kind of Blue in the office too"),
        ("en", "turn on the light in the office too"),
        ("en", "the office too"),
        ("de", "schalte das Licht auch im Büro ein"),
        ("fr", "allume aussi dans le bureau"),
    ],
)
def test_words_that_are_no_join(language: str, text: str) -> None:
    """A title, another command, or no place said: no join."""
    assert (
        join_request(Said.of(text, language), {"office", "büro", "bureau"}.__contains__)
        is None
    )
