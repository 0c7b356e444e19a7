"""One reading of an utterance, before anything else decides.

Each word is explained at most once, against the home (catalog.py) and the
language's words (language/):

- names of entities and their aliases: the longest, best match wins, typos
  of six letters or more forgiven; of devices the words name equally, the
  verb decides ("unlock" fits a lock, not the contact sensor of the same
  name);
- areas and floors;
- kinds of device, from words no name used ("door" in "Back Door" is not
  also a kind), narrowed to device classes where a word says one ("door":
  door and garage covers, not blinds);
- verbs ("turn off", "unlock", "brighter", "set"), values with their units
  ("60 percent", "21 degrees", "half"), words that refer back ("it",
  "them", "the same") or widen to everything;
- whether it is a question, and the words nothing explained.

The reading answers questions from states and builds plans without a model
where it is complete (local_plans.py, answers.py); the gate grounds every
plan in it (grounding.py), and the model is asked only for what it leaves
open (planner.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
import re

from gazetteer_matcher.fuzzy import ChoiceBatch

from .catalog import Catalog
from .domains import DOMAINS, verb_service
from .language import (
    Shortcut,
    Unit,
    Verb,
    content_words,
    fold,
    kind_words,
    stop_words,
    words,
    words_for,
)
from .records import EntityInfo

# A said word of at least this length may stand for a known word this similar:
# one letter wrong, missing or swapped in six ("kichen", "offise"). Shorter
# words are too often other words: "start" is not a misheard "smart".
FUZZY_MIN_LENGTH = 6
FUZZY_MIN_RATIO = 0.8

# Symbols speech-to-text writes, as words that survive folding.
_SYMBOLS = {"%": " pctsign ", "°": " degsign ", "?": " qmark ", "¿": " qmark "}
_SYMBOL_UNITS = {"pctsign": Unit.PERCENT, "degsign": Unit.DEGREES}
_QUESTION_MARK = "qmark"
# A "door" is also a garage door or a gate (never a blind); only the class
# said itself lets what asks first be meant without its name.
_ALSO_MEANT = {"cover.door": ("cover.garage", "cover.gate")}
# "21.5" and "21,5" read as one number.
_DECIMAL = re.compile(r"(\d+)[.,](\d+)")
_NUMBER = re.compile(r"^\d+(?:_\d+)?$")


@dataclass(slots=True, frozen=True)
class Mentions:
    """What an utterance names: entities, places, kinds, and references.

    `classes` narrows kinds to device classes ("cover.door"): an entity of
    that domain with another class is not meant.
    """

    entities: frozenset[str] = frozenset()
    areas: frozenset[str] = frozenset()
    floors: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    everything: bool = False
    refers_back: bool = False
    classes: frozenset[str] = frozenset()
    # Domains a verb of their own was said for ("close": covers, valves).
    acted_on: frozenset[str] = frozenset()

    def fits_class(self, info: EntityInfo) -> bool:
        """Whether an entity's device class is one the words allow."""
        said = {c for c in self.classes if c.partition(".")[0] == info.domain}
        said |= {also for c in said for also in _ALSO_MEANT.get(c, ())}
        device_class = info.all_attributes.get("device_class")
        return not said or not device_class or f"{info.domain}.{device_class}" in said


@dataclass(slots=True, frozen=True)
class Value:
    """A number said, and the unit it was said in (None: a bare number)."""

    number: float
    unit: Unit | None = None


@dataclass(slots=True, frozen=True)
class Reading:
    """Everything the words of one turn say, each word explained once."""

    mentions: Mentions = field(default_factory=Mentions)
    verbs: frozenset[Verb] = frozenset()
    values: tuple[Value, ...] = ()
    question: bool = False
    unexplained: tuple[str, ...] = ()
    # The words that said a kind ("lamp", "blinds"): a device whose name has
    # one is what they mean first.
    kind_words: frozenset[str] = frozenset()


def read(
    text: str,
    language: str,
    catalog: Catalog,
    *,
    automation: str | None = None,
    asked: str | None = None,
) -> Reading:
    """Read an utterance against the home, with what it answers.

    An automation's question lends its names, places, kinds and verbs ("yes,
    close it"); the agent's own last question (`asked`: "which one?") lends
    them to an answer that says no verb of its own ("the bedroom one"), not
    to a new command. Whether this is a question is the utterance's own.
    """
    own = _tokens(text)
    spoken = words_for(language)
    if asked and spoken and _verbs(own, spoken.verbs):
        asked = None
    context = " ".join(filter(None, (automation, asked)))
    tokens = [*(_tokens(context) if context else []), *own]
    said_verbs = _verbs(tokens, spoken.verbs if spoken else {})
    values, value_words = _values(tokens, language)
    generic = _generic(catalog, language)
    vocabulary = _vocabulary(catalog, language, generic)
    heard = [_known(word, vocabulary) for word in tokens]
    mentions, used, name_words = _mentions(
        heard, language, catalog, set(said_verbs), generic
    )
    # A verb's word that named a device is the name's when another verb was
    # said ("turn the back door lock off" locks nothing; "lock the back
    # door" does).
    verbs = {v for v, found in said_verbs.items() if not found <= name_words} or set(
        said_verbs
    )
    verb_words = {w for found in said_verbs.values() for w in found}
    mentions = replace(
        mentions,
        acted_on=frozenset(
            domain
            for domain, info in DOMAINS.items()
            if any(verb in info.verbs for verb in verbs)
        ),
    )
    # A "?" asks unless it ends a request ("can you turn off the lights?").
    question = is_state_question(text, language) or (
        _QUESTION_MARK in own
        and not (spoken and fold(text).startswith(spoken.requests))
    )
    # "Again" repeats what was last done ("und wieder an": it, on again).
    again = (
        {tokens[i] for i in _phrases(tokens, spoken.shortcuts[Shortcut.AGAIN])}
        if spoken
        else set()
    )
    if again:
        mentions = replace(mentions, refers_back=True)
    hedges = {tokens[i] for i in _phrases(tokens, spoken.hedges)} if spoken else set()
    # "Could you ..." asks for the action: its words say nothing more.
    if spoken and (
        request := next((r for r in spoken.requests if fold(text).startswith(r)), "")
    ):
        hedges |= set(request.split())
    # Politeness, "it" and "all" are read elsewhere.
    ignored = (
        stop_words(language)
        | again
        | hedges
        | (
            spoken.filler | spoken.reference | spoken.everything
            if spoken
            else frozenset()
        )
    )
    unexplained = tuple(
        word
        for word in heard
        if word not in used | verb_words | value_words | ignored
        and word != _QUESTION_MARK
    )
    kind_words = frozenset(
        word
        for found in (spoken.kinds.values() if spoken else ())
        for word in found
        if word in used and word not in verb_words
    )
    return Reading(
        mentions, frozenset(verbs), values, question, unexplained, kind_words
    )


def is_state_question(text: str, language: str) -> bool:
    """Whether an utterance asks about the home rather than for a change."""
    spoken = words_for(language)
    return spoken is not None and fold(text).startswith(spoken.openers)


def find_mentions(text: str, language: str, catalog: Catalog) -> Mentions:
    """What a text names in the home (the reading, without verbs or values)."""
    return read(text, language, catalog).mentions


def _tokens(text: str) -> list[str]:
    """The words of a text, with its symbols and decimals kept as words."""
    for symbol, word in _SYMBOLS.items():
        text = text.replace(symbol, word)
    return words(_DECIMAL.sub(r"\1_\2", text))


def _phrases(tokens: list[str], phrases: frozenset[str]) -> set[int]:
    """Where in `tokens` any of the phrases is said (the indexes it covers)."""
    found: set[int] = set()
    for phrase in phrases:
        parts = phrase.split()
        for start in range(len(tokens) - len(parts) + 1):
            if tokens[start : start + len(parts)] == parts:
                found.update(range(start, start + len(parts)))
    return found


def _verbs(
    tokens: list[str], table: Mapping[Verb, frozenset[str]]
) -> dict[Verb, set[str]]:
    """The verbs said, each with its words."""
    return {
        verb: {tokens[i] for i in found}
        for verb, phrases in table.items()
        if (found := _phrases(tokens, phrases))
    }


def _values(tokens: list[str], language: str) -> tuple[tuple[Value, ...], set[str]]:
    """The numbers said (digits or words) with the unit after each."""
    spoken = words_for(language)
    # "The one in the kitchen" says which, not how much.
    numbers = (
        {said: n for said, n in spoken.numbers.items() if said not in spoken.reference}
        if spoken
        else {}
    )
    units = spoken.units if spoken else {}
    values: list[Value] = []
    used: set[str] = set()
    index = 0
    while index < len(tokens):
        number, width = _number_at(
            tokens, index, numbers, spoken.numbers if spoken else {}
        )
        if number is None:
            index += 1
            continue
        unit, unit_width = _unit_at(tokens, index + width, units)
        values.append(Value(number, unit))
        used.update(tokens[index : index + width + unit_width])
        index += width + unit_width
    return tuple(values), used


def _number_at(
    tokens: list[str],
    index: int,
    numbers: Mapping[str, float],
    units: Mapping[str, float],
) -> tuple[float | None, int]:
    """The number said at `index` and how many words it takes.

    `units` may end a number ("twenty one") where `numbers` do not start one.
    """
    word = tokens[index]
    if _NUMBER.match(word):
        return float(word.replace("_", ".")), 1
    for width in (3, 2, 1):
        phrase = " ".join(tokens[index : index + width])
        if phrase in numbers:
            value = numbers[phrase]
            # "twenty one": tens, then units.
            following = tokens[index + width] if index + width < len(tokens) else ""
            if value >= 20 and value % 10 == 0 and 0 < units.get(following, 0) < 10:  # noqa: PLR2004 - tens and units
                return value + units[following], width + 1
            return value, width
    return None, 0


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


def _mentions(
    heard: list[str],
    language: str,
    catalog: Catalog,
    verbs: set[Verb],
    generic: frozenset[str],
) -> tuple[Mentions, set[str], set[str]]:
    """Names first, then places, then kinds from the words left.

    Also the words used, and of those the words that named a device.
    """
    spoken = words_for(language)
    said = set(heard)
    names = _named(catalog, said, language, verbs, generic)
    # A place is read from every word ("the kitchen lights" are in the
    # kitchen); a word of a name or a place is not also a kind.
    areas = frozenset(a for a in catalog.area_floors if _says(said, a, language))
    floors = frozenset(
        f
        for f in filter(None, catalog.area_floors.values())
        if _says(said, f, language)
    )
    name_words = {word for hit in names.values() for word in hit}
    used = name_words | {
        w for place in (*areas, *floors) for w in content_words(place, language)
    }
    left = said - used
    kinds = {
        domain
        for domain, found in (spoken.kinds.items() if spoken else ())
        if found & left
    }
    classes = frozenset(
        name
        for name, found in (spoken.classes.items() if spoken else ())
        if found & left or _phrases(heard, frozenset(p for p in found if " " in p))
    )
    kinds |= {name.partition(".")[0] for name in classes}
    used |= {
        word
        for found in (spoken.kinds.values() if spoken else ())
        for word in found & left
    }
    return (
        Mentions(
            entities=frozenset(names),
            areas=areas,
            floors=floors,
            kinds=frozenset(kinds),
            everything=spoken is not None and bool(left & spoken.everything),
            refers_back=spoken is not None and bool(left & spoken.reference),
            classes=classes,
        ),
        used,
        name_words,
    )


def _named(
    catalog: Catalog,
    heard: set[str],
    language: str,
    verbs: set[Verb],
    generic: frozenset[str],
) -> dict[str, frozenset[str]]:
    """Entities named in full, or by a distinctive part of a name; their words.

    Words of places and kinds of device do not name an entity on their own
    ("kitchen", "light"): they make the place and kind rules apply instead.
    A name said without its last word when that word is its own kind ("Back
    Door" for Back Door Lock) is said in full. Of two entities, the one more
    of whose name was said wins ("good night" names Good Night, not Movie
    Night); of those named equally, the verb decides ("unlock the back
    door": the lock, not the door sensor).
    """
    hits: dict[str, frozenset[str]] = {}
    for info in catalog.exposed.values():
        found = [n for n in (info.name, *info.aliases) if n]
        full = [
            said
            for name in found
            if (said := _said_name(heard, name, info.domain, language, generic))
        ]
        if full:
            hits[info.entity_id] = max(full, key=len)
        elif part := ({w for n in found for w in words(n)} - generic) & heard:
            hits[info.entity_id] = frozenset(part)
    strongest = {
        entity_id: hit
        for entity_id, hit in hits.items()
        if not any(other > hit for other in hits.values())
    }
    fitting = {
        entity_id
        for entity_id in strongest
        if any(verb_service(entity_id.partition(".")[0], v) for v in verbs)
    }
    return {
        entity_id: hit
        for entity_id, hit in strongest.items()
        if entity_id in fitting
        or not any(o in fitting for o, other in strongest.items() if other == hit)
    }


def _said_name(
    heard: set[str], name: str, domain: str, language: str, generic: frozenset[str]
) -> frozenset[str]:
    """The words of a name said in full, or of it without its own kind word."""
    if _says(heard, name, language):
        return content_words(name, language)
    *core, last = words(name) or [""]
    if core and last in kind_words(domain, language):
        wanted = content_words(" ".join(core), language)
        # Not a place or kind alone: "Bedroom Blinds" is not "the bedroom".
        if wanted - generic and wanted <= heard:
            return wanted
    return frozenset()


def _says(heard: set[str], name: str, language: str) -> bool:
    """Whether every word of a name that matters was said."""
    wanted = content_words(name, language)
    return bool(wanted) and wanted <= heard


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


def _vocabulary(
    catalog: Catalog, language: str, generic: frozenset[str]
) -> frozenset[str]:
    """Every word a misheard word may be: names, places, kinds, verbs."""
    spoken = words_for(language)
    return frozenset(
        {
            *generic,
            *(
                w
                for info in catalog.exposed.values()
                for n in (info.name, *info.aliases)
                for w in words(n)
            ),
            *(
                w
                for phrases in (spoken.verbs.values() if spoken else ())
                for phrase in phrases
                for w in phrase.split()
            ),
        }
    )


def _generic(catalog: Catalog, language: str) -> frozenset[str]:
    """Words that name no entity on their own: stop, kind and place words."""
    spoken = words_for(language)
    kinds = {w for found in (spoken.kinds.values() if spoken else ()) for w in found}
    places = {*catalog.area_floors, *filter(None, catalog.area_floors.values())}
    return frozenset(
        {
            *stop_words(language),
            *kinds,
            *(w for place in places for w in words(place)),
        }
    )
