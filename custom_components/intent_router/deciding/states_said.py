"""How the home's states are said, as answers: a device's state as a sentence.

Every answer from the states ends here (answers.py, forecast.py): Home
Assistant's own translation of a state, or a value with its unit, in the
turn's language; a thermostat says its mode and setting, a player what it
plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.speech import Phrase, phrase
from ..core.spoken import SpokenValues, is_number

if TYPE_CHECKING:
    from ..core.records import EntityInfo

# A thermostat in these states has no mode to be set to: it "is off".
_NO_MODE = frozenset({"off", "unavailable", "unknown"})


@dataclass(slots=True, frozen=True)
class Answer:
    """What to say, and what it was about ("turn it down" next)."""

    said: list[Phrase]
    about: tuple[str, ...]


def states_answer(entities: list[EntityInfo], values: SpokenValues) -> Answer | None:
    """Each entity's state, as Home Assistant words it in the language."""
    if not entities:
        return None
    return Answer(
        [said_state(info, values) for info in entities],
        tuple(info.entity_id for info in entities),
    )


def said_state(info: EntityInfo, values: SpokenValues) -> Phrase:
    """One device's state, as a sentence."""
    key = "answer_mode" if _is_mode(info) else "answer_state"
    return phrase(key, name=info.name, state=_state(info, values))


def _is_mode(info: EntityInfo) -> bool:
    """A thermostat's mode is a noun: it "steht auf Heizen", it is not "Heizen"."""
    return info.domain == "climate" and info.state not in _NO_MODE


def _state(info: EntityInfo, values: SpokenValues) -> str:
    """A state as said: translated, or a value with its unit.

    A thermostat adds the temperature it is set to, the weather the one it
    reports, a player what it plays.
    """
    attributes = info.all_attributes
    unit = attributes.get("unit_of_measurement")
    if info.domain != "weather" and (unit or is_number(info.state)):
        return values.quantity(info.state, str(unit or ""))
    said = values.state(info.domain, attributes.get("device_class"), info.state)
    if info.domain == "climate" and (target := attributes.get("temperature")):
        return f"{said}, {values.quantity(target, '°')}"
    if info.domain == "weather" and is_number(outside := attributes.get("temperature")):
        unit = attributes.get("temperature_unit") or unit or "°"
        return f"{said}, {values.quantity(outside, str(unit))}"
    if info.domain == "media_player" and (title := attributes.get("media_title")):
        artist = attributes.get("media_artist")
        return f"{said}: {title}" + (f", {artist}" if artist else "")
    return said
