"""The places the words say: areas and floors, each word explained once.

Names first (named.py): a place word inside a name that was said is the
name's ("dim the hallway ceiling": the light Hallway Ceiling, not every
light in the hallway); the room is the place only where it is said apart
from the name ("the hallway ceiling in the hallway", "the lights in the
kitchen"). "In here" says the speaker's room where no other place is said.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping

from ..home.catalog import Catalog
from ..language import every_kind_word, fold
from .named import says

type Places = tuple[frozenset[str], frozenset[str]]


def places_said(
    said: Collection[str], catalog: Catalog, language: str, *, here: bool
) -> Places:
    """The areas (by name or alias) and floors these words say.

    Where they say none, `here` ("in here", "hier drin") says the speaker's
    area.
    """
    heard = set(said)
    areas = frozenset(
        area
        for area in catalog.area_floors
        if any(
            says(heard, name, language)
            for name in (area, *catalog.area_aliases.get(area, ()))
        )
    )
    floors = frozenset(
        f
        for f in filter(None, catalog.area_floors.values())
        if says(heard, f, language)
    )
    if here and not (areas or floors) and catalog.speaker_area is not None:
        return frozenset({catalog.speaker_area}), floors
    return areas, floors


def places_apart(
    heard: list[str],
    names: Mapping[str, frozenset[str]],
    catalog: Catalog,
    language: str,
    *,
    here: bool,
) -> Places:
    """The places said apart from the names said: a word said twice, once."""
    apart = Counter(heard) - Counter(w for hit in names.values() for w in hit)
    return places_said(apart, catalog, language, here=here)


def in_places(
    names: Mapping[str, frozenset[str]],
    places: Places,
    catalog: Catalog,
    language: str,
) -> dict[str, frozenset[str]]:
    """The names said, but a kind's word said with a place it is not in.

    A device called only by its kind's word ("Ventilatore") said with
    another place names nothing: the words mean the kind there.
    """
    areas, floors = places
    if not (areas or floors):
        return dict(names)
    return {
        entity_id: hit
        for entity_id, hit in names.items()
        if fold((info := catalog.exposed[entity_id]).name)
        not in every_kind_word(language)
        or info.area in areas
        or info.floor in floors
    }
