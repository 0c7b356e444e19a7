"""Per-device turns in an HA Store: bounded, expiring, surviving restarts.

Each key (a satellite's device id, else `user:<id>`, else the conversation
id) keeps its own recent turns, so one room's context never leaks into
another's. The executed actions are stored as data (service, targets, args
and the targets' prior states), which is what makes "again", "undo that" and
"do the same in the bedroom" reliable.

Nothing said or found on disk can take the memory (or the agent) down:

- each turn is turned into JSON once, when it is added (secrets masked,
  text made encodable), and kept as those bytes: a save snapshots the
  key -> turns mapping in the event loop and writes the bytes as they are
  from a worker thread; a large memory is a few thousand byte strings, not
  millions of objects for the garbage collector to walk;
- a stored file is read turn by turn as `Turn` records (records.py): a bad
  turn is dropped with a warning; a file that cannot be used at all (written
  by a newer version, unreadable, not this layout) is set aside with a
  repair issue (storage.py), and the agent starts with no memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
import re
import time
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from homeassistant.helpers.json import json_encoder_default
from homeassistant.util.json import json_loads

from ..const import DOMAIN, LOGGER
from ..core.records import Turn, decode, encode, unknown_keys
from .storage import RobustStore

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant

STORAGE_VERSION = 1
# 1.2: an executed action's `data` is called `args` (as in a plan's actions).
STORAGE_MINOR_VERSION = 2
SAVE_DELAY = 30.0

# Text that looks like a secret is masked before it is stored. Every pattern
# matches each character in at most one way (no nested or overlapping
# quantifiers), so masking takes time linear in the text.
_SPOKEN_DIGITS = r"\d(?:[\s-]?\d)*\S*"  # "4321", "1 2 3 4", "12-34#"
_SAID_SECRET = re.compile(
    r"(?i)\b(?P<word>password|passcode|passphrase|pin|code|token|secret)"
    # "password is hunter2", "token: abc": whatever follows is the secret;
    # "the alarm code 4321": a following word is one only if it has a digit.
    rf"(?:(?P<told>\s+is\s+|\s*[:=]\s*)(?:{_SPOKEN_DIGITS}|\S+)"
    rf"|(?P<space>\s+)(?:{_SPOKEN_DIGITS}|(?=\S*\d)\S+))"
)
_PREFIXED_KEY = re.compile(r"\b(?:sk|pk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{12,}")
# A whole run of key characters, masked when it looks like a key (`_mask_key_like`).
_KEY_RUN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT_RUN = re.compile(r"\d(?:[\s-]?\d){5,}")
KEY_TAIL = 30
MASK = "***"


def mask_secrets(text: str) -> str:
    """Replace what looks like a key, password, code or long number with ***."""
    text = _SAID_SECRET.sub(_mask_said_secret, text)
    text = _PREFIXED_KEY.sub(MASK, text)
    text = _KEY_RUN.sub(_mask_key_like, text)
    return _DIGIT_RUN.sub(MASK, text)


def _mask_said_secret(match: re.Match[str]) -> str:
    """Keep the word and how it was said; mask the secret."""
    return f"{match['word']}{match['told'] or match['space']}{MASK}"


def _mask_key_like(match: re.Match[str]) -> str:
    """Mask a long run with a digit, then a letter, then 30 more characters."""
    run = match[0]
    digit = _DIGIT.search(run)
    letter = _LETTER.search(run, digit.end()) if digit else None
    return MASK if letter and len(run) - letter.end() >= KEY_TAIL else run


def context_key(user_input: ConversationInput, chat_log: ChatLog) -> str:
    """Whose memory a turn belongs to: the device, else the user, else the chat.

    The chat log's conversation id, since the input's is None on a
    conversation's first turn, before HA's chat session assigns one.
    """
    if user_input.device_id:
        return user_input.device_id
    if user_input.context.user_id:
        return f"user:{user_input.context.user_id}"
    return f"conversation:{chat_log.conversation_id}"


class Kept(NamedTuple):
    """A remembered turn: when it was said, and the turn as JSON."""

    time: float
    json: bytes


type KeptTurns = dict[str, tuple[Kept, ...]]


def _migrate(old_minor_version: int, data: Any) -> None:
    """1.1 -> 1.2: executed actions' `data` became `args` (whatever the shape)."""
    if old_minor_version >= 2:  # noqa: PLR2004 - the version this step reaches
        return
    turns = data.get("turns") if isinstance(data, dict) else None
    for stored in turns.values() if isinstance(turns, dict) else ():
        for turn in stored if isinstance(stored, list) else ():
            actions = turn.get("actions") if isinstance(turn, dict) else None
            for action in actions if isinstance(actions, list) else ():
                if isinstance(action, dict) and "data" in action:
                    action["args"] = action.pop("data")


def context_file(agent_id: str) -> str:
    """The storage key of one agent's memory (its config subentry id)."""
    return f"{DOMAIN}.context.{agent_id}"


class ContextStore:
    """Recent turns per key, with a cap, a TTL and delayed saves."""

    def __init__(
        self, hass: HomeAssistant, agent_id: str, max_turns: int, ttl_seconds: float
    ) -> None:
        """Create the store of one agent; call `async_load` next."""
        self._hass = hass
        self._store = RobustStore(
            hass,
            context_file(agent_id),
            STORAGE_VERSION,
            STORAGE_MINOR_VERSION,
            issue_id=f"memory_set_aside_{agent_id}",
            migrate=_migrate,
        )
        self.max_turns = max_turns
        self.ttl_seconds = ttl_seconds
        # Each key's turns are an immutable tuple, replaced on change: a
        # snapshot of this dict can be written from another thread.
        self._turns: KeptTurns = {}

    async def async_load(self) -> None:
        """Read the stored turns; what cannot be used is dropped or set aside."""
        cutoff, max_turns = time.time() - self.ttl_seconds, self.max_turns
        loaded = await self._store.async_load(
            lambda data: _read_file(data, cutoff, max_turns)
        )
        if loaded is None:
            return
        self._turns, dropped, changed, unknown = loaded
        if unknown:
            # Left out of the turns, so the next save does not carry them.
            LOGGER.warning(
                "The memory file %s (version %s) has keys this version does not"
                " know, probably from a newer Intent Router; they are left out: %s",
                self._store.key,
                self._store.file_version,
                ", ".join(sorted(unknown)),
            )
        if dropped:
            LOGGER.warning(
                "Dropped %s unreadable turns from the memory file %s",
                dropped,
                self._store.key,
            )
        if changed:
            self._schedule_save()

    def recent(self, key: str) -> list[Turn]:
        """The key's turns within the TTL, oldest first (fresh copies)."""
        kept = self._turns.get(key, ())
        fresh = self._fresh(kept)
        if len(fresh) != len(kept):
            self._set(key, fresh)
        turns = _read_turns(json_loads(turn.json) for turn in fresh)
        if len(turns) != len(fresh):  # a field type `decode` does not know
            LOGGER.warning(
                "%s remembered turns could not be read back", len(fresh) - len(turns)
            )
        return turns

    def add(self, key: str, turn: Turn) -> None:
        """Remember a turn (text masked); the save happens a little later."""
        masked = _kept(replace(turn, text=mask_secrets(turn.text)))
        kept = (*self._fresh(self._turns.get(key, ())), masked)
        self._set(key, kept[-self.max_turns :])

    def clear(self, key: str | None = None) -> None:
        """Forget one key's turns, or everyone's."""
        if key is None:
            self._turns = {}
        else:
            self._turns.pop(key, None)
        self._schedule_save()

    def counts(self) -> dict[str, int]:
        """Keys and unexpired turns held, for diagnostics (never the text)."""
        fresh = [self._fresh(kept) for kept in self._turns.values()]
        return {
            "keys": sum(1 for kept in fresh if kept),
            "turns": sum(len(kept) for kept in fresh),
        }

    async def async_flush(self) -> None:
        """Write now (on unload), instead of after the save delay."""
        data = await self._hass.async_add_executor_job(
            _file_data, dict(self._turns), self.ttl_seconds
        )
        await self._store.async_save(data)

    async def async_remove(self) -> None:
        """Delete the stored file, a set-aside copy and its repair issue."""
        await self._store.async_remove()

    def _set(self, key: str, kept: tuple[Kept, ...]) -> None:
        if kept:
            self._turns[key] = kept
        else:
            self._turns.pop(key, None)
        self._schedule_save()

    def _schedule_save(self) -> None:
        """Save a little later, serialising a snapshot off the event loop."""
        snapshot, ttl = dict(self._turns), self.ttl_seconds
        self._store.async_delay_save(lambda: _file_data(snapshot, ttl), SAVE_DELAY)

    def _fresh(self, kept: tuple[Kept, ...]) -> tuple[Kept, ...]:
        cutoff = time.time() - self.ttl_seconds
        return tuple(turn for turn in kept if turn.time >= cutoff)


def _file_data(turns: KeptTurns, ttl_seconds: float) -> dict[str, Any]:
    """What the memory file holds: every key's unexpired turns, as they are.

    Runs in a worker thread on a snapshot; the JSON of each turn is written as it was made (an orjson fragment),
    not serialised again.
    """
    cutoff = time.time() - ttl_seconds
    return {
        "turns": {
            key: fresh
            for key, kept in turns.items()
            if (
                fresh := [
                    orjson.Fragment(turn.json) for turn in kept if turn.time >= cutoff
                ]
            )
        }
    }


def _read_file(
    data: Any, cutoff: float, max_turns: int
) -> tuple[KeptTurns, int, bool, set[str]] | None:
    """A memory file's usable turns, bad count, change, and unknown keys.

    The unknown keys are those of its turns this version does not have.
    None when the file is not this layout at all. Runs in a worker thread.
    """
    if not isinstance(data, dict) or not isinstance(
        turns := data.get("turns", {}), dict
    ):
        return None
    kept_turns: KeptTurns = {}
    dropped = 0
    changed = False
    unknown: set[str] = set()
    for key, stored in turns.items():
        values = stored if isinstance(stored, list) else [stored]
        for value in values:
            unknown |= unknown_keys(Turn, value)
        readable = [_kept(turn) for turn in _read_turns(values)]
        dropped += len(values) - len(readable)
        fresh = tuple(turn for turn in readable if turn.time >= cutoff)
        changed |= len(fresh) != len(readable) or len(fresh) > max_turns
        if fresh:
            kept_turns[str(key)] = fresh[-max_turns:]
    return kept_turns, dropped, changed or dropped > 0, unknown


def _read_turns(values: Iterable[Any]) -> list[Turn]:
    """The values that read as `Turn`s; the others are left out."""
    turns = []
    for value in values:
        try:
            turns.append(decode(Turn, value))
        except ValueError:
            continue
    return turns


def _kept(turn: Turn) -> Kept:
    """A turn as it is kept: JSON that always encodes (see `encode`)."""
    return Kept(
        turn.time,
        orjson.dumps(
            encode(turn), option=orjson.OPT_NON_STR_KEYS, default=_json_default
        ),
    )


def _json_default(value: Any) -> Any:
    """HA's JSON form of a value (datetimes, sets...), else its text."""
    try:
        return json_encoder_default(value)
    except TypeError:
        return str(value)
