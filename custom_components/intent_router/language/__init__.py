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
from importlib import import_module
import pkgutil
import re

from .tables import Shortcut, Unit, Verb, Words

__all__ = [
    "FALLBACK_LANGUAGE",
    "LANGUAGES",
    "Shortcut",
    "Unit",
    "Verb",
    "Words",
    "base_language",
    "content_words",
    "fold",
    "kind_words",
    "number",
    "stop_words",
    "words",
    "words_for",
]

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


def _shipped() -> dict[str, Words]:
    """The `WORDS` of every language module of this package, by its name."""
    found: dict[str, Words] = {}
    for module in pkgutil.iter_modules(__path__):
        spoken = getattr(import_module(f"{__name__}.{module.name}"), "WORDS", None)
        if isinstance(spoken, Words):
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
