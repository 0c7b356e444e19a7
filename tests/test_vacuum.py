"""A robot vacuum started and sent home by everyday words, without a model.

"Start vacuuming", "turn on the vacuum" start it; "stop the vacuum" and
"turn it off" send it to its base, as Home Assistant's HassTurnOff means
for a vacuum; said to one already cleaning, nothing is called. The model
is scripted to pause the kitchen's speaker (what a 1.5B model did with
these words): it is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .helpers import act, async_setup_template_entity, converse, plan, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

ROBOT = "input_boolean.robo_power"


async def _robot(hass: HomeAssistant) -> str:
    """A template vacuum whose state follows an input boolean; its id."""
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"robo_power": {"initial": False}}}
    )
    return await async_setup_template_entity(
        hass,
        "vacuum",
        {
            "name": "Robo",
            "state": f"{{{{ 'cleaning' if is_state('{ROBOT}', 'on') else 'docked' }}}}",
            "start": [
                {"action": "input_boolean.turn_on", "target": {"entity_id": ROBOT}}
            ],
            "return_to_base": [
                {"action": "input_boolean.turn_off", "target": {"entity_id": ROBOT}}
            ],
        },
    )


@pytest.mark.parametrize(
    ("start", "stop"),
    [
        ("start vacuuming", "stop the vacuum"),
        ("turn on the vacuum", "turn off the robot"),
    ],
)
async def test_everyday_words_start_and_dock_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    start: str,
    stop: str,
) -> None:
    """Started, said again while it cleans (nothing called), sent home."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    started = await converse(hass, agent_id, start, kitchen)
    assert hass.states.get(robot).state == "cleaning"
    again = await converse(hass, agent_id, start, kitchen)
    docked = await converse(hass, agent_id, stop, kitchen)

    assert speech(started) == "Started Robo."
    assert speech(again) == "Robo is already cleaning."
    assert speech(docked) == "Sent Robo back to its base."
    assert hass.states.get(robot).state == "docked"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "back"),
    [
        ("en", "Vacuum return to base"),
        ("en", "send Robo back to its base"),
        ("de", "Schick Robo zurück zur Ladestation"),
        ("fr", "Robo, retourne à la base"),
        ("es", "Robo, vuelve a la base"),
        ("nl", "Stuur Robo terug naar het basisstation"),
        ("it", "Robo torna alla base"),
    ],
)
async def test_back_to_its_base_docks_the_vacuum(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    back: str,
) -> None:
    """Sent back to its base by the vacuum's own verb; nothing else is done."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    robot = await _robot(hass)
    await hass.services.async_call(
        "input_boolean", "turn_on", {"entity_id": ROBOT}, blocking=True
    )
    kitchen = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    await converse(hass, agent_id, back, kitchen, language)

    assert hass.states.get(robot).state == "docked"
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []
