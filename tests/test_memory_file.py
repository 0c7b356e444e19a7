"""The memory file: damaged, old, newer or odd, it never keeps the agent away.

Each file is seeded in Home Assistant's storage before the entry is set up;
what the agent remembers afterwards is read through its own memory, what it
writes through the same storage.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
import json
import logging
from pathlib import Path
import threading
import time
from typing import Any
from unittest.mock import patch

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)

from custom_components.intent_router.const import DOMAIN
from custom_components.intent_router.core.records import (
    ExecutedAction,
    PriorState,
    Turn,
)
from custom_components.intent_router.home.context_store import (
    STORAGE_MINOR_VERSION,
    STORAGE_VERSION,
)
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir, json as json_helper, storage

from .agents import agent_data, only_agent
from .helpers import act, converse, plan, switched_on
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

# Taken before any test replaces them with the in-memory storage of the harness.
REAL_WRITE = storage.Store._async_write_data
REAL_PREPARE_SAVE_JSON = json_helper.prepare_save_json


@pytest.fixture
def hass_config_dir(hass_tmp_config_dir: str) -> str:
    """A config directory of this test's own, for the test that writes files."""
    return hass_tmp_config_dir


def _key(entry: MockConfigEntry) -> str:
    return f"{DOMAIN}.context.{only_agent(entry).subentry_id}"


def _turn(text: str, **fields: Any) -> dict[str, Any]:
    """A stored turn as this version writes it, a minute old."""
    return {
        "time": time.time() - 60,
        "text": text,
        "speech": "OK.",
        "outcome": "done",
        "source": "model",
        "plan": None,
        "actions": [],
        **fields,
    }


def _seed(
    hass_storage: dict[str, Any],
    entry: MockConfigEntry,
    data: Any,
    version: int = STORAGE_VERSION,
    minor_version: int = STORAGE_MINOR_VERSION,
) -> dict[str, Any]:
    """Put a memory file in storage, as an earlier run (or version) left it."""
    stored = {
        "version": version,
        "minor_version": minor_version,
        "key": _key(entry),
        "data": data,
    }
    hass_storage[_key(entry)] = stored
    return stored


def _texts(entry: MockConfigEntry, key: str) -> list[str]:
    return [turn.text for turn in agent_data(entry).context.recent(key)]


def _issue(hass: HomeAssistant, entry: MockConfigEntry) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(
        DOMAIN, f"memory_set_aside_{only_agent(entry).subentry_id}"
    )


async def test_bad_turns_are_dropped_and_the_rest_kept(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Wrong types, missing fields, odd shapes: those turns go, with a warning."""
    missing_speech = _turn("no speech")
    del missing_speech["speech"]
    _seed(
        hass_storage,
        mock_config_entry,
        {
            "turns": {
                "kitchen": [
                    _turn("kitchen off"),
                    _turn("text a number") | {"text": 5},
                    _turn("time a word") | {"time": "yesterday"},
                    _turn("actions a word") | {"actions": "all of them"},
                    _turn("tool a number")
                    | {"actions": [{"tool": 1, "targets": [], "args": {}}]},
                    _turn("prior not a state")
                    | {
                        "actions": [
                            {
                                "tool": "light.turn_on",
                                "targets": ["light.a"],
                                "args": {},
                                "prior": {"light.a": "on"},
                            }
                        ]
                    },
                    missing_speech,
                    "not a turn",
                    # A newer minor version's field: the turn stays, the field goes.
                    _turn("from a newer minor") | {"mood": "cheerful"},
                ],
                "bedroom": "not a list of turns",
            }
        },
    )

    await async_setup_agent(hass, mock_config_entry)

    assert mock_config_entry.state is ConfigEntryState.LOADED
    assert _texts(mock_config_entry, "kitchen") == ["kitchen off", "from a newer minor"]
    assert _texts(mock_config_entry, "bedroom") == []
    assert "Dropped 8 unreadable turns" in caplog.text
    assert "text a number" not in caplog.text
    assert _issue(hass, mock_config_entry) is None
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    written = hass_storage[_key(mock_config_entry)]
    assert (written["version"], written["minor_version"]) == (1, 2)
    assert set(written["data"]["turns"]) == {"kitchen"}
    assert "mood" not in written["data"]["turns"]["kitchen"][1]


async def test_unknown_keys_are_logged_once_with_the_version_and_left_out(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A newer minor version's keys: one warning naming them, none saved back."""
    action = {"tool": "light.turn_on", "targets": ["light.a"], "args": {}}
    _seed(
        hass_storage,
        mock_config_entry,
        {
            "turns": {
                "kitchen": [
                    _turn("first", mood="cheerful"),
                    _turn("second", mood="calm", actions=[action | {"why": "dark"}]),
                ],
                "hall": [_turn("third", mood="tired")],
            }
        },
        minor_version=STORAGE_MINOR_VERSION + 1,
    )

    await async_setup_agent(hass, mock_config_entry)

    warnings = [r.getMessage() for r in caplog.records if "does not" in r.getMessage()]
    assert len(warnings) == 1
    assert f"version {STORAGE_VERSION}.{STORAGE_MINOR_VERSION + 1}" in warnings[0]
    assert warnings[0].endswith("left out: actions.why, mood")
    assert _texts(mock_config_entry, "kitchen") == ["first", "second"]
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    written = hass_storage[_key(mock_config_entry)]["data"]["turns"]
    saved = [turn for turns in written.values() for turn in turns]
    assert len(saved) == 3
    assert not any("mood" in turn for turn in saved)
    assert "why" not in saved[1]["actions"][0]


async def test_a_file_this_version_wrote_loads_without_a_warning(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Undo data (a dict of prior states per entity) is not taken for unknown keys."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    bedroom = satellite_in(hass, "Bedroom")
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))
    await switched_on(hass, "light.bed_light")
    await converse(hass, agent_id, "bedroom light off", bedroom)
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    written = hass_storage[_key(mock_config_entry)]["data"]["turns"][bedroom]
    assert set(written[0]["actions"][0]["prior"]) == {"light.bed_light"}
    caplog.clear()

    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()

    assert "does not know" not in caplog.text
    assert _texts(mock_config_entry, bedroom) == ["bedroom light off"]


async def test_an_unknown_key_in_a_prior_state_is_named(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A key a prior state lacks is named by where it is, not taken for an entity."""
    prior = {"light.a": {"state": "on", "attributes": {}, "colour": "red"}}
    action = {"tool": "light.turn_off", "targets": ["light.a"], "args": {}}
    _seed(
        hass_storage,
        mock_config_entry,
        {"turns": {"kitchen": [_turn("off", actions=[action | {"prior": prior}])]}},
    )

    await async_setup_agent(hass, mock_config_entry)

    warnings = [r.getMessage() for r in caplog.records if "does not" in r.getMessage()]
    assert len(warnings) == 1
    assert warnings[0].endswith("left out: actions.prior.colour")
    assert _texts(mock_config_entry, "kitchen") == ["off"]


async def test_a_file_from_a_newer_version_is_set_aside(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """Storage version 2 (a downgrade): kept as .bad, a repair issue, no memory."""
    newer = _seed(
        hass_storage,
        mock_config_entry,
        {"devices": {"kitchen": {"turns": [_turn("kitchen off")]}}},
        version=2,
        minor_version=3,
    )

    agent_id = await async_setup_agent(hass, mock_config_entry)

    assert mock_config_entry.state is ConfigEntryState.LOADED
    assert agent_data(mock_config_entry).context.counts() == {"keys": 0, "turns": 0}
    copy = hass_storage[f"{_key(mock_config_entry)}.bad"]
    assert copy == newer | {"key": f"{_key(mock_config_entry)}.bad"}
    issue = _issue(hass, mock_config_entry)
    assert issue is not None
    assert issue.translation_key == "memory_from_newer_version"
    assert issue.severity is ir.IssueSeverity.WARNING
    assert not issue.is_fixable
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["version"] == "2"

    llm_server.add_plan(plan(speech="Hi."))
    await converse(hass, agent_id, "hello", "kitchen")
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    written = hass_storage[_key(mock_config_entry)]
    assert written["version"] == STORAGE_VERSION
    assert [t["text"] for t in written["data"]["turns"]["kitchen"]] == ["hello"]
    assert hass_storage[f"{_key(mock_config_entry)}.bad"] == copy

    # Removing the entry takes the copy and the issue with it.
    await hass.config_entries.async_remove(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert f"{_key(mock_config_entry)}.bad" not in hass_storage
    assert _issue(hass, mock_config_entry) is None


@pytest.mark.parametrize(
    ("file", "copied"),
    [
        ({"version": 1, "minor_version": 2, "data": ["a", "list"]}, True),
        ({"version": 1, "minor_version": 2, "data": {"turns": ["a", "list"]}}, True),
        ({"version": 1, "minor_version": 1, "data": "a string"}, True),
        ({"data": {"turns": {}}}, False),
    ],
    ids=["data a list", "turns a list", "old version, data a string", "no version"],
)
async def test_an_unusable_file_is_set_aside(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    file: dict[str, Any],
    copied: bool,
) -> None:
    """Not this layout, or not readable: the entry loads with an empty memory."""
    hass_storage[_key(mock_config_entry)] = {"key": _key(mock_config_entry), **file}

    await async_setup_agent(hass, mock_config_entry)

    assert mock_config_entry.state is ConfigEntryState.LOADED
    assert agent_data(mock_config_entry).context.counts() == {"keys": 0, "turns": 0}
    issue = _issue(hass, mock_config_entry)
    assert issue is not None
    assert issue.translation_key == "memory_unusable"
    copy = hass_storage.get(f"{_key(mock_config_entry)}.bad", {})
    assert copy.get("data") == (file["data"] if copied else None)


async def test_an_old_file_is_migrated(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """1.1 stored an action's arguments as `data`: "again" still repeats them."""
    kitchen = satellite_in(hass, "Kitchen")
    old_turn = _turn("bed light to 40") | {
        "actions": [
            {
                "tool": "light.turn_on",
                "targets": ["light.bed_light"],
                "data": {"brightness_pct": 40},
                "prior": {"light.bed_light": {"state": "off", "attributes": {}}},
            }
        ],
        "pending_question": None,
    }
    _seed(hass_storage, mock_config_entry, {"turns": {kitchen: [old_turn]}}, 1, 1)

    agent_id = await async_setup_agent(hass, mock_config_entry)
    written = hass_storage[_key(mock_config_entry)]
    assert (written["version"], written["minor_version"]) == (1, 2)
    assert written["data"]["turns"][kitchen][0]["actions"][0]["args"] == {
        "brightness_pct": 40
    }
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.bed_light"}, blocking=True
    )

    await converse(hass, agent_id, "do that again", kitchen)

    assert hass.states.get("light.bed_light").attributes["brightness"] == 102
    assert llm_server.requests == []


async def test_a_lone_surrogate_does_not_break_saving(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """One unencodable character (said, or in the model's words) spoils no save."""
    agent_id = await async_setup_agent(hass, mock_config_entry)
    kitchen, bedroom = satellite_in(hass, "Kitchen"), satellite_in(hass, "Bedroom")
    llm_server.add_plan(plan(speech="Sure \ud800 thing."))
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))
    await switched_on(hass, "light.bed_light")

    await converse(hass, agent_id, "hello \udc00 there", kitchen)
    await converse(hass, agent_id, "bedroom light off", bedroom)
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)

    turns = hass_storage[_key(mock_config_entry)]["data"]["turns"]
    assert turns[kitchen][0]["text"] == "hello \ufffd there"
    assert turns[kitchen][0]["speech"] == "Sure \ufffd thing."
    assert turns[bedroom][0]["actions"][0]["targets"] == ["light.bed_light"]


async def test_saves_are_serialised_off_the_event_loop(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
) -> None:
    """The memory file is written for real, and turned into JSON in a worker thread."""
    loop_thread = threading.get_ident()
    threads: list[int] = []

    def prepare(data: dict[str, Any], **kwargs: Any) -> tuple[str, str | bytes]:
        if data["key"] == _key(mock_config_entry):
            threads.append(threading.get_ident())
        return REAL_PREPARE_SAVE_JSON(data, **kwargs)

    write: Callable[..., Any] = REAL_WRITE
    with (
        patch.object(storage.Store, "_async_write_data", write),
        patch.object(json_helper, "prepare_save_json", prepare),
    ):
        agent_id = await async_setup_agent(hass, mock_config_entry)
        rooms = {satellite_in(hass, room): room for room in ("Kitchen", "Bedroom")}
        for device, room in rooms.items():
            llm_server.add_plan(plan(speech="Noted."))
            await converse(hass, agent_id, f"note for the {room}", device)
        # The loop's clock must pass the last turn's save time too.
        freezer.tick(timedelta(seconds=31))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
        assert len(threads) == 1
        assert await hass.config_entries.async_unload(mock_config_entry.entry_id)

    path = Path(hass.config.path(".storage", _key(mock_config_entry)))
    written = json.loads(await hass.async_add_executor_job(path.read_text, "utf-8"))
    assert (written["version"], written["minor_version"]) == (1, 2)
    assert {
        key: [t["text"] for t in turns]
        for key, turns in written["data"]["turns"].items()
    } == {device: [f"note for the {room}"] for device, room in rooms.items()}
    assert len(threads) == 2  # the delayed save, and the one on unload
    assert loop_thread not in threads


async def test_a_turn_reads_back_as_it_was_added(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Every field survives being kept as JSON; odd values become JSON's own."""
    await async_setup_agent(hass, mock_config_entry)
    context = agent_data(mock_config_entry).context
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    nested: dict[str, Any] = {}
    for _ in range(100):
        nested = {"deeper": nested}
    action = {"tool": "light.turn_on", "targets": ["light.a"], "args": {"x": 1}}
    turn = Turn(
        time=time.time(),
        text="bed light to 40",
        speech="Bedroom at 40 percent.",
        outcome="done",
        source="model",
        plan={"actions": [action], "speech": "", "nested": nested},
        actions=[
            ExecutedAction(
                "light.turn_on",
                ["light.a"],
                {"brightness_pct": 40, "rgb_color": (255, 0, 0)},
                {
                    "light.a": PriorState(
                        "on", {"since": when, "modes": {"hs"}, "odd": object}
                    )
                },
            )
        ],
    )

    context.add("kitchen", turn)
    (back,) = context.recent("kitchen")

    assert (back.time, back.text, back.speech) == (turn.time, turn.text, turn.speech)
    assert (back.outcome, back.source) == ("done", "model")
    assert back.plan is not None
    assert back.plan["actions"] == [action]
    assert "deeper" in json.dumps(back.plan["nested"])  # cut short, not lost
    assert back.actions == [
        ExecutedAction(
            "light.turn_on",
            ["light.a"],
            {"brightness_pct": 40, "rgb_color": [255, 0, 0]},
            {
                "light.a": PriorState(
                    "on",
                    {"since": when.isoformat(), "modes": ["hs"], "odd": str(object)},
                )
            },
        )
    ]
    back.actions[0].args["brightness_pct"] = 99
    assert context.recent("kitchen")[0].actions[0].args["brightness_pct"] == 40


async def test_log_of_a_damaged_file_holds_no_text(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What was said stays out of the log, even when the file is odd."""
    caplog.set_level(logging.DEBUG, logger="custom_components.intent_router")
    _seed(
        hass_storage,
        mock_config_entry,
        {"turns": {"kitchen": [_turn("my secret plans") | {"speech": 3}]}},
    )

    await async_setup_agent(hass, mock_config_entry)

    ours = [r for r in caplog.records if r.name.startswith("custom_components")]
    assert any("Dropped 1 unreadable turns" in r.getMessage() for r in ours)
    assert not any("secret plans" in r.getMessage() for r in ours)
