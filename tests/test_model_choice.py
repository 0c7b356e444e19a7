"""The reading proposes, the model chooses, the home speaks.

A turn the reading cannot settle reaches the model as a short list of
what its words allow (options.py); the scripted model picks one, fills in
a value left open, or does what a small model does wrong: picks nothing,
reverses a verb, answers in its own words with facts the home never gave,
takes the speaker's room for a name it could not read. Whatever it does,
only what the words ask runs, and every fact spoken is the home's.
"""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import (
    act,
    agent_details,
    converse,
    lit_at,
    offered,
    plan,
    speech,
    switched_on,
)
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

BED_LIGHT = "light.bed_light"


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home, HA's sentences and the reading first, as shipped."""
    return await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})


@pytest.fixture
def bedroom(hass: HomeAssistant, agent_id: str) -> str:
    """A satellite in the bedroom, where Bed Light is."""
    return satellite_in(hass, "Bedroom")


async def test_the_model_picks_what_the_words_allow(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """A named light and a word the reading cannot place: the model chooses.

    No number is said, and no verb that sets one: no option asks the model
    for a number of its own.
    """
    await lit_at(hass, BED_LIGHT, 100)
    llm_server.add_reply('{"pick":2}')

    await converse(hass, agent_id, "could the bed light be a touch livelier", bedroom)

    assert offered(llm_server) == [
        "1 Turned off Bed Light.",
        "2 Made Bed Light brighter.",
        "3 Dimmed Bed Light.",
        "4 Turned on Bed Light.",
        "5 none of these.",
    ]
    assert hass.states.get(BED_LIGHT).attributes["brightness"] > 100


async def test_a_value_the_words_leave_open_is_filled_in_by_the_model(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """A value left open ("auf Lesestärke"): the model says it, the setter sets it."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"pick":1,"value":100}')

    await converse(
        hass, agent_id, "stell das Bed Light auf Lesestärke", bedroom, language="de"
    )

    assert offered(llm_server) == [
        "1 Ich habe Bed Light auf N Prozent gestellt.",
        "2 nichts davon.",
    ]
    # Only the option that leaves a number open takes one.
    schema = llm_server.requests[-1]["response_format"]["json_schema"]["schema"]
    assert schema["anyOf"][1]["properties"] == {
        "pick": {"const": 1},
        "value": {"type": "number"},
    }
    assert hass.states.get(BED_LIGHT).attributes["brightness"] == 255


async def test_a_question_is_answered_from_the_states(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """The model says what the question is about; the light's state answers."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"pick":1}')

    result = await converse(
        hass, agent_id, "est-ce que Bed Light brille encore ?", bedroom, language="fr"
    )

    assert offered(llm_server) == [
        "1 à propos de Bed Light (Lumière).",
        "2 aucune de ces options.",
    ]
    assert speech(result) == "Bed Light : allumé."


async def test_the_models_own_answer_to_a_question_is_never_spoken(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """A server that ignores the schema answers "Nee, hij is uit": not heard."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_plan(plan(speech="Nee, bed light is uit."))

    result = await converse(
        hass, agent_id, "gloeit bed light nog na?", bedroom, language="nl"
    )

    assert llm_server.requests
    assert "uit" not in speech(result)
    assert hass.states.get(BED_LIGHT).state == "on"


async def test_a_number_the_home_did_not_give_is_not_spoken(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """No sensor says 20: "It's 20 degrees in the attic" is an honest "don't know".

    At a time whose clock shows no 20 (the clock's numbers are the home's).
    """
    freezer.move_to("2026-03-04 09:15:00+00:00")
    llm_server.add_plan(plan(speech="It's 20 degrees in the attic right now."))

    result = await converse(hass, agent_id, "how warm is it up in the attic right now?")

    assert llm_server.requests
    assert speech(result) == "I don't know that."


@pytest.mark.parametrize(
    ("language", "said", "asked"),
    [
        ("en", "trun of the bed light pronto", "Do you want me to turn off Bed Light?"),
        ("de", "schlate Bed Light sofort aus", "Soll ich Bed Light ausschalten?"),
        ("fr", "éteinds Bed Light tout de suite", "Dois-je éteindre Bed Light ?"),
    ],
)
async def test_a_misspelt_verb_is_read_and_a_reversal_is_refused(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    asked: str,
) -> None:
    """The verb misspelt still says "off"; a model that turns it on is refused.

    Only "off" is offered; the model writes its own plan to turn the light
    on instead. The plan is refused, and the one thing the words allow is
    asked about; nothing runs until the yes.
    """
    await switched_on(hass, BED_LIGHT)
    llm_server.add_plan(plan(act("light.turn_on", BED_LIGHT)))

    result = await converse(hass, agent_id, said, bedroom, language=language)

    assert len(offered(llm_server)) == 2  # off, and none
    assert speech(result) == asked
    assert hass.states.get(BED_LIGHT).state == "on"


async def test_no_pick_asks_about_the_one_thing_the_words_allow(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """The model picks none; the one option is asked about, and a yes runs it."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"pick":0}')

    result = await converse(
        hass, agent_id, "Bed Light aus, aber zackig", bedroom, language="de"
    )

    assert speech(result) == "Soll ich Bed Light ausschalten?"
    assert hass.states.get(BED_LIGHT).state == "on"
    await converse(hass, agent_id, "ja", bedroom, language="de")
    assert hass.states.get(BED_LIGHT).state == "off"


async def test_the_speakers_room_is_no_name_for_a_word_unread(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """The room's light for "die kleine Lampe" (a word unread) is asked about."""
    llm_server.add_reply('{"pick":1}')

    result = await converse(
        hass, agent_id, "mach die kleine Lampe an", bedroom, language="de"
    )

    assert offered(llm_server)[0] == "1 Ich habe Bed Light eingeschaltet."
    assert speech(result) == "Soll ich Bed Light einschalten?"
    assert hass.states.get(BED_LIGHT).state == "off"


@pytest.mark.parametrize(
    ("language", "said", "options", "answered"),
    [
        (
            "en",
            "kitchen window",
            ["1 about Kitchen Window (Cover).", "2 none of these."],
            "Kitchen Window is closed.",
        ),
        (
            "de",
            "das Kitchen Window",
            ["1 zu Kitchen Window (Abdeckung).", "2 nichts davon."],
            "Kitchen Window ist geschlossen.",
        ),
        (
            "fr",
            "la Kitchen Window",
            ["1 à propos de Kitchen Window (Ouverture).", "2 aucune de ces options."],
            "Kitchen Window : fermé.",
        ),
    ],
)
async def test_words_that_say_nothing_to_do_ask_what_it_is_doing(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    options: list[str],
    answered: str,
) -> None:
    """A device said with no verb, value or word unread is asked about.

    Offered what it may do, a small model picks the first: "open".
    """
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, said, bedroom, language=language)

    assert offered(llm_server) == options
    assert speech(result) == answered
    assert hass.states.get("cover.kitchen_window").state == "closed"


async def test_a_toggle_is_never_sent_for_words_that_say_one_way(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """A toggle for "stop the audio" would light an unlit light."""
    llm_server.add_plan(plan(act("light.toggle", BED_LIGHT)))

    await converse(hass, agent_id, "stop the audio", bedroom)

    assert {"against_the_words": ["light.toggle"]} in agent_details()
    assert hass.states.get(BED_LIGHT).state == "off"


@pytest.mark.parametrize(
    ("language", "said", "lit", "first"),
    [
        ("en", "bed light, I'm going to sleep", True, "1 Turned off Bed Light."),
        ("en", "bed light, I can't read my book", False, "1 Turned on Bed Light."),
        (
            "de",
            "Bed Light, ich geh jetzt schlafen",
            True,
            "1 Ich habe Bed Light ausgeschaltet.",
        ),
        (
            "fr",
            "Bed Light, je vais me coucher",
            True,
            "1 J'ai éteint Bed Light.",
        ),
    ],
)
async def test_words_with_no_verb_offer_a_change_first(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    lit: bool,
    first: str,
) -> None:
    """No verb read: what the light already shows is offered last.

    A small model picks the first option more often than not; switching
    on a light that is on is the least likely meaning of a request.
    """
    if lit:
        await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"pick":0}')

    await converse(hass, agent_id, said, bedroom, language=language)

    options = offered(llm_server)
    assert options[0] == first
    shown = "Turned on" if lit else "Turned off"
    if language == "en":
        assert options[-2].startswith(f"{len(options) - 1} {shown} Bed Light")


@pytest.mark.parametrize(
    ("language", "said", "asked"),
    [
        ("en", "dim the bed light pronto", "Do you want me to dim Bed Light?"),
        ("de", "dimme das Bed Light, aber zackig", "Soll ich Bed Light dimmen?"),
        ("fr", "tamise Bed Light fissa", "Dois-je tamiser Bed Light ?"),
    ],
)
async def test_a_step_asked_about_is_said_as_the_step(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    asked: str,
) -> None:
    """A dimming step asked about is "dim", never "turn on" (its service)."""
    await lit_at(hass, BED_LIGHT, 200)
    llm_server.add_reply('{"pick":0}')

    result = await converse(hass, agent_id, said, bedroom, language=language)

    assert speech(result) == asked
    assert hass.states.get(BED_LIGHT).attributes["brightness"] == 200


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "the bed light brightness, livelier please"),
        ("de", "die Helligkeit vom Bed Light, lebendiger bitte"),
        ("fr", "la luminosité de Bed Light, plus vivante"),
    ],
)
async def test_a_level_said_with_no_verb_offers_that_level_only(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Said "the brightness": up, down or to N; never on, off or a toggle."""
    await lit_at(hass, BED_LIGHT, 100)
    llm_server.add_reply('{"pick":1}')

    await converse(hass, agent_id, said, bedroom, language=language)

    assert len(offered(llm_server)) == 4  # brighter, dimmer, to N, none
    assert hass.states.get(BED_LIGHT).attributes["brightness"] > 100


async def test_words_that_name_nothing_are_offered_only_an_answer_in_words(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """No plan of the model's own: it may answer in words, or say none fits."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_reply('{"pick":2}')

    result = await converse(hass, agent_id, "remove item three", bedroom)

    assert offered(llm_server) == ["1 Answered in words: X.", "2 none of these."]
    assert "Tools:" not in llm_server.requests[0]["messages"][0]["content"]
    assert speech(result) == "I'm not sure what you want. Could you say it another way?"
    assert hass.states.get(BED_LIGHT).state == "on"


@pytest.mark.parametrize(
    ("language", "said", "answered", "spoken"),
    [
        ("en", "what day does the 27th fall on", "It falls on a Wednesday.", False),
        ("en", "which day would suit a picnic", "Today, Tuesday.", True),
        ("de", "auf welchen Tag fällt der 27.", "Das ist ein Mittwoch.", False),
        ("fr", "le 27 tombe quel jour", "C'est un mercredi.", False),
    ],
)
async def test_a_weekday_the_clock_does_not_show_is_not_spoken(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    language: str,
    said: str,
    answered: str,
    spoken: bool,
) -> None:
    """A small model's weekday for a date is a guess; today's is the clock's."""
    freezer.move_to("2026-03-03 09:15:00+00:00")  # a Tuesday
    llm_server.add_plan(plan(speech=answered))

    result = await converse(hass, agent_id, said, language=language)

    assert llm_server.requests
    assert (speech(result) == answered) is spoken


@pytest.mark.parametrize(
    ("language", "answered"),
    [
        ("en", "Bed Light is on, sleep well."),
        ("en", "Sure, I turned off the lights."),
        ("de", "Im Schlafzimmer ist es dunkel."),
    ],
)
async def test_the_models_answer_says_nothing_of_the_home(
    hass: HomeAssistant,
    agent_id: str,
    bedroom: str,
    llm_server: ScriptedLLMServer,
    language: str,
    answered: str,
) -> None:
    """Words that name nothing: the model's answer about a device is not heard."""
    await switched_on(hass, BED_LIGHT)
    llm_server.add_plan(plan(speech=answered))

    result = await converse(
        hass, agent_id, "good night then", bedroom, language=language
    )

    assert llm_server.requests
    assert speech(result) != answered
    assert hass.states.get(BED_LIGHT).state == "on"


async def test_the_models_answer_of_nothing_in_the_home_is_heard(
    hass: HomeAssistant, agent_id: str, bedroom: str, llm_server: ScriptedLLMServer
) -> None:
    """An answer that says nothing of the home (a greeting back) is spoken."""
    llm_server.add_plan(plan(speech="Good night, sleep well."))

    result = await converse(hass, agent_id, "good night then", bedroom)

    assert speech(result) == "Good night, sleep well."
