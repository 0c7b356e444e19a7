"""The server's speed, measured at warm-up, against the timeout.

The scripted server reports llama.cpp's `timings` (fast by default, slow
where a test says so), so no verdict here depends on the machine's load;
the one wall-clock test only makes the server slower than any load could.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.intent_router.const import CONF_TIMEOUT, CONF_USE_LLM, DOMAIN
from custom_components.intent_router.home.server_speed import issue_id
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component

from .agents import (
    AGENT_OPTIONS,
    agent_subentry,
    agents,
    only_agent,
    server_entry,
    set_agent_options,
)
from .helpers import act, converse, plan, speech
from .home import async_setup_agent
from .llm_server import FAST_TIMINGS, NEVER, SLOW_TIMINGS, ScriptedLLMServer

# What the slow server needs for a typical plan (98 prompt tokens at 30 a
# second, 12 written at 2 a second), and the timeout offered (x 1.5, rounded
# up to the half second).
SLOW_NEEDS = "9.3"
SLOW_FITS = 14.0


async def _agent(hass: HomeAssistant, entry: MockConfigEntry, **options: Any) -> str:
    """The agent, its warm-up measured."""
    agent_id = await async_setup_agent(hass, entry, local_first=False, **options)
    await hass.async_block_till_done(wait_background_tasks=True)
    return agent_id


def _issue(hass: HomeAssistant, entry: MockConfigEntry) -> ir.IssueEntry | None:
    """The one agent's too-slow issue, if raised."""
    return ir.async_get(hass).async_get_issue(
        DOMAIN, issue_id(only_agent(entry).subentry_id)
    )


async def _reload(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """Reload the entry and let its warm-up measure the server again."""
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)


async def test_a_slow_server_raises_an_issue_that_says_why(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Measured speed, what a plan needs, the timeout that fits; in diagnostics."""
    llm_server.timings = dict(SLOW_TIMINGS)
    await _agent(hass, mock_config_entry)

    issue = _issue(hass, mock_config_entry)
    assert issue is not None
    assert issue.is_fixable
    assert issue.translation_key == "server_too_slow"
    assert issue.translation_placeholders == {
        "agent": only_agent(mock_config_entry).title,
        "prompt_speed": "30",
        "output_speed": "2.0",
        "prompt_tokens": "98",
        "output_tokens": "12",
        "needed": SLOW_NEEDS,
        "timeout": "5",
        "fitting_timeout": "14",
    }
    assert len(llm_server.speed_probes) == 1
    diagnostics = await get_diagnostics_for_config_entry(
        hass, hass_client, mock_config_entry
    )
    agent = diagnostics["agents"][only_agent(mock_config_entry).subentry_id]
    speed = agent["client"]["speed"]
    assert speed["prompt_per_second"] == 30.0
    assert speed["output_per_second"] == 2.0
    assert speed["measured_by"] == "timings"


async def test_a_fast_server_raises_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Fast enough for the timeout: no issue."""
    await _agent(hass, mock_config_entry)

    assert _issue(hass, mock_config_entry) is None
    assert len(llm_server.speed_probes) == 1


async def test_the_fix_flow_applies_the_timeout_that_fits(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Submitting the repair sets the timeout; the next warm-up agrees."""
    llm_server.timings = dict(SLOW_TIMINGS)
    await _agent(hass, mock_config_entry)
    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()

    started = await client.post(
        "/api/repairs/issues/fix",
        json={
            "handler": DOMAIN,
            "issue_id": issue_id(only_agent(mock_config_entry).subentry_id),
        },
    )
    form = await started.json()
    assert form["step_id"] == "confirm"
    assert form["description_placeholders"]["fitting_timeout"] == "14"
    done = await client.post(f"/api/repairs/issues/fix/{form['flow_id']}", json={})
    assert (await done.json())["type"] == "create_entry"
    await hass.async_block_till_done(wait_background_tasks=True)

    assert only_agent(mock_config_entry).data[CONF_TIMEOUT] == SLOW_FITS
    assert _issue(hass, mock_config_entry) is None
    # Reloaded with the new timeout, the same slow server now fits.
    assert len(llm_server.speed_probes) == 2
    assert _issue(hass, mock_config_entry) is None


async def test_the_issue_goes_when_the_server_becomes_fast(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A faster server (or model) at the next warm-up withdraws the issue."""
    llm_server.timings = dict(SLOW_TIMINGS)
    await _agent(hass, mock_config_entry)
    assert _issue(hass, mock_config_entry) is not None

    llm_server.timings = dict(FAST_TIMINGS)
    await _reload(hass, mock_config_entry)

    assert _issue(hass, mock_config_entry) is None


async def test_the_issue_goes_when_the_model_is_switched_off(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Local sentences only: no model request can be too slow."""
    llm_server.timings = dict(SLOW_TIMINGS)
    await _agent(hass, mock_config_entry)
    assert _issue(hass, mock_config_entry) is not None

    # Changing the agent reloads the entry.
    set_agent_options(hass, mock_config_entry, {CONF_USE_LLM: False})
    await hass.async_block_till_done(wait_background_tasks=True)

    assert _issue(hass, mock_config_entry) is None


async def test_without_timings_the_wall_clock_measures(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A server that reports no timings and writes 16 tokens in 4 s at best.

    A typical plan's tokens then take at least 3 s: more than a 2 s timeout.
    """
    llm_server.timings = None
    llm_server.probe_delay = 4.0  # at most 4 tokens a second, whatever the load
    await _agent(hass, mock_config_entry, **{CONF_TIMEOUT: 2.0})

    issue = _issue(hass, mock_config_entry)
    assert issue is not None
    assert issue.translation_placeholders is not None
    assert float(issue.translation_placeholders["output_speed"]) <= 4.0


@pytest.mark.parametrize(
    ("timings", "said"),
    [
        (SLOW_TIMINGS, "The model server is too slow for the timeout"),
        (FAST_TIMINGS, "The language model took too long to answer"),
    ],
)
async def test_a_timed_out_turn_says_when_the_server_is_too_slow(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    timings: dict[str, float],
    said: str,
) -> None:
    """Measured too slow: the turn says so, rather than to try again."""
    llm_server.timings = dict(timings)
    agent_id = await _agent(hass, mock_config_entry, **{CONF_TIMEOUT: 2.0})
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights")), delay=NEVER
    )

    result = await converse(hass, agent_id, "make it cosy")

    assert speech(result).startswith(said)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_the_probe_has_the_server_read_tokens_no_cache_holds(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A rate from a prompt the cache held is latency: the probe reads afresh."""
    await _agent(hass, mock_config_entry)
    await _reload(hass, mock_config_entry)

    first, second = (probe["messages"] for probe in llm_server.speed_probes)
    warmed = llm_server.warm_ups[-1]["messages"]
    # The stable part as warmed, then, after it, numbers no earlier probe had.
    assert first[:-1] == second[:-1] == warmed[:-1]
    for probe in (first, second):
        assert probe[-1]["content"].startswith(warmed[-1]["content"])
        assert len(probe[-1]["content"].split()) > 40
    assert first[-1]["content"] != second[-1]["content"]


async def test_each_agent_is_judged_by_its_own_timeout(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    llm_server: ScriptedLLMServer,
    core_components: None,
) -> None:
    """Two agents on one slow server: only the hasty one's issue, and its fix.

    The issue names the agent, and its fix sets that agent's timeout; the
    other agent keeps its own.
    """
    llm_server.timings = dict(SLOW_TIMINGS)
    entry = server_entry(
        hass,
        llm_server.url,
        agent_subentry({**AGENT_OPTIONS, CONF_TIMEOUT: 20.0}, "Patient"),
        agent_subentry({**AGENT_OPTIONS, CONF_TIMEOUT: 5.0}, "Hasty"),
    )
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    patient, hasty = agents(entry)

    issues = ir.async_get(hass)
    assert issues.async_get_issue(DOMAIN, issue_id(patient.subentry_id)) is None
    issue = issues.async_get_issue(DOMAIN, issue_id(hasty.subentry_id))
    assert issue is not None
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["agent"] == "Hasty"
    assert issue.translation_placeholders["timeout"] == "5"

    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()
    started = await client.post(
        "/api/repairs/issues/fix",
        json={"handler": DOMAIN, "issue_id": issue_id(hasty.subentry_id)},
    )
    form = await started.json()
    assert form["description_placeholders"]["agent"] == "Hasty"
    await client.post(f"/api/repairs/issues/fix/{form['flow_id']}", json={})
    await hass.async_block_till_done(wait_background_tasks=True)

    assert entry.subentries[hasty.subentry_id].data[CONF_TIMEOUT] == SLOW_FITS
    assert entry.subentries[patient.subentry_id].data[CONF_TIMEOUT] == 20.0
    assert issues.async_get_issue(DOMAIN, issue_id(hasty.subentry_id)) is None


async def test_the_fix_of_a_removed_agent_aborts(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """An agent removed while its issue is open: the fix says so, changes nothing."""
    llm_server.timings = dict(SLOW_TIMINGS)
    await _agent(hass, mock_config_entry)
    agent = only_agent(mock_config_entry)
    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()
    started = await client.post(
        "/api/repairs/issues/fix",
        json={"handler": DOMAIN, "issue_id": issue_id(agent.subentry_id)},
    )
    form = await started.json()
    assert form["step_id"] == "confirm"

    hass.config_entries.async_remove_subentry(mock_config_entry, agent.subentry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    done = await client.post(f"/api/repairs/issues/fix/{form['flow_id']}", json={})

    result = await done.json()
    assert (result["type"], result["reason"]) == ("abort", "agent_removed")
    assert mock_config_entry.subentries == {}
