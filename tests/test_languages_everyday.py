"""Everyday speech in German, French, Spanish, Dutch and Italian, whole turns.

The demo home keeps the English names its integrations gave it ("Living
Room", "Ceiling Lights", "Front Door"); the household speaks its own
language, as a fluent speaker says things on an ordinary day:
number words in full, articles and particles that are no values, requests
asked as questions, "leave it" that cancels, rooms and things said in the
household's words, re- verbs and separable verbs. The model server is
down, or up and wrong: what the words say decides, and the model is never
asked. (With the "use the language model" option off, the reading is not
consulted at all: only Home Assistant's own sentences are, by design.)
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er

from .helpers import act, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

KITCHEN_LIGHTS = "light.kitchen_lights"
CEILING_LIGHTS = "light.ceiling_lights"
FRONT_DOOR = "lock.front_door"
GARAGE_DOOR = "cover.garage_door"
KITCHEN_WINDOW = "cover.kitchen_window"
MODEL = pytest.mark.parametrize(
    "model_down", [True, False], ids=["model-down", "model-wrong"]
)


async def _agent(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    server: ScriptedLLMServer,
    *,
    model_down: bool = False,
) -> tuple[str, str]:
    """The agent reading first, its model server up or down; a kitchen satellite."""
    options: dict[str, Any] = {CONF_LOCAL_FIRST: True}
    agent_id = await async_setup_agent(hass, entry, **options)
    if model_down:
        await server.stop()
    return agent_id, satellite_in(hass, "Kitchen")


async def _call(hass: HomeAssistant, service: str, entity_id: str, **data: Any) -> None:
    """Put a device in the state a turn will change."""
    await hass.services.async_call(
        entity_id.partition(".")[0],
        service,
        {"entity_id": entity_id, **data},
        blocking=True,
    )


def _brightness_pct(hass: HomeAssistant, entity_id: str) -> int:
    """A light's brightness in percent, as HA rounds it."""
    brightness = hass.states.get(entity_id).attributes["brightness"]
    return round(float(brightness) / 255 * 100)


# Number words in full, each language's own way of putting them together.
NUMBER_WORDS = [
    ("de", "Stell das Licht in der Küche auf zweiundzwanzig Prozent", 22),
    ("fr", "Mets la lumière de la cuisine à soixante-quinze pour cent", 75),
    ("fr", "Règle la lumière de la cuisine sur quatre-vingt-dix pour cent", 90),
    ("es", "Pon la luz de la cocina al veintidós por ciento", 22),
    ("es", "Pon la luz de la cocina al treinta y cinco por ciento", 35),
    ("nl", "Zet het licht in de keuken op tweeëntwintig procent", 22),
    ("it", "Metti la luce della cucina al ventidue per cento", 22),
    ("it", "Metti la luce della cucina al ventotto per cento", 28),
    ("en", "Set the kitchen lights to twenty-two percent", 22),
]


@MODEL
@pytest.mark.parametrize(("language", "text", "percent"), NUMBER_WORDS)
async def test_number_words_in_full(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    model_down: bool,
    language: str,
    text: str,
    percent: int,
) -> None:
    """Said in words, the value is whole: "soixante-quinze" is 75, not 60 and 15."""
    agent_id, kitchen = await _agent(
        hass, mock_config_entry, llm_server, model_down=model_down
    )
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN_LIGHTS, brightness_pct=1)))

    await converse(hass, agent_id, text, kitchen, language)

    assert _brightness_pct(hass, KITCHEN_LIGHTS) == percent
    assert llm_server.requests == []


# An article, a particle or a hedge that is also the word for one.
NO_VALUE = [
    ("de", "Schalte das Licht in der Küche ein"),
    ("de", "Schalt mal das Licht in der Küche ein"),
    ("nl", "Doe het licht in de keuken een beetje aan"),
    ("fr", "Allume un peu la lumière de la cuisine"),
    ("it", "Accendi un po' la luce della cucina"),
    ("es", "Enciende un poco la luz de la cocina"),
]


@pytest.mark.parametrize(("language", "text"), NO_VALUE)
async def test_an_article_or_particle_is_no_value(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """It switches on ("schalte … ein"); the light is not set to 1 percent."""
    agent_id, kitchen = await _agent(hass, mock_config_entry, llm_server)
    await _call(hass, "turn_on", KITCHEN_LIGHTS, brightness_pct=60)
    await _call(hass, "turn_off", KITCHEN_LIGHTS)

    await converse(hass, agent_id, text, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
    assert _brightness_pct(hass, KITCHEN_LIGHTS) > 1


# Requests asked as questions: a modal, or a pronoun before the verb.
REQUESTS = [
    ("de", "Können Sie das Licht in der Küche ausschalten?", "off"),
    ("de", "Machst du das Licht in der Küche aus?", "off"),
    ("fr", "Tu peux éteindre la lumière de la cuisine ?", "off"),
    ("fr", "Tu m'éteins la lumière de la cuisine ?", "off"),
    ("es", "¿Me apagas la luz de la cocina?", "off"),
    ("nl", "Mag het licht in de keuken uit?", "off"),
    ("it", "Mi spegni la luce della cucina?", "off"),
    ("it", "M'accendi la luce della cucina?", "on"),
]


@MODEL
@pytest.mark.parametrize(("language", "text", "after"), REQUESTS)
async def test_a_request_asked_as_a_question_acts(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    model_down: bool,
    language: str,
    text: str,
    after: str,
) -> None:
    """A request with "?" acts ("¿me apagas la luz?"): it does not answer "on"."""
    agent_id, kitchen = await _agent(
        hass, mock_config_entry, llm_server, model_down=model_down
    )
    await _call(hass, "turn_on" if after == "off" else "turn_off", KITCHEN_LIGHTS)
    llm_server.add_plan(plan(speech="Kitchen Lights: unchanged."))

    await converse(hass, agent_id, text, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == after
    assert llm_server.requests == []


# Opening what asks first, said in the household's words for the English names.
OPENINGS = [
    ("de", "Schließ die Haustür auf", FRONT_DOOR, "unlocked", "Ja"),
    ("de", "Mach das Garagentor auf", GARAGE_DOOR, "open", "Ja, bitte"),
    ("fr", "Déverrouille la porte d'entrée", FRONT_DOOR, "unlocked", "Oui"),
    ("fr", "Ouvre la porte du garage", GARAGE_DOOR, "open", "Oui, vas-y"),
    ("es", "Abre la puerta del garaje", GARAGE_DOOR, "open", "Sí"),
    ("es", "¿Me abres la puerta del garaje?", GARAGE_DOOR, "open", "Cómo no"),
    ("es", "Desbloquea la puerta principal", FRONT_DOOR, "unlocked", "Vale"),
    ("nl", "Ontgrendel de voordeur", FRONT_DOOR, "unlocked", "Ja hoor"),
    ("nl", "Doe de garagedeur open", GARAGE_DOOR, "open", "Ja"),
    ("it", "Sblocca la porta d'ingresso", FRONT_DOOR, "unlocked", "Sì"),
    ("it", "Mi apri la porta del garage?", GARAGE_DOOR, "open", "Certo"),
]
LEAVE_IT = {
    "de": "Passt schon",
    "fr": "C'est bon comme ça",
    "es": "Está bien así",
    "nl": "Is goed zo",
    "it": "Va bene così",
}


@MODEL
@pytest.mark.parametrize("answer", ["yes", "leave it"])
@pytest.mark.parametrize(("language", "text", "entity_id", "opened", "yes"), OPENINGS)
async def test_an_opening_asks_and_only_a_yes_runs_it(  # noqa: PLR0913, PLR0917
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    model_down: bool,
    answer: str,
    language: str,
    text: str,
    entity_id: str,
    opened: str,
    yes: str,
) -> None:
    """The confirmation question in every language; "passt schon" leaves it."""
    agent_id, kitchen = await _agent(
        hass, mock_config_entry, llm_server, model_down=model_down
    )
    before = hass.states.get(entity_id).state
    tool = "lock.unlock" if entity_id == FRONT_DOOR else "cover.open_cover"
    llm_server.add_plan(plan(act(tool, entity_id)))
    llm_server.add_plan(plan(act(tool, entity_id)))

    question = await converse(hass, agent_id, text, kitchen, language)

    assert question.continue_conversation is True, speech(question)
    assert hass.states.get(entity_id).state == before
    said = yes if answer == "yes" else LEAVE_IT[language]
    await converse(hass, agent_id, said, kitchen, language)
    assert hass.states.get(entity_id).state == (opened if answer == "yes" else before)
    assert llm_server.requests == []


# Rooms and things in the household's words; the home's names are English.
ACROSS = [
    ("de", "Mach das Licht im Wohnzimmer an", CEILING_LIGHTS),
    ("de", "Schalte die Deckenleuchte an", CEILING_LIGHTS),
    ("de", "Mach die Wohnzimmerlampe an", CEILING_LIGHTS),
    ("fr", "Allume la lumière du salon", CEILING_LIGHTS),
    ("fr", "Allume le plafonnier", CEILING_LIGHTS),
    ("es", "Enciende la luz del salón", CEILING_LIGHTS),
    ("es", "Enciende la lámpara de techo", CEILING_LIGHTS),
    ("nl", "Doe het licht in de woonkamer aan", CEILING_LIGHTS),
    ("nl", "Doe het lampje in de woonkamer eens aan", CEILING_LIGHTS),
    ("it", "Accendi la luce in soggiorno", CEILING_LIGHTS),
    ("it", "Accendi la plafoniera", CEILING_LIGHTS),
]


@MODEL
@pytest.mark.parametrize(("language", "text", "entity_id"), ACROSS)
async def test_a_home_named_in_another_language(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    model_down: bool,
    language: str,
    text: str,
    entity_id: str,
) -> None:
    """A room in the speaker's words finds the home's ("Wohnzimmer": Living Room).

    Never the kitchen the speaker is in.

    The model, wrong, would switch on the kitchen's lights.
    """
    agent_id, kitchen = await _agent(
        hass, mock_config_entry, llm_server, model_down=model_down
    )
    await _call(hass, "turn_off", entity_id)
    await _call(hass, "turn_off", KITCHEN_LIGHTS)
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN_LIGHTS)))

    await converse(hass, agent_id, text, kitchen, language)

    assert hass.states.get(entity_id).state == "on"
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert llm_server.requests == []


async def test_a_german_home_spoken_to_in_english(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Rooms named "Wohnzimmer" and "Küche" are found by English words."""
    agent_id, kitchen = await _agent(hass, mock_config_entry, llm_server)
    areas = ar.async_get(hass)
    for english, german in (("Living Room", "Wohnzimmer"), ("Kitchen", "Küche")):
        area = areas.async_get_area_by_name(english)
        assert area is not None
        areas.async_update(area.id, name=german)
    await _call(hass, "turn_off", CEILING_LIGHTS)

    await converse(hass, agent_id, "Turn on the living room lights", kitchen)
    assert hass.states.get(CEILING_LIGHTS).state == "on"

    await converse(hass, agent_id, "Turn off the lights in the kitchen", kitchen)
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert hass.states.get(CEILING_LIGHTS).state == "on"
    assert llm_server.requests == []


async def test_area_and_entity_aliases_are_names(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """An area alias ("Stube") and an entity alias ("Funzel") name them."""
    agent_id, kitchen = await _agent(hass, mock_config_entry, llm_server)
    areas = ar.async_get(hass)
    living = areas.async_get_area_by_name("Living Room")
    assert living is not None
    areas.async_update(living.id, aliases={"Den"})
    er.async_get(hass).async_update_entity(KITCHEN_LIGHTS, aliases=["Funzel"])
    await _call(hass, "turn_off", CEILING_LIGHTS)

    await converse(hass, agent_id, "Turn on the lights in the den", kitchen)
    assert hass.states.get(CEILING_LIGHTS).state == "on"

    await converse(hass, agent_id, "Mach die Funzel aus", kitchen, "de")
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert llm_server.requests == []


# Everyday words: separable "ab", re- verbs, diminutives and particles.
WORDS = [
    ("de", "Schalte das Licht in der Küche ab", KITCHEN_LIGHTS, "off"),
    ("de", "Dreh das Licht in der Küche ab", KITCHEN_LIGHTS, "off"),
    ("fr", "Rallume la lumière de la cuisine", KITCHEN_LIGHTS, "on"),
    ("fr", "Rouvre la fenêtre de la cuisine", KITCHEN_WINDOW, "open"),
    ("it", "Riaccendi la luce della cucina", KITCHEN_LIGHTS, "on"),
    ("it", "Riapri la finestra della cucina", KITCHEN_WINDOW, "open"),
    ("nl", "Doe het lampje in de keuken eens aan", KITCHEN_LIGHTS, "on"),
    ("nl", "Joh, doe het licht in de keuken eens aan", KITCHEN_LIGHTS, "on"),
    ("es", "Ábremela, la ventana de la cocina", KITCHEN_WINDOW, "open"),
    # The speaker's room said as HA's sentences say it.
    ("en", "switch off the light in this room", KITCHEN_LIGHTS, "off"),
    ("de", "Mach das Licht in diesem Raum aus", KITCHEN_LIGHTS, "off"),
    ("fr", "Éteins la lumière dans cette pièce", KITCHEN_LIGHTS, "off"),
    ("es", "Apaga la luz en esta habitación", KITCHEN_LIGHTS, "off"),
    ("it", "Spegni la luce in questa stanza", KITCHEN_LIGHTS, "off"),
    ("nl", "Doe het licht in deze kamer uit", KITCHEN_LIGHTS, "off"),
]


@pytest.mark.parametrize(("language", "text", "entity_id", "after"), WORDS)
async def test_everyday_words(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    entity_id: str,
    after: str,
) -> None:
    """Everyday words act: "schalte … ab" switches off (no lock), "rallume" on."""
    agent_id, kitchen = await _agent(hass, mock_config_entry, llm_server)
    opposite = {"on": "turn_off", "off": "turn_on", "open": "close_cover"}[after]
    await _call(hass, opposite, entity_id)

    await converse(hass, agent_id, text, kitchen, language)

    assert hass.states.get(entity_id).state == after
    assert hass.states.get(FRONT_DOOR).state == "locked"
