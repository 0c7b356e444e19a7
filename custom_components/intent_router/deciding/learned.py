"""Learned instant commands: what the model planned once runs at once next time.

People say the same few commands every day. When a model-planned command
ran, the words alone decided every target and argument (`gate.learnable`),
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

from collections.abc import Collection, Iterable
from dataclasses import dataclass
import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from ..const import DOMAIN, LOGGER
from ..core.domains import domain_of
from ..core.records import Action, Plan, decode, encode
from ..home.storage import RobustStore
from ..reading.mentions import Mentions
from .targets.placed import candidates

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..core.records import ExecutedAction
    from ..core.said import Said
    from ..home.catalog import Catalog

STORAGE_VERSION = 1
# 1.2: a waiting lesson's memory key is `memory_key` (it was `conversation`).
STORAGE_MINOR_VERSION = 2
# Seconds a command must stand (not undone, not corrected) before it is learned.
LEARN_AFTER = 180.0
# Entries kept; the least recently used go first.
MAX_LEARNED = 200
SAVE_DELAY = 10.0


def sentence_key(said: Said, area: str | None) -> str:
    """The same words, in the same language and area, are the same command."""
    return f"{said.language.casefold()}|{area or ''}|{said.folded}"


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
    mentions: Mentions,
    catalog: Catalog,
    confirm: Collection[str],
    said: Said,
) -> Lesson:
    """What a plan that ran teaches, once the gate found it learnable."""
    return Lesson(
        sentence_key(said, catalog.speaker_area),
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


@dataclass(slots=True, frozen=True)
class _Waiting:
    """A lesson waiting out `LEARN_AFTER` for the memory key it came from."""

    memory_key: str
    key: str
    actions: tuple[Action, ...]
    fingerprint: str
    confidence: float
    time: float

    @property
    def lesson(self) -> Lesson:
        """The lesson that waits."""
        return Lesson(self.key, self.actions, self.fingerprint, self.confidence)


@dataclass(slots=True)
class _Entry:
    """A learned command and how often it was used."""

    actions: tuple[Action, ...]
    fingerprint: str
    confidence: float
    learned: float
    used: float
    hits: int = 0


def learned_file(agent_id: str) -> str:
    """The storage key of one agent's learned commands (its subentry id)."""
    return f"{DOMAIN}.learned.{agent_id}"


class LearnedCommands:
    """The learned commands of one agent, and those waiting to be."""

    def __init__(self, hass: HomeAssistant, agent_id: str) -> None:
        """Bind to the agent's storage file; call `async_load` before use."""
        # A cache: a file that cannot be used is set aside and logged, and
        # commands are learned again, with no repair issue to act on.
        self._store = RobustStore(
            hass,
            learned_file(agent_id),
            STORAGE_VERSION,
            STORAGE_MINOR_VERSION,
            migrate=_migrate,
            serialize_in_event_loop=True,  # `_data` reads the live entries
        )
        self._entries: dict[str, _Entry] = {}
        self._waiting: list[_Waiting] = []

    async def async_load(self) -> None:
        """Read the entries; an entry that cannot be read is dropped."""
        loaded = await self._store.async_load(_read_file)
        if loaded is None:
            return
        self._entries, self._waiting, dropped = loaded
        if dropped:
            LOGGER.warning(
                "Forgot %s learned commands that could not be read from %s",
                dropped,
                self._store.key,
            )

    async def async_flush(self) -> None:
        """Write the entries and the waiting lessons now (unload)."""
        await self._store.async_save(self._data())

    async def async_remove(self) -> None:
        """Delete the file (agent removed)."""
        await self._store.async_remove()

    def lookup(
        self,
        key: str,
        mentions: Mentions,
        catalog: Catalog,
        confirm: Collection[str],
    ) -> Plan | None:
        """The learned plan for these words here, if it still fits the home.

        An entry made when its words and devices pointed at something else
        (its fingerprint differs now) is forgotten.
        """
        now = time.time()
        self._promote(now)
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.fingerprint != fingerprint(entry.actions, mentions, catalog, confirm):
            LOGGER.debug("Forgot a learned command: its devices changed")
            self._forget(key)
            return None
        entry.hits += 1
        entry.used = now
        self._save()
        return Plan(entry.actions, "", entry.confidence)

    def observe(
        self,
        memory_key: str,
        lesson: Lesson | None,
        executed: Iterable[ExecutedAction],
    ) -> None:
        """A turn was remembered: it corrects waiting lessons, or is one.

        A later turn of the same memory key (device) that acts on a waiting
        lesson's devices (undo, "turn it off", "no, dimmer") or says its
        words again means it did not stand as it was.
        """
        now = time.time()
        self._promote(now)
        touched = {t for action in executed for t in action.targets}
        standing = [
            waiting
            for waiting in self._waiting
            if waiting.memory_key != memory_key
            or not (
                touched & {t for a in waiting.actions for t in a.targets}
                or (lesson is not None and lesson.key == waiting.key)
            )
        ]
        if lesson is not None:
            standing.append(
                _Waiting(
                    memory_key,
                    lesson.key,
                    lesson.actions,
                    lesson.fingerprint,
                    lesson.confidence,
                    now,
                )
            )
        if standing != self._waiting:
            self._waiting = standing
            self._save()

    def forget_sentence(self, folded: str) -> None:
        """Forget what these words (`Said.folded`) were learned as, in any area."""
        self._waiting = [w for w in self._waiting if w.key.rpartition("|")[2] != folded]
        for key in [k for k in self._entries if k.rpartition("|")[2] == folded]:
            self._forget(key)

    def clear(self) -> None:
        """Forget every learned and waiting command (`clear_context`)."""
        self._waiting.clear()
        if self._entries:
            self._entries.clear()
            self._save()

    def counts(self) -> dict[str, Any]:
        """For diagnostics: how many, and how often used (never the words)."""
        self._promote(time.time())
        return {
            "learned": len(self._entries),
            "waiting": len(self._waiting),
            "hits": sum(entry.hits for entry in self._entries.values()),
            "hits_per_command": sorted(
                (entry.hits for entry in self._entries.values()), reverse=True
            ),
        }

    def _promote(self, now: float) -> None:
        """Learn the lessons that stood for `LEARN_AFTER`."""
        due = [w for w in self._waiting if now - w.time >= LEARN_AFTER]
        if not due:
            return
        self._waiting = [w for w in self._waiting if w not in due]
        for waiting in due:
            self._entries[waiting.key] = _Entry(
                waiting.actions, waiting.fingerprint, waiting.confidence, now, now
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
            "entries": {key: encode(entry) for key, entry in self._entries.items()},
            "waiting": [encode(waiting) for waiting in self._waiting],
        }


def _migrate(old_minor_version: int, data: Any) -> None:
    """1.1 -> 1.2: a waiting lesson's `conversation` became `memory_key`."""
    if old_minor_version >= 2:  # noqa: PLR2004 - the version this step reaches
        return
    waiting = data.get("waiting") if isinstance(data, dict) else None
    for item in waiting if isinstance(waiting, list) else ():
        if isinstance(item, dict) and "conversation" in item:
            item["memory_key"] = item.pop("conversation")


def _read_file(data: Any) -> tuple[dict[str, _Entry], list[_Waiting], int] | None:
    """The entries and waiting lessons that read, and how many did not.

    None when the file is not this layout at all. Runs in a worker thread.
    """
    if not isinstance(data, dict):
        return None
    raw_entries = data.get("entries", {})
    raw_waiting = data.get("waiting", [])
    if not isinstance(raw_entries, dict) or not isinstance(raw_waiting, list):
        return None
    entries: dict[str, _Entry] = {}
    waiting: list[_Waiting] = []
    dropped = 0
    for key, raw in raw_entries.items():
        try:
            entries[str(key)] = _with_actions(decode(_Entry, raw))
        except ValueError:
            dropped += 1
    for raw in raw_waiting:
        try:
            waiting.append(_with_actions(decode(_Waiting, raw)))
        except ValueError:
            dropped += 1
    return entries, waiting, dropped


def _with_actions[T: (_Entry, _Waiting)](record: T) -> T:
    """A stored command has something to do (validation runs again at use)."""
    if not record.actions:
        msg = "a learned command without actions"
        raise ValueError(msg)
    return record
