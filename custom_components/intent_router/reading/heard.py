"""What a said word is heard as, against the words a home and a language know.

A word the home or the language knows is itself; a compound is its parts
("küchenlampe": "küche lampe"); else it is the known word it was most likely
misheard for ("kichen" is "kitchen"). The reading (reading.py) reads the
words so heard.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from gazetteer_matcher.fuzzy import ChoiceBatch

from ..core.said import Said
from ..home.catalog import Catalog
from ..language import (
    Words,
    compound,
    every_kind_word,
    name_terms,
    stop_words,
    table_words,
    words_for,
)

# A said word of at least this length may stand for a known word this similar:
# one letter wrong, missing or swapped in six ("kichen", "offise"). Shorter
# words are too often other words: "start" is not a misheard "smart".
FUZZY_MIN_LENGTH = 6
FUZZY_MIN_RATIO = 0.8
# A verb's word of at least this length is heard through one slip ("trun").
FUZZY_VERB_LENGTH = 4


def heard_as(
    word: str,
    vocabulary: frozenset[str],
    heads: frozenset[str],
    spoken: Words,
) -> list[str]:
    """A said word as the known words it most likely is.

    A word the home or the language knows is itself, and so is a verb form
    that looks like a kind ("schalten" is no "Schalter"); a compound is its
    parts ("küchenlampe": "küche lampe"); else it is the word it was likely
    misheard for ("kichen" is "kitchen").
    """
    if (
        word in vocabulary
        or word in spoken.verb_forms
        or any(word in found for found in spoken.kinds.values())
    ):
        return [word]
    if len(parts := compound(word, spoken, heads)) > 1:
        return parts
    return [_known(word, vocabulary)]


def verbs_heard(words: list[str], known: frozenset[str], language: str) -> list[str]:
    """The words, each one a verb's word is one slip from read as that word.

    A verb misspelt or misheard still says which way it goes: "trun of the
    lights" is off, "swich of" too. Words the home or the language knows
    stay as they are (`known`).
    """
    known = known | table_words(language)
    return [
        word if word in known else (_slipped_verb(word, language) or word)
        for word in words
    ]


def _slipped_verb(word: str, language: str) -> str | None:
    """The verb's word a said word is, one slip away ("trun", "swich", "schlate").

    Only a verb's own word of four letters or more, and only where one is
    that close: "oven" is no "open" (a letter changed is another word),
    "tunr" is "turn" (two swapped).
    """
    if len(word) < FUZZY_VERB_LENGTH:
        return None
    close = {known for known in _verb_words(language) if _one_slip(word, known)}
    return close.pop() if len(close) == 1 else None


@lru_cache(maxsize=16)
def _verb_words(language: str) -> frozenset[str]:
    """A language's words of its verbs, of four letters or more.

    Cached by language: its words are looked up once, not per turn.
    """
    return frozenset(
        w
        for phrases in words_for(language).verbs.values()
        for phrase in phrases
        for w in phrase.split()
        if len(w) >= FUZZY_VERB_LENGTH
    )


def _one_slip(said: str, known: str) -> bool:
    """Two letters swapped, or from five letters one missing or one extra."""
    if len(said) == len(known):
        apart = [i for i, (a, b) in enumerate(zip(said, known, strict=True)) if a != b]
        return (
            len(apart) == 2  # noqa: PLR2004 - the two swapped letters
            and apart[1] == apart[0] + 1
            and said[apart[0]] == known[apart[1]]
            and said[apart[1]] == known[apart[0]]
        )
    short, long = sorted((said, known), key=len)
    if len(short) < FUZZY_VERB_LENGTH + 1 or len(long) - len(short) != 1:
        return False
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def all_heard(wanted: frozenset[str], said: Iterable[str]) -> bool:
    """Whether each wanted word was said, or likely misheard for it ("kichen")."""
    return wanted <= {_known(word, wanted) for word in said}


def _known(word: str, vocabulary: frozenset[str]) -> str:
    """The known word a said word most likely is ("kichen" is "kitchen")."""
    if word in vocabulary or len(word) < FUZZY_MIN_LENGTH:
        return word
    best = _choices(vocabulary).extract(word, cutoff=FUZZY_MIN_RATIO, limit=1)
    return best[0].choice if best else word


@lru_cache(maxsize=8)
def _choices(vocabulary: frozenset[str]) -> ChoiceBatch:
    """The home's words, prepared once for gazetteer-matcher's native scorer."""
    return ChoiceBatch(sorted(vocabulary))


def vocabulary(catalog: Catalog, said: Said, generic: frozenset[str]) -> frozenset[str]:
    """Every word a misheard word may be: names, places, kinds, verbs, levels.

    Only kinds the home has: "heading" is no misheard "heating" in a home
    without a thermostat. Read in the language `said` is in.
    """
    language, spoken = said.language, said.spoken
    present = {info.domain for info in catalog.exposed.values()}
    kinds = spoken.kinds.items()
    absent = {w for kind, found in kinds if kind not in present for w in found}
    absent -= {w for kind, found in kinds if kind in present for w in found}
    return frozenset(
        {
            *(generic - absent),
            *(
                w
                for info in catalog.exposed.values()
                for n in (info.name, *info.aliases)
                for w in name_terms(n, language)
            ),
            *(
                w
                for phrases in spoken.verbs.values()
                for phrase in phrases
                for w in phrase.split()
            ),
            *(w for phrase in spoken.levels for w in phrase.split()),
        }
    )


def compound_heads(catalog: Catalog, language: str) -> frozenset[str]:
    """Words a compound may start with: the home's places and names."""
    kinds = every_kind_word(language)
    return frozenset(
        w
        for text in (
            *catalog.place_names(),
            *(
                n
                for info in catalog.exposed.values()
                for n in (info.name, *info.aliases)
            ),
        )
        if text
        for w in name_terms(text, language)
        if w not in kinds
    ) - stop_words(language)


def generic_words(catalog: Catalog, language: str) -> frozenset[str]:
    """Words that name no entity on their own: stop, kind and place words."""
    kinds = every_kind_word(language)
    places = set(catalog.place_names())
    return frozenset(
        {
            *stop_words(language),
            *kinds,
            *(w for place in places for w in name_terms(place, language)),
        }
    )
