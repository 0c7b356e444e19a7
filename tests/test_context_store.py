"""Per-device memory: multi-turn dialogues, restarts, isolation, TTL and cap."""

from __future__ import annotations

from datetime import timedelta
import time
from typing import Any

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
)

from custom_components.intent_router.const import (
    CONF_CONTEXT_TTL,
    CONF_CONTEXT_TURNS,
    DOMAIN,
    MAX_TEXT_LENGTH,
)
from custom_components.intent_router.home.context_store import mask_secrets
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import EVENT_HOMEASSISTANT_FINAL_WRITE
from homeassistant.core import Context, HomeAssistant
from homeassistant.util import dt as dt_util

from .agents import agent_data, only_agent
from .helpers import act, converse, plan, speech, switched_on
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

STORAGE_KEY_PREFIX = f"{DOMAIN}.context."


def _user_prompt(server: ScriptedLLMServer, index: int) -> str:
    return str(server.requests[index]["messages"][-1]["content"])


async def test_follow_up_in_another_area_sends_what_was_done(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Follow-up in another area: the model sees the last actions as data."""
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), speech="Kitchen off.")
    )
    llm_server.add_plan(
        plan(act("light.turn_off", "light.bed_light"), speech="Bedroom off.")
    )
    await switched_on(hass, "light.bed_light")

    await converse(hass, agent_id, "turn off the kitchen lights", kitchen)
    result = await converse(hass, agent_id, "do the same in the bedroom", kitchen)

    prompt = _user_prompt(llm_server, 1)
    assert "User: turn off the kitchen lights" in prompt
    assert "Did: turn_off light.kitchen_lights" in prompt
    assert prompt.index("Recent turns") < prompt.index(
        "Request: do the same in the bedroom"
    )
    assert hass.states.get("light.bed_light").state == "off"
    assert speech(result) == "Turned off Bed Light."


async def test_adjusting_the_last_value_sees_its_arguments(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Adjusting the last value: the previous brightness is in the history."""
    llm_server.add_plan(
        plan(act("light.turn_on", "light.bed_light", brightness_pct=40))
    )
    llm_server.add_plan(
        plan(act("light.turn_on", "light.bed_light", brightness_pct=50))
    )

    await converse(hass, agent_id, "bed light to 40", kitchen)
    await converse(hass, agent_id, "actually make it 50", kitchen)

    assert "turn_on light.bed_light brightness_pct=40" in _user_prompt(llm_server, 1)
    assert hass.states.get("light.bed_light").attributes["brightness"] == 128


async def test_again_replays_without_the_model(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Again repeats the last executed actions, with no model call."""
    llm_server.add_plan(
        plan(act("light.turn_off", "light.kitchen_lights"), speech="Kitchen off.")
    )
    await converse(hass, agent_id, "kitchen lights off", kitchen)
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": "light.kitchen_lights"}, blocking=True
    )

    result = await converse(hass, agent_id, "Do that again, please.", kitchen)

    assert hass.states.get("light.kitchen_lights").state == "off"
    assert speech(result) == "Turned off Kitchen Lights."
    assert len(llm_server.requests) == 1


async def test_undo_restores_prior_state(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Undo puts brightness and on/off back as recorded, with no model call."""
    await hass.services.async_call(
        "light",
        "turn_on",
        {"entity_id": "light.bed_light", "brightness": 200},
        blocking=True,
    )
    llm_server.add_plan(
        plan(
            act("light.turn_on", "light.bed_light", brightness_pct=10),
            act("light.turn_off", "light.kitchen_lights"),
        )
    )
    await converse(hass, agent_id, "dim the bedroom, kitchen off", kitchen)
    assert hass.states.get("light.bed_light").attributes["brightness"] == 26

    result = await converse(hass, agent_id, "undo that", kitchen)

    assert hass.states.get("light.bed_light").attributes["brightness"] == 200
    assert hass.states.get("light.kitchen_lights").state == "on"
    # Two targets: the sentence agrees with them.
    assert speech(result) == (
        "OK, Bed Light and Kitchen Lights are back the way they were."
    )
    assert len(llm_server.requests) == 1


async def test_stop_that_stops_what_was_started(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Stop halts a cover the last turn set moving."""
    llm_server.add_plan(plan(act("cover.open_cover", "cover.hall_window")))
    await converse(hass, agent_id, "open the hall window", kitchen)
    assert hass.states.get("cover.hall_window").state == "opening"

    result = await converse(hass, agent_id, "stop", kitchen)

    assert hass.states.get("cover.hall_window").state == "open"
    assert speech(result) == "Stopped Hall Window."
    assert len(llm_server.requests) == 1


async def test_nothing_to_undo_says_so(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """With no earlier action, undo answers plainly instead of guessing."""
    result = await converse(hass, agent_id, "undo", kitchen)

    assert speech(result) == "There's nothing I can undo."
    assert llm_server.requests == []


@pytest.mark.parametrize(
    ("answer", "state", "reply"),
    [
        ("yes", "unlocked", "Unlocked Front Door."),
        ("never mind", "locked", "OK, I won't do that."),
    ],
)
async def test_confirmation_answered_without_the_model(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    answer: str,
    state: str,
    reply: str,
) -> None:
    """A lock asks first; "yes" runs the stored plan, "never mind" drops it."""
    llm_server.add_plan(
        plan(act("lock.unlock", "lock.front_door"), speech="Front door unlocked.")
    )
    question = await converse(hass, agent_id, "unlock the front door", kitchen)
    assert question.continue_conversation is True
    assert hass.states.get("lock.front_door").state == "locked"

    result = await converse(hass, agent_id, answer, kitchen)

    assert hass.states.get("lock.front_door").state == state
    assert speech(result) == reply
    assert result.continue_conversation is False
    assert len(llm_server.requests) == 1


async def test_yes_without_a_question_confirms_nothing(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """A yes only confirms when something was asked; the model is not asked."""
    result = await converse(hass, agent_id, "yes", kitchen)

    assert speech(result) == "There's nothing waiting for a yes."
    assert llm_server.requests == []


async def test_clarification_answered_by_name(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """The answer to the agent's question reaches the model with the question.

    The model picks nothing; the agent asks about the one thing the words
    allow here. "The bedroom one" answers it, and the model sees both.
    """
    llm_server.add_reply('{"pick":0}')
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))

    first = await converse(hass, agent_id, "turn off the light", kitchen)
    assert first.continue_conversation is True
    await converse(hass, agent_id, "the bedroom one", kitchen)

    prompt = _user_prompt(llm_server, 1)
    assert f"Assistant: {speech(first)}" in prompt
    assert hass.states.get("light.bed_light").state == "off"


async def test_context_survives_a_restart(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """Turns are written to storage and a fresh store can undo from them."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))
    await converse(hass, agent_id, "kitchen lights off", kitchen)

    # The delayed save writes within a minute, without a write per utterance.
    key = STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    assert key not in hass_storage
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=31))
    await hass.async_block_till_done()
    stored = hass_storage[key]["data"]["turns"][kitchen]
    assert stored[0]["actions"][0]["prior"]["light.kitchen_lights"]["state"] == "on"

    # A "restart": the entry is unloaded and set up again, reading storage anew.
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    await converse(hass, agent_id, "undo", kitchen)

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert len(llm_server.requests) == 1


async def test_devices_do_not_see_each_others_turns(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Two satellites interleaved: each undo and each prompt is its own."""
    bedroom = satellite_in(hass, "Bedroom")
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))
    llm_server.add_plan(plan(act("light.turn_off", "light.bed_light")))
    llm_server.add_plan(plan(speech="Hi."))
    await switched_on(hass, "light.bed_light")

    await converse(hass, agent_id, "lights off", kitchen)
    await converse(hass, agent_id, "lights off", bedroom)
    await converse(hass, agent_id, "undo", kitchen)
    await converse(hass, agent_id, "hello", bedroom)

    assert hass.states.get("light.kitchen_lights").state == "on"
    assert hass.states.get("light.bed_light").state == "off"
    bedroom_prompt = _user_prompt(llm_server, 2)
    assert (
        "light.bed_light" in bedroom_prompt.split("Recent turns")[1].split("States:")[0]
    )
    assert (
        "light.kitchen_lights"
        not in bedroom_prompt.split("Recent turns")[1].split("States:")[0]
    )


async def test_old_turns_expire_and_the_cap_holds(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
    freezer: FrozenDateTimeFactory,
) -> None:
    """Turns past the TTL are not sent and are pruned; at most N are kept."""
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_CONTEXT_TURNS: 2, CONF_CONTEXT_TTL: 5}
    )
    device = satellite_in(hass, "Kitchen")
    for word in ("one", "two", "three", "four"):
        llm_server.add_plan(plan(speech=f"Said {word}."))
        await converse(hass, agent_id, f"say {word}", device)
    history = _user_prompt(llm_server, 3).split("Recent turns")[1]
    assert "say one" not in history
    assert "say two" in history
    assert "say three" in history

    freezer.tick(timedelta(minutes=6))
    llm_server.add_plan(plan(speech="Fresh."))
    await converse(hass, agent_id, "say five", device)
    assert "Recent turns" not in _user_prompt(llm_server, 4)

    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    stored = hass_storage[
        STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    ]["data"]
    assert [t["text"] for t in stored["turns"][device]] == ["say five"]


async def test_secrets_are_masked_before_storage(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """Passwords, keys and long numbers never reach the disk."""
    llm_server.add_plan(plan(speech="Noted."))
    await converse(
        hass,
        agent_id,
        "the wifi password is hunter2, card 4111 1111 1111 1111",
        kitchen,
    )
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)

    stored = str(
        hass_storage[STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id]
    )
    assert "hunter2" not in stored
    assert "4111" not in stored
    assert "password is ***" in stored


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("my key is sk-abcdefghijklmnopqrstuv", "my key is ***"),
        ("token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9abc", "token: ***"),
        ("code 123456", "code ***"),
        ("the alarm code 4321", "the alarm code ***"),
        ("my PIN is 4321", "my PIN is ***"),
        ("door code: 1 2 3 4", "door code: ***"),
        ("the pin is 12 34, thanks", "the pin is *** thanks"),
        ("a1" + "b" * 31, "***"),
        ("turn on the kitchen lights", "turn on the kitchen lights"),
        ("set it to 21 degrees", "set it to 21 degrees"),
        ("play the secret garden", "play the secret garden"),
        ("pin it to the top", "pin it to the top"),
        ("living_room_ceiling_lamp_number_2", "living_room_ceiling_lamp_number_2"),
    ],
)
def test_mask_secrets(text: str, masked: str) -> None:
    """Only what looks like a secret is masked."""
    assert mask_secrets(text) == masked


# Shapes that make a backtracking pattern slow (1-1-1-...: 2,000 characters
# can take seconds).
ADVERSARIAL_UNITS = ["1-", "1 ", "a1-", "1a", "-1", "pin ", "code:", "sk-", "x", "1"]


@pytest.mark.parametrize("length", [1_500, 100_000])
def test_masking_takes_linear_time(length: int) -> None:
    """Adversarial text is masked in a blink: no pattern can backtrack.

    Measured as this process's CPU time; linear masking of all the shapes
    takes about 0.1 s at 100 KB, backtracking takes seconds at 1,500
    characters.
    """
    texts = [(unit * length)[:length] for unit in ADVERSARIAL_UNITS]
    started = time.process_time()
    for text in texts:
        mask_secrets(text)
    assert time.process_time() - started < 1.0


async def test_long_digit_chains_are_masked_in_storage(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """The longest text a turn may have, all digits: answered, stored as ***."""
    llm_server.add_plan(plan(speech="Noted."))
    text = ("1-" * (MAX_TEXT_LENGTH // 2))[:MAX_TEXT_LENGTH]

    result = await converse(hass, agent_id, text, kitchen)
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)

    assert speech(result)
    stored = hass_storage[
        STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    ]["data"]
    assert stored["turns"][kitchen][0]["text"] in {"***", "***-"}


async def test_removing_the_entry_deletes_its_context(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """Nothing of the conversation stays behind when the entry goes."""
    llm_server.add_plan(plan(speech="Hi."))
    await converse(hass, agent_id, "hello", kitchen)
    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    key = STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    assert key in hass_storage

    await hass.config_entries.async_remove(mock_config_entry.entry_id)
    await hass.async_block_till_done()

    assert key not in hass_storage


async def test_ten_turns_are_remembered_and_the_newest_sent(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """Ten remembered turns: the newest reach the prompt, all ten are stored.

    The character budget itself is tested with long turns in
    test_prompt_size.py, where cutting is needed.
    """
    for n in range(10):
        llm_server.add_plan(
            plan(
                act("light.turn_on", "light.bed_light", brightness_pct=10 + n),
                speech=f"Bedroom light at {10 + n} percent.",
            )
        )
        await converse(
            hass, agent_id, f"set the bedroom light to {10 + n} percent", kitchen
        )
    llm_server.add_plan(plan(speech="OK."))
    await converse(hass, agent_id, "thanks", kitchen)

    history = (
        _user_prompt(llm_server, 10).split("Recent turns")[1].split("Speaker area")[0]
    )
    assert "set the bedroom light to 19 percent" in history
    assert assert_newest_first_kept(history)

    assert await hass.config_entries.async_unload(mock_config_entry.entry_id)
    stored = hass_storage[
        STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    ]["data"]
    assert len(stored["turns"][kitchen]) == 10


def assert_newest_first_kept(history: str) -> bool:
    """Dropped turns, if any, are the oldest ones."""
    kept = [n for n in range(10) if f"to {10 + n} percent" in history]
    return kept == list(range(10 - len(kept), 10))


async def test_follow_up_on_an_entity_no_longer_exposed(
    hass: HomeAssistant, agent_id: str, kitchen: str, llm_server: ScriptedLLMServer
) -> None:
    """Undo cannot reach past exposure: it says so and changes nothing."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))
    await converse(hass, agent_id, "kitchen lights off", kitchen)
    async_expose_entity(hass, "conversation", "light.kitchen_lights", False)

    result = await converse(hass, agent_id, "undo", kitchen)

    assert "no longer available" in speech(result)
    assert hass.states.get("light.kitchen_lights").state == "off"


async def test_expired_turns_are_pruned_when_loaded(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    hass_storage: dict[str, Any],
) -> None:
    """A restart after a long pause forgets what is past the TTL, on disk too."""
    key = STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    turn = {
        "text": "kitchen off",
        "speech": "Off.",
        "outcome": "done",
        "source": "model",
    }
    hass_storage[key] = {
        "version": 1,
        "minor_version": 1,
        "key": key,
        "data": {
            "turns": {
                "old-device": [{**turn, "time": time.time() - 3 * 3600}],
                "fresh-device": [{**turn, "time": time.time() - 60}],
            }
        },
    }

    await async_setup_agent(hass, mock_config_entry)
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=31))
    await hass.async_block_till_done()

    assert set(hass_storage[key]["data"]["turns"]) == {"fresh-device"}
    assert agent_data(mock_config_entry).context.counts() == {"keys": 1, "turns": 1}


async def test_chats_without_a_device_keep_context_per_conversation(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """The app or web UI: the conversation id holds the thread together."""
    llm_server.add_plan(plan(act("light.turn_off", "light.kitchen_lights")))
    first = await conversation.async_converse(
        hass, "kitchen lights off", None, Context(), language="en", agent_id=agent_id
    )
    other = await conversation.async_converse(
        hass, "undo", None, Context(), language="en", agent_id=agent_id
    )
    same = await conversation.async_converse(
        hass, "undo", first.conversation_id, Context(), language="en", agent_id=agent_id
    )

    assert speech(other) == "There's nothing I can undo."
    assert "back the way it was" in speech(same)
    assert hass.states.get("light.kitchen_lights").state == "on"


async def test_pending_turns_are_written_when_home_assistant_stops(
    hass: HomeAssistant,
    agent_id: str,
    kitchen: str,
    llm_server: ScriptedLLMServer,
    mock_config_entry: MockConfigEntry,
    hass_storage: dict[str, Any],
) -> None:
    """A turn still waiting for its delayed save is not lost on shutdown."""
    llm_server.add_plan(plan(speech="Noted."))
    await converse(hass, agent_id, "remember this", kitchen)
    key = STORAGE_KEY_PREFIX + only_agent(mock_config_entry).subentry_id
    assert key not in hass_storage

    hass.bus.async_fire(EVENT_HOMEASSISTANT_FINAL_WRITE)
    await hass.async_block_till_done()

    assert hass_storage[key]["data"]["turns"][kitchen][0]["text"] == "remember this"
