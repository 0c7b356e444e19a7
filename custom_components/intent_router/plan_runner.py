"""Steps 8-11 for a plan from any path: validate, gate, execute, respond.

Follow-ups, HA's held sentences, learned commands and the model all hand
their plan to `PlanRunner.async_run`: one validation, one gate (gate.py),
one executor and replies built from what ran. A plan made for the words
(the model's or a learned one) comes with what the words point at, and is
grounded in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .const import LOGGER
from .executor import ActionOutcome, async_execute
from .gate import (
    Decision,
    against_the_words,
    answer_only,
    automation_confirms,
    automation_refused,
    gate,
)
from .grounding import Grounded, Ungrounded
from .language import words
from .learned import Lesson, lesson
from .plan import PlanError, validate_plan
from .reading import Mentions, Reading
from .records import Outcome
from .replies import (
    Source,
    TurnResult,
    confirm_question,
    done_speech,
    failure_speech,
    ungrounded_reply,
)
from .speech import refuse
from .tools import ToolQuestion
from .utterance import ModelFailedError, SupersededError

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from .catalog import Catalog
    from .planner import Planner
    from .records import Plan
    from .settings import Settings
    from .utterance import InFlight, Utterance

# Seconds actions get at least, when the model took the turn's whole budget.
MIN_ACTION_TIME = 1.0


class PlanRunner:
    """Carries out plans for one config entry's agent."""

    def __init__(
        self,
        hass: HomeAssistant,
        settings: Settings,
        planner: Planner,
        in_flight: InFlight,
    ) -> None:
        """Keep the collaborators."""
        self._hass = hass
        self._settings = settings
        self._planner = planner
        self._in_flight = in_flight

    async def async_run(
        self,
        utterance: Utterance,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        *,
        reading: Reading | None = None,
        confirmed: bool = False,
    ) -> TurnResult:
        """Steps 8-11: validate, gate, execute, and say what happened.

        A plan made for the words (with their `reading`: the reading's own,
        a learned one or the model's) is grounded in them; follow-ups and
        HA's sentences are not. A plan against the words (a verb's opposite)
        does not run in part: it is refused.
        """
        mentions = reading.mentions if reading else None
        try:
            plan = validate_plan(
                self._hass,
                plan,
                catalog,
                offered_args_only=source in (Source.MODEL, Source.LEARNED),
            )
        except ToolQuestion as question:
            utterance.trace(tool_question=question.question.key)
            speech = utterance.phrases.say(question.question)
            return TurnResult(speech, Outcome.CLARIFY, source, plan)
        except PlanError as err:
            # A per-turn detail (the trace has it), not an outage.
            LOGGER.debug("Rejected a plan: %s (%s)", err.rejection, err.detail)
            utterance.trace(rejection=err.rejection, detail=err.detail)
            raise ModelFailedError("plan_rejected", str(err.rejection)) from err

        if reading is not None and (against := against_the_words(plan, reading)):
            utterance.trace(against_the_words=[a.tool for a in against])
            raise ModelFailedError("plan_rejected", "against_the_words")
        # A no to an automation's own question leaves what it asked about
        # alone, whichever path planned it.
        if refused := automation_refused(
            plan, utterance.automation, utterance.text, utterance.language, catalog
        ):
            utterance.trace(refused_by_the_answer=[a.tool for a in refused])
            plan = replace(
                plan, actions=tuple(a for a in plan.actions if a not in refused)
            )
            if not (plan.actions or plan.speech or plan.clarify):
                return TurnResult(
                    utterance.say("cancelled"), Outcome.CANCELLED, source, plan
                )
        if source is Source.MODEL:
            answer = answer_only(
                plan, catalog, asked=bool(reading and reading.question)
            )
            if answer != plan:
                utterance.trace(question_dropped=[a.tool for a in plan.actions])
                if not (answer.actions or answer.speech):  # acted, never answered
                    raise ModelFailedError("plan_rejected", "no_answer")
                plan = answer
            # A yes to an automation's own question confirms what it asked.
            confirmed = automation_confirms(
                plan, utterance.automation, utterance.text, utterance.language, catalog
            )
        # Words that leave others unexplained and open with no verb may only
        # quote a script's name ("she always said good night", "the kids
        # run around on movie night").
        commanded = reading is None or reading.imperative or not reading.unexplained
        gated = self._gate(
            utterance, plan, catalog, source, mentions, confirmed, commanded
        )
        if isinstance(gated, TurnResult):
            return gated
        plan, grounded = gated
        if not self._in_flight.is_latest(utterance):
            raise SupersededError

        outcomes = await async_execute(
            self._hass,
            plan.actions,
            utterance.user_input.context,
            # Actions share the turn's deadline, with a moment for the last
            # ones when the model used nearly all of it.
            max(utterance.deadline, self._hass.loop.time() + MIN_ACTION_TIME),
            catalog.tools,
        )
        utterance.trace(
            outcomes=[{"tool": o.action.tool, "error": o.error} for o in outcomes]
        )
        executed = [o.as_executed() for o in outcomes if o.ok]
        if any(not o.ok for o in outcomes):
            return TurnResult(
                failure_speech(self._hass, utterance.phrases, outcomes),
                Outcome.PARTIAL if executed else Outcome.FAILED,
                source,
                plan,
                outcomes,
                executed,
            )
        speech = await self._async_phrase(utterance, plan, outcomes)
        result = TurnResult(speech, Outcome.DONE, source, plan, outcomes, executed)
        if source is Source.MODEL and mentions is not None and grounded is not None:
            result.lesson = self._lesson(utterance, plan, grounded, mentions, catalog)
        return result

    def _lesson(
        self,
        utterance: Utterance,
        plan: Plan,
        grounded: Grounded,
        mentions: Mentions,
        catalog: Catalog,
    ) -> Lesson | None:
        """What a model plan that ran may teach: not an answer to a question."""
        if (
            not self._settings.learn_commands
            or utterance.pending
            or utterance.automation
        ):
            return None
        return lesson(
            plan,
            grounded,
            mentions,
            catalog,
            utterance.language,
            self._settings.confirm_domains,
            utterance.text,
        )

    def _gate(
        self,
        utterance: Utterance,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        mentions: Mentions | None,
        confirmed: bool,
        commanded: bool,
    ) -> TurnResult | tuple[Plan, Grounded | None]:
        """Step 9: the plan to run now (and its grounding), or the reply."""
        if utterance.dry_run:
            # What the plan would do, from its actions: a model's own words
            # may say one thing and plan another.
            speech = (
                confirm_question(self._hass, utterance.phrases, plan.actions)
                if plan.actions
                else plan.clarify or plan.speech
            )
            return TurnResult(speech, Outcome.PLANNED, source, plan)
        pending = utterance.pending
        gated = gate(
            plan,
            catalog,
            self._settings.confidence_threshold,
            self._settings.confirm_policy,
            confirmed=confirmed,
            mentions=mentions,
            last_targets=utterance.last_targets,
            offered=pending.offered if pending else (),
            said=words(utterance.text),
            commanded=commanded,
        )
        decision, grounding = gated.decision, gated.grounding
        utterance.trace(decision=decision)
        if decision is Decision.CLARIFY:
            return TurnResult(plan.clarify or "", Outcome.CLARIFY, source, plan)
        if decision is Decision.UNSURE:
            raise refuse("not_sure")
        if isinstance(grounding, Ungrounded):
            utterance.trace(ungrounded=[a.tool for a in plan.actions])
            return ungrounded_reply(
                self._hass, utterance.phrases, plan, grounding.choices, source
            )
        if isinstance(grounding, Grounded):
            utterance.trace(grounded=dict(grounding.bases))
            if grounding.dropped:
                utterance.trace(dropped=[a.tool for a in grounding.dropped])
        plan = gated.plan
        if decision is Decision.CONFIRM:
            speech = confirm_question(self._hass, utterance.phrases, plan.actions)
            return TurnResult(speech, Outcome.CONFIRM, source, plan, pending_plan=plan)
        if not plan.actions:
            return TurnResult(plan.speech, Outcome.ANSWERED, source, plan)
        return plan, grounding

    async def _async_phrase(
        self, utterance: Utterance, plan: Plan, outcomes: Sequence[ActionOutcome]
    ) -> str:
        """Step 11: what ran, in words; data phrased by a second model call.

        The model's own speech is never heard about actions: it may say one
        thing and plan another.
        """
        results = [
            {"tool": o.action.tool, "result": o.result} for o in outcomes if o.result
        ]
        # The model's words only for data it was asked for: an answer.
        said = (
            done_speech(self._hass, utterance.phrases, outcomes)
            or (plan.speech if results else "")
            or utterance.say("done")
        )
        if not results:
            return said
        return await self._planner.async_phrase(utterance, results) or said
