"""One resolution of targets, through Home Assistant, as households say it.

A word shared by several names asks which; a light named with its kind word
is that light alone; "switch" said as a verb is no switch; a script or scene
named with a verb runs. Each story runs with the model off (Home Assistant's
sentences, then the reading) and with the model first, scripted to pick the
wrong devices: what the words do not mean never changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component

from .helpers import act, converse, home_states, plan
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

# object id -> (domain, name, area): each switched through its own boolean.
DEVICES: dict[str, tuple[str, str, str]] = {
    "reading_light_bedroom": ("light", "Reading Light", "Bedroom"),
    "reading_light_office": ("light", "Reading Light", "Office"),
    "reading_fan": ("fan", "Reading Fan", "Office"),
    "desk_lamp": ("light", "Desk Lamp", "Office"),
    "office_ceiling": ("light", "Office Ceiling", "Office"),
    "printer": ("switch", "Printer", "Office"),
    "leselampe_schlafzimmer": ("light", "Leselampe", "Bedroom"),
    "leselampe_buero": ("light", "Leselampe", "Office"),
    "leseventilator": ("fan", "Leseventilator", "Office"),
    "lampe_lecture_chambre": ("light", "Lampe de lecture", "Bedroom"),
    "lampe_lecture_bureau": ("light", "Lampe de lecture", "Office"),
    "ventilateur_lecture": ("fan", "Ventilateur de lecture", "Office"),
}
SCRIPTS = {
    "good_night": "Good Night",
    "gute_nacht": "Gute Nacht",
    "bonne_nuit": "Bonne Nuit",
}
SCENES = ["Movie Night", "Filmabend", "Soirée cinéma"]


def _device(object_id: str, domain: str, name: str) -> dict[str, Any]:
    """A template device whose state is its input boolean's."""
    boolean = f"input_boolean.{object_id}"
    return {
        "name": name,
        "unique_id": object_id,
        "state": f"{{{{ is_state('{boolean}', 'on') }}}}",
        "turn_on": [
            {"action": "input_boolean.turn_on", "target": {"entity_id": boolean}}
        ],
        "turn_off": [
            {"action": "input_boolean.turn_off", "target": {"entity_id": boolean}}
        ],
    }


async def _home(hass: HomeAssistant, entry: MockConfigEntry, *, model: bool) -> str:
    """The demo home with the devices above, scripts and scenes, and the agent.

    All are off; the scripts turn the printer on.
    """
    agent_id = await async_setup_agent(hass, entry, **{CONF_LOCAL_FIRST: not model})
    booleans = {o: {"initial": False} for o in DEVICES}
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": booleans}
    )
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for object_id, (domain, name, _) in DEVICES.items():
        by_domain.setdefault(domain, []).append(_device(object_id, domain, name))
    assert await async_setup_component(hass, "template", {"template": [by_domain]})
    assert await async_setup_component(
        hass,
        "script",
        {
            "script": {
                o: {
                    "alias": a,
                    "sequence": [
                        {
                            "action": "input_boolean.turn_on",
                            "target": {"entity_id": "input_boolean.printer"},
                        }
                    ],
                }
                for o, a in SCRIPTS.items()
            }
        },
    )
    assert await async_setup_component(
        hass,
        "scene",
        {
            "scene": [
                {"name": n, "entities": {"light.ceiling_lights": "off"}} for n in SCENES
            ]
        },
    )
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    areas = ar.async_get(hass)
    for object_id, (domain, _, area) in DEVICES.items():
        entity_id = registry.async_get_entity_id(domain, "template", object_id)
        assert entity_id is not None
        registry.async_update_entity(
            entity_id, area_id=areas.async_get_or_create(area).id
        )
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    for entity_id in hass.states.async_entity_ids(("script", "scene")):
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    await hass.async_block_till_done()
    return agent_id


def _ids(hass: HomeAssistant, domain: str, *object_ids: str) -> list[str]:
    """The entity ids the registry gave these devices."""
    registry = er.async_get(hass)
    found = [registry.async_get_entity_id(domain, "template", o) for o in object_ids]
    return [e for e in found if e is not None]


@pytest.fixture(params=[False, True], ids=["model_off", "model_on"])
async def agent(
    request: pytest.FixtureRequest,
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
) -> tuple[str, bool]:
    """The agent with the model off, and with the model first."""
    model = bool(request.param)
    return await _home(hass, mock_config_entry, model=model), model


def _changed(hass: HomeAssistant, before: dict[str, str]) -> dict[str, str]:
    """The devices whose state changed since `before`."""
    now = home_states(hass)
    return {
        e: s
        for e, s in now.items()
        if before.get(e) != s and not e.startswith("input_boolean.")
    }


@pytest.mark.parametrize(
    ("language", "text", "lights", "fan"),
    [
        (
            "en",
            "turn on the reading light",
            ("reading_light_bedroom", "reading_light_office"),
            "reading_fan",
        ),
        (
            "en",
            "turn on reading",
            ("reading_light_bedroom", "reading_light_office"),
            "reading_fan",
        ),
        (
            "de",
            "schalte die Leselampe ein",
            ("leselampe_schlafzimmer", "leselampe_buero"),
            "leseventilator",
        ),
        (
            "fr",
            "allume la lampe de lecture",
            ("lampe_lecture_chambre", "lampe_lecture_bureau"),
            "ventilateur_lecture",
        ),
    ],
)
async def test_a_name_shared_across_rooms_asks_which(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    lights: tuple[str, ...],
    fan: str,
) -> None:
    """From the kitchen, a name two rooms share asks; nothing is switched."""
    agent_id, _ = agent
    targets = [*_ids(hass, "light", *lights), *_ids(hass, "fan", fan)]
    llm_server.add_plan(
        plan(
            act("light.turn_on", *targets[:2]),
            act("fan.turn_on", targets[2]),
        )
    )
    before = home_states(hass)

    result = await converse(
        hass, agent_id, text, satellite_in(hass, "Kitchen"), language=language
    )
    await hass.async_block_till_done()

    assert _changed(hass, before) == {}
    assert result.continue_conversation is True


@pytest.mark.parametrize(
    ("language", "text", "light"),
    [
        ("en", "turn on the reading light", "reading_light_office"),
        ("de", "schalte die Leselampe ein", "leselampe_buero"),
        ("fr", "allume la lampe de lecture", "lampe_lecture_bureau"),
    ],
)
async def test_a_name_shared_across_rooms_is_the_one_here(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    light: str,
) -> None:
    """In the office, the office's reading light; not the bedroom's, not the fan."""
    agent_id, _ = agent
    [wanted] = _ids(hass, "light", light)
    others = [e for e in hass.states.async_entity_ids(("light", "fan")) if e != wanted]
    llm_server.add_plan(plan(act("light.turn_on", wanted, *others[:3])))
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, "Office"), language=language
    )
    await hass.async_block_till_done()

    assert _changed(hass, before) == {wanted: "on"}


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "turn on the desk lamp light"),
        ("en", "switch on the desk lamp"),
        ("en", "switch the desk lamp on"),
    ],
)
async def test_a_named_light_is_that_light_alone(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
) -> None:
    """The desk lamp goes on; the office ceiling and the printer stay off."""
    agent_id, _ = agent
    [lamp, ceiling] = _ids(hass, "light", "desk_lamp", "office_ceiling")
    [printer] = _ids(hass, "switch", "printer")
    llm_server.add_plan(
        plan(
            act("light.turn_on", lamp),
            act("light.turn_on", ceiling),
            act("switch.turn_on", printer),
        )
    )
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, "Office"), language=language
    )
    await hass.async_block_till_done()

    assert _changed(hass, before) == {lamp: "on"}


@pytest.mark.parametrize(
    ("language", "text", "fan"),
    [
        ("en", "switch the fan on", "reading_fan"),
        ("en", "switch on the fan", "reading_fan"),
        ("de", "schalte den Ventilator ein", "leseventilator"),
        ("nl", "schakel de ventilator in", "leseventilator"),
    ],
)
async def test_switch_said_as_a_verb_is_no_switch(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    fan: str,
) -> None:
    """The office fan goes on; the office's switch nobody named stays off."""
    agent_id, _ = agent
    [printer] = _ids(hass, "switch", "printer")
    fans = hass.states.async_entity_ids("fan")
    llm_server.add_plan(plan(act("fan.turn_on", *fans), act("switch.turn_on", printer)))
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, "Office"), language=language
    )
    await hass.async_block_till_done()

    assert hass.states.get(printer).state == "off"
    changed = _changed(hass, before)
    assert set(changed.values()) <= {"on"}
    assert set(changed) <= set(fans)


@pytest.mark.parametrize(
    ("language", "text", "target"),
    [
        ("en", "run the good night routine", "script.good_night"),
        ("en", "start the good night script", "script.good_night"),
        ("en", "activate the movie night scene", "scene.movie_night"),
        ("de", "starte das Skript Gute Nacht", "script.gute_nacht"),
        ("de", "aktiviere die Szene Filmabend", "scene.filmabend"),
        ("fr", "active la scène soirée cinéma", "scene.soiree_cinema"),
        ("fr", "lance le script bonne nuit", "script.bonne_nuit"),
    ],
)
async def test_a_script_or_scene_named_with_a_verb_runs(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    target: str,
) -> None:
    """It runs at once: no "Do you want me to …?"."""
    agent_id, _ = agent
    llm_server.add_plan(plan(act(f"{target.partition('.')[0]}.turn_on", target)))

    result = await converse(
        hass, agent_id, text, satellite_in(hass, "Kitchen"), language=language
    )
    await hass.async_block_till_done()

    assert result.continue_conversation is False
    if target.startswith("script"):
        assert hass.states.get("input_boolean.printer").state == "on"
    else:
        assert hass.states.get("light.ceiling_lights").state == "off"


@pytest.mark.parametrize(
    ("language", "text", "target"),
    [
        ("en", "the kids always run around on movie night", "scene.movie_night"),
        ("en", "we start every good night with a story", "script.good_night"),
        ("de", "wir starten jeden Filmabend mit Popcorn", "scene.filmabend"),
        ("fr", "on lance toujours la soirée cinéma trop tard", "scene.soiree_cinema"),
    ],
)
async def test_a_name_quoted_in_a_story_with_a_verb_asks(
    hass: HomeAssistant,
    agent: tuple[str, bool],
    llm_server: ScriptedLLMServer,
    language: str,
    text: str,
    target: str,
) -> None:
    """A verb word in a story is no command: the model's script waits for a yes."""
    agent_id, _ = agent
    llm_server.add_plan(plan(act(f"{target.partition('.')[0]}.turn_on", target)))
    before = home_states(hass)

    await converse(
        hass, agent_id, text, satellite_in(hass, "Kitchen"), language=language
    )
    await hass.async_block_till_done()

    assert _changed(hass, before) == {}


async def test_the_answer_to_which_one_acts_on_that_one(
    hass: HomeAssistant, agent: tuple[str, bool], llm_server: ScriptedLLMServer
) -> None:
    """Asked which reading light, "the bedroom one" switches that one alone."""
    agent_id, _ = agent
    [bedroom, office] = _ids(
        hass, "light", "reading_light_bedroom", "reading_light_office"
    )
    llm_server.add_plan(plan(act("light.turn_on", bedroom, office)))
    llm_server.add_plan(plan(act("light.turn_on", bedroom, office)))
    kitchen = satellite_in(hass, "Kitchen")
    before = home_states(hass)

    asked = await converse(hass, agent_id, "turn on the reading light", kitchen)
    await converse(hass, agent_id, "the bedroom one", kitchen)
    await hass.async_block_till_done()

    assert asked.continue_conversation is True
    assert _changed(hass, before) == {bedroom: "on"}
