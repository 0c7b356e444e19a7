"""Everyday questions about the home, asked as people ask them, in six languages.

In Home Assistant's demo home (as `scripts/develop` furnishes it): how warm
it is outside is its outside temperature sensor's answer, found by the
outside its name says in any language, else the weather's; whether a light
is still on anywhere, the lights'. Furnished further (a porch, a bathroom
upstairs, the household in the kitchen): how many lights are on, counted
in the home ("how many lamps are still burning in the house?", "wie viele
Lichter brennen noch?"); whether one is still on anywhere ("brennt noch
irgendwo Licht?"), of every light, not only the kitchen's; a question in
the past ("did I leave the garage open?", "hast du die Garage
zugemacht?", "ho lasciato accesa la luce?"), the state now. Never the
model's, and nothing changes; a command is still a command.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)

from .agents import agent_entity, set_agent_options
from .demo_home import async_setup_develop_home
from .helpers import act, agent_details, converse, home_states, plan, speech
from .home import satellite_in
from .llm_server import ScriptedLLMServer

SENSOR = "sensor.outside_temperature"

ASKED = [
    ("en", "how warm is it outside?", "It's 15.6 degrees outside."),
    ("en", "is it cold outside?", "It's 15.6 degrees outside."),
    ("de", "wie warm ist es draußen?", "Draußen sind es 15,6 Grad."),
    ("fr", "il fait combien dehors ?", "Il fait 15,6 degrés dehors."),
    ("es", "¿qué temperatura hace fuera?", "Fuera hace 15,6 grados."),
    ("nl", "hoe warm is het buiten?", "Buiten is het 15,6 graden."),
    ("it", "quanti gradi ci sono fuori?", "Fuori ci sono 15,6 gradi."),
]


@pytest.fixture
async def agent(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The demo home of `scripts/develop` and the agent as shipped."""
    await async_setup_develop_home(hass)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return agent_entity(hass, mock_config_entry)


@pytest.mark.parametrize(("language", "said", "answer"), ASKED)
async def test_outside_is_the_sensor_that_says_so(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """The sensor named Outside Temperature is what draußen, dehors, fuori ask of."""
    result = await converse(hass, agent, said, language=language)

    assert speech(result) == answer
    assert llm_server.requests == []


async def test_a_sensor_named_in_the_homes_language_answers(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """A name like Außentemperatur says outside as its start."""
    er.async_get(hass).async_update_entity(SENSOR, name="Außentemperatur")
    await hass.async_block_till_done()

    result = await converse(hass, agent, "ist es draußen kalt?", language="de")

    assert speech(result) == "Draußen sind es 15,6 Grad."


async def test_with_no_sensor_outside_the_weather_answers(
    hass: HomeAssistant, agent: str, llm_server: ScriptedLLMServer
) -> None:
    """The weather's own temperature, when no sensor's name says outside."""
    async_expose_entity(hass, CONVERSATION_DOMAIN, SENSOR, False)
    weather = next(iter(sorted(hass.states.async_entity_ids("weather"))))
    async_expose_entity(hass, CONVERSATION_DOMAIN, weather, True)
    temperature = hass.states.get(weather).attributes["temperature"]

    result = await converse(hass, agent, "how warm is it outside?")

    assert speech(result) == f"It's {temperature:g} degrees outside."


STILL_ON = [
    ("en", "is there still a light on?", "Yes. Ceiling Lights is on."),
    ("de", "ist noch ein Licht an?", "Ja, Ceiling Lights"),
    ("es", "¿todavía hay alguna luz encendida?", "Sí. Ceiling Lights: encendido."),
    ("nl", "is er nog ergens licht aan?", "Ja. Ceiling Lights is aan."),
]


@pytest.mark.parametrize(("language", "said", "answer"), STILL_ON)
async def test_still_on_anywhere_is_whether_any_is_on(
    hass: HomeAssistant,
    agent: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Still asks what on asks; anywhere asks of any light in the home."""
    result = await converse(hass, agent, said, language=language)

    assert speech(result).startswith(answer)
    assert llm_server.requests == []


# The demo home furnished further: a porch light, a bathroom light, and
# the bedroom and bathroom upstairs. Of its lights, Ceiling Lights, Porch
# Light, Living Room RGBWW Lights and Bathroom Light are on; Kitchen Lights
# and Bed Light are off. The household talks in the kitchen.
PORCH = "light.entrance_color_white_lights"
BATHROOM = "light.office_rgbw_lights"
KITCHEN = "light.kitchen_lights"
GARAGE = "cover.garage_door"
ON = "Ceiling Lights, Porch Light, Living Room RGBWW Lights"


@pytest.fixture
async def house(hass: HomeAssistant, mock_config_entry: MockConfigEntry) -> str:
    """The agent as shipped in that home; the kitchen satellite's device id."""
    await async_setup_develop_home(hass)
    areas = ar.async_get(hass)
    devices = dr.async_get(hass)
    entities = er.async_get(hass)
    upstairs = fr.async_get(hass).async_create("Upstairs")
    for light, room, name in (
        (PORCH, "Porch", "Porch Light"),
        (BATHROOM, "Bathroom", "Bathroom Light"),
    ):
        entry = entities.async_get(light)
        assert entry is not None
        assert entry.device_id is not None
        created = areas.async_create(room)
        devices.async_update_device(
            entry.device_id, area_id=created.id, name_by_user=name
        )
    for room in ("Bedroom", "Bathroom"):
        found = areas.async_get_area_by_name(room)
        assert found is not None
        areas.async_update(found.id, floor_id=upstairs.floor_id)
    set_agent_options(hass, mock_config_entry, {CONF_LOCAL_FIRST: True})
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return satellite_in(hass, "Kitchen")


async def _ask(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    kitchen: str,
    said: str,
    language: str,
) -> str:
    """One question from the kitchen; what was said back."""
    agent = agent_entity(hass, mock_config_entry)
    return speech(await converse(hass, agent, said, kitchen, language))


COUNTS = [
    (
        "en",
        "how many lamps are still burning in the house?",
        f"4: {ON} and Bathroom Light.",
    ),
    ("de", "wie viele Lichter brennen noch?", f"4: {ON} und Bathroom Light."),
    (
        "fr",
        "combien de lumières sont encore allumées dans la maison ?",
        f"4 : {ON} et Bathroom Light.",
    ),
    ("es", "cuántas luces hay encendidas?", f"4: {ON} y Bathroom Light."),
    (
        "it",
        "quante luci sono ancora accese in tutta la casa?",
        f"4: {ON} e Bathroom Light.",
    ),
    ("nl", "hoeveel lampen branden er nog?", f"4: {ON} en Bathroom Light."),
    ("en", "how many lamps are burning upstairs?", "1: Bathroom Light."),
    (
        "de",
        "wie viele Lampen brennen im Wohnzimmer?",
        "2: Ceiling Lights und Living Room RGBWW Lights.",
    ),
]


@pytest.mark.parametrize(("language", "said", "answer"), COUNTS)
async def test_how_many_are_on_is_counted_in_the_home(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    house: str,
    language: str,
    said: str,
    answer: str,
) -> None:
    """How many of a kind are in the state asked: the home's, else the place's.

    Said in the kitchen, whose light is off, with no place: the home's
    lights, the count and which. The model, asked, would switch them off.
    """
    llm_server.add_plan(plan(act("light.turn_off", PORCH, BATHROOM)))
    before = home_states(hass)

    assert await _ask(hass, mock_config_entry, house, said, language) == answer
    assert home_states(hass) == before
    assert llm_server.requests == []


async def test_many_are_counted_not_listed(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    house: str,
) -> None:
    """More than four is a number, not a list nobody listens to."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": "all"}, blocking=True
    )

    said = await _ask(
        hass,
        mock_config_entry,
        house,
        "how many lights are still on in the house?",
        "en",
    )
    anywhere = await _ask(
        hass, mock_config_entry, house, "brennt noch irgendwo Licht?", "de"
    )

    assert said == "There are 6."
    assert anywhere == "Ja. Es sind 6."


ANYWHERE = [
    ("en", "is there still a light on anywhere?", "Yes. Ceiling Lights is on."),
    ("en", "is there still a light on upstairs?", "Yes. Bathroom Light is on."),
    ("de", "brennt noch irgendwo Licht?", "Ja. Ceiling Lights ist ein."),
    (
        "fr",
        "y a-t-il encore une lumière allumée quelque part ?",
        "Oui. Ceiling Lights : allumé.",
    ),
    ("es", "queda alguna luz encendida?", "Sí. Ceiling Lights: encendido."),
    (
        "it",
        "c'è ancora una luce accesa da qualche parte?",
        "Sì. Ceiling Lights: acceso.",
    ),
    ("nl", "is er nog ergens licht aan?", "Ja. Ceiling Lights is aan."),
    ("nl", "brandt er nog licht in huis?", "Ja. Ceiling Lights is aan."),
    ("en", "is there still a light on?", "Yes. Ceiling Lights is on."),
    ("fr", "y a-t-il encore une lumière allumée ?", "Oui. Ceiling Lights : allumé."),
    # "Il y a" is French's "is there", said alone or after "est-ce qu'".
    ("fr", "il y a encore une lumière allumée ?", "Oui. Ceiling Lights : allumé."),
    (
        "fr",
        "est-ce qu'il y a encore une lumière allumée ?",
        "Oui. Ceiling Lights : allumé.",
    ),
    # "C'è" is Italian's "is there", as "ci sono" is "are there".
    ("it", "c'è ancora una luce accesa?", "Sì. Ceiling Lights: acceso."),
    ("es", "¿todavía hay luces encendidas?", "Sí. Ceiling Lights: encendido."),
    ("it", "ci sono ancora luci accese?", "Sì. Ceiling Lights: acceso."),
    ("nl", "is er nog licht aan?", "Ja. Ceiling Lights is aan."),
    ("de", "gibt es noch Licht, das brennt?", "Ja. Ceiling Lights ist ein."),
]


@pytest.mark.parametrize(("language", "said", "answer"), ANYWHERE)
async def test_still_on_anywhere_asks_the_whole_home(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    house: str,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Anywhere, irgendwo, in huis, alguna: any light of the home, not the kitchen's.

    A light that burns is on, said first too ("brennt", "brandt"). The
    kitchen's own light is off; the model, asked, would switch lights off.
    """
    llm_server.add_plan(plan(act("light.turn_off", PORCH, BATHROOM)))
    before = home_states(hass)

    assert (await _ask(hass, mock_config_entry, house, said, language)).startswith(
        answer
    )
    assert home_states(hass) == before
    assert llm_server.requests == []


LEFT = [
    ("en", "did I leave the porch light on?", "Yes. Porch Light is on."),
    ("en", "did I leave the garage open?", "No. Garage Door is closed."),
    ("en", "did you close the garage?", "Yes. Garage Door is closed."),
    ("de", "hast du die Garage zugemacht?", "Ja. Garage Door ist geschlossen."),
    ("de", "habe ich das Licht im Bad angelassen?", "Ja. Bathroom Light ist ein."),
    (
        "de",
        "hat jemand die Garage offen gelassen?",
        "Nein. Garage Door ist geschlossen.",
    ),
    (
        "fr",
        "ai-je laissé la lumière allumée dans la cuisine ?",
        "Non. Kitchen Lights : éteint.",
    ),
    ("es", "he dejado la luz encendida?", "No. Kitchen Lights: apagado."),
    ("it", "ho lasciato accesa la luce?", "No. Kitchen Lights: spento."),
    (
        "nl",
        "heb ik het licht in de keuken aan laten staan?",
        "Nee. Kitchen Lights is uit.",
    ),
]


@pytest.mark.parametrize(("language", "said", "answer"), LEFT)
async def test_a_question_in_the_past_asks_the_state_now(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    house: str,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Did I leave it on, hast du sie zugemacht: the state the words name, now.

    Never what the participle's verb does: the model, asked, would open the
    garage and switch the lights on.
    """
    llm_server.add_plan(plan(act("cover.open_cover", GARAGE)))
    llm_server.add_plan(plan(act("light.turn_on", KITCHEN)))
    before = home_states(hass)

    assert await _ask(hass, mock_config_entry, house, said, language) == answer
    assert home_states(hass) == before
    assert llm_server.requests == []


async def test_a_command_is_still_a_command(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    house: str,
) -> None:
    """Leave the porch light on asks nothing; turn on the light turns it on.

    Neither is answered from the states: the kitchen's light goes on.
    """
    agent = agent_entity(hass, mock_config_entry)

    left = await converse(hass, agent, "leave the porch light on", house)
    asked = agent_details()
    await converse(hass, agent, "turn on the light", house)

    assert not speech(left).startswith(("Yes", "No"))
    assert not any("answered_from_states" in detail for detail in asked)
    assert hass.states.get(PORCH).state == "on"
    assert hass.states.get(KITCHEN).state == "on"
