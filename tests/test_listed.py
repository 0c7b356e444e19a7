"""What a list or a calendar holds, answered from what Home Assistant returns.

A to-do list's state is only a count, a calendar's only whether an event
is on: the answer is what the list's items and the calendar's events for
today are, in the turn's language, whoever read the question.
"""

from __future__ import annotations

import json

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.todo.const import (
    DATA_COMPONENT as TODO_COMPONENT,
    TodoListEntityFeature,
)
from homeassistant.components.todo.entity import TodoItem, TodoListEntity
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant

from . import home
from .helpers import act, converse, offered, plan, speech
from .llm_server import ScriptedLLMServer

SHOPPING = "todo.shopping_list"


@pytest.fixture
async def agent_id(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The demo home with its calendars, HA's shopping list, the agent as shipped."""
    monkeypatch.setattr(
        home, "DEMO_PLATFORMS", [*home.DEMO_PLATFORMS, Platform.CALENDAR]
    )
    monkeypatch.setitem(home.EXPOSED_AREAS, "calendar.calendar_2", None)
    agent = await home.async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    shopping = MockConfigEntry(domain="shopping_list")
    shopping.add_to_hass(hass)
    assert await hass.config_entries.async_setup(shopping.entry_id)
    await hass.async_block_till_done()
    async_expose_entity(hass, CONVERSATION_DOMAIN, SHOPPING, True)
    for item in ("oat milk", "eggs"):
        await hass.services.async_call(
            "todo", "add_item", {"entity_id": SHOPPING, "item": item}, blocking=True
        )
    return agent


@pytest.mark.parametrize(
    ("language", "said", "answer"),
    [
        ("en", "what's on the shopping list?", "Shopping list: oat milk and eggs."),
        ("de", "was steht auf der Shopping list?", "Shopping list: oat milk und eggs."),
        (
            "fr",
            "qu'y a-t-il sur la Shopping list ?",
            "Shopping list : oat milk et eggs.",
        ),
    ],
)
async def test_a_list_is_answered_with_its_items(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    answer: str,
) -> None:
    """Not "Shopping list is 2": what is on it."""
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, said, language=language)

    assert speech(result) == answer


async def test_a_calendar_is_answered_with_todays_events(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """Not "Calendar 2 is on": what it holds today, with the time."""
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, "what's on calendar 2 today?")

    assert speech(result).startswith("Today on Calendar 2: Current Event")


async def test_a_question_naming_nothing_may_be_about_what_the_home_keeps(
    hass: HomeAssistant, agent_id: str, llm_server: ScriptedLLMServer
) -> None:
    """A question that names no device: the calendar and the list may say."""
    llm_server.add_reply('{"pick":1}')

    result = await converse(hass, agent_id, "who am I seeing later?")

    listed = offered(llm_server)
    assert listed[:2] == [
        "1 about Calendar 2.",
        "2 about Shopping list (To-do list).",
    ]
    assert speech(result).startswith("Today on Calendar 2: Current Event")


@pytest.mark.parametrize(
    ("language", "said", "reason"),
    [
        (
            "en",
            "cross bread off the shopping list",
            "Unable to find to-do list item: bread.",
        ),
        (
            "de",
            "nimm Brot von der Shopping list",
            "Eintrag der To-do-Liste kann nicht gefunden werden: bread.",
        ),
        (
            "fr",
            "enlève le pain de la Shopping list",
            "Impossible de trouver dans la liste de tâches l'élément\xa0: bread.",
        ),
    ],
)
async def test_an_item_not_on_the_list_is_said_in_home_assistants_words(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
    reason: str,
) -> None:
    """The list refused: its reason in the turn's language, not "didn't respond"."""
    llm_server.add_plan(plan(act("todo.remove_item", SHOPPING, item="bread")))
    before = hass.states.get(SHOPPING).state

    result = await converse(hass, agent_id, said, None, language=language)

    assert speech(result) == reason
    assert hass.states.get(SHOPPING).state == before


CHORES = "todo.chores"
HARDWARE = "todo.hardware"


class _MemoryList(TodoListEntity):
    """A to-do list beside HA's shopping list, kept in memory."""

    _attr_supported_features = TodoListEntityFeature.CREATE_TODO_ITEM

    def __init__(self, name: str) -> None:
        self._attr_name = name
        self._attr_todo_items = []

    async def async_create_todo_item(self, item: TodoItem) -> None:
        """Add an item."""
        self._attr_todo_items = [*(self._attr_todo_items or []), item]
        self.async_write_ha_state()


@pytest.fixture
async def two_lists(hass: HomeAssistant, agent_id: str) -> str:
    """The shopping list, and Chores and Hardware lists beside it."""
    await hass.data[TODO_COMPONENT].async_add_entities(
        [_MemoryList("Chores"), _MemoryList("Hardware")]
    )
    await hass.async_block_till_done()
    for entity_id in (CHORES, HARDWARE):
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    return agent_id


async def test_an_item_for_no_list_goes_on_home_assistants_shopping_list(
    hass: HomeAssistant,
    two_lists: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model put it on every list; no list was named.

    It goes on Home Assistant's shopping list only, where Home Assistant's
    own sentences put it ("add batteries to my list"), once confirmed: the
    words leave some unread.
    """
    llm_server.add_plan(
        plan(act("todo.add_item", SHOPPING, CHORES, HARDWARE, item="batteries"))
    )
    shopping = int(hass.states.get(SHOPPING).state)

    kitchen = home.satellite_in(hass, "Kitchen")
    asked = await converse(
        hass, two_lists, "we need batteries, jot that on a list", kitchen
    )
    assert speech(asked) == (
        "Do you want me to run “Add to-do list item” on Shopping list?"
    )
    await converse(hass, two_lists, "yes", kitchen)

    assert int(hass.states.get(SHOPPING).state) == shopping + 1
    assert hass.states.get(CHORES).state == "0"
    assert hass.states.get(HARDWARE).state == "0"


async def test_an_item_on_one_of_other_lists_is_asked_which(
    hass: HomeAssistant,
    two_lists: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """The model put it on two lists, neither HA's shopping list: which one.

    The answer names the list, and the item goes on that one only (the
    model, shown the question, plans it there).
    """
    llm_server.add_plan(plan(act("todo.add_item", CHORES, HARDWARE, item="screws")))
    kitchen = home.satellite_in(hass, "Kitchen")

    result = await converse(
        hass, two_lists, "we need screws, jot that on a list", kitchen
    )

    assert speech(result) == "Which one do you mean: Chores or Hardware?"
    assert hass.states.get(CHORES).state == "0"
    assert hass.states.get(HARDWARE).state == "0"

    llm_server.add_plan(plan(act("todo.add_item", HARDWARE, item="screws")))
    await converse(hass, two_lists, "the hardware one", kitchen)

    assert hass.states.get(HARDWARE).state == "1"
    assert hass.states.get(CHORES).state == "0"


async def test_an_item_on_the_list_named_is_added_there(
    hass: HomeAssistant,
    two_lists: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A list named is the one it goes on."""
    llm_server.add_plan(plan(act("todo.add_item", CHORES, item="fix the tap")))
    shopping = hass.states.get(SHOPPING).state

    await converse(hass, two_lists, "put fix the tap on the chores list")

    assert hass.states.get(CHORES).state == "1"
    assert hass.states.get(SHOPPING).state == shopping


async def test_an_answer_in_words_that_says_the_question_again_is_not_spoken(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
) -> None:
    """A small model "answered" with the question: nothing is said of it."""
    llm_server.add_reply('{"pick":3,"text":"What classes do I have today?"}')

    result = await converse(hass, agent_id, "What classes do I have today?")

    listed = offered(llm_server)
    assert listed[2] == "3 Answered in words: X."
    assert speech(result) == "I'm not sure what you want. Could you say it another way?"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "put batteries on my grocery list"),
        ("de", "füg Batterien zur Einkaufsliste hinzu"),
        ("fr", "mets des piles sur la liste de courses"),
    ],
)
async def test_the_grocery_list_is_the_shopping_list(
    hass: HomeAssistant,
    two_lists: str,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """Said as people say it, in any language, it is the home's Shopping list.

    The model put the item on both lists; it goes on the one meant.
    """
    llm_server.add_plan(plan(act("todo.add_item", SHOPPING, CHORES, item="batteries")))
    shopping = int(hass.states.get(SHOPPING).state)

    await converse(hass, two_lists, said, language=language)

    assert int(hass.states.get(SHOPPING).state) == shopping + 1
    assert hass.states.get(CHORES).state == "0"


@pytest.mark.parametrize(
    "text",
    ["Remove X from Shopping list.", "bananas"],
)
async def test_an_item_the_request_does_not_say_is_not_added(
    hass: HomeAssistant,
    agent_id: str,
    llm_server: ScriptedLLMServer,
    text: str,
) -> None:
    """The model's item is the option written back, or a word nobody said."""
    llm_server.add_reply(json.dumps({"pick": 1, "text": text}))
    before = int(hass.states.get(SHOPPING).state)

    result = await converse(hass, agent_id, "erase my old songs on the shopping list")
    await converse(hass, agent_id, "yes")

    assert int(hass.states.get(SHOPPING).state) == before
    assert "X" not in speech(result)
