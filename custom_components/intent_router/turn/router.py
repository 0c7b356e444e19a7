"""Steps 5-7: what answers a turn, in one order, written once here.

HA's own sentences first (questions too: this agent never does worse than
HA's own); then an answer from the home's states; then a plan the reading
leaves nothing open in (with a tool's own request); then a plan learned for
these words; then HA's gazetteer; then one model call. A plan from any of
them goes through validation and the gate (plan_runner.py), and one they
refuse passes to the next. When the model fails, HA's sentences get their
chance if they have not had it, else the user hears why.

Local-first off, HA's sentences and the reading wait for the model's
failure; a dry run asks the model only (local intents act as they match).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.domains import action_asks_first
from ..core.records import Outcome, Plan, encode
from ..core.speech import Names, Phrase, phrase, refuse
from ..deciding.gate import learns
from ..deciding.learned import sentence_key
from ..deciding.local_plans import plan_from_reading
from ..deciding.options import propose
from ..deciding.shortcuts import last_acted
from ..deciding.targets.commanded import Choice
from ..deciding.targets.placed import candidates
from ..deciding.utterance import ModelFailedError, SupersededError
from ..home.catalog import Catalog, async_build_catalog, unexposed_named
from ..language import content_words
from ..model.planner import parse_completion
from ..reading.reading import Reading, read
from .chooser import Chooser
from .clock import async_clock_answered
from .forecast import async_weather_answered
from .listed import async_answered
from .local_intents import (
    Declined,
    Held,
    LocalHandler,
    async_handle_by_gazetteer,
    async_handle_locally,
    executed_actions,
)
from .plan_runner import superseded
from .replies import Source, TurnResult, local_result, ungrounded_reply
from .tool_requests import names_a_device, tool_request, with_place_said

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..core.settings import Settings
    from ..deciding.learned import LearnedCommands
    from ..deciding.utterance import Utterance
    from ..home.tools import ToolSource
    from ..model.planner import Planner
    from .plan_runner import PlanRunner


def told(utterance: Utterance, explanation: Phrase, source: Source) -> TurnResult:
    """A turn that ends with an explanation in the turn's language."""
    utterance.trace(error=explanation.key)
    return TurnResult(
        utterance.phrases.say(explanation),
        Outcome.ERROR,
        source,
        failure=explanation.key,
    )


class Router:
    """The order of what may answer a turn, for one agent."""

    def __init__(
        self,
        hass: HomeAssistant,
        settings: Settings,
        runner: PlanRunner,
        planner: Planner,
        learned: LearnedCommands,
        tool_sources: tuple[ToolSource, ...],
    ) -> None:
        """Keep the collaborators."""
        self._hass = hass
        self._settings = settings
        self._runner = runner
        self._planner = planner
        self._learned = learned
        self._tool_sources = tool_sources
        self._chooser = Chooser(hass, settings, runner, planner)

    async def async_answer(self, utterance: Utterance) -> TurnResult:
        """Steps 5-10: the first of them that answers, else why not."""
        settings = self._settings
        read_first = not utterance.dry_run and (
            settings.local_first or not settings.use_llm
        )
        # While our own question waits, its answer is read with it, not by
        # HA's sentences.
        if (
            read_first
            and utterance.pending is None
            and (local := await self._async_ha_sentences(utterance))
        ):
            return local
        # With the question it answers ("yes, close it" names nothing),
        # against what the speaker may see and use.
        catalog = await self.async_catalog(
            utterance,
            utterance.words,
            [t for past in utterance.history for a in past.actions for t in a.targets],
        )
        reading = read(
            utterance.said,
            catalog,
            automation=utterance.automation,
            asked=utterance.pending.request if utterance.pending else None,
            follows=utterance.last_targets(),
        )
        try:
            return await self._async_after_ha(
                utterance, catalog, reading, read_first=read_first
            )
        except ModelFailedError as failure:
            utterance.trace(fallback=failure.reason)
            if (
                not read_first
                and not utterance.dry_run
                and (local := await self._async_ha_sentences(utterance))
            ):
                return local
            return told(utterance, phrase(failure.key), Source.FALLBACK)

    async def _async_after_ha(
        self,
        utterance: Utterance,
        catalog: Catalog,
        reading: Reading,
        *,
        read_first: bool,
    ) -> TurnResult:
        """After HA's sentences: answers, the reading, learned, gazetteer, model."""
        if read_first and (
            done := await self._async_answered(utterance, reading, catalog)
            or await self._async_read(utterance, reading, catalog)
        ):
            return done
        if learned := await self._async_learned(utterance, catalog, reading):
            return learned
        if (
            read_first
            and not (utterance.pending or utterance.automation)
            and (
                local := await self._async_ha_sentences(
                    utterance, async_handle_by_gazetteer
                )
            )
        ):
            return local
        if not self._settings.use_llm:
            raise refuse("not_understood_locally")
        return await self._async_model(
            utterance, catalog, reading, sentences_left=not read_first
        )

    async def async_catalog(
        self, utterance: Utterance, said: Sequence[str], recent_targets: Sequence[str]
    ) -> Catalog:
        """What the model may see and use for these words."""
        return await async_build_catalog(
            self._hass,
            said,
            utterance.language,
            utterance.user_input.device_id,
            self._settings.allowed_domains,
            recent_targets,
            self._tool_sources,
            utterance.area_id,
        )

    async def _async_ha_sentences(
        self, utterance: Utterance, handle: LocalHandler = async_handle_locally
    ) -> TurnResult | None:
        """HA's own sentences (`handle`), held through the gate where they would open.

        A held match that validation refuses is no answer (music with no
        speaker to play on: the reading or the model follows), nor is HA's
        "pon {query}" whose query is a device here: "pon la tele" turns the
        TV on, it searches nothing.
        """
        before = {state.entity_id: state for state in self._hass.states.async_all()}
        policy = self._settings.confirm_policy
        response = await handle(
            self._hass,
            utterance.user_input,
            utterance.said,
            utterance.chat_log,
            lambda tool, state: action_asks_first(
                tool.partition(".")[2],
                state.domain,
                state.attributes.get("device_class"),
                policy,
            ),
        )
        utterance.trace(local_match=response is not None)
        if isinstance(response, Declined):
            utterance.trace(local_declined=response.reason)
            return None
        if response is None:
            return None
        if not isinstance(response, Held):
            return local_result(response, executed_actions(response, before))
        held = Plan(response.actions, "", 1.0)
        catalog = await self.async_catalog(
            utterance, (), [t for a in held.actions for t in a.targets]
        )
        if any(
            names_a_device(action, utterance.language, catalog)
            for action in held.actions
        ):
            utterance.trace(local_rejected="query_names_a_device")
            return None
        plan = with_place_said(utterance, held, catalog)
        return await self._async_tried(utterance, plan, catalog, Source.LOCAL, None)

    async def _async_answered(
        self, utterance: Utterance, reading: Reading, catalog: Catalog
    ) -> TurnResult | None:
        """A question whose subject the reading knows, answered by the home.

        The weather asked about with words besides ("will it rain
        tomorrow?") is the weather entity's, its forecast's for a day said;
        the time and the date asked in other words than HA's are its intents'.
        """
        return (
            await async_answered(
                self._hass,
                utterance,
                reading,
                catalog,
                self._settings.confirm_domains,
                Source.READING,
            )
            or await async_weather_answered(self._hass, utterance, reading, catalog)
            or await async_clock_answered(self._hass, utterance, reading)
        )

    async def _async_read(
        self, utterance: Utterance, reading: Reading, catalog: Catalog
    ) -> TurnResult | None:
        """A command the reading leaves nothing open in, without a model.

        A plan it makes goes through validation and the gate like any, and
        one they refuse is the model's to try.
        """
        if utterance.automation:
            return None  # what a yes means is the automation's question
        if hidden := _not_exposed(self._hass, utterance, reading, catalog):
            return hidden
        if (asked := tool_request(utterance, reading, catalog)) is not None:
            # The tool read its own request: what it says it was asked grounds it.
            return await self._async_run_read(utterance, asked, catalog, None)
        acted = last_acted(utterance.history)
        pending = utterance.pending
        confirm = self._settings.confirm_domains
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
                self._hass,
                utterance.phrases,
                Plan((), "", 1.0),
                planned.choices,
                Source.READING,
            )
        if planned is None:
            utterance.trace(read_open=list(reading.unexplained))
            return _nothing_to_change(utterance, reading, catalog, confirm)
        return await self._async_run_read(utterance, planned, catalog, reading)

    async def _async_run_read(
        self,
        utterance: Utterance,
        planned: Plan,
        catalog: Catalog,
        reading: Reading | None,
    ) -> TurnResult | None:
        """Run a plan the words made; one validation or the gate refuses is the model's."""
        utterance.trace(read_plan=encode(planned))
        return await self._async_tried(
            utterance, planned, catalog, Source.READING, reading
        )

    async def _async_tried(
        self,
        utterance: Utterance,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        reading: Reading | None,
    ) -> TurnResult | None:
        """A plan made without the model, run; None where it is refused.

        What validation or the gate refuses is left to the next step (the
        model), and the trace says why (`local_rejected`, `read_rejected`).
        """
        try:
            return await self._runner.async_run(
                utterance, plan, catalog, source, reading=reading
            )
        except ModelFailedError as failure:
            if source is Source.LOCAL:
                utterance.trace(local_rejected=failure.reason)
            else:
                utterance.trace(read_rejected=failure.reason)
            return None

    async def _async_learned(
        self, utterance: Utterance, catalog: Catalog, reading: Reading
    ) -> TurnResult | None:
        """These words here ran before and stood (learned.py): no model."""
        if not learns(
            self._settings.learn_commands,
            answering=bool(utterance.pending or utterance.automation),
            question=reading.question,
        ):
            return None
        plan = self._learned.lookup(
            sentence_key(utterance.said, catalog.speaker_area),
            reading.mentions,
            catalog,
            self._settings.confirm_domains,
        )
        if plan is None:
            return None
        utterance.trace(learned=encode(plan))
        result = await self._runner.async_run(
            utterance, plan, catalog, Source.LEARNED, reading=reading
        )
        if result.outcome in (Outcome.FAILED, Outcome.PARTIAL):  # not replayed again
            self._learned.forget_sentence(utterance.said.folded)
        return result

    async def _async_model(
        self,
        utterance: Utterance,
        catalog: Catalog,
        reading: Reading,
        *,
        sentences_left: bool,
    ) -> TurnResult:
        """Step 7: one model call (a newer turn cancels it), its plan run.

        Where the reading can lay out what the words may mean, the model
        chooses among those options (chooser.py); else it writes a plan,
        held to the words by the same gate. An automation's question decides
        what a yes means: its answer is the model's own plan. With HA's
        sentences still to try (`sentences_left`), a plan refused is theirs.
        """
        options = (
            ()
            if utterance.automation
            else propose(
                reading,
                utterance.said,
                catalog,
                utterance.last_targets(reading.verbs),
                self._settings.confirm_domains,
                utterance.phrases.values,
            )
        )
        try:
            if options:
                return await self._chooser.async_choose(
                    utterance, catalog, reading, options, sentences_left=sentences_left
                )
            completion = await self._planner.async_plan(utterance, catalog, reading)
        except SupersededError:
            return superseded(utterance, Source.MODEL)
        plan = parse_completion(completion)
        utterance.trace(plan=encode(plan))
        result = await self._runner.async_run(
            utterance, plan, catalog, Source.MODEL, reading=reading
        )
        return replace(result, completion=completion)


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
    heard = set(utterance.said.terms)
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
