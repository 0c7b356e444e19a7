"""Questions that offer their answers: "is the garage door open or closed?".

Said as a yes/no question with the answers joined by "or" (each language's
`alternatives`), they ask which: the state answers, from the home, in the
turn's language. The model is scripted to open the door: it is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import act, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

GARAGE_DOOR = "cover.garage_door"


@pytest.mark.parametrize(
    ("language", "asked", "answered"),
    [
        ("en", "is the garage door open or shut", "Garage Door is closed."),
        ("de", "ist das Garage Door offen oder zu?", "Garage Door ist geschlossen."),
        ("fr", "la Garage Door est-elle ouverte ou fermée ?", "Garage Door : fermé."),
        ("es", "¿la Garage Door está abierta o cerrada?", "Garage Door: cerrado."),
        ("it", "la Garage Door è aperta o chiusa?", "Garage Door: chiuso."),
        ("nl", "is de Garage Door open of dicht?", "Garage Door is dicht."),
    ],
)
async def test_a_question_offering_its_answers_is_answered_by_the_state(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    asked: str,
    answered: str,
) -> None:
    """Two states asked at once: which one it is, never a yes or a no."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    llm_server.add_plan(plan(act("cover.open_cover", GARAGE_DOOR)))

    result = await converse(
        hass, agent_id, asked, satellite_in(hass, "Bedroom"), language=language
    )

    assert speech(result) == answered
    assert hass.states.get(GARAGE_DOOR).state == "closed"
    assert llm_server.requests == []
