"""A command that says its result is sent, whatever state Home Assistant shows.

Real devices drift from what HA shows (a report lost, a cloud device polled
once a minute, a lamp switched by hand). "Turn on the kitchen lights" while
HA shows them on is sent, as HA's own agent sends it, on every path: HA's
sentences, the reading, a learned command, the model and the `route`
action. The reply is a done action's; "again" repeats the call and "undo"
brings back what HA showed before. Only a step that can go no further
("brighter" at full brightness, "warmer" at the thermostat's highest) sends
nothing and says so.

Most tests switch Kitchen Lights off at the wall while HA still shows them
on at 128 (`_shown_on_while_off`): the light writes its own state (on at
180, the demo light's brightness) only when a call reaches it, and the
service calls are recorded besides.
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
    CONF_LOCAL_FIRST,
    CONF_USE_LLM,
    DOMAIN,
    EVENT_HANDLED,
)
from custom_components.intent_router.deciding.learned import LEARN_AFTER
from homeassistant.const import EVENT_CALL_SERVICE
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import intent

from .agents import agent_entity
from .helpers import act, agent_details, converse, plan, speech
from .home import async_setup_agent, satellite_in, with_thermostat
from .llm_server import ScriptedLLMServer

LIGHTS = "light.kitchen_lights"
# The brightness HA shows, and the demo light's own.
SHOWN, OWN = 128, 180
AGAIN = {
    "en": "again",
    "de": "nochmal",
    "fr": "encore",
    "es": "otra vez",
    "nl": "nog een keer",
    "it": "ancora",
}
UNDO = {
    "en": "undo",
    "de": "rückgängig",
    "fr": "annule",
    "es": "deshaz",
    "nl": "ongedaan maken",
    "it": "annulla",
}
FOLLOW_UPS = ("again", "undo")


@pytest.fixture
async def local_agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home and the agent with HA's sentences first, the model off."""
    return await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )


@pytest.fixture
def handled(hass: HomeAssistant) -> list[Event]:
    """The agent's `intent_router_handled` events, in order."""
    found: list[Event] = async_capture_events(hass, EVENT_HANDLED)
    return found


def _device_calls(calls: list[Event]) -> list[str]:
    """The services called on devices (not the agent's own, nor HA's)."""
    return [
        f"{call.data['domain']}.{call.data['service']}"
        for call in calls
        if call.data["domain"] not in ("homeassistant", "input_boolean", DOMAIN)
    ]


async def _shown_on_while_off(hass: HomeAssistant) -> list[Event]:
    """Kitchen Lights off at the wall; HA still shows them on, at 128.

    Returns the service calls from then on.
    """
    shown = hass.states.get(LIGHTS)
    assert shown is not None
    assert (shown.state, shown.attributes["brightness"]) == ("on", OWN)
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": LIGHTS}, blocking=True
    )
    hass.states.async_set(LIGHTS, "on", {**shown.attributes, "brightness": SHOWN})
    calls: list[Event] = async_capture_events(hass, EVENT_CALL_SERVICE)
    return calls


def _brightness(hass: HomeAssistant) -> object:
    state = hass.states.get(LIGHTS)
    assert state is not None
    return state.attributes.get("brightness") if state.state == "on" else state.state


def _sent(hass: HomeAssistant, calls: list[Event]) -> None:
    """The call reached the lights: they wrote their own state."""
    assert _device_calls(calls) == ["light.turn_on"]
    assert _brightness(hass) == OWN
    assert all(d.get("decision") != "already" for d in agent_details())


async def _follow_up(
    hass: HomeAssistant,
    agent_id: str,
    device_id: str,
    follow_up: str,
    calls: list[Event],
    language: str = "en",
) -> None:
    """Again, the call is sent again; undone, the state HA showed comes back."""
    words = (AGAIN if follow_up == "again" else UNDO)[language]
    result = await converse(hass, agent_id, words, device_id, language)

    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert _device_calls(calls) == ["light.turn_on", "light.turn_on"]
    assert _brightness(hass) == (OWN if follow_up == "again" else SHOWN)


# (language, a command HA's sentences match, HA's own reply)
HA_SENTENCES = [
    ("en", "turn on the kitchen lights", "Turned on the light"),
    ("de", "Schalte Kitchen Lights an", "Licht eingeschaltet"),
    ("fr", "Allume Kitchen Lights", "Allumé"),
    ("es", "Enciende Kitchen Lights", "Se ha activado la luz"),
    ("nl", "Zet Kitchen Lights aan", "Aangezet"),
    ("it", "Accendi Kitchen Lights", "Ho acceso Kitchen Lights"),
]


@pytest.mark.parametrize("follow_up", FOLLOW_UPS)
@pytest.mark.parametrize(("language", "text", "reply"), HA_SENTENCES)
async def test_ha_sentence_for_the_state_shown_is_sent(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    handled: list[Event],
    language: str,
    text: str,
    reply: str,
    follow_up: str,
) -> None:
    """HA's sentence matches lights shown on: the call is sent, as HA sends it."""
    kitchen = satellite_in(hass, "Kitchen")
    calls = await _shown_on_while_off(hass)

    result = await converse(hass, local_agent, text, kitchen, language)

    assert speech(result) == reply
    assert handled[-1].data["source"] == "local"
    _sent(hass, calls)
    await _follow_up(hass, local_agent, kitchen, follow_up, calls, language)
    assert llm_server.requests == []


# (language, a command only the reading reads, its reply)
READ = [
    ("en", "switch the kitchen lights on now", "Turned on Kitchen Lights."),
    (
        "de",
        "mach bitte das Licht in der Küche an",
        "Ich habe Kitchen Lights eingeschaltet.",
    ),
    ("nl", "doe het licht in de keuken maar aan", "Ik heb Kitchen Lights aangezet."),
]


@pytest.mark.parametrize("follow_up", FOLLOW_UPS)
@pytest.mark.parametrize(("language", "text", "reply"), READ)
async def test_the_readings_command_for_the_state_shown_is_sent(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    handled: list[Event],
    language: str,
    text: str,
    reply: str,
    follow_up: str,
) -> None:
    """The reading's plan for lights shown on passes the gate and runs."""
    kitchen = satellite_in(hass, "Kitchen")
    calls = await _shown_on_while_off(hass)

    result = await converse(hass, local_agent, text, kitchen, language)

    assert speech(result) == reply
    assert handled[-1].data["source"] == "reading"
    _sent(hass, calls)
    await _follow_up(hass, local_agent, kitchen, follow_up, calls, language)


@pytest.mark.parametrize("follow_up", FOLLOW_UPS)
async def test_a_learned_command_for_the_state_shown_is_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    freezer: FrozenDateTimeFactory,
    handled: list[Event],
    follow_up: str,
) -> None:
    """Words the model taught replay without it, on lights shown on too."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")
    sentence = "switch on the kitchen lights please"
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": LIGHTS}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS)))
    await converse(hass, agent_id, sentence, kitchen)
    freezer.tick(timedelta(seconds=LEARN_AFTER + 1))
    calls = await _shown_on_while_off(hass)

    result = await converse(hass, agent_id, sentence, kitchen)

    assert speech(result) == "Turned on Kitchen Lights."
    assert handled[-1].data["source"] == "learned"
    assert len(llm_server.requests) == 1
    _sent(hass, calls)
    await _follow_up(hass, agent_id, kitchen, follow_up, calls)


@pytest.mark.parametrize("follow_up", FOLLOW_UPS)
async def test_the_models_plan_for_the_state_shown_is_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    handled: list[Event],
    follow_up: str,
) -> None:
    """The model plans the lights on while HA shows them on: it runs."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    kitchen = satellite_in(hass, "Kitchen")
    calls = await _shown_on_while_off(hass)
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS)))

    result = await converse(hass, agent_id, "kitchen lights on", kitchen)

    assert speech(result) == "Turned on Kitchen Lights."
    assert handled[-1].data["source"] == "model"
    _sent(hass, calls)
    await _follow_up(hass, agent_id, kitchen, follow_up, calls)
    assert len(llm_server.requests) == 1


async def _route(hass: HomeAssistant, entry: MockConfigEntry, **data: Any) -> Any:
    """The `route` action's response."""
    return await hass.services.async_call(
        DOMAIN,
        "route",
        {"agent_id": agent_entity(hass, entry), **data},
        blocking=True,
        return_response=True,
    )


@pytest.mark.parametrize("follow_up", FOLLOW_UPS)
async def test_the_route_action_for_the_state_shown_is_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    follow_up: str,
) -> None:
    """An automation's `route` of the same words sends the call too."""
    kitchen = satellite_in(hass, "Kitchen")
    calls = await _shown_on_while_off(hass)

    done = await _route(
        hass, mock_config_entry, text="turn on the kitchen lights", device_id=kitchen
    )

    assert (done["outcome"], done["source"]) == ("done", "local")
    assert [r["tool"] for r in done["results"]] == ["light.turn_on"]
    assert _device_calls(calls) == ["light.turn_on"]
    assert _brightness(hass) == OWN
    again = await _route(hass, mock_config_entry, text=follow_up, device_id=kitchen)
    assert again["outcome"] == "done"
    assert _device_calls(calls) == ["light.turn_on", "light.turn_on"]
    assert _brightness(hass) == (OWN if follow_up == "again" else SHOWN)


async def test_a_lock_shown_locked_is_locked(
    hass: HomeAssistant, local_agent: str
) -> None:
    """Asked to lock the front door that HA shows locked: lock.lock is sent."""
    assert hass.states.get("lock.front_door").state == "locked"
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(hass, local_agent, "lock the front door")

    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert _device_calls(calls) == ["lock.lock"]


async def test_a_lock_shown_unlocked_asks_first_and_is_unlocked(
    hass: HomeAssistant, local_agent: str
) -> None:
    """What opens the home still asks first, even when HA shows it open."""
    await hass.services.async_call(
        "lock", "unlock", {"entity_id": "lock.front_door"}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)
    kitchen = satellite_in(hass, "Kitchen")

    asked = await converse(hass, local_agent, "unlock the front door", kitchen)
    await converse(hass, local_agent, "yes", kitchen)

    assert speech(asked) == "Do you want me to unlock Front Door?"
    assert _device_calls(calls) == ["lock.unlock"]


# (language, HA's sentence for Kitchen Lights at 50 percent)
AT_HALF = [
    ("en", "set the kitchen lights brightness to 50%"),
    ("de", "Setze die Helligkeit von Kitchen Lights auf 50%"),
    ("fr", "règle la luminosité de Kitchen Lights à 50%"),
    ("es", "pon el brillo de Kitchen Lights al 50%"),
    ("nl", "Zet de helderheid van Kitchen Lights op 50%"),
    ("it", "imposta la luminosità di Kitchen Lights al 50%"),
]


async def _at_half(hass: HomeAssistant) -> None:
    """Kitchen Lights on at 50 percent, set at the wall."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHTS, "brightness_pct": 50}, blocking=True
    )


@pytest.mark.parametrize(("language", "text"), AT_HALF)
async def test_ha_sentence_for_the_brightness_shown_is_sent(
    hass: HomeAssistant, local_agent: str, language: str, text: str
) -> None:
    """HA's brightness sentence for the level the light shows: set again."""
    await _at_half(hass)
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, local_agent, text, satellite_in(hass, "Kitchen"), language
    )

    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert [
        (f"{c.data['domain']}.{c.data['service']}", c.data["service_data"])
        for c in calls
    ] == [("light.turn_on", {"entity_id": LIGHTS, "brightness_pct": 50})]


async def test_the_models_plan_for_the_level_shown_is_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Full brightness planned for lights at full: turn_on at 100 runs."""
    agent_id = await async_setup_agent(hass, mock_config_entry, local_first=False)
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHTS, "brightness_pct": 100}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_on", LIGHTS, brightness_pct=100)))
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, agent_id, "kitchen lights at full", satellite_in(hass, "Kitchen")
    )

    assert speech(result) == "Set Kitchen Lights to 100 percent."
    assert _device_calls(calls) == ["light.turn_on"]


async def test_a_thermostat_set_to_the_degrees_it_shows_is_set(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HA's sentence for the target the thermostat has: set_temperature runs."""
    with_thermostat(monkeypatch)
    local_agent = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    target = hass.states.get("climate.hvac").attributes["temperature"]
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(hass, local_agent, f"set the hvac to {target:g} degrees")

    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert _device_calls(calls) == ["climate.set_temperature"]


# (language, "brighter", the reply at full brightness)
BRIGHTER_AT_FULL = [
    ("en", "brighter", "Kitchen Lights is already at 100 percent."),
    ("de", "heller", "Kitchen Lights steht schon auf 100 Prozent."),
    ("nl", "helderder", "Kitchen Lights staat al op 100 procent."),
    ("it", "alza la luce", "Kitchen Lights è già a 100 per cento."),
    ("es", "sube la luz", "Kitchen Lights ya está a 100 por ciento."),
]


@pytest.mark.parametrize(("language", "text", "reply"), BRIGHTER_AT_FULL)
async def test_brighter_at_full_brightness_is_said_not_sent(
    hass: HomeAssistant,
    local_agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    reply: str,
) -> None:
    """A step that can go no further: nothing to send, and the reply says so."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHTS, "brightness_pct": 100}, blocking=True
    )
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    result = await converse(
        hass, local_agent, text, satellite_in(hass, "Kitchen"), language
    )

    assert speech(result) == reply
    assert _device_calls(calls) == []
    assert any(d.get("decision") == "already" for d in agent_details())


async def test_warmer_at_the_thermostats_highest_is_said_not_sent(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Half a degree below its highest, "warmer" goes to it; there, it is said."""
    with_thermostat(monkeypatch)
    local_agent = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    thermostat = "climate.hvac"
    highest = hass.states.get(thermostat).attributes["max_temp"]
    await hass.services.async_call(
        "climate",
        "set_temperature",
        {"entity_id": thermostat, "temperature": highest - 0.5},
        blocking=True,
    )
    hallway = satellite_in(hass, "Hallway")
    calls = async_capture_events(hass, EVENT_CALL_SERVICE)

    stepped = await converse(hass, local_agent, "make the hvac warmer", hallway)
    held = await converse(hass, local_agent, "make the hvac warmer", hallway)

    assert stepped.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert hass.states.get(thermostat).attributes["temperature"] == highest
    assert speech(held) == f"Hvac is already at {highest:g} degrees."
    assert _device_calls(calls) == ["climate.set_temperature"]
