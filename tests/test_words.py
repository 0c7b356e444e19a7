"""The words of each language as the reading uses them, without Home Assistant.

Small homes with names in the home's language: words that are also other
words, small words in names, elision, compound nouns, the shapes of a
question, and the everyday words of docs/languages/words.md.
"""

from __future__ import annotations

import pytest

from custom_components.intent_router.core.records import EntityInfo
from custom_components.intent_router.core.said import Said, said_words
from custom_components.intent_router.deciding.shortcuts import (
    answers_yes,
    match_shortcut,
)
from custom_components.intent_router.home.catalog import Catalog
from custom_components.intent_router.language import (
    LANGUAGES,
    Shortcut,
    Unit,
    is_question,
    terms,
    words_for,
)
from custom_components.intent_router.reading.reading import read
from custom_components.intent_router.reading.values import Value, said_values

from .helpers import small_catalog

# What the agent offers after a question, in its order.
AFTER_A_QUESTION = [Shortcut.YES, Shortcut.NO, Shortcut.AGAIN, Shortcut.UNDO]


def _home(language: str) -> Catalog:
    """A home of each language: lights named with small words, and its rooms."""
    homes = {
        "de": ["Licht im Wohnzimmer", "Licht im Schlafzimmer", "Küche", "Flur"],
        "fr": ["Lumière de la salle", "Lumière de la cuisine", "Entrée", "Salon"],
        "es": ["Luz del salón", "Luz de la cocina", "Cocina", "Salón"],
        "nl": ["Licht in de woonkamer", "Licht in de keuken", "Keuken", "Woonkamer"],
        "it": ["Luce della camera", "Luce della cucina", "Ingresso", "Ufficio"],
        "en": ["Light in the den", "Light in the kitchen", "Kitchen", "Den"],
    }
    first, second, *areas = homes[language]
    home = [
        EntityInfo("light.first", first, (), areas[1], "off", {}, {}),
        EntityInfo("light.second", second, (), areas[0], "off", {}, {}),
        EntityInfo("cover.blind", "Rollo", (), areas[0], "open", {}, {}),
    ]
    return small_catalog(home, areas, None)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Mach das Licht im Schlafzimmer an"),
        ("fr", "Allume la lumière de la cuisine"),
        ("es", "Enciende la luz de la cocina"),
        ("nl", "Zet het licht in de keuken aan"),
        ("it", "Accendi la luce della cucina"),
        ("en", "Turn on the light in the kitchen"),
    ],
)
def test_small_words_are_not_the_distinctive_part_of_a_name(
    language: str, text: str
) -> None:
    """Small words ("im", "de la", "della") name nothing: not the other light."""
    assert read(Said.of(text, language), _home(language)).mentions.entities == {
        "light.second"
    }


@pytest.mark.parametrize(
    ("language", "text", "area"),
    [
        ("fr", "Allume la lumière de l'entrée", "Entrée"),
        ("fr", "Éteins tout dans l\u2019entrée", "Entrée"),
        ("it", "Accendi la luce dell'ingresso", "Ingresso"),
        ("it", "Spegni tutto nell'ufficio", "Ufficio"),
    ],
)
def test_elision_is_stripped_before_matching(
    language: str, text: str, area: str
) -> None:
    """An elided article is no part of a place: "l'entrée" is the Entrée."""
    reading = read(Said.of(text, language), _home(language))
    assert reading.mentions.areas == {area}
    assert not reading.unexplained


@pytest.mark.parametrize(
    ("language", "text", "area", "kind"),
    [
        ("de", "Schalte die Küchenlampe ein", "Küche", "light"),
        ("de", "Mach das Flurlicht aus", "Flur", "light"),
        ("de", "Fahr die Küchenrollos runter", "Küche", "cover"),
        ("nl", "Zet de keukenlamp aan", "Keuken", "light"),
        ("nl", "Zet de woonkamerlampen aan", "Woonkamer", "light"),
    ],
)
def test_a_compound_is_its_room_and_its_kind(
    language: str, text: str, area: str, kind: str
) -> None:
    """Küchenlampe: the kitchen's lamps, where the home has a kitchen."""
    reading = read(Said.of(text, language), _home(language))
    assert reading.mentions.areas == {area}
    assert kind in reading.mentions.kinds


def test_a_compound_whose_head_the_home_lacks_stays_unexplained() -> None:
    """No garden in the home: "Gartenlampe" is left to the model, not split."""
    reading = read(Said.of("Schalte die Gartenlampe ein", "de"), _home("de"))
    assert reading.unexplained == ("gartenlampe",)
    assert not reading.mentions.kinds


@pytest.mark.parametrize(
    ("language", "text", "kinds"),
    [
        ("de", "Schalten Sie das Licht im Flur ein", {"light"}),
        ("de", "Das Licht im Flur schaltet sich nicht ein", {"light"}),
        ("fr", "Chauffe le salon", set()),
        ("nl", "Doe het rolgordijn in de keuken open", {"cover"}),
        ("nl", "Doe de lamp in de keuken dicht", {"light"}),
        ("nl", "Schakel de lamp in de keuken in", {"light"}),
    ],
)
def test_verb_forms_are_no_kinds(language: str, text: str, kinds: set[str]) -> None:
    """Verb forms are no kinds: "schalten" is no "Schalter", "open" no sensor."""
    assert read(Said.of(text, language), _home(language)).mentions.kinds == kinds


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Mach das Licht im Flur aus"),
        ("de", "Schalten Sie die Lampe im Flur ein"),
        ("fr", "Éteins la lumière du salon"),
        ("fr", "Allume les lampes du salon"),
        ("es", "Apaga la luz del salón"),
        ("es", "Sube las persianas del salón"),
        ("nl", "Zet het licht in de keuken uit"),
        ("nl", "Zet die lamp in de keuken aan"),
        ("it", "Spegni la luce della camera"),
        ("it", "Alza le tapparelle dell'ingresso"),
    ],
)
def test_an_article_does_not_refer_back(language: str, text: str) -> None:
    """Before a noun, "la", "het", "das" are articles, not "it"."""
    assert not read(Said.of(text, language), _home(language)).mentions.refers_back


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Mach sie aus"),
        ("de", "Schalte es bitte ein"),
        ("de", "Mach ihn aus"),
        ("de", "Mach das im Flur aus"),
        ("fr", "Éteins-la"),
        ("fr", "Allume-les aussi"),
        ("fr", "Éteins ça"),
        ("es", "Apágala"),
        ("es", "Súbelas"),
        ("es", "Ciérralas en la cocina"),
        ("nl", "Zet hem uit"),
        ("nl", "Doe 'm aan"),
        ("nl", "Zet ze uit"),
        ("nl", "Zet het maar uit"),
        ("it", "Spegnila"),
        ("it", "Accendili"),
        ("it", "Chiudile"),
    ],
)
def test_a_real_pronoun_refers_back(language: str, text: str) -> None:
    """Clitics, "hem"/"'m", "sie" at the end: what was last acted on."""
    reading = read(Said.of(text, language), _home(language))
    assert reading.mentions.refers_back
    assert reading.verbs


@pytest.mark.parametrize(
    ("language", "text", "split"),
    [
        ("es", "apágala", ["apaga", "la"]),
        ("es", "Enciendelos", ["enciende", "los"]),
        ("es", "bombilla", ["bombilla"]),
        ("it", "spegnili", ["spegni", "li"]),
        ("it", "spegni", ["spegni"]),
        ("fr", "l'entrée", ["entrée"]),
        ("it", "nell'ufficio", ["ufficio"]),
        ("en", "don't", ["don't"]),
        ("es", "ábremela", ["abre", "me", "la"]),
        ("it", "accendimi", ["accendi", "mi"]),
        ("it", "quest'anno", ["anno"]),
        ("fr", "m'allumes", ["allumes"]),
        ("nl", "lampje", ["lamp"]),
        ("nl", "raampje", ["raam"]),
        ("nl", "meisje", ["meisje"]),
    ],
)
def test_terms(language: str, text: str, split: list[str]) -> None:
    """Pronouns come off verbs only; elisions come off words."""
    assert terms(text, words_for(language)) == split


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("La lumière est-elle allumée", "fr", True),
        ("Y a-t-il quelqu'un dans le salon", "fr", True),
        ("Est-ce que le volet est fermé", "fr", True),
        ("Est-ce que tu peux fermer le volet ?", "fr", False),
        ("Pouvez-vous fermer le volet ?", "fr", False),
        ("¿La luz está encendida", "es", True),
        ("A qué temperatura está el salón", "es", True),
        ("En qué modo está el aire", "es", True),
        ("La luce è accesa?", "it", True),
        ("A che temperatura è la camera", "it", True),
        ("In che stato è la porta", "it", True),
        ("Draait de wasmachine nog", "nl", True),
        ("Zet de wasmachine aan", "nl", False),
        ("Das Licht ist an?", "de", True),
        ("Kannst du das Licht anmachen?", "de", False),
        ("The light is on?", "en", True),
        ("Está a luz acesa?", "pt", True),
        ("¿Me abres la puerta del garaje?", "es", False),
        ("¿Me la abres?", "es", False),
        ("¿La puerta está abierta?", "es", True),
        ("Mi apri la finestra?", "it", False),
        ("M'accendi la luce?", "it", False),
        ("Mi dici se la luce è accesa?", "it", True),
        ("La porta è chiusa?", "it", True),
        ("Mag het raam open?", "nl", False),
        ("Is het raam open?", "nl", True),
        ("Können Sie das Licht ausschalten?", "de", False),
        ("Machst du das Licht aus?", "de", False),
        ("Tu peux allumer la lumière ?", "fr", False),
        ("Tu m'allumes la lampe ?", "fr", False),
        ("La lumière est allumée ?", "fr", True),
        # A future or a modal opens a yes/no question; "will you" still asks.
        ("will it be over ninety degrees tomorrow", "en", True),
        ("should I dress in layers today", "en", True),
        ("do I need a jacket", "en", True),
        ("will you close the blinds", "en", False),
        ("do not turn on the light", "en", False),
        ("wird es morgen heiß", "de", True),
        ("brauche ich heute eine Jacke", "de", True),
        ("zal het morgen warm zijn", "nl", True),
        ("moet ik een jas aan", "nl", True),
        ("faut-il un parapluie aujourd'hui", "fr", True),
        ("dois-je fermer les volets", "fr", True),
    ],
)
def test_questions_of_each_language(text: str, language: str, expected: bool) -> None:
    """Openers, inversion, and a "?" or "¿" kept from speech-to-text."""
    assert is_question(text, words_for(language)) is expected


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Natürlich", "de", Shortcut.YES),
        ("Selbstverständlich", "de", Shortcut.YES),
        ("Unbedingt", "de", Shortcut.YES),
        ("Ne", "de", Shortcut.NO),
        ("Bloß nicht", "de", Shortcut.NO),
        ("Auf gar keinen Fall", "de", Shortcut.NO),
        ("Egal", "de", None),
        ("Aufhören", "de", Shortcut.STOP),
        ("Es reicht", "de", Shortcut.STOP),
        ("Annulez", "fr", Shortcut.NO),
        ("Confirmez", "fr", Shortcut.YES),
        ("Évidemment", "fr", Shortcut.YES),
        ("Entendu, s'il te plait", "fr", Shortcut.YES),
        ("Fais pas ça", "fr", Shortcut.NO),
        ("Répète", "fr", None),
        ("Está bien", "es", Shortcut.YES),
        ("Correcto", "es", Shortcut.YES),
        ("Repite", "es", None),
        ("Uiteraard", "nl", Shortcut.YES),
        ("Niet nodig", "nl", Shortcut.NO),
        ("Okay, doe maar", "nl", Shortcut.YES),
        ("Herhaal", "nl", None),
        ("Sicuro", "it", Shortcut.YES),
        ("Ovviamente", "it", Shortcut.YES),
        ("Ripeti", "it", None),
        ("Yes, no, leave it", "en", Shortcut.NO),
        ("Passt schon", "de", Shortcut.NO),
        ("Ach nee, passt schon", "de", Shortcut.NO),
        ("Passt", "de", Shortcut.YES),
        ("Va bene così", "it", Shortcut.NO),
        ("Va bene", "it", Shortcut.YES),
        ("Está bien así", "es", Shortcut.NO),
        ("Cómo no", "es", Shortcut.YES),
        ("Claro que no", "es", Shortcut.NO),
        ("Is goed zo", "nl", Shortcut.NO),
        ("Is goed", "nl", Shortcut.YES),
        ("C'est bon comme ça", "fr", Shortcut.NO),
        ("Pourquoi pas", "fr", Shortcut.YES),
        ("Leave it like that", "en", Shortcut.NO),
        ("Why not", "en", Shortcut.YES),
    ],
)
def test_everyday_answers(text: str, language: str, expected: Shortcut | None) -> None:
    """Yes and no of the review, after a question; dropped words are none."""
    assert (
        match_shortcut(Said.of(text, language), [*AFTER_A_QUESTION, Shortcut.STOP])
        is expected
    )


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Annulez", "fr", Shortcut.UNDO),
        ("Refaites", "fr", Shortcut.AGAIN),
        ("Arrêtez", "fr", Shortcut.STOP),
        ("Vuelve a hacerlo", "es", Shortcut.AGAIN),
        ("Ya basta", "es", Shortcut.STOP),
        ("Para ya", "es", Shortcut.STOP),
        ("Zet hem terug", "nl", Shortcut.UNDO),
        ("Zet ze terug", "nl", Shortcut.UNDO),
        ("Basta così", "it", Shortcut.STOP),
        ("Repeat that", "en", None),
    ],
)
def test_everyday_follow_ups(
    text: str, language: str, expected: Shortcut | None
) -> None:
    """Undo, again and stop of the review, after an action."""
    after_an_action = [Shortcut.AGAIN, Shortcut.UNDO, Shortcut.STOP, Shortcut.NO]
    assert match_shortcut(Said.of(text, language), after_an_action) is expected


@pytest.mark.parametrize(
    ("language", "text"),
    [("de", "Mach überall das Licht aus"), ("nl", "Zet allemaal uit")],
)
def test_everything_words(language: str, text: str) -> None:
    """Everywhere ("überall", "allemaal") is the whole home."""
    assert read(Said.of(text, language), _home(language)).mentions.everything


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("sicher nicht, lass es offen", "de"),
        ("claro que no, gracias", "es"),
        ("of course not", "en"),
        ("oui, enfin non", "fr"),
    ],
)
def test_a_yes_with_a_no_in_it_is_no_yes(text: str, language: str) -> None:
    """An automation's question is never confirmed by words that say no."""
    assert not answers_yes(Said.of(text, language))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("sicher, mach es zu", "de"),
        ("claro que sí, ciérrala", "es"),
        ("of course, close it", "en"),
        ("tout à fait, ferme-la", "fr"),
        ("tuurlijk, doe maar dicht", "nl"),
        ("sicuro, chiudila", "it"),
    ],
)
def test_a_yes_that_says_more_is_a_yes(text: str, language: str) -> None:
    """A yes that goes on to say what to do still confirms the question."""
    assert answers_yes(Said.of(text, language))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_tables_agree(language: str) -> None:
    """No yes says no, no verb form is a kind, no word keeps an elision.

    A yes phrase holding a no phrase could never be a yes, and one holding
    a negation is an idiom ("cómo no", "why not") that must still read as
    one; a verb form listed as a kind would still be read as one; and a
    table word that begins with an elision could never match, elisions
    being stripped.
    """
    spoken = LANGUAGES[language]
    for yes in spoken.shortcuts[Shortcut.YES]:
        assert (
            not any(f" {no} " in f" {yes} " for no in spoken.shortcuts[Shortcut.NO])
            or set(yes.split()) & spoken.negations
        ), yes
        assert answers_yes(Said.of(yes, language)), yes
    kinds = {w for found in spoken.kinds.values() for w in found}
    assert not spoken.verb_forms & kinds
    assert not spoken.closing & spoken.reference
    tables = (*spoken.kinds.values(), *spoken.classes.values(), spoken.stop)
    for table in tables:
        assert not {
            w
            for w in table
            if w.startswith(spoken.elisions) and w not in spoken.elisions
        }, table


@pytest.mark.parametrize(
    ("text", "language", "values"),
    [
        ("Schalte das Licht ein", "de", ()),
        ("Mach es ein bisschen heller", "de", ()),
        ("Ein Grad wärmer", "de", (Value(1, Unit.DEGREES),)),
        ("Zweiundzwanzig Grad", "de", (Value(22, Unit.DEGREES),)),
        ("Un peu plus chaud", "fr", ()),
        ("Soixante-quinze pour cent", "fr", (Value(75, Unit.PERCENT),)),
        ("Sube un poco", "es", ()),
        ("Un grado más", "es", (Value(1, Unit.DEGREES),)),
        ("Zet het licht een beetje feller", "nl", ()),
        ("Doe een lamp aan", "nl", ()),
        ("Accendi un po' la luce", "it", ()),
        ("Alza di un grado", "it", (Value(1, Unit.DEGREES),)),
        ("A bit brighter", "en", ()),
        ("The one in the kitchen", "en", ()),
        ("One degree warmer", "en", (Value(1, Unit.DEGREES),)),
    ],
)
def test_no_value_from_an_article_or_hedge(
    text: str, language: str, values: tuple[Value, ...]
) -> None:
    """An article or hedge is a number only with its unit ("ein Grad")."""
    spoken = words_for(language)
    assert said_values(said_words(text, spoken), spoken)[0] == values


FULL = (Value(100, Unit.PERCENT),)


@pytest.mark.parametrize(
    ("text", "language", "values"),
    [
        ("What's the maximum temperature today", "en", ()),
        ("Turn on Max's lamp", "en", ()),
        ("Turn on the fan at full speed", "en", FULL),
        ("Ist der Mülleimer voll", "de", ()),
        ("Heizung auf maximal zwanzig Grad", "de", (Value(20, Unit.DEGREES),)),
        ("Dreh die Musik auf volle Lautstärke", "de", FULL),
        ("Allume la lampe du fond", "fr", ()),
        ("Mets le ventilateur à fond", "fr", FULL),
        ("Is de vaatwasser vol", "nl", ()),
        ("Zet de ventilator op vol", "nl", FULL),
        ("Accendi la lampada di Massimo", "it", ()),
        ("Accendi il ventilatore al massimo", "it", FULL),
    ],
)
def test_a_level_is_said_with_the_words_that_set_it(
    text: str, language: str, values: tuple[Value, ...]
) -> None:
    """A level with the words that set it ("al massimo") is one; a name is none."""
    spoken = words_for(language)
    assert said_values(said_words(text, spoken), spoken)[0] == values
