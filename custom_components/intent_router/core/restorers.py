"""How undo brings a device back to the state it was recorded in.

One restorer per kind of device, named in its `DomainInfo` (domains.py):
the calls that put back the recorded state and the attributes undo keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .records import PriorState

# A service of the entity's own domain and its data, e.g. ("turn_on", {}).
type ServiceCall = tuple[str, dict[str, Any]]
type Restorer = Callable[[PriorState], list[ServiceCall]]

# The states services leave (`DomainInfo.leaves`): undo calls back the
# service that leaves the state recorded.
SWITCH_LEAVES = {"turn_on": "on", "turn_off": "off"}
COVER_LEAVES = {"open_cover": "open", "close_cover": "closed"}
LOCK_LEAVES = {"lock": "locked", "unlock": "unlocked"}
MEDIA_LEAVES = {"media_play": "playing", "media_pause": "paused", "turn_off": "off"}


def _back_to(prior: PriorState, leaves: Mapping[str, str]) -> list[ServiceCall]:
    """The call of the service that leaves a device in the state it was in."""
    services = [service for service, state in leaves.items() if state == prior.state]
    return [(services[0], {})] if services else []


def restore_on_off(prior: PriorState) -> list[ServiceCall]:
    """On or off, as it was."""
    return _back_to(prior, SWITCH_LEAVES)


def restore_light(prior: PriorState) -> list[ServiceCall]:
    """On at its recorded brightness and colour, or off."""
    if prior.state != "on":
        return restore_on_off(prior)
    return [("turn_on", dict(prior.attributes))]


def restore_fan(prior: PriorState) -> list[ServiceCall]:
    """At its recorded speed, or on or off."""
    if prior.state == "on" and "percentage" in prior.attributes:
        return [("set_percentage", {"percentage": prior.attributes["percentage"]})]
    return restore_on_off(prior)


def restore_humidifier(prior: PriorState) -> list[ServiceCall]:
    """On or off, and at its recorded humidity."""
    calls = restore_on_off(prior)
    if prior.state == "on" and "humidity" in prior.attributes:
        calls.append(("set_humidity", {"humidity": prior.attributes["humidity"]}))
    return calls


def restore_cover(prior: PriorState) -> list[ServiceCall]:
    """At its recorded position, else open or closed."""
    if "current_position" in prior.attributes:
        position = prior.attributes["current_position"]
        return [("set_cover_position", {"position": position})]
    return _back_to(prior, COVER_LEAVES)


def restore_climate(prior: PriorState) -> list[ServiceCall]:
    """In its recorded mode, at its recorded target temperature."""
    calls: list[ServiceCall] = [("set_hvac_mode", {"hvac_mode": prior.state})]
    if "temperature" in prior.attributes:
        temperature = prior.attributes["temperature"]
        calls.append(("set_temperature", {"temperature": temperature}))
    return calls


def restore_water_heater(prior: PriorState) -> list[ServiceCall]:
    """At its recorded target temperature."""
    if "temperature" not in prior.attributes:
        return []
    return [("set_temperature", {"temperature": prior.attributes["temperature"]})]


def restore_media(prior: PriorState) -> list[ServiceCall]:
    """Alone again after a join, at its volume, playing or paused or off."""
    calls: list[ServiceCall] = []
    # Recorded by a join only (music.control): alone before, it leaves again.
    members = prior.attributes.get("group_members")
    if members is not None and len(members) <= 1:
        calls.append(("unjoin", {}))
    if "volume_level" in prior.attributes:
        volume = prior.attributes["volume_level"]
        calls.append(("volume_set", {"volume_level": volume}))
    return [*calls, *_back_to(prior, MEDIA_LEAVES)]


def restore_lock(prior: PriorState) -> list[ServiceCall]:
    """Locked or unlocked, as it was."""
    return _back_to(prior, LOCK_LEAVES)


def restore_value(prior: PriorState) -> list[ServiceCall]:
    """At its recorded number."""
    try:
        value = float(prior.state)
    except ValueError:  # unknown or unavailable before: nothing to go back to
        return []
    return [("set_value", {"value": value})]


def restore_option(prior: PriorState) -> list[ServiceCall]:
    """On its recorded option."""
    return [("select_option", {"option": prior.state})]
