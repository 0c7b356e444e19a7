"""Questions about the home answered from its states, without a model.

When the reading of a question names what it asks about (a device, or a
kind of device in a place: "is the kettle on?", "what's the temperature in
here?", "is the back door locked?"), the answer is the state itself, in the
turn's language: Home Assistant's own translation of the state ("an",
"verriegelt"), or the value and unit as the entity reports them, with the
language's decimal mark. A temperature asked for a place is that place's
own sensor, else its thermostat's reading, never another room's; "outside"
is the weather. Anything else (judgement, advice, the future) is left to
the model.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from homeassistant.helpers.translation import async_get_translations

from .grounding import candidates
from .language import base_language
from .reading import Reading
from .speech import Phrase, phrase

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .catalog import Catalog
    from .records import EntityInfo

# More devices than this in one answer is a list nobody listens to.
MAX_ANSWERED = 4
TEMPERATURE = "sensor.temperature"
# Languages that write 21,5 rather than 21.5.
DECIMAL_COMMA = frozenset({"de", "fr", "es", "nl", "it"})


@dataclass(slots=True, frozen=True)
class Answer:
    """What to say, and what it was about ("turn it down" next)."""

    said: list[Phrase]
    about: tuple[str, ...]


async def async_answer(
    hass: HomeAssistant,
    reading: Reading,
    catalog: Catalog,
    language: str,
    confirm: Collection[str],
) -> Answer | None:
    """What to say to a question the reading knows the subject of, or None."""
    if not reading.question:
        return None
    mentions = reading.mentions
    if mentions.entities:
        named = [catalog.exposed[e] for e in sorted(mentions.entities)]
        return await _async_states(hass, named[:MAX_ANSWERED], language)
    if TEMPERATURE in mentions.classes or "climate" in mentions.kinds:
        return _temperature(reading, catalog, language)
    kinds = mentions.kinds - {"weather"}
    if len(kinds) != 1:
        return None
    found = [
        catalog.exposed[e]
        for e in sorted(candidates(mentions, catalog, confirm, kinds))
    ]
    if not found or len(found) > MAX_ANSWERED:
        return None
    return await _async_states(hass, found, language)


def _temperature(reading: Reading, catalog: Catalog, language: str) -> Answer | None:
    """The temperature of the place meant: its sensor, else its thermostat."""
    mentions = reading.mentions
    if "weather" in mentions.kinds:
        weather = [i for i in catalog.exposed.values() if i.domain == "weather"]
        value = weather[0].all_attributes.get("temperature") if weather else None
        if value is None:
            return None
        unit = weather[0].all_attributes.get("temperature_unit") or ""
        said = phrase("answer_outside", value=_value(value, unit, language))
        return Answer([said], (weather[0].entity_id,))
    place = next(iter(sorted(mentions.areas)), None) or catalog.speaker_area
    if place is None:
        return None
    in_place = [i for i in catalog.exposed.values() if i.area == place]
    sensors = [
        i
        for i in in_place
        if i.domain == "sensor"
        and i.all_attributes.get("device_class") == "temperature"
    ]
    source = sensors[0] if sensors else None
    if source is not None:
        unit = source.all_attributes.get("unit_of_measurement") or ""
        value = _value(source.state, unit, language)
    else:
        climates = [i for i in in_place if i.domain == "climate"]
        current = (
            climates[0].all_attributes.get("current_temperature") if climates else None
        )
        if current is None:
            return None
        source = climates[0]
        value = _value(current, _catalog_unit(catalog), language)
    return Answer(
        [phrase("answer_place", value=value, place=place)], (source.entity_id,)
    )


def _catalog_unit(catalog: Catalog) -> str:
    """The temperature unit the home's sensors report (°C unless told)."""
    for info in catalog.exposed.values():
        if info.all_attributes.get("device_class") == "temperature":
            return str(info.all_attributes.get("unit_of_measurement") or "°C")
    return "°C"


async def _async_states(
    hass: HomeAssistant, entities: list[EntityInfo], language: str
) -> Answer | None:
    """Each entity's state, as Home Assistant words it in the language."""
    if not entities:
        return None
    words = await async_get_translations(
        hass, language, "entity_component", {info.domain for info in entities}
    )
    return Answer(
        [
            phrase("answer_state", name=info.name, state=_state(info, words, language))
            for info in entities
        ],
        tuple(info.entity_id for info in entities),
    )


def _state(info: EntityInfo, words: dict[str, str], language: str) -> str:
    """A state as said: translated, or a value with its unit.

    A thermostat adds the temperature it is set to, a player what it plays.
    """
    unit = info.all_attributes.get("unit_of_measurement")
    if unit or _is_number(info.state):
        return _value(info.state, str(unit or ""), language)
    said = _state_word(info, words)
    attributes = info.all_attributes
    if info.domain == "climate" and (target := attributes.get("temperature")):
        return f"{said}, {_value(target, '°', language)}"
    if info.domain == "media_player" and (title := attributes.get("media_title")):
        artist = attributes.get("media_artist")
        return f"{said}: {title}" + (f", {artist}" if artist else "")
    return said


def _state_word(info: EntityInfo, words: dict[str, str]) -> str:
    """Home Assistant's own word for a state, in the turn's language."""
    device_class = info.all_attributes.get("device_class") or "_"
    for kind in (device_class, "_"):
        # Home Assistant's own key, not one of this integration's phrases.
        key = ".".join(  # noqa: FLY002 - not an f-string: test_translations reads those as our keys
            ("component", info.domain, "entity_component", kind, "state", info.state)
        )
        if key in words:
            return words[key].casefold()
    return info.state.replace("_", " ")


def _value(value: object, unit: str, language: str) -> str:
    """A number with its unit, with the language's decimal mark."""
    text = str(value)
    if _is_number(text):
        number = round(float(text), 1)
        text = str(int(number)) if number.is_integer() else str(number)
        if base_language(language) in DECIMAL_COMMA:
            text = text.replace(".", ",")
    return f"{text} {unit}".strip()


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
