"""Questions about the home answered from its states, without a model.

When the reading of a question names what it asks about (a device, or a
kind of device in a place: "is the kettle on?", "what's the temperature in
here?", "is the back door locked?"), the answer is the state itself, in the
turn's language: Home Assistant's own translation of the state ("an",
"verriegelt"), or the value and unit as the entity reports them, said as
spoken.py says values ("21,5 Grad"). A temperature asked for a place is that place's
own sensor, else its thermostat's reading, never another room's; "outside"
is the weather. Anything else (judgement, advice, the future) is left to
the model.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..core.device_states import CLASS_STATES, holds, of_rest, own_state
from ..core.speech import Names, phrase
from ..core.spoken import SpokenValues
from ..language import words
from ..language.tables import STATE_VERBS, Verb
from ..reading.mentions import Mentions
from ..reading.named import namesakes
from ..reading.reading import Reading
from .asked_of import asked_of, counts
from .outdoors import outdoor_temperature
from .states_said import Answer, said_state, states_answer
from .targets.placed import candidates, in_place_said

if TYPE_CHECKING:
    from ..core.records import EntityInfo
    from ..home.catalog import Catalog

# More devices than this in one answer is a list nobody listens to.
MAX_ANSWERED = 4
TEMPERATURE = "sensor.temperature"
# The senses (language tables) that say the heating, not the warmth.
_HEATING = ("heating", "thermostat")


def answer(
    reading: Reading,
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
) -> Answer | None:
    """What to say to a question the reading fully explains, or None.

    Words the reading could not place ("low", "how much") leave the question
    to Home Assistant's sentences or the model: a state that answers
    something else is a wrong answer, not a near one. Only the opening word
    (the question's shape) and HA's own word for a state ("encendido") may
    be left. A yes/no question ("is the back door locked?", "¿está
    encendido?") is answered yes or no about the one device it asks of;
    asked of several a kind fits, of any of them ("is the light on in the
    bedroom?") or, for a state of rest, of all ("are the windows closed?").
    "Which ... is on?" is answered with those that are, "how many ... are
    on?" with how many, and which where they are few; one that offers its
    answers ("open or closed?") with the state. What each question asks
    of: asked_of.py.
    """
    if not reading.question:
        return None
    if _offers_alternatives(reading):
        return _about(
            reading,
            asked_of(reading, frozenset(), catalog, values, confirm, home=False),
            values,
        )
    return _asked(reading, catalog, values, confirm)


def _asked(
    reading: Reading,
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
) -> Answer | None:
    """A question's answer by the state or the verb it asks, if the words say."""
    # "What is the heating set to?": a question's "set" asks for the setting.
    verbs = reading.verbs - {Verb.SET}
    asked = verbs & STATE_VERBS
    if len(asked) > 1 or verbs - STATE_VERBS:
        return None
    open_words = [w for w in reading.unexplained if w not in reading.question_words]
    # "Any", "devices": some device, the state asked says which kind.
    some = [w for w in open_words if w in reading.spoken.anything]
    open_words = [w for w in open_words if w not in some]
    mentions = reading.mentions
    if not mentions.entities and (
        TEMPERATURE in mentions.classes or "climate" in mentions.kinds
    ):
        unplaced = asked or open_words or some
        return None if unplaced else _warmth(reading, catalog, values, confirm)
    counted = counts(reading, asked)
    subjects = asked_of(
        reading, asked, catalog, values, confirm, home=counted or bool(some)
    )
    if counted or asked or open_words:
        said = " ".join(open_words)
        if not asked and not mentions.entities and not counted:
            subjects = _sensors_saying(said, mentions, catalog, values) or subjects
        if counted or not reading.yes_no:
            return (_count if counted else _which)(asked, said, subjects, values)
        return (
            _yes_or_no(asked, said, subjects, values)
            or _yes_or_no(asked, said, namesakes(subjects, catalog), values)
            or _any(
                asked,
                said,
                _one_of_a_kind(mentions, subjects),
                values,
                every=mentions.everything,
            )
        )
    # A device's state is no answer to what "anything" is ("lädt irgendein
    # Akku?" asks of a state no word said).
    return None if some else _about(reading, subjects, values)


def _offers_alternatives(reading: Reading) -> bool:
    """Whether a yes/no question offers the answers ("is it on or off?").

    "Is the media player playing, paused, or stopped?" asks which: its
    state answers it, whatever words it offers.
    """
    alternatives = reading.spoken.alternatives
    return reading.yes_no and bool(alternatives.intersection(reading.unexplained))


def _count(
    asked: frozenset[Verb],
    open_words: str,
    subjects: list[EntityInfo],
    values: SpokenValues,
) -> Answer | None:
    """How many of the devices asked of are in the state asked, and which.

    "How many lights are on?", "wie viele Lichter brennen noch?": the
    number, with their names where they are few, or "none". With no state
    said ("wie viele Lichter gibt es?") every one counts. A device the state
    asks nothing of leaves the question.
    """
    if not subjects:
        return None
    those = subjects
    if asked or open_words:
        judged = [(info, holds(asked, open_words, info, values)) for info in subjects]
        if any(held is None for _, held in judged):
            return None
        those = [info for info, held in judged if held]
    about = tuple(info.entity_id for info in those or subjects)
    if not those:
        return Answer([phrase("answer_none")], about)
    if len(those) > MAX_ANSWERED:
        return Answer([phrase("answer_count_only", count=str(len(those)))], about)
    names = Names(tuple(info.name for info in those))
    return Answer([phrase("answer_count", count=str(len(those)), names=names)], about)


def _about(
    reading: Reading, subjects: list[EntityInfo], values: SpokenValues
) -> Answer | None:
    """The state of the devices asked about, or a yes or no of a sensor's."""
    if not subjects or len(subjects) > MAX_ANSWERED:
        return None
    return _sensed(reading, subjects, values) or states_answer(subjects, values)


def _warmth(
    reading: Reading, catalog: Catalog, values: SpokenValues, confirm: Collection[str]
) -> Answer | None:
    """The heating's setting where it was said, else the place's temperature."""
    if not _heating_said(reading):
        return _temperature(reading, catalog, values)
    heating = sorted(candidates(reading.mentions, catalog, confirm, {"climate"}))
    if not heating or len(heating) > MAX_ANSWERED:
        return _temperature(reading, catalog, values)
    return states_answer([catalog.exposed[e] for e in heating], values)


def _heating_said(reading: Reading) -> bool:
    """Whether the heating itself was said, not only warmth.

    "Auf wie viel Grad steht die Heizung?" asks what the thermostat is set
    to; "wie warm ist es hier?" asks the room's temperature.
    """
    senses = reading.spoken.senses
    return any(
        reading.kind_words & senses.get(sense, frozenset()) for sense in _HEATING
    )


def _yes_or_no(
    asked: frozenset[Verb],
    open_words: str,
    subjects: list[EntityInfo],
    values: SpokenValues,
) -> Answer | None:
    """Yes or no about the one device whose state the question asks of.

    The state asked is a verb's ("is it locked?") or a state said in HA's
    own word for it; any other word left open leaves the question.
    """
    judged = [
        (info, held)
        for info in subjects
        if (held := holds(asked, open_words, info, values)) is not None
    ]
    if len(judged) != 1:
        return None
    info, held = judged[0]
    state = said_state(info, values)
    return Answer(
        [phrase("answer_yes" if held else "answer_no"), state], (info.entity_id,)
    )


def _one_of_a_kind(mentions: Mentions, subjects: list[EntityInfo]) -> list[EntityInfo]:
    """The devices a kind said fits, none named ("the light", "all the blinds")."""
    return [] if mentions.entities else subjects


def _any(
    asked: frozenset[Verb],
    open_words: str,
    subjects: list[EntityInfo],
    values: SpokenValues,
    *,
    every: bool,
) -> Answer | None:
    """Yes or no of several devices that fit the kind asked of, and which.

    "Ist das Licht im Schlafzimmer an?" where two lights are is asked of
    any of them, as Home Assistant answers "is any light on": yes, and
    which. A state of rest is asked of all ("is the switch in the kitchen
    off?": no while one is on, and which), as is any state asked of all
    (`every`: "are all the blinds open?"). A device the state asks nothing
    of leaves the question.
    """
    judged = [(info, holds(asked, open_words, info, values)) for info in subjects]
    if not judged or any(held is None for _, held in judged):
        return None
    every = every or any(of_rest(asked, open_words, info, values) for info in subjects)
    those = [info for info, held in judged if held != every]
    if len(those) > MAX_ANSWERED and not every:
        # Yes, and how many: more names than anyone listens to.
        count = phrase("answer_count_only", count=str(len(those)))
        return Answer([phrase("answer_yes"), count], tuple(i.entity_id for i in those))
    if len(those) > MAX_ANSWERED:
        return None
    held = not those if every else bool(those)
    return Answer(
        [
            phrase("answer_yes" if held else "answer_no"),
            *(said_state(info, values) for info in those),
        ],
        tuple(info.entity_id for info in those or subjects),
    )


def _sensors_saying(
    open_words: str, mentions: Mentions, catalog: Catalog, values: SpokenValues
) -> list[EntityInfo]:
    """The sensors where the words said are HA's for a state of their class.

    "Is the water sensor wet?", "welcher Sensor ist verbunden?": "wet" is a
    moisture sensor's, "verbunden" a connection's; of the class said, if
    one, in the place said, else anywhere in the home (a sensor's state is
    asked of the home, not of the room the question was asked in).
    """
    placed = mentions.areas or mentions.floors
    found = [
        info
        for info in catalog.exposed.values()
        if info.domain in CLASS_STATES
        and mentions.fits_class(info)
        and (not placed or in_place_said(info, mentions))
        and own_state(open_words, info, values)
    ]
    return sorted(found, key=lambda info: info.entity_id)


def _which(
    asked: frozenset[Verb],
    open_words: str,
    subjects: list[EntityInfo],
    values: SpokenValues,
) -> Answer | None:
    """Those of the devices asked of in the state asked, or "none".

    "Which lights are on?", "was für ein Gassensor ist an?": a list, never a
    yes or a no. A device the state asks nothing of leaves the question.
    """
    judged = [(info, holds(asked, open_words, info, values)) for info in subjects]
    if not judged or any(held is None for _, held in judged):
        return None
    those = [info for info, held in judged if held]
    if len(those) > MAX_ANSWERED:
        return None
    said = (
        phrase("answer_which", names=Names(tuple(info.name for info in those)))
        if those
        else phrase("answer_none")
    )
    return Answer([said], tuple(info.entity_id for info in those or subjects))


def _sensed(
    reading: Reading, subjects: list[EntityInfo], values: SpokenValues
) -> Answer | None:
    """Yes or no to a yes/no question about one binary sensor.

    "Ist Gas in der Küche?", "is motion detected?", "are the water pipes
    cold?", "is the mains power detected?": yes is its "on" ("Erkannt",
    "Kalt"), unless the words say its "off" ("ist die Wasserleitung
    normal?"). A word said that is neither,
    nor its kind's ("warm", asked of a cold sensor), leaves the state said.
    """
    if not reading.yes_no or len(subjects) != 1:
        return None
    info = subjects[0]
    if info.domain != "binary_sensor" or info.state not in ("on", "off"):
        return None
    device_class = info.all_attributes.get("device_class")
    on, off = (
        set(words(values.state(info.domain, device_class, state)))
        for state in ("on", "off")
    )
    kinds = reading.spoken.kinds
    # Its kind's words, and the quantities sensors measure ("is the mains
    # power detected?", "is er stroom?"): what is sensed, not a state.
    own = kinds.get(info.domain, frozenset()) | kinds.get("sensor", frozenset())
    said = reading.kind_words - own - set(words(info.name))
    if said - on - off:
        return None
    held = info.state == ("off" if said & off and not said & on else "on")
    return Answer(
        [phrase("answer_yes" if held else "answer_no"), said_state(info, values)],
        (info.entity_id,),
    )


def _temperature(
    reading: Reading, catalog: Catalog, values: SpokenValues
) -> Answer | None:
    """The temperature of the place meant: its sensor, else its thermostat."""
    mentions = reading.mentions
    if "weather" in mentions.kinds:
        found = outdoor_temperature(catalog)
        if found is None:
            return None
        value, unit, shown_by = found
        said = phrase("answer_outside", value=values.quantity(value, unit))
        return Answer([said], (shown_by,))
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
        value = values.quantity(source.state, unit)
    else:
        climates = [i for i in in_place if i.domain == "climate"]
        current = (
            climates[0].all_attributes.get("current_temperature") if climates else None
        )
        if current is None:
            return None
        source = climates[0]
        value = values.quantity(current, _catalog_unit(catalog))
    return Answer(
        [phrase("answer_place", value=value, place=place)], (source.entity_id,)
    )


def _catalog_unit(catalog: Catalog) -> str:
    """The temperature unit the home's sensors report (°C unless told)."""
    for info in catalog.exposed.values():
        if info.all_attributes.get("device_class") == "temperature":
            return str(info.all_attributes.get("unit_of_measurement") or "°C")
    return "°C"
