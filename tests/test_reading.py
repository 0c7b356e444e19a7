"""The reading, tested on a small home without Home Assistant.

Each failure the reading issue names, written from its description: a verb
that fits one of two devices named alike, a word of a name reused as a kind,
a kind word that implies a device class, values and steps, references,
questions, and plans built only when nothing is left open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from custom_components.intent_router.core.domains import ConfirmPolicy
from custom_components.intent_router.core.records import (
    Action,
    EntityInfo,
    ExecutedAction,
    Plan,
)
from custom_components.intent_router.core.said import Said
from custom_components.intent_router.deciding.gate import Decision, Facts, Refusal, gate
from custom_components.intent_router.deciding.grounding import (
    Grounded,
    Ungrounded,
    check_grounding,
)
from custom_components.intent_router.deciding.local_plans import plan_from_reading
from custom_components.intent_router.deciding.polarity import against_the_words
from custom_components.intent_router.deciding.targets.commanded import Choice
from custom_components.intent_router.home.catalog import Catalog, ServiceInfo
from custom_components.intent_router.language import Unit, Verb
from custom_components.intent_router.reading.reading import read
from custom_components.intent_router.reading.values import Value

from .helpers import small_catalog

CONFIRM = ("lock", "alarm_control_panel")


def _entity(
    entity_id: str,
    name: str,
    area: str | None,
    state: str = "off",
    **attributes: object,
) -> EntityInfo:
    return EntityInfo(entity_id, name, (), area, state, {}, attributes)


HOME = [
    _entity("lock.back_door_lock", "Back Door Lock", "Hallway", "locked"),
    _entity("binary_sensor.back_door", "Back Door", "Hallway", device_class="door"),
    _entity(
        "cover.living_blinds",
        "Living Room Blinds",
        "Living Room",
        "closed",
        device_class="blind",
    ),
    _entity(
        "cover.garage_door", "Garage Door", "Garage", "closed", device_class="garage"
    ),
    _entity(
        "light.kitchen_ceiling", "Kitchen Ceiling", "Kitchen", "on", brightness=128
    ),
    _entity("light.kitchen_counter", "Counter Light", "Kitchen", "on"),
    _entity("light.bedroom_lamp", "Bedroom Lamp", "Bedroom"),
    _entity("light.office_lamp", "Office Lamp", "Office"),
    _entity("switch.kettle", "Kettle", "Kitchen"),
    _entity(
        "climate.hallway",
        "Thermostat",
        "Hallway",
        "heat",
        temperature=20,
        current_temperature=19.5,
        min_temp=7,
        max_temp=30,
    ),
    _entity(
        "sensor.study_temperature",
        "Study Temperature",
        "Study",
        "21.5",
        device_class="temperature",
        unit_of_measurement="°C",
    ),
    _entity("media_player.kitchen_speaker", "Kitchen Speaker", "Kitchen", "playing"),
]
AREAS = ["Hallway", "Living Room", "Garage", "Kitchen", "Bedroom", "Office", "Study"]


def _catalog(speaker_area: str | None = "Bedroom") -> Catalog:
    return small_catalog(HOME, AREAS, speaker_area)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # The verb decides between devices the words name equally.
        ("unlock the back door", {"lock.back_door_lock"}),
        ("lock the back door", {"lock.back_door_lock"}),
        ("is the back door open?", {"lock.back_door_lock", "binary_sensor.back_door"}),
    ],
)
def test_the_verb_decides_between_equal_names(text: str, named: set[str]) -> None:
    """A lock and a contact sensor of the same name: "unlock" means the lock."""
    assert read(Said.of(text, "en"), _catalog()).mentions.entities == named


def test_a_word_of_a_name_is_not_also_a_kind() -> None:
    """The word "door" in "back door" names the lock, not also covers."""
    mentions = read(Said.of("unlock the back door", "en"), _catalog()).mentions

    assert "cover" not in mentions.kinds


def test_a_kind_word_implies_its_device_classes() -> None:
    """The word "door" means a door or garage cover, never the blinds."""
    catalog = _catalog()
    reading = read(Said.of("open the door", "en"), catalog)

    assert "cover.door" in reading.mentions.classes
    assert not reading.mentions.fits_class(catalog.exposed["cover.living_blinds"])
    assert reading.mentions.fits_class(catalog.exposed["cover.garage_door"])


@pytest.mark.parametrize(
    ("text", "language", "values"),
    [
        ("dim the kitchen ceiling to 30 percent", "en", (Value(30, Unit.PERCENT),)),
        ("set the thermostat to 21.5 degrees", "en", (Value(21.5, Unit.DEGREES),)),
        ("kitchen ceiling 40%", "en", (Value(40, Unit.PERCENT),)),
        ("twenty one degrees", "en", (Value(21, Unit.DEGREES),)),
        ("stell die Heizung auf 21,5 Grad", "de", (Value(21.5, Unit.DEGREES),)),
        ("mets la lumière à cinquante pour cent", "fr", (Value(50, Unit.PERCENT),)),
        ("half", "en", (Value(0.5),)),
    ],
)
def test_values_with_their_units(
    text: str, language: str, values: tuple[Value, ...]
) -> None:
    """Digits, decimals with either mark, number words, symbols and units."""
    assert read(Said.of(text, language), _catalog()).values == values


@pytest.mark.parametrize(
    ("text", "language", "verbs"),
    [
        ("turn off the kitchen ceiling", "en", {Verb.OFF}),
        ("trun off the kitchen ceiling", "en", {Verb.OFF}),
        ("turn of the kettle", "en", {Verb.OFF}),
        ("brighter", "en", {Verb.UP}),
        ("mach das Licht aus", "de", {Verb.OFF}),
        ("éteins la lumière", "fr", {Verb.OFF}),
        ("apaga la luz", "es", {Verb.OFF}),
        ("doe het licht uit", "nl", {Verb.OFF}),
        ("spegni la luce", "it", {Verb.OFF}),
        # A direction said for a cover is its verb.
        ("tira su la tapparella", "it", {Verb.OPEN}),
        ("tira giù le tapparelle", "it", {Verb.CLOSE}),
        ("kun je het licht uitdoen?", "nl", {Verb.OFF}),
        # A player's or a vacuum's own word is a verb only alone.
        ("next song", "en", {Verb.NEXT}),
        ("turn off the kitchen speaker next to the window", "en", {Verb.OFF}),
        ("stop the vacuum", "en", {Verb.OFF}),
        ("vacuum the kitchen", "en", {Verb.CLEAN}),
        ("la canción anterior", "es", {Verb.PREVIOUS}),
    ],
)
def test_verbs_in_every_language(text: str, language: str, verbs: set[Verb]) -> None:
    """The verb is read, and a misspelt "turn" still leaves "off" an off."""
    assert read(Said.of(text, language), _catalog()).verbs == verbs


@pytest.mark.parametrize(
    ("text", "language", "verbs"),
    [
        # Before the device, the state's small word is its preposition.
        ("what's playing on the kitchen speaker?", "en", set()),
        ("what's on the kitchen speaker?", "en", set()),
        ("Was läuft auf dem Kitchen Speaker?", "de", set()),
        # After it, or before a place, it is the state asked.
        ("is the kitchen speaker on?", "en", {Verb.ON}),
        ("is the light on in the kitchen?", "en", {Verb.ON}),
        ("which lights are on in the kitchen?", "en", {Verb.ON}),
        ("Ist der Kitchen Speaker an?", "de", {Verb.ON}),
        # "ein" is an article here: the state comes after the device.
        ("Ist ein Kitchen Speaker an?", "de", {Verb.ON}),
    ],
)
def test_a_states_small_word_before_the_device_is_its_preposition(
    text: str, language: str, verbs: set[Verb]
) -> None:
    """A question's "on" before the speaker asks what it plays, not which is on."""
    assert read(Said.of(text, language), _catalog()).verbs == verbs


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("is the kettle on", True),
        ("the kettle is on?", True),
        ("can you turn off the kettle?", False),
        ("turn off the kettle", False),
    ],
)
def test_questions_by_opener_or_mark(text: str, question: bool) -> None:
    """A "?" asks, unless it ends a request."""
    assert read(Said.of(text, "en"), _catalog()).question is question


def _plan(
    text: str,
    area: str | None = "Bedroom",
    last_actions: list[ExecutedAction] | None = None,
) -> Plan | Choice | None:
    catalog = _catalog(area)
    last = last_actions or []
    return plan_from_reading(
        read(Said.of(text, "en"), catalog),
        catalog,
        last,
        CONFIRM,
        referred=[target for action in last for target in action.targets],
    )


def test_a_complete_command_is_planned_without_a_model() -> None:
    """A verb that fits, a device named: the plan, with the verb's service."""
    assert _plan("turn off the kettle") == Plan(
        (Action("switch.turn_off", ("switch.kettle",)),), "", 1.0
    )


def test_unlock_plans_the_lock_and_nothing_else() -> None:
    """The lock, never the blinds of another room; the gate then asks first."""
    assert _plan("unlock the back door", area="Bedroom") == Plan(
        (Action("lock.unlock", ("lock.back_door_lock",)),), "", 1.0
    )


def test_values_and_steps_stay_in_range() -> None:
    """A value said sets; "brighter" steps; a step past the limit is not made."""
    assert _plan("kitchen ceiling to 30 percent") == Plan(
        (Action("light.turn_on", ("light.kitchen_ceiling",), {"brightness_pct": 30}),),
        "",
        1.0,
    )
    assert _plan("brighter", area="Kitchen") == Plan(
        (
            Action(
                "light.turn_on",
                ("light.kitchen_ceiling", "light.kitchen_counter"),
                {"brightness_step_pct": 20},
            ),
        ),
        "",
        1.0,
    )
    assert _plan("make the thermostat warmer") == Plan(
        (Action("climate.set_temperature", ("climate.hallway",), {"temperature": 21}),),
        "",
        1.0,
    )
    assert _plan("set the thermostat to 45 degrees") is None
    # By how much: from the set point now (20), never to the number said.
    assert _plan("make the thermostat two degrees warmer") == Plan(
        (Action("climate.set_temperature", ("climate.hallway",), {"temperature": 22}),),
        "",
        1.0,
    )
    assert _plan("one degree colder on the thermostat") == Plan(
        (Action("climate.set_temperature", ("climate.hallway",), {"temperature": 19}),),
        "",
        1.0,
    )


def test_it_after_any_acting_turn() -> None:
    """To dim "it" is to dim what the last turn acted on."""
    last = [ExecutedAction("light.turn_on", ["light.office_lamp"], {})]

    assert _plan("dim it to 30 percent", last_actions=last) == Plan(
        (Action("light.turn_on", ("light.office_lamp",), {"brightness_pct": 30}),),
        "",
        1.0,
    )
    assert _plan("turn it off again", last_actions=last) == Plan(
        (Action("light.turn_off", ("light.office_lamp",)),), "", 1.0
    )


def test_the_same_elsewhere_acts_only_there() -> None:
    """The last actions' kinds in the new place, not the first place again."""
    last = [ExecutedAction("light.turn_off", ["light.office_lamp"], {})]

    assert _plan("do the same in the kitchen", last_actions=last) == Plan(
        (Action("light.turn_off", ("light.kitchen_ceiling", "light.kitchen_counter")),),
        "",
        1.0,
    )


def test_a_kind_in_several_places_asks_which() -> None:
    """No lamp where the speaker is, lamps in two rooms: a question naming them."""
    assert _plan("turn on the lamp", area="Garage") == Choice(
        ("light.bedroom_lamp", "light.office_lamp")
    )


@pytest.mark.parametrize(
    "text",
    [
        "turn on the lights when I get home",  # words nothing explained
        "turn on and off the kettle",  # two verbs
        "turn on the lamp by the window",  # two kinds the verb fits
        "is the kettle on",  # a question
    ],
)
def test_what_is_left_open_is_not_guessed(text: str) -> None:
    """Anything the reading leaves open goes to the model."""
    assert _plan(text) is None


def test_a_reversed_verb_is_against_the_words() -> None:
    """An "off" planned as turn_on, a "lock" planned as unlock."""
    catalog = _catalog()
    off = Plan((Action("switch.turn_on", ("switch.kettle",)),), "", 0.9)
    lock = Plan((Action("lock.unlock", ("lock.back_door_lock",)),), "", 0.9)
    on = Plan((Action("switch.turn_on", ("switch.kettle",)),), "", 0.9)

    assert against_the_words(off, read(Said.of("trun off the kettle", "en"), catalog))
    assert against_the_words(lock, read(Said.of("lock the back door", "en"), catalog))
    assert not against_the_words(on, read(Said.of("turn on the kettle", "en"), catalog))
    assert not against_the_words(
        off, read(Said.of("is the kettle off?", "en"), catalog)
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("send the vacuum back to base", "en"),
        ("Robo zurück zur Ladestation", "de"),
        ("Robo, vuelve a la base", "es"),
    ],
)
def test_back_to_base_planned_as_start_is_against_the_words(
    text: str, language: str
) -> None:
    """A model that starts the vacuum it was told to send home is reversed."""
    catalog = small_catalog(
        [_entity("vacuum.robo", "Robo", "Hallway", "cleaning")], AREAS, "Hallway"
    )
    start = Plan((Action("vacuum.start", ("vacuum.robo",)),), "", 0.9)
    home = Plan((Action("vacuum.return_to_base", ("vacuum.robo",)),), "", 0.9)

    assert against_the_words(start, read(Said.of(text, language), catalog))
    assert not against_the_words(home, read(Said.of(text, language), catalog))


def test_the_gate_gives_one_verdict() -> None:
    """Refused, cancelled, run and learned: each decided by `gate` alone."""
    catalog = _catalog()
    for tool in ("switch.turn_on", "switch.turn_off"):
        catalog.services[tool] = ServiceInfo(tool, ())
    on = Plan((Action("switch.turn_on", ("switch.kettle",)),), "", 0.9)
    off = Plan((Action("switch.turn_off", ("switch.kettle",)),), "", 0.9)

    def facts(text: str, **turn: Any) -> Facts:
        policy = ConfirmPolicy(frozenset({"lock"}))
        return Facts(catalog, 0.7, policy, Said.of(text, "en"), **turn)

    def said(text: str, **turn: Any) -> Facts:
        return facts(text, reading=read(Said.of(text, "en"), catalog), **turn)

    against = gate(on, said("turn off the kettle"))
    asked = gate(on, said("is the kettle on?", from_model=True))
    kept_on = gate(
        off,
        facts("no, leave it on", automation="The kettle is on, turn it off?"),
    )
    ran = gate(on, said("turn on the kettle", from_model=True, learn=True))
    answering = gate(
        on, said("turn on the kettle", from_model=True, learn=True, pending=True)
    )

    assert (against.decision, against.refusal) == (
        Decision.REFUSED,
        Refusal.AGAINST_THE_WORDS,
    )
    assert (asked.decision, asked.refusal) == (Decision.REFUSED, Refusal.NO_ANSWER)
    assert kept_on.decision is Decision.CANCELLED
    assert kept_on.refused == off.actions
    assert (ran.decision, ran.learnable) == (Decision.EXECUTE, True)
    assert (answering.decision, answering.learnable) == (Decision.EXECUTE, False)


def test_a_guess_by_kind_never_runs_for_a_device_named() -> None:
    """The named lock's action dropped: the blinds do not open in its place."""
    catalog = _catalog("Living Room")
    reading = read(Said.of("unlock the back door", "en"), catalog)
    wrong = Plan(
        (
            Action("binary_sensor.turn_on", ("binary_sensor.back_door",)),
            Action("cover.open_cover", ("cover.living_blinds",)),
        ),
        "",
        0.9,
    )

    verdict = check_grounding(wrong, reading.mentions, catalog, (), (), CONFIRM)

    assert isinstance(verdict, Ungrounded)
    right = Plan((Action("lock.unlock", ("lock.back_door_lock",)),), "", 0.9)
    assert isinstance(
        check_grounding(right, reading.mentions, catalog, (), (), CONFIRM), Grounded
    )


def test_it_after_a_question_is_what_was_asked_about() -> None:
    """Asked what the speaker plays, "turn it down" means the speaker."""
    catalog = _catalog("Kitchen")
    plan = plan_from_reading(
        read(Said.of("turn it down a bit", "en"), catalog),
        catalog,
        [ExecutedAction("light.turn_on", ["light.kitchen_ceiling"], {})],
        CONFIRM,
        referred=["media_player.kitchen_speaker"],
    )

    assert plan == Plan(
        (Action("media_player.volume_down", ("media_player.kitchen_speaker",)),),
        "",
        1.0,
    )


def test_a_name_alone_after_an_action_does_the_same_to_it() -> None:
    """After turning on the office lamp, "and the kettle" turns the kettle on."""
    last = [ExecutedAction("light.turn_on", ["light.office_lamp"], {})]

    assert _plan("and the kettle", last_actions=last) == Plan(
        (Action("switch.turn_on", ("switch.kettle",)),), "", 1.0
    )


def test_everything_in_a_place_is_what_the_verb_fits_there() -> None:
    """Lights, the kettle and the speaker in the kitchen; never a lock."""
    plan = _plan("turn off everything in the kitchen")

    assert isinstance(plan, Plan)
    assert {t for action in plan.actions for t in action.targets} == {
        "light.kitchen_ceiling",
        "light.kitchen_counter",
        "switch.kettle",
        "media_player.kitchen_speaker",
    }


def test_two_verbs_for_two_devices() -> None:
    """A domain's own verb ("close") wins over a general one ("turn on")."""
    plan = _plan("turn on the office lamp and close the living room blinds")

    assert isinstance(plan, Plan)
    assert sorted(plan.actions, key=lambda action: action.tool) == [
        Action("cover.close_cover", ("cover.living_blinds",)),
        Action("light.turn_on", ("light.office_lamp",)),
    ]


def test_brighter_leaves_the_lights_that_are_off() -> None:
    """Only the lights that are on get dimmer; an off one stays off.

    One on with no brightness to dim (the counter light) is not dimmed:
    Home Assistant would switch it off.
    """
    plan = _plan("dimmer", area="Kitchen")

    assert isinstance(plan, Plan)
    assert plan.actions[0].targets == ("light.kitchen_ceiling",)
    catalog = _catalog("Office")
    assert plan_from_reading(
        read(Said.of("dimmer", "en"), catalog), catalog, [], CONFIRM
    ) == Plan(
        (
            Action(
                "light.turn_on", ("light.office_lamp",), {"brightness_step_pct": -20}
            ),
        ),
        "",
        1.0,
    )


def test_a_kind_alone_after_an_action_does_the_same_to_it() -> None:
    """After the kettle went on, "and the lamp" turns on the lamp here."""
    last = [ExecutedAction("switch.turn_on", ["switch.kettle"], {})]

    assert _plan("and the lamp", last_actions=last) == Plan(
        (Action("light.turn_on", ("light.bedroom_lamp",)),), "", 1.0
    )


def test_open_the_garage_means_the_garage_door() -> None:
    """The place said, and the verb only a cover there fits (the gate asks)."""
    assert _plan("open the garage", area="Kitchen") == Plan(
        (Action("cover.open_cover", ("cover.garage_door",)),), "", 1.0
    )


def test_the_same_elsewhere_takes_the_kind_when_no_class_alike() -> None:
    """Blinds opened in the living room; the garage has a garage door only."""
    last = [ExecutedAction("cover.open_cover", ["cover.living_blinds"], {})]

    assert _plan("do the same in the garage", last_actions=last) == Plan(
        (Action("cover.open_cover", ("cover.garage_door",)),), "", 1.0
    )


def test_the_one_is_which_not_how_much() -> None:
    """The words "the one in the living room" name no value."""
    assert read(Said.of("the one in the living room", "en"), _catalog()).values == ()


def test_a_new_command_is_not_read_with_the_last_question() -> None:
    """Asked about the back door lock, "turn off the kettle" is about the kettle."""
    reading = read(
        Said.of("turn off the kettle", "en"), _catalog(), asked="unlock the back door"
    )

    assert reading.mentions.entities == {"switch.kettle"}
    assert reading.verbs == {Verb.OFF}
    answer = read(
        Said.of("the kitchen one", "en"), _catalog(), asked="turn on the lamp"
    )
    assert answer.verbs == {Verb.ON}


def test_a_request_in_a_question_says_nothing_more() -> None:
    """In "could you maybe ... thanks" only the request is left to read."""
    reading = read(
        Said.of("could you maybe turn off the kettle, thanks", "en"), _catalog()
    )

    assert reading.unexplained == ()
    assert not reading.question


def test_a_kind_in_rooms_nobody_named_asks_which() -> None:
    """The model pauses every lamp of two other rooms: that is a question."""
    catalog = _catalog("Garage")
    reading = read(Said.of("turn off the lamp", "en"), catalog)
    both = Plan(
        (Action("light.turn_off", ("light.bedroom_lamp", "light.office_lamp")),),
        "",
        0.9,
    )

    verdict = check_grounding(both, reading.mentions, catalog, (), (), CONFIRM)

    assert isinstance(verdict, Ungrounded)
    assert {"light.bedroom_lamp", "light.office_lamp"} <= set(verdict.choices)
    assert all(choice.startswith("light.") for choice in verdict.choices)


def test_which_one_names_only_what_fits_the_words() -> None:
    """The kettle unsaid, the model's lights are not offered as choices."""
    catalog = _catalog("Kitchen")
    reading = read(Said.of("swtich on the cofee maker", "en"), catalog)
    lights = Plan((Action("light.turn_on", ("light.office_lamp",)),), "", 0.9)

    verdict = check_grounding(lights, reading.mentions, catalog, (), (), CONFIRM)

    assert verdict == Ungrounded(())


def test_open_the_garage_is_grounded_by_the_verb_in_the_place_said() -> None:
    """No kind said: the verb's own kind, in the place said, grounds it."""
    catalog = _catalog("Kitchen")
    reading = read(Said.of("open the garage", "en"), catalog)
    plan = Plan((Action("cover.open_cover", ("cover.garage_door",)),), "", 1.0)

    verdict = check_grounding(plan, reading.mentions, catalog, (), (), CONFIRM)

    assert isinstance(verdict, Grounded)


def test_all_of_a_kind_the_verb_does_not_fit_is_not_everything_there() -> None:
    """Saying "open all the lights in the garage" opens no garage door.

    A kind was said, and the verb fits none of its devices: the words are
    not a wish for everything else in the place the verb does fit.
    """
    assert _plan("open all the lights in the garage", area="Kitchen") is None


def _shared_names(speaker_area: str | None) -> Catalog:
    """A light name two rooms share in three languages, a fan and a scene."""
    home = [
        _entity("light.reading_bedroom", "Reading Light", "Bedroom"),
        _entity("light.reading_office", "Reading Light", "Office"),
        _entity("fan.reading", "Reading Fan", "Office"),
        _entity("scene.reading", "Reading", None),
        _entity("light.desk", "Desk Lamp", "Office"),
        _entity("light.office_ceiling", "Office Ceiling", "Office"),
        _entity("switch.printer", "Printer", "Office"),
        _entity("light.lese_schlafzimmer", "Leselampe", "Bedroom"),
        _entity("light.lese_buero", "Leselampe", "Office"),
        _entity("light.lecture_chambre", "Lampe de lecture", "Bedroom"),
        _entity("light.lecture_bureau", "Lampe de lecture", "Office"),
    ]
    return small_catalog(home, ["Bedroom", "Office", "Kitchen"], speaker_area)


@pytest.mark.parametrize(
    ("text", "language", "choices"),
    [
        ("turn on the reading light", "en", {"reading_bedroom", "reading_office"}),
        (
            "turn off the reading",
            "en",
            {"reading_bedroom", "reading_office", "reading"},
        ),
        ("schalte die Leselampe aus", "de", {"lese_schlafzimmer", "lese_buero"}),
        ("éteins la lampe de lecture", "fr", {"lecture_chambre", "lecture_bureau"}),
    ],
)
def test_names_the_words_say_equally_ask_which(
    text: str, language: str, choices: set[str]
) -> None:
    """From the kitchen: asked, never all; in the office, the office's one."""
    planned = plan_from_reading(
        read(Said.of(text, language), _shared_names("Kitchen")),
        _shared_names("Kitchen"),
        [],
        CONFIRM,
    )
    assert isinstance(planned, Choice)
    assert {c.partition(".")[2] for c in planned.choices} == choices

    office = _shared_names("Office")
    here = read(Said.of(text, language), office).mentions
    bedroom = ("bedroom", "schlafzimmer", "chambre")
    assert not {e for e in here.entities if e.endswith(bedroom)}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("activate the reading scene", {"scene.reading"}),
        ("turn on the desk lamp light", {"light.desk"}),
        ("turn on the reading light in the bedroom", {"light.reading_bedroom"}),
        # Said in the plural, every one of them is meant.
        (
            "turn on the reading lights",
            {"light.reading_bedroom", "light.reading_office"},
        ),
    ],
)
def test_the_fullest_name_is_the_one_meant(text: str, named: set[str]) -> None:
    """A kind said beside a name, or the place said, tells equal names apart."""
    mentions = read(Said.of(text, "en"), _shared_names("Kitchen")).mentions
    assert mentions.entities == named
    assert not mentions.which
    assert not mentions.kinds


@pytest.mark.parametrize(
    ("text", "language", "kinds"),
    [
        ("switch the fan on", "en", {"fan"}),
        ("switch off the lamp", "en", {"light"}),
        ("turn on the switch", "en", {"switch"}),
        ("put the switch on", "en", {"switch"}),
        ("turn the switch on", "en", {"switch"}),
        ("schalte den Ventilator ein", "de", {"fan"}),
        ("schakel de ventilator in", "nl", {"fan"}),
    ],
)
def test_a_verb_is_not_also_a_kind(text: str, language: str, kinds: set[str]) -> None:
    """Said as the verb, "switch" is no switch; said as the device it is."""
    assert (
        read(Said.of(text, language), _shared_names("Office")).mentions.kinds == kinds
    )


@pytest.mark.parametrize(
    ("text", "language", "imperative"),
    [
        ("run the good night routine", "en", True),
        ("the kids always run around on movie night", "en", False),
        ("starte das Skript Gute Nacht", "de", True),
        ("wir starten jeden Filmabend mit Popcorn", "de", False),
        ("lance le script bonne nuit", "fr", True),
        ("on lance toujours la soirée cinéma trop tard", "fr", False),
    ],
)
def test_a_verb_opens_a_command_not_a_story(
    text: str, language: str, imperative: bool
) -> None:
    """Whether the words open with a verb, as a command to run a script does."""
    assert read(Said.of(text, language), _shared_names(None)).imperative is imperative


def _kitchen_of(language: str) -> Catalog:
    """A kitchen with a light, a thermostat, a blind and a switch; a floor."""
    home = [
        EntityInfo("light.ceiling", "Ceiling", (), "Kitchen", "on", {}, floor="Ground"),
        EntityInfo("climate.kitchen", "Thermostat", (), "Kitchen", "heat", {}),
        EntityInfo(
            "cover.kitchen_blind",
            "Blind",
            (),
            "Kitchen",
            "open",
            {},
            {"device_class": "blind"},
            floor="Ground",
        ),
        EntityInfo("switch.kettle", "Kettle", (), "Kitchen", "off", {}),
        EntityInfo("lock.kitchen_door", "Kitchen Door", (), "Kitchen", "locked", {}),
        EntityInfo("lock.sliding_doors", "Sliding Doors", (), "Patio", "locked", {}),
    ]
    catalog = small_catalog(home, ["Kitchen", "Patio"], None)
    return Catalog(
        **{
            **{f: getattr(catalog, f) for f in catalog.__dataclass_fields__},
            "area_floors": {"Kitchen": "Ground", "Patio": None},
        }
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn off all the lights in the kitchen", "en"),
        ("Mach alle Lichter in der Küche aus", "de"),
        ("éteins toutes les lumières de la cuisine", "fr"),
    ],
)
def test_all_of_a_kind_is_that_kind_not_everything_there(
    text: str, language: str
) -> None:
    """All the lights in a room are its lights, never its thermostat or blind."""
    names = {"Kitchen": {"de": "Küche", "fr": "Cuisine"}.get(language, "Kitchen")}
    catalog = _renamed(_kitchen_of(language), names)

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, [], CONFIRM
    )

    assert planned == Plan((Action("light.turn_off", ("light.ceiling",)),), "", 1.0)


def _renamed(catalog: Catalog, names: dict[str, str]) -> Catalog:
    """The same home with its rooms named in the speaker's language."""
    exposed = {
        e: EntityInfo(
            i.entity_id,
            i.name,
            i.aliases,
            names.get(i.area or "", i.area),
            i.state,
            i.attributes,
            i.all_attributes,
            i.floor,
        )
        for e, i in catalog.exposed.items()
    }
    area_floors = {names.get(a, a): f for a, f in catalog.area_floors.items()}
    return Catalog(
        **{
            **{f: getattr(catalog, f) for f in catalog.__dataclass_fields__},
            "exposed": exposed,
            "entities": list(exposed.values()),
            "listed": list(exposed.values()),
            "areas": list(area_floors),
            "area_floors": area_floors,
        }
    )


def test_a_kind_said_that_the_verb_fits_nowhere_is_not_the_rest_of_the_room() -> None:
    """Saying "open the lights in the kitchen" opens no blind: the kind decides."""
    assert (
        plan_from_reading(
            read(Said.of("open the lights in the kitchen", "en"), _kitchen_of("en")),
            _kitchen_of("en"),
            [],
            CONFIRM,
        )
        is None
    )


def test_a_verb_word_in_a_place_name_is_the_places() -> None:
    """In "planta baja", "baja" (lower) names the floor; no blind is lowered."""
    catalog = _renamed(_kitchen_of("es"), {"Kitchen": "Cocina"})
    catalog = Catalog(
        **{
            **{f: getattr(catalog, f) for f in catalog.__dataclass_fields__},
            "area_floors": {"Cocina": "Planta baja", "Patio": None},
        }
    )
    catalog.exposed["light.ceiling"] = EntityInfo(
        "light.ceiling", "Techo", (), "Cocina", "off", {}, floor="Planta baja"
    )

    reading = read(Said.of("enciende las luces de la planta baja", "es"), catalog)

    assert reading.verbs == {Verb.ON}
    assert plan_from_reading(reading, catalog, [], CONFIRM) == Plan(
        (Action("light.turn_on", ("light.ceiling",)),), "", 1.0
    )


def test_a_kind_said_in_the_plural_in_a_place_is_that_places() -> None:
    """Locking "the kitchen doors" never locks the patio's Sliding Doors.

    "Doors" is a kind's word as "door" is: it names no device by itself.
    """
    reading = read(Said.of("lock the kitchen doors", "en"), _kitchen_of("en"))
    planned = plan_from_reading(reading, _kitchen_of("en"), [], CONFIRM)

    assert "lock.sliding_doors" not in reading.mentions.entities
    assert not isinstance(planned, Plan) or "lock.sliding_doors" not in {
        t for a in planned.actions for t in a.targets
    }


def test_a_kind_in_the_plural_with_a_place_keeps_to_the_place() -> None:
    """Turning off the ceiling strip lights in the kitchen leaves the office's."""
    home = [
        _entity("light.office_ceiling", "Office Ceiling Light", "Office", "on"),
        _entity("light.strip", "Ceiling Strip Light", "Kitchen", "on"),
        _entity("light.cabinet", "Cabinet Light", "Kitchen", "on"),
    ]
    catalog = small_catalog(home, ["Kitchen", "Office"], None)

    planned = plan_from_reading(
        read(
            Said.of("turn off the ceiling strip lights in the kitchen", "en"), catalog
        ),
        catalog,
        [],
        CONFIRM,
    )

    assert planned == Plan((Action("light.turn_off", ("light.strip",)),), "", 1.0)


def test_a_question_about_an_english_named_door_in_german_keeps_the_lock() -> None:
    """Asked "ist die Hintertür abgeschlossen?", the lock answers, not the sensor alone.

    In a question "geschlossen" is a state, no noun that picks the contact
    sensor; and "Back Door Lock" said without its own kind word is said in
    full, in whatever language the home is named.
    """
    home = [
        _entity("lock.back_door", "Back Door Lock", "Kitchen", "locked"),
        _entity("binary_sensor.back_door", "Back Door", "Kitchen", device_class="door"),
    ]
    catalog = small_catalog(home, ["Kitchen"], "Kitchen")

    reading = read(Said.of("Ist die Hintertür abgeschlossen?", "de"), catalog)

    assert "lock.back_door" in reading.mentions.entities


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Wie warm ist es hier drin?", "de"),
        ("¿Qué temperatura hace aquí dentro?", "es"),
        ("Che temperatura c'è qui dentro?", "it"),
        ("Hoe warm is het hierbinnen?", "nl"),
    ],
)
def test_in_here_is_the_speakers_room(text: str, language: str) -> None:
    """Saying "in here" leaves no word open, as "here" did."""
    reading = read(Said.of(text, language), _catalog("Kitchen"))

    assert reading.question
    assert not set(reading.unexplained) - reading.question_words


# An English-named living room and bedroom, spoken to in French and German.
_ROOMS = [
    _entity("light.living_room_ceiling", "Living Room Light", "Living Room"),
    _entity("light.living_room_lamp", "Living Room Lamp", "Living Room"),
    _entity("cover.bedroom_shades", "Bedroom Shades", "Bedroom", device_class="shade"),
    _entity(
        "sensor.bedroom_temperature",
        "Bedroom Temperature",
        "Bedroom",
        "18.5",
        device_class="temperature",
    ),
]


def _rooms_plan(text: str, language: str) -> Plan | Choice | None:
    catalog = small_catalog(_ROOMS, ["Living Room", "Bedroom"], "Living Room")
    return plan_from_reading(
        read(Said.of(text, language), catalog), catalog, [], CONFIRM
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Allume le lampadaire", "fr"),
        ("Mach die Stehlampe an", "de"),
        ("Pon la lámpara de pie", "es"),
        ("Accendi la piantana", "it"),
        ("Doe de staande lamp aan", "nl"),
        ("turn on the floor lamp", "en"),
    ],
)
def test_a_lamp_no_name_says_is_the_one_called_a_lamp(text: str, language: str) -> None:
    """A floor lamp said where no name says so: the light called a lamp."""
    planned = _rooms_plan(text, language)

    assert isinstance(planned, Plan)
    assert [a.targets for a in planned.actions] == [("light.living_room_lamp",)]


def test_a_fixture_that_is_no_lamp_is_asked_about() -> None:
    """A ceiling light where no name says so: which light is asked, none switched."""
    assert _rooms_plan("Mach die Deckenlampe aus", "de") == Choice(
        ("light.living_room_ceiling", "light.living_room_lamp")
    )


def test_a_lamp_among_lamps_is_asked_about() -> None:
    """Two lights called lamps and a floor lamp said: which of those two."""
    home = [
        *_ROOMS,
        _entity("light.reading_lamp", "Reading Lamp", "Living Room"),
    ]
    catalog = small_catalog(home, ["Living Room", "Bedroom"], "Living Room")

    planned = plan_from_reading(
        read(Said.of("Allume le lampadaire", "fr"), catalog), catalog, [], CONFIRM
    )

    assert planned == Choice(("light.living_room_lamp", "light.reading_lamp"))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Ouvre le volet de la chambre", "fr"),
        ("Mach die Rollläden im Schlafzimmer auf", "de"),
        ("Open the bedroom shutters", "en"),
    ],
)
def test_a_window_covering_stands_for_another_where_none_is_so(
    text: str, language: str
) -> None:
    """A shutter said in a bedroom with shades: the shades, not nothing."""
    assert _rooms_plan(text, language) == Plan(
        (Action("cover.open_cover", ("cover.bedroom_shades",)),), "", 1.0
    )


@pytest.mark.parametrize(
    "text",
    [
        "Est-ce que le volet de la chambre est fermé ?",
        "Quelle température fait-il dans la chambre ?",
    ],
)
def test_a_french_questions_shape_asks_nothing_of_the_home(text: str) -> None:
    """The question's shape ("est-ce que", "fait-il") is not left open."""
    catalog = small_catalog(_ROOMS, ["Living Room", "Bedroom"], "Living Room")
    reading = read(Said.of(text, "fr"), catalog)

    assert reading.question
    assert set(reading.unexplained) <= reading.question_words


PLAYERS = [
    _entity("media_player.kitchen_speaker", "Kitchen Speaker", "Kitchen", "playing"),
    _entity(
        "media_player.living_speaker", "Living Room Speaker", "Living Room", "paused"
    ),
    _entity("vacuum.robbie", "Robbie", "Kitchen", "cleaning"),
    _entity("light.kitchen_ceiling", "Kitchen Ceiling", "Kitchen", "on"),
]


@pytest.mark.parametrize(
    ("language", "text", "tool", "target"),
    [
        ("en", "pause the music in the kitchen", "media_player.media_pause", "kitchen"),
        ("en", "resume the living room speaker", "media_player.media_play", "living"),
        (
            "de",
            "pausiere die Musik in der Küche",
            "media_player.media_pause",
            "kitchen",
        ),
        (
            "de",
            "setz die Musik im Wohnzimmer fort",
            "media_player.media_play",
            "living",
        ),
        (
            "fr",
            "mets la musique en pause dans la cuisine",
            "media_player.media_pause",
            "kitchen",
        ),
        (
            "fr",
            "reprends la musique dans le salon",
            "media_player.media_play",
            "living",
        ),
        (
            "es",
            "pon la música en pausa en la cocina",
            "media_player.media_pause",
            "kitchen",
        ),
        ("es", "reanuda la música en el salón", "media_player.media_play", "living"),
        (
            "it",
            "metti in pausa la musica in cucina",
            "media_player.media_pause",
            "kitchen",
        ),
        ("it", "riprendi la musica in soggiorno", "media_player.media_play", "living"),
        ("nl", "pauzeer de muziek in de keuken", "media_player.media_pause", "kitchen"),
        ("nl", "hervat de muziek in de woonkamer", "media_player.media_play", "living"),
        ("en", "pause the vacuum", "vacuum.pause", "robbie"),
        ("es", "pausa la aspiradora", "vacuum.pause", "robbie"),
    ],
)
def test_pause_and_resume_are_read(
    language: str, text: str, tool: str, target: str
) -> None:
    """Hold what plays, or go on with it, on the player said; a vacuum too.

    With another kind said, "pause" is no music: the vacuum pauses alone.
    """
    catalog = small_catalog(PLAYERS, ["Kitchen", "Living Room"], "Kitchen")

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, (), CONFIRM
    )

    assert isinstance(planned, Plan)
    ((action),) = planned.actions
    assert action.tool == tool
    assert [t.partition(".")[2].split("_")[0] for t in action.targets] == [target]


def test_a_reversed_pause_is_against_the_words() -> None:
    """A model that resumes what was to be paused, or the other way round."""
    catalog = small_catalog(PLAYERS, ["Kitchen", "Living Room"], "Kitchen")
    resume = Plan(
        (Action("media_player.media_play", ("media_player.kitchen_speaker",)),), "", 0.9
    )
    pause = Plan(
        (Action("media_player.media_pause", ("media_player.living_speaker",)),), "", 0.9
    )

    assert against_the_words(
        resume, read(Said.of("pause the kitchen speaker", "en"), catalog)
    )
    assert against_the_words(
        pause, read(Said.of("riprendi la musica in soggiorno", "it"), catalog)
    )
    assert not against_the_words(pause, read(Said.of("pause the music", "en"), catalog))


def test_a_verb_said_in_several_words_names_no_place() -> None:
    """Dutch "naar beneden" closes; "beneden" is also the ground floor here."""
    home = [
        _entity("cover.living_shutter", "Rolluik", "Woonkamer", "open"),
        _entity("cover.kitchen_shutter", "Rolluik", "Keuken", "open"),
    ]
    catalog = small_catalog(home, ["Woonkamer", "Keuken"], "Keuken")
    catalog.area_floors.update({"Woonkamer": "Beneden", "Keuken": "Boven"})

    planned = plan_from_reading(
        read(Said.of("de rolluiken in de woonkamer naar beneden", "nl"), catalog),
        catalog,
        (),
        CONFIRM,
    )

    assert planned == Plan(
        (Action("cover.close_cover", ("cover.living_shutter",)),), "", 1.0
    )


def test_a_small_degree_is_a_degree() -> None:
    """Dutch "een graadje hoger": the diminutive of a unit is the unit."""
    reading = read(
        Said.of("zet de thermostaat een graadje hoger", "nl"), _catalog("Hallway")
    )

    assert not reading.unexplained
    assert Verb.UP in reading.verbs


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("open the back door lock", "en"),
        ("Abre la cerradura de la puerta trasera", "es"),
    ],
)
def test_opening_a_lock_named_unlocks_it(text: str, language: str) -> None:
    """Opening a lock named is an unlock (the gate then asks first)."""
    planned = plan_from_reading(
        read(Said.of(text, language), _catalog("Hallway")),
        _catalog("Hallway"),
        (),
        CONFIRM,
    )

    assert planned == Plan((Action("lock.unlock", ("lock.back_door_lock",)),), "", 1.0)


def test_opening_a_room_opens_no_lock() -> None:
    """Opening the hallway names no lock: the lock there stays as it is."""
    planned = _plan("open the hallway", area="Hallway")

    assert not (
        isinstance(planned, Plan)
        and any(a.tool.startswith("lock.") for a in planned.actions)
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn off the lights in the kitchen", "en"),
        ("Apaga las luces de la cocina", "es"),
        ("Mach die Lichter in der Küche aus", "de"),
    ],
)
def test_a_kinds_own_name_calls_every_device_of_it(text: str, language: str) -> None:
    """All the lights there, not only the one whose name says lights."""
    home = [
        _entity("light.cabinets", "Cabinet Lights", "Kitchen", "on"),
        _entity("light.ceiling", "Ceiling", "Kitchen", "on"),
    ]
    catalog = small_catalog(home, ["Kitchen"], "Kitchen")

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, (), CONFIRM
    )

    assert planned == Plan(
        (Action("light.turn_off", ("light.cabinets", "light.ceiling")),), "", 1.0
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [("chiudi tutte le tende", "it"), ("close all the curtains", "en")],
)
def test_a_name_says_the_class_no_attribute_does(text: str, language: str) -> None:
    """A cover called "Garage", with no device class set, is no curtain."""
    home = [
        _entity("cover.garage", "Garage", "Garage", "open"),
        _entity(
            "cover.left", "Tenda Sinistra", "Soggiorno", "open", device_class="curtain"
        ),
        _entity("cover.window", "Window Cover", "Soggiorno", "open"),
    ]
    catalog = small_catalog(home, ["Garage", "Soggiorno"], None)

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, (), CONFIRM
    )

    assert isinstance(planned, Plan)
    (action,) = planned.actions
    assert "cover.garage" not in action.targets
    assert "cover.left" in action.targets


def test_a_name_that_is_its_kinds_word_yields_to_the_place_said() -> None:
    """A fan called "Ventilatore" in the living room; the kitchen's is meant."""
    home = [
        _entity("fan.ventilatore", "Ventilatore", "Soggiorno"),
        _entity("fan.kitchen", "Cucina Fan", "Cucina"),
    ]
    catalog = small_catalog(home, ["Soggiorno", "Cucina"], None)

    def planned(text: str) -> Plan | Choice | None:
        return plan_from_reading(
            read(Said.of(text, "it"), catalog), catalog, (), CONFIRM
        )

    assert planned("accendi il ventilatore in cucina") == Plan(
        (Action("fan.turn_on", ("fan.kitchen",)),), "", 1.0
    )
    assert planned("accendi il ventilatore") == Plan(
        (Action("fan.turn_on", ("fan.ventilatore",)),), "", 1.0
    )


def test_the_rooms_blinds_before_another_rooms_shutters() -> None:
    """Shutters only in the kitchen, blinds here: "open the shutters" opens these."""
    home = [
        _entity(
            "cover.back_door",
            "Rolluik Achterdeur",
            "Keuken",
            "closed",
            device_class="shutter",
        ),
        _entity(
            "cover.living",
            "Woonkamer Blind",
            "Woonkamer",
            "closed",
            device_class="blind",
        ),
    ]
    catalog = small_catalog(home, ["Keuken", "Woonkamer"], "Woonkamer")

    planned = plan_from_reading(
        read(Said.of("Hier de rolluiken openen", "nl"), catalog), catalog, (), CONFIRM
    )

    assert planned == Plan((Action("cover.open_cover", ("cover.living",)),), "", 1.0)


@pytest.mark.parametrize(
    ("language", "text", "floor", "kind", "named", "other", "service"),
    [
        (
            "fr",
            "Verrouille la serrure Aqara du rez-de-chaussée",
            "rez-de-chaussée",
            "lock",
            "serrure Aqara",
            "porte d'entrée",
            "lock",
        ),
        # "Luce" loses its ending as "luci" does: no plural for that.
        (
            "it",
            "Spegni la luce Aqara al piano terra",
            "piano terra",
            "light",
            "Luce Aqara",
            "Plafoniera",
            "turn_off",
        ),
    ],
)
def test_a_kind_word_beside_a_name_adds_no_others_of_the_kind(
    language: str,
    text: str,
    floor: str,
    kind: str,
    named: str,
    other: str,
    service: str,
) -> None:
    """The Aqara one of the ground floor: that device, not every one there."""
    home = [
        replace(_entity(f"{kind}.aqara", named, "A", "on"), floor=floor),
        replace(_entity(f"{kind}.other", other, "B", "on"), floor=floor),
    ]
    catalog = small_catalog(home, ["A", "B"], None)
    catalog.area_floors.update(dict.fromkeys(["A", "B"], floor))

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, (), CONFIRM
    )

    assert planned == Plan((Action(f"{kind}.{service}", (f"{kind}.aqara",)),), "", 1.0)


def test_a_kinds_own_name_on_a_floor_is_every_light_there() -> None:
    """The light in the first floor: all of them, not the one called a light."""
    floor = "First floor"
    home = [
        replace(_entity("light.garage", "Garage Light", "Garage", "on"), floor=floor),
        replace(_entity("light.ceiling", "Ceiling", "Kitchen", "on"), floor=floor),
    ]
    catalog = small_catalog(home, ["Garage", "Kitchen"], None)
    catalog.area_floors.update(dict.fromkeys(["Garage", "Kitchen"], floor))

    planned = plan_from_reading(
        read(Said.of("turn the light in the first floor off", "en"), catalog),
        catalog,
        (),
        CONFIRM,
    )

    assert planned == Plan(
        (Action("light.turn_off", ("light.ceiling", "light.garage")),), "", 1.0
    )


def test_the_same_elsewhere_is_one_action_per_call() -> None:
    """Two lights turned on one by one here: one turn_on for the office's lamp."""
    last = [
        ExecutedAction("light.turn_on", ["light.kitchen_ceiling"], {}),
        ExecutedAction("light.turn_on", ["light.kitchen_counter"], {}),
    ]

    assert _plan("do the same in the office", "Kitchen", last) == Plan(
        (Action("light.turn_on", ("light.office_lamp",)),), "", 1.0
    )


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn off the den lights", "en"),
        ("switch the den lights off", "en"),
    ],
)
def test_on_or_off_said_never_unlocks(text: str, language: str) -> None:
    """A lock is locked, never switched off: "the den lights" unlock no "Den Lock".

    Home Assistant's own TurnOff intent unlocks a lock it names; words the
    reading plans from never do.
    """
    home = [
        _entity("lock.den", "Den Lock", None, "locked"),
        _entity("light.kitchen", "Kitchen Light", "Kitchen", "on"),
    ]
    catalog = small_catalog(home, ["Kitchen"], None)

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, [], CONFIRM
    )

    tools = [a.tool for a in planned.actions] if isinstance(planned, Plan) else []
    assert "lock.unlock" not in tools


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn on the office fan", "en"),
        ("schalte den Arbeitszimmer Ventilator ein", "de"),
        ("allume le ventilateur Arbeitszimmer", "fr"),
    ],
)
def test_a_noun_of_another_kind_keeps_a_name_from_being_read(
    text: str, language: str
) -> None:
    """A fan said is no "Office Light": "the office fan" names no such fan.

    A name said without its own kind word ("Office" of Office Light), or in
    part, names it only where no noun says another kind in its place.
    """
    home = [
        _entity("light.office", "Office Light", None),
        _entity("light.arbeitszimmer", "Arbeitszimmer Licht", None),
        _entity("fan.porch", "Porch Fan", None),
    ]
    catalog = small_catalog(home, [], None)

    reading = read(Said.of(text, language), catalog)

    assert not reading.mentions.entities & {"light.office", "light.arbeitszimmer"}


def test_a_kind_word_of_a_name_is_no_plural() -> None:
    """A name said whole ("Master Bedroom Lights") is one light, not every light.

    Its "Lights" is the name's word; "brightness" beside it is a light's
    word, said once. A home without areas has every light "here".
    """
    home = [
        _entity("light.master_bedroom", "Master Bedroom Lights", None),
        _entity("light.hallway", "Hallway Lights", None),
        _entity("light.office", "Office Light", None),
    ]
    catalog = small_catalog(home, [], None)

    planned = plan_from_reading(
        read(Said.of("turn on Master Bedroom Lights to 51% brightness", "en"), catalog),
        catalog,
        [],
        CONFIRM,
    )

    assert planned == Plan(
        (Action("light.turn_on", ("light.master_bedroom",), {"brightness_pct": 51.0}),),
        "",
        1.0,
    )


@pytest.mark.parametrize(
    ("text", "language", "verb"),
    [
        ("¿Está abierta la puerta de atrás?", "es", Verb.OPEN),
        ("¿La puerta de atrás está cerrada con llave?", "es", Verb.LOCK),
        ("La porte de derrière est-elle fermée ?", "fr", Verb.CLOSE),
        ("La porta sul retro è chiusa a chiave?", "it", Verb.LOCK),
        ("Ist die Hintertür abgeschlossen?", "de", Verb.LOCK),
        ("Is de achterdeur vergrendeld?", "nl", Verb.LOCK),
    ],
)
def test_a_participle_is_the_state_a_question_asks(
    text: str, language: str, verb: Verb
) -> None:
    """A participle ("abierta", "cerrada con llave") is the state asked of."""
    reading = read(Said.of(text, language), _catalog())

    assert reading.question
    assert reading.verbs - {Verb.SET} == {verb}


def test_a_participle_in_an_automations_question_is_no_verb() -> None:
    """A participle in an automation's question is no verb: the state it reports.

    "La puerta lleva 10 minutos abierta, ¿la cierro?" asks to close it.
    """
    reading = read(
        Said.of("No, todavía no", "es"),
        _catalog(),
        automation="La puerta lleva 10 minutos abierta, ¿la cierro?",
    )

    assert Verb.OPEN not in reading.verbs


def test_a_name_and_a_kind_of_another_domain_are_both_acted_on() -> None:
    """A TV named ("TV") and a lamp said ("turn off the tv and the lamp"): both go off.

    A singular kind beside a name is that name's only when it is the name's
    own kind ("the Aqara lock"); the lamp is no TV.
    """
    home = [
        EntityInfo(
            "media_player.tv", "Living Room TV", ("TV",), "Living Room", "on", {}
        ),
        _entity("light.lamp", "Living Room Lamp", "Living Room", "on"),
        _entity("light.bedroom", "Bedroom Lamp", "Bedroom", "on"),
    ]
    catalog = small_catalog(home, ["Living Room", "Bedroom"], "Living Room")

    planned = plan_from_reading(
        read(Said.of("turn off the tv and the lamp", "en"), catalog),
        catalog,
        [],
        CONFIRM,
    )

    assert planned == Plan(
        (
            Action("media_player.turn_off", ("media_player.tv",)),
            Action("light.turn_off", ("light.lamp",)),
        ),
        "",
        1.0,
    )


def test_climate_is_a_kind_word_not_a_part_of_a_name() -> None:
    """A kind's own word ("climate") said after a name names no other device.

    "The Netatmo Smart Thermostat climate" is no "Humidor Climate Control".
    """
    home = [
        _entity("climate.netatmo", "Netatmo Smart Thermostat", None, "heat"),
        _entity("climate.humidor", "Humidor Climate Control", None, "heat"),
    ]
    catalog = small_catalog(home, [], None)

    reading = read(
        Said.of("Turn off the Netatmo Smart Thermostat climate", "en"), catalog
    )

    assert reading.mentions.entities == {"climate.netatmo"}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn on the kitchen lights and set them to 30 percent", "en"),
        ("Mach die Lichter in der Küche an und stell sie auf 30 Prozent", "de"),
        ("Allume les lumières de la cuisine et mets-les à 30 pour cent", "fr"),
    ],
)
def test_a_pronoun_after_a_kind_said_is_that_kind(text: str, language: str) -> None:
    """A pronoun ("them") after a kind said in the same words is those devices.

    Not what the last turn acted on: with nothing acted on before, "them"
    is the kitchen's lights.
    """
    catalog = _catalog("Kitchen")

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, [], CONFIRM
    )

    assert planned == Plan(
        (
            Action(
                "light.turn_on",
                ("light.kitchen_ceiling", "light.kitchen_counter"),
                {"brightness_pct": 30.0},
            ),
        ),
        "",
        1.0,
    )


def test_lock_it_after_asking_of_the_door_locks_its_lock() -> None:
    """A pronoun for a door's contact sensor, locked, is the door's lock.

    "Lock it" after "is the back door open?" locks the Back Door Lock.
    """
    home = [
        _entity("lock.back_door", "Back Door Lock", "Kitchen", "unlocked"),
        _entity("binary_sensor.back_door", "Back Door", "Kitchen", device_class="door"),
    ]
    catalog = small_catalog(home, ["Kitchen"], "Kitchen")

    planned = plan_from_reading(
        read(Said.of("lock it", "en"), catalog),
        catalog,
        [],
        CONFIRM,
        referred=["binary_sensor.back_door"],
    )

    assert planned == Plan((Action("lock.lock", ("lock.back_door",)),), "", 1.0)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("öffne alle Rollos", "de"),
        ("abre todas las persianas", "es"),
        ("doe alle jaloezieën open", "nl"),
    ],
)
def test_a_cover_word_is_the_class_home_assistant_gives_it(
    text: str, language: str
) -> None:
    """HA's sentences say blinds for "Rollos", "persianas": the parasol stays shut.

    The terrace's shade is a window covering too, but a blind is there.
    """
    home = [
        _entity("cover.rollo", "Links", "Wohnzimmer", "closed", device_class="blind"),
        _entity("cover.schirm", "Westen", "Terrasse", "closed", device_class="shade"),
    ]
    catalog = small_catalog(home, ["Wohnzimmer", "Terrasse"], None)

    planned = plan_from_reading(
        read(Said.of(text, language), catalog), catalog, [], CONFIRM
    )

    assert planned == Plan((Action("cover.open_cover", ("cover.rollo",)),), "", 1.0)


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        ("unlock the entry lock", {Verb.UNLOCK}),
        ("unlock it, then lock the window", {Verb.UNLOCK, Verb.LOCK}),
        ("lock the back door", {Verb.LOCK}),
    ],
)
def test_a_kind_said_last_is_no_verb(text: str, verbs: set[Verb]) -> None:
    """The "lock" that ends "unlock the entry lock" is the lock; one before "it" acts."""
    assert read(Said.of(text, "en"), _catalog()).verbs == verbs


@pytest.mark.parametrize(
    ("text", "language", "verbs"),
    [
        ("cancel the trip to vegas next week", "en", set()),
        ("mute it for the next hour please", "en", set()),
        ("skip to the next song", "en", {Verb.NEXT}),
        ("was habe ich nächste Woche vor", "de", set()),
        ("nächster Titel", "de", {Verb.NEXT}),
        ("qu'est-ce que j'ai la semaine suivante", "fr", set()),
        ("la prossima settimana", "it", set()),
        ("wat doe ik volgende week", "nl", set()),
        ("volgende nummer", "nl", {Verb.NEXT}),
    ],
)
def test_the_next_week_skips_no_track(
    text: str, language: str, verbs: set[Verb]
) -> None:
    """Beside a span of time, a word for the next or previous is no verb."""
    assert read(Said.of(text, language), _catalog()).verbs == verbs


def test_parts_of_names_of_several_kinds_name_none() -> None:
    """A thermostat's "smart", a player's "home", a vacuum's "cleaning bot".

    "Start the smart home cleaning bot" names one device the home lacks:
    nothing is planned (home-llm's refusal of a device not there).
    """
    home = [
        _entity("climate.netatmo", "Netatmo Smart Thermostat", None, "off"),
        _entity("media_player.theater", "Home Theater Media", None, "off"),
        _entity("vacuum.helper", "Craft room cleaning bot", None, "docked"),
    ]
    catalog = small_catalog(home, [], None)

    reading = read(Said.of("Start the Smart home cleaning bot.", "en"), catalog)

    assert reading.mentions.entities == frozenset()
    assert plan_from_reading(reading, catalog, [], CONFIRM) is None


@pytest.mark.parametrize(
    ("text", "language", "home"),
    [
        # Locks said: a shutter in the kitchen is not what "open" meant.
        (
            "alle keukensloten open",
            "nl",
            [
                _entity("lock.keukendeur", "Keukendeur", "Keuken", "locked"),
                _entity(
                    "cover.rolluik",
                    "Rolluik",
                    "Keuken",
                    "closed",
                    device_class="shutter",
                ),
            ],
        ),
        # Gates said ("Tore"): the floor's awning is no gate.
        (
            "macht alle Tore im Erdgeschoss auf",
            "de",
            [
                _entity(
                    "cover.tor", "Einfahrt", "Auffahrt", "closed", device_class="gate"
                ),
                _entity(
                    "cover.markise",
                    "Markise",
                    "Terrasse",
                    "closed",
                    device_class="awning",
                ),
            ],
        ),
    ],
)
def test_a_model_opening_another_kind_in_the_place_is_not_grounded(
    text: str, language: str, home: list[EntityInfo]
) -> None:
    """The model opens a cover of the place; the words said another kind."""
    home = [replace(info, floor="Erdgeschoss") for info in home]
    areas = sorted({info.area for info in home if info.area})
    catalog = replace(
        small_catalog(home, areas, None),
        area_floors=dict.fromkeys(areas, "Erdgeschoss"),
    )
    wrong = next(
        info.entity_id
        for info in home
        if info.domain == "cover" and info.entity_id != "cover.tor"
    )
    plan = Plan((Action("cover.open_cover", (wrong,)),), "", 1.0)

    verdict = check_grounding(
        plan, read(Said.of(text, language), catalog).mentions, catalog, (), (), CONFIRM
    )

    assert isinstance(verdict, Ungrounded)


def test_doors_said_with_a_lock_verb_are_their_locks() -> None:
    """Doors cannot be locked; "op slot" in the kitchen means its door's lock."""
    home = [
        _entity("lock.keukendeur", "Keukendeur", "Keuken", "unlocked"),
        _entity("binary_sensor.deur", "Achterdeur", "Keuken", device_class="door"),
    ]
    catalog = small_catalog(home, ["Keuken"], None)
    reading = read(Said.of("Doe alle deuren op slot in de keuken", "nl"), catalog)
    plan = Plan((Action("lock.lock", ("lock.keukendeur",)),), "", 1.0)

    verdict = check_grounding(plan, reading.mentions, catalog, (), (), CONFIRM)

    assert isinstance(verdict, Grounded)


@pytest.mark.parametrize(
    ("text", "language", "yes_no"),
    [
        ("ist was an?", "de", True),
        ("was ist an?", "de", False),
        ("is er wat aan?", "nl", True),
        ("wat staat er aan?", "nl", False),
        ("is anything on?", "en", True),
        ("which lights are on?", "en", False),
        # A complaint asked leaves no words of its own after its frame.
        ("zu kalt?", "de", True),
        ("too cold?", "en", True),
    ],
)
def test_a_question_opened_by_its_verb_asks_yes_or_no(
    text: str, language: str, yes_no: bool
) -> None:
    """After the verb, "was" and "wat" are "something", not "what"."""
    assert read(Said.of(text, language), _catalog()).yes_no is yes_no
