"""State questions in homes named in the household's own language.

The heating asked for by what it is ("die Heizung", "le chauffage"), with no
name said, is the home's thermostat, and "one degree more" afterwards
changes its setting; a door asked whether it is locked answers with the
door's own lock ("Hintertürschloss"), not with its contact sensor
("Hintertür"). The model is scripted to do something else every time: it
is never asked.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from . import home
from .helpers import act, converse, plan, speech
from .llm_server import ScriptedLLMServer

THERMOSTAT = "climate.hvac"
LIVING_ROOM_LAMP = "light.living_room_rgbww_lights"

# The heating asked for by kind, then raised by one degree, in each language.
HEATING = [
    (
        "de",
        "Auf welche Temperatur ist die Heizung gestellt?",
        "Dreh sie ein Grad höher",
    ),
    ("fr", "Le chauffage est à combien ?", "Monte-le d'un degré"),
    ("es", "¿A qué temperatura está la calefacción?", "Súbela un grado"),
    ("nl", "Hoe hoog staat de verwarming?", "Zet hem een graad hoger"),
    ("it", "Il riscaldamento a quanto è?", "Alzalo di un grado"),
]


@pytest.mark.parametrize(("language", "asked", "raise_it"), HEATING)
async def test_the_heating_asked_by_kind_is_the_thermostat(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    asked: str,
    raise_it: str,
) -> None:
    """Its setting is answered from the states, and "one degree more" sets it +1.

    The thermostat is in the hallway, the speaker in the kitchen: the home's
    only heating, not the kitchen's temperature. The model, asked, would
    set 30 degrees.
    """
    home.with_thermostat(monkeypatch)
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = home.satellite_in(hass, "Kitchen")
    llm_server.add_plan(
        plan(act("climate.set_temperature", THERMOSTAT, temperature=30))
    )
    setting = hass.states.get(THERMOSTAT).attributes["temperature"]

    answered = await converse(hass, agent_id, asked, kitchen, language)
    await converse(hass, agent_id, raise_it, kitchen, language)

    assert f"{setting:g}" in speech(answered)
    assert hass.states.get(THERMOSTAT).attributes["temperature"] == setting + 1
    assert llm_server.requests == []


# The heating set, said to no satellite (the speaker's room unknown).
HEATING_SET = [
    ("en", "put the heating on 23 degrees"),
    ("de", "Heizung auf 23 Grad bitte"),
    ("fr", "Mets le chauffage à 23 degrés"),
    ("es", "Pon la calefacción a 23 grados"),
    ("nl", "Verwarming naar 23 graden"),
    ("it", "Metti il riscaldamento a 23 gradi"),
]


@pytest.mark.parametrize(("language", "said"), HEATING_SET)
async def test_the_heating_set_from_no_room_is_the_thermostat(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    said: str,
) -> None:
    """A sensor in no room is not "in the speaker's room" when that is unknown too.

    The attic's temperature sensor has no area, and neither has the speaker:
    the home's only thermostat is set, not refused as a guess.
    """
    home.with_thermostat(monkeypatch)
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    assert await async_setup_component(
        hass,
        "template",
        {
            "template": [
                {
                    "sensor": [
                        {
                            "name": "Attic",
                            "state": "{{ 30 }}",
                            "device_class": "temperature",
                            "unit_of_measurement": "°C",
                        }
                    ]
                }
            ]
        },
    )
    await hass.async_block_till_done()
    async_expose_entity(hass, conversation.DOMAIN, "sensor.attic", True)
    llm_server.add_plan(
        plan(act("climate.set_temperature", THERMOSTAT, temperature=30))
    )

    await converse(hass, agent_id, said, None, language)

    assert hass.states.get(THERMOSTAT).attributes["temperature"] == 23
    assert llm_server.requests == []


# A door and its lock, named in the household's language, and a question
# whether the door is locked (the lock is locked).
DOORS = [
    ("de", "Hintertür", "Hintertürschloss", "Ist die Hintertür zugesperrt?", "Ja"),
    (
        "fr",
        "Porte de derrière",
        "Serrure porte de derrière",
        "La porte de derrière est fermée à clé ?",
        "Oui",
    ),
    (
        "es",
        "Puerta trasera",
        "Cerradura puerta trasera",
        "¿La puerta trasera está cerrada con llave?",
        "Sí",
    ),
    ("nl", "Achterdeur", "Slot achterdeur", "Is de achterdeur vergrendeld?", "Ja"),
    (
        "it",
        "Porta sul retro",
        "Serratura porta sul retro",
        "La porta sul retro è bloccata?",
        "Sì",
    ),
]


@pytest.mark.parametrize(("language", "door", "lock", "asked", "yes"), DOORS)
async def test_a_door_asked_if_locked_answers_with_its_lock(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    door: str,
    lock: str,
    asked: str,
    yes: str,
) -> None:
    """The lock whose name holds the door's answers: yes, it is locked.

    The door's contact sensor is closed, which says nothing of its lock;
    the model, asked, would unlock it.
    """
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    lock_id = await _door_and_lock(hass, door, lock, locked=True)
    llm_server.add_plan(plan(act("lock.unlock", lock_id)))

    answered = await converse(
        hass, agent_id, asked, home.satellite_in(hass, "Kitchen"), language
    )

    said = speech(answered)
    assert said.startswith(yes), said
    assert lock in said
    assert hass.states.get(lock_id).state == "locked"
    assert llm_server.requests == []


async def test_lock_it_after_asking_whether_the_door_is_open(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """After HA's answer about the door's sensor, "lock it" locks the door's lock.

    The model is never asked, and the lock is locked with no question (only
    opening asks first).
    """
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    lock_id = await _door_and_lock(hass, "Back Door", "Back Door Lock", locked=False)
    kitchen = home.satellite_in(hass, "Kitchen")

    await converse(hass, agent_id, "is the back door open?", kitchen)
    await converse(hass, agent_id, "lock it", kitchen)

    assert hass.states.get(lock_id).state == "locked"
    assert llm_server.requests == []


async def _door_and_lock(
    hass: HomeAssistant, door: str, lock: str, *, locked: bool
) -> str:
    """A closed door's contact sensor and its lock, exposed; the lock's id.

    A `locked` lock stays locked; otherwise it is optimistic, neither yet.
    """
    state: dict[str, object] = (
        {"state": "{{ true }}"} if locked else {"optimistic": True}
    )
    assert await async_setup_component(
        hass,
        "template",
        {
            "template": [
                {
                    "lock": [{"name": lock, **state, "lock": [], "unlock": []}],
                    "binary_sensor": [
                        {"name": door, "state": "{{ false }}", "device_class": "door"}
                    ],
                }
            ]
        },
    )
    await hass.async_block_till_done()
    (lock_id,) = [s.entity_id for s in hass.states.async_all("lock") if s.name == lock]
    for entity_id in (
        lock_id,
        *(
            s.entity_id
            for s in hass.states.async_all("binary_sensor")
            if s.name == door
        ),
    ):
        async_expose_entity(hass, conversation.DOMAIN, entity_id, True)
    return lock_id


# "Is the light on / off in the living room?" where two lights are.
LIGHT_IN_A_ROOM = [
    (
        "en",
        "Is the light on in the living room?",
        "Is the light off in the living room?",
        ("Yes", "No"),
    ),
    (
        "de",
        "Ist das Licht im Living Room an?",
        "Ist das Licht im Living Room aus?",
        ("Ja", "Nein"),
    ),
    (
        "fr",
        "La lumière est-elle allumée dans le Living Room ?",
        "La lumière est-elle éteinte dans le Living Room ?",
        ("Oui", "Non"),
    ),
    (
        "es",
        "¿Está encendida la luz en el Living Room?",
        "¿Está apagada la luz en el Living Room?",
        ("Sí", "No"),
    ),
    (
        "nl",
        "Is het licht in de Living Room aan?",
        "Is het licht in de Living Room uit?",
        ("Ja", "Nee"),
    ),
    (
        "it",
        "La luce è accesa nel Living Room?",
        "La luce è spenta nel Living Room?",
        ("Sì", "No"),
    ),
]


@pytest.mark.parametrize(("language", "on", "off", "yes_no"), LIGHT_IN_A_ROOM)
async def test_the_light_in_a_room_of_two_is_any_of_them(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    on: str,
    off: str,
    yes_no: tuple[str, str],
) -> None:
    """Whether on is asked of any light there, off of all; the one on is named.

    As Home Assistant answers "is any light on": the question names no one
    light. Nothing is switched; the model, asked, would switch a light off.
    """
    yes, no = yes_no
    monkeypatch.setitem(home.EXPOSED_AREAS, LIVING_ROOM_LAMP, "Living Room")
    agent_id = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": "light.ceiling_lights"}, blocking=True
    )
    llm_server.add_plan(plan(act("light.turn_off", LIVING_ROOM_LAMP)))
    kitchen = home.satellite_in(hass, "Kitchen")

    async def answers() -> tuple[str, str]:
        return (
            speech(await converse(hass, agent_id, on, kitchen, language)),
            speech(await converse(hass, agent_id, off, kitchen, language)),
        )

    one_on = await answers()
    await hass.services.async_call(
        "light", "turn_off", {"entity_id": LIVING_ROOM_LAMP}, blocking=True
    )
    none_on = await answers()

    for said, starts in zip(one_on, (yes, no), strict=True):
        assert said.startswith(starts), said
        assert "Living Room RGBWW Lights" in said
        assert "Ceiling Lights" not in said
    assert none_on[0].startswith(no), none_on[0]
    assert none_on[1].startswith(yes), none_on[1]
    assert llm_server.requests == []
