"""The words of one utterance, read once for every step that reads them.

Shortcuts, the catalog's ranking, HA's sentences' checks, the reading, the
gate and learning all look at the same words; they take them from here,
split once when the turn begins, and none splits the text again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .language import fold, is_question
from .values import said_words


@dataclass(slots=True, frozen=True)
class Said:
    """One utterance's words in each form a step reads them in."""

    text: str
    language: str
    # As every table is written (lower case, accents kept): phrases match it.
    folded: str
    # `folded`, word by word.
    words: tuple[str, ...]
    # As names and tables are matched: elided articles stripped, a verb's
    # attached pronoun split off, symbols and decimals kept as words.
    terms: tuple[str, ...]
    # Whether it asks about the home rather than for a change.
    question: bool

    @classmethod
    def of(cls, text: str, language: str) -> Said:
        """Read a text's words once."""
        folded = fold(text)
        return cls(
            text,
            language,
            folded,
            tuple(folded.split()),
            tuple(said_words(text, language)),
            is_question(text, language),
        )
