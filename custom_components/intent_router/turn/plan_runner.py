"""Steps 8-11 for a plan from any path: validate, gate, execute, respond.

Follow-ups, HA's held sentences, learned commands and the model all hand
their plan to `PlanRunner.async_run`: one validation, one gate (gate.py),
one executor and replies built from what ran. A plan made for the words
(the model's or a learned one) comes with what the words point at, and is
grounded in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from homeassistant.util import dt as dt_util

from ..const import LOGGER
from ..core.records import Outcome
from ..core.speech import refuse
from ..deciding.facts import speaks_of_home, unfounded
from ..deciding.gate import Decision, Facts, Gated, gate
from ..deciding.grounding import Grounded, Ungrounded
from ..deciding.learned import lesson
from ..deciding.plan import PlanError, validate_plan
from ..deciding.utterance import ModelFailedError
from ..home.executor import ActionOutcome, async_execute
from ..home.tools import ToolQuestion
from ..reading.reading import Reading
from .replies import (
    Source,
    TurnResult,
    already_speech,
    confirm_question,
    done_speech,
    failure_speech,
    ungrounded_reply,
)

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..core.records import Plan
    from ..core.settings import Settings
    from ..deciding.utterance import InFlight, Utterance
    from ..home.catalog import Catalog
    from ..model.planner import Planner

# Seconds actions get at least, when the model took the turn's whole budget.
MIN_ACTION_TIME = 1.0


class PlanRunner:
    """Carries out plans for one agent."""

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
        HA's sentences are not. What may run is the gate's alone (gate.py).
        """
        valid = self._validated(utterance, plan, catalog, source)
        if isinstance(valid, TurnResult):
            return valid
        gated = gate(valid, self._facts(utterance, catalog, source, reading, confirmed))
        if (reply := self._reply(utterance, gated, source, catalog)) is not None:
            return reply
        if not self._in_flight.is_latest(utterance):
            return superseded(utterance, source)
        outcomes = await self._async_execute(utterance, gated.plan, catalog)
        return await self._async_ran(
            utterance, gated, outcomes, catalog, source, reading
        )

    def _validated(
        self, utterance: Utterance, plan: Plan, catalog: Catalog, source: Source
    ) -> Plan | TurnResult:
        """Step 8: the plan checked against the catalog, or a tool's question back."""
        try:
            return validate_plan(
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

    async def _async_execute(
        self, utterance: Utterance, plan: Plan, catalog: Catalog
    ) -> list[ActionOutcome]:
        """Step 10: the plan's actions run within the turn's deadline, traced."""
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
            outcomes=[
                {"tool": o.action.tool, "error": o.error}
                | ({"result": o.result} if o.result is not None else {})
                for o in outcomes
            ]
        )
        return outcomes

    async def _async_ran(
        self,
        utterance: Utterance,
        gated: Gated,
        outcomes: list[ActionOutcome],
        catalog: Catalog,
        source: Source,
        reading: Reading | None,
    ) -> TurnResult:
        """Step 11: what ran, or what failed, said; and the lesson it teaches."""
        plan = gated.plan
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
        speech = await self._async_phrase(utterance, plan, outcomes, catalog)
        taught = (
            lesson(
                plan,
                reading.mentions,
                catalog,
                self._settings.confirm_domains,
                utterance.said,
            )
            if gated.learnable and reading is not None
            else None
        )
        return TurnResult(
            speech, Outcome.DONE, source, plan, outcomes, executed, lesson=taught
        )

    def _facts(
        self,
        utterance: Utterance,
        catalog: Catalog,
        source: Source,
        reading: Reading | None,
        confirmed: bool,
    ) -> Facts:
        """What the gate weighs of this turn besides the plan."""
        pending = utterance.pending
        return Facts(
            catalog,
            self._settings.confidence_threshold,
            self._settings.confirm_policy,
            utterance.said,
            reading=reading,
            automation=utterance.automation,
            pending=pending is not None,
            offered=pending.offered if pending else (),
            last_targets=utterance.last_targets(reading.verbs if reading else ()),
            confirmed=confirmed,
            from_model=source is Source.MODEL,
            learn=self._settings.learn_commands,
            dry_run=utterance.dry_run,
        )

    def _reply(
        self, utterance: Utterance, gated: Gated, source: Source, catalog: Catalog
    ) -> TurnResult | None:
        """Step 9: the gate's verdict as the reply, or None when the plan runs."""
        if gated.against:
            utterance.trace(against_the_words=[a.tool for a in gated.against])
        if gated.refused:
            utterance.trace(refused_by_the_answer=[a.tool for a in gated.refused])
        if gated.question_dropped:
            utterance.trace(question_dropped=[a.tool for a in gated.question_dropped])
        plan, decision = gated.plan, gated.decision
        if gated.refusal is not None:
            raise ModelFailedError("plan_rejected", gated.refusal)
        if decision is Decision.CANCELLED:
            return TurnResult(
                utterance.say("cancelled"), Outcome.CANCELLED, source, plan
            )
        if decision is Decision.PLANNED:
            # What the plan would do, from its actions: a model's own words
            # may say one thing and plan another.
            speech = (
                confirm_question(self._hass, utterance.phrases, plan.actions)
                if plan.actions
                else plan.clarify or plan.speech
            )
            return TurnResult(speech, Outcome.PLANNED, source, plan)
        return self._weighed(utterance, gated, source, catalog)

    def _weighed(
        self, utterance: Utterance, gated: Gated, source: Source, catalog: Catalog
    ) -> TurnResult | None:
        """A question back, doubt, or the answer; None when the plan runs."""
        plan, decision, grounding = gated.plan, gated.decision, gated.grounding
        utterance.trace(decision=decision)
        if decision is Decision.CLARIFY:
            return self._asked_instead(utterance, gated, source)
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
        if decision is Decision.ALREADY:
            targets = tuple(t for action in plan.actions for t in action.targets)
            utterance.trace(already=list(targets))
            speech = already_speech(utterance.phrases, plan.actions, catalog)
            return TurnResult(speech, Outcome.ANSWERED, source, plan, about=targets)
        if decision is Decision.CONFIRM:
            speech = confirm_question(self._hass, utterance.phrases, plan.actions)
            return TurnResult(speech, Outcome.CONFIRM, source, plan, pending_plan=plan)
        if decision is Decision.ANSWER:
            said = self._founded(utterance, plan.speech, catalog)
            return TurnResult(said, Outcome.ANSWERED, source, plan)
        return None

    def _asked_instead(
        self, utterance: Utterance, gated: Gated, source: Source
    ) -> TurnResult:
        """The home's question in place of the model's, which is never heard.

        A small model asks the user's question back. What its plan would do
        is asked about where the words ground it; which one, where they
        leave a choice; else it is not sure.
        """
        plan, grounding = gated.plan, gated.grounding
        utterance.trace(model_question=plan.clarify)
        if plan.actions and isinstance(grounding, Ungrounded):
            return ungrounded_reply(
                self._hass, utterance.phrases, plan, grounding.choices, source
            )
        if not (plan.actions and isinstance(grounding, Grounded)):
            raise refuse("not_sure")
        asked = grounding.plan
        speech = confirm_question(self._hass, utterance.phrases, asked.actions)
        return TurnResult(speech, Outcome.CONFIRM, source, asked, pending_plan=asked)

    @staticmethod
    def _founded(
        utterance: Utterance, said: str, catalog: Catalog, data: Any = None
    ) -> str:
        """The model's own words, or "I don't know" when they hold what nothing gave.

        Its answer of its own (no `data`) says nothing of the home either.
        """
        language = utterance.language
        if not unfounded(said, catalog, language, data, dt_util.now()) and (
            data is not None or not speaks_of_home(said, catalog, language)
        ):
            return said
        utterance.trace(unfounded=said)
        return utterance.say("dont_know")

    async def _async_phrase(
        self,
        utterance: Utterance,
        plan: Plan,
        outcomes: Sequence[ActionOutcome],
        catalog: Catalog,
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
            or (
                self._founded(utterance, plan.speech, catalog, results)
                if results and plan.speech
                else ""
            )
            or utterance.say("done")
        )
        if not results:
            return said
        phrased = await self._planner.async_phrase(utterance, results)
        if phrased is None:
            return said
        return self._founded(utterance, phrased, catalog, results)


def superseded(utterance: Utterance, source: Source) -> TurnResult:
    """A turn a newer one of its key took over: nothing of it runs."""
    utterance.trace(fallback="superseded")
    return TurnResult(utterance.say("superseded"), Outcome.SUPERSEDED, source)
