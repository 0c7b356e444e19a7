"""The time and the date asked in everyday words, answered as Home Assistant does.

"Tell me the hour", "whats the day today", "quelle heure il est": Home
Assistant's own sentences answer the time and the date in fixed forms
("what time is it"); these ask the same in other words. A turn asks the
clock when it names nothing of the home, asks for no change, and every
word it says is the clock's (`Words.clock`: the time, the date, and the
words such questions are asked with), its question's shape, a request or
a stop word. "What time is the sunset", "what day is garbage day" say
more, and are not the clock's.

The answer is Home Assistant's: its intents HassGetCurrentTime and
HassGetCurrentDate give the time, and their responses in the language
(home-assistant-intents) say it, as its own agent would.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.helpers import intent, template

from ..const import DOMAIN, LOGGER
from ..core.records import Outcome
from ..language import spans
from .replies import Source, TurnResult

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..deciding.utterance import Utterance
    from ..language.tables import Words
    from ..reading.reading import Reading

# Home Assistant's intents for what the clock is asked, by `CLOCK` name.
CLOCK_INTENTS = {
    "date": intent.INTENT_GET_CURRENT_DATE,
    "time": intent.INTENT_GET_CURRENT_TIME,
}


def clock_asked(reading: Reading, tokens: list[str]) -> tuple[str, ...]:
    """HA's intents for what a turn asks of the clock, date first; () if none.

    A day said as today ("what is it today") asks the date.
    """
    spoken = reading.spoken
    # "What time is it", "wie spät ist es": the clock's "it" refers to nothing.
    named = replace(reading.mentions, refers_back=False)
    if not spoken.clock or not named.names_nothing or reading.verbs or reading.values:
        return ()
    today = spoken.days.get("today", ())[:1]
    asked = {
        name: spans(tokens, spoken.clock.get(name, ())) for name in ("date", "time")
    }
    asked["date"] |= spans(tokens, today)
    said = set().union(*asked.values())
    if not said:
        return ()
    said |= spans(tokens, _asking_words(spoken))
    if any(
        index not in said and word not in reading.question_words
        for index, word in enumerate(tokens)
    ):
        return ()
    return tuple(CLOCK_INTENTS[name] for name in ("date", "time") if asked[name])


def _asking_words(spoken: Words) -> frozenset[str]:
    """Words a question of the clock is asked with, and that ask nothing."""
    return (
        spoken.clock.get("asks", frozenset())
        | spoken.stop
        | spoken.filler
        | spoken.hedges
        | frozenset(spoken.requests)
        | spoken.asking
    )


async def async_clock_answered(
    hass: HomeAssistant, utterance: Utterance, reading: Reading
) -> TurnResult | None:
    """The time or the date a turn asks, in Home Assistant's words; else None."""
    asked = clock_asked(reading, list(utterance.said.words))
    if not asked:
        return None
    said = []
    for intent_type in asked:
        told = await _async_told(hass, utterance, intent_type)
        if told is None:
            return None
        said.append(told)
    utterance.trace(clock=list(asked))
    return TurnResult(" ".join(said), Outcome.ANSWERED, Source.READING)


async def _async_told(
    hass: HomeAssistant, utterance: Utterance, intent_type: str
) -> str | None:
    """HA's intent handled, and its response in the language rendered.

    None where the intent is not set up or the language has no response.
    """
    language = utterance.language
    agent = get_agent_manager(hass).default_agent
    known = await agent.async_get_or_load_intents(language) if agent else None
    response: Any = known.intent_responses.get(intent_type, {}) if known else {}
    text = response.get("default") if isinstance(response, dict) else None
    if not text:
        return None
    try:
        handled = await intent.async_handle(
            hass,
            DOMAIN,
            intent_type,
            text_input=utterance.said.text,
            context=utterance.user_input.context,
            language=language,
            assistant=conversation.DOMAIN,
        )
    except intent.IntentError as err:
        LOGGER.debug("%s could not be handled: %s", intent_type, err)
        return None
    rendered = template.Template(text, hass).async_render(
        {"slots": handled.speech_slots}, parse_result=False
    )
    return " ".join(str(rendered).split())
