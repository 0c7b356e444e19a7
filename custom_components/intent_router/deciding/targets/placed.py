"""The devices of a kind in the place the words mean, and what must be named.

The place meant is the area or floor said, else the speaker's area, else
(nothing of that kind there) anywhere in the home. The home's one
thermostat serves every room: a room said that has none is heated by it. The device class said
("the blinds") is taken strictly first, then loosely (any window covering
for another). Scripts and scenes act only when named; what asks first
(locks, garage doors) also by its own class or its room or floor said.
Every path that chooses devices by kind and place starts here: the
grounding of a plan, a plan from the words, the model's options, the
states sent to it, and the devices a question asks of.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ...core.device_states import holds
from ...core.domains import domain_info
from ...core.records import EntityInfo
from ...core.spoken import SpokenValues
from ...home.catalog import Catalog
from ...language import words
from ...language.tables import Verb
from ...reading.mentions import Mentions
from ...reading.reading import Reading


def in_place_said(info: EntityInfo, mentions: Mentions) -> bool:
    """Whether an entity is in an area, or on a floor, the words said."""
    return info.area in mentions.areas or info.floor in mentions.floors


def must_be_named(
    info: EntityInfo,
    catalog: Catalog,
    confirm: Collection[str],
    place_said: bool,
    classes: Collection[str] = (),
) -> bool:
    """Whether an entity acts only when named.

    Scripts and scenes do; what asks first also acts when its room or floor
    was said ("unlock the entry lock") or its own device class ("open the
    garage"), since the yes still follows.
    """
    if domain_info(info.domain).must_be_named:
        return True
    own_class = f"{info.domain}.{info.all_attributes.get('device_class')}"
    return (
        not place_said
        and own_class not in classes
        and catalog.needs_confirmation(info.entity_id, confirm)
    )


def candidates(
    mentions: Mentions,
    catalog: Catalog,
    confirm: Collection[str],
    kinds: Collection[str],
) -> frozenset[str]:
    """Entities of these kinds in the place the words mean (names are extra).

    "Everything" is every kind only where no kind is given: "alle Lichter
    in der Küche" are the kitchen's lights, not everything there.
    """
    if not kinds and not mentions.everything:
        return frozenset()
    return _placed(mentions, catalog, confirm, kinds) or _placed(
        mentions, catalog, confirm, kinds, loosely=True
    )


def _placed(
    mentions: Mentions,
    catalog: Catalog,
    confirm: Collection[str],
    kinds: Collection[str],
    *,
    loosely: bool = False,
) -> frozenset[str]:
    """`candidates`, the class said taken strictly or `loosely`."""
    of_kind = _of_kind(mentions, catalog, confirm, kinds, loosely=loosely)
    if mentions.areas or mentions.floors:
        placed = [info for info in of_kind if in_place_said(info, mentions)]
        placed = placed or _serving_the_home(of_kind)
    elif mentions.everything and not mentions.kinds:
        placed = []  # "everything" needs a place; "all lights" is the home's
    elif mentions.everything:
        placed = of_kind
    else:
        here = [info for info in of_kind if catalog.is_here(info)]
        if not (here or loosely):
            # The room's blinds before another room's shutters ("hier de
            # rolluiken openen", said where there are blinds only).
            here = [
                info
                for info in _of_kind(mentions, catalog, confirm, kinds, loosely=True)
                if catalog.is_here(info)
            ]
        placed = here or of_kind
    return frozenset(info.entity_id for info in placed)


def _serving_the_home(of_kind: list[EntityInfo]) -> list[EntityInfo]:
    """The home's one device of a kind that serves every room, if it is one.

    "It's cold in here", said in an office with no thermostat of its own:
    the home's one thermostat, in the hallway, heats it. A light lights
    only its own room, and of two thermostats neither is the office's.
    """
    if len(of_kind) == 1 and domain_info(of_kind[0].domain).serves_home:
        return of_kind
    return []


def _of_kind(
    mentions: Mentions,
    catalog: Catalog,
    confirm: Collection[str],
    kinds: Collection[str],
    *,
    loosely: bool,
) -> list[EntityInfo]:
    """The exposed entities of these kinds and the class said, anywhere."""
    place_said = bool(mentions.areas or mentions.floors)
    return [
        info
        for info in catalog.exposed.values()
        if (info.domain in kinds if kinds else mentions.everything)
        and mentions.fits_class(info, loosely=loosely)
        and not must_be_named(info, catalog, confirm, place_said, mentions.classes)
    ]


def pointed_at(
    mentions: Mentions, catalog: Catalog, recent: Collection[str]
) -> frozenset[str]:
    """The entities whose states are worth sending, with what was last acted on.

    Those the words point at; when they point at nothing in particular
    ("tell me a joke", "what's on?"), those in the speaker's area. Empty
    (every state) when the speaker's area is unknown too. Every state line
    is prompt the model server must read on each turn.
    """
    if mentions.names_nothing:
        if catalog.speaker_area is None:
            return frozenset()
        return frozenset(
            {
                *(
                    entity_id
                    for entity_id, info in catalog.exposed.items()
                    if info.area == catalog.speaker_area
                ),
                *recent,
            }
        )
    in_places = {
        entity_id
        for entity_id, info in catalog.exposed.items()
        if in_place_said(info, mentions)
    }
    return frozenset(
        {
            *mentions.entities,
            *candidates(mentions, catalog, (), mentions.kinds),
            *in_places,
            *recent,
        }
    )


def question_subjects(
    reading: Reading,
    asked: frozenset[Verb],
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
    *,
    home_wide: bool,
) -> list[EntityInfo]:
    """The devices a question about the home asks of.

    Those named, else those of the one kind said in the place meant, else
    what there can be in the state asked in a place said with no kind.
    `home_wide` ("anywhere", "how many"): where no place was said, the whole
    home, never only the speaker's room.
    """
    mentions = reading.mentions
    if home_wide and not (mentions.areas or mentions.floors):
        mentions = replace(mentions, everything=True)
    return _named_or_of_one_kind(mentions, catalog, confirm) or _in_place_as_asked(
        reading, asked, catalog, values, confirm
    )


def _named_or_of_one_kind(
    mentions: Mentions, catalog: Catalog, confirm: Collection[str]
) -> list[EntityInfo]:
    """The devices named, else those of the one kind said in the place meant."""
    if mentions.entities:
        return [catalog.exposed[e] for e in sorted(mentions.entities)]
    kinds = mentions.kinds - {"weather"}
    if len(kinds) != 1:
        return []
    return [
        catalog.exposed[e]
        for e in sorted(candidates(mentions, catalog, confirm, kinds))
    ]


def _in_place_as_asked(
    reading: Reading,
    asked: frozenset[Verb],
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
) -> list[EntityInfo]:
    """What there can be in the state asked, of a place said with no kind.

    "Is the garage open?": nothing but the place's own name says a kind,
    and of what is there, the garage's door can be open. A kind said apart
    from the place ("is the light in the garage on?") asks of it only.
    """
    mentions = reading.mentions
    places = mentions.areas | mentions.floors
    if not asked or mentions.entities or not places:
        return []
    if not reading.kind_words <= {w for place in places for w in words(place)}:
        return []
    return [
        info
        for info in sorted(catalog.exposed.values(), key=lambda i: i.entity_id)
        if in_place_said(info, mentions)
        and not must_be_named(info, catalog, confirm, place_said=True)
        and holds(asked, "", info, values) is not None
    ]
