"""The values said in an utterance: numbers, in digits or words, and units.

The reading (reading.py) reads its words with `said_words`, which keeps the
symbols speech-to-text writes ("%", "°") and decimals as words, and finds
the values among them with `said_values`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import re

from .language import Unit, terms, words_for

# Symbols speech-to-text writes, as words that survive folding.
_SYMBOLS = {"%": " pctsign ", "°": " degsign "}
_SYMBOL_UNITS = {"pctsign": Unit.PERCENT, "degsign": Unit.DEGREES}
# "21.5" and "21,5" read as one number.
_DECIMAL = re.compile(r"(\d+)[.,](\d+)")
_NUMBER = re.compile(r"^\d+(?:_\d+)?$")


@dataclass(slots=True, frozen=True)
class Value:
    """A number said, and the unit it was said in (None: a bare number)."""

    number: float
    unit: Unit | None = None


def said_words(text: str, language: str) -> list[str]:
    """The words of a text, with its symbols and decimals kept as words."""
    for symbol, word in _SYMBOLS.items():
        text = text.replace(symbol, word)
    return terms(_DECIMAL.sub(r"\1_\2", text), language)


def said_values(tokens: list[str], language: str) -> tuple[tuple[Value, ...], set[str]]:
    """The numbers said (digits or words) with the unit after each."""
    spoken = words_for(language)
    # "The one in the kitchen" says which, not how much.
    numbers = (
        {said: n for said, n in spoken.numbers.items() if said not in spoken.reference}
        if spoken
        else {}
    )
    units = spoken.units if spoken else {}
    values: list[Value] = []
    used: set[str] = set()
    index = 0
    while index < len(tokens):
        number, width = _number_at(
            tokens, index, numbers, spoken.numbers if spoken else {}
        )
        if number is None:
            index += 1
            continue
        unit, unit_width = _unit_at(tokens, index + width, units)
        values.append(Value(number, unit))
        used.update(tokens[index : index + width + unit_width])
        index += width + unit_width
    return tuple(values), used


def _number_at(
    tokens: list[str],
    index: int,
    numbers: Mapping[str, float],
    units: Mapping[str, float],
) -> tuple[float | None, int]:
    """The number said at `index` and how many words it takes.

    `units` may end a number ("twenty one") where `numbers` do not start one.
    """
    word = tokens[index]
    if _NUMBER.match(word):
        return float(word.replace("_", ".")), 1
    for width in (3, 2, 1):
        phrase = " ".join(tokens[index : index + width])
        if phrase in numbers:
            value = numbers[phrase]
            # "twenty one": tens, then units.
            following = tokens[index + width] if index + width < len(tokens) else ""
            if value >= 20 and value % 10 == 0 and 0 < units.get(following, 0) < 10:  # noqa: PLR2004 - tens and units
                return value + units[following], width + 1
            return value, width
    return None, 0


def _unit_at(
    tokens: list[str], index: int, units: Mapping[Unit, frozenset[str]]
) -> tuple[Unit | None, int]:
    """The unit said at `index` (a word or a symbol) and its width."""
    if index < len(tokens) and (unit := _SYMBOL_UNITS.get(tokens[index])):
        return unit, 1
    for unit, phrases in units.items():
        for phrase in phrases:
            parts = phrase.split()
            if tokens[index : index + len(parts)] == parts:
                return unit, len(parts)
    return None, 0
