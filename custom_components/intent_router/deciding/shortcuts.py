"""Deterministic follow-ups: "again", "undo that", "redo", "stop", "yes", "no".

These need no model: which of them make sense after the turns so far, a
small, explicit phrase list per language that decides whether an utterance
is one, and the earlier turns' executed actions (with their targets' prior
states) that say what to replay or reverse. Anything else goes on to be read.

"Undo" means the last change: the newest turn that changed something and
is neither an undo itself nor already undone, so a turn that changes
nothing in between never makes "undo" undo the undo. Only "redo" ("undo
the undo") reverses an undo; both are remembered with the time of the turn
they reversed (`Turn.undid`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache
import re

from ..core.domains import domain_info, domain_of, verb_is_own
from ..core.records import Action, ExecutedAction, PriorState, Turn
from ..core.said import Said
from ..language import Shortcut, Verb, Words

# How many turns back "it" may reach for what the verb is for.
REFERENT_TURNS = 3


@cache
def _filler_pattern(filler: frozenset[str]) -> re.Pattern[str]:
    """Matches the politeness words of a language wherever they are said."""
    options = "|".join(
        re.escape(phrase) for phrase in sorted(filler, key=len, reverse=True)
    )
    return re.compile(rf"(?<!\S)(?:{options})(?!\S)")


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
    shortcuts = [Shortcut.AGAIN, Shortcut.REDO, Shortcut.UNDO]
    shortcuts.insert(0 if asked else len(shortcuts), Shortcut.NO)
    if asked or not automation:
        shortcuts.insert(0, Shortcut.YES)
    if last_acted(history) is not None:
        shortcuts.append(Shortcut.STOP)
    return shortcuts


def last_acted(history: Sequence[Turn]) -> Turn | None:
    """The most recent turn that changed something."""
    return next((turn for turn in reversed(history) if turn.actions), None)


def follow_up_turn(shortcut: Shortcut, history: Sequence[Turn]) -> Turn | None:
    """The turn "again", "stop", "undo" or "redo" acts on, if any.

    Undo: the newest change still standing that is no undo or redo. Redo:
    the newest undo still standing (a redo's own is not one: "redo" twice
    does not undo again).
    """
    if shortcut not in (Shortcut.UNDO, Shortcut.REDO):
        return last_acted(history)
    undone = _undone(history)
    by_time = {turn.time: turn for turn in history}
    for turn in reversed(history):
        if not turn.actions or turn.time in undone:
            continue
        reversed_turn = by_time.get(turn.undid) if turn.undid is not None else None
        if shortcut is Shortcut.UNDO and turn.undid is None:
            return turn
        if (
            shortcut is Shortcut.REDO
            and reversed_turn is not None
            and reversed_turn.undid is None
        ):
            return turn
    return None


def _undone(history: Sequence[Turn]) -> set[float]:
    """The times of turns an undo or redo that ran, still standing, reversed.

    Newest first: a redo is seen before the undo it reverses, which then
    reverses nothing.
    """
    undone: set[float] = set()
    for turn in reversed(history):
        if turn.undid is not None and turn.actions and turn.time not in undone:
            undone.add(turn.undid)
    return undone


def referred(
    history: Sequence[Turn], verbs: Collection[Verb] = (), *, count: int = 1
) -> list[str]:
    """What "it" and "them" mean, newest first.

    What the last question asked about, if the newest turn was one ("what's
    on the speaker?" - "turn it down"); else what was last acted on, or,
    when that is not what the verb said is for, what a recent turn acted on
    that is ("turn on the lamp", "open the blinds", "turn it off": the lamp).
    `count` devices at least where the words said so ("them both" after
    two turns of one lamp each): the recent turns' others, newest first.
    """
    if history and history[-1].about:
        return list(history[-1].about)
    recent = [turn for turn in reversed(history) if turn.actions][:REFERENT_TURNS]
    found = list(dict.fromkeys(_last_fitting(recent, verbs)))
    for turn in recent if count > 1 else ():
        if len(found) >= count:
            break
        found += [t for a in turn.actions for t in a.targets if t not in found]
    return found


def _last_fitting(recent: Sequence[Turn], verbs: Collection[Verb]) -> list[str]:
    """The targets of the newest turn whose devices the verbs are for."""
    for turn in recent if verbs else recent[:1]:
        targets = [t for a in turn.actions for t in a.targets]
        if not verbs or all(
            any(verb_is_own(domain_of(t), verb) for verb in verbs) for t in targets
        ):
            return targets
    return [t for a in recent[0].actions for t in a.targets] if recent else []


def follow_up_actions(shortcut: Shortcut, acted: Turn) -> list[Action]:
    """The actions "again", "undo", "redo" or "stop" mean after a turn.

    A redo is the undo of an undo: the states before the undo come back.
    """
    if shortcut is Shortcut.AGAIN:
        return [Action(a.tool, tuple(a.targets), dict(a.args)) for a in acted.actions]
    if shortcut in (Shortcut.UNDO, Shortcut.REDO):
        return undo_actions(acted.actions)
    return stop_actions(acted.actions)


def match_shortcut(said: Said, allowed: Iterable[Shortcut]) -> Shortcut | None:
    """The shortcut a whole utterance is, if any (unknown languages: none).

    Politeness is ignored ("mach das bitte rückgängig"), unless it is all
    there is ("okay"). An utterance made of one shortcut's phrases ("No,
    never mind", "ja, mach das") is that shortcut. Yes and no phrases with a
    no or a negation among them are a no ("sicher nicht", "of course not",
    "ja, nein"); no yes phrase holds one (tests/test_words.py).
    """
    spoken = said.spoken
    folded = said.folded
    kept = " ".join(_filler_pattern(spoken.filler).sub(" ", folded).split()) or folded
    parts = kept.split()
    yes = spoken.shortcuts[Shortcut.YES]
    refusing = _refusing(spoken)
    for shortcut in allowed:
        known = spoken.shortcuts[shortcut]
        if shortcut is Shortcut.NO:
            known = known | yes | spoken.negations
            if not _refuses(parts, refusing):
                continue
        if _made_of(parts, known):
            return shortcut
    return None


def answers_yes(said: Said) -> bool:
    """Whether an utterance begins with a yes ("yes, close it", "ja, mach").

    Not when any of its words says no ("sicher nicht", "claro que no",
    "yes, no, leave it"): a yes is a yes only without them.
    """
    if answers_no(said):
        return False
    yes = said.spoken.shortcuts[Shortcut.YES]
    told = said.words
    return any(" ".join(told[:cut]) in yes for cut in range(1, len(told) + 1))


def answers_no(said: Said) -> bool:
    """Whether any word of an answer says no ("no, leave it open for now")."""
    return _refuses(said.words, _refusing(said.spoken))


def _refusing(spoken: Words) -> tuple[frozenset[str], frozenset[str]]:
    """The phrases that make an answer a no: no phrases and negations.

    Also the yes phrases that hold a negation ("cómo no", "why not",
    "warum nicht"): said whole, they are a yes and refuse nothing.
    """
    negating = spoken.shortcuts[Shortcut.NO] | spoken.negations
    idioms = frozenset(
        phrase
        for phrase in spoken.shortcuts[Shortcut.YES]
        if set(phrase.split()) & spoken.negations
    )
    return negating, idioms


def _refuses(
    said: Sequence[str], refusing: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """Whether a no phrase or a negation is said anywhere in these words."""
    negating, idioms = refusing
    padded = f" {' '.join(said)} "
    for idiom in idioms:
        padded = padded.replace(f" {idiom} ", "  ")
    return any(f" {phrase} " in padded for phrase in negating)


def _made_of(parts: Sequence[str], known: frozenset[str]) -> bool:
    """Whether the words are one or more of the phrases, one after another."""
    widest = max((len(phrase.split()) for phrase in known), default=0)
    # Whether the first `end` words are made of phrases, for each `end`.
    made = [True] + [False] * len(parts)
    for end in range(1, len(parts) + 1):
        made[end] = any(
            made[start] and " ".join(parts[start:end]) in known
            for start in range(max(0, end - widest), end)
        )
    return bool(parts) and made[-1]


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
