"""Learned instant commands: the second time, the same words run without the model.

A command is learned only when it stood (not undone, not corrected, for
`LEARN_AFTER`), when the words alone decided it, and it runs again through
the same validation and gate as every plan. The scripted server proves when
the model was not asked: a request it gets has no scripted reply and fails.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import (
    CONF_LEARN_COMMANDS,
    DOMAIN,
    EVENT_HANDLED,
)
from custom_components.intent_router.deciding.learned import LEARN_AFTER
from custom_components.intent_router.diagnostics import (
    async_get_config_entry_diagnostics,
)
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import entity_registry as er

from .agents import agent_diagnostics, agent_entity, only_agent
from .helpers import act, agent_details, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

SENTENCE = "switch on the kitchen lights please"
STOOD = timedelta(seconds=LEARN_AFTER + 1)


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home, the model first (HA's sentences would take some)."""
    return await async_setup_agent(hass, mock_config_entry, local_first=False)


@pytest.fixture
def handled(hass: HomeAssistant) -> list[Event]:
    """The `intent_router_handled` events, in order."""
    events: list[Event] = async_capture_events(hass, EVENT_HANDLED)
    return events


async def _lights(hass: HomeAssistant, state: str) -> None:
    """Set the kitchen lights directly, as a wall switch would (not a turn)."""
    await hass.services.async_call(
        "light", f"turn_{state}", {"entity_id": "light.kitchen_lights"}, blocking=True
    )


async def _teach(
    hass: HomeAssistant,
    agent_id: str,
    server: ScriptedLLMServer,
    device: str,
    text: str = SENTENCE,
    **args: Any,
) -> None:
    """The lights off, the model plans them on; the plan runs."""
    await _lights(hass, "off")
    server.add_plan(plan(act("light.turn_on", "light.kitchen_lights", **args)))
    await converse(hass, agent_id, text, device)
    assert hass.states.get("light.kitchen_lights").state == "on"
    await _lights(hass, "off")


async def test_a_command_that_stood_runs_without_the_model(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    handled: list[Event],
) -> None:
    """Said again in the same room after the window: no model request at all."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    freezer.tick(STOOD)

    result = await converse(
        hass, agent_id, "Switch on the kitchen lights, please!", kitchen
    )

    assert len(llm_server.requests) == 1
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert speech(result) == "Turned on Kitchen Lights."
    assert handled[-1].data["source"] == "learned"
    assert any("learned" in detail for detail in agent_details())


async def test_before_the_window_the_model_is_asked_again(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Said again at once (perhaps because it went wrong): not yet learned."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    freezer.tick(timedelta(seconds=LEARN_AFTER / 2))
    await _teach(hass, agent_id, llm_server, kitchen)

    assert len(llm_server.requests) == 2


async def test_another_room_or_language_asks_the_model(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """The key is the words with the speaker's area and language."""
    await _teach(hass, agent_id, llm_server, satellite_in(hass, "Kitchen"))
    freezer.tick(STOOD)

    await _teach(hass, agent_id, llm_server, satellite_in(hass, "Bedroom"))

    assert len(llm_server.requests) == 2


@pytest.mark.parametrize(
    ("text", "args", "learned"),
    [
        # Every argument said: learned.
        ("set the kitchen lights to 30 percent", {"brightness_pct": 30}, True),
        # Worked out from the state of the moment: never learned.
        ("make the kitchen lights a bit brighter", {"brightness_pct": 80}, False),
        # Referred back to, or by kind in the speaker's area: the words alone
        # do not decide it.
        ("turn the light on", {}, False),
    ],
)
async def test_only_what_the_words_alone_decide_is_learned(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    text: str,
    args: dict[str, Any],
    learned: bool,
) -> None:
    """Arguments must be said; targets named or of a kind in a place said."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen, text, **args)
    freezer.tick(STOOD)
    if not learned:
        llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights", **args)))

    await converse(hass, agent_id, text, kitchen)

    assert len(llm_server.requests) == (1 if learned else 2)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_undone_or_corrected_commands_are_not_learned(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """An undo, or a next turn about the same lights, means it did not stand."""
    kitchen = satellite_in(hass, "Kitchen")
    await _lights(hass, "off")
    llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))
    await converse(hass, agent_id, SENTENCE, kitchen)
    await converse(hass, agent_id, "undo", kitchen)
    assert hass.states.get("light.kitchen_lights").state == "off"
    llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))
    await converse(hass, agent_id, "kitchen lights on", kitchen)
    llm_server.add_plan(
        plan(act("light.turn_on", "light.kitchen_lights", brightness_pct=20))
    )
    await converse(hass, agent_id, "no, dim the kitchen lights to 20 percent", kitchen)
    freezer.tick(STOOD)

    for text in (SENTENCE, "kitchen lights on"):
        llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))
        await converse(hass, agent_id, text, kitchen)

    assert len(llm_server.requests) == 5


async def test_undo_forgets_a_learned_command(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Undoing what a learned command did forgets it."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    freezer.tick(STOOD)
    await converse(hass, agent_id, SENTENCE, kitchen)
    await converse(hass, agent_id, "undo", kitchen)
    assert hass.states.get("light.kitchen_lights").state == "off"

    await _teach(hass, agent_id, llm_server, kitchen)

    assert len(llm_server.requests) == 2


async def test_a_rename_forgets_a_learned_command(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """New names (or areas, or exposure) are a new home for the words."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    freezer.tick(STOOD)
    er.async_get(hass).async_update_entity(
        "light.kitchen_lights", aliases=["kitchen lights", "worktop"]
    )

    await _teach(hass, agent_id, llm_server, kitchen)

    assert len(llm_server.requests) == 2


async def test_learned_commands_survive_a_restart_and_clear_context_forgets_them(
    hass: HomeAssistant,
    agent_id: str,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
) -> None:
    """Kept in HA storage; diagnostics count them (without the words)."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    # Restarted while the lesson waits: it keeps waiting.
    assert await hass.config_entries.async_reload(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    freezer.tick(STOOD)

    await converse(hass, agent_id, SENTENCE, kitchen)

    assert len(llm_server.requests) == 1
    assert hass.states.get("light.kitchen_lights").state == "on"
    diagnostics = await async_get_config_entry_diagnostics(hass, mock_config_entry)
    assert agent_diagnostics(diagnostics, mock_config_entry)["learned_commands"] == {
        "learned": 1,
        "waiting": 0,
        "hits": 1,
        "hits_per_command": [1],
    }
    assert SENTENCE not in str(diagnostics)

    await hass.services.async_call(
        DOMAIN,
        "clear_context",
        {"agent_id": agent_entity(hass, mock_config_entry)},
        blocking=True,
    )

    assert hass_storage[
        f"{DOMAIN}.learned.{only_agent(mock_config_entry).subentry_id}"
    ]["data"] == {
        "entries": {},
        "waiting": [],
    }
    await _lights(hass, "off")
    await _teach(hass, agent_id, llm_server, kitchen)
    assert len(llm_server.requests) == 2


async def test_a_damaged_file_is_a_cache_lost(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """Garbage in the file: the entry sets up, and nothing is replayed."""
    hass_storage[f"{DOMAIN}.learned.{only_agent(mock_config_entry).subentry_id}"] = {
        "version": 1,
        "minor_version": 1,
        "key": f"{DOMAIN}.learned.{only_agent(mock_config_entry).subentry_id}",
        "data": {"entries": {"en|Kitchen|x": {"actions": "rm -rf"}}},
    }
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")

    llm_server.add_plan(plan(act("light.turn_on", "light.kitchen_lights")))
    await converse(hass, agent_id, "x", kitchen)

    assert len(llm_server.requests) == 1


async def test_the_option_turns_learning_off(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """With learning off, every such command asks the model."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, local_first=False, **{CONF_LEARN_COMMANDS: False}
    )
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    freezer.tick(STOOD)

    await _teach(hass, agent_id, llm_server, kitchen)

    assert len(llm_server.requests) == 2


async def test_a_waiting_lesson_of_the_older_file_layout_still_stands(
    hass: HomeAssistant,
    agent_id: str,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
) -> None:
    """A 1.1 file (the lesson's device under `conversation`) is migrated."""
    kitchen = satellite_in(hass, "Kitchen")
    await _teach(hass, agent_id, llm_server, kitchen)
    # Unloading writes the file; it is then rewritten as version 1.1 wrote it.
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    key = f"{DOMAIN}.learned.{only_agent(mock_config_entry).subentry_id}"
    stored = hass_storage[key]
    assert stored["data"]["waiting"]
    for waiting in stored["data"]["waiting"]:
        waiting["conversation"] = waiting.pop("memory_key")
    hass_storage[key] = {**stored, "minor_version": 1}

    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    freezer.tick(STOOD)
    await converse(hass, agent_id, SENTENCE, kitchen)

    assert len(llm_server.requests) == 1
    assert hass.states.get("light.kitchen_lights").state == "on"
