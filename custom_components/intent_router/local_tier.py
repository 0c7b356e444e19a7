"""Step 6: what the integration's own reading answers, before any model.

A question whose subject the reading knows is answered from the home's
states (answers.py); a command the reading leaves nothing open in becomes a
plan (local_plans.py) that goes through validation and the gate like any
other, and a plan they refuse is left to the model. When the words fit
devices in several places equally, the user is asked which, naming only
those.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from .answers import answer as answer_from_states
from .catalog import unexposed_named
from .domains import domain_of
from .grounding import candidates
from .language import base_language, content_words, fold
from .language.music import MUSIC_WORDS
from .local_intents import MUSIC_PLAY
from .local_plans import READ_CONFIDENCE, Choice, plan_from_reading
from .reading import read
from .records import Action, Outcome, Plan, encode
from .replies import Source, TurnResult, ungrounded_reply
from .shortcuts import last_acted
from .speech import Names
from .tools import ReadsWords
from .utterance import ModelFailedError
from .values import said_words

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .catalog import Catalog
    from .language.tables import Verb
    from .plan_runner import PlanRunner
    from .reading import Reading
    from .utterance import Utterance


def answer_turn(
    confirm: Collection[str],
    utterance: Utterance,
    reading: Reading,
    catalog: Catalog,
) -> TurnResult | None:
    """A question whose subject the reading knows, answered from the states."""
    answer = answer_from_states(reading, catalog, utterance.phrases.values, confirm)
    if not answer:
        return None
    utterance.trace(answered_from_states=list(answer.about))
    speech = " ".join(utterance.phrases.say(part) for part in answer.said)
    return TurnResult(speech, Outcome.ANSWERED, Source.READING, about=answer.about)


def tool_request(
    utterance: Utterance, reading: Reading | None, catalog: Catalog
) -> Plan | None:
    """A tool's request said whole ("play Blue Train on Spotify"), as a plan.

    Only where the words name no other kind of device than the tool's: "put
    on the lights" is no music, and a title that names one ("Light My Fire")
    is the model's to read. Without a `reading`, HA's sentences already
    said it is the tool's.
    """
    if utterance.pending or (reading is not None and reading.question):
        return None
    mentions = reading.mentions if reading is not None else None
    verbs: frozenset[Verb] = frozenset()
    # A verb with no device, place or unknown word said ("pause the music").
    if reading is not None and not (
        reading.unexplained
        or reading.mentions.entities
        or reading.mentions.areas
        or reading.mentions.floors
    ):
        verbs = reading.verbs
    for tool in catalog.tools.values():
        if (
            isinstance(tool, ReadsWords)
            and (
                mentions is None
                or (
                    mentions.kinds <= {tool.kind}
                    and all(domain_of(e) == tool.kind for e in mentions.entities)
                )
            )
            and (
                action := tool.read_words(
                    utterance.text, utterance.language, catalog, verbs
                )
            )
            and not _names_a_device(action, utterance.language, catalog)
        ):
            return Plan((action,), "", READ_CONFIDENCE)
    return None


async def async_run_held(
    runner: PlanRunner,
    utterance: Utterance,
    held: Plan,
    catalog: Catalog,
    source: Source,
) -> TurnResult | None:
    """HA's held match through the gate; one that validation refuses is no answer.

    (Music with no speaker to play on, say: the reading or the model follows.)
    Nor is HA's "pon {query}" whose query is a device here: "pon la tele"
    turns the TV on, it searches nothing.
    """
    if any(
        _names_a_device(action, utterance.language, catalog) for action in held.actions
    ):
        utterance.trace(local_rejected="query_names_a_device")
        return None
    plan = with_place_said(utterance, held, catalog)
    try:
        return await runner.async_run(utterance, plan, catalog, source)
    except ModelFailedError as failure:
        utterance.trace(local_rejected=failure.reason)
        return None


def _names_a_device(action: Action, language: str, catalog: Catalog) -> bool:
    """Whether a search's query is, word for word, a device of the home.

    "La tele", "the kettle": the words name it, or its kind with a word that
    is not only "music" ("pon música" still plays).
    """
    if action.tool != MUSIC_PLAY:
        return False
    query = read(str(action.args.get("query") or ""), language, catalog)
    table = MUSIC_WORDS.get(base_language(language))
    music = table.generic if table else frozenset()
    return not query.unexplained and bool(
        query.mentions.entities or query.kind_words - music
    )


def with_place_said(utterance: Utterance, held: Plan, catalog: Catalog) -> Plan:
    """HA's match to play, with the speaker the words name where HA found none.

    HA's sentences know exposed names and areas, not a Spotify Connect
    speaker or "on Spotify": those stay in its query ("Kind of Blue on
    Spotify", played in the speaker's room). Where HA's query holds the
    place the tool's own reading found, or the reading is another tool's
    request, that reading stands instead.
    """
    read = tool_request(utterance, None, catalog)
    if read is None:
        return held
    (said,) = read.actions
    if all(a.tool in catalog.tools and a.tool != said.tool for a in held.actions):
        # Another tool's request: "play it in the office too" is a join.
        return replace(held, actions=read.actions)
    place = fold(str(said.args.get("player") or ""))
    return replace(
        held,
        actions=tuple(
            said
            if action.tool == said.tool
            and place
            and place in fold(str(action.args.get("query") or ""))
            else action
            for action in held.actions
        ),
    )


async def async_read_turn(
    hass: HomeAssistant,
    runner: PlanRunner,
    confirm: Collection[str],
    utterance: Utterance,
    reading: Reading,
    catalog: Catalog,
) -> TurnResult | None:
    """Step 6: a command the reading leaves nothing open in, without a model.

    A plan it makes goes through validation and the gate like any, and one
    they refuse is the model's to try.
    """
    if utterance.automation:
        return None  # what a yes means is the automation's question
    if hidden := _not_exposed(hass, utterance, reading, catalog):
        return hidden
    acted = last_acted(utterance.history)
    pending = utterance.pending
    if (asked := tool_request(utterance, reading, catalog)) is not None:
        # The tool read its own request: what it says it was asked grounds it.
        return await _async_run_read(runner, utterance, asked, catalog, None)
    planned = plan_from_reading(
        reading,
        catalog,
        acted.actions if acted else (),
        confirm,
        pending.offered if pending else (),
        utterance.last_targets(reading.verbs),
    )
    if isinstance(planned, Choice):
        utterance.trace(read_choices=list(planned.choices))
        return ungrounded_reply(
            hass, utterance.phrases, Plan((), "", 1.0), planned.choices, Source.READING
        )
    if planned is None:
        utterance.trace(read_open=list(reading.unexplained))
        return _nothing_to_change(utterance, reading, catalog, confirm)
    return await _async_run_read(runner, utterance, planned, catalog, reading)


async def _async_run_read(
    runner: PlanRunner,
    utterance: Utterance,
    planned: Plan,
    catalog: Catalog,
    reading: Reading | None,
) -> TurnResult | None:
    """Run a plan the words made; one validation or the gate refuses is the model's."""
    utterance.trace(read_plan=encode(planned))
    try:
        return await runner.async_run(
            utterance, planned, catalog, Source.READING, reading=reading
        )
    except ModelFailedError as failure:
        utterance.trace(read_rejected=failure.reason)
        return None


def _not_exposed(
    hass: HomeAssistant, utterance: Utterance, reading: Reading, catalog: Catalog
) -> TurnResult | None:
    """The words name a device that is not exposed to Assist: say so, and where.

    Unless they name an exposed device in full: a part of an exposed name
    ("Door" of Front Door) is no match for a hidden device named whole
    ("Kitchen Door"). Nothing acts on it; the model, which never sees it,
    would only guess.
    """
    language = utterance.language
    heard = set(said_words(utterance.text, language))
    mentions = reading.mentions
    if any(
        content_words(name, language) <= heard
        for entity_id in mentions.entities
        if (info := catalog.exposed.get(entity_id))
        for name in (info.name, *info.aliases)
    ):
        return None
    places = {
        word
        for place in (*mentions.areas, *mentions.floors)
        for word in content_words(place, language)
    }
    names = unexposed_named(hass, catalog.exposed, heard, places, language)
    if not names:
        return None
    utterance.trace(not_exposed=names)
    return TurnResult(
        utterance.say("not_exposed", names=Names(tuple(names))),
        Outcome.ANSWERED,
        Source.READING,
    )


def _nothing_to_change(
    utterance: Utterance, reading: Reading, catalog: Catalog, confirm: Collection[str]
) -> TurnResult | None:
    """A complaint ("too loud in the garage") where nothing of its kind is.

    Only when no device was named and the place meant (the one said, else
    the speaker's, else the home) has nothing of the kinds complained about;
    anything else unclear is the model's.
    """
    mentions = reading.mentions
    if (
        not reading.complaint
        or mentions.entities
        or candidates(mentions, catalog, confirm, reading.complaint)
    ):
        return None
    # No place said: the speaker's area fell back to the whole home, which has none.
    place = next(iter(sorted(mentions.areas | mentions.floors)), None)
    speech = (
        utterance.say("nothing_to_change_in", area=place)
        if place
        else utterance.say("nothing_to_change")
    )
    return TurnResult(speech, Outcome.ANSWERED, Source.READING)
