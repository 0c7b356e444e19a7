"""Levels said in words set what they say, beside HA's match too; six languages.

"Run the fan at maximum", "open the hall window halfway", "à fond", "al
máximo": a level said in words is the percentage it means, sent as each
domain takes it (a light's brightness, a fan's speed, a cover's position,
a player's volume). Where Home Assistant's own sentences or its gazetteer
match the words as a plain turn-on and leave the level out, the call
still carries it. Whole turns through Assist in the demo home, with the
model never asked.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.const import EVENT_CALL_SERVICE, Platform
from homeassistant.core import Event, HomeAssistant
from homeassistant.setup import async_setup_component

from . import home
from .helpers import converse, speech
from .llm_server import ScriptedLLMServer

FAN = "fan.living_room_fan"
LIGHTS = "light.kitchen_lights"
SPEAKER = "media_player.walkman"
WINDOW = "cover.hall_window"
# The owner's own sentences (HA's `conversation: intents:`), in any language.
OWN_SENTENCES = {
    "HassTurnOn": [
        "blast {name} on full",
        "{name} auf volle Leistung",
        "{name} al massimo",
    ]
}


@pytest.fixture
async def agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The demo home with a fan and a speaker, reading first as by default.

    Demo fans and media players have no device, so no area: each is the
    home's only one of its kind. The fan turns slowly, the lights are dim.
    The owner has sentences of their own that turn a device on, said with
    a level (`OWN_SENTENCES`).
    """
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(
        hass, "conversation", {"conversation": {"intents": OWN_SENTENCES}}
    )
    monkeypatch.setattr(
        home,
        "DEMO_PLATFORMS",
        [*home.DEMO_PLATFORMS, Platform.MEDIA_PLAYER, Platform.FAN],
    )
    for entity_id in (SPEAKER, FAN):
        monkeypatch.setitem(home.EXPOSED_AREAS, entity_id, None)
    agent = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _call(hass, "fan", "set_percentage", FAN, percentage=33)
    await _call(hass, "light", "turn_on", LIGHTS, brightness_pct=20)
    await _call(hass, "media_player", "volume_set", SPEAKER, volume_level=0.3)
    return agent


async def _call(
    hass: HomeAssistant, domain: str, service: str, entity_id: str, **data: Any
) -> None:
    await hass.services.async_call(
        domain, service, {"entity_id": entity_id, **data}, blocking=True
    )
    await hass.async_block_till_done()


def _sent(events: list[Event], entity_id: str) -> tuple[str, dict[str, Any]]:
    """The one service call the turn sent to an entity, and its data."""
    calls = [
        (f"{event.data['domain']}.{event.data['service']}", event.data["service_data"])
        for event in events
        if entity_id in str(event.data["service_data"].get("entity_id"))
    ]
    assert len(calls) == 1, calls
    tool, data = calls[0]
    return tool, {k: v for k, v in data.items() if k != "entity_id"}


# (language, what is said, the entity, the call it is sent)
LEVELS = [
    ("en", "run the fan at maximum", FAN, ("fan.set_percentage", {"percentage": 100})),
    ("en", "turn the fan on halfway", FAN, ("fan.set_percentage", {"percentage": 50})),
    (
        "en",
        "turn the fan on at full speed",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "de",
        "Schalte den Ventilator auf volle Leistung",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "de",
        "Stell das Licht in der Küche auf volle Helligkeit",
        LIGHTS,
        ("light.turn_on", {"brightness_pct": 100}),
    ),
    (
        "fr",
        "Mets le ventilateur à fond",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "fr",
        "Ouvre la fenêtre du couloir à mi-hauteur",
        WINDOW,
        ("cover.set_cover_position", {"position": 50}),
    ),
    (
        "es",
        "Enciende el ventilador al máximo",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "es",
        "Pon el walkman a todo volumen",
        SPEAKER,
        ("media_player.volume_set", {"volume_level": 1.0}),
    ),
    (
        "nl",
        "Zet de ventilator op de hoogste stand",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "nl",
        "Zet het licht in de keuken op volle sterkte",
        LIGHTS,
        ("light.turn_on", {"brightness_pct": 100}),
    ),
    (
        "it",
        "Accendi il ventilatore al massimo",
        FAN,
        ("fan.set_percentage", {"percentage": 100}),
    ),
    (
        "it",
        "Metti il walkman a tutto volume",
        SPEAKER,
        ("media_player.volume_set", {"volume_level": 1.0}),
    ),
]


@pytest.mark.parametrize(("language", "said", "entity_id", "call"), LEVELS)
async def test_a_level_said_in_words_is_sent(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    entity_id: str,
    call: tuple[str, dict[str, Any]],
) -> None:
    """The percentage the words mean, as the device's domain takes it."""
    events = async_capture_events(hass, EVENT_CALL_SERVICE)

    await converse(hass, agent_id, said, kitchen, language)
    await hass.async_block_till_done()

    assert _sent(events, entity_id) == call
    assert llm_server.requests == []
    await _call(hass, "cover", "stop_cover", WINDOW)  # a demo cover moves on


# Words HA's gazetteer reads as a turn-on of the lights (an interjection,
# a misheard name), with a level beside it.
BESIDE_THE_GAZETTEER = [
    "hey turn on the kitchen lights to full",
    "turn on the kitchen lites to full",
]


@pytest.mark.parametrize("said", BESIDE_THE_GAZETTEER)
async def test_a_level_beside_the_gazetteers_match_is_sent(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    said: str,
) -> None:
    """HA's own agent turns the dim lights on as they were; here, at full."""
    result = await converse(hass, agent_id, said, kitchen)
    await hass.async_block_till_done()

    assert hass.states.get(LIGHTS).attributes["brightness"] == 255
    assert speech(result) == "Set Kitchen Lights to 100 percent."
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "blast Living Room Fan on full"),
        ("de", "Living Room Fan auf volle Leistung"),
        ("it", "Living Room Fan al massimo"),
    ],
)
async def test_a_level_beside_an_own_sentences_turn_on_is_sent(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """The owner's sentence turns the fan on; the level said in it wins."""
    await _call(hass, "fan", "turn_off", FAN)

    await converse(hass, agent_id, said, kitchen, language)
    await hass.async_block_till_done()

    assert hass.states.get(FAN).state == "on"
    assert hass.states.get(FAN).attributes["percentage"] == 100
    assert llm_server.requests == []
