"""Deterministic follow-ups: "again", "undo that", "stop", "yes", "no".

These need no model: a small, explicit phrase list per language decides,
and the previous turn's executed actions (with their targets' prior states)
say what to replay or reverse. Anything not on the list goes to the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
import re

from .context_store import ExecutedAction, PriorState
from .domains import domain_info, domain_of
from .plan import Action


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


PHRASES: Mapping[str, Mapping[Shortcut, frozenset[str]]] = {
    "en": {
        Shortcut.AGAIN: frozenset(
            {
                "again",
                "do that again",
                "do it again",
                "same again",
                "repeat that",
                "once more",
                "one more time",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "undo",
                "undo that",
                "undo it",
                "revert that",
                "put it back",
                "change it back",
                "take that back",
            }
        ),
        Shortcut.STOP: frozenset({"stop", "stop that", "stop it"}),
        Shortcut.YES: frozenset(
            {
                "yes",
                "yeah",
                "yep",
                "sure",
                "ok",
                "okay",
                "do it",
                "go ahead",
                "confirm",
                "please do",
                "yes do it",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "no",
                "nope",
                "never mind",
                "nevermind",
                "cancel",
                "dont",
                "don't",
                "no thanks",
                "forget it",
            }
        ),
    },
}
# How questions about the home start, per language. "Can you ...", "do the
# same ..." and the like are requests, so they are not on the list.
QUESTION_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": (
        "how ",
        "what",
        "which ",
        "when ",
        "where ",
        "who ",
        "is ",
        "are ",
        "does ",
        "was ",
        "were ",
    ),
}
_FILLER = re.compile(r"^(?:please |ok |okay )|(?: please| thanks| thank you)$")
_PUNCTUATION = re.compile(r"[^\w\s']")


def match_shortcut(
    text: str, language: str, allowed: Iterable[Shortcut]
) -> Shortcut | None:
    """The shortcut a whole utterance is, if any (unknown languages: none)."""
    phrases = PHRASES.get(language.partition("-")[0].casefold())
    if phrases is None:
        return None
    said = _PUNCTUATION.sub("", text.casefold()).strip()
    said = _FILLER.sub("", " ".join(said.split())).strip()
    return next((shortcut for shortcut in allowed if said in phrases[shortcut]), None)


def is_state_question(text: str, language: str) -> bool:
    """Whether an utterance asks about the home rather than for a change."""
    openers = QUESTION_OPENERS.get(language.partition("-")[0].casefold(), ())
    return text.casefold().lstrip().startswith(openers)


def undo_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Actions that restore the recorded prior states (the oldest one wins)."""
    restore: dict[str, PriorState] = {}
    for action in executed:
        for entity_id, prior in action.prior.items():
            restore.setdefault(entity_id, prior)
    actions: list[Action] = []
    for entity_id, prior in restore.items():
        domain = domain_of(entity_id)
        restorer = domain_info(domain).restore
        calls = restorer(prior) if restorer else []
        actions.extend(
            Action(f"{domain}.{service}", (entity_id,), args) for service, args in calls
        )
    return actions


def stop_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Stop or pause what the previous turn started."""
    targets = dict.fromkeys(t for action in executed for t in action.targets)
    return [
        Action(f"{domain}.{stop}", (entity_id,))
        for entity_id in targets
        if (stop := domain_info(domain := domain_of(entity_id)).stop)
    ]
