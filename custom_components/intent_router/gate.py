"""The decisions of a turn, as small pure functions.

Whether a valid plan acts, asks which, asks whether or admits doubt; what a
question may still do; which follow-ups make sense after the turns so far and
what they mean. Nothing here talks to Home Assistant, so each is tested
without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum

from .catalog import Catalog
from .context_store import Turn
from .plan import Action, Plan
from .shortcuts import Shortcut, stop_actions, undo_actions


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


def answer_only(plan: Plan, catalog: Catalog) -> Plan:
    """A plan for a question, without the actions that would change things.

    A small model sometimes "answers" how warm it is by setting the
    thermostat. Services that return data and tools (music, MCP) may still
    answer.
    """
    keep = tuple(
        action
        for action in plan.actions
        if action.tool not in catalog.services or catalog.services[action.tool].responds
    )
    return replace(plan, actions=keep)


def available_shortcuts(history: Sequence[Turn]) -> list[Shortcut]:
    """Follow-ups that make sense after these turns (yes/no only when asked)."""
    shortcuts = [Shortcut.AGAIN, Shortcut.UNDO]
    if history and history[-1].pending_plan is not None:
        shortcuts[:0] = [Shortcut.YES, Shortcut.NO]
    if last_acted(history) is not None:
        shortcuts.append(Shortcut.STOP)
    return shortcuts


def last_acted(history: Sequence[Turn]) -> Turn | None:
    """The most recent turn that changed something."""
    return next((turn for turn in reversed(history) if turn.actions), None)


def follow_up_actions(shortcut: Shortcut, acted: Turn) -> list[Action]:
    """The actions "again", "undo" or "stop" mean after a turn."""
    if shortcut is Shortcut.AGAIN:
        return [Action(a.tool, tuple(a.targets), dict(a.data)) for a in acted.actions]
    if shortcut is Shortcut.UNDO:
        return undo_actions(acted.actions)
    return stop_actions(acted.actions)
