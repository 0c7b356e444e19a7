"""A version 1 entry (one agent in its options) becomes a server with that agent.

Nothing is lost on the way: the options become the agent's, the conversation
entity keeps its entity id, its device follows, and the memory and learned
commands files (seeded in Home Assistant's storage as version 1 keyed them,
by the entry) are the agent's.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import (
    CONF_EXTRA_INSTRUCTIONS,
    CONF_MODEL,
    DOMAIN,
)
from custom_components.intent_router.diagnostics import (
    async_get_config_entry_diagnostics,
)
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er

from .agents import AGENT_OPTIONS, API_KEY, agent_diagnostics, only_agent
from .helpers import converse, plan, user_prompt
from .home import async_setup_demo_home, satellite_in
from .llm_server import ScriptedLLMServer

pytestmark = pytest.mark.usefixtures("core_components")

OLD_OPTIONS = {
    **AGENT_OPTIONS,
    CONF_MODEL: "other-model",
    CONF_EXTRA_INSTRUCTIONS: "Answer briefly.",
}
REMEMBERED = "dim the kitchen lights a bit"


def _old_entry(hass: HomeAssistant, url: str, version: int = 1) -> MockConfigEntry:
    """An entry as version 1 stored it: the agent's settings in its options."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Kitchen GPU",
        data={CONF_URL: url, CONF_API_KEY: API_KEY, CONF_VERIFY_SSL: True},
        options=OLD_OPTIONS,
        version=version,
        minor_version=1,
    )
    entry.add_to_hass(hass)
    return entry


def _stored(key: str, data: Any, version: int = 1, minor: int = 1) -> dict[str, Any]:
    """A file in Home Assistant's storage."""
    return {"version": version, "minor_version": minor, "key": key, "data": data}


def _seed_files(
    hass_storage: dict[str, Any], owner: str, device_id: str
) -> dict[str, dict[str, Any]]:
    """Memory (one remembered turn), learned commands and a set-aside copy."""
    now = time.time()
    files = {
        f"{DOMAIN}.context.{owner}": _stored(
            f"{DOMAIN}.context.{owner}",
            {
                "turns": {
                    device_id: [
                        {
                            "time": now - 60,
                            "text": REMEMBERED,
                            "speech": "OK.",
                            "outcome": "done",
                            "source": "model",
                            "plan": None,
                            "actions": [],
                        }
                    ]
                }
            },
        ),
        f"{DOMAIN}.learned.{owner}": _stored(
            f"{DOMAIN}.learned.{owner}",
            {
                "entries": {
                    "en|Kitchen|switch on the kitchen lights": {
                        "actions": [
                            {
                                "tool": "light.turn_on",
                                "targets": ["light.kitchen_lights"],
                                "args": {},
                            }
                        ],
                        "fingerprint": "0123456789abcdef",
                        "confidence": 0.95,
                        "learned": now - 600,
                        "used": now - 60,
                        "hits": 2,
                    }
                },
                "waiting": [],
            },
            minor=2,
        ),
        # A file set aside once, kept as it was, with its own version.
        f"{DOMAIN}.context.{owner}.bad": _stored(
            f"{DOMAIN}.context.{owner}.bad", {"turns": "not turns"}, version=9
        ),
    }
    hass_storage.update(files)
    return files


async def test_an_old_entry_becomes_a_server_with_its_agent(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
    entity_registry: er.EntityRegistry,
    device_registry: dr.DeviceRegistry,
) -> None:
    """Options, entity, device, memory and learned commands: all the agent's."""
    await async_setup_demo_home(hass)
    kitchen = satellite_in(hass, "Kitchen")
    entry = _old_entry(hass, llm_server.url)
    # What a version 1 set-up registered, identified by the entry.
    device = device_registry.async_get_or_create(
        config_entry_id=entry.entry_id,
        identifiers={(DOMAIN, entry.entry_id)},
        name="Kitchen GPU",
        entry_type=dr.DeviceEntryType.SERVICE,
    )
    entity = entity_registry.async_get_or_create(
        "conversation",
        DOMAIN,
        entry.entry_id,
        config_entry=entry,
        device_id=device.id,
        suggested_object_id="kitchen_gpu",
    )
    old_files = _seed_files(hass_storage, entry.entry_id, kitchen)

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    assert entry.state is ConfigEntryState.LOADED
    assert (entry.version, entry.minor_version) == (2, 1)
    assert entry.options == {}
    assert entry.title == "Kitchen GPU"
    agent = only_agent(entry)
    assert agent.title == "Kitchen GPU"
    assert dict(agent.data) == OLD_OPTIONS
    agent_id = agent.subentry_id

    # The same entity id, now the agent's, on the same device.
    moved = entity_registry.async_get(entity.entity_id)
    assert moved is not None
    assert (moved.unique_id, moved.config_subentry_id) == (agent_id, agent_id)
    assert moved.device_id == device.id
    assert hass.states.get(entity.entity_id) is not None
    device_now = device_registry.async_get(device.id)
    assert device_now is not None
    assert device_now.identifiers == {(DOMAIN, agent_id)}
    assert device_now.config_subentry_id == agent_id
    assert device_now.model == "other-model"

    # Each file under the agent's key, as it was; none under the entry's.
    for key, stored in old_files.items():
        assert key not in hass_storage
        new_key = key.replace(entry.entry_id, agent_id)
        assert hass_storage[new_key]["version"] == stored["version"]
        assert hass_storage[new_key]["data"] == stored["data"]
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    assert agent_diagnostics(diagnostics, entry)["learned_commands"]["hits"] == 2

    # The agent remembers the kitchen's turn, and asks with its own model.
    llm_server.add_plan(plan(speech="OK."))
    await converse(hass, entity.entity_id, "and the bedroom too", kitchen)
    assert REMEMBERED in user_prompt(llm_server)
    assert llm_server.requests[-1]["model"] == "other-model"


async def test_an_old_entry_never_set_up_migrates_too(
    hass: HomeAssistant, llm_server: ScriptedLLMServer, hass_storage: dict[str, Any]
) -> None:
    """No entity, device or files yet: the agent is made and set up."""
    entry = _old_entry(hass, llm_server.url)

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    assert entry.state is ConfigEntryState.LOADED
    agent = only_agent(entry)
    assert dict(agent.data) == OLD_OPTIONS
    assert not [key for key in hass_storage if entry.entry_id in key]


async def test_an_entry_of_a_newer_version_is_left_alone(
    hass: HomeAssistant, llm_server: ScriptedLLMServer
) -> None:
    """Written by a newer Intent Router: not set up, and not changed."""
    entry = _old_entry(hass, llm_server.url, version=3)

    assert not await hass.config_entries.async_setup(entry.entry_id)

    assert entry.state is ConfigEntryState.MIGRATION_ERROR
    assert entry.version == 3
    assert entry.options == OLD_OPTIONS
    assert entry.subentries == {}


async def test_a_file_that_cannot_be_read_stays_where_it_is(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The entry still migrates and loads; the agent starts without that memory."""
    entry = _old_entry(hass, llm_server.url)
    key = f"{DOMAIN}.context.{entry.entry_id}"
    # No version: the Store cannot read it (as in test_memory_file.py).
    hass_storage[key] = {"key": key, "data": {"turns": {}}}

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()

    assert entry.state is ConfigEntryState.LOADED
    assert entry.version == 2
    assert hass_storage[key] == {"key": key, "data": {"turns": {}}}
    assert f"Could not move the file {key}" in caplog.text
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    assert agent_diagnostics(diagnostics, entry)["context"]["turns"] == 0
