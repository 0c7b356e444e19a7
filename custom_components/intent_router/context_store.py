"""Per-device turns in an HA Store: bounded, expiring, surviving restarts.

Each key (a satellite's device id, else `user:<id>`, else the conversation
id) keeps its own recent turns, so one room's context never leaks into
another's. The executed actions are stored as data (service, targets, data
and the targets' prior states), which is what makes "again", "undo that" and
"do the same in the bedroom" reliable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
import re
import time
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .const import DOMAIN

STORAGE_VERSION = 1
STORAGE_MINOR_VERSION = 1
SAVE_DELAY = 30.0

# Text that looks like a secret is masked before it is stored.
SECRET_PATTERNS = (
    re.compile(r"\b(?:sk|pk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{12,}"),
    re.compile(r"\b[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]{30,}\b"),
    re.compile(
        r"(?i)\b(password|passcode|passphrase|pin|code|token|secret)(\s+is|\s*[:=])\s*\S+"
    ),
    re.compile(r"\d(?:[\s-]?\d){5,}"),
)
MASK = "***"


def mask_secrets(text: str) -> str:
    """Replace what looks like a key, password or long number with ***."""
    text = SECRET_PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)} {MASK}", text)
    for pattern in (SECRET_PATTERNS[0], SECRET_PATTERNS[1], SECRET_PATTERNS[3]):
        text = pattern.sub(MASK, text)
    return text


def context_key(
    device_id: str | None, user_id: str | None, conversation_id: str
) -> str:
    """The key a turn is remembered under (DESIGN.md, step 2)."""
    if device_id:
        return device_id
    if user_id:
        return f"user:{user_id}"
    return f"conversation:{conversation_id}"


@dataclass(slots=True)
class PriorState:
    """What an entity looked like before an action, for undo."""

    state: str
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ExecutedAction:
    """A service call that ran, with what undo needs."""

    tool: str
    targets: list[str]
    data: dict[str, Any]
    prior: dict[str, PriorState] = field(default_factory=dict)


@dataclass(slots=True)
class Turn:
    """One remembered turn."""

    time: float
    text: str
    speech: str
    outcome: str
    source: str
    plan: dict[str, Any] | None = None
    actions: list[ExecutedAction] = field(default_factory=list)
    # A question the agent asked and the plan waiting on its answer.
    pending_question: str | None = None
    pending_plan: dict[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        """Rebuild a turn from storage."""
        actions = [
            ExecutedAction(
                tool=a["tool"],
                targets=list(a["targets"]),
                data=dict(a["data"]),
                prior={k: PriorState(**v) for k, v in a.get("prior", {}).items()},
            )
            for a in data.get("actions", [])
        ]
        return cls(**{**data, "actions": actions})


class _ContextStorage(Store[dict[str, Any]]):
    """The Store, with the hook future layouts migrate through."""

    async def _async_migrate_func(
        self,
        old_major_version: int,
        old_minor_version: int,
        old_data: dict[str, Any],
    ) -> dict[str, Any]:
        """No older layout exists yet; keep what is there."""
        return old_data


class ContextStore:
    """Recent turns per key, with a cap, a TTL and delayed saves."""

    def __init__(
        self, hass: HomeAssistant, entry_id: str, max_turns: int, ttl_seconds: float
    ) -> None:
        """Create the store for one config entry; call `async_load` next."""
        self._store = _ContextStorage(
            hass,
            STORAGE_VERSION,
            f"{DOMAIN}.context.{entry_id}",
            minor_version=STORAGE_MINOR_VERSION,
            private=True,
        )
        self.max_turns = max_turns
        self.ttl_seconds = ttl_seconds
        self._turns: dict[str, list[Turn]] = {}

    async def async_load(self) -> None:
        """Read the stored turns, dropping what has expired meanwhile."""
        data = await self._store.async_load() or {}
        self._turns = {
            key: [Turn.from_dict(turn) for turn in turns]
            for key, turns in data.get("turns", {}).items()
        }
        if self._prune_all():
            self._store.async_delay_save(self._data_to_save, SAVE_DELAY)

    def recent(self, key: str) -> list[Turn]:
        """The key's turns within the TTL, oldest first."""
        turns = self._turns.get(key)
        if not turns:
            return []
        fresh = self._fresh(turns)
        if len(fresh) != len(turns):
            self._set(key, fresh)
        return list(fresh)

    def add(self, key: str, turn: Turn) -> None:
        """Remember a turn (text masked); the save happens a little later."""
        turn.text = mask_secrets(turn.text)
        self._set(
            key, [*self._fresh(self._turns.get(key, [])), turn][-self.max_turns :]
        )

    def clear(self, key: str | None = None) -> None:
        """Forget one key's turns, or everyone's."""
        if key is None:
            self._turns.clear()
        else:
            self._turns.pop(key, None)
        self._store.async_delay_save(self._data_to_save, SAVE_DELAY)

    def counts(self) -> dict[str, int]:
        """Keys and turns held, for diagnostics (never the text)."""
        return {
            "keys": len(self._turns),
            "turns": sum(len(turns) for turns in self._turns.values()),
        }

    async def async_flush(self) -> None:
        """Write now (on unload), instead of after the save delay."""
        await self._store.async_save(self._data_to_save())

    async def async_remove(self) -> None:
        """Delete the stored file (the config entry is being removed)."""
        await self._store.async_remove()

    def _set(self, key: str, turns: list[Turn]) -> None:
        if turns:
            self._turns[key] = turns
        else:
            self._turns.pop(key, None)
        self._store.async_delay_save(self._data_to_save, SAVE_DELAY)

    def _fresh(self, turns: list[Turn]) -> list[Turn]:
        cutoff = time.time() - self.ttl_seconds
        return [turn for turn in turns if turn.time >= cutoff]

    def _prune_all(self) -> bool:
        """Drop expired turns everywhere; True when something went."""
        changed = False
        for key, turns in list(self._turns.items()):
            fresh = self._fresh(turns)
            if len(fresh) != len(turns):
                changed = True
                if fresh:
                    self._turns[key] = fresh
                else:
                    del self._turns[key]
        return changed

    def _data_to_save(self) -> dict[str, Any]:
        self._prune_all()
        return {
            "turns": {
                key: [asdict(t) for t in turns] for key, turns in self._turns.items()
            }
        }
