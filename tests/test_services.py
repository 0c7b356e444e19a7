"""The `route` and `clear_context` actions, the handled event, phrased data.

Everything runs for real: the demo home, the agent, the scripted model
server over HTTP, and automations set up from YAML-like config.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import (
    CONF_ALLOWED_DOMAINS,
    CONF_LOCAL_FIRST,
    DOMAIN,
    EVENT_HANDLED,
)
from custom_components.intent_router.core.settings import DEFAULT_ALLOWED_DOMAINS
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN, trace
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component

from .agents import agent_data, agent_entity, only_agent, set_agent_options
from .helpers import act, home_states, plan, user_prompt
from .home import satellite_in
from .llm_server import ScriptedLLMServer

# Every test runs in the demo home, set up before the integration.
pytestmark = pytest.mark.usefixtures("home")

KITCHEN = "light.kitchen_lights"
HANDLED_KEYS = {
    "entry_id",
    "subentry_id",
    "device_id",
    "conversation_id",
    "text_length",
    "source",
    "outcome",
    "tools",
    "confidence",
    "failure",
    "latency_ms",
    "prompt_tokens",
    "completion_tokens",
    "processed_prompt_tokens",
}


@pytest.fixture
async def entry(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> MockConfigEntry:
    """The integration, set up after the demo home."""
    return init_integration


async def route(
    hass: HomeAssistant, entry: MockConfigEntry, **data: Any
) -> dict[str, Any]:
    """Call `intent_router.route` and return its response."""
    response = await hass.services.async_call(
        DOMAIN,
        "route",
        {"agent_id": agent_entity(hass, entry), **data},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    return dict(response)


def history_sent(llm_server: ScriptedLLMServer, index: int = -1) -> bool:
    """Whether a request's prompt carried remembered turns."""
    return "Recent turns" in user_prompt(llm_server, index)


async def test_route_runs_a_turn_and_reports_it(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """The action acts like speech and returns plan, results and speech."""
    events = async_capture_events(hass, EVENT_HANDLED)
    device_id = satellite_in(hass, "Kitchen")
    llm_server.add_plan(
        plan(act("light.turn_off", KITCHEN), speech="Kitchen lights are off.")
    )

    response = await route(
        hass, entry, text="turn off the kitchen lights", device_id=device_id
    )

    assert hass.states.get(KITCHEN).state == "off"
    conversation_id = response.pop("conversation_id")
    assert isinstance(conversation_id, str)
    assert response == {
        "speech": "Turned off Kitchen Lights.",
        "outcome": "done",
        "source": "model",
        "confidence": 0.95,
        "plan": {
            "actions": [{"tool": "light.turn_off", "targets": [KITCHEN], "args": {}}],
            "confidence": 0.95,
            "clarify": None,
            "speech": "Kitchen lights are off.",
        },
        "results": [
            {
                "tool": "light.turn_off",
                "targets": [KITCHEN],
                "ok": True,
                "error": None,
                "result": None,
            }
        ],
        "continue_conversation": False,
    }
    # Plain actions are said from what ran: no second model call.
    assert len(llm_server.requests) == 1
    assert "Speaker area: Kitchen" in user_prompt(llm_server, 0)

    assert len(events) == 1
    event = events[0].data
    assert set(event) == HANDLED_KEYS
    assert event["entry_id"] == entry.entry_id
    assert event["subentry_id"] == only_agent(entry).subentry_id
    assert event["device_id"] == device_id
    assert event["text_length"] == len("turn off the kitchen lights")
    assert (event["source"], event["outcome"]) == ("model", "done")
    assert event["tools"] == ["light.turn_off"]
    assert event["confidence"] == 0.95
    assert (event["prompt_tokens"], event["completion_tokens"]) == (100, 20)
    assert "kitchen" not in str(event)

    # Remembered like a spoken turn: the next turn's prompt has it.
    llm_server.add_reply('{"pick":0}')
    again = await route(
        hass,
        entry,
        text="and again",
        device_id=device_id,
        conversation_id=conversation_id,
    )
    assert history_sent(llm_server)
    debug = trace.async_get_traces()[-1].as_dict()
    assert debug["events"][0]["data"]["text"] == "and again"
    # Core's `async_converse` records the turn's result in Assist's trace.
    said = debug["result"]["response"]["speech"]["plain"]["speech"]
    assert said == again["speech"]


async def test_dry_run_plans_without_acting_or_remembering(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """A dry run validates and returns the plan; nothing runs or is kept."""
    events = async_capture_events(hass, EVENT_HANDLED)
    device_id = satellite_in(hass, "Kitchen")
    states = home_states(hass)
    llm_server.add_plan(plan(act("light.turn_off", KITCHEN), speech="Off."))

    response = await route(
        hass, entry, text="kitchen lights off", device_id=device_id, dry_run=True
    )

    assert home_states(hass) == states
    assert response["outcome"] == "planned"
    assert response["plan"]["actions"] == [
        {"tool": "light.turn_off", "targets": [KITCHEN], "args": {}}
    ]
    assert response["results"] == []
    assert [e.data["outcome"] for e in events] == ["planned"]
    assert agent_data(entry).context.recent(device_id) == []

    llm_server.add_plan(plan(speech="Hello."))
    await route(hass, entry, text="hello", device_id=device_id)
    assert not history_sent(llm_server)


async def test_invalid_plan_in_dry_run_is_reported(
    hass: HomeAssistant, entry: MockConfigEntry, llm_server: ScriptedLLMServer
) -> None:
    """A plan that fails validation comes back as an error outcome."""
    llm_server.add_plan(plan(act("light.turn_off", "light.made_up")))

    response = await route(hass, entry, text="made up light off", dry_run=True)

    assert response["outcome"] == "error"
    assert response["plan"] is None
    assert response["speech"]


async def test_local_sentences_answer_without_the_model(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    core_components: None,
) -> None:
    """With local-first on, HA's own sentences act; the response says so."""
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()

    response = await route(hass, mock_config_entry, text="turn on the bed light")

    assert hass.states.get("light.bed_light").state == "on"
    assert (response["source"], response["outcome"]) == ("local", "done")
    assert response["plan"] is None
    assert response["confidence"] is None
    assert response["results"] == [
        {
            "tool": "light.turn_on",
            "targets": ["light.bed_light"],
            "ok": True,
            "error": None,
            "result": None,
        }
    ]
    assert llm_server.requests == []


@pytest.mark.parametrize("dry_run", [False, True])
async def test_route_from_an_automation(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    dry_run: bool,
) -> None:
    """An automation routes a text for a room and uses the response."""
    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": {
                "triggers": [{"trigger": "event", "event_type": "test_route"}],
                "actions": [
                    {
                        "action": "intent_router.route",
                        "data": {
                            "agent_id": agent_entity(hass, entry),
                            "text": "{{ trigger.event.data.text }}",
                            "area_id": "bedroom",
                            "dry_run": "{{ trigger.event.data.dry_run }}",
                        },
                        "response_variable": "routed",
                    },
                    {
                        "event": "test_routed",
                        "event_data": {
                            "speech": "{{ routed.speech }}",
                            "outcome": "{{ routed.outcome }}",
                            "tools": "{{ routed.plan.actions | map(attribute='tool') | list }}",
                            "confidence": "{{ routed.confidence }}",
                            "ok": "{{ routed.results | map(attribute='ok') | list }}",
                        },
                    },
                ],
            }
        },
    )
    routed = async_capture_events(hass, "test_routed")
    handled = async_capture_events(hass, EVENT_HANDLED)
    llm_server.add_plan(
        plan(act("light.turn_on", "light.bed_light"), speech="Bedroom light on.")
    )

    assert hass.states.get("light.bed_light").state == "off"
    hass.bus.async_fire("test_route", {"text": "lights on", "dry_run": dry_run})
    await hass.async_block_till_done()

    assert [e.data for e in routed] == [
        {
            # A dry run says what the plan would do (not what the model
            # wrote); a real run what ran.
            "speech": (
                "Do you want me to turn on Bed Light?"
                if dry_run
                else "Turned on Bed Light."
            ),
            "outcome": "planned" if dry_run else "done",
            "tools": ["light.turn_on"],
            "confidence": 0.95,
            "ok": [] if dry_run else [True],
        }
    ]
    assert hass.states.get("light.bed_light").state == ("off" if dry_run else "on")
    assert "Speaker area: Bedroom" in user_prompt(llm_server, 0)
    assert len(handled) == 1
    # The automation's context is the turn's, so the logbook knows who asked.
    assert handled[0].context.id == routed[0].context.id


async def test_clear_context_for_one_device_and_for_all(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """Clearing forgets the device's turns (also on disk); no device: all."""
    kitchen = satellite_in(hass, "Kitchen")
    bedroom = satellite_in(hass, "Bedroom")
    for device_id in (kitchen, bedroom):
        llm_server.add_plan(plan(speech="Hi."))
        # An automation may route without wanting the response.
        await hass.services.async_call(
            DOMAIN,
            "route",
            {
                "agent_id": agent_entity(hass, entry),
                "text": "hi",
                "device_id": device_id,
            },
            blocking=True,
        )

    await hass.services.async_call(
        DOMAIN,
        "clear_context",
        {"agent_id": agent_entity(hass, entry), "device_id": kitchen},
        blocking=True,
    )

    memory_file = f"{DOMAIN}.context.{only_agent(entry).subentry_id}"
    stored = hass_storage[memory_file]["data"]["turns"]
    assert set(stored) == {bedroom}
    for device_id, remembered in ((kitchen, False), (bedroom, True)):
        llm_server.add_plan(plan(speech="Hi again."))
        await route(hass, entry, text="hello again", device_id=device_id)
        assert history_sent(llm_server) is remembered

    await hass.services.async_call(
        DOMAIN, "clear_context", {"agent_id": agent_entity(hass, entry)}, blocking=True
    )

    assert hass_storage[memory_file]["data"]["turns"] == {}
    for device_id in (kitchen, bedroom):
        llm_server.add_plan(plan(speech="Hi."))
        await route(hass, entry, text="hello", device_id=device_id)
        assert not history_sent(llm_server)


@pytest.mark.parametrize(
    ("service", "data", "key"),
    [
        ("route", {"text": "   "}, "empty_text"),
        ("route", {"text": "light " * 200}, "text_too_long"),
        ("route", {"text": "hi", "device_id": "no-such-device"}, "unknown_device"),
        ("route", {"text": "hi", "area_id": "no_such_area"}, "unknown_area"),
        ("clear_context", {"device_id": "no-such-device"}, "unknown_device"),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    service: str,
    data: dict[str, Any],
    key: str,
) -> None:
    """Each kind of bad input has its translated error; nothing happens."""
    events = async_capture_events(hass, EVENT_HANDLED)
    device_id = satellite_in(hass, "Kitchen")
    llm_server.add_plan(plan(speech="Hi."))
    await route(hass, entry, text="hello", device_id=device_id)

    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            DOMAIN,
            service,
            {"agent_id": agent_entity(hass, entry), **data},
            blocking=True,
        )

    assert err.value.translation_domain == DOMAIN
    assert err.value.translation_key == key
    assert str(err.value)
    assert len(llm_server.requests) == 1
    assert len(events) == 1
    assert len(agent_data(entry).context.recent(device_id)) == 1


@pytest.mark.parametrize("service", ["route", "clear_context"])
async def test_the_agent_must_exist_and_be_loaded(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    service: str,
) -> None:
    """The actions stay registered and say why they cannot run.

    An entity that is not an Intent Router agent (none at all, or another
    integration's) is refused by name; an agent whose server is unloaded
    as Home Assistant refuses an unloaded entry.
    """
    data = {"text": "hello"} if service == "route" else {}
    agent = agent_entity(hass, entry)
    # An entity of the integration that is no agent of the loaded server.
    stray = er.async_get(hass).async_get_or_create(
        "conversation", DOMAIN, "stray", config_entry=entry
    )
    for agent_id, key in (
        ("conversation.no_such_agent", "unknown_agent"),
        ("light.kitchen_lights", "unknown_agent"),
        (stray.entity_id, "unknown_agent"),
        (agent, "service_config_entry_not_loaded"),
    ):
        if agent_id == agent:
            assert await hass.config_entries.async_unload(entry.entry_id)
            assert entry.state is ConfigEntryState.NOT_LOADED
        with pytest.raises(ServiceValidationError) as err:
            await hass.services.async_call(
                DOMAIN, service, {"agent_id": agent_id, **data}, blocking=True
            )
        assert err.value.translation_key == key
        if key == "unknown_agent":
            assert err.value.translation_placeholders == {"agent_id": agent_id}
    assert llm_server.requests == []


async def async_setup_weather(hass: HomeAssistant, entry: MockConfigEntry) -> str:
    """Core's demo weather, exposed and allowed, then the entry; its id.

    Its `get_forecasts` answers with data, which a second call phrases.
    """
    with patch(
        "homeassistant.components.demo.COMPONENTS_WITH_CONFIG_ENTRY_DEMO_PLATFORM",
        [Platform.WEATHER],
    ):
        demo = MockConfigEntry(domain="demo")
        demo.add_to_hass(hass)
        assert await hass.config_entries.async_setup(demo.entry_id)
        await hass.async_block_till_done()
    weather = "weather.demo_weather_south"
    assert hass.states.get(weather) is not None
    async_expose_entity(hass, CONVERSATION_DOMAIN, weather, True)
    set_agent_options(
        hass, entry, {CONF_ALLOWED_DOMAINS: [*DEFAULT_ALLOWED_DOMAINS, "weather"]}
    )
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return weather


@pytest.mark.parametrize(
    ("phrasing", "spoken"),
    [
        ({"content": "Tomorrow will be sunny."}, "Tomorrow will be sunny."),
        # A 404 is final (not retried): the second call fails at once, and
        # the plan's own words are spoken instead of an error.
        ({"status": 404}, "Here is the forecast."),
    ],
    ids=["phrased", "phrasing fails"],
)
async def test_service_data_is_phrased_by_a_second_call(
    hass: HomeAssistant,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    core_components: None,
    phrasing: dict[str, Any],
    spoken: str,
) -> None:
    """A forecast comes back as data; the model words it within the budget."""
    weather = await async_setup_weather(hass, mock_config_entry)
    llm_server.add_plan(
        plan(
            act("weather.get_forecasts", weather, type="daily"),
            speech="Here is the forecast.",
        )
    )
    llm_server.add_reply(**phrasing)

    response = await route(hass, mock_config_entry, text="what's the forecast?")

    assert response["speech"] == spoken
    assert response["outcome"] == "done"
    forecast = response["results"][0]["result"][weather]["forecast"]
    assert forecast
    phrase = llm_server.requests[1]
    assert "response_format" not in phrase
    content = phrase["messages"][-1]["content"]
    assert "what's the forecast?" in content
    assert "weather.get_forecasts" in content
    assert forecast[0]["condition"] in content
    assert str(forecast[0]["temperature"]) in content
