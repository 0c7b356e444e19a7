"""Questions about sensors answered in the shape they were asked, in six languages.

A yes/no question about one binary sensor ("is the sink wet?", "is there gas
in the kitchen?") is answered yes or no, then its state; "which ... is on?"
with the ones that are, or "none", never a yes. The sensors are named in
the household's language, as a user names them. The model is scripted to
act every time: it is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component

from . import home
from .helpers import act, async_setup_template_entity, converse, plan, speech
from .llm_server import ScriptedLLMServer

# A wet leak sensor under the sink, by its name in the language, and the
# word the language says it is wet with; a power sensor with power, asked
# about by the quantity it senses ("power" names what is sensed, no state).
ON_ASKED = [
    ("en", "Sink", "moisture", "Is the sink wet?", "Yes"),
    ("de", "Spüle", "moisture", "Ist die Spüle nass?", "Ja"),
    ("fr", "Évier", "moisture", "L'évier est-il humide ?", "Oui"),
    ("es", "Fregadero", "moisture", "¿Está mojado el fregadero?", "Sí"),
    ("nl", "Gootsteen", "moisture", "Is de gootsteen nat?", "Ja"),
    ("it", "Lavello", "moisture", "Il lavello è bagnato?", "Sì"),
    ("en", "Mains", "power", "Is the mains power detected?", "Yes"),
    ("de", "Hauptanschluss", "power", "Ist am Hauptanschluss Strom?", "Ja"),
    ("nl", "Meterkast", "power", "Is er in de meterkast stroom?", "Ja"),
]
# A gas sensor in the kitchen (clear), asked about with no state said.
GAS = {
    "en": ("Gas", "Is there gas in the kitchen?", "No"),
    "de": ("Gasmelder", "Schlägt der Gasmelder an?", "Nein"),
    "fr": ("Gaz", "Y a-t-il du gaz dans la cuisine ?", "Non"),
    "es": ("Detector de gas", "¿Hay gas en la cocina?", "No"),
    "nl": ("Gas", "Is er gas in de keuken?", "Nee"),
    "it": ("Sensore gas", "C'è gas in cucina?", "No"),
}
# A locked door lock asked whether it is closed or open.
LOCK_ASKED = [
    ("en", "Is the front door closed?", "Yes"),
    ("en", "Is the front door open?", "No"),
    ("de", "Ist Front Door geschlossen?", "Ja"),
    ("nl", "Is Front Door gesloten?", "Ja"),
]
# "Which ... is on?" of the kitchen's gas sensor, and "none" said.
WHICH = [
    ("en", "Which gas sensor is on?", "None."),
    ("de", "Welcher Gasmelder ist an?", "Keins."),
    ("nl", "Welke gas staat aan?", "Geen."),
]


@pytest.mark.parametrize(("language", "name", "device_class", "asked", "yes"), ON_ASKED)
async def test_a_sensor_asked_yes_or_no_is_answered_yes_or_no(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    name: str,
    device_class: str,
    asked: str,
    yes: str,
) -> None:
    """Its "on" word said ("nass") is a yes for a wet sensor; its state follows.

    So is a question with only what it senses ("Strom"). The model, asked,
    would switch off the kitchen lights.
    """
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _sensor(hass, name, device_class, on=True)
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    said = speech(answered)
    assert said.startswith(yes), said
    assert name in said
    assert hass.states.get("light.kitchen_lights").state == "on"
    assert llm_server.requests == []


@pytest.mark.parametrize("language", list(GAS))
async def test_a_sensor_asked_with_no_state_said_answers_its_on(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
) -> None:
    """A clear gas sensor asked "is there gas in the kitchen?" answers no."""
    name, asked, no = GAS[language]
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _sensor(hass, name, "gas", on=False, area="Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Living Room"), language
    )

    said = speech(answered)
    assert said.startswith(no), said
    assert llm_server.requests == []


@pytest.mark.parametrize(("language", "asked", "none"), WHICH)
async def test_which_sensor_is_on_is_no_yes_or_no(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    asked: str,
    none: str,
) -> None:
    """Asked which, with none on, the answer is "none", not "no"."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _sensor(hass, GAS[language][0], "gas", on=False, area="Kitchen")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    assert speech(answered) == none
    assert llm_server.requests == []


@pytest.mark.parametrize(("language", "asked", "answer"), LOCK_ASKED)
async def test_a_lock_asked_if_closed_answers_whether_locked(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    asked: str,
    answer: str,
) -> None:
    """A lock is closed when locked, open when not: a yes or a no."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await hass.services.async_call(
        "lock", "lock", {"entity_id": "lock.front_door"}, blocking=True
    )
    llm_server.add_plan(plan(act("lock.unlock", "lock.front_door")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    # (HA's Dutch sentences read "gesloten" of a lock too, and answer first.)
    said = speech(answered)
    assert said.startswith(answer), said
    assert hass.states.get("lock.front_door").state == "locked"
    assert llm_server.requests == []


async def _sensor(
    hass: HomeAssistant,
    name: str,
    device_class: str,
    *,
    on: bool,
    area: str | None = None,
) -> str:
    """A template binary sensor of a class, exposed, in an area; its id."""
    assert await async_setup_component(
        hass,
        "template",
        {
            "template": [
                {
                    "binary_sensor": [
                        {
                            "name": name,
                            "unique_id": f"sensor-{device_class}",
                            "state": f"{{{{ {str(on).lower()} }}}}",
                            "device_class": device_class,
                        }
                    ],
                }
            ]
        },
    )
    await hass.async_block_till_done()
    (entity_id,) = [
        s.entity_id for s in hass.states.async_all("binary_sensor") if s.name == name
    ]
    if area is not None:
        area_id = ar.async_get(hass).async_get_or_create(area).id
        er.async_get(hass).async_update_entity(entity_id, area_id=area_id)
    async_expose_entity(hass, conversation.DOMAIN, entity_id, True)
    return entity_id


# A connected phone in the office, asked after from the kitchen by its
# class's word in HA's own translation ("verbunden", "connecté"), no name said.
CONNECTED = [
    ("en", "Which sensor is connected?"),
    ("de", "Welcher Sensor ist verbunden?"),
    ("fr", "Quel capteur est connecté ?"),
    ("es", "¿Qué sensor está conectado?"),
    ("nl", "Welke sensor is verbonden?"),
    ("it", "Quale sensore è connesso?"),
]


@pytest.mark.parametrize(("language", "asked"), CONNECTED)
async def test_a_state_of_a_class_said_finds_its_sensors_in_the_home(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    asked: str,
) -> None:
    """The word is the connection sensor's: it is named, though in another room."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _sensor(hass, "Phone", "connectivity", on=True, area="Office")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    assert speech(answered) == "Phone."
    assert llm_server.requests == []


# The same phone asked after as "any device" or "anything": the state said in
# its class's word says the kind; a plug's "plugged in" said without "in".
SOME_DEVICE = [
    ("en", "connectivity", "Are any devices connected?", "Yes"),
    ("en", "plug", "Is anything plugged in?", "Yes"),
    ("de", "connectivity", "Sind irgendwelche Geräte verbunden?", "Ja"),
    ("es", "connectivity", "¿Hay algún dispositivo conectado?", "Sí"),
    ("fr", "connectivity", "Quel appareil est connecté ?", "Phone"),
    ("nl", "connectivity", "Welk apparaat is verbonden?", "Phone"),
    ("it", "connectivity", "Quale dispositivo è connesso?", "Phone"),
]


@pytest.mark.parametrize(("language", "device_class", "asked", "answer"), SOME_DEVICE)
async def test_any_device_in_the_state_of_a_class_is_found(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    device_class: str,
    asked: str,
    answer: str,
) -> None:
    """Devices, irgendwelche, algún name no kind: the state word does."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await _sensor(hass, "Phone", device_class, on=True, area="Office")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    said = speech(answered)
    assert said.startswith(answer), said
    assert "Phone" in said
    assert llm_server.requests == []


async def test_any_device_with_no_state_said_is_not_a_name_s_state(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """Asked if any device is home, no meter named "casa" is read out."""
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await async_setup_template_entity(
        hass,
        "sensor",
        {"name": "Consumo casa", "state": "19", "unit_of_measurement": "A"},
    )
    llm_server.add_reply("No lo sé.")

    answered = await converse(
        hass,
        agent_id,
        "¿Hay algún dispositivo en casa?",
        home.satellite_in(hass, "Kitchen"),
        "es",
    )

    assert "Consumo casa" not in speech(answered)
