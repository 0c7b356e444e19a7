"""A household that speaks a language the integration ships no words for.

Portuguese and Swedish have Home Assistant's sentences but no words file:
their turns read with empty tables (`UNSHIPPED`), so Home Assistant's own
sentences and the model decide, and nothing the words would decide alone
(a follow-up, a shortcut) is read.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import pytest

from custom_components.intent_router.core.said import Said
from custom_components.intent_router.language import (
    LANGUAGES,
    UNSHIPPED,
    stop_words,
    words_for,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer


@dataclass(frozen=True, slots=True)
class Household:
    """What people say in a language that is not shipped."""

    language: str
    # Home Assistant's own sentences understand it.
    kitchen_off: str
    # Only the model does: one naming its device, one naming none.
    named: str
    cozy: str
    yes: str
    question: str


PORTUGUESE = Household(
    language="pt-BR",
    kitchen_off="Desliga Kitchen Lights",
    named="Deixa Kitchen Lights aconchegante",
    cozy="Deixa a casa aconchegante",
    yes="Sim",
    question="A luz da cozinha está acesa?",
)
SWEDISH = Household(
    language="sv",
    kitchen_off="Stäng av Kitchen Lights",
    named="Gör Kitchen Lights mysig",
    cozy="Gör det mysigt här",
    yes="Ja",
    question="Är köksljuset tänt?",
)
HOUSEHOLDS = pytest.mark.parametrize(
    "household", [PORTUGUESE, SWEDISH], ids=lambda household: household.language
)


def test_an_unshipped_language_has_every_table_empty() -> None:
    """Its words are an empty file's, read as every file is; names keep English stops."""
    assert words_for("pt-BR") is UNSHIPPED
    assert "pt" not in LANGUAGES
    for table in fields(UNSHIPPED):
        value = getattr(UNSHIPPED, table.name)
        if table.name == "shortcuts":
            assert not any(value.values())
        elif table.name == "decimal_mark":
            assert value == "."
        else:
            assert not value, table.name
    assert stop_words("pt") == LANGUAGES["en"].stop


def test_an_unshipped_language_splits_words_only() -> None:
    """Its words are as said; a question mark still asks."""
    said = Said.of("Desliga a luz da cozinha, por favor.", "pt")
    assert said.terms == ("desliga", "a", "luz", "da", "cozinha", "por", "favor")
    assert not said.question
    assert Said.of("A luz está acesa?", "pt").question


@HOUSEHOLDS
async def test_home_assistants_sentences_act_without_the_model(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A command Home Assistant's sentences know runs with the model down."""
    await llm_server.stop()

    result = await converse(
        hass, agent_id, household.kitchen_off, kitchen, household.language
    )

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE


@HOUSEHOLDS
async def test_the_model_acts_on_what_is_named(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A command only the model reads runs where the words name its device."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, household.named, kitchen, household.language)

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert len(llm_server.requests) == 1


@HOUSEHOLDS
async def test_what_the_words_do_not_ground_is_asked_first(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A plan the words name nothing of asks first; a yes goes to the model.

    No words of the language are read, so no yes is understood without it.
    """
    for _ in range(2):
        llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    question = await converse(
        hass, agent_id, household.cozy, kitchen, household.language
    )
    assert question.continue_conversation is True
    await converse(hass, agent_id, household.yes, kitchen, household.language)

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert len(llm_server.requests) == 2


@HOUSEHOLDS
async def test_a_question_changes_nothing(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    household: Household,
) -> None:
    """A question marked as one is answered, never acted on."""
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), speech="Sim.")
    )

    result = await converse(
        hass, agent_id, household.question, language=household.language
    )

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result) == "Sim."
    assert result.response.response_type is intent.IntentResponseType.QUERY_ANSWER
