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
- a stored file is read turn by turn against the dataclasses below: a bad
  turn is dropped with a warning; a file that cannot be used at all (written
  by a newer version, unreadable, not this layout) is kept beside it as
  `<key>.bad`, a repair issue says so, and the agent starts with no memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
import contextlib
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from enum import Enum
from functools import cache
import math
import re
import shutil
import time
from types import NoneType, UnionType
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    NamedTuple,
    get_args,
    get_origin,
    get_type_hints,
)

import orjson

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.json import json_encoder_default
from homeassistant.helpers.storage import Store
from homeassistant.util.json import json_loads

from .const import DOMAIN, LOGGER

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from homeassistant.components.conversation import ChatLog, ConversationInput

STORAGE_VERSION = 1
# 1.2: an executed action's `data` is called `args` (as in a plan's actions).
STORAGE_MINOR_VERSION = 2
SAVE_DELAY = 30.0
# Files of any major version reach the migrate hook, which sets newer ones aside.
ANY_VERSION: Final = 2**31
# Deeper values in a turn (a model's arguments, an entity's attributes) are
# dropped: nothing a home does nests this deep, and what reads turns back
# (recursively) must not be able to fail on them.
MAX_DEPTH = 32

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
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> str:
    r"""`text` with each lone surrogate replaced by U+FFFD.

    A lone surrogate (a stray "\ud800" from a satellite, an automation or
    a model's JSON) cannot be encoded as UTF-8: one in memory would fail
    every later save, one in a request would fail the request.
    """
    return _LONE_SURROGATE.sub("\ufffd", text)


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
    args: dict[str, Any]
    prior: dict[str, PriorState] = field(default_factory=dict)


@dataclass(slots=True)
class Turn:
    """One remembered turn; stored as its fields (see `_from_json`)."""

    time: float
    text: str
    speech: str
    outcome: str
    source: str
    plan: dict[str, Any] | None = None
    actions: list[ExecutedAction] = field(default_factory=list)


class Kept(NamedTuple):
    """A remembered turn: when it was said, and the turn as JSON."""

    time: float
    json: bytes


type KeptTurns = dict[str, tuple[Kept, ...]]


@dataclass(slots=True, frozen=True)
class _StoredFile:
    """A memory file's payload, with the version that wrote it."""

    version: int
    minor_version: int
    data: Any


class _NewerFileError(Exception):
    """The memory file was written by a newer major version."""

    def __init__(self, stored: _StoredFile) -> None:
        """Keep the payload, so that it can be set aside."""
        super().__init__(f"memory file version {stored.version}")
        self.stored = stored


class _ContextStorage(Store[dict[str, Any]]):
    """The Store, with the hook older and newer layouts pass through."""

    async def _async_migrate_func(
        self, old_major_version: int, old_minor_version: int, old_data: Any
    ) -> Any:
        """Bring a 1.1 file up to date; refuse a newer major version.

        A newer minor version is read as it is: the fields it added are not
        known here and are left out when its turns are read.
        """
        if old_major_version > STORAGE_VERSION:
            raise _NewerFileError(
                _StoredFile(old_major_version, old_minor_version, old_data)
            )
        if old_minor_version < STORAGE_MINOR_VERSION:
            _rename_action_data(old_data)
        return old_data


def _rename_action_data(data: Any) -> None:
    """1.1 -> 1.2: executed actions' `data` became `args` (whatever the shape)."""
    turns = data.get("turns") if isinstance(data, dict) else None
    for stored in turns.values() if isinstance(turns, dict) else ():
        for turn in stored if isinstance(stored, list) else ():
            actions = turn.get("actions") if isinstance(turn, dict) else None
            for action in actions if isinstance(actions, list) else ():
                if isinstance(action, dict) and "data" in action:
                    action["args"] = action.pop("data")


class ContextStore:
    """Recent turns per key, with a cap, a TTL and delayed saves."""

    def __init__(
        self, hass: HomeAssistant, entry_id: str, max_turns: int, ttl_seconds: float
    ) -> None:
        """Create the store for one config entry; call `async_load` next."""
        self._hass = hass
        self._entry_id = entry_id
        self._store = _ContextStorage(
            hass,
            STORAGE_VERSION,
            f"{DOMAIN}.context.{entry_id}",
            minor_version=STORAGE_MINOR_VERSION,
            private=True,
            atomic_writes=True,
            max_readable_version=ANY_VERSION,
            serialize_in_event_loop=False,
        )
        self.max_turns = max_turns
        self.ttl_seconds = ttl_seconds
        # Each key's turns are an immutable tuple, replaced on change: a
        # snapshot of this dict can be written from another thread.
        self._turns: KeptTurns = {}

    @property
    def _issue_id(self) -> str:
        return f"memory_set_aside_{self._entry_id}"

    async def async_load(self) -> None:
        """Read the stored turns; what cannot be used is dropped or set aside."""
        try:
            data = await self._store.async_load()
        except _NewerFileError as err:
            await self._async_set_aside(err.stored, "memory_from_newer_version")
            return
        except (HomeAssistantError, KeyError, TypeError, ValueError) as err:
            LOGGER.debug("Memory file unreadable: %r", err)
            await self._async_set_aside(None, "memory_unusable")
            return
        loaded = await self._hass.async_add_executor_job(
            _read_file, data or {}, time.time() - self.ttl_seconds, self.max_turns
        )
        if loaded is None:
            stored = _StoredFile(STORAGE_VERSION, STORAGE_MINOR_VERSION, data)
            await self._async_set_aside(stored, "memory_unusable")
            return
        self._turns, dropped, changed = loaded
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
        if len(turns) != len(fresh):  # a field type `_read_as` does not know
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
        await self._bad_copy(STORAGE_VERSION, STORAGE_MINOR_VERSION).async_remove()
        ir.async_delete_issue(self._hass, DOMAIN, self._issue_id)

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

    def _bad_copy(self, version: int, minor_version: int) -> Store[Any]:
        """The Store of the copy kept beside a memory file that was set aside."""
        return Store(
            self._hass,
            version,
            f"{self._store.key}.bad",
            private=True,
            minor_version=minor_version,
            serialize_in_event_loop=False,
        )

    async def _async_set_aside(
        self, stored: _StoredFile | None, translation_key: str
    ) -> None:
        """Keep an unusable memory file as `<key>.bad`, say so, start empty.

        The payload is written back under its own version, so the copy is the
        file as it was; a file the Store could not read is copied as bytes.
        """
        path: str = self._store.path
        if stored is None:
            await self._hass.async_add_executor_job(_copy_file, path, f"{path}.bad")
        else:
            copy = self._bad_copy(stored.version, stored.minor_version)
            await copy.async_save(stored.data)
        LOGGER.warning(
            "Could not use the memory file %s; it was kept as %s.bad and the"
            " agent starts with an empty memory",
            path,
            path,
        )
        ir.async_create_issue(
            self._hass,
            DOMAIN,
            self._issue_id,
            is_fixable=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=translation_key,
            translation_placeholders={
                "path": path,
                "copy": f"{path}.bad",
                **({"version": str(stored.version)} if stored else {}),
            },
        )


def _copy_file(source: str, destination: str) -> None:
    """Copy a file if it can be read (worker thread)."""
    with contextlib.suppress(OSError):
        shutil.copyfile(source, destination)


def _file_data(turns: KeptTurns, ttl_seconds: float) -> dict[str, Any]:
    """What the memory file holds: every key's unexpired turns, as they are.

    Runs in a worker thread on a snapshot; the JSON of each turn is written
    as it was made (an orjson fragment), not serialised again.
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
) -> tuple[KeptTurns, int, bool] | None:
    """A memory file's usable turns, how many were bad, and whether it changed.

    None when the file is not this layout at all. Runs in a worker thread.
    """
    if not isinstance(data, dict) or not isinstance(
        turns := data.get("turns", {}), dict
    ):
        return None
    kept_turns: KeptTurns = {}
    dropped = 0
    changed = False
    for key, stored in turns.items():
        values = stored if isinstance(stored, list) else [stored]
        readable = [_kept(turn) for turn in _read_turns(values)]
        dropped += len(values) - len(readable)
        fresh = tuple(turn for turn in readable if turn.time >= cutoff)
        changed |= len(fresh) != len(readable) or len(fresh) > max_turns
        if fresh:
            kept_turns[str(key)] = fresh[-max_turns:]
    return kept_turns, dropped, changed or dropped > 0


def _read_turns(values: Iterable[Any]) -> list[Turn]:
    """The values that read as `Turn`s; the others are left out."""
    turns = []
    for value in values:
        try:
            turns.append(_from_json(Turn, value))
        except ValueError:
            continue
    return turns


def _kept(turn: Turn) -> Kept:
    """A turn as it is kept: JSON that always encodes (see `_plain`)."""
    return Kept(
        turn.time,
        orjson.dumps(
            _plain(turn), option=orjson.OPT_NON_STR_KEYS, default=_json_default
        ),
    )


def _json_default(value: Any) -> Any:
    """HA's JSON form of a value (datetimes, sets...), else its text."""
    try:
        return json_encoder_default(value)
    except TypeError:
        return str(value)


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-ready copy of `value`: dataclasses as dicts, strings `encodable`.

    Values nested deeper than MAX_DEPTH become None.
    """
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, str):
        return encodable(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name), depth + 1) for f in fields(value)
        }
    if isinstance(value, Mapping):
        return {_plain(k, depth + 1): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(item, depth + 1) for item in value]
    return value


@cache
def _field_types(cls: type[DataclassInstance]) -> tuple[tuple[str, Any, bool], ...]:
    """A dataclass's fields: name, type, and whether a stored turn must have it."""
    hints = get_type_hints(cls)
    return tuple(
        (f.name, hints[f.name], f.default is MISSING and f.default_factory is MISSING)
        for f in fields(cls)
    )


def _from_json[T: DataclassInstance](cls: type[T], value: Any) -> T:
    """Read a stored value as the dataclass `cls`; ValueError if it is not one.

    Fields the dataclass does not have are left out (a newer minor version
    may add some); missing fields with a default take it.
    """
    if not isinstance(value, dict):
        msg = f"{cls.__name__} is not an object"
        raise ValueError(msg)  # noqa: TRY004 - one error for any bad turn
    kwargs = {}
    for name, hint, required in _field_types(cls):
        if name in value:
            kwargs[name] = _read_as(hint, value[name])
        elif required:
            msg = f"{cls.__name__} has no {name}"
            raise ValueError(msg)
    return cls(**kwargs)


def _read_as(hint: Any, value: Any) -> Any:  # noqa: PLR0911 - one case per kind of type
    """Read a stored value as the type `hint`; ValueError if it is not one."""
    if hint is Any:
        return value
    if isinstance(hint, type) and is_dataclass(hint):
        return _from_json(hint, value)
    origin, args = get_origin(hint), get_args(hint)
    if origin is UnionType:
        for arg in args:
            with contextlib.suppress(ValueError):
                return _read_as(arg, value)
    elif origin is list and isinstance(value, list):
        return [_read_as(args[0], item) for item in value]
    elif origin is dict and isinstance(value, dict):
        return {_read_as(args[0], k): _read_as(args[1], v) for k, v in value.items()}
    elif hint is float and _is_number(value) and math.isfinite(value):
        return float(value)
    elif hint is NoneType and value is None:
        return None
    elif isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)  # ValueError if it is not one of its values
    elif isinstance(hint, type) and isinstance(value, hint) and hint is not float:
        return value  # str, bool; an int field is not given a bool below
    msg = f"expected {hint}"
    raise ValueError(msg)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
