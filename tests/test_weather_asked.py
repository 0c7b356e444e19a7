"""The weather asked about as people ask it, answered by the weather entity.

"Will it rain tomorrow?", "should I wear a jacket today?", "regnet es am
Freitag?": the day said is answered with that day's forecast as the
entity's `weather.get_forecasts` returns it, no day with the weather now,
in six languages, never in a model's words and never by changing anything.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .helpers import async_setup_template_entity, converse, home_states, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer

# Each day's forecast by its distance from today: condition, high, low.
FORECAST = {0: ("sunny", 24, 12), 1: ("rainy", 18, 9), 2: ("snowy", 2, -3)}
NOW = ("cloudy", 15)


def _forecast_template() -> str:
    """The daily forecast, dated from today as the home's clock reads it.

    Dates written out, not computed by the template: a template that reads
    the time would be refreshed by a timer of its own.
    """
    today = dt_util.start_of_local_day()
    entries = ", ".join(
        f"{{'datetime': '{(today + timedelta(days=days)).isoformat()}',"
        f" 'condition': '{condition}', 'temperature': {high}, 'templow': {low}}}"
        for days, (condition, high, low) in FORECAST.items()
    )
    return f"{{{{ [{entries}] }}}}"


@pytest.fixture
async def agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The test home with a weather entity that forecasts three days."""
    agent = await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})
    await async_setup_template_entity(
        hass,
        "weather",
        {
            "name": "Home",
            "condition": NOW[0],
            "temperature": f"{{{{ {NOW[1]} }}}}",
            "humidity": "{{ 60 }}",
            "temperature_unit": "°C",
            "forecast_daily": _forecast_template(),
        },
    )
    return agent


def _weekday(days: int) -> str:
    """The English name of the day `days` from today ("Friday")."""
    return f"{dt_util.now() + timedelta(days=days):%A}"


ASKED = [
    ("en", "will it rain tomorrow?", "Tomorrow: rainy, from 9 degrees to 18 degrees."),
    (
        "en",
        "should i wear a jacket today",
        "Today: sunny, from 12 degrees to 24 degrees.",
    ),
    ("de", "regnet es morgen?", "Morgen: regnerisch, 9 Grad bis 18 Grad."),
    ("de", "brauche ich heute eine Jacke", "Heute: sonnig, 12 Grad bis 24 Grad."),
    (
        "fr",
        "quel temps fera-t-il demain ?",
        "Demain : pluvieux, de 9 degrés à 18 degrés.",
    ),
    ("es", "¿va a llover mañana?", "Mañana: lluvioso, de 9 grados a 18 grados."),
    (
        "nl",
        "gaat het morgen regenen?",
        "Morgen: regenachtig, van 9 graden tot 18 graden.",
    ),
    ("it", "che tempo fa domani?", "Domani: piovoso, da 9 gradi a 18 gradi."),
    # How warm a day to come will be: the forecast's, not the thermostat's.
    (
        "en",
        "will it be too cold for a dress tomorrow",
        "Tomorrow: rainy, from 9 degrees to 18 degrees.",
    ),
    ("de", "wird es morgen kalt?", "Morgen: regnerisch, 9 Grad bis 18 Grad."),
    (
        "fr",
        "fera-t-il chaud demain ?",
        "Demain : pluvieux, de 9 degrés à 18 degrés.",
    ),
]


@pytest.mark.parametrize(("language", "said", "answer"), ASKED)
async def test_a_day_said_is_that_days_forecast(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Tomorrow is the forecast's next day, in Home Assistant's own condition words."""
    before = home_states(hass)

    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answer
    assert home_states(hass) == before
    assert llm_server.requests == []


async def test_a_weekday_is_its_date_in_the_forecast(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The weekday two days on is the forecast's third day, not today's."""
    day = _weekday(2)

    result = await converse(hass, agent, f"what's the weather on {day.lower()}?")

    assert speech(result) == f"{day}: snowy, from -3 degrees to 2 degrees."


async def test_a_day_past_the_forecast_is_said_and_the_weather_now_given(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """No number the forecast does not hold: the day it lacks, then the weather now."""
    day = _weekday(5)

    result = await converse(hass, agent, f"will it snow on {day}?")

    assert speech(result) == f"{day}: Home has no forecast. Home is cloudy, 15 degrees."
    assert llm_server.requests == []


NO_DAY = [
    ("en", "do i need an umbrella", "Home is cloudy, 15 degrees."),
    ("de", "brauche ich einen Regenschirm?", "Home ist bewölkt, 15 Grad."),
    ("es", "¿necesito paraguas?", "Home: nublado, 15 grados."),
    ("en", "ten day forecast", "Home is cloudy, 15 degrees."),
    ("fr", "la météo s'il te plaît", "Home : nuageux, 15 degrés."),
]


@pytest.mark.parametrize(("language", "said", "answer"), NO_DAY)
async def test_no_day_said_is_the_weather_now(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """What to wear, with no day, is the weather the entity shows now."""
    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answer
    assert llm_server.requests == []


async def test_a_command_with_a_weather_word_is_no_question(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """A verb asking for a change is a command, and its condition asks first."""
    llm_server.add_reply('{"pick":1}')
    before = home_states(hass)

    result = await converse(
        hass, agent, "turn on the kitchen lights tomorrow if it rains"
    )

    assert speech(result) == "Do you want me to turn on Kitchen Lights?"
    assert home_states(hass) == before


NOT_ASKED = [
    ("fr", "annonce qu'il pleut"),
    ("fr", "il reste combien de temps au minuteur pour fermer la fenêtre"),
    ("es", "cuánto tiempo queda en el temporizador"),
    ("en", "it's raining"),
]


@pytest.mark.parametrize(("language", "said"), NOT_ASKED)
async def test_the_weather_said_in_passing_asks_nothing_of_it(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """A statement of the weather, or a timer's time, is no weather question."""
    llm_server.add_reply('{"pick":0}')

    result = await converse(hass, agent, said, language=language)

    assert "Home" not in speech(result)


@pytest.mark.parametrize(
    ("language", "said", "answer"),
    [
        ("en", "will it snow next week", "Home is cloudy, 15 degrees."),
        ("de", "schneit es nächste Woche?", "Home ist bewölkt, 15 Grad."),
    ],
)
async def test_the_next_week_names_no_next_alarm(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """A span of time ("next week") names no sensor called Next Alarm."""
    hass.states.async_set(
        "sensor.next_alarm",
        "2026-03-04T07:00:00+00:00",
        {"friendly_name": "Next Alarm", "device_class": "timestamp"},
    )
    async_expose_entity(hass, CONVERSATION_DOMAIN, "sensor.next_alarm", True)

    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answer
    assert llm_server.requests == []
