"""The decisions of a turn, as small pure functions.

Whether a valid plan acts, asks which, asks whether or admits doubt; what a
question may still do; which follow-ups make sense after the turns so far and
what they mean. Nothing here talks to Home Assistant, so each is tested
without it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from .catalog import Catalog
from .context_store import Turn
from .domains import domain_of
from .grounding import (
    SPEAKER_INDEPENDENT,
    Basis,
    Mentions,
    candidates,
    find_mentions,
    grounding_basis,
)
from .language import Shortcut, words
from .plan import Action, Plan
from .shortcuts import answers_yes, is_state_question, stop_actions, undo_actions


class Decision(StrEnum):
    """What the confidence gate makes of a valid plan."""

    EXECUTE = "execute"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    UNSURE = "unsure"


def decide(plan: Plan, threshold: float, needs_confirmation: bool) -> Decision:
    """Apply the confidence gate: act, ask which, ask whether, or admit doubt."""
    if plan.clarify and (plan.confidence < threshold or not plan.actions):
        return Decision.CLARIFY
    if plan.confidence < threshold:
        return Decision.UNSURE
    if needs_confirmation and plan.actions:
        return Decision.CONFIRM
    return Decision.EXECUTE


def answer_only(plan: Plan, catalog: Catalog, text: str, language: str) -> Plan:
    """For a question about the home, the plan without what would change it.

    A small model sometimes "answers" how warm it is by setting the
    thermostat. Services that return data and tools (music, MCP) may still
    answer. A request that is not a question keeps its plan.
    """
    if not is_state_question(text, language):
        return plan
    keep = tuple(
        action
        for action in plan.actions
        if action.tool not in catalog.services or catalog.services[action.tool].responds
    )
    return replace(plan, actions=keep)


def available_shortcuts(
    history: Sequence[Turn], *, asked: bool, automation: bool = False
) -> list[Shortcut]:
    """Follow-ups understood after these turns, in the order they are tried.

    "Yes" and "no" always are, but for a yes to an automation's question
    (`automation`, nothing of ours waiting): that goes to the model with the
    question. A yes with nothing to confirm hears so, instead of reaching the
    model. Words that mean both "no" and "undo" ("annule") are a no to a
    question that is waiting (`asked`), else undo.
    """
    shortcuts = [Shortcut.AGAIN, Shortcut.UNDO]
    shortcuts.insert(0 if asked else len(shortcuts), Shortcut.NO)
    if asked or not automation:
        shortcuts.insert(0, Shortcut.YES)
    if last_acted(history) is not None:
        shortcuts.append(Shortcut.STOP)
    return shortcuts


def last_acted(history: Sequence[Turn]) -> Turn | None:
    """The most recent turn that changed something."""
    return next((turn for turn in reversed(history) if turn.actions), None)


def follow_up_actions(shortcut: Shortcut, acted: Turn) -> list[Action]:
    """The actions "again", "undo" or "stop" mean after a turn."""
    if shortcut is Shortcut.AGAIN:
        return [Action(a.tool, tuple(a.targets), dict(a.args)) for a in acted.actions]
    if shortcut is Shortcut.UNDO:
        return undo_actions(acted.actions)
    return stop_actions(acted.actions)


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
        if _reads_only(action.tool, catalog) or _tool_meant(action, mentions, catalog):
            # A service that returns data (a forecast, a list) changes
            # nothing; a tool said for chooses its own device (music: the
            # speaker here).
            kept.append(action)
            continue
        if action.tool in catalog.tools:
            dropped.append(action)
            continue
        domain = domain_of(action.tool)
        found = grounding_basis(
            action.targets, mentions, catalog, last_targets, offered, confirm
        )
        fitting = {
            entity_id
            for entity_id in candidates(
                mentions, catalog, confirm, {*mentions.kinds, domain}
            )
            if domain_of(entity_id) == domain
        }
        targets = tuple(t for t in action.targets if found[t] is not None)
        if not targets:
            dropped.append(action)
            if choices is None:
                choices = tuple(sorted(fitting)) if len(fitting) > 1 else ()
            continue
        guessed = [
            target
            for target in targets
            if target not in mentions.entities and target not in last_targets
        ]
        # A guess among devices in different rooms, with no room said, is a
        # question ("turn on the lamp" with lamps in three rooms); within the
        # room said or spoken in, the room decided.
        several_places = len({_place(e, catalog) for e in fitting}) > 1
        said_place = bool(mentions.areas or mentions.floors)
        partial = fitting > set(targets)
        if guessed and several_places and not said_place and partial:
            return Ungrounded(tuple(sorted(fitting)))
        kept.append(replace(action, targets=targets))
        bases.update({t: b for t, b in found.items() if b is not None})
    if dropped and not kept:
        return Ungrounded(choices or ())
    return Grounded(replace(plan, actions=tuple(kept)), bases, tuple(dropped))


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


def learnable(
    plan: Plan,
    grounded: Grounded,
    mentions: Mentions,
    catalog: Catalog,
    text: str,
    confirm: Collection[str],
) -> bool:
    """Whether a plan that ran may answer the same words next time, at once.

    Only what the words alone decide: every target named, or of a kind said
    in a place said (or the whole home); nothing referred back; services
    that change something (no tools, no data); every argument said ("50
    percent", not "a bit brighter", which the model worked out from a state
    that will have changed). What asks for confirmation is never learned.
    """
    said = set(words(text))
    return (
        bool(plan.actions)
        and not mentions.refers_back
        and all(
            action.tool in catalog.services
            and not _reads_only(action.tool, catalog)
            and all(
                grounded.bases.get(target) in SPEAKER_INDEPENDENT
                and not catalog.needs_confirmation(target, confirm)
                for target in action.targets
            )
            and all(_said(value, said) for value in action.args.values())
            for action in plan.actions
        )
    )


def _said(value: object, said: set[str]) -> bool:
    """Whether an argument's value is in the words (each item of a list)."""
    if isinstance(value, list):
        return all(_said(item, said) for item in value)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    value_words = set(words(str(value)))
    return bool(value_words) and value_words <= said


def _reads_only(tool: str, catalog: Catalog) -> bool:
    """Whether a service only returns data, such as weather.get_forecasts."""
    info = catalog.services.get(tool)
    return info is not None and info.responds


def _place(entity_id: str, catalog: Catalog) -> tuple[str | None, str | None]:
    """An entity's area and floor."""
    info = catalog.exposed[entity_id]
    return info.area, info.floor


def automation_confirms(
    plan: Plan, asked: str | None, text: str, language: str, catalog: Catalog
) -> bool:
    """Whether a yes answers an automation's own question about these targets.

    "The garage door is open, should I close it?" - "yes, close it": the
    person was asked about that garage door, so it needs no second yes.
    """
    if not asked or not answers_yes(text, language):
        return False
    named = find_mentions(asked, language, catalog).entities
    return all(t in named for action in plan.actions for t in action.targets)
