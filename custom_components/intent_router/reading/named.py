"""Which devices the words name, and which of them need a "which one?".

One resolution for every plan: a name said in full, or without its own
kind word, or by a distinctive part; of devices the same words name, a kind
said beside them decides, then a name said in full, then the verb; what is
left is told apart by the place said or the speaker's area, else asked
about (mentions.py keeps it in `Mentions.which`; local_plans.py and
grounding.py ask).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from ..core.domains import DomainInfo, domain_info, verb_service
from ..core.records import EntityInfo
from ..core.said import Said
from ..home.catalog import Catalog, folded_name
from ..language import (
    LANGUAGES,
    Verb,
    Words,
    content_words,
    fold,
    kind_words,
    name_terms,
    singular,
    words_for,
)
from .meant import (
    another_kind_meant,
    kind_meant_instead,
    meant_besides,
    named_like_place,
    nouns,
    nouns_said,
)
from .senses import place_phrases

# No word says or implies a kind.
_NOTHING_MEANT: Mapping[str, frozenset[str]] = MappingProxyType({})


@dataclass(slots=True, frozen=True)
class Besides:
    """What a turn says besides names that decides which devices they name."""

    # In a question a kind's word may be a state ("is the back door open?").
    question: bool = False
    # The kinds each word says or implies (`kinds_meant`).
    meant: Mapping[str, frozenset[str]] = _NOTHING_MEANT
    # What a follow-up follows up on ("and the one on the ceiling"): of
    # devices named alike, those of its place and kind first.
    follows: Collection[EntityInfo] = ()
    # "Everything", "alles": a device named like a place is the place.
    everything: bool = False


def heads_of_names(
    heard: list[str],
    names: Mapping[str, frozenset[str]],
    catalog: Catalog,
    language: str,
) -> set[str]:
    """Kind words said right beside a name of that kind ("desk lamp light")."""
    kinds: dict[str, set[str]] = {}
    for kind, found in nouns(language).items():
        for word in found:
            kinds.setdefault(word, set()).add(kind)
    return {
        word
        for index, word in enumerate(heard)
        for step in (-1, 1)
        if 0 <= index + step < len(heard)
        and any(
            heard[index + step] in hit
            and catalog.exposed[e].domain in kinds.get(word, ())
            for e, hit in names.items()
        )
    }


def resolved(
    names: Mapping[str, frozenset[str]],
    areas: frozenset[str],
    floors: frozenset[str],
    catalog: Catalog,
    plural: Collection[str],
) -> tuple[frozenset[str], frozenset[str]]:
    """The devices named, and those named equally that need a "which one?".

    Devices the same words name are told apart by the place said, else the
    speaker's area; what is left, in several places or under several names,
    is asked about, unless their kind was said in the plural ("the stuck
    lights": all of them). Each stays named, so a question still answers of
    it.
    """
    info = catalog.exposed
    # "The ceiling strip lights in the kitchen": of a kind said in the
    # plural, the place said keeps its own, whatever words named them.
    entities = {
        e
        for e in names
        if not (areas or floors)
        or info[e].domain not in plural
        or info[e].area in areas
        or info[e].floor in floors
    }
    which: set[str] = set()
    for words in set(names.values()):
        alike = {e for e, hit in names.items() if hit == words and e in entities}
        placed = {
            e for e in alike if info[e].area in areas or info[e].floor in floors
        } or {e for e in alike if catalog.is_here(info[e]) and not (areas or floors)}
        if placed:
            entities -= alike - placed
            alike = placed
        if len({(info[e].name, info[e].area, info[e].floor) for e in alike}) > 1 and (
            not {info[e].domain for e in alike} <= set(plural)
        ):
            which |= alike
    return frozenset(entities), frozenset(which)


def named(
    catalog: Catalog,
    heard: set[str],
    said: Said,
    verbs: set[Verb],
    generic: frozenset[str],
    plural: Collection[str] = (),
    besides: Besides = Besides(),
) -> dict[str, frozenset[str]]:
    """Entities named in full, or by a distinctive part of a name; their words.

    Words of places and kinds of device do not name an entity on their own
    ("kitchen", "light"): they make the place and kind rules apply instead.
    A name said without its last word when that word is its own kind ("Back
    Door" for Back Door Lock) is said in full. Of two entities, the one more
    of whose name was said wins ("good night" names Good Night, not Movie
    Night); of those named equally, those in the place and of the kind of
    what a follow-up follows ("and the one on the ceiling", after a kitchen
    light), then the verb decides ("unlock the back door": the lock, not
    the door sensor). With "everything" said, a device named like a place
    is not named: the place is meant. `heard`: `said`'s words as the home
    hears them.
    """
    question, language = besides.question, said.language
    hits, full_names = _names_said(catalog, heard, said, generic, besides)
    hits = _not_meant_otherwise(hits, catalog, verbs, said.spoken, besides)
    strongest = _strongest(hits, full_names, catalog, heard, language, plural, besides)
    chosen = _verbs_fit(strongest, full_names, verbs, question=question)
    # Other words naming parts of names of other kinds ("start the smart
    # home cleaning bot": a thermostat's "smart", a player's "home", a
    # vacuum's "cleaning bot"): one name the home lacks, none of them. (The
    # same word naming several is a "which one?": resolved.)
    parts = {e: hit for e, hit in chosen.items() if e not in full_names}
    if any(
        a.partition(".")[0] != b.partition(".")[0] and not hit & parts[b]
        for a, hit in parts.items()
        for b in parts
    ):
        return {e: hit for e, hit in chosen.items() if e not in parts}
    return chosen if question else _stood_in(chosen, catalog, verbs)


def _names_said(
    catalog: Catalog,
    heard: set[str],
    said: Said,
    generic: frozenset[str],
    besides: Besides,
) -> tuple[dict[str, frozenset[str]], set[str]]:
    """Each device a name or a telling part of one says; those said in full.

    The candidates the later rules choose among; named in full means said
    whole, or without its own kind word.
    """
    question, meant, language = besides.question, besides.meant, said.language
    hits: dict[str, frozenset[str]] = {}
    full_names: set[str] = set()
    for info in catalog.exposed.values():
        found = [n for n in (info.name, *info.aliases) if n]
        full = [
            whole
            for name in found
            if (whole := _said_name(heard, name, info.domain, language, generic))
        ]
        # Said without its own kind word, or in part: only where no noun
        # says another kind in its place (asked only of what the words hit).
        if full and (
            any(says(heard, n, language) for n in found)
            or question
            or _of_kind_said(info.domain, heard, found, language, meant)
        ):
            hits[info.entity_id] = max(full, key=len)
            full_names.add(info.entity_id)
        elif (
            not full
            and (
                part := {
                    w
                    for n in found
                    for w in _telling_terms(n, info.domain, language)
                    # "Doors" is a kind's word as much as "door" is.
                    if w in heard and singular(w, said.spoken) not in generic
                }
                - generic
            )
            and (question or _of_kind_said(info.domain, heard, found, language, meant))
        ):
            hits[info.entity_id] = frozenset(part)
    return hits, full_names


def _not_meant_otherwise(
    hits: dict[str, frozenset[str]],
    catalog: Catalog,
    verbs: set[Verb],
    spoken: Words,
    besides: Besides,
) -> dict[str, frozenset[str]]:
    """Those named whose words mean no other kind, nor with "everything" a place."""
    places = frozenset(fold(place) for place in catalog.place_names()) | place_phrases()
    return {
        entity_id: hit
        for entity_id, hit in hits.items()
        if not another_kind_meant(
            (info := catalog.exposed[entity_id]).domain,
            (info.name, *info.aliases),
            hit,
            besides.meant,
            places,
        )
        # "Everything in the kitchen" is the place, not a speaker called so.
        and not (
            besides.everything and named_like_place((info.name, *info.aliases), places)
        )
        and (
            besides.question or not kind_meant_instead(info.domain, hit, verbs, spoken)
        )
    }


def _strongest(
    hits: dict[str, frozenset[str]],
    full_names: set[str],
    catalog: Catalog,
    heard: set[str],
    language: str,
    plural: Collection[str],
    besides: Besides,
) -> dict[str, frozenset[str]]:
    """The devices no other is named more fully than (`_fullest`).

    Of names the same words say, those said in full, and of those the ones
    whose kind another noun says ("the reading scene": the scene Reading,
    not Reading Light).
    """
    question = besides.question
    return {
        entity_id: hit
        for entity_id, hit in hits.items()
        # "The stuck lights": every light a word of the name calls so.
        if entity_id.partition(".")[0] in plural
        or (
            not any(other > hit for other in hits.values())
            and _fullest(
                entity_id,
                hit,
                hits,
                full_names,
                # In a question a kind's word is a state ("ist die Hintertür
                # geschlossen?"), no noun: the lock and the door both answer.
                set()
                if question
                else nouns_said(heard, hit, language)
                | meant_besides(hit, besides.meant),
                {e: _near(catalog.exposed[e], besides.follows) for e in hits},
            )
        )
    }


def _verbs_fit(
    strongest: dict[str, frozenset[str]],
    full_names: set[str],
    verbs: set[Verb],
    *,
    question: bool,
) -> dict[str, frozenset[str]]:
    """Of devices named alike, those a verb said fits; for a command, no sensor.

    A command is no part-named sensor's, which nothing changes ("start
    house cleaning": no "House current draw").
    """
    fitting = {
        entity_id
        for entity_id in strongest
        if any(_fits(entity_id.partition(".")[0], v, question=question) for v in verbs)
    }
    return {
        entity_id: hit
        for entity_id, hit in strongest.items()
        if entity_id in fitting
        or not (
            any(o in fitting for o, other in strongest.items() if other == hit)
            or (
                verbs
                and not question
                and entity_id not in full_names
                and not _acts(entity_id.partition(".")[0])
            )
        )
    }


def namesakes(subjects: list[EntityInfo], catalog: Catalog) -> list[EntityInfo]:
    """Other devices whose names hold a subject's, or on its device: its lock.

    "Ist die Hintertür abgeschlossen?" names the door's contact sensor
    ("Hintertür"), which cannot be locked; "Hintertürschloss" can, as can a
    lock on the sensor's own device. So does "lock it" after "is the back
    door open?".
    """
    said = {folded_name(info.name) for info in subjects}
    devices = {info.device_id for info in subjects} - {None}
    return [
        info
        for info in catalog.exposed.values()
        if info not in subjects
        and (
            info.device_id in devices
            or any(name in folded_name(info.name) for name in said)
        )
    ]


def _stood_in(
    chosen: dict[str, frozenset[str]], catalog: Catalog, verbs: set[Verb]
) -> dict[str, frozenset[str]]:
    """A device named that no verb said fits, as the one that stands in for it.

    "Mach die Haustür auf", "abre la puerta principal": the door's contact
    sensor ("Haustür") cannot be opened; its lock, a namesake that stands in
    for its door (`DomainInfo.stand_ins`: "Haustürschloss", "Cerradura
    puerta principal", or one on the sensor's device), is unlocked, which
    asks first.
    """
    out: dict[str, frozenset[str]] = {}
    for entity_id, hit in chosen.items():
        info = catalog.exposed[entity_id]
        if not verbs or _acts_on(info, verbs):
            out[entity_id] = hit
            continue
        locks = [
            other
            for other in namesakes([info], catalog)
            if domain_info(other.domain).stand_ins and _acts_on(other, verbs)
        ]
        out.update({other.entity_id: hit for other in locks} or {entity_id: hit})
    return out


def _acts_on(info: EntityInfo, verbs: Collection[Verb]) -> bool:
    """Whether a verb said means a service of the device's."""
    return any(verb_service(info.domain, verb) is not None for verb in verbs)


def _acts(domain: str) -> bool:
    """Whether a command may change such a device: a sensor, the weather not.

    The domain table says more of it than the attributes to show.
    """
    info = domain_info(domain)
    return info != DomainInfo(acting_attributes=info.acting_attributes)


def _fits(domain: str, verb: Verb, *, question: bool) -> bool:
    """Whether a verb says what such a device does.

    In a question a stand-in is a state ("is the back door open?" asks the
    door and its lock alike), not the lock's unlock.
    """
    if question and verb in domain_info(domain).stand_ins:
        return False
    return verb_service(domain, verb) is not None


def _fullest(
    entity_id: str,
    hit: frozenset[str],
    hits: Mapping[str, frozenset[str]],
    full_names: set[str],
    kinds: set[str],
    near: Mapping[str, tuple[bool, bool]],
) -> bool:
    """Whether no device the same words name is named more fully.

    A kind said beside the words decides first ("the ceiling light": the
    light, not Ceiling Fan), then the place and kind a follow-up follows
    (`near`), then a name said in full.
    """
    alike = [o for o, other in hits.items() if other == hit]
    ranks = {o: (o.partition(".")[0] in kinds, near[o], o in full_names) for o in alike}
    return ranks[entity_id] == max(ranks.values())


def _near(info: EntityInfo, follows: Collection[EntityInfo]) -> tuple[bool, bool]:
    """Whether a device is in the place, and of the kind, of what is followed."""
    return (
        any(info.area is not None and info.area == f.area for f in follows),
        any(info.domain == f.domain for f in follows),
    )


def _of_kind_said(
    domain: str,
    heard: set[str],
    names: list[str],
    language: str,
    meant: Mapping[str, frozenset[str]],
) -> bool:
    """Whether a part of these names may name it: no other kind is meant.

    "The office fan" is no Office Light, "the den lights" no Den Lock, "too
    cold in the living room" no Living Room Fan; the name's own words are
    its ("the christmas lights", a switch "Christmas Tree Lights"). In a
    question a kind's word may be a state instead.
    """
    own = frozenset(w for name in names for w in name_terms(name, language))
    said = nouns_said(heard, own, language) | meant_besides(own, meant)
    return not said or domain in said


def _said_name(
    heard: set[str], name: str, domain: str, language: str, generic: frozenset[str]
) -> frozenset[str]:
    """The words of a name said in full, or of it without its own kind word."""
    if says(heard, name, language):
        return content_words(name, language)
    wanted = _without_own_kind(name, domain, language)
    # Not a place or kind alone: "Bedroom Blinds" is not "the bedroom".
    if wanted - generic and wanted <= heard:
        return wanted
    return frozenset()


@lru_cache(maxsize=8192)
def _without_own_kind(name: str, domain: str, language: str) -> frozenset[str]:
    """A name's words but its last, where that is its own kind's; else none.

    Its own kind word in whatever language the home is named ("Back Door
    Lock", asked in German as "die Hintertür"). Cached: every name is read
    on every turn.
    """
    *core, last = name_terms(name, language) or ("",)
    if core and any(last in kind_words(domain, lang) for lang in LANGUAGES):
        return content_words(" ".join(core), language)
    return frozenset()


@lru_cache(maxsize=8192)
def _telling_terms(name: str, domain: str, language: str) -> tuple[str, ...]:
    """A name's words that may tell it apart when said alone.

    Not its last word where that is its own kind's in any shipped language:
    the Dutch "door" ("by") is no Garage Door; "garage" is. Nor a word
    that says no or please ("no speaking please" is no Heat Pump NO Sensor),
    nor a day ("should I dress in layers today" is no Water Pump Usage Today).
    """
    *core, last = name_terms(name, language) or ("",)
    # Cached by name and language: looked up once per name, not per turn.
    spoken = words_for(language)
    never = spoken.negations | spoken.filler | _day_words(spoken)
    if any(last in kind_words(domain, lang) for lang in LANGUAGES):
        return tuple(w for w in core if w not in never)
    return tuple(w for w in (*core, last) if w not in never)


def says(heard: set[str], name: str, language: str) -> bool:
    """Whether every word of a name that matters was said."""
    wanted = content_words(name, language)
    return bool(wanted) and wanted <= heard


def _day_words(spoken: Words) -> frozenset[str]:
    """The one-word days ("today", "morgen"): no device's by themselves."""
    return frozenset(
        day for found in spoken.days.values() for day in found if " " not in day
    )
