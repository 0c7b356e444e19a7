"""Learned instant commands: what the model planned once runs at once next time.

People say the same few commands every day. When a model-planned command
ran, the words alone decided every target and argument (gate.learnable),
and nobody undid or corrected it within `LEARN_AFTER`, the sentence (with
the speaker's area and language) and its actions are kept in HA storage.
Said again in that area, they run without the model, through the same
validation and gate as every plan.

An entry keeps a fingerprint of the entities its words point at (names,
aliases, areas, floors, exposure): when any of that changes, or a device of
the kind said appears in the place said, the fingerprint no longer matches
and the entry is forgotten. Undo forgets it too, and so does `clear_context`.
Lessons still waiting are stored too, so a restart does not reset the wait.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from homeassistant.helpers.storage import Store

from .const import DOMAIN, LOGGER
from .domains import domain_of
from .gate import Grounded, learnable
from .grounding import Mentions, candidates
from .language import fold
from .plan import Action, Plan

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .catalog import Catalog
    from .context_store import ExecutedAction

STORAGE_VERSION = 1
# Seconds a command must stand (not undone, not corrected) before it is learned.
LEARN_AFTER = 180.0
# Entries kept; the least recently used go first.
MAX_LEARNED = 200
SAVE_DELAY = 10.0


def sentence_key(text: str, language: str, area: str | None) -> str:
    """The same words, in the same language and area, are the same command."""
    return f"{language.casefold()}|{area or ''}|{fold(text)}"


def fingerprint(
    actions: Iterable[Action],
    mentions: Mentions,
    catalog: Catalog,
    confirm: Collection[str],
) -> str:
    """What the command's words point at in the home, as one digest.

    The targets and every entity the words name or whose kind and place they
    say: a rename, a move, a new lamp in the room said or a change of
    exposure all change it.
    """
    actions = list(actions)
    kinds = {*mentions.kinds, *(domain_of(a.tool) for a in actions)}
    pointed = {
        *(t for a in actions for t in a.targets),
        *mentions.entities,
        *candidates(mentions, catalog, confirm, kinds),
    }
    facts = [
        (
            entity_id,
            info.name,
            list(info.aliases),
            info.area,
            info.floor,
        )
        if (info := catalog.exposed.get(entity_id))
        else (entity_id, None)
        for entity_id in sorted(pointed)
    ]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:16]


def lesson(
    plan: Plan,
    grounded: Grounded | None,
    mentions: Mentions,
    catalog: Catalog,
    language: str,
    confirm: Collection[str],
    text: str,
) -> Lesson | None:
    """What a plan that ran may teach, if the words alone decided it."""
    if grounded is None or not learnable(
        plan, grounded, mentions, catalog, text, confirm
    ):
        return None
    return Lesson(
        sentence_key(text, language, catalog.speaker_area),
        plan.actions,
        fingerprint(plan.actions, mentions, catalog, confirm),
        plan.confidence,
    )


@dataclass(slots=True, frozen=True)
class Lesson:
    """A command that ran and may be learned, if it stands."""

    key: str
    actions: tuple[Action, ...]
    fingerprint: str
    confidence: float


@dataclass(slots=True)
class _Candidate:
    """A lesson waiting out `LEARN_AFTER` for the conversation it came from."""

    conversation: str
    lesson: Lesson
    time: float


@dataclass(slots=True)
class _Entry:
    """A learned command and how often it was used."""

    actions: tuple[Action, ...]
    fingerprint: str
    confidence: float
    learned: float
    used: float
    hits: int = 0


class LearnedCommands:
    """The learned commands of one config entry, and those waiting to be."""

    def __init__(self, hass: HomeAssistant, entry_id: str) -> None:
        """Bind to the entry's storage file; call `async_load` before use."""
        self._store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, f"{DOMAIN}.learned.{entry_id}"
        )
        self._entries: dict[str, _Entry] = {}
        self._candidates: list[_Candidate] = []

    async def async_load(self) -> None:
        """Read the entries; a damaged file is a cache lost, not an error."""
        data = await self._store.async_load() or {}
        try:
            self._entries = {
                str(key): _entry(raw) for key, raw in data.get("entries", {}).items()
            }
            self._candidates = [_candidate(raw) for raw in data.get("waiting", [])]
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            LOGGER.warning(
                "Forgot the learned commands, their file is damaged: %s", err
            )
            self._entries = {}
            self._candidates = []

    async def async_flush(self) -> None:
        """Write the entries and the waiting lessons now (unload)."""
        await self._store.async_save(self._data())

    async def async_remove(self) -> None:
        """Delete the file (entry removed)."""
        await self._store.async_remove()

    def lookup(
        self, key: str, current: Callable[[tuple[Action, ...]], str]
    ) -> Plan | None:
        """The learned plan for these words here, if it still fits the home.

        `current` gives the fingerprint an entry's actions and words have
        now; an entry made when they pointed at something else is forgotten.
        """
        now = time.time()
        self._promote(now)
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.fingerprint != current(entry.actions):
            LOGGER.debug("Forgot a learned command: its devices changed")
            self._forget(key)
            return None
        entry.hits += 1
        entry.used = now
        self._save()
        return Plan(entry.actions, "", entry.confidence)

    def observe(
        self,
        conversation: str,
        lesson: Lesson | None,
        executed: Iterable[ExecutedAction],
    ) -> None:
        """A turn was remembered: it corrects waiting lessons, or is one.

        A later turn of the same conversation that acts on a waiting
        lesson's devices (undo, "turn it off", "no, dimmer") or says its
        words again means it did not stand as it was.
        """
        now = time.time()
        self._promote(now)
        touched = {t for action in executed for t in action.targets}
        standing = [
            candidate
            for candidate in self._candidates
            if candidate.conversation != conversation
            or not (
                touched & {t for a in candidate.lesson.actions for t in a.targets}
                or (lesson is not None and lesson.key == candidate.lesson.key)
            )
        ]
        if lesson is not None:
            standing.append(_Candidate(conversation, lesson, now))
        if standing != self._candidates:
            self._candidates = standing
            self._save()

    def forget_sentence(self, text: str) -> None:
        """Forget what these words were learned as, in any area (undo)."""
        words = fold(text)
        self._candidates = [
            c for c in self._candidates if c.lesson.key.rpartition("|")[2] != words
        ]
        for key in [k for k in self._entries if k.rpartition("|")[2] == words]:
            self._forget(key)

    def clear(self) -> None:
        """Forget every learned and waiting command (`clear_context`)."""
        self._candidates.clear()
        if self._entries:
            self._entries.clear()
            self._save()

    def counts(self) -> dict[str, Any]:
        """For diagnostics: how many, and how often used (never the words)."""
        self._promote(time.time())
        return {
            "learned": len(self._entries),
            "waiting": len(self._candidates),
            "hits": sum(entry.hits for entry in self._entries.values()),
            "hits_per_command": sorted(
                (entry.hits for entry in self._entries.values()), reverse=True
            ),
        }

    def _promote(self, now: float) -> None:
        """Learn the lessons that stood for `LEARN_AFTER`."""
        due = [c for c in self._candidates if now - c.time >= LEARN_AFTER]
        if not due:
            return
        self._candidates = [c for c in self._candidates if c not in due]
        for candidate in due:
            lesson = candidate.lesson
            self._entries[lesson.key] = _Entry(
                lesson.actions, lesson.fingerprint, lesson.confidence, now, now
            )
        while len(self._entries) > MAX_LEARNED:
            oldest = min(self._entries, key=lambda k: self._entries[k].used)
            del self._entries[oldest]
        self._save()

    def _forget(self, key: str) -> None:
        """Drop one entry and write the change."""
        del self._entries[key]
        self._save()

    def _save(self) -> None:
        """Write soon, batching the changes of a few turns."""
        self._store.async_delay_save(self._data, SAVE_DELAY)

    def _data(self) -> dict[str, Any]:
        """The entries and the waiting lessons as JSON data."""
        return {
            "entries": {
                key: {
                    "actions": _actions_data(entry.actions),
                    "fingerprint": entry.fingerprint,
                    "confidence": entry.confidence,
                    "learned": entry.learned,
                    "used": entry.used,
                    "hits": entry.hits,
                }
                for key, entry in self._entries.items()
            },
            "waiting": [
                {
                    "conversation": candidate.conversation,
                    "key": candidate.lesson.key,
                    "actions": _actions_data(candidate.lesson.actions),
                    "fingerprint": candidate.lesson.fingerprint,
                    "confidence": candidate.lesson.confidence,
                    "time": candidate.time,
                }
                for candidate in self._candidates
            ],
        }


def _actions_data(actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    """Actions as JSON data."""
    return [
        {"tool": a.tool, "targets": list(a.targets), "args": a.args} for a in actions
    ]


def _actions(raw: list[dict[str, Any]]) -> tuple[Action, ...]:
    """Stored actions, checked field by field (validation runs again at use)."""
    actions = tuple(
        Action(
            str(item["tool"]),
            tuple(str(t) for t in item["targets"]),
            dict(item.get("args") or {}),
        )
        for item in raw
    )
    if not actions:
        raise ValueError("a learned command without actions")
    return actions


def _candidate(raw: dict[str, Any]) -> _Candidate:
    """One stored waiting lesson."""
    lesson = Lesson(
        str(raw["key"]),
        _actions(raw["actions"]),
        str(raw["fingerprint"]),
        float(raw["confidence"]),
    )
    return _Candidate(str(raw["conversation"]), lesson, float(raw["time"]))


def _entry(raw: dict[str, Any]) -> _Entry:
    """One stored entry, checked field by field."""
    return _Entry(
        _actions(raw["actions"]),
        str(raw["fingerprint"]),
        float(raw["confidence"]),
        float(raw["learned"]),
        float(raw["used"]),
        int(raw["hits"]),
    )
