"""Only what opens the home asks first, on every path that can act.

Unlocking, opening a garage door and disarming ask for a yes; locking,
closing and arming do not. The owner's option asks for every action on
those domains again. Each path is checked through Home Assistant, with the
path that answered read from `intent_router_handled`.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import (
    CONF_CONFIRM_EVERY_ACTION,
    CONF_LOCAL_FIRST,
    CONF_USE_LLM,
    DOMAIN,
    EVENT_HANDLED,
)
from homeassistant.core import Event, HomeAssistant

from .agents import agent_entity
from .helpers import act, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

LOCK = "lock.front_door"
GARAGE = "cover.garage_door"


async def _set(hass: HomeAssistant, service: str, entity_id: str) -> None:
    """Put a device in the state an action will change."""
    domain = entity_id.partition(".")[0]
    await hass.services.async_call(
        domain, service, {"entity_id": entity_id}, blocking=True
    )


async def _agent(
    hass: HomeAssistant, entry: MockConfigEntry, **options: Any
) -> tuple[str, str, list[Event]]:
    """The agent, a kitchen satellite, and the handled events to read."""
    agent_id = await async_setup_agent(hass, entry, **options)
    return (
        agent_id,
        satellite_in(hass, "Kitchen"),
        async_capture_events(hass, EVENT_HANDLED),
    )


# What is said, the model's plan, how the device starts, whether it asks,
# and the state after the turn.
MODEL_CASES = [
    ("lock the front door", "lock.lock", LOCK, "unlock", False, "locked"),
    ("unlock the front door", "lock.unlock", LOCK, "lock", True, "locked"),
    (
        "close the garage door",
        "cover.close_cover",
        GARAGE,
        "open_cover",
        False,
        "closed",
    ),
    ("open the garage door", "cover.open_cover", GARAGE, "close_cover", True, "closed"),
]


@pytest.mark.parametrize(
    ("text", "tool", "entity_id", "before", "asks", "after"), MODEL_CASES
)
async def test_a_model_plan_asks_only_to_open(  # noqa: PLR0913, PLR0917
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    text: str,
    tool: str,
    entity_id: str,
    before: str,
    asks: bool,
    after: str,
) -> None:
    """Locking and closing run at once; unlocking and opening ask."""
    agent_id, kitchen, events = await _agent(hass, mock_config_entry)
    await _set(hass, before, entity_id)
    llm_server.add_plan(plan(act(tool, entity_id)))

    result = await converse(hass, agent_id, text, kitchen)
    await hass.async_block_till_done()  # HA's sentence locks in the background

    assert speech(result).startswith("Do you want me to") is asks
    assert result.continue_conversation is asks
    assert hass.states.get(entity_id).state == after
    assert events[-1].data["source"] == "model"


async def test_every_action_asks_with_the_option(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The owner's option asks before locking too, and a yes locks."""
    agent_id, kitchen, _ = await _agent(
        hass, mock_config_entry, **{CONF_CONFIRM_EVERY_ACTION: True}
    )
    await _set(hass, "unlock", LOCK)
    llm_server.add_plan(plan(act("lock.lock", LOCK)))

    question = await converse(hass, agent_id, "lock the front door", kitchen)
    assert speech(question) == "Do you want me to lock Front Door?"
    assert hass.states.get(LOCK).state == "unlocked"

    await converse(hass, agent_id, "yes", kitchen)
    assert hass.states.get(LOCK).state == "locked"


async def test_a_wrong_plan_that_unlocks_does_not_run(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Asked to lock, the model unlocks: refused, the door stays as it was.

    With HA's sentences first, they would lock it before the model is asked.
    """
    agent_id, kitchen, _ = await _agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: False}
    )
    llm_server.add_plan(plan(act("lock.unlock", LOCK)))

    result = await converse(hass, agent_id, "lock the front door", kitchen)
    await hass.async_block_till_done()  # HA's sentence locks in the background

    assert "Do you want me to" not in speech(result)
    assert hass.states.get(LOCK).state == "locked"


@pytest.mark.parametrize("use_llm", [True, False])
@pytest.mark.parametrize(
    ("text", "entity_id", "before", "asks", "after"),
    [
        ("lock the front door", LOCK, "unlock", False, "locked"),
        ("unlock the front door", LOCK, "lock", True, "locked"),
    ],
)
async def test_local_paths_ask_only_to_open(  # noqa: PLR0913, PLR0917
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    use_llm: bool,
    text: str,
    entity_id: str,
    before: str,
    asks: bool,
    after: str,
) -> None:
    """HA's own sentences and the reading: the model is never asked."""
    agent_id, kitchen, events = await _agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: use_llm}
    )
    await _set(hass, before, entity_id)

    result = await converse(hass, agent_id, text, kitchen)
    await hass.async_block_till_done()  # HA's sentence locks in the background

    assert speech(result).startswith("Do you want me to") is asks
    assert hass.states.get(entity_id).state == after
    assert events[-1].data["source"] in ("local", "reading")
    assert llm_server.requests == []


async def test_the_reading_asks_only_to_open(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Words HA's sentences do not know, read by the integration itself."""
    agent_id, kitchen, events = await _agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _set(hass, "open_cover", GARAGE)
    llm_server.add_plan(plan(act("cover.open_cover", GARAGE)))  # wrong: not asked

    closed = await converse(hass, agent_id, "garage door close it please", kitchen)
    assert hass.states.get(GARAGE).state == "closed", speech(closed)
    assert events[-1].data["source"] == "reading"

    opened = await converse(hass, agent_id, "garage door open it please", kitchen)
    assert speech(opened) == "Do you want me to open Garage Door?"
    assert hass.states.get(GARAGE).state == "closed"
    assert events[-1].data["source"] == "reading"
    assert llm_server.requests == []


async def test_undo_of_a_lock_asks_before_it_unlocks(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Locking ran at once; undoing it unlocks, so it asks first."""
    agent_id, kitchen, events = await _agent(hass, mock_config_entry)
    await _set(hass, "unlock", LOCK)
    llm_server.add_plan(plan(act("lock.lock", LOCK)))
    await converse(hass, agent_id, "lock the front door", kitchen)
    assert hass.states.get(LOCK).state == "locked"

    undo = await converse(hass, agent_id, "undo that", kitchen)

    assert speech(undo) == "Do you want me to unlock Front Door?"
    assert hass.states.get(LOCK).state == "locked"
    assert events[-1].data["source"] == "shortcut"
    await converse(hass, agent_id, "yes", kitchen)
    assert hass.states.get(LOCK).state == "unlocked"


async def test_again_after_closing_does_not_ask(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """After closing the garage door, "do that again" closes it, unasked."""
    agent_id, kitchen, events = await _agent(hass, mock_config_entry)
    await _set(hass, "open_cover", GARAGE)
    llm_server.add_plan(plan(act("cover.close_cover", GARAGE)))
    await converse(hass, agent_id, "close the garage door", kitchen)
    await _set(hass, "open_cover", GARAGE)

    again = await converse(hass, agent_id, "do that again", kitchen)

    assert hass.states.get(GARAGE).state == "closed", speech(again)
    assert events[-1].data["source"] == "shortcut"


@pytest.mark.parametrize(
    ("text", "tool", "before", "asks", "after"),
    [
        ("lock the front door", "lock.lock", "unlock", False, "locked"),
        ("unlock the front door", "lock.unlock", "lock", True, "locked"),
    ],
)
async def test_the_route_action_asks_only_to_open(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    text: str,
    tool: str,
    before: str,
    asks: bool,
    after: str,
) -> None:
    """An automation's `intent_router.route` follows the same rule."""
    await _agent(hass, mock_config_entry)
    await _set(hass, before, LOCK)
    llm_server.add_plan(plan(act(tool, LOCK)))

    response = await hass.services.async_call(
        DOMAIN,
        "route",
        {"agent_id": agent_entity(hass, mock_config_entry), "text": text},
        blocking=True,
        return_response=True,
    )

    assert response is not None
    assert str(response["speech"]).startswith("Do you want me to") is asks
    assert hass.states.get(LOCK).state == after


@pytest.mark.parametrize(
    ("language", "said", "asked"),
    [
        (
            "en",
            "switch off the kitchen lights if nobody is cooking",
            "Do you want me to turn off Kitchen Lights?",
        ),
        (
            "de",
            "schalte Kitchen Lights aus, wenn niemand mehr kocht",
            "Soll ich Kitchen Lights ausschalten?",
        ),
        (
            "fr",
            "éteins Kitchen Lights s'il n'y a personne",
            "Dois-je éteindre Kitchen Lights ?",
        ),
    ],
)
async def test_a_command_on_a_condition_nobody_checked_asks_first(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    asked: str,
) -> None:
    """A command hanging on "if nobody is cooking" runs only after a yes."""
    agent_id, kitchen, _ = await _agent(hass, mock_config_entry)
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    result = await converse(hass, agent_id, said, kitchen, language=language)

    assert speech(result) == asked
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_please_is_no_condition(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Politeness ("s'il te plaît") holds no condition's "s'il": it runs."""
    agent_id, kitchen, _ = await _agent(hass, mock_config_entry)

    said = "éteins Kitchen Lights s'il te plaît"
    await converse(hass, agent_id, said, kitchen, language="fr")

    assert hass.states.get("light.kitchen_lights").state == "off"
