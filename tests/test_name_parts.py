"""A word that says no or please never names a device by a part of its name.

"No speaking please" is no question about a "Heat pump NO sensor": the
word is the speaker's (the language's negations and filler), not a name's.
"""

from __future__ import annotations

import json

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .helpers import async_setup_template_entity, converse, speech
from .home import async_setup_agent
from .llm_server import ScriptedLLMServer

SENSOR = "Heat pump NO sensor"


async def test_no_is_no_part_of_a_name(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The sensor is neither answered about nor offered to the model."""
    agent = await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})
    await async_setup_template_entity(
        hass, "sensor", {"name": SENSOR, "state": "{{ 50 }}"}
    )
    llm_server.add_reply('{"pick":0}')

    result = await converse(hass, agent, "no speaking please")

    assert SENSOR not in speech(result)
    offered = [m["content"] for r in llm_server.requests for m in r["messages"]]
    assert not any(f"about {SENSOR}" in text for text in offered), json.dumps(offered)


async def test_the_name_said_with_its_kind_still_names_it(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Said with its kind ("the no sensor"), the name is said: it is offered."""
    agent = await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})
    await async_setup_template_entity(
        hass, "sensor", {"name": SENSOR, "state": "{{ 50 }}"}
    )
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent, "what does the no sensor say")

    assert speech(result) == f"{SENSOR} is 50."


async def test_a_day_is_no_part_of_a_name(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A day said ("today") asks of the day, not of "Water pump usage today"."""
    agent = await async_setup_agent(hass, mock_config_entry, **{CONF_LOCAL_FIRST: True})
    usage = "Water pump usage today"
    await async_setup_template_entity(
        hass, "sensor", {"name": usage, "state": "{{ 9 }}"}
    )
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent, "should I dress in layers today")

    assert usage not in speech(result)
    offered = [m["content"] for r in llm_server.requests for m in r["messages"]]
    assert not any(f"about {usage}" in text for text in offered), json.dumps(offered)
