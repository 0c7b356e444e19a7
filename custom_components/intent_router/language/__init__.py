"""Words, in every language the integration ships: the one place for them.

One tokenizer (`fold`, `words`) reads every utterance, name and table, so a
word listed here is the word read from what was said. Each shipped language
is one module of this package named by its code (`en.py`, `de.py`, ...)
defining `WORDS`; the modules are found when this package is imported (in
Home Assistant's executor, with the integration), so adding a language is
one words file and one translation file, nothing to register.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import import_module
import pkgutil
import re

# Apostrophes as keyboards, phones and speech engines write them.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u02bc\u2018`", "'"))
_SEPARATORS = re.compile(r"[^\w']+")
# Unshipped languages are read with these stop words, as all were before
# each language had its own.
FALLBACK_LANGUAGE = "en"


def fold(text: str) -> str:
    """Case-folded words separated by single spaces.

    Apostrophes are kept ("s'il", "com'era") whichever one was typed;
    other punctuation, hyphens included, separates words.
    """
    return _SEPARATORS.sub(" ", text.casefold().translate(_APOSTROPHES)).strip()


def words(text: str) -> list[str]:
    """The words of a text, as every table here is written."""
    return fold(text).split()


def base_language(language: str) -> str:
    """The language of a tag without its region ("de" for "de-CH", "pt_BR")."""
    return language.replace("_", "-").partition("-")[0].casefold()


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


def _table(text: str) -> frozenset[str]:
    """A table written as one "|"-separated string, to keep the files short."""
    return frozenset(text.split("|"))


@dataclass(slots=True, frozen=True)
class Words:
    """Every word table of one language, each entry as `fold` leaves it."""

    # Whole utterances that are a follow-up ("undo that", "mach das rückgängig").
    shortcuts: Mapping[Shortcut, frozenset[str]]
    # Politeness around a follow-up ("please", "bitte").
    filler: frozenset[str]
    # How questions about the home start ("is " keeps its space: "island
    # lights on" asks nothing). Requests phrased as questions ("can you
    # ...", "kannst du ...") are not on the list.
    openers: tuple[str, ...]
    # Words that refer to what the conversation last acted on ("it", "them").
    reference: frozenset[str]
    # Words that widen a kind of device to every kind ("everything").
    everything: frozenset[str]
    # Words of names and places that say nothing about which one is meant
    # ("the", "der", "turn"): never a word that names a device or room.
    stop: frozenset[str]
    # Words that point at a kind of device without naming one, per domain.
    kinds: Mapping[str, frozenset[str]]
    # Spoken numbers, by the phrase said ("fifty", "dix sept", "half").
    numbers: Mapping[str, float]

    @classmethod
    def written(
        cls,
        *,
        shortcuts: Mapping[Shortcut, str],
        filler: str,
        openers: str,
        reference: str,
        everything: str,
        stop: str,
        kinds: Mapping[str, str],
        numbers: Mapping[float, str],
    ) -> Words:
        """A language's words, every table written as "|"-separated phrases.

        Kinds are written per domain and numbers per value ("fifty" for 50).
        """
        return cls(
            shortcuts={shortcut: _table(text) for shortcut, text in shortcuts.items()},
            filler=_table(filler),
            openers=tuple(openers.split("|")),
            reference=_table(reference),
            everything=_table(everything),
            stop=_table(stop),
            kinds={domain: _table(text) for domain, text in kinds.items()},
            numbers={
                said: float(value)
                for value, text in numbers.items()
                for said in text.split("|")
            },
        )


def _shipped() -> dict[str, Words]:
    """The `WORDS` of every module of this package, by its name."""
    found: dict[str, Words] = {}
    for module in pkgutil.iter_modules(__path__):
        spoken: Words = import_module(f"{__name__}.{module.name}").WORDS
        found[module.name] = spoken
    return found


# Imported here, with the integration, never in the event loop.
LANGUAGES: Mapping[str, Words] = _shipped()


def words_for(language: str) -> Words | None:
    """The words of a language tag ("de-CH" is "de"); None if not shipped."""
    return LANGUAGES.get(base_language(language))


def kind_words(domain: str, language: str) -> frozenset[str]:
    """Words naming a domain's kind of device in a language (none unshipped)."""
    spoken = words_for(language)
    return spoken.kinds.get(domain, frozenset()) if spoken else frozenset()


def stop_words(language: str) -> frozenset[str]:
    """The words that say nothing in a name; English for unshipped languages."""
    spoken = words_for(language) or LANGUAGES[FALLBACK_LANGUAGE]
    return spoken.stop


def content_words(text: str, language: str) -> frozenset[str]:
    """The words of a name that say something ("the", "der" do not)."""
    return frozenset(words(text)) - stop_words(language)


def number(said: str, language: str) -> float | None:
    """The value of a number said in words ("fifty", "dix-sept") or digits."""
    folded = fold(said)
    if folded.isdecimal():
        return float(folded)
    spoken = words_for(language)
    return spoken.numbers.get(folded) if spoken else None
