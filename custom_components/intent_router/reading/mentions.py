"""What an utterance names in the home, found in the words as heard.

Names first (named.py), then places (places.py), then kinds and device
classes from the words neither used: a verb's word is no kind ("switch the
fan on": no switch), and a kind word beside a name of that kind is the
name's ("the desk lamp light"). The reading (reading.py) finds them in one
of its passes (reading_passes.py) and keeps them as `Mentions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from ..core.records import EntityInfo
from ..core.said import Said
from ..home.catalog import Catalog
from ..language import LANGUAGES, Verb, Words, content_words, plural_kinds, spans, words
from .named import Besides, heads_of_names, named, resolved
from .places import Places, in_places, places_apart, places_said

# A "door" is also a garage door or a gate (never a blind); only the class
# said itself lets what asks first be meant without its name.
_ALSO_MEANT = {"cover.door": ("cover.garage", "cover.gate")}
# What covers a window goes by words languages split differently ("volet",
# "Rollladen", "rolluik": shutter or roller shade): where none of the class
# said is there, the others are what was meant.
_WINDOW_COVERINGS = frozenset({"cover.blind", "cover.shade", "cover.shutter"})


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
    # Kinds said in the plural apart from any name ("lights"): every device
    # of the kind.
    plural: frozenset[str] = frozenset()
    # Domains a verb of their own was said for ("close": covers, valves).
    acted_on: frozenset[str] = frozenset()
    # Devices the words name equally that neither place nor verb tells
    # apart ("the reading light" in two rooms, "reading" for a light and a
    # fan): a plan on them asks which.
    which: frozenset[str] = frozenset()

    @property
    def names_nothing(self) -> bool:
        """Whether the words point at no device, kind or place at all."""
        return not (
            self.entities
            or self.kinds
            or self.areas
            or self.floors
            or self.everything
            or self.refers_back
        )

    def fits_class(self, info: EntityInfo, *, loosely: bool = False) -> bool:
        """Whether an entity's device class is one the words allow.

        `loosely`, any window covering stands for another.
        """
        said = {c for c in self.classes if c.partition(".")[0] == info.domain}
        said |= {also for c in said for also in _ALSO_MEANT.get(c, ())}
        if loosely and said & _WINDOW_COVERINGS:
            said |= _WINDOW_COVERINGS
        device_class = info.all_attributes.get("device_class")
        if device_class:
            return not said or f"{info.domain}.{device_class}" in said
        # No class set: the name may say one ("Garage" is no curtain).
        named_as = _named_classes(info.name, info.domain)
        return not said or not named_as or bool(named_as & said)


@lru_cache(maxsize=1024)
def _named_classes(name: str, domain: str) -> frozenset[str]:
    """The device classes a name says in any language ("Garage", "Tenda")."""
    said = words(name)
    return frozenset(
        device_class
        for spoken in LANGUAGES.values()
        for device_class, phrases in spoken.classes.items()
        if device_class.partition(".")[0] == domain and spans(said, phrases)
    )


def mentions_in(
    heard: list[str],
    said: Said,
    catalog: Catalog,
    verbs: set[Verb],
    generic: frozenset[str],
    verb_at: set[int],
    besides: Besides,
    *,
    here: bool,
) -> tuple[Mentions, set[str], set[str]]:
    """Names first, then places, then kinds from the words left.

    A verb's word ("switch the fan on") is no kind, and a kind word beside a
    name of that kind is the name's ("the desk lamp light"). Also the words
    used, and of those the ones that named a device or a place. `besides`
    decides between names (named.py); `here`: "in here" was said. `heard`
    are `said`'s words as the home hears them.
    """
    language, spoken = said.language, said.spoken
    heard_once = set(heard)
    plural = plural_kinds(heard_once, spoken)
    said_places = places_said(heard_once, catalog, language, here=here)
    if any(said_places):
        # A place said, not what the last turn was about, tells names apart.
        besides = replace(besides, follows=())
    names = named(catalog, heard_once, said, verbs, generic, plural, besides)
    areas, floors = places_apart(heard, names, catalog, language, here=here)
    names = in_places(names, (areas, floors), catalog, language)
    named_or_placed = _named_or_placed(heard, names, (areas, floors), catalog, language)
    left = {w for i, w in enumerate(heard) if i not in verb_at} - named_or_placed
    # Devices named alike are told apart by every place word, a name's own
    # too ("the office lamp and the lights in the kitchen").
    entities, which = resolved(names, *said_places, catalog, plural)
    kinds, classes = _kinds_left(heard, left, verbs, spoken, named_some=bool(entities))
    used = named_or_placed | {
        word
        for found in (*spoken.kinds.values(), *spoken.classes.values())
        for word in found & left
    }
    return (
        Mentions(
            entities=entities,
            areas=areas,
            floors=floors,
            kinds=kinds,
            everything=bool(left & spoken.everything),
            refers_back=bool(left & spoken.reference),
            classes=classes,
            which=which,
            # Said apart from the names: "Master Bedroom Lights" is one light.
            plural=frozenset(plural_kinds(left, spoken)),
        ),
        used,
        named_or_placed,
    )


def _named_or_placed(
    heard: list[str],
    names: Mapping[str, frozenset[str]],
    places: Places,
    catalog: Catalog,
    language: str,
) -> set[str]:
    """The words that named a device or a place: no kind or verb is read in them.

    A name's words, a kind word beside a name of its kind ("the desk lamp
    light"), and the words of the areas and floors said, an area's aliases
    too.
    """
    areas, floors = places
    said = set(heard)
    name_words = {word for hit in names.values() for word in hit}
    name_words |= heads_of_names(heard, names, catalog, language)
    return name_words | {
        w
        for place in (
            *areas,
            *floors,
            *(a for p in areas for a in catalog.area_aliases.get(p, ())),
        )
        for w in content_words(place, language)
        if w in said
    }


def _kinds_left(
    heard: list[str],
    left: set[str],
    verbs: set[Verb],
    spoken: Words,
    *,
    named_some: bool,
) -> tuple[frozenset[str], frozenset[str]]:
    """The kinds and device classes the words `left` say, no name nor place.

    A class narrows its kind ("door": door and garage covers, not blinds).
    `named_some`: a device was named, so a verb's word alone says no kind.
    """
    kind_words = {
        domain: found & left for domain, found in spoken.kinds.items() if found & left
    }
    # A verb's word implies its kind ("pause": what plays) only where no
    # other word says one and no name says what it is for: "pause the
    # vacuum" is no music, "dim the hallway ceiling" no other light.
    verb_words = {
        word
        for verb in verbs
        for phrase in spoken.verbs.get(verb, ())
        for word in phrase.split()
    }
    kinds = {d for d, found in kind_words.items() if found - verb_words} or (
        set() if named_some else set(kind_words)
    )
    classes = frozenset(
        name
        for name, found in spoken.classes.items()
        if found & left or spans(heard, frozenset(p for p in found if " " in p))
    )
    return frozenset(kinds | {name.partition(".")[0] for name in classes}), classes
