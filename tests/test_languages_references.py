"""Articles are not "it", real pronouns are, and rooms are read as said.

Whole turns through Assist against the demo home (its devices keep their
English names). A command with an article names what it acts on, so it can
be learned and run again without the model; a pronoun ("mach sie an",
"apágala", "zet 'm aan") refers to what was last acted on, so the model's
plan for it is grounded in the last turn. A room named in the household's
language is found through elision ("l'entrée") and compounds
("Küchenlampe").
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
import pytest

from custom_components.intent_router.deciding.learned import LEARN_AFTER
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar

from .helpers import act, agent_details, converse, plan
from .llm_server import ScriptedLLMServer

KITCHEN_LIGHTS = "light.kitchen_lights"
STOOD = timedelta(seconds=LEARN_AFTER + 1)

# Commands whose article could be taken for "it".
WITH_ARTICLE = [
    ("en", "Turn off the Kitchen Lights"),
    ("de", "Schalte das Licht Kitchen Lights aus"),
    ("de", "Mach die Kitchen Lights aus"),
    ("fr", "Éteins la lumière Kitchen Lights"),
    ("fr", "Éteins les Kitchen Lights"),
    ("es", "Apaga la luz Kitchen Lights"),
    ("es", "Apaga las Kitchen Lights"),
    ("nl", "Zet het licht Kitchen Lights uit"),
    ("it", "Spegni la luce Kitchen Lights"),
    ("it", "Spegni le Kitchen Lights"),
]
# Pronouns, after the kitchen lights were turned off: turn it/them back on.
PRONOUNS = [
    ("en", "Turn it on"),
    ("de", "Mach sie an"),
    ("de", "Schalte es ein"),
    ("de", "Mach die bitte an"),
    ("fr", "Allume-la"),
    ("fr", "Allume-les"),
    ("es", "Enciéndela"),
    ("es", "Enciendelas"),
    ("nl", "Zet hem aan"),
    ("nl", "Zet 'm aan"),
    ("nl", "Zet het aan"),
    ("it", "Accendila"),
    ("it", "Accendile"),
]
# "Turn off the lights", said first in each language.
TURN_OFF = {
    "en": "Turn off the Kitchen Lights",
    "de": "Schalte das Licht Kitchen Lights aus",
    "fr": "Éteins la lumière Kitchen Lights",
    "es": "Apaga la luz Kitchen Lights",
    "nl": "Zet het licht Kitchen Lights uit",
    "it": "Spegni la luce Kitchen Lights",
}


@pytest.mark.parametrize(("language", "said"), WITH_ARTICLE)
async def test_an_article_names_and_the_command_is_learned(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    language: str,
    said: str,
) -> None:
    """An article refers to nothing: learned, the command runs without the model.

    The model is scripted for the second time too: asked, it would answer
    (at once, the clock being frozen), and the count of requests tells.
    """
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))
    await converse(hass, agent_id, said, kitchen, language)
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": KITCHEN_LIGHTS}, blocking=True
    )
    freezer.tick(STOOD)

    await converse(hass, agent_id, said, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert any("learned" in detail for detail in agent_details())
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(("language", "said"), PRONOUNS)
async def test_a_pronoun_refers_to_what_was_last_acted_on(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """A pronoun ("apágala", "zet 'm aan") grounds the plan for the last lights."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN_LIGHTS)))
    await converse(hass, agent_id, TURN_OFF[language], kitchen, language)
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"

    await converse(hass, agent_id, said, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize("language", sorted(TURN_OFF))
async def test_without_a_pronoun_the_last_lights_are_not_meant(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
) -> None:
    """The model is wrong: the garage door was said, it plans the last lights."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN_LIGHTS)))
    await converse(hass, agent_id, TURN_OFF[language], kitchen, language)

    await converse(hass, agent_id, "Garage Door", kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "off"


# The kitchen, named in the household's language, and its lights said so.
ROOMS = [
    ("en", "Kitchen", "Turn off the light in the kitchen"),
    ("de", "Küche", "Schalte die Küchenlampe aus"),
    ("de", "Küche", "Mach das Küchenlicht aus"),
    ("fr", "Entrée", "Éteins la lumière de l'entrée"),
    ("es", "Cocina", "Apaga la luz de la cocina"),
    ("nl", "Keuken", "Zet de keukenlamp uit"),
    ("it", "Ingresso", "Spegni la luce dell'ingresso"),
    ("it", "Ingresso", "Spegni le luci nell'ingresso"),
]


@pytest.mark.parametrize(("language", "room", "said"), ROOMS)
async def test_a_room_said_in_the_language_grounds_the_plan(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    room: str,
    said: str,
) -> None:
    """The kitchen is "Küche": "Küchenlampe" and "l'entrée" name its lights.

    No satellite, so no room but the one said: without it read, the
    model's plan for the kitchen lights grounds in nothing and does not run.
    """
    ar.async_get(hass).async_update("kitchen", name=room)
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))

    await converse(hass, agent_id, said, language=language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
