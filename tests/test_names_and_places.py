"""Names, places, follow-ups and "everything", through Home Assistant.

Each word is explained once, names first: a place word inside a name that
was said is the name's ("dim the hallway ceiling": that light, not the
hallway's other one). A follow-up ("and the one on the ceiling") means the
devices of the last turn's place and kind first. "Everything" in a room is
what the verb acts on there, "in here" the speaker's room; what opens the
home still asks first. The demo's devices are renamed and put in rooms
through HA's entity registry, as a user would in the UI; its speaker
"Kitchen" is in no room.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.util import dt as dt_util

from . import home
from .helpers import act, converse, home_states, plan, switched_on
from .home import satellite_in
from .llm_server import ScriptedLLMServer

# Two lights of one room, a third light, a fan, a switch, a garage door and
# a speaker called like a room; renamed per test.
CEILING = "light.entrance_color_white_lights"
LAMP = "light.office_rgbw_lights"
COUNTER = "light.ceiling_lights"
DESK = "light.bed_light"
FAN = "fan.ceiling_fan"
PRINTER = "switch.decorative_lights"
GARAGE = "cover.garage_door"
SPEAKER = "media_player.kitchen"  # "Kitchen", in no area
WINDOW = "cover.hall_window"  # open, at 10
BLIND = "cover.living_room_window"  # open, at 70
BLIND_POSITION = 70
DEVICES = (CEILING, LAMP, COUNTER, DESK, FAN, PRINTER, GARAGE, SPEAKER, WINDOW, BLIND)
# What demo lights start at: a light the turn left alone still shows it.
START_BRIGHTNESS = 180
# A light set to 30 percent.
THIRTY_PERCENT = round(255 * 30 / 100)


async def _agent(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    rooms: dict[str, tuple[str, str]],
    *,
    model: bool = False,
) -> str:
    """The demo home with `rooms` (entity id: name, area), and the agent.

    With `model`, the model is asked first (local-first off); else HA's
    sentences and the reading answer, and the model must not be needed.
    """
    monkeypatch.setattr(
        home,
        "DEMO_PLATFORMS",
        [*home.DEMO_PLATFORMS, Platform.FAN, Platform.SWITCH, Platform.MEDIA_PLAYER],
    )
    monkeypatch.setattr(home, "EXPOSED_AREAS", dict.fromkeys(DEVICES))
    monkeypatch.setattr(home, "NOT_EXPOSED", [])
    agent_id = await home.async_setup_agent(
        hass, entry, **{CONF_LOCAL_FIRST: not model}
    )
    entities = er.async_get(hass)
    areas = ar.async_get(hass)
    for entity_id, (name, area) in rooms.items():
        entities.async_update_entity(
            entity_id, name=name, area_id=areas.async_get_or_create(area).id
        )
    await hass.async_block_till_done()
    return agent_id


def _brightness(hass: HomeAssistant, entity_id: str) -> int:
    """A light's brightness now (0-255)."""
    return int(hass.states.get(entity_id).attributes["brightness"])


# A home of each language whose light names hold their room's name.
NAMED_WITH_THEIR_ROOM = {
    "en": ("Hallway", "Hallway Ceiling", "Hallway Lamp"),
    "de": ("Küche", "Küche Decke", "Küche Spots"),
    "fr": ("Salon", "Plafonnier salon", "Lampe salon"),
    "es": ("Pasillo", "Techo pasillo", "Lámpara pasillo"),
    "nl": ("Gang", "Gang plafond", "Gang lamp"),
    "it": ("Corridoio", "Soffitto corridoio", "Lampada corridoio"),
}


def _named_with_their_room(language: str) -> dict[str, tuple[str, str]]:
    room, ceiling, lamp = NAMED_WITH_THEIR_ROOM[language]
    return {CEILING: (ceiling, room), LAMP: (lamp, room)}


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Dim the hallway ceiling to 30 percent"),
        ("en", "make the hallway ceiling a bit dimmer"),
        ("de", "Mach die Küche Decke dunkler"),
        ("nl", "Maak de gang plafond donkerder"),
        ("en", "lower the brightness of the hallway ceiling"),
        ("fr", "baisse la luminosité du plafonnier salon"),
        ("es", "baja el brillo del techo pasillo"),
        ("it", "abbassa la luminosità del soffitto corridoio"),
    ],
)
async def test_a_name_that_holds_its_room_is_that_device_alone(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """The light named dims; the room's other light keeps its brightness.

    The verb or a kind's word says lights ("dim", "dunkler", "the
    brightness"), the name says which one: the room's word inside it calls
    no other light there. No model.
    """
    agent_id = await _agent(
        hass, mock_config_entry, monkeypatch, _named_with_their_room(language)
    )
    llm_server.add_plan(plan(act("light.turn_on", CEILING, LAMP, brightness_pct=30)))

    await converse(hass, agent_id, text, language=language)
    await hass.async_block_till_done()

    assert _brightness(hass, CEILING) < START_BRIGHTNESS
    assert _brightness(hass, LAMP) == START_BRIGHTNESS
    assert llm_server.requests == []


# A kitchen of each language whose window and blind are named with it.
COVERED = {
    "en": ("Kitchen", "Kitchen Window", "Kitchen Blind", "close the kitchen window"),
    "fr": ("Cuisine", "Fenêtre cuisine", "Store cuisine", "ferme la fenêtre cuisine"),
    "es": ("Cocina", "Ventana cocina", "Persiana cocina", "cierra la ventana cocina"),
    "it": (
        "Cucina",
        "Finestra cucina",
        "Tapparella cucina",
        "chiudi la finestra cucina",
    ),
}


@pytest.mark.parametrize("language", list(COVERED))
async def test_the_rooms_other_cover_is_no_place_said(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
) -> None:
    """The model closes the window and the blind: only the window closes.

    The kitchen's name was said once, inside the window's: no place was
    said whose covers "close" could take.
    """
    room, window, blind, text = COVERED[language]
    agent_id = await _agent(
        hass,
        mock_config_entry,
        monkeypatch,
        {WINDOW: (window, room), BLIND: (blind, room)},
        model=True,
    )
    llm_server.add_plan(plan(act("cover.close_cover", WINDOW, BLIND)))

    await converse(hass, agent_id, text, language=language)
    # The demo window moves 10 a second: at 10, it closes in one.
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=2))
    await hass.async_block_till_done()

    assert hass.states.get(WINDOW).state == "closed"
    assert hass.states.get(BLIND).state == "open"
    assert hass.states.get(BLIND).attributes["current_position"] == BLIND_POSITION


async def test_the_room_said_apart_from_the_name_is_the_place(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
) -> None:
    """The lights "in the hallway" are both, whatever their names say."""
    agent_id = await _agent(
        hass, mock_config_entry, monkeypatch, _named_with_their_room("en"), model=True
    )
    llm_server.add_plan(plan(act("light.turn_on", CEILING, LAMP, brightness_pct=30)))

    await converse(hass, agent_id, "set the lights in the hallway to 30 percent")
    await hass.async_block_till_done()

    assert _brightness(hass, CEILING) == _brightness(hass, LAMP) == THIRTY_PERCENT


# (language, kitchen, counter light, ceiling light, bedroom, ceiling fan,
# the first turn, the follow-up)
FOLLOW_UPS = [
    (
        "en",
        ("Kitchen", "Counter Light", "Kitchen Ceiling Light"),
        ("Bedroom", "Ceiling Fan"),
        "turn on the counter light",
        "and the one on the ceiling",
    ),
    (
        "de",
        ("Küche", "Arbeitslicht", "Küche Decke"),
        ("Schlafzimmer", "Schlafzimmer Decke"),
        "mach das Arbeitslicht an",
        "und die an der Decke",
    ),
    (
        "fr",
        ("Cuisine", "Lampe du plan de travail", "Plafond cuisine"),
        ("Chambre", "Ventilateur plafond"),
        "allume la lampe du plan de travail",
        "et celle du plafond",
    ),
    (
        "es",
        ("Cocina", "Luz de la encimera", "Luz del techo de la cocina"),
        ("Dormitorio", "Ventilador de techo"),
        "enciende la luz de la encimera",
        "y la del techo también",
    ),
    (
        "nl",
        ("Keuken", "Aanrechtlamp", "Keuken plafond"),
        ("Slaapkamer", "Slaapkamer plafond"),
        "doe de aanrechtlamp aan",
        "en die aan het plafond",
    ),
    (
        "it",
        ("Cucina", "Luce del piano di lavoro", "Luce del soffitto cucina"),
        ("Camera da letto", "Ventilatore a soffitto"),
        "accendi la luce del piano di lavoro",
        "e quella del soffitto",
    ),
]


@pytest.mark.parametrize("story", FOLLOW_UPS, ids=[story[0] for story in FOLLOW_UPS])
async def test_a_follow_up_means_the_last_turns_place_and_kind(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    story: tuple[str, tuple[str, str, str], tuple[str, str], str, str],
) -> None:
    """After the kitchen's counter light, its ceiling light; the fan stays off.

    Said from the living room: the bedroom's ceiling fan is named as much
    by the words, but the last turn was about a kitchen light.
    """
    language, (room, counter, ceiling), bedroom, first, follow_up = story
    agent_id = await _agent(
        hass,
        mock_config_entry,
        monkeypatch,
        {
            COUNTER: (counter, room),
            CEILING: (ceiling, room),
            FAN: (bedroom[1], bedroom[0]),
        },
    )
    await hass.services.async_call(
        "homeassistant",
        "turn_off",
        {"entity_id": [COUNTER, CEILING, FAN]},
        blocking=True,
    )
    satellite = satellite_in(hass, "Living Room")

    await converse(hass, agent_id, first, satellite, language=language)
    await converse(hass, agent_id, follow_up, satellite, language=language)
    await hass.async_block_till_done()

    assert hass.states.get(COUNTER).state == "on"
    assert hass.states.get(CEILING).state == "on"
    assert hass.states.get(FAN).state == "off"
    assert llm_server.requests == []


# A study in each language: a lamp, a printer and a fan; a light elsewhere.
STUDY = {"en": "Study", "de": "Arbeitszimmer", "fr": "Bureau", "es": "Despacho"}
STUDY |= {"nl": "Werkkamer", "it": "Studio"}


async def _study(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> str:
    """The study's devices on, and the hallway's light; the agent, model off."""
    study = STUDY[language]
    agent_id = await _agent(
        hass,
        entry,
        monkeypatch,
        {
            DESK: ("Desk Lamp", study),
            PRINTER: ("Printer", study),
            FAN: ("Fan", study),
            CEILING: ("Ceiling", "Hallway"),
        },
    )
    await switched_on(hass, DESK, PRINTER, FAN, CEILING)
    return agent_id


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "switch off everything in here"),
        ("de", "mach hier alles aus"),
        ("fr", "éteins tout ici"),
        ("es", "apaga todo aquí"),
        ("nl", "zet hier alles uit"),
        ("it", "spegni tutto qui"),
    ],
)
async def test_everything_here_is_the_speakers_room(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """Said in the study: the study's lamp, printer and fan; not the hallway."""
    agent_id = await _study(hass, mock_config_entry, monkeypatch, language)
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, STUDY[language]), language=language
    )
    await hass.async_block_till_done()

    changed = {e: s for e, s in home_states(hass).items() if before[e] != s}
    assert changed == {DESK: "off", PRINTER: "off", FAN: "off"}
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "switch off everything in the study"),
        ("en", "turn off all the devices in the study"),
        ("de", "schalte alle Geräte im Arbeitszimmer aus"),
        ("de", "alles aus im Arbeitszimmer"),
        ("fr", "éteins tous les appareils du bureau"),
        ("fr", "tout éteindre dans le bureau"),
        ("it", "spegni tutto nello studio"),
    ],
)
async def test_everything_in_a_room_is_what_the_verb_acts_on_there(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """Said in the kitchen: the study's devices, every kind; nothing else."""
    agent_id = await _study(hass, mock_config_entry, monkeypatch, language)
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, "Kitchen"), language=language
    )
    await hass.async_block_till_done()

    changed = {e: s for e, s in home_states(hass).items() if before[e] != s}
    assert changed == {DESK: "off", PRINTER: "off", FAN: "off"}
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "turn off everything in the kitchen"),
        ("de", "schalte alles in der Küche aus"),
        ("fr", "éteins tout dans la cuisine"),
    ],
)
async def test_everything_in_a_room_is_not_a_speaker_called_so(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """The kitchen's lights go off; the speaker "Kitchen", in no room, plays on."""
    agent_id = await _agent(
        hass,
        mock_config_entry,
        monkeypatch,
        {COUNTER: ("Counter", "Kitchen"), CEILING: ("Ceiling", "Kitchen")},
    )
    await switched_on(hass, COUNTER, CEILING, SPEAKER)
    before = home_states(hass)

    await converse(hass, agent_id, text, language=language)
    await hass.async_block_till_done()

    changed = {e: s for e, s in home_states(hass).items() if before[e] != s}
    assert changed == {COUNTER: "off", CEILING: "off"}
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "open everything in the garage"),
        ("de", "mach alles in der Garage auf"),
        ("fr", "ouvre tout dans le garage"),
    ],
)
async def test_everything_that_opens_the_home_asks_first(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """The garage door stays closed until a yes; the turn asks."""
    agent_id = await _agent(
        hass, mock_config_entry, monkeypatch, {GARAGE: ("Garage Door", "Garage")}
    )
    before = home_states(hass)

    result = await converse(hass, agent_id, text, language=language)
    await hass.async_block_till_done()

    assert result.continue_conversation is True
    assert home_states(hass) == before
    assert llm_server.requests == []
