"""Everything the agent knows per Home Assistant domain, in one table.

What "turn on" means for a cover, what "stop" does to a media player, which
state each service leaves, which attributes undo records and how it
restores them, which attributes a model should see, and what asks before
acting: every module asks `DOMAINS` instead of keeping a table of its own
(the words for each kind of device are in language/, one file per
language), and `tests/test_domains.py` checks that the records agree with
themselves and with Home Assistant's services.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..language.tables import DEVICE_VERBS, STATE_VERBS, Unit, Verb
from .records import EntityInfo
from .restorers import (
    COVER_LEAVES,
    LOCK_LEAVES,
    MEDIA_LEAVES,
    SWITCH_LEAVES,
    Restorer,
    ServiceCall,
    restore_climate,
    restore_cover,
    restore_fan,
    restore_humidifier,
    restore_light,
    restore_lock,
    restore_media,
    restore_on_off,
    restore_option,
    restore_value,
    restore_water_heater,
)

# What a value said sets on an entity (None: not a value it takes).
type Setter = Callable[[EntityInfo, float, Unit | None], ServiceCall | None]
# What one step up (+1) or down (-1) does to an entity ("brighter", "louder").
type Stepper = Callable[[EntityInfo, int], ServiceCall | None]

# Services that undo each other: a plan whose service is the opposite of
# what the verb said ("off" planned as turn_on) does not run. Pairs of
# services, not of verbs (OPPOSITE_VERBS): a mower's start_mowing has no
# verb, and a vacuum's start, which "resume" also means, is the opposite
# of its return_to_base only.
_PAIRS = (
    ("turn_on", "turn_off"),
    ("open_cover", "close_cover"),
    ("open_valve", "close_valve"),
    ("lock", "unlock"),
    ("media_play", "media_pause"),
    ("start", "return_to_base"),
    ("start_mowing", "dock"),
    ("media_next_track", "media_previous_track"),
)
OPPOSITES: Mapping[str, str] = {
    **dict(_PAIRS),
    **{second: first for first, second in _PAIRS},
}
# Services whose result hangs on the state HA shows, either way of a pair.
TOGGLES = frozenset({"toggle", "media_play_pause"})
# How much "brighter" changes a light, in percent of full brightness; a
# light reports its `brightness` from 0 to FULL_BRIGHTNESS.
BRIGHTNESS_STEP = 20
FULL_BRIGHTNESS = 255
# A player's volume (`volume_level`) runs from 0 to full; people say it in
# percent, and full volume is 100 percent.
FULL_VOLUME = 1
VOLUME_PERCENT = 100 / FULL_VOLUME


@dataclass(slots=True, frozen=True)
class ConfirmPolicy:
    """What asks before acting: the domains, and whether every action asks."""

    domains: frozenset[str]
    every_action: bool = False


@dataclass(slots=True, frozen=True)
class DomainInfo:
    """What one domain's entities do and how the agent treats them."""

    # The services HA's HassTurnOn / HassTurnOff mean for this domain.
    turn_on: str | None = None
    turn_off: str | None = None
    # Whether "on" and "off" said in words mean them too: a lock is locked,
    # never switched off ("turn off the den lights" unlocks no "Den Lock").
    switched: bool = True
    # What "stop" does to what a turn started.
    stop: str | None = None
    # The state each of its services leaves it in ("lock": "locked"): what
    # a question's verb asks of (device_states.py), what undo calls back.
    leaves: Mapping[str, str] = field(default_factory=dict)
    # Attributes recorded before an action, and how undo brings them back.
    undo_attributes: tuple[str, ...] = ()
    restore: Restorer | None = None
    # Attributes worth a model's attention (everything else is noise).
    acting_attributes: tuple[str, ...] = ()
    # Whether actions on it ask first by default (an option can add domains),
    # and device classes that always ask (garage doors, gates).
    confirm: bool = False
    confirm_device_classes: frozenset[str] = frozenset()
    # The services that open the home (unlock, open, disarm): the only ones
    # that ask, unless the owner asks for every action. A domain without
    # them asks for every action when the owner adds it.
    opens: frozenset[str] = frozenset()
    # Whether it acts only when named: a script or scene is never what a kind
    # of device or a room means.
    must_be_named: bool = False
    # Whether one device serves rooms beyond its own: the home's one
    # thermostat heats the office it is not in ("it's cold in here").
    serves_home: bool = False
    # Whether one of its devices is meant at a time: an item goes on one
    # list, so several lists the words do not name are a "which one?" ...
    one_at_a_time: bool = False
    # ... unless one is this integration's: an item said for no list goes
    # on Home Assistant's shopping list, as its own sentences put it there.
    meant_unnamed: str | None = None
    # Services that verbs other than turn on / turn off mean ("open", "lock").
    verbs: Mapping[Verb, str] = field(default_factory=dict)
    # Verbs that mean a service only for a device named or of its kind said
    # ("open the front door" unlocks it; "open the hallway" is no lock's).
    stand_ins: Mapping[Verb, str] = field(default_factory=dict)
    # What a value said sets ("to 40 percent", "21 degrees").
    set_to: Setter | None = None
    # What "brighter", "louder", "warmer" and their opposites do.
    step: Stepper | None = None


def _percent(value: float, unit: Unit | None) -> float | None:
    """A share said ("40 percent", "half") as 0-100; None for other units."""
    if unit is Unit.DEGREES:
        return None
    if unit is None and 0 < value < 1:
        value *= 100  # "half", "a quarter"
    return value if 0 <= value <= 100 else None  # noqa: PLR2004 - a percentage


def _set_percent(service: str, field_name: str, scale: float = 1.0) -> Setter:
    """A setter of one percentage field (`scale` converts 0-100 to the field's)."""

    def set_to(_: EntityInfo, value: float, unit: Unit | None) -> ServiceCall | None:
        share = _percent(value, unit)
        return None if share is None else (service, {field_name: share * scale})

    return set_to


def _in_range(info: EntityInfo, value: float, low: str, high: str) -> bool:
    """Whether a value is within the entity's own limits (when it has them)."""
    attributes = info.all_attributes
    minimum, maximum = attributes.get(low), attributes.get(high)
    return not (
        (isinstance(minimum, (int, float)) and value < minimum)
        or (isinstance(maximum, (int, float)) and value > maximum)
    )


def _set_temperature(
    info: EntityInfo, value: float, unit: Unit | None
) -> ServiceCall | None:
    if unit is Unit.PERCENT or not _in_range(info, value, "min_temp", "max_temp"):
        return None
    return ("set_temperature", {"temperature": value})


def _set_value(info: EntityInfo, value: float, unit: Unit | None) -> ServiceCall | None:
    if unit is not None or not _in_range(info, value, "min", "max"):
        return None
    return ("set_value", {"value": value})


def _step_light(info: EntityInfo, direction: int) -> ServiceCall | None:
    """A step of brightness; dimming never switches a light off.

    Home Assistant switches off a light a step takes to 0: one that shows
    no brightness while on (it has none to dim) is not dimmed, one within a
    step of dark goes to its lowest. Brighter than off is on, at the
    brightness the light keeps ("it's too dark here"), not a step's 20 %;
    dimmer than off there is nothing (device_states.at_step_end).
    """
    if direction > 0 and info.state == "off":
        return ("turn_on", {})
    if direction < 0 and info.state == "on":
        brightness = info.all_attributes.get("brightness")
        if not isinstance(brightness, (int, float)):
            return None
        if brightness <= FULL_BRIGHTNESS * BRIGHTNESS_STEP / 100:
            return ("turn_on", {"brightness_pct": 1})
    return ("turn_on", {"brightness_step_pct": direction * BRIGHTNESS_STEP})


def _step_temperature(info: EntityInfo, direction: int) -> ServiceCall | None:
    """One degree (or the entity's own step) from the target it has now.

    Never past the entity's own limit: at it, the target stays (the gate
    says it is there already, device_states.py).
    """
    attributes = info.all_attributes
    target = attributes.get("temperature")
    if not isinstance(target, (int, float)):
        return None
    step = attributes.get("target_temp_step") or 1
    wanted = target + direction * step
    limit = attributes.get("max_temp" if direction > 0 else "min_temp")
    if isinstance(limit, (int, float)):
        wanted = min(wanted, limit) if direction > 0 else max(wanted, limit)
    return ("set_temperature", {"temperature": wanted})


def _step_service(up: str, down: str) -> Stepper:
    """A step that is a service of its own each way (volume up, speed down)."""

    def step(_: EntityInfo, direction: int) -> ServiceCall:
        return (up if direction > 0 else down, {})

    return step


# What HA's turn on / turn off mean for most domains, and what "stop" does.
_SWITCHED = DomainInfo(turn_on="turn_on", turn_off="turn_off", stop="turn_off")
_ON_OFF = replace(_SWITCHED, leaves=SWITCH_LEAVES, restore=restore_on_off)
_NUMBER = DomainInfo(
    restore=restore_value,
    set_to=_set_value,
    acting_attributes=("min", "max", "step", "unit_of_measurement"),
)
_SELECT = DomainInfo(restore=restore_option, acting_attributes=("options",))

DOMAINS: Mapping[str, DomainInfo] = {
    "automation": DomainInfo(must_be_named=True),
    "alarm_control_panel": DomainInfo(confirm=True, opens=frozenset({"alarm_disarm"})),
    "binary_sensor": DomainInfo(acting_attributes=("device_class",)),
    "climate": replace(
        _SWITCHED,
        serves_home=True,
        undo_attributes=("temperature",),
        restore=restore_climate,
        acting_attributes=(
            "current_temperature",
            "temperature",
            "target_temp_low",
            "target_temp_high",
            "hvac_modes",
            "preset_mode",
            "min_temp",
            "max_temp",
        ),
        set_to=_set_temperature,
        step=_step_temperature,
    ),
    "cover": DomainInfo(
        turn_on="open_cover",
        turn_off="close_cover",
        stop="stop_cover",
        leaves=COVER_LEAVES,
        undo_attributes=("current_position",),
        restore=restore_cover,
        acting_attributes=("current_position", "device_class"),
        confirm_device_classes=frozenset({"garage", "gate", "door"}),
        opens=frozenset({"open_cover", "set_cover_position", "toggle"}),
        verbs={Verb.OPEN: "open_cover", Verb.CLOSE: "close_cover"},
        set_to=_set_percent("set_cover_position", "position"),
    ),
    "fan": replace(
        _SWITCHED,
        leaves=SWITCH_LEAVES,
        undo_attributes=("percentage",),
        restore=restore_fan,
        acting_attributes=("percentage", "preset_mode", "preset_modes", "oscillating"),
        set_to=_set_percent("set_percentage", "percentage"),
        step=_step_service("increase_speed", "decrease_speed"),
    ),
    "humidifier": replace(
        _SWITCHED,
        leaves=SWITCH_LEAVES,
        undo_attributes=("humidity",),
        restore=restore_humidifier,
        acting_attributes=("humidity", "mode", "available_modes"),
        set_to=_set_percent("set_humidity", "humidity"),
    ),
    "input_boolean": _ON_OFF,
    "input_number": _NUMBER,
    "input_select": _SELECT,
    "light": replace(
        _SWITCHED,
        leaves=SWITCH_LEAVES,
        undo_attributes=("brightness", "color_temp_kelvin"),
        restore=restore_light,
        acting_attributes=("brightness", "color_temp_kelvin", "effect_list"),
        set_to=_set_percent("turn_on", "brightness_pct"),
        step=_step_light,
    ),
    "lock": DomainInfo(
        turn_on="lock",
        turn_off="unlock",
        switched=False,
        leaves=LOCK_LEAVES,
        restore=restore_lock,
        confirm=True,
        opens=frozenset({"unlock", "open"}),
        verbs={Verb.LOCK: "lock", Verb.UNLOCK: "unlock"},
        stand_ins={Verb.OPEN: "unlock"},
    ),
    "media_player": replace(
        _SWITCHED,
        stop="media_pause",
        verbs={
            Verb.PAUSE: "media_pause",
            Verb.RESUME: "media_play",
            Verb.NEXT: "media_next_track",
            Verb.PREVIOUS: "media_previous_track",
        },
        leaves=MEDIA_LEAVES,
        undo_attributes=("volume_level",),
        restore=restore_media,
        acting_attributes=(
            "volume_level",
            "is_volume_muted",
            "source",
            "source_list",
            "media_title",
            "media_artist",
            "shuffle",
            "repeat",
        ),
        set_to=_set_percent("volume_set", "volume_level", 1 / VOLUME_PERCENT),
        step=_step_service("volume_up", "volume_down"),
    ),
    "lawn_mower": DomainInfo(verbs={Verb.DOCK: "dock"}),
    "number": _NUMBER,
    # "Turn on movie night": a scene is turned on, never off.
    "scene": DomainInfo(turn_on="turn_on", must_be_named=True),
    "script": replace(_SWITCHED, must_be_named=True),
    "select": _SELECT,
    "sensor": DomainInfo(acting_attributes=("unit_of_measurement", "device_class")),
    "siren": _ON_OFF,
    "switch": _ON_OFF,
    # "Turn on the vacuum" starts it; "turn it off" sends it home.
    "vacuum": DomainInfo(
        turn_on="start",
        turn_off="return_to_base",
        stop="stop",
        verbs={
            Verb.PAUSE: "pause",
            Verb.RESUME: "start",
            Verb.DOCK: "return_to_base",
            Verb.CLEAN: "start",
        },
        acting_attributes=("battery_level", "fan_speed"),
    ),
    "valve": DomainInfo(
        turn_on="open_valve",
        turn_off="close_valve",
        verbs={Verb.OPEN: "open_valve", Verb.CLOSE: "close_valve"},
    ),
    "water_heater": DomainInfo(
        serves_home=True,
        undo_attributes=("temperature",),
        restore=restore_water_heater,
        acting_attributes=("temperature", "operation_mode", "operation_list"),
        set_to=_set_temperature,
    ),
    "weather": DomainInfo(
        acting_attributes=("temperature", "humidity", "temperature_unit")
    ),
    # Asked what they hold (listed.py); a list's items are added and removed
    # by name (options.py).
    "calendar": DomainInfo(),
    "todo": DomainInfo(one_at_a_time=True, meant_unnamed="shopping_list"),
}
UNKNOWN = DomainInfo()


def domain_info(domain: str) -> DomainInfo:
    """The record of a domain; an empty one for domains nothing is known of."""
    return DOMAINS.get(domain, UNKNOWN)


@lru_cache(maxsize=64)
def own_verbs(domain: str) -> frozenset[Verb]:
    """What a domain's devices do: switched, their own verbs, steps, settings."""
    info = domain_info(domain)
    verbs = {v for v in (Verb.ON, Verb.OFF) if verb_service(domain, v)}
    verbs |= set(info.verbs)
    if info.step is not None:
        verbs |= {Verb.UP, Verb.DOWN}
    if info.set_to is not None:
        verbs.add(Verb.SET)
    return frozenset(verbs)


def domains_acting_on(verbs: frozenset[Verb]) -> frozenset[str]:
    """The domains with a service of their own for a verb said ("lock").

    Cached: asked twice a turn (`kinds_said_by`), of a few verb sets.
    """
    return frozenset(d for d, info in DOMAINS.items() if verbs & info.verbs.keys())


def kinds_said_by(verbs: frozenset[Verb]) -> frozenset[str]:
    """The kinds verbs say with no noun: only they do them ("sauge hier")."""
    if not verbs or not verbs <= DEVICE_VERBS:
        return frozenset()
    return domains_acting_on(verbs)


def domain_of(entity_id: str) -> str:
    """The domain part of an entity id."""
    return entity_id.partition(".")[0]


def asks_first(
    domain: str, device_class: object, confirm_domains: Iterable[str]
) -> bool:
    """Whether actions on such an entity need a yes first (locks, garage doors)."""
    return domain in confirm_domains or (
        device_class in domain_info(domain).confirm_device_classes
    )


def action_asks_first(
    service: str, domain: str, device_class: object, policy: ConfirmPolicy
) -> bool:
    """Whether this service on such an entity needs a yes first.

    By default only what opens the home asks (unlock, open a garage door,
    disarm); securing it (lock, close, arm) does not. With `every_action`,
    any action on the entity asks.
    """
    if not asks_first(domain, device_class, policy.domains):
        return False
    opens = domain_info(domain).opens
    return policy.every_action or not opens or service in opens


def confirmed_by_default() -> tuple[str, ...]:
    """Domains whose actions ask first unless the owner changes the option."""
    return tuple(sorted(domain for domain, info in DOMAINS.items() if info.confirm))


def verb_is_own(domain: str, verb: Verb) -> bool:
    """Whether a verb names what a domain does, not a stand-in for it.

    "Turn off" closes a cover (HA's own sentences do so), but after the
    blinds and a lamp, "turn it off" means the lamp.
    """
    service = verb_service(domain, verb)
    return (
        service is not None
        and verb not in domain_info(domain).stand_ins
        and (verb not in (Verb.ON, Verb.OFF) or service in ("turn_on", "turn_off"))
    )


def verb_service(domain: str, verb: Verb) -> str | None:
    """The service a verb means for a domain's entities (None: it does not fit)."""
    info = domain_info(domain)
    if verb in (Verb.ON, Verb.OFF):
        if not info.switched:
            return None
        return info.turn_on if verb is Verb.ON else info.turn_off
    return info.verbs.get(verb) or info.stand_ins.get(verb)


def meant_verbs(domain: str, verbs: frozenset[Verb]) -> frozenset[Verb]:
    """The verbs said, as a domain's device takes them: its own over general ones.

    "Open the curtain where I left off": "open" is the cover's own verb, so
    the "off" of a saying is no second way to take it.
    """
    states = verbs & STATE_VERBS
    own = states & domain_info(domain).verbs.keys()
    return verbs - (states - own) if own else verbs


def state_left(domain: str, verb: Verb) -> str | None:
    """The state a verb's service leaves a domain's device in ("lock": locked)."""
    service = verb_service(domain, verb)
    return domain_info(domain).leaves.get(service) if service else None
