"""Rooms, floors and things across languages: a home named in another one.

Each language's `senses` table lists its words for rooms ("wohnzimmer"),
floors, everyday things ("deckenleuchte") and the parts of their names
("nachttisch") under keys every language shares ("living_room",
"ceiling_light", "bedside"). The reading (reading.py) reads a spoken
phrase as the home's own words of the same sense, so "Wohnzimmer" finds
"Living Room", "living room" finds "Wohnzimmer", and the "Nachttisch" of
a "Nachttischleuchte" finds "Bedside Lamp".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from ..language import LANGUAGES, every_kind_word, fold, terms, words, words_for
from ..language.tables import PARTS, PLACES

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
    where the home does not say the phrase itself, nor a name here its words.
    A home's name has a sense where it is the sense's phrase, or holds one
    of two words or a long compound ("Living Room Lamp", "Deckenleuchte
    Flur"): a short word alone ("Front Camera") may be another language's
    word for something else. A part of a name ("bedside", "desk") is held
    beside a kind word of its own language ("Bedside Lamp", "Desk Light").
    Cached by the home's names and language: the words are looked up once
    per home, not per turn.
    """
    spoken = words_for(language)
    named = [words(text) for text in texts]
    classed = frozenset().union(*spoken.classes.values())
    found: dict[tuple[str, ...], tuple[str, ...]] = {}
    for sense, phrases in spoken.senses.items():
        home = {
            " ".join(terms(phrase, spoken))
            for code, other in LANGUAGES.items()
            for phrase in other.senses.get(sense, ())
            if any(
                _holds(name, phrase.split(), _kinds_beside(sense, code))
                for name in named
            )
        }
        own = {" ".join(terms(phrase, spoken)) for phrase in phrases}
        if home:
            home_words = [w for h in sorted(home) for w in h.split()]
            # Names first: words a name here says ("Küche Decke") stay its.
            for phrase in {
                p for p in own - home if not any(_within(n, p.split()) for n in named)
            }:
                # A class word stays: "garaje" is still a garage door.
                kept = [w for w in phrase.split() if w in classed]
                key = tuple(w for w in phrase.split() if w not in spoken.stop)
                if key:
                    found[key] = tuple(dict.fromkeys([*home_words, *kept]))
    return found


def _kinds_beside(sense: str, language: str) -> frozenset[str]:
    """The words beside which a name holds a short word of a sense: a part's kinds."""
    return every_kind_word(language) if sense in PARTS else frozenset()


def _holds(name: list[str], phrase: list[str], beside: frozenset[str]) -> bool:
    """Whether a name is a phrase, or holds it where it cannot be another word.

    A short word is held only in a name that also says one of `beside`.
    """
    if name == phrase:
        return True
    if len(phrase) == 1 and len(phrase[0]) < _LONG_WORD and not beside & set(name):
        return False
    return _within(name, phrase)


def _within(name: list[str], phrase: list[str]) -> bool:
    """Whether a name says a phrase's words, in order, side by side."""
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
    "lámpara de mesita", "lampe du bureau" is "lampe de bureau". Of two
    phrases that overlap, the one reaching further is read: "lámpara de la
    mesita de noche" is a lamp and "mesita de noche", not "lámpara de
    mesita" and a night.
    """
    places = [i for i, word in enumerate(heard) if word not in stop]
    content = [heard[i] for i in places]
    out: list[str] = []
    done = 0
    k = 0
    while k < len(content):
        here = _bridge_at(content, k, bridges)
        later = _bridge_at(content, k + 1, bridges)
        if here is None or (later is not None and later[0] >= here[0]):
            k += 1
            continue
        width, home = here
        out.extend(heard[done : places[k]])
        out.extend(home)
        done = places[k + width - 1] + 1
        k += width
    return [*out, *heard[done:]]


def _bridge_at(
    content: list[str], k: int, bridges: Mapping[tuple[str, ...], tuple[str, ...]]
) -> tuple[int, tuple[str, ...]] | None:
    """The longest spoken phrase bridged at `k`: its width and the home's words."""
    for width in range(min(_WIDEST_SENSE, len(content) - k), 0, -1):
        if home := bridges.get(tuple(content[k : k + width])):
            return width, home
    return None


@cache
def place_phrases() -> frozenset[str]:
    """Every shipped language's words for rooms and floors, folded."""
    return frozenset(
        fold(phrase)
        for spoken in LANGUAGES.values()
        for sense in PLACES
        for phrase in spoken.senses.get(sense, ())
    )
