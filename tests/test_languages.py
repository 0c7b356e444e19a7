"""A household that speaks German or French hears nothing but its language.

Whole turns through Assist in the turn's language: the integration's own
sentences (what ran, what was undone, the confirmation question, errors), the
follow-ups it understands without a model ("nochmal", "mach das rückgängig",
"ja") and the questions it keeps from acting. The model's own words about an
action are English here, as a small model's often are: none may be heard.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer

# What the model says about its actions; the household must never hear it.
MODEL_SPEECH = "Done, all taken care of."


@dataclass(frozen=True, slots=True)
class Household:
    """What people say in one language, and what they must hear back."""

    language: str
    # Said by the people.
    kitchen_off: str
    again: str
    undo: str
    # Locks act only when named, and the demo lock (no registry entry, so no
    # alias) has only its English name.
    unlock: str
    yes: str
    no: str
    question: str
    cozy: str
    # Said by the integration.
    turned_off: str
    undone: str
    asks_unlock: str
    unlocked: str
    cancelled: str
    unreachable: str


GERMAN = Household(
    language="de",
    kitchen_off="Schalte das Licht in der Küche aus",
    again="Nochmal!",
    undo="Mach das rückgängig.",
    unlock="Schließ die Front Door auf",
    yes="Ja, mach das.",
    no="Nein, vergiss es.",
    question="Ist das Küchenlicht an?",
    cozy="Mach es hier gemütlich",
    turned_off="Ich habe Kitchen Lights ausgeschaltet.",
    undone="Okay, ich habe Kitchen Lights wieder so eingestellt wie vorher.",
    asks_unlock="Soll ich Front Door entriegeln?",
    unlocked="Ich habe Front Door entriegelt.",
    cancelled="Okay, dann lasse ich das.",
    unreachable=(
        "Ich konnte das Sprachmodell nicht erreichen und habe das lokal nicht "
        "verstanden. Versuch es bitte gleich noch mal."
    ),
)
FRENCH = Household(
    language="fr-FR",
    kitchen_off="Éteins la lumière de la cuisine",
    again="Encore une fois",
    undo="Annule ça",
    unlock="Déverrouille Front Door",
    yes="Oui, vas-y !",
    no="Non, laisse tomber.",
    question="Est-ce que la lumière de la cuisine est allumée ?",
    cozy="Mets une ambiance tamisée",
    turned_off="J'ai éteint Kitchen Lights.",
    undone="D'accord, j'ai remis Kitchen Lights comme avant.",
    asks_unlock="Dois-je déverrouiller Front Door ?",
    unlocked="J'ai déverrouillé Front Door.",
    cancelled="D'accord, je laisse tomber.",
    unreachable=(
        "Je n'ai pas pu joindre le modèle de langage et je n'ai pas compris "
        "localement. Réessayez dans un instant."
    ),
)
HOUSEHOLDS = pytest.mark.parametrize(
    "household", [GERMAN, FRENCH], ids=lambda household: household.language
)


@HOUSEHOLDS
async def test_commands_and_follow_ups(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A command, "again" and "undo": the follow-ups need no model."""
    language = household.language
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), speech=MODEL_SPEECH)
    )

    result = await converse(hass, agent_id, household.kitchen_off, kitchen, language)
    assert hass.states.get("light.kitchen_lights").state == "off"
    assert speech(result) == household.turned_off

    # Someone switches it back on at the wall; "again" turns it off again.
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": "light.kitchen_lights"}, blocking=True
    )
    result = await converse(hass, agent_id, household.again, kitchen, language)
    assert hass.states.get("light.kitchen_lights").state == "off"
    assert speech(result) == household.turned_off

    result = await converse(hass, agent_id, household.undo, kitchen, language)
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result) == household.undone
    assert len(llm_server.requests) == 1


@HOUSEHOLDS
@pytest.mark.parametrize("answer", ["yes", "no"])
async def test_confirmation_asked_and_answered(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    household: Household,
    answer: str,
) -> None:
    """The lock asks in the household's language; its yes or no decides."""
    language = household.language
    llm_server.add_plan(
        plan(act("lock.unlock", "lock.front_door"), speech=MODEL_SPEECH)
    )

    question = await converse(hass, agent_id, household.unlock, kitchen, language)
    assert speech(question) == household.asks_unlock
    assert question.continue_conversation is True
    assert hass.states.get("lock.front_door").state == "locked"

    said = household.yes if answer == "yes" else household.no
    result = await converse(hass, agent_id, said, kitchen, language)

    if answer == "yes":
        assert hass.states.get("lock.front_door").state == "unlocked"
        assert speech(result) == household.unlocked
    else:
        assert hass.states.get("lock.front_door").state == "locked"
        assert speech(result) == household.cancelled
    assert len(llm_server.requests) == 1


@HOUSEHOLDS
async def test_a_question_changes_nothing(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A question in the household's language is answered, never acted on."""
    answer = "Oui." if household is FRENCH else "Ja."
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), speech=answer)
    )

    result = await converse(
        hass, agent_id, household.question, language=household.language
    )

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result) == answer
    assert result.response.response_type is intent.IntentResponseType.QUERY_ANSWER


@HOUSEHOLDS
async def test_a_model_server_that_is_down_is_explained(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """The error reply is in the household's language too."""
    await llm_server.stop()

    result = await converse(hass, agent_id, household.cozy, language=household.language)

    assert result.response.response_type is intent.IntentResponseType.ERROR
    assert speech(result) == household.unreachable


async def test_a_question_about_two_actions_is_all_german(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """Unlocking and opening at once: each asked in German, no English verb."""
    llm_server.add_plan(
        plan(
            act("lock.unlock", "lock.front_door"),
            act("cover.open_cover", "cover.garage_door"),
            speech=MODEL_SPEECH,
        )
    )

    question = await converse(
        hass,
        agent_id,
        "Schließ die Front Door auf und öffne die Garage Door",
        kitchen,
        language="de",
    )

    assert speech(question) == (
        "Soll ich Front Door entriegeln? Soll ich Garage Door öffnen?"
    )
    assert hass.states.get("lock.front_door").state == "locked"
