"""Values and questions said in each language, through the one formatter.

The phrasebooks are the integration's own, loaded with Home Assistant's
translations the way a turn loads them: numbers, units and modes are said
as a person of that language says them, and no service that asks first is
asked about with an English word.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.intent_router.core.records import Action
from custom_components.intent_router.core.speech import (
    Names,
    Phrasebook,
    async_phrasebook,
    phrase,
    shipped_languages,
)
from custom_components.intent_router.home.executor import ActionOutcome
from custom_components.intent_router.language import words
from custom_components.intent_router.turn.replies import confirm_question, done_speech
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

LANGUAGES = ("en", "de", "fr", "es", "nl", "it")


async def _phrases(hass: HomeAssistant, language: str) -> Phrasebook:
    return await async_phrasebook(hass, language, shipped_languages())


# language: (21.5 °C, 1 °C, 4000 K, 35 % volume, heat_cool, cool, high fan)
SPOKEN = {
    "en": (
        "21.5 degrees",
        "1 degree",
        "4000 kelvin",
        "35 percent",
        "heat and cool",
        "cool",
        "high",
    ),
    "de": (
        "21,5 Grad",
        "1 Grad",
        "4000 Kelvin",
        "35 Prozent",
        "Heizen und Kühlen",
        "Kühlbetrieb",
        "Hoch",
    ),
    "fr": (
        "21,5 degrés",
        "1 degré",
        "4000 kelvins",
        "35 pour cent",
        "chauffage et climatisation",
        "climatisation",
        "élevée",
    ),
    "es": (
        "21,5 grados",
        "1 grado",
        "4000 kelvin",
        "35 por ciento",
        "calor y frío",
        "frío",
        "alto",
    ),
    "nl": (
        "21,5 graden",
        "1 graad",
        "4000 kelvin",
        "35 procent",
        "verwarmen en koelen",
        "koelen",
        "hoog",
    ),
    "it": (
        "21,5 gradi",
        "1 grado",
        "4000 kelvin",
        "35 per cento",
        "caldo e freddo",
        "freddo",
        "alto",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_values_are_said_in_the_language(
    hass: HomeAssistant, language: str
) -> None:
    """Decimal mark, unit words and Home Assistant's own words for modes."""
    values = (await _phrases(hass, language)).values
    degrees, one, kelvin, volume, heat_cool, cool, high = SPOKEN[language]

    assert values.quantity("21.5", "°C") == degrees
    assert values.quantity(21.54, "°") == degrees
    assert values.quantity(1.0, "°F") == one
    assert values.argument("light", {"color_temp_kelvin": 4000}) == kelvin
    assert values.argument("media_player", {"volume_level": 0.35}) == volume
    assert values.argument("climate", {"hvac_mode": "heat_cool"}) == heat_cool
    assert values.argument("climate", {"hvac_mode": "cool"}) == cool
    assert values.argument("climate", {"fan_mode": "high"}) == high


@pytest.mark.parametrize(
    ("language", "spoken"),
    [
        ("en", "heat pump"),
        ("de", "Wärmepumpe"),
        ("fr", "pompe à chaleur"),
        ("es", "bomba de calor"),
        ("nl", "warmtepomp"),
    ],
)
async def test_a_water_heaters_operation_mode_is_its_state_word(
    hass: HomeAssistant, language: str, spoken: str
) -> None:
    """An operation mode is a water heater's state, translated as one."""
    values = (await _phrases(hass, language)).values
    said = values.argument("water_heater", {"operation_mode": "heat_pump"})
    assert said == spoken


@pytest.mark.parametrize("language", LANGUAGES)
async def test_what_has_no_translation_is_said_plainly(
    hass: HomeAssistant, language: str
) -> None:
    """A mode HA does not translate, a unit without a word, an owner's name."""
    values = (await _phrases(hass, language)).values
    decimal = "." if language == "en" else ","

    assert values.argument("climate", {"preset_mode": "my_own_mode"}) == ("my own mode")
    assert values.quantity(3.25, "kWh") == f"3{decimal}2 kWh"
    assert values.quantity("unavailable", "°C") == "unavailable °C"
    assert values.argument("select", {"option": "Film_Night"}) == "Film_Night"
    assert values.argument("light", {"flash": "short"}) is None


@pytest.mark.parametrize(
    ("names", "any_of", "spoken"),
    [
        (("Salón", "Iluminación"), False, "Salón e Iluminación"),
        (("Cocina", "Hielera"), False, "Cocina y Hielera"),
        (("Baño", "Hierro"), False, "Baño y Hierro"),
        (("Cocina", "Higuera"), False, "Cocina e Higuera"),
        (("Cocina", "Hall"), False, "Cocina y Hall"),
        (("Uno", "Otro"), True, "Uno u Otro"),
        (("Salón", "Horno"), True, "Salón u Horno"),
        (("Salón", "Patio"), True, "Salón o Patio"),
    ],
)
async def test_spanish_lists_say_e_and_u_before_the_same_sound(
    hass: HomeAssistant, names: tuple[str, ...], any_of: bool, spoken: str
) -> None:
    """'y' is 'e' before an i-sound, 'o' is 'u' before an o-sound."""
    phrases = await _phrases(hass, "es")
    assert phrases.names(Names(names, any_of=any_of)) == spoken


async def test_french_elides_de_before_a_vowel(hass: HomeAssistant) -> None:
    """'les lames d'Atelier', 'interprété par Adele': never 'de Atelier'."""
    phrases = await _phrases(hass, "fr")

    tilt = phrase("ask_open_cover_tilt", targets=Names(("Atelier",)))
    assert phrases.say(tilt) == "Dois-je ouvrir les lames d'Atelier ?"
    garage = phrase("ask_open_cover_tilt", targets=Names(("Garage",)))
    assert phrases.say(garage) == "Dois-je ouvrir les lames de Garage ?"
    playing = phrase("music_playing_by", title="Hello", artist="Adele", player="Salon")
    assert phrases.say(playing) == ("Je lance Hello, interprété par Adele, sur Salon.")


@pytest.mark.parametrize(
    ("names", "spoken"),
    [
        (("Fan",), "OK, Fan is back the way it was."),
        (("Fan", "Fan"), "OK, Fan is back the way it was."),
        (
            ("Fan", "Kitchen Lights"),
            "OK, Fan and Kitchen Lights are back the way they were.",
        ),
    ],
)
async def test_english_agrees_with_several_targets(
    hass: HomeAssistant, names: tuple[str, ...], spoken: str
) -> None:
    """A sentence about several names takes its plural form."""
    phrases = await _phrases(hass, "en")
    assert phrases.say(phrase("undo_done", targets=Names(names))) == spoken


# The domains whose services ask first by default, or for some device
# classes (garage doors, gates), with an entity of each and its name.
ASKING = {
    "lock": ("lock.haustuer", "Haustür"),
    "cover": ("cover.garagentor", "Garagentor"),
    "alarm_control_panel": ("alarm_control_panel.anlage", "Anlage"),
}
# Arguments a service needs to be worth asking about.
ARGUMENTS: dict[str, dict[str, Any]] = {
    "set_cover_position": {"position": 40},
    "set_cover_tilt_position": {"tilt_position": 30},
}
# Words of English service names that are also words of a language.
ALSO_NATIVE = {"de": {"alarm"}, "nl": {"alarm"}}


async def _asking_actions(hass: HomeAssistant) -> list[Action]:
    """One action for every service of the domains that ask first."""
    for domain, (entity_id, name) in ASKING.items():
        assert await async_setup_component(hass, domain, {})
        hass.states.async_set(entity_id, "closed", {"friendly_name": name})
    services = hass.services.async_services()
    return [
        Action(f"{domain}.{service}", (entity_id,), ARGUMENTS.get(service, {}))
        for domain, (entity_id, _) in ASKING.items()
        for service in sorted(services[domain])
    ]


@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {"en"}))
async def test_no_english_word_is_asked_or_said(
    hass: HomeAssistant, language: str
) -> None:
    """Every service that asks first, asked and reported in the language.

    Each has a sentence of its own ("Soll ich Haustür öffnen?"), never the
    English service name in a slot ("Soll ich open Haustür?").
    """
    actions = await _asking_actions(hass)
    assert len(actions) >= 20  # lock 3, cover 10, alarm 7
    phrases = await _phrases(hass, language)
    english = {
        word for action in actions for word in action.tool.replace(".", "_").split("_")
    } - ALSO_NATIVE.get(language, set())
    for action in actions:
        question = confirm_question(hass, phrases, [action])
        report = done_speech(hass, phrases, [ActionOutcome(action)])
        for said in (question, report):
            assert "_" not in said, said
            assert not english & set(words(said)), (action.tool, said)
        domain, _, service = action.tool.partition(".")
        own = {f"ask_{domain}_{service}", f"ask_{service}"}
        if action.args:
            own.add("ask_set")
        assert own & set(phrases.messages), action.tool


@pytest.mark.parametrize(
    ("language", "spoken"),
    [
        ("en", "Do you want me to run “Clean area with vacuum cleaner” on Robi?"),
        (
            "de",
            "Soll ich die Aktion „Bereich mit Staubsauger reinigen“ für Robi ausführen?",
        ),
        (
            "fr",
            "Dois-je lancer l'action « Nettoyer une pièce avec l'aspirateur » pour Robi ?",
        ),
        (
            "es",
            "¿Quieres que ejecute la acción «Limpiar área con robot aspirador» en Robi?",
        ),
        ("nl", "Zal ik de actie “Stofzuig de ruimte” uitvoeren voor Robi?"),
        ("it", "Devo eseguire l'azione «Pulisci area con aspirapolvere» su Robi?"),
    ],
)
async def test_a_service_without_its_own_question_is_named_not_conjugated(
    hass: HomeAssistant, language: str, spoken: str
) -> None:
    """A domain the owner made ask first: HA's name for the service, quoted.

    The sentence's verb is the language's own; the service is a name in it,
    so a verb-final language never ends up with an English verb in its slot.
    """
    hass.states.async_set("vacuum.robi", "docked", {"friendly_name": "Robi"})
    phrases = await _phrases(hass, language)
    action = Action("vacuum.clean_area", ("vacuum.robi",), {})

    assert confirm_question(hass, phrases, [action]) == spoken


# The wordings of docs/languages/wordings.md, as they are heard.
LAMP = Names(("Lampe",))
REVIEWED: list[tuple[str, str, dict[str, Any], str]] = [
    (
        "de",
        "undo_done",
        {"targets": LAMP},
        "Okay, ich habe Lampe wieder so eingestellt wie vorher.",
    ),
    (
        "de",
        "ask_alarm_disarm",
        {"targets": Names(("Anlage",))},
        "Soll ich Anlage unscharf schalten?",
    ),
    (
        "de",
        "did_alarm_disarm",
        {"targets": Names(("Anlage",))},
        "Anlage ist unscharf geschaltet.",
    ),
    (
        "de",
        "ask_alarm_arm_away",
        {"targets": Names(("Anlage",))},
        "Soll ich Anlage im Abwesenheitsmodus scharf schalten?",
    ),
    (
        "de",
        "ask_alarm_arm_home",
        {"targets": Names(("Anlage",))},
        "Soll ich Anlage im Modus Zuhause scharf schalten?",
    ),
    (
        "de",
        "ask_alarm_arm_night",
        {"targets": Names(("Anlage",))},
        "Soll ich Anlage im Nachtmodus scharf schalten?",
    ),
    (
        "fr",
        "music_playing_by",
        {"title": "Hello", "artist": "Adele", "player": "Salon"},
        "Je lance Hello, interprété par Adele, sur Salon.",
    ),
    ("fr", "all_failed", {"failed": LAMP}, "Désolé, aucune réponse pour Lampe."),
    (
        "fr",
        "partly_failed",
        {"done": Names(("Salon",)), "failed": LAMP},
        "C'est fait pour Salon, mais aucune réponse pour Lampe.",
    ),
    (
        "fr",
        "music_cannot_search",
        {"player": "Salon"},
        "Salon ne peut pas chercher de musique par titre.",
    ),
    (
        "fr",
        "which_one",
        {"choices": Names(("A", "B"), any_of=True)},
        "De quel appareil parlez-vous : A ou B ?",
    ),
    (
        "es",
        "model_too_slow",
        {},
        "El modelo de lenguaje ha tardado demasiado en responder y no he entendido la petición localmente. Inténtalo de nuevo en un momento.",
    ),
    (
        "es",
        "all_failed",
        {"failed": LAMP},
        "Lo siento, no he recibido respuesta de Lampe.",
    ),
    (
        "es",
        "ask_lock",
        {"targets": Names(("Puerta",))},
        "¿Quieres que cierre con llave Puerta?",
    ),
    ("es", "did_lock", {"targets": Names(("Puerta",))}, "He cerrado con llave Puerta."),
    ("nl", "nothing_to_confirm", {}, "Er is niets om te bevestigen."),
    ("de", "nothing_to_confirm", {}, "Es gibt gerade nichts zu bestätigen."),
    ("de", "stop_done", {"targets": LAMP}, "Ich habe Lampe angehalten."),
    ("es", "did_brighter", {"targets": LAMP}, "He subido el brillo de Lampe."),
    ("it", "did_brighter", {"targets": LAMP}, "Ho aumentato la luminosità di Lampe."),
    ("fr", "did_dimmer", {"targets": LAMP}, "J'ai tamisé Lampe."),
    (
        "de",
        "answer_mode",
        {"name": "Thermostat", "state": "Heizen, 20 Grad"},
        "Thermostat steht auf Heizen, 20 Grad.",
    ),
    (
        "nl",
        "did_shuffle_set",
        {"targets": LAMP},
        "Willekeurig afspelen op Lampe aangepast.",
    ),
    ("nl", "done", {}, "Gedaan."),
    (
        "nl",
        "ask_alarm_arm_away",
        {"targets": LAMP},
        "Zal ik Lampe inschakelen in afwezigheidsmodus?",
    ),
    (
        "nl",
        "ask_alarm_arm_home",
        {"targets": LAMP},
        "Zal ik Lampe inschakelen in thuismodus?",
    ),
    (
        "nl",
        "ask_alarm_arm_night",
        {"targets": LAMP},
        "Zal ik Lampe inschakelen in nachtmodus?",
    ),
    (
        "it",
        "did_set",
        {"targets": LAMP, "value": "40 per cento"},
        "Ho impostato Lampe su 40 per cento.",
    ),
    (
        "it",
        "ask_set",
        {"targets": LAMP, "value": "40 per cento"},
        "Devo impostare Lampe su 40 per cento?",
    ),
    ("it", "did_media_play", {"targets": LAMP}, "Ho ripreso la riproduzione su Lampe."),
    ("it", "ask_lock", {"targets": Names(("Porta",))}, "Devo chiudere a chiave Porta?"),
    ("it", "did_lock", {"targets": Names(("Porta",))}, "Ho chiuso a chiave Porta."),
]


@pytest.mark.parametrize(
    ("language", "key", "placeholders", "spoken"),
    REVIEWED,
    ids=[f"{language}-{key}" for language, key, _, _ in REVIEWED],
)
async def test_the_reviews_wordings_are_heard(
    hass: HomeAssistant,
    language: str,
    key: str,
    placeholders: dict[str, Any],
    spoken: str,
) -> None:
    """Each wording a fluent reviewer asked for, as it is said."""
    phrases = await _phrases(hass, language)
    assert phrases.say(phrase(key, **placeholders)) == spoken
