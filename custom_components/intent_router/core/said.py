"""The words of one utterance, read once for every step that reads them.

Shortcuts, the catalog's ranking, HA's sentences' checks, the reading, the
gate, learning and the tools that read their own requests (music) all look
at the same words; they take them from here, split once when the turn
begins, and none splits the text again. So with the language's words
(`spoken`): looked up once from the turn's language, and read by every
step from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import re

from ..language import Words, fold, is_question, terms, words_for

# Symbols speech-to-text writes, as the words they are read as ("40 %").
SYMBOLS = {"%": "pctsign", "°": "degsign"}
# "21.5" and "21,5" read as one number.
_DECIMAL = re.compile(r"(\d+)[.,](\d+)")
# Punctuation that ends a word as said ("Queen," "Train?").
_TRAILING = ".,!?;:¡¿"


@dataclass(slots=True, frozen=True)
class Said:
    """One utterance's words in each form a step reads them in."""

    text: str
    language: str
    # The language's words (every table empty for a language not shipped).
    # Never compared: the language says which they are.
    spoken: Words = field(compare=False, repr=False)
    # As every table is written (lower case, accents kept): phrases match it.
    folded: str
    # `folded`, word by word.
    words: tuple[str, ...]
    # As names and tables are matched: elided articles stripped, a verb's
    # attached pronoun split off, symbols and decimals kept as words.
    terms: tuple[str, ...]
    # Each word as said (case kept, for a title) with its folded form; an
    # elided article ("l'album") is a word of its own.
    as_said: tuple[tuple[str, str], ...]
    # Whether it asks about the home rather than for a change.
    question: bool

    @classmethod
    def of(cls, text: str, language: str) -> Said:
        """Read a text's words once."""
        folded = fold(text)
        spoken = words_for(language)
        return cls(
            text,
            language,
            spoken,
            folded,
            tuple(folded.split()),
            tuple(said_words(text, spoken)),
            _as_said(text, spoken),
            is_question(text, spoken),
        )


def said_words(text: str, spoken: Words) -> list[str]:
    """The words of a text, with its symbols and decimals kept as words."""
    for symbol, word in SYMBOLS.items():
        text = text.replace(symbol, f" {word} ")
    return terms(_DECIMAL.sub(r"\1_\2", text), spoken)


def _as_said(text: str, spoken: Words) -> tuple[tuple[str, str], ...]:
    """Each word as said and folded, an elided article apart."""
    elisions = spoken.elisions
    found: list[tuple[str, str]] = []
    for said in text.split():
        word = said.strip(_TRAILING)
        if not (folded := fold(word)):
            continue
        cut = next((len(e) for e in elisions if folded.startswith(e)), 0)
        if 0 < cut < len(folded):
            found += [(word[:cut], folded[:cut]), (word[cut:], folded[cut:])]
        else:
            found.append((word, folded))
    return tuple(found)
