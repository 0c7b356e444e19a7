"""Each language's words as one data file, read and checked when imported.

Every `<code>.yaml` of a folder is one language, found by its name ("de"
for de.yaml): adding a language is adding its file, nothing registers it.
The files are read when the package is imported (in Home Assistant's
executor, with the integration), never in the event loop. A file that
breaks the schema (schema.py) stops the import with an error naming the
file, the key and what is wrong. Each file's cover classes are Home
Assistant's own words (ha_lists.py) with the file's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
import re
from typing import Any

import voluptuous as vol

from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.yaml import load_yaml_dict

from .ha_lists import cover_classes
from .schema import STEM, WORDS_FILE
from .tables import MIN_PART, MusicWords, Shortcut, Unit, Verb, Words, plain

# A words file's name: its language's code ("de", not "de-CH").
_CODE = re.compile(r"[a-z]{2,3}")
# Where a tens word written as one word with its unit loses its last vowel.
_VOWELS = frozenset("aeiouàèéìòù")

type _Numbers = Mapping[float, list[str]]


class WordsFileError(Exception):
    """A words file that is not as the schema says."""


class _SaidTwiceError(ValueError):
    """One spelling of two numbers."""


def read_languages(folders: Iterable[Path]) -> dict[str, Words]:
    """The words of every `<code>.yaml` in these folders, by code."""
    return {
        path.stem: read_words(path)
        for folder in folders
        for path in sorted(folder.glob("*.yaml"))
    }


def read_words(path: Path) -> Words:
    """One language's words file, checked, as the tables the code reads."""
    if not _CODE.fullmatch(path.stem):
        raise WordsFileError(f"{path.name}: name it by its language's code (de.yaml)")
    try:
        table = WORDS_FILE(load_yaml_dict(path))
    except HomeAssistantError as err:
        raise WordsFileError(f"{path.name}: {err}") from err
    except vol.MultipleInvalid as err:
        raise WordsFileError(
            "; ".join(_described(path, error) for error in err.errors)
        ) from err
    try:
        return _words(table, cover_classes(path.stem))
    except _SaidTwiceError as err:
        raise WordsFileError(f"{path.name}, numbers: {err}") from err


def unshipped_words() -> Words:
    """The words of a language with no file: an empty file's, every table empty.

    Read as a file is, so the schema's defaults fill it: no phrase matches,
    "." marks a decimal, nouns lose their capital, and none of Home
    Assistant's cover-class words are taken. Only `verbs` must be given.
    """
    return _words(WORDS_FILE({"verbs": {}}), {})


def _described(path: Path, error: vol.Invalid) -> str:
    """Where in a file an error is, and what it is: "en.yaml, verbs > on: ..."."""
    where = " > ".join(str(key) for key in error.path) or "the file"
    return f"{path.name}, {where}: {error.msg}"


# The tables of a file that are a plain set of phrases.
_PLAIN_TABLES = (
    "filler",
    "hedges",
    "here",
    "asking",
    "leads",
    "reference",
    "both",
    "closing",
    "negations",
    "conditions",
    "alternatives",
    "everything",
    "anything",
    "anywhere",
    "counting",
    "perfect",
    "left",
    "stop",
    "asides",
    "verb_forms",
    "asks",
    "elided",
    "complaint_frame",
    "complaint_degree",
    "quantities",
    "wear",
    "periods",
)


def _words(table: Mapping[str, Any], home: Mapping[str, frozenset[str]]) -> Words:
    """The tables of a checked file; `home`: Home Assistant's cover classes."""
    kinds: Mapping[str, list[str]] = table["kinds"]
    verbs = {Verb(verb): frozenset(found) for verb, found in table["verbs"].items()}
    units = {Unit(unit): frozenset(found) for unit, found in table["units"].items()}
    # The tables that are a plain set of phrases, as written.
    phrases: dict[str, Any] = {name: frozenset(table[name]) for name in _PLAIN_TABLES}
    complaints = {
        (domain, Verb(verb)): frozenset(found)
        for key, found in table["complaints"].items()
        for domain, _, verb in (key.partition("."),)
    }
    return Words(
        **phrases,
        **_stems_and_nouns(verbs, kinds, units),
        shortcuts={s: frozenset(table["shortcuts"].get(s, ())) for s in Shortcut},
        openers=_openings(table["openers"]),
        requests=_openings(table["requests"]),
        clitics=_longest_first(table["clitics"]),
        kinds={domain: frozenset(found) for domain, found in kinds.items()},
        kind_names={domain: frozenset(found[:2]) for domain, found in kinds.items()},
        senses=_keyed(table["senses"]),
        numbers=_numbers(table["numbers"]),
        levels={
            said: level for level, found in table["levels"].items() for said in found
        },
        verbs=verbs,
        states={Verb(verb): frozenset(f) for verb, f in table["states"].items()},
        classes=_classes(
            table["classes"], home, table["not_from_home_assistant"]["classes"]
        ),
        units=units,
        elisions=_longest_first(table["elisions"]),
        diminutives=_longest_first(table["diminutives"]),
        joints=_longest_first(table["joints"]),
        plurals=_longest_first(table["plurals"]),
        decimal_mark=table["decimal_mark"],
        capitalised_nouns=table["capitalised_nouns"],
        euphony={
            said: (other["as"], re.compile(other["before"], re.IGNORECASE))
            for said, other in table["euphony"].items()
        },
        complaints=complaints,
        bare_complaints=_bare(
            complaints, table["complaint_frame"], table["complaint_degree"]
        ),
        days={day: tuple(found) for day, found in table["days"].items()},
        clock=_keyed(table["clock"]),
        music=_music(table["music"]) if "music" in table else None,
    )


def _bare(
    complaints: Mapping[tuple[str, Verb], frozenset[str]],
    frames: Collection[str],
    degrees: Collection[str],
) -> dict[tuple[str, Verb], frozenset[str]]:
    """Each complaint's word without its degree, right after a frame.

    "Too dark" and "it's": "it's dark". Only complaints said with a degree
    ("too dark", not "can't see") have a bare word.
    """
    bare: dict[tuple[str, Verb], frozenset[str]] = {}
    for key, phrases in complaints.items():
        words = {
            rest
            for phrase in phrases
            for degree, _, rest in (phrase.partition(" "),)
            if degree in degrees and rest
        }
        found = frozenset(f"{frame} {word}" for frame in frames for word in words)
        if found:
            bare[key] = found
    return bare


def _stems_and_nouns(
    verbs: Mapping[Verb, frozenset[str]],
    kinds: Mapping[str, list[str]],
    units: Mapping[Unit, frozenset[str]],
) -> dict[str, Any]:
    """What splitting words reads off the tables: verb stems, nouns, kind endings."""
    kind_words = {word for found in kinds.values() for word in found}
    endings = {word for word in kind_words if len(word) >= MIN_PART}
    return {
        "verb_stems": {
            plain(phrase): phrase
            for phrases in verbs.values()
            for phrase in phrases
            if " " not in phrase
        },
        "nouns": frozenset(kind_words).union(*units.values()),
        "kind_endings": tuple(sorted(endings, key=len, reverse=True)),
    }


def _keyed(table: Mapping[str, list[str]]) -> dict[str, frozenset[str]]:
    """A table of phrases under keys, each key's as a set."""
    return {key: frozenset(found) for key, found in table.items()}


def _longest_first(phrases: Iterable[str]) -> tuple[str, ...]:
    """Endings or beginnings, longest first: the longest one found is the one."""
    return tuple(sorted(set(phrases), key=lambda said: (-len(said), said)))


def _openings(phrases: Iterable[str]) -> tuple[str, ...]:
    """How utterances start: a whole word ("is ") or a stem ("what*": "what")."""
    return tuple(
        said.removesuffix(STEM) if said.endswith(STEM) else f"{said} "
        for said in phrases
    )


def _classes(
    own: Mapping[str, list[str]],
    home: Mapping[str, frozenset[str]],
    left_out: Mapping[str, list[str]],
) -> dict[str, frozenset[str]]:
    """Each device class's words: Home Assistant's but those left out, and the file's."""
    return {
        name: frozenset(own.get(name, ()))
        | home.get(name, frozenset()) - frozenset(left_out.get(name, ()))
        for name in dict.fromkeys([*own, *home])
    }


def _numbers(numbers: Mapping[str, Any]) -> dict[str, float]:
    """Each spelling of a number said in words, with its value.

    Said alone: `said`, `units`, `teens`, `tens`; and joined, each tens
    word with each units word in each of a join's `forms`.
    """
    tables = [numbers[name] for name in ("said", "units", "teens", "tens")]
    tables += [_joined(join, numbers) for join in numbers["joins"]]
    values: dict[str, float] = {}
    for table in tables:
        for value, spellings in table.items():
            for said in spellings:
                if values.setdefault(said, value) != value:
                    raise _SaidTwiceError(f"{said!r} is {values[said]:g} and {value:g}")
    return values


def _joined(join: Mapping[str, Any], numbers: Mapping[str, Any]) -> _Numbers:
    """The numbers one way of joining tens and units makes.

    A join is for the language's tens, or those it names; it joins the
    language's units, with its own spellings of them (`units`), and the
    teens where it says so (`teens`: French "soixante dix sept").
    """
    units = {
        value: [*numbers["units"].get(value, ()), *join["units"].get(value, ())]
        for value in dict.fromkeys([*numbers["units"], *join["units"]])
    }
    if join["teens"]:
        units |= numbers["teens"]
    return _counted(join.get("tens", numbers["tens"]), units, join["forms"])


def _counted(tens: _Numbers, units: _Numbers, forms: list[str]) -> _Numbers:
    """The numbers a tens word and a units word make, in a language's forms.

    A form joins them as the language writes it: "{tens} {unit}" (twenty
    two, soixante quinze), "{unit}und{tens}" (zweiundzwanzig), "{tens} y
    {unit}" (treinta y dos). Where a form writes them as one word and a
    vowel meets a vowel, the tens word also loses its own (venti + otto is
    "ventotto"). Every spelling of each word is joined with every other.
    """
    said: dict[float, list[str]] = {}
    for ten, ten_words in tens.items():
        for unit, unit_words in units.items():
            pairs = [(t, u) for t in ten_words for u in unit_words]
            spellings = {
                form.format(tens=t, unit=u) for form in forms for t, u in pairs
            }
            spellings |= {
                form.format(tens=t[:-1], unit=u)
                for form in forms
                if "}{" in form
                for t, u in pairs
                if t[-1] in _VOWELS and u[0] in _VOWELS
            }
            said[ten + unit] = sorted(spellings)
    return said


def _music(table: Mapping[str, Any]) -> MusicWords:
    """How a language asks for music by name."""
    return MusicWords(
        play=_longest_first(table["play"]),
        wishes=_longest_first(table["wishes"]),
        play_last=_longest_first(table["play_last"]),
        particles=_longest_first(table["particles"]),
        kinds=_keyed(table["kinds"]),
        leading=_longest_first(table["leading"]),
        places=_longest_first(table["places"]),
        generic=frozenset(table["generic"]),
        media=frozenset(table["media"]),
        shared=frozenset(table["shared"]),
        commands=frozenset(table["commands"]),
        also=_longest_first(table["also"]),
        playing=_longest_first(table["playing"]),
        sound=frozenset(table["sound"]),
    )
