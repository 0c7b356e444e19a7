"""What it is like outside: the temperature a question about outdoors asks.

A sensor whose name says outside in any language, alone or as a
compound's start ("Outside Temperature", "Außentemperatur", "Température
extérieure"), else the weather's own temperature (answers.py says it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.spoken import is_number
from ..language import LANGUAGES, words

if TYPE_CHECKING:
    from ..home.catalog import Catalog

# The sense of the words that say outdoors ("outside", "draußen", "dehors").
OUTSIDE = "outside"


def outdoor_temperature(catalog: Catalog) -> tuple[Any, str, str] | None:
    """The temperature outside, its unit and the entity that shows it."""
    outside = frozenset().union(
        *(spoken.senses.get(OUTSIDE, frozenset()) for spoken in LANGUAGES.values())
    )
    for info in sorted(catalog.exposed.values(), key=lambda i: i.name):
        if (
            info.domain == "sensor"
            and info.all_attributes.get("device_class") == "temperature"
            and is_number(info.state)
            and any(
                word.startswith(said) for word in words(info.name) for said in outside
            )
        ):
            unit = info.all_attributes.get("unit_of_measurement") or ""
            return info.state, str(unit), info.entity_id
    weather = [i for i in catalog.exposed.values() if i.domain == "weather"]
    value = weather[0].all_attributes.get("temperature") if weather else None
    if value is None:
        return None
    unit = weather[0].all_attributes.get("temperature_unit") or ""
    return value, str(unit), weather[0].entity_id
