"""Whole turns in six languages: values and questions said as natives say them.

A real Home Assistant with demo lights, locks and thermostats, and a
scripted model that plans (and sometimes plans wrong). What the household
hears is the integration's own sentence in its language: "21,5 Grad", not
"21.5°"; "Heizbetrieb", not "heat"; "4000 Kelvin", not "4000 K"; and a lock
that opens is asked about with the language's own verb.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.core import HomeAssistant

from . import home
from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer

# What the model says about its actions; no household may hear it.
MODEL_SPEECH = "Set Hvac to 21.5° and heat_cool, colour 4000 K."


def _with_thermostat_and_latch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo home, plus its thermostats and the lock that opens, exposed."""
    home.with_thermostat(monkeypatch)
    monkeypatch.setitem(home.EXPOSED_AREAS, "lock.openable_lock", None)


@pytest.fixture
async def agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The agent, with default options, in that home."""
    _with_thermostat_and_latch(monkeypatch)
    return await home.async_setup_agent(hass, mock_config_entry)


@pytest.fixture
async def answering_agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The agent answering from the home's states first, in that home."""
    _with_thermostat_and_latch(monkeypatch)
    return await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )


@dataclass(frozen=True, slots=True)
class Speaker:
    """What one household says, and the sentences it must hear."""

    language: str
    # "Make it as it was last night": only a model knows what that sets.
    thermostat_as_before: str
    lights_as_before: str
    open_lock: str
    yes: str
    # What it hears.
    set_temperature: str
    set_mode: str
    set_colour: str
    asks_open: str
    opened: str


SPEAKERS = [
    Speaker(
        "en",
        "Make Hvac like last night",
        "Make Kitchen Lights like last night",
        "Open the Openable Lock",
        "Yes",
        "Set Hvac to 21.5 degrees.",
        "Set Hvac to heat.",
        "Set Kitchen Lights to 4000 kelvin.",
        "Do you want me to open Openable Lock?",
        "Opened Openable Lock.",
    ),
    Speaker(
        "de",
        "Mach Hvac so wie gestern Abend",
        "Mach Kitchen Lights so wie gestern Abend",
        "Öffne das Openable Lock",
        "Ja",
        "Ich habe Hvac auf 21,5 Grad gestellt.",
        "Ich habe Hvac auf Heizbetrieb gestellt.",
        "Ich habe Kitchen Lights auf 4000 Kelvin gestellt.",
        "Soll ich Openable Lock öffnen?",
        "Ich habe Openable Lock geöffnet.",
    ),
    Speaker(
        "fr",
        "Remets Hvac comme hier soir",
        "Remets Kitchen Lights comme hier soir",
        "Ouvre Openable Lock",
        "Oui",
        "J'ai réglé Hvac sur 21,5 degrés.",
        "J'ai réglé Hvac sur chauffage.",
        "J'ai réglé Kitchen Lights sur 4000 kelvins.",
        "Dois-je ouvrir Openable Lock ?",
        "J'ai ouvert Openable Lock.",
    ),
    Speaker(
        "es",
        "Deja Hvac como anoche",
        "Deja Kitchen Lights como anoche",
        "Abre Openable Lock",
        "Sí",
        "He puesto Hvac a 21,5 grados.",
        "He puesto Hvac a calor.",
        "He puesto Kitchen Lights a 4000 kelvin.",
        "¿Quieres que abra Openable Lock?",
        "He abierto Openable Lock.",
    ),
    Speaker(
        "nl",
        "Zet Hvac zoals gisteravond",
        "Zet Kitchen Lights zoals gisteravond",
        "Open Openable Lock",
        "Ja",
        "Ik heb Hvac op 21,5 graden gezet.",
        "Ik heb Hvac op verwarmen gezet.",
        "Ik heb Kitchen Lights op 4000 kelvin gezet.",
        "Zal ik Openable Lock openen?",
        "Ik heb Openable Lock geopend.",
    ),
    Speaker(
        "it",
        "Rimetti Hvac come ieri sera",
        "Rimetti Kitchen Lights come ieri sera",
        "Apri Openable Lock",
        "Sì",
        "Ho impostato Hvac su 21,5 gradi.",
        "Ho impostato Hvac su riscaldamento.",
        "Ho impostato Kitchen Lights su 4000 kelvin.",
        "Devo aprire Openable Lock?",
        "Ho aperto Openable Lock.",
    ),
]
EVERY_LANGUAGE = pytest.mark.parametrize(
    "speaker", SPEAKERS, ids=lambda speaker: speaker.language
)


@EVERY_LANGUAGE
async def test_a_thermostat_is_set_in_the_households_words(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    speaker: Speaker,
) -> None:
    """A temperature with the decimal mark and unit word, a mode in HA's words.

    The model's own English ("21.5°", "heat_cool") is never heard.
    """
    llm_server.add_plan(
        plan(
            act("climate.set_temperature", "climate.hvac", temperature=21.5),
            act("climate.set_hvac_mode", "climate.hvac", hvac_mode="heat"),
            speech=MODEL_SPEECH,
        )
    )

    result = await converse(
        hass, agent_id, speaker.thermostat_as_before, language=speaker.language
    )

    thermostat = hass.states.get("climate.hvac")
    assert thermostat.state == "heat"
    assert thermostat.attributes["temperature"] == 21.5
    assert speech(result) == f"{speaker.set_temperature} {speaker.set_mode}"


@EVERY_LANGUAGE
async def test_a_colour_temperature_is_said_in_kelvin(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    speaker: Speaker,
) -> None:
    """A colour temperature is said with a word a speech engine reads right."""
    llm_server.add_plan(
        plan(
            act("light.turn_on", "light.kitchen_lights", color_temp_kelvin=4000),
            speech=MODEL_SPEECH,
        )
    )

    result = await converse(
        hass, agent_id, speaker.lights_as_before, language=speaker.language
    )

    light = hass.states.get("light.kitchen_lights")
    assert light.attributes["color_temp_kelvin"] == 4000
    assert speech(result) == speaker.set_colour


@EVERY_LANGUAGE
async def test_a_lock_that_opens_asks_with_the_languages_own_verb(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    speaker: Speaker,
) -> None:
    """`lock.open` asks first, in a sentence of its own; a yes opens it."""
    llm_server.add_plan(
        plan(act("lock.open", "lock.openable_lock"), speech=MODEL_SPEECH)
    )

    kitchen = home.satellite_in(hass, "Kitchen")
    question = await converse(
        hass, agent_id, speaker.open_lock, kitchen, speaker.language
    )
    assert speech(question) == speaker.asks_open
    assert hass.states.get("lock.openable_lock").state == "locked"

    result = await converse(hass, agent_id, speaker.yes, kitchen, speaker.language)

    assert speech(result) == speaker.opened
    await hass.async_block_till_done()  # the demo latch takes its time
    assert hass.states.get("lock.openable_lock").state == "open"


@EVERY_LANGUAGE
async def test_a_models_untidy_number_is_said_tidily(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    speaker: Speaker,
) -> None:
    """The model plans 21.4999 degrees: it is set, and said as 21,5 degrees."""
    llm_server.add_plan(
        plan(
            act("climate.set_temperature", "climate.hvac", temperature=21.4999),
            speech=MODEL_SPEECH,
        )
    )

    result = await converse(
        hass, agent_id, speaker.thermostat_as_before, language=speaker.language
    )

    assert hass.states.get("climate.hvac").attributes["temperature"] == 21.5
    assert speech(result) == speaker.set_temperature


@pytest.mark.parametrize(
    ("language", "questions", "said"),
    [
        (
            "en",
            ("Is Hvac on?", "What's the temperature in here?"),
            ("Yes. Hvac is set to cool, 21 degrees.", "22 degrees"),
        ),
        (
            "de",
            ("Ist Hvac an?", "Wie warm ist es hier?"),
            ("Ja. Hvac steht auf Kühlbetrieb, 21 Grad.", "22 Grad"),
        ),
        (
            "fr",
            ("Hvac est allumé ?", "Quelle est la température ici ?"),
            (
                "Oui. Hvac est en mode climatisation, 21 degrés.",
                "Il fait 22 degrés dans la pièce Hallway.",
            ),
        ),
        (
            "es",
            ("¿Hvac está encendido?", "¿Qué temperatura hace aquí?"),
            ("Sí. Hvac está en modo frío, 21 grados.", "Hace 22 grados en Hallway."),
        ),
        (
            "nl",
            ("Staat Hvac aan?", "Hoe warm is het hier?"),
            ("Ja. Hvac staat op koelen, 21 graden.", "22 graden"),
        ),
        (
            "it",
            ("Hvac è acceso?", "Che temperatura c'è qui?"),
            ("Sì. Hvac è in modalità freddo, 21 gradi.", "22 gradi"),
        ),
    ],
)
async def test_answers_from_the_home_say_modes_and_degrees(
    hass: HomeAssistant,
    answering_agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    questions: tuple[str, str],
    said: tuple[str, str],
) -> None:
    """A thermostat's mode and temperatures, in the language's words and units.

    Answered from the states: the model, scripted to switch it off, is not asked.
    Where HA's own sentences match the temperature question (en, de, nl, it),
    HA's own answer is heard.
    """
    llm_server.add_plan(
        plan(act("climate.turn_off", "climate.hvac"), speech=MODEL_SPEECH)
    )
    hallway = home.satellite_in(hass, "Hallway")

    for question, answer in zip(questions, said, strict=True):
        result = await converse(hass, answering_agent_id, question, hallway, language)
        assert speech(result) == answer

    assert llm_server.requests == []
    assert hass.states.get("climate.hvac").state == "cool"
