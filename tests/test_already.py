"""A command for the state a device is in already calls nothing and says so.

home-llm's refusals ask for a state the device has ("Turn on the Hallway
Lights" when they are on): on every path (HA's own sentences, the reading,
the model) nothing is called and the reply says the state, in the turn's
language. A device whose state HA only assumes, a room where one device is
not yet as asked, and a lock already unlocked (no "Do you want me to ...?")
are the edges.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.const import EVENT_CALL_SERVICE
from homeassistant.core import Event, HomeAssistant

from .helpers import (
    act,
    agent_details,
    async_setup_template_entity,
    converse,
    plan,
    speech,
    switched_on,
)
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

LIGHTS = "light.kitchen_lights"

# (language, a command HA's sentences match, the reply)
ALREADY_ON = [
    ("en", "turn on the kitchen lights", "Kitchen Lights is already on."),
    ("de", "Schalte Kitchen Lights an", "Kitchen Lights ist schon ein."),
    ("fr", "Allume Kitchen Lights", "Kitchen Lights : déjà allumé."),
    ("es", "Enciende Kitchen Lights", "Kitchen Lights: ya encendido."),
    ("nl", "Zet Kitchen Lights aan", "Kitchen Lights is al aan."),
    ("it", "Accendi Kitchen Lights", "Kitchen Lights: già acceso."),
]


@pytest.fixture
async def local_agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home and the agent with HA's sentences first, the model off."""
    return await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )


def _device_calls(calls: list[Event]) -> list[str]:
    """The services called on devices (not the agent's own)."""
    return [
        f"{call.data['domain']}.{call.data['service']}"
        for call in calls
        if call.data["domain"] not in ("homeassistant", "input_boolean")
    ]


@pytest.mark.parametrize(("language", "text", "reply"), ALREADY_ON)
async def test_ha_sentence_for_the_state_it_has_calls_nothing(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    reply: str,
) -> None:
    """HA's own sentence matches; the lights are on: said so, nothing called."""
    await switched_on(hass, LIGHTS)
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, local_agent, text, satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert _device_calls(calls) == []
    assert any(d.get("decision") == "already" for d in agent_details())
    assert llm_server.requests == []


async def test_the_model_planning_the_state_a_device_has_calls_nothing(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model's plan for lights that are on: no call; then a real change runs."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")
    await switched_on(hass, LIGHTS)
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS)))
    llm_server.add_plan(plan(act("light.turn_off", LIGHTS)))
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    same = await converse(hass, agent_id, "kitchen lights on", kitchen)
    changed = await converse(hass, agent_id, "kitchen lights off", kitchen)

    assert speech(same) == "Kitchen Lights is already on."
    assert speech(changed) == "Turned off Kitchen Lights."
    assert _device_calls(calls) == ["light.turn_off"]
    assert hass.states.get(LIGHTS).state == "off"


async def test_a_room_not_all_as_asked_runs_as_ha_runs_it(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """One light on, one off: "turn off the lights" is HA's, on both."""
    await switched_on(hass, LIGHTS, "light.ceiling_lights")
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.ceiling_lights"}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, local_agent, "turn off all the lights")

    assert hass.states.get(LIGHTS).state == "off"
    assert "light.turn_off" in _device_calls(calls)


async def test_a_state_ha_only_assumes_is_set_again(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A switch with no state of its own (assumed): "on" is sent again."""
    plug = await async_setup_template_entity(
        hass, "switch", {"name": "Radio Plug", "turn_on": [], "turn_off": []}
    )
    await switched_on(hass, plug)
    assert hass.states.get(plug).attributes.get("assumed_state") is True
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, local_agent, "turn on the radio plug")

    assert _device_calls(calls) == ["switch.turn_on"]


async def test_a_lock_already_unlocked_is_not_asked_about(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """No "Do you want me to unlock ...?" for a door that is unlocked."""
    await hass.services.async_call(
        "lock", "unlock", {"entity_id": "lock.front_door"}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(hass, local_agent, "unlock the front door")

    assert speech(result) == "Front Door is already unlocked."
    assert not result.continue_conversation
    assert _device_calls(calls) == []
