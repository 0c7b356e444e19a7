"""What a device's state says: the answer to a question, a command's need.

Whether a question's verb holds of a state ("is the back door locked?":
`asked_state`), or the state a question says in Home Assistant's own word
for it ("is the water sensor wet?": `holds`), and whether a step
("brighter", "louder", "warmer") can take a device any further
(`at_step_end`). A command that says its result
("turn off", "to 50 percent") is always sent, whatever the state shows: a
state may be stale, and the call is harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..language import fold, stop_words, words
from ..language.tables import OPPOSITE_VERBS, Verb
from .domains import FULL_BRIGHTNESS, FULL_VOLUME, state_left
from .spoken import is_number

if TYPE_CHECKING:
    from .records import EntityInfo
    from .spoken import SpokenValues

# The domain whose states say what a question's verb asks of any device
# ("is it open?": a cover's "open"), the state its service leaves.
ASKED_IN: Mapping[Verb, str] = {
    Verb.ON: "switch",
    Verb.OFF: "switch",
    Verb.OPEN: "cover",
    Verb.CLOSE: "cover",
    Verb.LOCK: "lock",
    Verb.UNLOCK: "lock",
}
# The states on the way to one a service leaves.
_ON_THE_WAY = {
    "open": "opening",
    "closed": "closing",
    "locked": "locking",
    "unlocked": "unlocking",
}


def _left(verb: Verb) -> frozenset[str]:
    """The state a verb's service leaves a device in, and the one on the way."""
    state = state_left(ASKED_IN[verb], verb)
    return frozenset({state, _ON_THE_WAY.get(state, state)} if state else ())


def _asked(verb: Verb, *also: Verb) -> tuple[frozenset[str], frozenset[str]]:
    """The states that answer yes to a verb asked, then those that answer no."""
    return _left(verb), _left(OPPOSITE_VERBS[verb]).union(*map(_left, also))


# What a yes/no question's verb asks about ("is it open?"). Any other state
# is no answer; a verb asked of its opposite's states is the opposite answer.
_ASKED_STATES: Mapping[Verb, tuple[frozenset[str], frozenset[str]]] = {
    Verb.ON: _asked(Verb.ON),
    Verb.OPEN: _asked(Verb.OPEN),
    # A lock held open is no more locked than one unlocked.
    Verb.LOCK: _asked(Verb.LOCK, Verb.OPEN),
}
_ASKED_OPPOSITE = {OPPOSITE_VERBS[verb]: verb for verb in _ASKED_STATES}
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


# States a question may name in HA's own words ("encendido", "verriegelt"),
# as the verb that asks for them, with the domain whose words are generic.
_SAID_STATES = tuple(
    (domain, state, verb)
    for verb, domain in ASKED_IN.items()
    if (state := state_left(domain, verb))
)
# States of rest: asked of several, every one is asked of ("is the switch
# off?" is no while one is on); any other state, any one.
_ASKED_OF_ALL = frozenset({Verb.OFF, Verb.CLOSE, Verb.LOCK})
# States said as themselves, in HA's word for them: a person's "home" is no
# verb's; nor, in the words of its class, a moisture sensor's "on" ("wet")
# or a battery's ("low").
_OWN_STATES = ("home", "not_home")
CLASS_STATES = {"binary_sensor": ("on", "off")}
# Of these, the states of rest: asked of several, asked of all.
_RESTING = frozenset({"off", "not_home"})


def of_rest(
    asked: frozenset[Verb], open_words: str, info: EntityInfo, values: SpokenValues
) -> bool:
    """Whether the state asked is one of rest ("off", "closed", "dry", "away")."""
    verb = _verb_asked(asked, open_words, info, values)
    if verb is not None:
        return verb in _ASKED_OF_ALL
    return own_state(open_words, info, values) in _RESTING


def holds(
    asked: frozenset[Verb], open_words: str, info: EntityInfo, values: SpokenValues
) -> bool | None:
    """Whether the device is in the state asked; None if that asks nothing of it."""
    device_class = info.all_attributes.get("device_class")
    if (verb := _verb_asked(asked, open_words, info, values)) is not None:
        return asked_state(verb, info.domain, device_class, info.state)
    if asked and open_words:
        return None
    if (state := own_state(open_words, info, values)) is not None:
        return info.state == state
    return None


def own_state(open_words: str, info: EntityInfo, values: SpokenValues) -> str | None:
    """The state the words are HA's own word for, for this device's class.

    Its small words need not be said: they are no word of the question's
    ("plugged in": "are any devices plugged in?").
    """
    device_class = info.all_attributes.get("device_class")
    small = stop_words(values.language)
    said = open_words.split()
    if not said:
        return None
    return next(
        (
            state
            for state in (*_OWN_STATES, *CLASS_STATES.get(info.domain, ()))
            if [
                word
                for word in words(values.state(info.domain, device_class, state))
                if word not in small
            ]
            == said
        ),
        None,
    )


def _verb_asked(
    asked: frozenset[Verb], open_words: str, info: EntityInfo, values: SpokenValues
) -> Verb | None:
    """The state asked as its verb's: said as one, or in HA's word for it."""
    if asked and open_words:
        return None
    device_class = info.all_attributes.get("device_class")
    return next(iter(asked), None) or next(
        (
            verb
            for domain, state, verb in _SAID_STATES
            if open_words
            in {
                fold(values.state(info.domain, device_class, state)),
                fold(values.state(domain, None, state)),
            }
        ),
        None,
    )


# What a step ("brighter", "louder", "warmer") moves, per domain: the
# attribute that reports it, where it ends each way (a number, or the
# attribute that holds it; None where a step goes on: a light dimmed at its
# lowest turns off), and the call's argument that says it, with the factor
# from the attribute to the argument's terms.
_STEPPED: Mapping[
    str, tuple[str, float | str | None, float | str | None, str, float]
] = {
    "light": (
        "brightness",
        None,
        FULL_BRIGHTNESS,
        "brightness_pct",
        100 / FULL_BRIGHTNESS,
    ),
    "fan": ("percentage", None, 100, "percentage", 1),
    "media_player": ("volume_level", 0, FULL_VOLUME, "volume_level", 1),
    "climate": ("temperature", "min_temp", "max_temp", "temperature", 1),
}


def at_step_end(
    domain: str, direction: int, state: str, attributes: Mapping[str, Any]
) -> bool:
    """Whether a step up (+1) or down (-1) can take a device no further.

    "Brighter" a light at full, "louder" a speaker at full volume, "warmer"
    a thermostat at its highest, "dimmer" a light that is off: there is
    nothing to send. Never where Home Assistant only assumes the state
    (`assumed_state`: a step is sent).
    """
    stepped = _STEPPED.get(domain)
    if stepped is None or attributes.get("assumed_state"):
        return False
    if domain == "light" and state == "off":
        return direction < 0
    attribute, low, high, _, _ = stepped
    low, high = (attributes.get(b) if isinstance(b, str) else b for b in (low, high))
    end = high if direction > 0 else low
    reported = attributes.get(attribute)
    if not is_number(end) or not is_number(reported):
        return False
    # A level beyond what the attribute holds (a volume of 50 on the 0-1
    # scale) is no level at all: the step is sent.
    if any(
        is_number(bound) and (float(reported) - float(bound)) * side > 0
        for bound, side in ((high, 1), (low, -1))
    ):
        return False
    return float(reported) == float(end)


def stepped_value(domain: str, attributes: Mapping[str, Any]) -> dict[str, float]:
    """What a step moves, as the argument of a call that sets it ("100 percent").

    For a device `at_step_end` (a domain a step moves).
    """
    attribute, _, _, argument, factor = _STEPPED[domain]
    reported = attributes.get(attribute)
    return {argument: float(reported) * factor} if is_number(reported) else {}
