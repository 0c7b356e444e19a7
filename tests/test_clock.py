"""The time and the date asked in everyday words, answered as Home Assistant does.

Home Assistant's own sentences know "what time is it"; people also say
"tell me the hour" or "whats the day today". Those are answered by HA's
own date and time intents, in their response in the turn's language, and
the model is never asked (it is scripted to do something else).
"""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import act, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

# Saturday 14 March 2026, 10:05 in the tests' time zone (US/Pacific, PDT).
NOW = "2026-03-14T17:05:00+00:00"
LAMP = "light.bed_light"


@pytest.mark.parametrize(
    ("language", "asked", "answered"),
    [
        ("en", "whats the day today", "March 14th, 2026"),
        ("en", "tell me the hour", "10:05 AM"),
        ("en", "can i have today's date", "March 14th, 2026"),
        ("en", "what is the date and time for today", "March 14th, 2026 10:05 AM"),
        ("de", "weißt du wie spät es ist", "Es ist 10:05"),
        ("fr", "quelle heure il est", "Il est 10:05"),
        ("es", "dime la fecha de hoy", "Es sábado, 14 de marzo de 2026"),
        ("es", "qué hora es ahora mismo", "Son las 10 y 5 de la mañana"),
        ("nl", "weet je de datum", "Het is zaterdag 14 maart 2026"),
        ("it", "sai che giorno è oggi", "È sabato, 14 marzo 2026"),
    ],
)
async def test_the_clock_asked_in_other_words_is_answered_by_home_assistant(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    language: str,
    asked: str,
    answered: str,
) -> None:
    """HA's intents give the time, and their response says it; no model."""
    freezer.move_to(NOW)
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    llm_server.add_plan(plan(act("light.turn_on", LAMP)))

    result = await converse(
        hass, agent_id, asked, satellite_in(hass, "Bedroom"), language=language
    )

    assert speech(result) == answered
    assert hass.states.get(LAMP).state == "off"
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "asked"),
    [
        ("en", "what time is the sunset"),
        ("en", "how's your day"),
        ("de", "wann ist der Tag der Abfuhr"),
        ("fr", "à quelle heure ferme la boulangerie"),
    ],
)
async def test_a_question_saying_more_than_the_clock_is_not_the_clocks(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    language: str,
    asked: str,
) -> None:
    """A word the clock does not explain ("sunset") leaves it to the model."""
    freezer.move_to(NOW)
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    llm_server.add_plan(plan(speech="I don't know that."))

    result = await converse(
        hass, agent_id, asked, satellite_in(hass, "Bedroom"), language=language
    )

    assert "10:05" not in speech(result)
    assert "2026" not in speech(result)
    assert len(llm_server.requests) == 1
