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


def unchanged(
    tool: str, data: Mapping[str, Any], state: str, attributes: Mapping[str, Any]
) -> bool:
    """Whether a call ("light.turn_on" and its data) would change nothing."""
    domain, _, service = tool.partition(".")
    return not data and already(service, domain, state, attributes)


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
