"""What the model is offered to choose among: the devices meant, in groups.

Each group becomes the options the model picks from (options.py), the most
telling first; what must be named stays out unless it was.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import groupby

from ...core.domains import domain_info
from ...core.records import EntityInfo
from ...home.catalog import Catalog
from ...reading.mentions import Mentions
from ...reading.reading import Reading
from .placed import candidates, must_be_named

# Groups of devices one request may offer options for.
MAX_GROUPS = 4
# What the home keeps that a question naming nothing may be about, in the
# order offered: what is planned, what is to do, the weather.
_KEPT_DOMAINS = ("calendar", "todo", "weather")


def option_groups(
    reading: Reading,
    catalog: Catalog,
    referred: Sequence[str],
    confirm: Collection[str],
) -> list[tuple[str, ...]]:
    """The devices the words may mean, in groups, the most telling first.

    Named devices one by one; then what was referred back to (or, when the
    words name nothing, what was last acted on); then each kind meant in
    each place; then, in a place said with no kind and no device named,
    each kind there; for a question that names none of these, what the
    home keeps. The speaker's room alone points at nothing: words that
    name nothing there ("favourite") are no request for its thermostat.
    """
    mentions = reading.mentions
    exposed = catalog.exposed
    named = sorted(
        (e for e in mentions.entities | mentions.which if e in exposed),
        key=lambda e: exposed[e].name,
    )
    # A question asks of a name: the battery's level and its low sensor,
    # both "Motion Sensor Battery", answer it together.
    groups: list[tuple[str, ...]] = (
        [tuple(g) for _, g in groupby(named, key=lambda e: exposed[e].name)]
        if reading.question
        else [(entity_id,) for entity_id in named]
    )
    last = tuple(t for t in dict.fromkeys(referred) if t in exposed)
    if last and (mentions.refers_back or not groups):
        groups.append(last)
    if mentions.kinds or mentions.everything:
        groups += _one_per_kind_and_place(
            candidates(mentions, catalog, confirm, mentions.kinds), catalog
        )
    elif (mentions.areas or mentions.floors) and not groups:
        placed = Mentions(areas=mentions.areas, floors=mentions.floors, everything=True)
        groups += _one_per_kind(candidates(placed, catalog, confirm, ()), catalog)
    if reading.question and not groups:
        groups += _kept(catalog)
    place_said = bool(mentions.areas or mentions.floors)
    return [
        group
        for group in dict.fromkeys(groups)
        if group
        and all(
            t in mentions.entities
            or not must_be_named(
                exposed[t], catalog, confirm, place_said, mentions.classes
            )
            for t in group
        )
    ][:MAX_GROUPS]


def _kept(catalog: Catalog) -> list[tuple[str, ...]]:
    """The home's calendars, lists and weather, one by one, in that order."""
    return [
        (info.entity_id,)
        for domain in _KEPT_DOMAINS
        for info in sorted(catalog.exposed.values(), key=lambda i: i.name)
        if info.domain == domain
    ]


def _one_per_kind_and_place(
    entity_ids: Collection[str], catalog: Catalog
) -> list[tuple[str, ...]]:
    """Devices of a kind, one group per kind and place (the speaker's first)."""
    infos = sorted(
        (catalog.exposed[e] for e in entity_ids),
        key=lambda i: (not catalog.is_here(i), i.domain, i.area or "", i.name),
    )
    return [
        tuple(info.entity_id for info in group)
        for _, group in groupby(infos, key=lambda i: (i.domain, i.area))
    ]


def _one_per_kind(
    entity_ids: Collection[str], catalog: Catalog
) -> list[tuple[str, ...]]:
    """Devices of one place, one group per kind (what acts first)."""
    infos = sorted((catalog.exposed[e] for e in entity_ids), key=_kind_order)
    return [
        tuple(info.entity_id for info in group)
        for _, group in groupby(infos, key=lambda i: i.domain)
    ]


def _kind_order(info: EntityInfo) -> tuple[bool, str, str]:
    """What a room's devices are offered in: what acts first, then by name."""
    acts = bool(domain_info(info.domain).turn_on or domain_info(info.domain).verbs)
    return (not acts, info.domain, info.name)
