"""Whether the model's own words say only what the home or a tool gave.

Every fact spoken comes from the states or a tool's result, never from the
model's prose: a small model asked how warm the study is may say "20
degrees" with no sensor saying 20. Words the model writes (an answer it
wrote itself, its phrasing of a tool's data) are spoken only when every
number in them is one the home's states, their attributes or the data
show; otherwise the user hears that the agent does not know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..home.catalog import Catalog

# A number as written, with either decimal mark ("21.5", "21,5").
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def unfounded(
    text: str, catalog: Catalog, data: Any = None, now: datetime | None = None
) -> bool:
    """Whether a text holds a number no state, attribute, `data` or clock shows.

    Numbers are compared as values ("21,5" is 21.5, "20" is 20.0), each
    state's and attribute's numbers as written and as a whole percentage of
    a 0-1 share ("volume_level 0.3" shows 30); the home's clock (`now`)
    shows its date and time.
    """
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
