"""Whether the model's own words say only what the home or a tool gave.

Every fact spoken comes from the states or a tool's result, never from the
model's prose: a small model asked how warm the study is may say "20
degrees" with no sensor saying 20. Words the model writes (an answer it
wrote itself, its phrasing of a tool's data) are spoken only when every
number in them is one the home's states, their attributes or the data
show, and every day of the week in them is one the clock or the data
shows ("June 27th falls on a Wednesday" is a small model's guess);
otherwise the user hears that the agent does not know. An answer of the
model's own says nothing of the home at all: its devices, rooms and
states, and what was done, are the home's to say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
import re
from typing import TYPE_CHECKING, Any

from homeassistant.util import dt as dt_util

from ..core.said import Said
from ..language import spans, words, words_for
from ..language.tables import WEEKDAYS
from ..reading.reading import read

if TYPE_CHECKING:
    from ..home.catalog import Catalog

# A number as written, with either decimal mark ("21.5", "21,5").
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def unfounded(
    text: str,
    catalog: Catalog,
    language: str,
    data: Any = None,
    now: datetime | None = None,
) -> bool:
    """Whether a text holds a number or a weekday nothing the home gave shows.

    Numbers are compared as values ("21,5" is 21.5, "20" is 20.0), each
    state's and attribute's numbers as written and as a whole percentage of
    a 0-1 share ("volume_level 0.3" shows 30); the home's clock (`now`)
    shows its date and time, and today's weekday.
    """
    return _unfounded_numbers(text, catalog, data, now) or _unfounded_weekdays(
        text, language, data, now
    )


def speaks_of_home(text: str, catalog: Catalog, language: str) -> bool:
    """Whether the model's own answer says something of the home.

    Read as the user's words are: it names a device, a kind of device, a
    room or a floor, or says a verb ("The kitchen lights are on.", "Sure,
    turning on the music."): the states and what ran are never the
    model's to say.
    """
    reading = read(Said.of(text, language), catalog)
    mentions = reading.mentions
    return bool(
        mentions.entities
        or mentions.kinds
        or mentions.areas
        or mentions.floors
        or reading.verbs
    )


def _unfounded_weekdays(
    text: str, language: str, data: Any, now: datetime | None
) -> bool:
    """Whether a text names a weekday that neither today nor a date in `data` is."""
    days = words_for(language).days
    tokens = words(text)
    said = {day for day in WEEKDAYS if spans(tokens, days.get(day, ()))}
    if not said:
        return False
    shown = {WEEKDAYS[when.weekday()] for when in _dates_in(data)}
    if now is not None:
        shown.add(WEEKDAYS[now.weekday()])
    return not said <= shown


def _dates_in(value: Any) -> list[date]:
    """Every date a tool's data writes (ISO dates and times), recursively."""
    if isinstance(value, str):
        found = dt_util.parse_datetime(value) or dt_util.parse_date(value[:10])
        return [found.date() if isinstance(found, datetime) else found] if found else []
    if isinstance(value, Mapping):
        return _dates_in(list(value.values()))
    if isinstance(value, Iterable) and not isinstance(value, bytes):
        return [d for item in value for d in _dates_in(item)]
    return []


def _unfounded_numbers(
    text: str, catalog: Catalog, data: Any, now: datetime | None
) -> bool:
    """Whether a text holds a number no state, attribute, `data` or clock shows."""
    said = _numbers(text)
    if not said:
        return False
    known = _numbers_in(data)
    if now is not None:
        known |= {
            float(n)
            for n in (now.year, now.month, now.day, now.hour, now.minute, now.hour % 12)
        }
    for info in catalog.exposed.values():
        known |= _numbers_in(info.state)
        known |= _numbers_in(info.all_attributes)
    return not said <= known


def _numbers(text: str) -> set[float]:
    """The numbers a text writes, as values."""
    return {float(found.replace(",", ".")) for found in _NUMBER.findall(text)}


def _numbers_in(value: Any) -> set[float]:
    """Every number a state, an attribute or a tool's data shows, recursively."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        shown = {float(value), float(round(value)), round(float(value), 1)}
        if 0 <= value <= 1:
            shown.add(float(round(value * 100)))
        return shown
    if isinstance(value, str):
        return {n for found in _numbers(value) for n in _numbers_in(found)}
    if isinstance(value, Mapping):
        return _numbers_in(list(value.values()))
    if isinstance(value, Iterable):
        return {n for item in value for n in _numbers_in(item)}
    return set()
