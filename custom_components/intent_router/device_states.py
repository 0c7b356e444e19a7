"""What a device's state says: the answer to a question, a command's need.

Whether a question's verb holds of a state ("is the back door locked?":
`asked_state`), and whether a command would change anything ("turn on" a
light that is on: `already`). The states each service leaves a device in
are the domain's record (domains.py, `DomainInfo.leaves`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .domains import domain_info
from .language.tables import Verb
from .spoken import is_number

# What a yes/no question's verb asks about ("is it open?"): the states that
# answer yes, then those that answer no. Any other state is no answer.
_ASKED_STATES: Mapping[Verb, tuple[frozenset[str], frozenset[str]]] = {
    Verb.ON: (frozenset({"on"}), frozenset({"off"})),
    Verb.OPEN: (frozenset({"open", "opening"}), frozenset({"closed", "closing"})),
    Verb.LOCK: (
        frozenset({"locked", "locking"}),
        frozenset({"unlocked", "unlocking", "open", "opening"}),
    ),
}
_ASKED_OPPOSITE = {Verb.OFF: Verb.ON, Verb.CLOSE: Verb.OPEN, Verb.UNLOCK: Verb.LOCK}
# What "is it closed?" and "is it open?" ask of a lock.
_LOCK_ASKED = {Verb.CLOSE: Verb.LOCK, Verb.OPEN: Verb.UNLOCK}
# Domains whose state is a mode or activity: anything but "off" is on.
_MODE_DOMAINS = frozenset(
    {"climate", "fan", "humidifier", "media_player", "vacuum", "water_heater"}
)
_NO_STATE = frozenset({"unavailable", "unknown"})
# States in which a value a device reports is not what a call would keep.
_NOT_SET = _NO_STATE | {"off"}
# Binary sensors of these classes say "open" as on.
_OPENING_CLASSES = frozenset({"door", "garage_door", "opening", "window"})


def asked_state(
    verb: Verb, domain: str, device_class: object, state: str
) -> bool | None:
    """Whether a state is what a question's verb asks ("is it locked?").

    None when the verb asks nothing of such an entity's state (a lock's
    state says nothing of "on").
    """
    if domain == "lock":
        # A lock that is "closed" is locked (HA's Dutch sentences say so too).
        verb = _LOCK_ASKED.get(verb, verb)
    if verb in _ASKED_OPPOSITE:
        answer = asked_state(_ASKED_OPPOSITE[verb], domain, device_class, state)
        return None if answer is None else not answer
    if domain == "lock" and verb is not Verb.LOCK:
        return None
    if verb is Verb.ON and domain in _MODE_DOMAINS and state not in _NO_STATE:
        return state != "off"  # a thermostat that cools is on
    if domain == "binary_sensor" and device_class in _OPENING_CLASSES:
        state = {"on": "open", "off": "closed"}.get(state, state)
    if domain == "binary_sensor" and device_class == "lock":
        state = {"on": "unlocked", "off": "locked"}.get(state, state)
    if verb not in _ASKED_STATES:
        return None
    yes, no = _ASKED_STATES[verb]
    return True if state in yes else False if state in no else None


# How full a position "open" is.
_FULLY_OPEN = 100


# The attribute that reports what a call's value sets, the factor from the
# attribute to the value's terms, and how near counts as the same.
_REPORTED: Mapping[str, tuple[str, float, float]] = {
    "brightness_pct": ("brightness", 100 / 255, 0.5),
    "brightness": ("brightness", 1, 0.5),
    "position": ("current_position", 1, 0.5),
    "tilt_position": ("current_tilt_position", 1, 0.5),
    "percentage": ("percentage", 1, 0.5),
    "volume_level": ("volume_level", 1, 0.005),
    "temperature": ("temperature", 1, 0.05),
    "humidity": ("humidity", 1, 0.5),
}
# Values a device's state is ("set to heat" a thermostat that heats).
_STATE_VALUES = frozenset({"hvac_mode", "option"})
# Values reported by the attribute of their own name.
_NAMED_VALUES = frozenset({"preset_mode", "fan_mode", "swing_mode", "source"})


def unchanged(
    tool: str, data: Mapping[str, Any], state: str, attributes: Mapping[str, Any]
) -> bool:
    """Whether a call ("light.turn_on" and its data) would change nothing.

    With values, each must be what the device reports already, and the
    device must be in a state the service leaves (a light on, for its
    brightness) or, for a service that leaves none, not off: "set to 21
    degrees" a thermostat that is off may be asked to heat.
    """
    domain, _, service = tool.partition(".")
    if not data:
        return already(service, domain, state, attributes)
    if attributes.get("assumed_state"):
        return False
    leaves = domain_info(domain).leaves.get(service)
    settled = state in leaves if leaves is not None else state not in _NOT_SET
    return settled and all(
        _holds(field, value, state, attributes) for field, value in data.items()
    )


def _holds(
    field: str, value: object, state: str, attributes: Mapping[str, Any]
) -> bool:
    """Whether a device reports a call's value already."""
    if field in _STATE_VALUES:
        return value == state
    if field in _NAMED_VALUES:
        return value == attributes.get(field)
    if field not in _REPORTED or not is_number(value):
        return False
    attribute, factor, near = _REPORTED[field]
    reported = attributes.get(attribute)
    if not is_number(reported):
        return False
    return abs(float(reported) * factor - float(value)) < near


def already(
    service: str, domain: str, state: str, attributes: Mapping[str, Any]
) -> bool:
    """Whether a service called without values would leave a device as it is.

    "Turn on" a light that is on, "unlock" a lock that is unlocked. Never
    where Home Assistant only assumes the state (`assumed_state`: saying it
    again is how it is set right), nor for a cover or valve "open" only in
    part.
    """
    if attributes.get("assumed_state"):
        return False
    if state not in domain_info(domain).leaves.get(service, frozenset()):
        return False
    position = attributes.get("current_position")
    return not (
        state == "open"
        and isinstance(position, (int, float))
        and position < _FULLY_OPEN
    )
