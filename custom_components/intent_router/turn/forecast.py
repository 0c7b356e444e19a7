"""The weather asked about, answered by the home's weather entity.

"Will it rain tomorrow?", "should I wear a jacket today?", "wie wird das
Wetter am Freitag?": a turn that asks of the weather (the weather kind's
words: the weather itself, a condition; or what people wear for it) and
for no change is about the weather, whatever else its words say. A day said (`Words.days`:
today, tomorrow, a weekday) is answered with that day's forecast, as the
entity's `weather.get_forecasts` returns it; no day, or a day the forecast
does not reach, with the weather now, as its state shows it (answers.py).
Every fact said is the entity's; nothing is left to a model's words.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from homeassistant.exceptions import HomeAssistantError
from homeassistant.util import dt as dt_util

from ..const import LOGGER
from ..core.records import Outcome
from ..core.speech import Phrase, phrase
from ..core.spoken import is_number
from ..deciding.states_said import said_state
from ..language import Words, fold, says_day_ahead, spans, words
from ..language.tables import DAYS, STATE_VERBS, WEEKDAYS
from .replies import Source, TurnResult

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..core.records import EntityInfo
    from ..core.spoken import SpokenValues
    from ..deciding.utterance import Utterance
    from ..home.catalog import Catalog
    from ..reading.reading import Reading

WEATHER = "weather"
# Kinds that say how warm it is now, never on a day to come: warmth asked
# of a day to come ("wird es morgen kalt?") is the forecast's.
_NOW_ONLY = frozenset({"climate", "sensor"})


def weather_asked(reading: Reading, text: str) -> bool:
    """Whether a turn asks about the weather and for nothing else.

    It says no device, no other kind ("wie lange noch am Fenster?"), no
    timer and no verb that asks for a change. The weather's own name asks it anywhere
    ("weather in the city", "ten day forecast"), as what people wear for it
    does ("do I need an umbrella"); a condition, in a question or with a day
    ("will it rain tomorrow"). "Annonce qu'il pleut" asks nothing. How warm
    or cold a day to come will be ("will it be too cold on Sunday?", "wird
    es morgen kalt?") is the forecast's: a thermostat has none.
    """
    mentions = reading.mentions
    spoken, said = reading.spoken, words(text)
    kinds = mentions.kinds - {WEATHER}
    ahead = (
        bool(kinds)
        and kinds <= _NOW_ONLY
        and reading.question
        and says_day_ahead(said, spoken)
    )
    # A complaint's step ("too cold": warmer) asks nothing of a day to come.
    verbs = set() if ahead and reading.complaint else reading.verbs - STATE_VERBS
    if mentions.entities or (kinds and not ahead) or verbs:
        return False
    # A timer or an alarm said is asked of ("cuánto tiempo queda en el
    # temporizador"): the commands other words share (music.py's table).
    if spoken.music and not spoken.music.commands.isdisjoint(said):
        return False
    if spans(said, spoken.wear | spoken.kind_names.get(WEATHER, frozenset())):
        return True
    return ahead or (
        WEATHER in mentions.kinds
        and (reading.question or day_said(text, spoken) is not None)
    )


def day_said(text: str, spoken: Words) -> tuple[str, date] | None:
    """The day a forecast is asked for, by its `DAYS` name, and its date.

    The longest phrase said is the day ("heute morgen" is today, not
    "morgen"); two days said ask for no one day.
    """
    padded = f" {fold(text)} "
    found: set[str] = set()
    for said, day in sorted(
        ((p, d) for d, phrases in spoken.days.items() for p in phrases),
        key=lambda pair: -len(pair[0]),
    ):
        if f" {said} " in padded:
            found.add(day)
            padded = padded.replace(f" {said} ", " | ")
    if len(found) != 1:
        return None
    day = found.pop()
    today = dt_util.now().date()
    if day in WEEKDAYS:
        return day, today + timedelta(days=(WEEKDAYS.index(day) - today.weekday()) % 7)
    return day, today + timedelta(days=DAYS.index(day))


async def async_weather_answered(
    hass: HomeAssistant, utterance: Utterance, reading: Reading, catalog: Catalog
) -> TurnResult | None:
    """The weather a turn asks about, or None: it asks none, or none is exposed."""
    if not weather_asked(reading, utterance.said.text):
        return None
    # The first, as Home Assistant's own weather intent takes it, or the
    # speaker's room's.
    found = sorted(
        (i for i in catalog.exposed.values() if i.domain == WEATHER),
        key=lambda i: not catalog.is_here(i),
    )
    if not found:
        return None
    info = found[0]
    values = utterance.phrases.values
    day = day_said(utterance.said.text, reading.spoken)
    if day is None:
        said = [said_state(info, values)]
    else:
        forecast = await _async_daily(hass, info, utterance)
        utterance.trace(forecast=forecast)
        entry = None if forecast is None else _on(forecast, day[1])
        said = [_day_said(info, day, entry, values, reading.spoken)]
        if entry is None:
            said.append(said_state(info, values))
    utterance.trace(answered_from_states=[info.entity_id])
    speech = " ".join(utterance.phrases.say(part) for part in said)
    return TurnResult(speech, Outcome.ANSWERED, Source.READING, about=(info.entity_id,))


async def _async_daily(
    hass: HomeAssistant, info: EntityInfo, utterance: Utterance
) -> list[dict[str, Any]] | None:
    """The entity's daily forecast; None when it gives none."""
    try:
        response = await hass.services.async_call(
            WEATHER,
            "get_forecasts",
            {"entity_id": info.entity_id, "type": "daily"},
            blocking=True,
            context=utterance.user_input.context,
            return_response=True,
        )
    except HomeAssistantError as err:
        LOGGER.debug("No daily forecast from %s: %s", info.entity_id, err)
        return None
    held = (response or {}).get(info.entity_id)
    forecast = held.get("forecast") if isinstance(held, dict) else None
    return (
        [f for f in forecast if isinstance(f, dict)]
        if isinstance(forecast, list)
        else None
    )


def _on(forecast: list[dict[str, Any]], day: date) -> dict[str, Any] | None:
    """The forecast of one day, by its local date."""
    for entry in forecast:
        when = dt_util.parse_datetime(str(entry.get("datetime", "")))
        if when is not None and dt_util.as_local(when).date() == day:
            return entry
    return None


def _day_said(
    info: EntityInfo,
    day: tuple[str, date],
    entry: dict[str, Any] | None,
    values: SpokenValues,
    spoken: Words,
) -> Phrase:
    """A day's forecast as said: its condition, its highest and lowest.

    No entry: the entity has no forecast for the day.
    """
    names = spoken.days.get(day[0], ())
    name = names[0] if names else day[0]
    name = name[:1].upper() + name[1:]
    if entry is None:
        return phrase("weather_no_day", name=info.name, day=name)
    unit = str(info.all_attributes.get("temperature_unit") or "°")
    condition = values.state(WEATHER, None, str(entry.get("condition", "")))
    high, low = entry.get("temperature"), entry.get("templow")
    if is_number(high) and is_number(low):
        return phrase(
            "weather_day",
            day=name,
            condition=condition,
            high=values.quantity(high, unit),
            low=values.quantity(low, unit),
        )
    if is_number(high):
        return phrase(
            "weather_day_high",
            day=name,
            condition=condition,
            high=values.quantity(high, unit),
        )
    return phrase("weather_day_condition", day=name, condition=condition)
