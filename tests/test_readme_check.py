"""The README's two-minute check, run as a user would after adding the agent.

What it tells them to say and what it says they will hear must hold, with
the default options; each phrase is taken from the README's own text.
"""

from __future__ import annotations

from pathlib import Path

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST, EVENT_HANDLED
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.core import Context, HomeAssistant

from .agents import agent_entity, set_agent_options
from .demo_home import async_setup_develop_home
from .helpers import speech
from .llm_server import ScriptedLLMServer

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
SECTION = README.split("**A two-minute check**", 1)[1].split("## Configuration")[0]
CHECK = " ".join(SECTION.split())  # as read, whatever the line breaks
# (said, heard): the README's words, checked to be there.
STEPS = [
    ("turn on the kitchen lights", "Turned on the light"),
    ("undo that", "OK, Kitchen Lights is back the way it was."),
    ("it's too dark in the kitchen", "Turned on Kitchen Lights."),
    (
        "unlock the front door",
        (
            "Front Door is not exposed to Assist, so I can't use it. You can expose"
            " it under Settings > Voice assistants > Expose."
        ),
    ),
]
# Where the README says the agent is chosen: the assistant's own settings.
CHOOSE_AGENT = (
    "**Settings → Voice assistants**, open your assistant (Home Assistant's own"
    " is called *Home Assistant*), set **Conversation agent** to **Intent Router**"
)


async def test_the_two_minute_check_holds(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Each step of the README gets the reply it promises, with the defaults."""
    for said, heard in STEPS:
        assert f"*{said}*" in CHECK
        assert f'"{heard}"' in CHECK
    assert CHOOSE_AGENT in CHECK
    # The warm-up's figures are a real run's, named so they can be found.
    assert "warmup-20261124T083106Z" in CHECK
    # The demo home of `scripts/develop`: Kitchen Lights off, its speakers
    # named like rooms, its front door lock there but not exposed.
    await async_setup_develop_home(hass)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    agent_id = agent_entity(hass, mock_config_entry)
    assert hass.states.get("light.kitchen_lights").state == "off"
    assert not async_should_expose(hass, "conversation", "lock.front_door")
    locked = hass.states.get("lock.front_door").state
    events = async_capture_events(hass, EVENT_HANDLED)
    states = []

    conversation_id = None  # the Assist dialog keeps one conversation
    for said, heard in STEPS:
        result = await conversation.async_converse(
            hass, said, conversation_id, Context(), language="en", agent_id=agent_id
        )
        conversation_id = result.conversation_id
        assert speech(result) == heard
        states.append(hass.states.get("light.kitchen_lights").state)

    assert states == ["on", "off", "on", "on"]
    assert hass.states.get("lock.front_door").state == locked
    # Without the model: Home Assistant's sentences, memory, the reading.
    assert [e.data["source"] for e in events] == [
        "local",
        "shortcut",
        "reading",
        "reading",
    ]
    assert llm_server.requests == []
