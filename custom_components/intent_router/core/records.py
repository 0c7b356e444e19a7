"""The records every step shares, and their one JSON encoding.

Plain data at the bottom of the package: what a plan asks for (`Action`,
`Plan`), what ran and what undo needs (`ExecutedAction`, `PriorState`), a
remembered turn (`Turn`) and how it ended (`Outcome`), and an exposed entity
(`EntityInfo`). Nothing here
imports another module of the integration.

`encode` turns any of them into JSON-ready data and `decode` reads such data
back, field by field: memory, learned commands, traces, events and the
`route` action all use this one pair, so a record has one shape wherever it
is written and every reader is as strict as the others.
"""

from __future__ import annotations

from collections.abc import Mapping
import contextlib
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from enum import Enum, StrEnum
from functools import cache
import math
import re
from types import NoneType, UnionType
from typing import TYPE_CHECKING, Any, get_args, get_origin, get_type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# Deeper values (a model's arguments, an entity's attributes) are dropped:
# nothing a home does nests this deep, and `decode` (recursive) must not be
# able to fail on them.
MAX_DEPTH = 32
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class Outcome(StrEnum):
    """How a turn ended, as remembered (`Turn.outcome`) and reported."""

    DONE = "done"
    PARTIAL = "partial"
    FAILED = "failed"
    ANSWERED = "answered"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    CANCELLED = "cancelled"
    PLANNED = "planned"
    SUPERSEDED = "superseded"
    ERROR = "error"


@dataclass(slots=True, frozen=True)
class Action:
    """One tool call: a service on some targets, with arguments."""

    tool: str
    targets: tuple[str, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, frozen=True)
class Plan:
    """What is to be done, how sure the planner is, and what it asks or answers.

    Compact on purpose: every token a model writes costs time on a small
    CPU, so it writes only what the integration cannot derive. Replies about
    actions come from what ran (replies.py); `speech` is an answer to a
    question, `clarify` a question back.
    """

    actions: tuple[Action, ...]
    speech: str
    confidence: float
    clarify: str | None = None


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


@dataclass(slots=True, frozen=True)
class ActionResult:
    """How one action of a turn ended, as the `route` action reports it."""

    tool: str
    targets: tuple[str, ...]
    ok: bool
    error: str | None = None
    result: Any = None


@dataclass(slots=True)
class Turn:
    """One remembered turn; `plan` is the encoded plan (see `encode`)."""

    time: float
    text: str
    speech: str
    outcome: str  # an `Outcome`
    source: str
    plan: dict[str, Any] | None = None
    actions: list[ExecutedAction] = field(default_factory=list)
    # What a question was about, for "it" in the next turn ("turn it down").
    about: list[str] = field(default_factory=list)
    # For an undo or a redo: the time of the turn it reversed (shortcuts.py).
    undid: float | None = None


@dataclass(slots=True, frozen=True)
class EntityInfo:
    """An exposed entity as the agent sees it."""

    entity_id: str
    name: str
    aliases: tuple[str, ...]
    area: str | None
    state: str
    attributes: Mapping[str, Any]
    # Everything the entity reports, for matching service and field filters.
    all_attributes: Mapping[str, Any] = field(default_factory=dict)
    floor: str | None = None
    # The device it belongs to: a door's lock and its contact sensor may share one.
    device_id: str | None = None
    # The integration that provides it ("shopping_list"), where registered.
    platform: str | None = None

    @property
    def domain(self) -> str:
        """The entity's domain."""
        return self.entity_id.partition(".")[0]


def encodable(text: str) -> str:
    r"""`text` with each lone surrogate replaced by U+FFFD.

    A lone surrogate (a stray "\ud800" from a satellite, an automation or
    a model's JSON) cannot be encoded as UTF-8: one in memory would fail
    every later save, one in a request would fail the request.
    """
    return _LONE_SURROGATE.sub("\ufffd", text)


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON-ready copy of `value`: records as objects, strings `encodable`.

    Tuples and sets become lists; values nested deeper than MAX_DEPTH
    become None.
    """
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, str):
        return encodable(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: encode(getattr(value, f.name), depth + 1) for f in fields(value)
        }
    if isinstance(value, Mapping):
        return {encode(k, depth + 1): encode(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [encode(item, depth + 1) for item in value]
    return value


def decode[T: DataclassInstance](cls: type[T], value: Any) -> T:
    """Read encoded data as the record `cls`; ValueError if it is not one.

    Fields the record does not have are left out (a newer minor version of
    a file may add some); missing fields with a default take it.
    """
    if not isinstance(value, dict):
        msg = f"{cls.__name__} is not an object"
        raise ValueError(msg)  # noqa: TRY004 - one error for any bad record
    kwargs = {}
    for name, hint, required in _field_types(cls):
        if name in value:
            kwargs[name] = _read_as(hint, value[name])
        elif required:
            msg = f"{cls.__name__} has no {name}"
            raise ValueError(msg)
    return cls(**kwargs)


def unknown_keys(cls: type[DataclassInstance], value: Any) -> set[str]:
    """Keys of encoded data that the record `cls` (or one it holds) lacks.

    `decode` leaves them out; this names them ("actions.undo_hint"), so a
    file written by a newer version can say so once.
    """
    if not isinstance(value, dict):
        return set()
    types = {name: hint for name, hint, _ in _field_types(cls)}
    unknown = {str(key) for key in value if key not in types}
    for name, hint in types.items():
        for record, item in _records_in(hint, value.get(name)):
            unknown |= {f"{name}.{key}" for key in unknown_keys(record, item)}
    return unknown


def _records_in(hint: Any, value: Any) -> list[tuple[type[DataclassInstance], Any]]:
    """The records a field holds: itself, or those in its list, dict or union.

    A dict's records are its values: `ExecutedAction.prior` maps each
    entity to its own `PriorState`, it is not one.
    """
    if isinstance(hint, type) and is_dataclass(hint):
        return [(hint, value)]
    origin, args = get_origin(hint), get_args(hint)
    if origin is UnionType:
        return [found for arg in args for found in _records_in(arg, value)]
    if origin in (list, tuple) and isinstance(value, list):
        items: list[Any] = value
    elif origin in (dict, Mapping) and isinstance(value, dict):
        items = list(value.values())
    else:
        return []
    return [found for item in items for found in _records_in(args[-1], item)]


@cache
def _field_types(cls: type[DataclassInstance]) -> tuple[tuple[str, Any, bool], ...]:
    """A record's fields: name, type, and whether encoded data must have it."""
    hints = get_type_hints(cls)
    return tuple(
        (f.name, hints[f.name], f.default is MISSING and f.default_factory is MISSING)
        for f in fields(cls)
    )


def _read_as(hint: Any, value: Any) -> Any:  # noqa: PLR0911 - one case per kind of type
    """Read an encoded value as the type `hint`; ValueError if it is not one."""
    if hint is Any:
        return value
    if isinstance(hint, type) and is_dataclass(hint):
        return decode(hint, value)
    origin, args = get_origin(hint), get_args(hint)
    if origin is UnionType:
        for arg in args:
            with contextlib.suppress(ValueError):
                return _read_as(arg, value)
    elif origin is list and isinstance(value, list):
        return [_read_as(args[0], item) for item in value]
    elif origin is tuple and isinstance(value, list):
        return tuple(_read_as(args[0], item) for item in value)
    elif origin in (dict, Mapping) and isinstance(value, dict):
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
