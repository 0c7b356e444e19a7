"""Two agents on one server: each its own model, prompt, memory and counters.

One entry (the server) with two `conversation` subentries: an English agent
on `test-model` and a German one on `other-model` with its own
instructions. The scripted server shows which model and instructions each
turn's request carried.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.intent_router.const import (
    CONF_EXTRA_INSTRUCTIONS,
    CONF_MODEL,
    DOMAIN,
    EVENT_HANDLED,
)
from custom_components.intent_router.diagnostics import (
    async_get_config_entry_diagnostics,
)
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util

from .agents import AGENT_OPTIONS, agent_entity_id, agent_subentry, agents, server_entry
from .helpers import converse, plan, system_prompt, user_prompt
from .home import async_setup_demo_home, satellite_in
from .llm_server import ScriptedLLMServer

pytestmark = pytest.mark.usefixtures("core_components")

GERMAN = "Antworte immer auf Deutsch."


@pytest.fixture
async def entry(hass: HomeAssistant, llm_server: ScriptedLLMServer) -> MockConfigEntry:
    """The demo home, then one server with an English and a German agent."""
    await async_setup_demo_home(hass)
    entry = server_entry(
        hass,
        llm_server.url,
        agent_subentry(AGENT_OPTIONS, "English"),
        agent_subentry(
            {
                **AGENT_OPTIONS,
                CONF_MODEL: "other-model",
                CONF_EXTRA_INSTRUCTIONS: GERMAN,
            },
            "Deutsch",
        ),
    )
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry


def _ids(hass: HomeAssistant, entry: MockConfigEntry) -> tuple[str, str]:
    """The English and the German agent's entities."""
    english, german = agents(entry)
    return (
        agent_entity_id(hass, english.subentry_id),
        agent_entity_id(hass, german.subentry_id),
    )


async def test_each_agent_asks_with_its_own_model_and_instructions(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """One connection, two entities, two devices; each turn names its model."""
    english, german = _ids(hass, entry)
    assert (english, german) == ("conversation.english", "conversation.deutsch")
    devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    assert sorted((d.name, d.model) for d in devices) == [
        ("Deutsch", "other-model"),
        ("English", "test-model"),
    ]
    # Each agent warmed the server's cache for its own model.
    assert {warm_up["model"] for warm_up in llm_server.warm_ups} == {
        "test-model",
        "other-model",
    }

    for agent_id in (english, german, english):
        llm_server.add_plan(plan(speech="OK."))
        await converse(hass, agent_id, "what can you do")

    assert [r["model"] for r in llm_server.requests] == [
        "test-model",
        "other-model",
        "test-model",
    ]
    assert GERMAN not in system_prompt(llm_server, 0)
    assert GERMAN in system_prompt(llm_server, 1)
    assert GERMAN not in system_prompt(llm_server, 2)


async def test_each_agent_has_its_own_memory_counters_and_events(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """A turn one agent remembers is not the other's; clearing is per agent."""
    english, german = _ids(hass, entry)
    english_agent, german_agent = agents(entry)
    kitchen = satellite_in(hass, "Kitchen")
    events = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_plan(plan(speech="Hello."))
    await converse(hass, english, "remember the blue vase", kitchen)

    llm_server.add_plan(plan(speech="Hallo."))
    await converse(hass, german, "hallo", kitchen)
    assert "blue vase" not in user_prompt(llm_server)
    llm_server.add_plan(plan(speech="OK."))
    await converse(hass, english, "and now?", kitchen)
    assert "blue vase" in user_prompt(llm_server)

    assert [event.data["subentry_id"] for event in events] == [
        english_agent.subentry_id,
        german_agent.subentry_id,
        english_agent.subentry_id,
    ]
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    shown = diagnostics["agents"]
    assert shown[english_agent.subentry_id]["title"] == "English"
    assert shown[english_agent.subentry_id]["turns"]["counters"]["turns"] == 2
    assert shown[german_agent.subentry_id]["turns"]["counters"]["turns"] == 1
    assert shown[german_agent.subentry_id]["options"][CONF_MODEL] == "other-model"
    assert GERMAN not in str(diagnostics)

    # Clearing the German agent's memory leaves the English agent's.
    await hass.services.async_call(
        DOMAIN, "clear_context", {"agent_id": german}, blocking=True
    )
    llm_server.add_plan(plan(speech="OK."))
    await converse(hass, english, "and again?", kitchen)
    assert "blue vase" in user_prompt(llm_server)


async def test_route_names_the_agent(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """The action runs the turn on the agent it names, with that agent's model."""
    _, german = _ids(hass, entry)
    llm_server.add_plan(plan(speech="Hallo."))

    response = await hass.services.async_call(
        DOMAIN,
        "route",
        {"agent_id": german, "text": "hallo"},
        blocking=True,
        return_response=True,
    )

    assert response is not None
    assert response["speech"] == "Hallo."
    assert llm_server.requests[-1]["model"] == "other-model"


async def test_removing_an_agent_removes_its_entity_and_files(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """The other agent keeps working; nothing of the removed one stays."""
    english, german = _ids(hass, entry)
    english_agent, german_agent = agents(entry)
    kitchen = satellite_in(hass, "Kitchen")
    for agent_id in (english, german):
        llm_server.add_plan(plan(speech="OK."))
        await converse(hass, agent_id, "hello", kitchen)
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=31))
    await hass.async_block_till_done()
    files = [
        f"{DOMAIN}.{kind}.{agent.subentry_id}"
        for kind in ("context", "learned")
        for agent in (english_agent, german_agent)
    ]
    german_files = [key for key in files if german_agent.subentry_id in key]
    assert all(key in hass_storage for key in files if "context" in key)

    hass.config_entries.async_remove_subentry(entry, german_agent.subentry_id)
    await hass.async_block_till_done()

    assert entry.state is ConfigEntryState.LOADED
    assert list(entry.runtime_data.agents) == [english_agent.subentry_id]
    assert er.async_get(hass).async_get(german) is None
    assert hass.states.get(german) is None
    assert not [key for key in german_files if key in hass_storage]
    assert f"{DOMAIN}.context.{english_agent.subentry_id}" in hass_storage
    llm_server.add_plan(plan(speech="Still here."))
    await converse(hass, english, "still there?", kitchen)
    assert "hello" in user_prompt(llm_server)
