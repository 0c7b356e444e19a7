"""One of several devices of a kind, in no place said: the home asks which.

"Turn on the speaker" from a device in no room, in a home whose eight
players have no room either, is one speaker: the home asks which, never
switches on all eight. The plural ("the speakers") would be all of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST, CONF_USE_LLM
from homeassistant.core import HomeAssistant

from .agents import agent_entity, set_agent_options
from .demo_home import async_setup_develop_home
from .helpers import converse, home_states, speech
from .llm_server import ScriptedLLMServer

TRANSLATIONS = (
    Path(__file__).parent.parent / "custom_components/intent_router/translations"
)


def _which(language: str) -> str:
    """The "which one, of many?" question in the language, as shipped."""
    messages = json.loads((TRANSLATIONS / f"{language}.json").read_text())
    return str(messages["exceptions"]["which_one_of_many"]["message"])


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "turn on the speaker"),
        ("en", "turn on the music"),
        ("de", "schalte den Lautsprecher ein"),
        ("fr", "allume l'enceinte"),
        ("es", "enciende el altavoz"),
    ],
)
async def test_one_speaker_of_several_asks_which(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    language: str,
    said: str,
) -> None:
    """No player is switched on; the home asks, without the model."""
    await async_setup_develop_home(hass)
    set_agent_options(
        hass, mock_config_entry, {CONF_LOCAL_FIRST: True, CONF_USE_LLM: False}
    )
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    before = home_states(hass)

    result = await converse(
        hass, agent_entity(hass, mock_config_entry), said, language=language
    )

    assert speech(result) == _which(language)
    assert home_states(hass) == before
