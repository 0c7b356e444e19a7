"""The values said in an utterance: numbers, in digits or words, and units.

The reading (reading.py) reads the words as `Said.terms` (said.py) keeps
them, with the symbols speech-to-text writes ("%", "°") and decimals as
words, and finds the values among them with `said_values`. A level said in
words ("full speed", "halfway", "à fond") is the percentage it means.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import re

from ..core.said import SYMBOLS
from ..language import Unit, Words, conditions_at, spans

# The units of the symbols speech-to-text writes, kept as words (said.py).
_SYMBOL_UNITS = {SYMBOLS["%"]: Unit.PERCENT, SYMBOLS["°"]: Unit.DEGREES}
_NUMBER = re.compile(r"^\d+(?:_\d+)?$")
# The most words a number is said in: "quatre vingt dix sept".
_WIDEST = 4


@dataclass(slots=True, frozen=True)
class Value:
    """A number said, and the unit it was said in (None: a bare number)."""

    number: float
    unit: Unit | None = None


def said_values(tokens: list[str], spoken: Words) -> tuple[tuple[Value, ...], set[str]]:
    """The numbers said (digits or words) with the unit after each.

    A level said in words is a percentage ("at full speed": 100 percent).
    Words that soften ("a bit", "ein bisschen", "un poco") say no amount,
    nor does the two of "both" ("les deux", "los dos", "tutte e due").
    A number word that is also an article or a reference ("ein", "un",
    "een", "one") is one only where a unit follows it ("ein Grad wärmer",
    "one degree"): "schalte das Licht ein", "un peu", "the one in the
    kitchen" say none.
    """
    numbers, levels, units = spoken.numbers, spoken.levels, spoken.units
    hedged = spans(tokens, spoken.hedges | spoken.both)
    conditioned = _condition(tokens, spoken)
    small = spoken.stop | spoken.reference
    values: list[Value] = []
    used: set[str] = set()
    index = 0
    while index < len(tokens):
        if level := _level_at(tokens, index, levels):
            values.append(Value(level[0], Unit.PERCENT))
            used.update(tokens[index : index + level[1]])
            index += level[1]
            continue
        number, width = (
            (None, 0) if index in hedged else _number_at(tokens, index, numbers)
        )
        unit, unit_width = _unit_at(tokens, index + width, units)
        if number is None or (width == 1 and tokens[index] in small and unit is None):
            index += 1
            continue
        if index not in conditioned:
            values.append(Value(number, unit))
        used.update(tokens[index : index + width + unit_width])
        index += width + unit_width
    return tuple(values), used


def _condition(tokens: list[str], spoken: Words) -> set[int]:
    """Where a condition is said: from "if" ("wenn", "si") on.

    "Set it to 22 if it is above 23": 23 is what is checked, not what is
    set. A condition said first runs to the command's verb ("if it is
    above 23, set it to 22"), one said after it to the end.
    """
    starts = conditions_at(tokens, spoken)
    if not starts:
        return set()
    verbs = sorted(spans(tokens, [p for f in spoken.verbs.values() for p in f]))
    found: set[int] = set()
    for start in starts:
        after = [i for i in verbs if i > start]
        commanded = any(i < start for i in verbs)
        end = after[0] if after and not commanded else len(tokens)
        found.update(range(start, end))
    return found


def _number_at(
    tokens: list[str], index: int, numbers: Mapping[str, float]
) -> tuple[float | None, int]:
    """The number said at `index` and how many words it takes, longest first.

    Numbers are written whole in each language's table ("quatre vingt dix
    sept", "twenty two", "zweiundzwanzig"), so the longest phrase is the one.
    """
    word = tokens[index]
    if _NUMBER.match(word):
        return float(word.replace("_", ".")), 1
    return _longest_at(tokens, index, numbers) or (None, 0)


def _level_at(
    tokens: list[str], index: int, levels: Mapping[str, float]
) -> tuple[float, int] | None:
    """The level said at `index`, unless one said from the next word goes further.

    "At full speed" is "full speed", not "at full" and a word left over.
    """
    here = _longest_at(tokens, index, levels)
    later = _longest_at(tokens, index + 1, levels)
    return None if here and later and later[1] >= here[1] else here


def _longest_at(
    tokens: list[str], index: int, phrases: Mapping[str, float]
) -> tuple[float, int] | None:
    """The longest phrase of a table said at `index`: its value and width."""
    for width in range(min(_WIDEST, len(tokens) - index), 0, -1):
        phrase = " ".join(tokens[index : index + width])
        if phrase in phrases:
            return phrases[phrase], width
    return None


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
