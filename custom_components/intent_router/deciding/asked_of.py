"""The devices a question about the home asks of.

Those named, else those of the one kind said in the place meant (the place
said, else the speaker's room, else the home). A question that says no
place ("is there a light on anywhere?", "brennt irgendwo Licht?": the
`anywhere` words), asks of any device ("queda alguna luz encendida?") or
asks how many ("how many lights are on?": the `counting` words, of a state
or a kind said in the plural) asks of the whole home, never only the
speaker's room. A place said with no kind but its own name ("is the garage
open?", "hast du die Garage zugemacht?") asks of what there can be in the
state asked: the garage's door.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.device_states import holds
from ..language import words
from .grounding import candidates, must_be_named

if TYPE_CHECKING:
    from ..core.records import EntityInfo
    from ..core.spoken import SpokenValues
    from ..home.catalog import Catalog
    from ..language.tables import Verb
    from ..reading.mentions import Mentions
    from ..reading.reading import Reading


def counts(reading: Reading, asked: frozenset[Verb]) -> bool:
    """Whether a question asks how many devices, of a state or in the plural.

    "How many lights are on?", "cuántas luces hay encendidas?", "wie viele
    Lichter gibt es?"; "hoeveel procent heeft de batterij?" counts nothing.
    """
    counting = reading.spoken.counting
    return bool(asked or reading.mentions.plural) and _said(reading, counting)


def asked_of(
    reading: Reading,
    asked: frozenset[Verb],
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
    *,
    home: bool,
) -> list[EntityInfo]:
    """The devices the question asks of; `home`: of the whole home's."""
    mentions = reading.mentions
    if home or _anywhere(reading):
        mentions = _home_wide(mentions)
    return _subjects(mentions, catalog, confirm) or _in_place(
        reading, asked, catalog, values, confirm
    )


def _anywhere(reading: Reading) -> bool:
    """Whether the words say no place: the whole home ("irgendwo", "in huis")."""
    return _said(reading, reading.spoken.anywhere)


def _said(reading: Reading, phrases: Collection[str]) -> bool:
    """Whether one of these phrases was said, shaping the question."""
    return any(set(phrase.split()) <= reading.question_words for phrase in phrases)


def _home_wide(mentions: Mentions) -> Mentions:
    """The kind said anywhere in the home, where no place was said."""
    if mentions.areas or mentions.floors:
        return mentions
    return replace(mentions, everything=True)


def _subjects(
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


def _in_place(
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
        if (info.area in mentions.areas or info.floor in mentions.floors)
        and not must_be_named(info, catalog, confirm, place_said=True)
        and holds(asked, "", info, values) is not None
    ]
