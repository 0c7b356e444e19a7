"""Questions about the home answered from its states, without a model.

When the reading of a question names what it asks about (a device, or a
kind of device in a place: "is the kettle on?", "what's the temperature in
here?", "is the back door locked?"), the answer is the state itself, in the
turn's language: Home Assistant's own translation of the state ("an",
"verriegelt"), or the value and unit as the entity reports them, said as
spoken.py says values ("21,5 Grad"). A temperature asked for a place is that place's
own sensor, else its thermostat's reading, never another room's; "outside"
is the weather. Anything else (judgement, advice, the future) is left to
the model.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .grounding import candidates
from .reading import Reading
from .speech import Phrase, phrase
from .spoken import SpokenValues, is_number

if TYPE_CHECKING:
    from .catalog import Catalog
    from .records import EntityInfo

# More devices than this in one answer is a list nobody listens to.
MAX_ANSWERED = 4
TEMPERATURE = "sensor.temperature"
# A thermostat in these states has no mode to be set to: it "is off".
_NO_MODE = frozenset({"off", "unavailable", "unknown"})


@dataclass(slots=True, frozen=True)
class Answer:
    """What to say, and what it was about ("turn it down" next)."""

    said: list[Phrase]
    about: tuple[str, ...]


def answer(
    reading: Reading,
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
) -> Answer | None:
    """What to say to a question the reading knows the subject of, or None."""
    if not reading.question:
        return None
    mentions = reading.mentions
    if mentions.entities:
        named = [catalog.exposed[e] for e in sorted(mentions.entities)]
        return _states(named[:MAX_ANSWERED], values)
    if TEMPERATURE in mentions.classes or "climate" in mentions.kinds:
        return _temperature(reading, catalog, values)
    kinds = mentions.kinds - {"weather"}
    if len(kinds) != 1:
        return None
    found = [
        catalog.exposed[e]
        for e in sorted(candidates(mentions, catalog, confirm, kinds))
    ]
    if not found or len(found) > MAX_ANSWERED:
        return None
    return _states(found, values)


def _temperature(
    reading: Reading, catalog: Catalog, values: SpokenValues
) -> Answer | None:
    """The temperature of the place meant: its sensor, else its thermostat."""
    mentions = reading.mentions
    if "weather" in mentions.kinds:
        weather = [i for i in catalog.exposed.values() if i.domain == "weather"]
        value = weather[0].all_attributes.get("temperature") if weather else None
        if value is None:
            return None
        unit = weather[0].all_attributes.get("temperature_unit") or ""
        said = phrase("answer_outside", value=values.quantity(value, unit))
        return Answer([said], (weather[0].entity_id,))
    place = next(iter(sorted(mentions.areas)), None) or catalog.speaker_area
    if place is None:
        return None
    in_place = [i for i in catalog.exposed.values() if i.area == place]
    sensors = [
        i
        for i in in_place
        if i.domain == "sensor"
        and i.all_attributes.get("device_class") == "temperature"
    ]
    source = sensors[0] if sensors else None
    if source is not None:
        unit = source.all_attributes.get("unit_of_measurement") or ""
        value = values.quantity(source.state, unit)
    else:
        climates = [i for i in in_place if i.domain == "climate"]
        current = (
            climates[0].all_attributes.get("current_temperature") if climates else None
        )
        if current is None:
            return None
        source = climates[0]
        value = values.quantity(current, _catalog_unit(catalog))
    return Answer(
        [phrase("answer_place", value=value, place=place)], (source.entity_id,)
    )


def _catalog_unit(catalog: Catalog) -> str:
    """The temperature unit the home's sensors report (°C unless told)."""
    for info in catalog.exposed.values():
        if info.all_attributes.get("device_class") == "temperature":
            return str(info.all_attributes.get("unit_of_measurement") or "°C")
    return "°C"


def _states(entities: list[EntityInfo], values: SpokenValues) -> Answer | None:
    """Each entity's state, as Home Assistant words it in the language."""
    if not entities:
        return None
    return Answer(
        [
            phrase(_state_key(info), name=info.name, state=_state(info, values))
            for info in entities
        ],
        tuple(info.entity_id for info in entities),
    )


def _state_key(info: EntityInfo) -> str:
    """A thermostat's mode is a noun: it "steht auf Heizen", it is not "Heizen"."""
    if info.domain == "climate" and info.state not in _NO_MODE:
        return "answer_mode"
    return "answer_state"


def _state(info: EntityInfo, values: SpokenValues) -> str:
    """A state as said: translated, or a value with its unit.

    A thermostat adds the temperature it is set to, a player what it plays.
    """
    attributes = info.all_attributes
    unit = attributes.get("unit_of_measurement")
    if unit or is_number(info.state):
        return values.quantity(info.state, str(unit or ""))
    said = values.state(info.domain, attributes.get("device_class"), info.state)
    if info.domain == "climate" and (target := attributes.get("temperature")):
        return f"{said}, {values.quantity(target, '°')}"
    if info.domain == "media_player" and (title := attributes.get("media_title")):
        artist = attributes.get("media_artist")
        return f"{said}: {title}" + (f", {artist}" if artist else "")
    return said
