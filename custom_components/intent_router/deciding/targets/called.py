"""What devices are called: "called so" and the lamp rule.

A kind's narrow word ("lamp", "spots", not "light") calls the devices whose
names say it. Where none in the place meant is called so, a device
elsewhere that is may be the one meant: the lamp rule, which a plan from
the words asks about (commanded.py) and which leaves Home Assistant's own
match on the room's lights to the reading (turn/local_checks.py). Both
paths see devices their own way (the reading's records, HA's states), so
the rule takes anything with a name.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Protocol

from ...core.records import EntityInfo
from ...home.catalog import Catalog
from ...language import Words, is_called, singular
from ...reading.reading import Reading

# Whether the verb or value said means something for an entity: the plan
# builder's to say (local_plans.py), the resolver's to narrow by.
type Fits = Callable[[EntityInfo], bool]


class _Named(Protocol):
    """A device as a path sees it: the reading's record, or HA's state."""

    @property
    def name(self) -> str:
        """The name it goes by."""
        ...


def called_so[T: _Named](
    found: Iterable[T], said: Collection[str], spoken: Words
) -> list[T]:
    """Those whose name has a narrow kind word said, in the singular or not."""
    singulars = {singular(word, spoken) for word in said}
    return [info for info in found if is_called(info.name, singulars, spoken)]


def called_elsewhere[T: _Named](
    here: Iterable[T], elsewhere: Iterable[T], said: Collection[str], spoken: Words
) -> Iterator[T]:
    """The lamp rule: devices elsewhere called what was said, where none here is.

    "The lamp", in a kitchen whose lights are not called lamps, may be the
    study's lamp: the reading asks which, and HA's own match on the
    kitchen's lights is left to it (local_checks.py). "The light" and "the
    lights" are a kind's own name, no narrow word: they call the room's
    lamps too.
    """
    if not said or called_so(here, said, spoken):
        return iter(())
    return (info for info in elsewhere if is_called(info.name, said, spoken))


def called_so_or_all(found: list[EntityInfo], reading: Reading) -> list[EntityInfo]:
    """Those whose name has the narrow kind word said ("the lamp": the lamps).

    A kind's own name calls them all: "las luces de la cocina" are every
    light there, not only the "Luces de los armarios".
    """
    return called_so(found, reading.narrow_words, reading.spoken) or found


def called_so_elsewhere(
    found: list[EntityInfo],
    kinds: Collection[str],
    reading: Reading,
    catalog: Catalog,
    confirm: Collection[str],
    fits: Fits,
) -> list[EntityInfo]:
    """The lamp rule in the home: devices elsewhere called what was said.

    Only where none `found` is called so; of the kinds meant, those the verb
    `fits` that do not ask first. The plan from the words asks which.
    """
    others = (
        info
        for info in catalog.exposed.values()
        if info.domain in kinds and info not in found
    )
    return [
        info
        for info in called_elsewhere(
            found, others, reading.narrow_words, reading.spoken
        )
        if fits(info) and not catalog.needs_confirmation(info.entity_id, confirm)
    ]
