"""Rooms, floors and things across languages: a home named in another one.

Each language's `senses` table lists its words for rooms ("wohnzimmer"),
floors and everyday things ("deckenleuchte") under keys every language
shares ("living_room", "ceiling_light"). The reading (reading.py) reads a
spoken phrase as the home's own words of the same sense, so "Wohnzimmer"
finds "Living Room" and "living room" finds "Wohnzimmer".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from .language import LANGUAGES, fold, terms, words, words_for
from .language.tables import PLACES

# A word of a name this long is a compound no other language has
# ("deckenleuchte", "woonkamer"); shorter ones may be ("camera").
_LONG_WORD = 8
# The most words a room or thing is said in ("salle de séjour").
_WIDEST_SENSE = 4


@lru_cache(maxsize=16)
def sense_bridges(
    texts: frozenset[str], language: str
) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The speaker's words of a room or thing the home names in another language.

    Each spoken phrase ("wohnzimmer", "stube"), by its words that are not
    stop words, with the home's words of the same sense ("living room"),
    where the home does not say the phrase itself.
    A home's name has a sense where it is the sense's phrase, or holds one
    of two words or a long compound ("Living Room Lamp", "Deckenleuchte
    Flur"): a short word alone ("Front Camera") may be another language's
    word for something else.
    """
    spoken = words_for(language)
    if spoken is None:
        return {}
    named = [words(text) for text in texts]
    classed = frozenset().union(*spoken.classes.values())
    found: dict[tuple[str, ...], tuple[str, ...]] = {}
    for sense, phrases in spoken.senses.items():
        home = {
            " ".join(terms(phrase, language))
            for other in LANGUAGES.values()
            for phrase in other.senses.get(sense, ())
            if any(_holds(name, phrase.split()) for name in named)
        }
        own = {" ".join(terms(phrase, language)) for phrase in phrases}
        if home:
            home_words = [w for h in sorted(home) for w in h.split()]
            for phrase in own - home:
                # A class word stays: "garaje" is still a garage door.
                kept = [w for w in phrase.split() if w in classed]
                key = tuple(w for w in phrase.split() if w not in spoken.stop)
                if key:
                    found[key] = tuple(dict.fromkeys([*home_words, *kept]))
    return found


def _holds(name: list[str], phrase: list[str]) -> bool:
    """Whether a name is a phrase, or holds it where it cannot be another word."""
    if name == phrase:
        return True
    if len(phrase) == 1 and len(phrase[0]) < _LONG_WORD:
        return False
    return any(
        name[start : start + len(phrase)] == phrase
        for start in range(len(name) - len(phrase) + 1)
    )


def bridged(
    heard: list[str],
    bridges: Mapping[tuple[str, ...], tuple[str, ...]],
    stop: frozenset[str],
) -> list[str]:
    """The words heard, a spoken room or thing as the home names it.

    Small words inside the phrase do not matter: "lámpara de la mesita" is
    "lámpara de mesita", "lampe du bureau" is "lampe de bureau".
    """
    content = [i for i, word in enumerate(heard) if word not in stop]
    out: list[str] = []
    done = 0
    k = 0
    while k < len(content):
        for width in range(min(_WIDEST_SENSE, len(content) - k), 0, -1):
            key = tuple(heard[i] for i in content[k : k + width])
            if home := bridges.get(key):
                out.extend(heard[done : content[k]])
                out.extend(home)
                done = content[k + width - 1] + 1
                k += width
                break
        else:
            k += 1
    return [*out, *heard[done:]]


@cache
def place_phrases() -> frozenset[str]:
    """Every shipped language's words for rooms and floors, folded."""
    return frozenset(
        fold(phrase)
        for spoken in LANGUAGES.values()
        for sense in PLACES
        for phrase in spoken.senses.get(sense, ())
    )
