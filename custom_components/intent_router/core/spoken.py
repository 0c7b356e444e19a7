"""How a value is said in a language: numbers, units, modes, service names.

Every value the integration speaks (what a call set, a state it answers
with, the action a confirmation asks about) is worded here, so a German
reply says "21,5 Grad" and "Heizbetrieb", never "21.5°" or "heat". Units
are said as words: a speech engine reads "21,5 Grad" right whatever its
symbol tables make of "°" and "°C", and the decimal comma is what makes it
say "Komma" rather than "Punkt". Modes and states are Home Assistant's own
translations; only what it does not translate is said as its raw value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
import math
from typing import Any, TypeGuard

from ..language import capitalises_nouns, decimal_mark
from .domains import VOLUME_PERCENT

# Units said as words (`value_<word>` in `exceptions`), each with its word
# for many and for one ("1 degree"); other units are said as written.
_DEGREES = ("degrees", "degree")
UNIT_WORDS: Mapping[str, tuple[str, str]] = {
    "°": _DEGREES,
    "°C": _DEGREES,
    "°F": _DEGREES,
    "%": ("percent", "percent"),
    "K": ("kelvin", "kelvin"),
}
# Arguments of a service call that a reply names, in the order it prefers
# them, with their unit. A mode (`MODES`) is said in HA's words; an option
# or a source is a name the owner chose, said as it is.
_QUANTITIES: Mapping[str, tuple[str, float]] = {
    "brightness_pct": ("%", 1),
    "position": ("%", 1),
    "tilt_position": ("%", 1),
    "percentage": ("%", 1),
    "volume_level": ("%", VOLUME_PERCENT),
    "humidity": ("%", 1),
    "temperature": ("°", 1),
    "color_temp_kelvin": ("K", 1),
    "value": ("", 1),
}
# Modes whose values are the entity's state (a thermostat's HVAC mode),
# then those HA translates as attributes.
_STATE_MODES = ("hvac_mode", "operation_mode")
MODES = (*_STATE_MODES, "preset_mode", "fan_mode", "swing_mode", "mode")
_NAMES = ("option", "source")
SPOKEN_ARGUMENTS = (*_QUANTITIES, *MODES, *_NAMES)


def number(value: float, language: str) -> str:
    """1.0 as "1", 12.345 as "12.3" (German "12,3"): what a voice reads well."""
    rounded = round(float(value), 1)
    text = str(int(rounded)) if rounded.is_integer() else str(rounded)
    return text.replace(".", decimal_mark(language))


def is_number(value: object) -> TypeGuard[float | int | str]:
    """Whether a state or attribute is a finite number ("21.5" too)."""
    if isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except TypeError, ValueError:
        return False


@dataclass(slots=True, frozen=True)
class SpokenValues:
    """The values of one language's replies, in that language.

    `messages` are the integration's sentences (the unit words among them);
    `home_words` are Home Assistant's own translations of states, modes
    (`entity_component`) and service names (`services`).
    """

    language: str
    messages: Mapping[str, str]
    home_words: Mapping[str, str] = field(default_factory=dict)

    def quantity(self, value: object, unit: str) -> str:
        """A number with its unit as said: "21,5 Grad", "40 percent", "3 kWh"."""
        if not is_number(value):
            return f"{value} {unit}".strip()
        said = number(float(value), self.language)
        unit_words = UNIT_WORDS.get(unit.strip())
        if unit_words is None:
            return f"{said} {unit}".strip()
        chosen = unit_words[1] if said == "1" else unit_words[0]
        key = f"value_{chosen}"
        return self.messages[key].format(value=said)

    def argument(self, domain: str, args: Mapping[str, Any]) -> str | None:
        """The value a service call sets, as said; None when it sets none."""
        for name in SPOKEN_ARGUMENTS:
            if name not in args:
                continue
            value = args[name]
            if name in _QUANTITIES:
                unit, scale = _QUANTITIES[name]
                if is_number(value):
                    return self.quantity(float(value) * scale, unit)
                return str(value)
            if name in MODES:
                return self.mode(domain, name, str(value))
            return str(value)
        return None

    def mode(self, domain: str, attribute: str, value: str) -> str:
        """A mode as HA words it ("heat_cool": "Heizen und Kühlen").

        An HVAC mode is the state of a thermostat (an operation mode, of a
        water heater); others are translated as attributes of the domain's
        entities.
        """
        prefix = f"component.{domain}.entity_component._"
        wanted = (
            f"{prefix}.state.{value}"
            if attribute in _STATE_MODES
            else f"{prefix}.state_attributes.{attribute}.state.{value}"
        )
        found = self.home_words.get(wanted)
        if found is None:
            return value.replace("_", " ")
        label = self.label(found)
        if capitalises_nouns(self.language):
            return label
        return label.casefold()

    def state(self, domain: str, device_class: object, state: str) -> str:
        """A state as HA words it in the language ("an", "verriegelt").

        A thermostat's state is its HVAC mode, said as a mode ("Kühlbetrieb").
        """
        if domain == "climate":
            return self.mode(domain, "hvac_mode", state)
        for kind in (device_class or "_", "_"):
            found = self.home_words.get(
                f"component.{domain}.entity_component.{kind}.state.{state}"
            )
            if found is not None:
                return self.label(found).casefold()
        return state.replace("_", " ")

    def kind(self, domain: str) -> str | None:
        """A domain's name as HA gives it in the language ("Wetter")."""
        return self.home_words.get(f"component.{domain}.title")

    def service(self, domain: str, service: str) -> str:
        """A service as HA names it in the language ("Schloss öffnen")."""
        found = self.home_words.get(f"component.{domain}.services.{service}.name")
        return found or service.replace("_", " ")

    def label(self, text: str) -> str:
        """A label of HA's as said: "Heizen/Kühlen" as "Heizen und Kühlen".

        A short second part is a gender ending ("Alto/a"), dropped.
        """
        if "/" not in text:
            return text
        head, _, tail = text.partition("/")
        if len(tail) <= 2:  # noqa: PLR2004 - "a", "e": an ending, not a word
            return head
        return self.messages["list_and"].format(head=head, last=self.label(tail))
