"""Whether a plan stays within what the words of a turn point at.

An action runs because it is grounded in what was said, not because it is
valid. A target is grounded when one of these holds:

- its name or an alias was said (misheard words forgiven, and a distinctive
  part of a name is enough: "movie" for Movie Night);
- a kind of device was said or implied ("lamp", "dark" for lights) and the
  target is of that kind and in the place meant: the area or floor said,
  else the speaker's area, else (nothing of that kind there) anywhere;
- the words refer back ("it", "them", "the same") and the target is what the
  conversation last acted on.

Scripts and scenes are grounded only by name; what asks for confirmation
(locks, garage doors) by name, or by its kind in the room or floor said. Word lists are per language; typos are forgiven with
gazetteer-matcher's similarity ratio, Home Assistant's own library for
misheard names. Which devices a kind in a place means, and what must be
named, is the target resolver's (targets/placed.py), as for every path.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from ..core.domains import domain_info, domain_of
from ..core.records import Action, Plan
from ..home.catalog import Catalog
from ..reading.mentions import Mentions
from ..reading.named import namesakes
from .targets.commanded import answer_picks
from .targets.placed import candidates


class Basis(StrEnum):
    """Why a target is grounded: for the trace, and for what may be learned."""

    NAMED = "named"
    PLACE_SAID = "kind in the place said"
    HOME = "kind in the whole home"
    HERE = "kind in the speaker's area"
    ONLY_PLACE = "kind where the home has it"
    REFERRED = "referred back"
    CHOSEN = "chosen from the question"


# Grounded by the words alone: the same words mean the same wherever said.
SPEAKER_INDEPENDENT = frozenset({Basis.NAMED, Basis.PLACE_SAID, Basis.HOME})
# Grounded by a kind with no place said: never in place of a device named.
WEAK = frozenset({Basis.HERE, Basis.ONLY_PLACE})


def grounding_basis(
    targets: Iterable[str],
    mentions: Mentions,
    catalog: Catalog,
    last_targets: Collection[str],
    offered: Collection[str],
    confirm: Collection[str],
) -> dict[str, Basis | None]:
    """How each target is grounded; None for those nothing said points at.

    Words that refer back lend the kinds of what was last acted on to a new
    place: "do the same in the bedroom" after the kitchen lights means lights.
    After "which one?", a choice offered is grounded by any word of its name
    or area ("the bedroom one"), or by "all of them".
    """
    kinds = set(mentions.kinds)
    if (mentions.areas or mentions.floors) and not any(
        _verb_fits(kind, mentions.acted_on) for kind in mentions.kinds
    ):
        # "Open the garage": what the verb is for, in the place said; not
        # where a kind it fits was said ("alle keukensloten open": the
        # locks, which "open" unlocks, no shutter). "Doe alle deuren op
        # slot": doors cannot be locked, their locks can.
        kinds.update(mentions.acted_on)
    if mentions.refers_back:
        kinds.update(target.partition(".")[0] for target in last_targets)
        # What belongs to it is referred to too ("lock it": the door's lock).
        last = [catalog.exposed[t] for t in last_targets if t in catalog.exposed]
        last_targets = {*last_targets, *(i.entity_id for i in namesakes(last, catalog))}
    by_kind = candidates(mentions, catalog, confirm, kinds)
    return {
        target: _basis(target, mentions, catalog, last_targets, offered, by_kind)
        for target in targets
    }


def _verb_fits(kind: str, acted_on: Collection[str]) -> bool:
    """Whether the verb that acts on `acted_on` does something to a kind.

    Its own kinds, or one it stands in for ("open" a lock: unlock).
    """
    said = {verb for domain in acted_on for verb in domain_info(domain).verbs}
    return kind in acted_on or bool(said & set(domain_info(kind).stand_ins))


def _basis(
    target: str,
    mentions: Mentions,
    catalog: Catalog,
    last_targets: Collection[str],
    offered: Collection[str],
    by_kind: frozenset[str],
) -> Basis | None:
    """One target's basis, the most specific first."""
    if target in mentions.entities:
        return Basis.NAMED
    if mentions.refers_back and target in last_targets:
        return Basis.REFERRED
    if target in by_kind:
        return _kind_basis(target, mentions, catalog)
    if target in offered and answer_picks(target, mentions, catalog):
        return Basis.CHOSEN
    return None


def _kind_basis(target: str, mentions: Mentions, catalog: Catalog) -> Basis | None:
    """Where a target grounded by its kind was meant to be.

    With no place said, a kind word that is part of a name said ("the
    ceiling light") grounds that device only, not the others of its kind.
    """
    if mentions.areas or mentions.floors:
        return Basis.PLACE_SAID
    if mentions.everything:
        return Basis.HOME
    domain = target.partition(".")[0]
    if any(named.partition(".")[0] == domain for named in mentions.entities):
        return None
    return Basis.HERE if catalog.is_here(catalog.exposed[target]) else Basis.ONLY_PLACE


@dataclass(slots=True, frozen=True)
class Ungrounded:
    """A plan that must not run: some target is not what the words meant.

    `choices` are the devices that would fit, when there are several to ask
    between; without choices nothing fits.
    """

    choices: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class Grounded:
    """What of a plan the words meant, and why (`bases`, per target).

    `plan` keeps only grounded actions and targets; `dropped` are the
    actions nothing said points at (a small model's extra guesses).
    """

    plan: Plan
    bases: Mapping[str, Basis]
    dropped: tuple[Action, ...] = ()


def check_grounding(
    plan: Plan,
    mentions: Mentions,
    catalog: Catalog,
    last_targets: Collection[str],
    offered: Collection[str],
    confirm: Collection[str],
) -> Grounded | Ungrounded:
    """The part of a plan the words point at; a question when it is a guess.

    Targets nothing said points at are dropped, and so are actions left
    without targets: each action runs because it was asked for, not because
    it came with one that was. When nothing is left, the plan is
    ungrounded. A target grounded only by kind and place is a guess when the
    plan took some, not all, of the devices that fit equally ("turn on the
    lamp" with a lamp in three rooms): the user is asked which.
    """
    bases: dict[str, Basis] = {}
    kept: list[Action] = []
    dropped: list[Action] = []
    choices: tuple[str, ...] | None = None
    for action in plan.actions:
        if catalog.reads_only(action.tool) or _tool_meant(action, mentions, catalog):
            # A service that returns data (a forecast, a list) changes
            # nothing; a tool said for chooses its own device (music: the
            # speaker here).
            kept.append(action)
            continue
        if action.tool in catalog.tools:
            dropped.append(action)
            continue
        if chosen := mentions.which & set(action.targets):
            # One of the devices the words name equally is a guess: asked.
            return Ungrounded(tuple(sorted(mentions.which or chosen)))
        found = _ActionGrounding.of(
            action, mentions, catalog, last_targets, offered, confirm
        )
        if not found.targets:
            dropped.append(action)
            if choices is None:
                offerable = found.offerable
                choices = tuple(sorted(offerable)) if len(offerable) > 1 else ()
            continue
        if (asked := found.asked(mentions, catalog, last_targets)) is not None:
            return asked
        kept.append(replace(action, targets=found.targets))
        bases.update({t: b for t, b in found.bases.items() if b is not None})
    if dropped and not kept:
        return Ungrounded(choices or ())
    if dropped and mentions.entities and bases and not set(bases.values()) - WEAK:
        # The device named was dropped; a guess by kind does not run instead.
        named = tuple(sorted(mentions.entities))
        return Ungrounded(named if len(named) > 1 else ())
    return Grounded(replace(plan, actions=tuple(kept)), bases, tuple(dropped))


@dataclass(slots=True, frozen=True)
class _ActionGrounding:
    """How a service action's targets are grounded, and what else would fit."""

    # Each target's basis; None for those nothing said points at.
    bases: Mapping[str, Basis | None]
    # The targets grounded, in the action's order.
    targets: tuple[str, ...]
    # Devices of the action's domain in the place the words mean.
    fitting: frozenset[str]
    # Those a "which one?" may offer: only of a kind the words said, or that
    # the verb said is for ("close": a cover).
    offerable: frozenset[str]

    @classmethod
    def of(
        cls,
        action: Action,
        mentions: Mentions,
        catalog: Catalog,
        last_targets: Collection[str],
        offered: Collection[str],
        confirm: Collection[str],
    ) -> _ActionGrounding:
        """Ground an action's targets in the words."""
        domain = domain_of(action.tool)
        found = grounding_basis(
            action.targets, mentions, catalog, last_targets, offered, confirm
        )
        fitting = frozenset(
            entity_id
            for entity_id in candidates(
                mentions, catalog, confirm, {*mentions.kinds, domain}
            )
            if domain_of(entity_id) == domain
        )
        targets = _one_meant(
            tuple(t for t in action.targets if found[t] is not None),
            domain,
            mentions,
            catalog,
        )
        return cls(
            found,
            targets,
            fitting,
            fitting if domain in mentions.kinds | mentions.acted_on else frozenset(),
        )

    def asked(
        self, mentions: Mentions, catalog: Catalog, last_targets: Collection[str]
    ) -> Ungrounded | None:
        """The "which one?" a guess by kind and place needs; None when it is none."""
        targets = self.targets
        guessed = [
            target
            for target in targets
            if target not in mentions.entities and target not in last_targets
        ]
        # A guess among devices in different rooms, with no room said, is a
        # question ("turn on the lamp" with lamps in three rooms); within the
        # room said or spoken in, the room decided; "all" meant every one
        # (dimmed in parts: one is within a step of dark).
        several_places = len({_place(e, catalog) for e in self.fitting}) > 1
        said_place = bool(mentions.areas or mentions.floors) or mentions.everything
        partial = self.fitting > set(targets)
        if guessed and several_places and not said_place and partial:
            return Ungrounded(tuple(sorted(self.offerable)))
        # An item goes on one list: several, not all named, is a question.
        if (
            len(targets) > 1
            and domain_info(domain_of(targets[0])).one_at_a_time
            and not set(targets) <= mentions.entities
        ):
            return Ungrounded(tuple(sorted(targets)))
        # Devices of a kind in rooms nobody named, none here: ask, all or not.
        if len({_place(t, catalog) for t in targets}) > 1 and all(
            self.bases[t] is Basis.ONLY_PLACE for t in targets
        ):
            return Ungrounded(tuple(sorted(self.offerable or targets)))
        return None


def _one_meant(
    targets: tuple[str, ...], domain: str, mentions: Mentions, catalog: Catalog
) -> tuple[str, ...]:
    """Of a domain meant one device at a time, the one the words mean.

    "On the shopping list": that list, not another the plan took; no list
    named, Home Assistant's own shopping list where it is one of them.
    """
    info = domain_info(domain)
    if not info.one_at_a_time or len(targets) < 2:  # noqa: PLR2004 - several
        return targets
    named = tuple(t for t in targets if t in mentions.entities)
    if named:
        return named
    unnamed = tuple(
        t for t in targets if catalog.exposed[t].platform == info.meant_unnamed
    )
    return unnamed or targets


def _tool_meant(action: Action, mentions: Mentions, catalog: Catalog) -> bool:
    """Whether the words are about what a tool (not a service) acts on.

    Music needs music or a speaker said, named or referred back to; a tool
    without a kind (MCP) stands on its own.
    """
    tool = catalog.tools.get(action.tool)
    if tool is None:
        return False
    return (
        tool.kind is None
        or tool.kind in mentions.kinds
        or mentions.refers_back
        or any(domain_of(entity_id) == tool.kind for entity_id in mentions.entities)
    )


def _place(entity_id: str, catalog: Catalog) -> tuple[str | None, str | None]:
    """An entity's area and floor."""
    info = catalog.exposed[entity_id]
    return info.area, info.floor
