"""What a question's words say of the devices it asks of.

Whether it counts ("how many lights are on?": the `counting` words, of a
state or a kind said in the plural), and whether it asks of the whole
home: one that says no place ("is there a light on anywhere?", "brennt
irgendwo Licht?": the `anywhere` words), asks of any device ("queda alguna
luz encendida?") or counts asks of the whole home, never only the
speaker's room. Which devices those are is the target resolver's
(targets/placed.py, `question_subjects`): those named, else those of the
one kind said in the place meant (the place said, else the speaker's
room, else the home); a place said with no kind but its own name ("is the
garage open?", "hast du die Garage zugemacht?") asks of what there can be
in the state asked: the garage's door.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .targets.placed import question_subjects

if TYPE_CHECKING:
    from ..core.records import EntityInfo
    from ..core.spoken import SpokenValues
    from ..home.catalog import Catalog
    from ..language.tables import Verb
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
    return question_subjects(
        reading, asked, catalog, values, confirm, home_wide=home or _anywhere(reading)
    )


def _anywhere(reading: Reading) -> bool:
    """Whether the words say no place: the whole home ("irgendwo", "in huis")."""
    return _said(reading, reading.spoken.anywhere)


def _said(reading: Reading, phrases: Collection[str]) -> bool:
    """Whether one of these phrases was said, shaping the question."""
    return any(set(phrase.split()) <= reading.question_words for phrase in phrases)
