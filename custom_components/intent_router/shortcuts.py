"""Deterministic follow-ups: "again", "undo that", "stop", "yes", "no".

These need no model: which of them make sense after the turns so far, a
small, explicit phrase list per language that decides whether an utterance
is one, and the previous turn's executed actions (with their targets' prior
states) that say what to replay or reverse. Anything else goes on to be read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import re

from .domains import domain_info, domain_of
from .records import Action, ExecutedAction, PriorState, Turn
from .speech import base_language
from .vocabulary import FILLER, PHRASES, QUESTION_OPENERS, Shortcut

_SEPARATORS = re.compile(r"[^\w']+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})


def normalise(text: str) -> str:
    """Case-folded words separated by single spaces, punctuation gone."""
    return _SEPARATORS.sub(" ", text.casefold().translate(_APOSTROPHES)).strip()


def _filler_pattern(filler: Iterable[str]) -> re.Pattern[str]:
    """Matches the politeness words of a language wherever they are said."""
    options = "|".join(
        re.escape(words) for words in sorted(filler, key=len, reverse=True)
    )
    return re.compile(rf"(?<!\S)(?:{options})(?!\S)")


_FILLER_PATTERNS = {
    language: _filler_pattern(words) for language, words in FILLER.items()
}


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


def match_shortcut(
    text: str, language: str, allowed: Iterable[Shortcut]
) -> Shortcut | None:
    """The shortcut a whole utterance is, if any (unknown languages: none).

    Politeness is ignored ("mach das bitte rückgängig"), unless it is all
    there is ("okay"). "No, never mind" and "ja, mach das" are two phrases
    of one shortcut, so they are that shortcut.
    """
    base = base_language(language)
    phrases = PHRASES.get(base)
    if phrases is None:
        return None
    said = normalise(text)
    said = " ".join(_FILLER_PATTERNS[base].sub(" ", said).split()) or said
    words = said.split()
    for shortcut in allowed:
        known = phrases[shortcut]
        if said in known or any(
            " ".join(words[:cut]) in known and " ".join(words[cut:]) in known
            for cut in range(1, len(words))
        ):
            return shortcut
    return None


def answers_yes(text: str, language: str) -> bool:
    """Whether an utterance begins with a yes ("yes, close it", "ja, mach")."""
    yes = PHRASES.get(base_language(language), {}).get(Shortcut.YES, frozenset())
    words = normalise(text).split()
    return any(" ".join(words[:cut]) in yes for cut in range(1, len(words) + 1))


def is_state_question(text: str, language: str) -> bool:
    """Whether an utterance asks about the home rather than for a change."""
    openers = QUESTION_OPENERS.get(base_language(language), ())
    return normalise(text).startswith(openers)


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
