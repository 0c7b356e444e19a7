"""HA's own sentences are the floor: what they match runs as HA's agent runs it.

In each of the six languages, a command and a question that Home Assistant's
own sentences match are said to HA's agent and then, in the same home put
back as it was, to Intent Router with the model switched off. The home must
end the same and the reply must be HA's. A question about a room that holds
a lock is answered, not held for a yes; what would open the home still asks.
"""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent
from homeassistant.setup import async_setup_component

from .helpers import async_setup_template_entity, converse, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

LIGHT = "light.kitchen_lights"
HA_AGENT = conversation.HOME_ASSISTANT_AGENT

# (language, a command HA's sentences match, a question they match)
SENTENCES = [
    ("en", "turn off the kitchen lights", "is the kitchen lights on"),
    ("de", "Schalte Kitchen Lights aus", "Ist Kitchen Lights an?"),
    ("fr", "Éteins Kitchen Lights", "Est-ce que Kitchen Lights est allumé ?"),
    ("es", "Apaga Kitchen Lights", "¿Está Kitchen Lights encendida?"),
    ("nl", "Zet Kitchen Lights uit", "Is Kitchen Lights aan?"),
    ("it", "Spegni Kitchen Lights", "Kitchen Lights è accesa?"),
]


async def _agent(hass: HomeAssistant, entry: MockConfigEntry) -> tuple[str, str]:
    agent_id = await async_setup_agent(
        hass, entry, **{CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    return agent_id, satellite_in(hass, "Kitchen")


async def _both(
    hass: HomeAssistant, agent_id: str, text: str, device: str, language: str
) -> tuple[conversation.ConversationResult, conversation.ConversationResult]:
    """The sentence to HA's agent, the home put back, then to Intent Router."""
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHT}, blocking=True
    )
    theirs = await converse(hass, HA_AGENT, text, device, language)
    await hass.async_block_till_done()
    their_state = hass.states.get(LIGHT)
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": LIGHT}, blocking=True
    )
    ours = await converse(hass, agent_id, text, device, language)
    await hass.async_block_till_done()
    assert their_state is not None
    assert hass.states.get(LIGHT).state == their_state.state
    return theirs, ours


@pytest.mark.parametrize(("language", "command", "question"), SENTENCES)
async def test_a_sentence_ha_matches_runs_as_ha_runs_it(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    command: str,
    question: str,
) -> None:
    """Same end state, same reply, no model; in every language."""
    agent_id, kitchen = await _agent(hass, mock_config_entry)

    theirs, ours = await _both(hass, agent_id, command, kitchen, language)
    assert theirs.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert hass.states.get(LIGHT).state == "off"
    assert speech(ours) == speech(theirs)

    theirs, ours = await _both(hass, agent_id, question, kitchen, language)
    assert theirs.response.response_type is intent.IntentResponseType.QUERY_ANSWER
    assert ours.response.response_type is intent.IntentResponseType.QUERY_ANSWER
    assert speech(ours) == speech(theirs)
    assert llm_server.requests == []


async def test_a_question_about_a_room_with_a_lock_is_answered(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's count of the locks is said; nothing waits for a yes."""
    agent_id, kitchen = await _agent(hass, mock_config_entry)

    theirs = await converse(hass, HA_AGENT, "how many locks are unlocked", kitchen)
    ours = await converse(hass, agent_id, "how many locks are unlocked", kitchen)

    assert theirs.response.response_type is intent.IntentResponseType.QUERY_ANSWER
    assert speech(ours) == speech(theirs)
    assert not ours.continue_conversation
    assert llm_server.requests == []


async def test_what_opens_the_home_still_asks_first(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's sentence would unlock at once; here it asks, and a yes unlocks."""
    agent_id, kitchen = await _agent(hass, mock_config_entry)
    await hass.services.async_call(
        "lock", "lock", {"entity_id": "lock.front_door"}, blocking=True
    )

    asked = await converse(hass, agent_id, "unlock the front door", kitchen)
    assert speech(asked) == "Do you want me to unlock Front Door?"
    assert hass.states.get("lock.front_door").state == "locked"

    await converse(hass, agent_id, "yes", kitchen)
    await hass.async_block_till_done()
    assert hass.states.get("lock.front_door").state == "unlocked"


async def test_what_only_has_own_gazetteer_reads_runs_as_ha_runs_it(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """A wording HA's templates miss but its gazetteer reads: HA's answer.

    The reading leaves "moisture" unplaced, so without the gazetteer the
    model-less agent could only say it did not understand.
    """
    agent_id, kitchen = await _agent(hass, mock_config_entry)
    await async_setup_template_entity(
        hass,
        "sensor",
        {
            "name": "Brewery mixer",
            "state": "83",
            "unit_of_measurement": "%",
            "device_class": "moisture",
        },
    )
    text = "what is the brewery mixer moisture?"

    theirs = await converse(hass, HA_AGENT, text, kitchen)
    ours = await converse(hass, agent_id, text, kitchen)

    assert theirs.response.response_type is intent.IntentResponseType.QUERY_ANSWER
    assert "83" in speech(theirs)
    assert speech(ours) == speech(theirs)
    assert llm_server.requests == []


async def test_a_name_the_home_lacks_is_not_another_named_alike(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
) -> None:
    """HA's gazetteer reads "Kono Smart Thermostat" as the Netatmo one.

    Its name's own word ("Netatmo") was not said, and "Kono" names nothing
    here: nothing is switched on (home-llm's refusal of a device not there).
    A misheard word of the name ("Netatmoo") still finds it.
    """
    agent_id, kitchen = await _agent(hass, mock_config_entry)
    plug = await async_setup_template_entity(
        hass,
        "switch",
        {
            "name": "Netatmo Smart Thermostat",
            "state": "{{ is_state('input_boolean.plug', 'on') }}",
            "turn_on": [
                {
                    "action": "input_boolean.turn_on",
                    "target": {"entity_id": "input_boolean.plug"},
                }
            ],
            "turn_off": [],
        },
    )
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"plug": {"initial": False}}}
    )

    theirs = await converse(
        hass, HA_AGENT, "turn on the kono smart thermostat", kitchen
    )
    assert hass.states.get(plug).state == "on"  # HA's own agent guessed
    await hass.services.async_call(
        "input_boolean", "turn_off", {"entity_id": "input_boolean.plug"}, blocking=True
    )

    ours = await converse(hass, agent_id, "turn on the kono smart thermostat", kitchen)

    assert theirs.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert ours.response.response_type is intent.IntentResponseType.ERROR
    assert hass.states.get(plug).state == "off"

    await converse(hass, agent_id, "turn on the netatmoo smart thermostat", kitchen)
    assert hass.states.get(plug).state == "on"
