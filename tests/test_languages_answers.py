"""Yes, no, "say that again" and questions, read right in all six languages.

Whole turns through Assist in each shipped language, against the demo home
(its devices keep their English names, said as names are). The model is
scripted to act every time: what it would do must not happen when the words
said no, asked to hear something again, or asked a question.
"""

from __future__ import annotations

import pytest

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant

from .helpers import act, agent_details, converse, plan
from .llm_server import ScriptedLLMServer

FRONT_DOOR = "lock.front_door"
GARAGE_DOOR = "cover.garage_door"
KITCHEN_LIGHTS = "light.kitchen_lights"

# "Unlock the front door", in each language: the lock asks first.
UNLOCK = {
    "en": "Unlock the Front Door",
    "de": "Schließ die Front Door auf",
    "fr": "Déverrouille Front Door",
    "es": "Desbloquea Front Door",
    "nl": "Ontgrendel Front Door",
    "it": "Sblocca Front Door",
}
# Negated and emphatic no's, none of them a yes.
EMPHATIC_NO = [
    ("en", "Of course not"),
    ("en", "No way"),
    ("en", "Absolutely not!"),
    ("de", "Sicher nicht"),
    ("de", "Auf keinen Fall"),
    ("de", "Natürlich nicht."),
    ("de", "Bloß nicht"),
    ("de", "Ne, besser nicht"),
    ("fr", "Bien sûr que non"),
    ("fr", "Pas question"),
    ("fr", "Sûrement pas"),
    ("fr", "Fais pas ça"),
    ("es", "Claro que no"),
    ("es", "De ninguna manera"),
    ("es", "Por supuesto que no"),
    ("es", "Para nada"),
    ("nl", "Zeker niet"),
    ("nl", "Echt niet"),
    ("nl", "Hoeft niet"),
    ("nl", "Natuurlijk niet"),
    ("it", "Certo che no"),
    ("it", "Per niente"),
    ("it", "Assolutamente no"),
    ("it", "Non ora"),
]
# Yes in words added with the review: each confirms at once.
NEW_YES = [
    ("en", "Of course"),
    ("de", "Natürlich"),
    ("de", "Alles klar"),
    ("fr", "Tout à fait"),
    ("fr", "Ça marche"),
    ("es", "Claro que sí"),
    ("es", "Desde luego"),
    ("nl", "Tuurlijk"),
    ("nl", "Dat is goed"),
    ("it", "Senz'altro"),
    ("it", "Fai pure"),
]
# The garage door is open: an automation asks whether to close it.
AUTOMATION_ASKS = {
    "en": "The garage door has been open for 10 minutes, should I close it?",
    "de": "Das Garage Door ist seit 10 Minuten offen, soll ich es schließen?",
    "fr": "La Garage Door est ouverte depuis 10 minutes, je la ferme ?",
    "es": "La Garage Door lleva 10 minutos abierta, ¿la cierro?",
    "nl": "De Garage Door staat al 10 minuten open, zal ik hem sluiten?",
    "it": "La Garage Door è aperta da 10 minuti, la chiudo?",
}
# A no that says more than no: not a shortcut, and never the yes it opens with.
LONGER_NO = {
    "en": "Of course not, the car is still outside",
    "de": "Sicher nicht, das Auto steht noch draußen",
    "fr": "Bien sûr que non, la voiture est encore dehors",
    "es": "Claro que no, el coche sigue fuera",
    "nl": "Zeker niet, de auto staat nog buiten",
    "it": "Certo che no, la macchina è ancora fuori",
}
# Words that mostly mean "say that again": they must not re-run an action.
SAY_AGAIN = [
    ("en", "Repeat that"),
    ("de", "Wiederhole das"),
    ("fr", "Répète"),
    ("es", "Repite"),
    ("nl", "Herhaal"),
    ("it", "Ripeti"),
]
# Yes/no questions that open like statements, or by a shape of the language.
QUESTIONS = [
    ("en", "The Kitchen Lights are on?"),
    ("de", "Die Kitchen Lights sind an?"),
    ("fr", "La lumière Kitchen Lights est-elle allumée"),
    ("fr", "Kitchen Lights est allumée ?"),
    ("es", "¿La luz Kitchen Lights está encendida"),
    ("es", "En qué estado está Kitchen Lights"),
    ("nl", "Kitchen Lights is aan?"),
    ("it", "La luce Kitchen Lights è accesa?"),
    ("it", "In che stato è Kitchen Lights"),
]


def _shortcut() -> str | None:
    """The shortcut the last turn was read as, if any."""
    return next((d["shortcut"] for d in agent_details() if "shortcut" in d), None)


@pytest.mark.parametrize(("language", "answer"), EMPHATIC_NO)
async def test_an_emphatic_no_cancels_the_question_without_the_model(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    answer: str,
) -> None:
    """The lock asks; "sicher nicht" cancels, though the model would unlock."""
    llm_server.add_plan(plan(act("lock.unlock", FRONT_DOOR)))
    llm_server.add_plan(plan(act("lock.unlock", FRONT_DOOR)))

    question = await converse(hass, agent_id, UNLOCK[language], kitchen, language)
    assert question.continue_conversation is True

    result = await converse(hass, agent_id, answer, kitchen, language)

    assert hass.states.get(FRONT_DOOR).state == "locked"
    assert _shortcut() == "no"
    assert result.continue_conversation is False
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(("language", "answer"), NEW_YES)
async def test_a_yes_of_the_review_confirms(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    answer: str,
) -> None:
    """The lock asks; an everyday yes ("natürlich", "tuurlijk") unlocks it."""
    llm_server.add_plan(plan(act("lock.unlock", FRONT_DOOR)))

    await converse(hass, agent_id, UNLOCK[language], kitchen, language)
    await converse(hass, agent_id, answer, kitchen, language)

    assert hass.states.get(FRONT_DOOR).state == "unlocked"
    assert _shortcut() == "yes"
    assert len(llm_server.requests) == 1


async def _answer_automation(
    hass: HomeAssistant, agent_id: str, language: str, answer: str
) -> conversation.ConversationResult:
    """The garage door is open and an automation asked about it; the answer."""
    await hass.services.async_call(
        "cover", "open_cover", {"entity_id": GARAGE_DOOR}, blocking=True
    )
    return await conversation.async_converse(
        hass,
        answer,
        None,
        Context(),
        language=language,
        agent_id=agent_id,
        extra_system_prompt=AUTOMATION_ASKS[language],
    )


@pytest.mark.parametrize(("language", "answer"), EMPHATIC_NO)
async def test_an_emphatic_no_to_an_automation_does_not_act(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    answer: str,
) -> None:
    """An automation asked; its no is a no, whatever the model would do."""
    llm_server.add_plan(plan(act("cover.close_cover", GARAGE_DOOR)))

    await _answer_automation(hass, agent_id, language, answer)

    assert hass.states.get(GARAGE_DOOR).state == "open"
    assert _shortcut() == "no"
    assert not llm_server.requests


@pytest.mark.parametrize("language", sorted(LONGER_NO))
async def test_a_longer_no_to_an_automation_is_no_yes(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
) -> None:
    """A no that says more goes to the model, but never acts as a yes.

    The model is wrong and closes the door, which needs no yes of its own:
    the answer said no to what the automation asked about, so it stays.
    """
    llm_server.add_plan(plan(act("cover.close_cover", GARAGE_DOOR)))

    result = await _answer_automation(hass, agent_id, language, LONGER_NO[language])

    assert hass.states.get(GARAGE_DOOR).state == "open"
    assert {"refused_by_the_answer": ["cover.close_cover"]} in agent_details()
    assert result.continue_conversation is False
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(("language", "said"), SAY_AGAIN)
async def test_say_that_again_does_not_act_again(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Asked to hear it again ("répète"), the lights are not turned off again."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))
    await converse(hass, agent_id, "Kitchen Lights", kitchen, language)
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": KITCHEN_LIGHTS}, blocking=True
    )

    await converse(hass, agent_id, said, kitchen, language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
    assert _shortcut() is None


@pytest.mark.parametrize(("language", "asked"), QUESTIONS)
async def test_a_question_of_the_language_changes_nothing(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    asked: str,
) -> None:
    """Asked as the language asks, with or without its "?": the model's act is dropped."""
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN_LIGHTS)))

    await converse(hass, agent_id, asked, language=language)

    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
