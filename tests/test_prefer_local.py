"""The assistant's "Prefer handling commands locally" toggle, as the README says.

With it on, Home Assistant's pipeline answers its own sentences before the
conversation agent is asked (assist_pipeline's `prefer_local_intents`):
Intent Router never sees those turns, so it neither grounds, confirms nor
remembers them. With it off, Intent Router's own local-first tries the same
sentences and keeps all of that.
"""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST, EVENT_HANDLED
from custom_components.intent_router.conversation import DECISION
from homeassistant.components.assist_pipeline import (
    PipelineEventType,
    async_update_pipeline,
)
from homeassistant.components.assist_pipeline.pipeline import async_get_pipeline
from homeassistant.core import HomeAssistant

from .home import async_setup_agent
from .voice import Voice, async_setup_voice

KITCHEN = "light.kitchen_lights"


async def _voice(
    hass: HomeAssistant, entry: MockConfigEntry, prefer_local: bool
) -> Voice:
    """A satellite on a pipeline to Intent Router (its own local-first on)."""
    agent_id = await async_setup_agent(hass, entry, **{CONF_LOCAL_FIRST: True})
    voice = await async_setup_voice(hass, agent_id)
    await async_update_pipeline(
        hass, async_get_pipeline(hass), prefer_local_intents=prefer_local
    )
    return voice


async def test_prefer_local_on_skips_the_agent_and_its_memory(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """HA's sentence runs without Intent Router: "undo" finds nothing to undo."""
    voice = await _voice(hass, mock_config_entry, prefer_local=True)
    handled = async_capture_events(hass, EVENT_HANDLED)

    await voice.async_say("turn off the kitchen lights")
    reply = await voice.async_say("undo that")

    assert [event.data["text_length"] for event in handled] == [len("undo that")]
    assert reply == "There's nothing I can undo."
    assert hass.states.get(KITCHEN).state == "off"


async def test_prefer_local_on_unlocks_without_asking(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """What opens the home is not asked about first: Intent Router is not there."""
    voice = await _voice(hass, mock_config_entry, prefer_local=True)
    assert hass.states.get("lock.front_door").state == "locked"

    await voice.async_say("unlock the front door")

    # (The demo lock takes a moment: "unlocking", then "unlocked".)
    assert hass.states.get("lock.front_door").state != "locked"


async def test_prefer_local_off_keeps_grounding_confirmation_and_memory(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Intent Router runs HA's sentence itself, asks first, and can undo."""
    voice = await _voice(hass, mock_config_entry, prefer_local=False)
    handled = async_capture_events(hass, EVENT_HANDLED)

    await voice.async_say("turn off the kitchen lights")
    undone = await voice.async_say("undo that")
    asked = await voice.async_say("unlock the front door")

    assert len(handled) == 3
    assert hass.states.get(KITCHEN).state == "on"
    assert undone.startswith("OK, Kitchen Lights is back")
    assert asked == "Do you want me to unlock Front Door?"
    assert hass.states.get("lock.front_door").state == "locked"


async def test_the_debug_view_gets_the_decision_of_each_turn(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Assist's debug view shows the pipeline's intent-progress events.

    The decision (what answered, the plan, why each target) is among them.
    """
    voice = await _voice(hass, mock_config_entry, prefer_local=False)
    first = len(voice.satellite.events)

    await voice.async_say("turn off the kitchen lights")

    deltas = [
        data["chat_log_delta"]
        for e in voice.satellite.events[first:]
        if e.type is PipelineEventType.INTENT_PROGRESS
        and "chat_log_delta" in (data := e.data or {})
    ]
    calls = [call for d in deltas for call in d.get("tool_calls") or ()]
    (decided,) = [c.tool_args for c in calls if c.tool_name == DECISION]
    assert decided["source"] == "local"
    assert decided["outcome"] == "done"
    results = [d for d in deltas if d.get("role") == "tool_result"]
    assert [r["tool_name"] for r in results] == [DECISION]
