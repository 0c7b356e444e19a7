"""HA's demo home, as `scripts/develop` starts it: a kind beats a room's name.

The demo's speakers are named like rooms ("Kitchen", "Living Room",
"Bedroom"), as Sonos, Echo and Nest speakers often are. A kind said or
implied ("the light", "too dark", "too cold", "the temperature") means the
devices of that kind in the room, never the speaker called like it,
whichever path reads the words: HA's own sentences, the reading or the
model. Six languages, in the demo's English-named home.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from .agents import set_agent_options
from .demo_home import async_setup_develop_home
from .helpers import act, converse, lit_at, plan, speech
from .llm_server import ScriptedLLMServer

LIGHTS = "light.kitchen_lights"
THERMOSTAT = "climate.hvac"  # the living room's
SPEAKERS = ("media_player.kitchen", "media_player.living_room", "media_player.bedroom")

# (language, the light turned on, too dark, too cold, the temperature asked)
SAID = [
    (
        "en",
        "turn on the light in the kitchen",
        "it's too dark in the kitchen",
        "it's too cold in the living room",
        "what's the temperature in the living room?",
    ),
    (
        "de",
        "Mach das Licht in der Küche an",
        "Es ist zu dunkel in der Küche",
        "Es ist zu kalt im Wohnzimmer",
        "Wie ist die Temperatur im Wohnzimmer?",
    ),
    (
        "fr",
        "allume la lumière dans la cuisine",
        "il fait trop sombre dans la cuisine",
        "il fait trop froid dans le salon",
        "quelle est la température dans le salon ?",
    ),
    (
        "es",
        "enciende la luz de la cocina",
        "está demasiado oscuro en la cocina",
        "tengo mucho frío en el salón",
        "¿cuál es la temperatura en el salón?",
    ),
    (
        "nl",
        "doe het licht in de keuken aan",
        "het is te donker in de keuken",
        "het is te koud in de woonkamer",
        "wat is de temperatuur in de woonkamer?",
    ),
    (
        "it",
        "accendi la luce in cucina",
        "è troppo buio in cucina",
        "ho troppo freddo in soggiorno",
        "qual è la temperatura in soggiorno?",
    ),
]


@pytest.fixture
async def agent_id(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The development home, and the agent with the product's local-first."""
    await async_setup_develop_home(hass)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return str(mock_config_entry.entry_id)


def _speakers(hass: HomeAssistant) -> dict[str, tuple[str, Any, Any]]:
    """What a turn could change of the speakers named like rooms."""
    return {
        entity_id: (
            (state := hass.states.get(entity_id)).state,
            state.attributes.get("volume_level"),
            state.attributes.get("is_volume_muted"),
        )
        for entity_id in SPEAKERS
    }


def _attribute(entity_id: str, name: str) -> Callable[[HomeAssistant], Any]:
    return lambda hass: hass.states.get(entity_id).attributes.get(name)


@pytest.mark.parametrize(("language", "light_on", "dark", "cold", "asked"), SAID)
async def test_a_kind_said_or_implied_is_no_speaker_named_like_the_room(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    light_on: str,
    dark: str,
    cold: str,
    asked: str,
) -> None:
    """The light, the dark, the cold and the temperature are no speaker's."""
    speakers = _speakers(hass)
    brightness = _attribute(LIGHTS, "brightness")
    target = _attribute(THERMOSTAT, "temperature")

    await converse(hass, agent_id, light_on, language=language)
    assert hass.states.get(LIGHTS).state == "on"
    lit = brightness(hass)

    await converse(hass, agent_id, dark, language=language)
    assert brightness(hass) > lit

    warm = target(hass)
    await converse(hass, agent_id, cold, language=language)
    assert target(hass) > warm

    answer = speech(await converse(hass, agent_id, asked, language=language))
    assert f"{target(hass):g}" in answer

    assert _speakers(hass) == speakers
    assert not llm_server.requests  # each was read without the model


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "make the kitchen brighter"),
        ("de", "mach die Küche heller"),
        ("fr", "rends la cuisine plus lumineuse"),
        ("es", "pon la cocina más luminosa"),
        ("nl", "maak de keuken feller"),
        ("it", "rendi la cucina più luminosa"),
    ],
)
async def test_a_step_only_a_kind_takes_is_no_speaker_named_like_the_room(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Said "brighter", a light's step: the kitchen's lights, not the speaker."""
    await lit_at(hass, LIGHTS, 100)
    speakers = _speakers(hass)

    await converse(hass, agent_id, said, language=language)

    assert _attribute(LIGHTS, "brightness")(hass) > 100
    assert _speakers(hass) == speakers


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "switch off everything in the kitchen"),
        ("de", "mach alles in der Küche aus"),
        ("fr", "éteins tout dans la cuisine"),
    ],
)
async def test_everything_in_a_room_is_what_is_there_not_a_speaker_named_so(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Every device in the kitchen the verb acts on; the speaker Kitchen is in none."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHTS}, blocking=True
    )
    speakers = _speakers(hass)

    await converse(hass, agent_id, said, language=language)
    await hass.async_block_till_done()

    assert hass.states.get(LIGHTS).state == "off"
    assert hass.states.get("climate.heatpump").state == "off"
    assert _speakers(hass) == speakers
    assert not llm_server.requests


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "put the kitchen lights at maximum"),
        ("de", "stell das Licht in der Küche auf Anschlag"),
        ("fr", "mets la lumière de la cuisine à fond"),
        ("es", "pon la luz de la cocina al máximo"),
        ("nl", "zet het licht in de keuken op de hoogste stand"),
        ("it", "metti la luce della cucina al massimo"),
    ],
)
async def test_the_highest_setting_said_in_words_is_a_value(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """At maximum, à fond, al máximo: full, read without the model."""
    await lit_at(hass, LIGHTS, 60)

    await converse(hass, agent_id, said, language=language)

    assert hass.states.get(LIGHTS).attributes["brightness"] == 255
    assert not llm_server.requests


async def test_the_model_naming_the_speaker_for_the_light_is_not_obeyed(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A model that turns the Kitchen speaker up for "the kitchen light" is refused.

    The words say a light; the speaker called Kitchen is not what they
    name, so the plan is grounded in nothing and does not run.
    """
    speakers = _speakers(hass)
    llm_server.add_plan(plan(act("volume_up", "media_player.kitchen")))

    result = await converse(
        hass, agent_id, "could the kitchen light be a touch livelier"
    )

    assert llm_server.requests
    assert _speakers(hass) == speakers
    assert "Kitchen" not in speech(result).removeprefix("Kitchen Lights")
