"""A question about the home answered by the home: its states, what lists hold.

Whoever read the question (the reading itself, or the model choosing
among the reading's options), the answer is the states' (answers.py). A
to-do list's state is only how many items it has, a calendar's only
whether an event is on: "what's on my task list?" and "what do I have
today?" are answered with what the list's `get_items` and the calendar's
`get_events` return (today's events, as core's own calendar tool reads
"today"), in the turn's language, never in a model's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from homeassistant.exceptions import HomeAssistantError
from homeassistant.util import dt as dt_util

from ..const import LOGGER
from ..core.records import Outcome
from ..core.speech import Names, Phrase, phrase
from ..deciding.answers import answer
from .replies import Source, TurnResult

if TYPE_CHECKING:
    from collections.abc import Collection

    from homeassistant.core import Context, HomeAssistant

    from ..deciding.utterance import Utterance
    from ..home.catalog import Catalog
    from ..reading.reading import Reading

# The domains whose answer is what their service returns, with that service.
LISTED = {"todo": "get_items", "calendar": "get_events"}
# Items or events one answer says at most: a list nobody listens to.
MAX_SAID = 6


async def async_answered(
    hass: HomeAssistant,
    utterance: Utterance,
    question: Reading,
    catalog: Catalog,
    confirm: Collection[str],
    source: Source,
) -> TurnResult | None:
    """A question the words ask answered by the home; None when it cannot say."""
    found = answer(question, catalog, utterance.phrases.values, confirm)
    if found is None:
        return None
    said = found.said
    if _is_listed(found.about):
        read = await async_listed(
            hass, found.about, catalog, utterance.user_input.context
        )
        if read is not None:
            said, held = read
            # What the answer says, as the lists and calendars returned it.
            utterance.trace(listed=held)
    utterance.trace(answered_from_states=list(found.about))
    speech = " ".join(utterance.phrases.say(part) for part in said)
    return TurnResult(speech, Outcome.ANSWERED, source, about=found.about)


def _is_listed(entity_ids: Sequence[str]) -> bool:
    """Whether entities are answered by what they hold (lists, calendars)."""
    return bool(entity_ids) and all(e.partition(".")[0] in LISTED for e in entity_ids)


async def async_listed(
    hass: HomeAssistant, entity_ids: Sequence[str], catalog: Catalog, context: Context
) -> tuple[list[Phrase], dict[str, Any]] | None:
    """What each list or calendar holds, as phrases and as returned.

    None when one cannot say.
    """
    said: list[Phrase] = []
    held: dict[str, Any] = {}
    for entity_id in entity_ids:
        domain = entity_id.partition(".")[0]
        info = catalog.exposed.get(entity_id)
        if info is None or domain not in LISTED:
            return None
        data = _data(domain)
        try:
            response = await hass.services.async_call(
                domain,
                LISTED[domain],
                {"entity_id": entity_id, **data},
                blocking=True,
                context=context,
                return_response=True,
            )
        except HomeAssistantError as err:
            LOGGER.debug("Could not read %s: %s", entity_id, err)
            return None
        found = (response or {}).get(entity_id)
        held[entity_id] = found if isinstance(found, dict) else {}
        said.append(_said(domain, info.name, held[entity_id]))
    return said, held


def _data(domain: str) -> dict[str, Any]:
    """The service's data: open items; today's events."""
    if domain == "todo":
        return {"status": ["needs_action"]}
    today = dt_util.start_of_local_day()
    return {
        "start_date_time": today.isoformat(),
        "end_date_time": (today + timedelta(days=1)).isoformat(),
    }


def _said(domain: str, name: str, found: dict[str, Any]) -> Phrase:
    """A list's items or a calendar's events, or that it has none."""
    if domain == "todo":
        items = [str(i.get("summary", "")) for i in found.get("items", ())]
        items = [i for i in items if i][:MAX_SAID]
        if not items:
            return phrase("listed_no_items", name=name)
        return phrase("listed_items", name=name, items=Names(tuple(items)))
    events = [_event(e) for e in found.get("events", ())][:MAX_SAID]
    if not events:
        return phrase("listed_no_events", name=name)
    return phrase("listed_events", name=name, events=Names(tuple(events)))


def _event(event: dict[str, Any]) -> str:
    """An event as said: its summary, and its time where it has one."""
    summary = str(event.get("summary", ""))
    start = str(event.get("start", ""))
    if "T" not in start:
        return summary
    when = dt_util.parse_datetime(start)
    return summary if when is None else f"{summary} {dt_util.as_local(when):%H:%M}"
