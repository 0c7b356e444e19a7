"""What a language's words file may hold, checked as the file is read.

One schema, in voluptuous as Home Assistant checks its own files, for
every `<code>.yaml` (files.py): each table a list of phrases written as
`fold` leaves them, each keyed table keyed by what the code reads (a
follow-up, a verb, a unit, "<domain>.<class>", "<domain>.<verb>"), the
numbers as words with the ways the language joins tens and units. What
each table is for: docs/languages/words.md.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
import re
from typing import Any

import voluptuous as vol

from .tables import CLOCK, DAYS, GAP, Shortcut, Unit, Verb, fold

# Why a word YAML read as true, false or nothing is no word here.
_YAML_WORDS = "YAML reads on, off, yes, no and null unquoted as no word: quote it"
# A stem in a list of openers: "what*" opens "what's" and "whatever".
STEM = "*"


def _text(value: Any) -> str:
    """Text, not what YAML made of a word it reads as true, false or null."""
    if isinstance(value, bool) or value is None:
        raise vol.Invalid(f"{value!r} is no word: {_YAML_WORDS}")
    if not isinstance(value, str) or not value:
        raise vol.Invalid(f"{value!r} is no word")
    return str(value)


def _phrase(value: Any, *, written: Callable[[str], str] = lambda said: said) -> str:
    """A phrase as utterances are compared: lower case, no punctuation but '."""
    said = written(_text(value))
    if fold(said) != said:
        raise vol.Invalid(f"{value!r} is not written as said: write {fold(said)!r}")
    return str(value)


def _word(value: Any) -> str:
    """A phrase of one word."""
    said = _phrase(value)
    if " " in said:
        raise vol.Invalid(f"{value!r} is more than one word")
    return said


def _gapped(value: Any) -> str:
    """A phrase that may have a gap for a separable verb's object ("schalt … ab")."""
    return _phrase(value, written=lambda said: said.replace(f" {GAP}", ""))


def _opening(value: Any) -> str:
    """A phrase an utterance starts with, or a stem ending in `STEM` ("quel*")."""
    return _phrase(value, written=lambda said: said.removesuffix(STEM))


def _keys(choices: Collection[str]) -> Callable[[Any], str]:
    """A key that is one of these."""

    def key(value: Any) -> str:
        if _text(value) not in choices:
            raise vol.Invalid(f"{value!r} is none of {', '.join(sorted(choices))}")
        return str(value)

    return key


def _dotted(second: Collection[str] | None = None) -> Callable[[Any], str]:
    """A "<domain>.<name>" key; `second`: what the name may be."""

    def key(value: Any) -> str:
        domain, dot, name = _text(value).partition(".")
        if not (dot and domain and name) or (second and name not in second):
            raise vol.Invalid(
                f"{value!r} is no <domain>.<{'|'.join(second or ['name'])}>"
            )
        return str(value)

    return key


def _number(value: Any) -> float:
    """A number's value ("0.5"), not a word."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise vol.Invalid(f"{value!r} is no number")
    return float(value)


def _percent(value: Any) -> float:
    """A percentage, 0 to 100."""
    number = _number(value)
    if not 0 <= number <= 100:  # noqa: PLR2004 - a percentage
        raise vol.Invalid(f"{value!r} is no percentage")
    return number


def _spellings(value: Any) -> list[str]:
    """A number's spelling, or a list of them."""
    return [_phrase(value)] if not isinstance(value, list) else _PHRASES(value)


def _form(value: Any) -> str:
    """How a tens word and a units word are joined: "{tens} y {unit}"."""
    form = _text(value)
    try:
        joined = form.format(tens="t", unit="u")
    except KeyError, IndexError, ValueError:
        joined = ""
    if "{tens}" not in form or "{unit}" not in form or fold(joined) != joined:
        raise vol.Invalid(f"{value!r} joins no {{tens}} and {{unit}} as said")
    return form


def _pattern(value: Any) -> str:
    """A regular expression (a sound a word starts with)."""
    try:
        re.compile(_text(value))
    except re.error as err:
        raise vol.Invalid(f"{value!r} is no regular expression: {err}") from err
    return str(value)


_PHRASES = vol.Schema([_phrase])
_WORDS = vol.Schema([_word])
_NUMBERS = vol.Schema({_number: _spellings})
_JOIN = vol.Schema(
    {
        vol.Required("forms"): vol.All([_form], vol.Length(min=1)),
        vol.Optional("tens"): _NUMBERS,
        vol.Optional("units", default={}): _NUMBERS,
        vol.Optional("teens", default=False): bool,
    }
)
_MUSIC = vol.Schema(
    {
        vol.Required("play"): _PHRASES,
        vol.Required("kinds"): {_word: _PHRASES},
        vol.Required("leading"): _PHRASES,
        vol.Required("places"): _PHRASES,
        vol.Required("generic"): _PHRASES,
        **{
            vol.Optional(table, default=[]): _PHRASES
            for table in (
                "wishes",
                "play_last",
                "particles",
                "shared",
                "commands",
                "also",
                "playing",
                "sound",
                "media",
            )
        },
    }
)
# The tables of phrases; one left out is empty. Only `verbs` must be given.
_LISTS = (
    "filler",
    "hedges",
    "here",
    "asking",
    "leads",
    "closing",
    "clitics",
    "negations",
    "conditions",
    "alternatives",
    "anything",
    "anywhere",
    "counting",
    "perfect",
    "left",
    "asides",
    "elisions",
    "diminutives",
    "joints",
    "verb_forms",
    "asks",
    "plurals",
    "elided",
    "complaint_frame",
    "complaint_degree",
    "quantities",
    "both",
    "wear",
    "periods",
)
WORDS_FILE = vol.Schema(
    {
        vol.Required("verbs"): {_keys(list(Verb)): [_gapped]},
        vol.Optional("shortcuts", default={}): {_keys(list(Shortcut)): _PHRASES},
        **{vol.Optional(table, default=[]): _PHRASES for table in _LISTS},
        **{
            vol.Optional(table, default=[]): [_opening]
            for table in ("openers", "requests")
        },
        **{
            vol.Optional(table, default=[]): _WORDS
            for table in ("reference", "everything", "stop")
        },
        vol.Optional("kinds", default={}): {_word: _WORDS},
        vol.Optional("senses", default={}): {_word: _PHRASES},
        vol.Optional("numbers", default={}): {
            vol.Optional(table, default={}): _NUMBERS
            for table in ("said", "units", "teens", "tens")
        }
        | {vol.Optional("joins", default=[]): [_JOIN]},
        vol.Optional("levels", default={}): {_percent: _PHRASES},
        vol.Optional("states", default={}): {_keys(list(Verb)): _PHRASES},
        vol.Optional("classes", default={}): {_dotted(): _PHRASES},
        vol.Optional("not_from_home_assistant", default={}): {
            vol.Optional("classes", default={}): {_dotted(): _PHRASES}
        },
        vol.Optional("units", default={}): {_keys(list(Unit)): _PHRASES},
        vol.Optional("complaints", default={}): {_dotted(list(Verb)): _PHRASES},
        vol.Optional("days", default={}): {_keys(DAYS): _PHRASES},
        vol.Optional("clock", default={}): {_keys(CLOCK): _PHRASES},
        vol.Optional("euphony", default={}): {
            _word: {vol.Required("as"): _word, vol.Required("before"): _pattern}
        },
        vol.Optional("decimal_mark", default="."): vol.All(str, vol.Length(1, 1)),
        vol.Optional("capitalised_nouns", default=False): bool,
        vol.Optional("music"): _MUSIC,
    }
)
