"""Each of the reading's passes (reading_passes.py) does what it is there for.

One test per pass, in the order they run, each through the public reading
(`read`) on a small home without Home Assistant: each fails with its pass
left out of `PASSES`.
"""

from __future__ import annotations

import pytest

from custom_components.intent_router.core.records import EntityInfo
from custom_components.intent_router.core.said import Said
from custom_components.intent_router.home.catalog import Catalog
from custom_components.intent_router.language import Unit, Verb
from custom_components.intent_router.reading.reading import Reading, read
from custom_components.intent_router.reading.values import Value

from .helpers import small_catalog


def _entity(
    entity_id: str, name: str, area: str | None, state: str = "off", **attributes: str
) -> EntityInfo:
    return EntityInfo(entity_id, name, (), area, state, {}, attributes)


HOME = [
    _entity("lock.back_door_lock", "Back Door Lock", "Hallway", "locked"),
    _entity("switch.kettle", "Kettle", "Kitchen"),
    _entity("light.kitchen_ceiling", "Kitchen Ceiling", "Kitchen", "on"),
    _entity("fan.office", "Office Fan", "Office"),
    _entity(
        "cover.garage_door", "Garage Door", "Garage", "closed", device_class="garage"
    ),
    _entity("media_player.kitchen_speaker", "Kitchen Speaker", "Kitchen", "playing"),
    _entity("climate.hallway", "Thermostat", "Hallway", "heat"),
    _entity("script.movie_night", "Movie Night", None),
    _entity("vacuum.robot", "Robot", "Hallway", "docked"),
]


def _home() -> Catalog:
    return small_catalog(HOME, ["Hallway", "Kitchen", "Office", "Garage"], "Kitchen")


def _read(
    text: str,
    language: str = "en",
    *,
    automation: str | None = None,
    asked: str | None = None,
) -> Reading:
    return read(Said.of(text, language), _home(), automation=automation, asked=asked)


def test_hear_own_words_reads_a_misspelt_verb_as_the_verb() -> None:
    """`hear_own_words`: "trun of" is "turn off", the kettle still its name."""
    reading = _read("trun of the kettle")

    assert reading.verbs == {Verb.OFF}
    assert reading.mentions.entities == {"switch.kettle"}


def test_lend_what_was_asked_to_an_answer_not_to_a_new_command() -> None:
    """`lend_what_was_asked`: an automation's question lends its words.

    The agent's own question lends its verb to an answer with none of its
    own ("the kitchen one"), not to a new command ("turn on the kettle").
    """
    answer = _read("yes", automation="Shall I close the garage door?")
    assert answer.mentions.entities == {"cover.garage_door"}
    assert answer.verbs == {Verb.CLOSE}

    asked = "Which light should I turn off?"
    assert _read("the kitchen one", asked=asked).verbs == {Verb.OFF}
    assert _read("turn on the kettle", asked=asked).verbs == {Verb.ON}


def test_set_complaints_apart_reads_a_kind_and_a_step() -> None:
    """`set_complaints_apart`: "too dark" is the lights, brighter; "it's" is read."""
    reading = _read("it's too dark in the kitchen")

    assert reading.complaint == {"light"}
    assert reading.verbs == {Verb.UP}
    assert reading.unexplained == ()


@pytest.mark.parametrize(
    ("text", "language", "complaint", "verb"),
    [
        ("it's dark in here", "en", "light", Verb.UP),
        ("it's getting cold in the office", "en", "climate", Verb.UP),
        ("es ist laut hier", "de", "media_player", Verb.DOWN),
        ("il fait sombre ici", "fr", "light", Verb.UP),
        ("está oscuro aquí", "es", "light", Verb.UP),
        ("het is hier koud", "nl", "climate", Verb.UP),
        ("è buio qui", "it", "light", Verb.UP),
    ],
)
def test_set_complaints_apart_reads_a_bare_complaint_in_a_place(
    text: str, language: str, complaint: str, verb: Verb
) -> None:
    """A complaint's word with no "too", after its frame, where a place is said."""
    reading = _read(text, language)

    assert reading.complaint == {complaint}
    assert reading.verbs == {verb}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("it's pitch black in here", "en"),
        ("hier ist es stockdunkel", "de"),
        ("on est dans le noir", "fr"),
        ("estoy a oscuras", "es"),
        ("het is pikdonker", "nl"),
        ("c'è buio pesto", "it"),
    ],
)
def test_set_complaints_apart_reads_darkness_said_whole(
    text: str, language: str
) -> None:
    """Darkness said as people say it ("pitch black") complains of the lights."""
    reading = _read(text, language)

    assert reading.complaint == {"light"}
    assert reading.verbs == {Verb.UP}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("make the kitchen ceiling a touch brighter", "en"),
        ("mach das Kitchen Ceiling ein Tick heller", "de"),
        ("monte Kitchen Ceiling d'un poil", "fr"),
        ("sube un pelín Kitchen Ceiling", "es"),
        ("zet Kitchen Ceiling een tikje feller", "nl"),
        ("alza un pelo Kitchen Ceiling", "it"),
    ],
)
def test_find_values_hears_no_amount_in_a_touch(text: str, language: str) -> None:
    """Said "a touch", "ein Tick", "un poil": a step, no amount, nothing unread."""
    reading = _read(text, language)

    assert reading.values == ()
    assert reading.unexplained == ()
    assert Verb.UP in reading.verbs


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("it's cold today", "en"),
        ("it's dark already", "en"),
        ("es ist kalt", "de"),
        ("make the kitchen ceiling really bright", "en"),
    ],
)
def test_a_bare_complaint_needs_a_place_and_no_verb(text: str, language: str) -> None:
    """Said "it's cold today", it may be the weather; "make … bright" asks."""
    assert _read(text, language).complaint == frozenset()


def test_decide_question_and_whether_it_asks_yes_or_no() -> None:
    """`decide_question`: a question, yes or no unless it asks which.

    A complaint that opens like a question ("hace frío") asks nothing.
    """
    kettle = _read("is the kettle on?")
    assert kettle.question
    assert kettle.yes_no

    which = _read("which lights are on?")
    assert which.question
    assert not which.yes_no

    assert Said.of("hace frío en la cocina", "es").question
    assert not _read("hace frío en la cocina", "es").question


@pytest.mark.parametrize(
    ("text", "language", "verbs"),
    [
        ("turn off the kettle", "en", {Verb.OFF}),
        ("mach sie aus", "de", {Verb.OFF}),
        ("éteins-la", "fr", {Verb.OFF}),
        # A participle in a question says the state asked of.
        ("ist sie abgeschlossen?", "de", {Verb.LOCK}),
    ],
)
def test_find_verbs_in_every_language(
    text: str, language: str, verbs: set[Verb]
) -> None:
    """`find_verbs`: the verbs said, participles in a question too."""
    assert _read(text, language).verbs == verbs


def test_find_values_with_their_units() -> None:
    """`find_values`: "21 degrees" is a value, and its words are explained."""
    reading = _read("set the thermostat to 21 degrees")

    assert reading.values == (Value(21.0, Unit.DEGREES),)
    assert reading.unexplained == ()


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        ("set the thermostat to 22 if it is above 23", "en", 22),
        ("if it's above 23 degrees set the thermostat to 22", "en", 22),
        ("wenn es über 23 Grad ist, stell das Thermostat auf 22", "de", 22),
        ("mets le thermostat à 20 s'il te plaît", "fr", 20),
        ("pon el termostato a 21 si baja de 18", "es", 21),
        ("zet de thermostaat op 21 als het onder de 18 is", "nl", 21),
        ("metti il termostato a 21 se scende sotto 18", "it", 21),
    ],
)
def test_find_values_leaves_a_conditions_value_to_it(
    text: str, language: str, value: int
) -> None:
    """The number a condition checks ("if it is above 23") is not the one set."""
    assert [v.number for v in _read(text, language).values] == [value]


@pytest.mark.parametrize(
    ("text", "language", "kinds"),
    [
        # Misheard: "kichen" is the kitchen.
        ("turn off the kettle in the kichen", "en", set()),
        # A compound split where the home knows its head.
        ("schalte die Küchenlampe ein", "de", {"light"}),
    ],
)
def test_hear_as_the_home_hears_each_word(
    text: str, language: str, kinds: set[str]
) -> None:
    """`hear_as_the_home`: each word as the home's words hear it."""
    mentions = _read(text, language).mentions

    assert mentions.areas == {"Kitchen"}
    assert mentions.kinds == kinds


def test_mark_verb_words_explains_them_and_reads_no_kind_in_them() -> None:
    """`mark_verb_words`: "switch the fan on" says no switch; "close it" is read."""
    switch = _read("switch the fan on")
    assert switch.mentions.kinds == {"fan"}
    assert switch.kind_words == {"fan"}

    assert _read("close it").unexplained == ()


def test_find_what_is_named_names_devices_and_places() -> None:
    """`find_what_is_named`: the kettle by its name, the kitchen as its place."""
    mentions = _read("turn off the kettle in the kitchen").mentions

    assert mentions.entities == {"switch.kettle"}
    assert mentions.areas == {"Kitchen"}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("dim the lighting in the kitchen", "en"),
        ("dimme die Beleuchtung in der Küche", "de"),
        ("baisse l'éclairage de la cuisine", "fr"),
        ("baja la iluminación de la cocina", "es"),
        ("dim de verlichting in de keuken", "nl"),
        ("abbassa l'illuminazione in cucina", "it"),
    ],
)
def test_the_lighting_is_the_lights(text: str, language: str) -> None:
    """Said "the lighting", in every language: the kind, nothing left unread."""
    reading = _read(text, language)

    assert reading.mentions.kinds == {"light"}
    assert reading.unexplained == ()


def test_add_complained_and_fixture_kinds() -> None:
    """`add_complained_and_fixture_kinds`: a complaint's kind, a fixture's kind.

    "Floor lamp" names no device here: it is a light, its words read.
    """
    assert _read("it's too dark in the kitchen").mentions.kinds == {"light"}

    lamp = _read("turn on the floor lamp")
    assert lamp.fixtures == {"floor_lamp"}
    assert lamp.mentions.kinds == {"light"}
    assert lamp.unexplained == ()


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        # "lock" is the name's: the verb said is "off".
        ("turn the back door lock off", {Verb.OFF}),
        # The only verb said stays the verb.
        ("lock the back door", {Verb.LOCK}),
        # Of two opposite verbs, "lock" is the kind acted on.
        ("unlock the entry lock", {Verb.UNLOCK}),
    ],
)
def test_leave_verbs_to_names(text: str, verbs: set[Verb]) -> None:
    """`leave_verbs_to_names`: a verb's word that named something is the name's."""
    assert _read(text).verbs == verbs


def test_leave_the_questions_shape_asks_nothing_of_the_home() -> None:
    """`leave_the_questions_shape`: "on" before the device asked of is no verb."""
    reading = _read("what's playing on the kitchen speaker?")

    assert reading.verbs == frozenset()
    assert "what's" in reading.question_words


def test_act_with_the_verbs_meant() -> None:
    """`act_with_the_verbs_meant`: what verbs act on, a kind only one does.

    A complaint's step is a verb meant.
    """
    assert _read("close it").mentions.acted_on == {"cover", "valve"}
    assert _read("sauge hier", "de").mentions.kinds == {"vacuum"}
    assert _read("it's too dark in the kitchen").verbs == {Verb.UP}


def test_refer_back_by_again_and_by_a_pronoun_alone() -> None:
    """`refer_back`: "wieder", "sie" with no noun after it; not "das Licht"."""
    assert _read("und wieder an", "de").mentions.refers_back
    assert _read("mach sie aus", "de").mentions.refers_back
    assert not _read("mach das Licht aus", "de").mentions.refers_back
    assert _read("turn it on again").unexplained == ()


def test_leave_unexplained_only_what_nothing_explained() -> None:
    """`leave_unexplained`: "flurb" is open; a request's politeness is not."""
    assert _read("turn off the kettle and the flurb").unexplained == ("flurb",)
    assert _read("could you please turn off the kettle").unexplained == ()


def test_find_kind_words_and_those_narrower_than_the_kind() -> None:
    """`find_kind_words`: "lamp" says a light and calls only what it names."""
    lamp = _read("turn on the floor lamp")
    assert lamp.kind_words == {"lamp"}
    assert "lamp" in lamp.narrow_words

    light = _read("switch off the light")
    assert light.kind_words == {"light"}
    assert light.narrow_words == frozenset()


def test_find_an_opening_verb_in_a_command_not_a_story() -> None:
    """`find_an_opening_verb`: "run the movie night script" opens with its verb."""
    assert _read("run the movie night script").imperative
    assert not _read("the kids run around on movie night").imperative
