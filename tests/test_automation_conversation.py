"""Conversations started by automations, end to end through a voice satellite.

The automation of docs/automations.md asks through
`assist_satellite.start_conversation` on a real satellite entity; the answer
goes through the satellite's Assist pipeline (speech to text, Intent Router,
text to speech), and the garage door's state at the end is what counts.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)

from custom_components.intent_router.home.catalog import MAX_PROMPT_ENTITIES
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from homeassistant.util.yaml import parse_yaml

from .helpers import act, plan, schema_targets, user_prompt
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer
from .voice import Voice, async_setup_voice

GARAGE_DOOR = "cover.garage_door"
QUESTION = "The garage door has been open for 10 minutes, should I close it?"


def _readme_automation() -> dict[str, Any]:
    """The automation docs/automations.md shows, as Home Assistant loads it."""
    docs = Path(__file__).parents[1] / "docs" / "automations.md"
    section = docs.read_text(encoding="utf-8").split(
        "### Conversations started by automations", 1
    )[1]
    config = parse_yaml(section.split("```yaml\n", 1)[1].split("```", 1)[0])
    assert isinstance(config, dict)
    return config


# Read at import: the event loop does no file I/O.
README_AUTOMATION = _readme_automation()


@pytest.fixture
def hass_config_dir(hass_tmp_config_dir: str) -> str:
    """A config directory of the test's own: text to speech caches audio there."""
    return hass_tmp_config_dir


async def _satellite_home(hass: HomeAssistant, entry: MockConfigEntry) -> Voice:
    """The demo home, Intent Router, and a satellite whose pipeline uses it."""
    agent_id = await async_setup_agent(hass, entry)
    return await async_setup_voice(hass, agent_id)


async def _open_garage_door(hass: HomeAssistant) -> None:
    """Open the garage door, so that closing it changes something."""
    await hass.services.async_call(
        "cover", "open_cover", {"entity_id": GARAGE_DOOR}, blocking=True
    )
    assert hass.states.get(GARAGE_DOOR).state == "open"


async def _automation_asks(
    hass: HomeAssistant, voice: Voice, *, extra_system_prompt: bool = True
) -> str:
    """The automation docs/automations.md shows asks, ten minutes after the door opened.

    Returns what the agent is to read as the automation's question: what the
    satellite said, then the extra system prompt when there is one.
    """
    config = copy.deepcopy(README_AUTOMATION)
    data = config["automation"][0]["actions"][0]["data"]
    if not extra_system_prompt:
        del data["extra_system_prompt"]
    assert await async_setup_component(hass, "automation", config)
    await _open_garage_door(hass)

    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(minutes=10))
    await hass.async_block_till_done()

    assert [a.message for a in voice.satellite.announced] == [QUESTION]
    if "extra_system_prompt" not in data:
        return str(data["start_message"])
    return f"{data['start_message']} {data['extra_system_prompt']}"


@pytest.mark.parametrize(
    "extra_system_prompt",
    [True, False],
    ids=["with_extra_system_prompt", "start_message_only"],
)
@pytest.mark.parametrize("answer", ["yes, close it", "yes"])
async def test_yes_to_the_automations_question_closes_the_garage_door(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    extra_system_prompt: bool,
    answer: str,
) -> None:
    """The person was asked about the garage door: no second question.

    A bare "yes" goes to the model with the question, like any answer.
    """
    voice = await _satellite_home(hass, mock_config_entry)
    asked = await _automation_asks(hass, voice, extra_system_prompt=extra_system_prompt)
    llm_server.add_plan(plan(act("cover.close_cover", GARAGE_DOOR), speech="Sure."))

    reply = await voice.async_say(answer)

    assert hass.states.get(GARAGE_DOOR).state == "closed"
    assert reply == "Closed Garage Door."
    assert voice.continues is False
    assert len(llm_server.requests) == 1
    assert f"An automation asked the user: {asked}" in user_prompt(llm_server)
    assert user_prompt(llm_server).endswith(f"Request: {answer}")


async def test_in_a_large_home_the_question_brings_the_garage_door_to_the_model(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """More devices than a prompt takes: "yes, close it" alone names none."""
    voice = await _satellite_home(hass, mock_config_entry)
    for n in range(MAX_PROMPT_ENTITIES):
        entity_id = f"switch.socket_{n}"
        hass.states.async_set(entity_id, "off", {"friendly_name": f"Socket {n}"})
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    await _automation_asks(hass, voice)
    llm_server.add_plan(plan(act("cover.close_cover", GARAGE_DOOR)))

    reply = await voice.async_say("yes, close it")

    assert GARAGE_DOOR in schema_targets(llm_server.requests[0])["cover.close_cover"]
    assert hass.states.get(GARAGE_DOOR).state == "closed"
    assert reply == "Closed Garage Door."


async def test_no_to_the_automations_question_does_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A no is answered at once, without the model, and nothing changes."""
    voice = await _satellite_home(hass, mock_config_entry)
    await _automation_asks(hass, voice)

    reply = await voice.async_say("no, leave it")

    assert reply == "OK, I won't do that."
    assert voice.continues is False
    assert hass.states.get(GARAGE_DOOR).state == "open"
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("said", "tool", "question"),
    [
        (
            "yes, open the garage door",
            "open_cover",
            "Do you want me to open Garage Door?",
        ),
        # Nothing names the garage door, which must be named: not offered.
        (
            "yes, close it",
            "close_cover",
            "Which one do you mean: Hall Window or Kitchen Window?",
        ),
    ],
)
async def test_a_yes_without_an_automations_question_still_asks(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    said: str,
    tool: str,
    question: str,
) -> None:
    """Starting with "yes" confirms nothing when nobody asked."""
    voice = await _satellite_home(hass, mock_config_entry)
    if tool == "close_cover":
        await _open_garage_door(hass)
    before = hass.states.get(GARAGE_DOOR).state
    llm_server.add_plan(plan(act(f"cover.{tool}", GARAGE_DOOR)))

    reply = await voice.async_say(said)

    assert reply == question
    assert voice.continues is True
    assert hass.states.get(GARAGE_DOOR).state == before
    assert "An automation asked" not in user_prompt(llm_server)
