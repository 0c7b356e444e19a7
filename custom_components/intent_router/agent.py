"""One utterance, from guard to memory.

The methods of `IntentRouterAgent` follow the flow in this order:

 1 guard      empty text ends quietly; over-long text and more turns a minute
              than a person says get a clear refusal (and are not remembered)
 2 key        the device, else the user, else the conversation: whose memory
 3 recall     that key's recent turns (within their TTL) and the question its
              last turn asked
 4 shortcut   "again", "undo", "stop", "yes", "no": answered from memory
 5 local      HA's own sentences (option `local_first`); those on targets that
              ask first are held for the gate instead of acting
 6 catalog    what the model may see and use for these words and this speaker
 7 plan       words said here before, learned (learned.py), else one model
              call within the turn's budget (planner.py); a newer turn
              cancels it
 8 validate   allowed tools, exposed targets, offered fields, HA's schemas
 9 gate       dry runs, confidence, grounding (each target named, of a kind
              said in the place meant, or referred back to; else "which one?"
              or nothing), confirmation (a yes in the next turn, within a minute)
10 execute    the service and tool calls, with the user's Context, all within
              the turn's deadline
11 respond    the reply built from what ran, in the turn's language
12 remember   store the turn (and what it may teach), count it and fire
              `intent_router_handled`

When the model fails, HA's own sentences get their chance (if step 5 did not
already try them), else the user hears why. Decisions are pure functions in
gate.py; Home Assistant, the model and storage are other modules' business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
import time
from typing import TYPE_CHECKING

from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .catalog import Catalog, async_build_catalog
from .const import EVENT_HANDLED, LOGGER, MAX_TEXT_LENGTH, RATE_LIMIT_PER_MINUTE
from .context_store import ContextStore, Turn, context_key
from .domains import asks_first
from .executor import ActionOutcome, async_execute
from .fallback import Held, async_handle_locally, executed_actions
from .gate import (
    Decision,
    Ungrounded,
    answer_only,
    automation_confirms,
    available_shortcuts,
    check_grounding,
    decide,
    follow_up_actions,
    last_acted,
)
from .language import Shortcut
from .learned import LearnedCommands, Lesson, fingerprint, lesson, sentence_key
from .llm_client import Completion, LLMClient
from .plan import Plan, PlanError, parse_plan, validate_plan
from .planner import Planner
from .replies import (
    AgentReply,
    Outcome,
    Source,
    TurnResult,
    build_response,
    confirm_question,
    done_speech,
    failure_speech,
    local_result,
    target_names,
    ungrounded_reply,
)
from .shortcuts import match_shortcut
from .speech import Phrasebooks, SpokenError, phrase, refuse
from .tools import ToolQuestion
from .utterance import (
    InFlight,
    ModelFailedError,
    Pending,
    RateLimiter,
    SupersededError,
    Utterance,
    automation_question,
)

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant

    from .settings import Settings
    from .stats import TurnStats
    from .tools import ToolSource


# Seconds actions get at least, when the model took the turn's whole budget.
MIN_ACTION_TIME = 1.0


class IntentRouterAgent:
    """Routes utterances for one config entry (one model server)."""

    def __init__(  # noqa: PLR0913 - collaborators are passed in, not looked up
        self,
        hass: HomeAssistant,
        *,
        entry_id: str,
        settings: Settings,
        client: LLMClient,
        context: ContextStore,
        learned: LearnedCommands,
        tool_sources: Iterable[ToolSource],
        stats: TurnStats,
        languages: frozenset[str],
        on_auth_failed: Callable[[], None],
    ) -> None:
        """Keep the collaborators; `languages` are the shipped translations."""
        self._hass = hass
        self._entry_id = entry_id
        self._settings = settings
        self._context = context
        self._learned = learned
        self._tool_sources = tuple(tool_sources)
        self._stats = stats
        self._phrasebooks = Phrasebooks(hass, languages)
        self._in_flight = InFlight()
        self.planner = Planner(
            hass, client, settings, self._tool_sources, self._in_flight, on_auth_failed
        )
        self._pending: dict[str, Pending] = {}
        self._rate_limiter = RateLimiter(RATE_LIMIT_PER_MINUTE)

    async def async_handle(
        self,
        user_input: ConversationInput,
        chat_log: ChatLog,
        *,
        area_id: str | None = None,
        dry_run: bool = False,
    ) -> AgentReply:
        """Handle one turn; errors become spoken, translated replies.

        `area_id` stands in for the speaker's area; `dry_run` validates and
        returns the plan without running it, remembering nothing.
        """
        started = time.monotonic()
        text = user_input.text.strip()
        if not text:
            response = intent.IntentResponse(language=user_input.language)
            response.async_set_speech("")
            return AgentReply(response)
        turn = Utterance(
            user_input,
            chat_log,
            text,
            context_key(user_input, chat_log),
            self._hass.loop.time() + self._settings.timeout,
            await self._phrasebooks.async_get(user_input.language),
            area_id=area_id,
            dry_run=dry_run,
        )
        try:
            self._guard(turn)
        except SpokenError as err:
            # Refused before anything happened: nothing to remember.
            result = self._refusal(turn, err)
        else:
            result = await self._async_run_turn(turn)
            if not dry_run and result.outcome is not Outcome.SUPERSEDED:
                self._remember(turn, result)
        self._report(turn, result, started)
        response = build_response(self._hass, user_input.language, result)
        return AgentReply(response, result.continue_conversation, result)

    def _guard(self, turn: Utterance) -> None:
        """Step 1: refuse over-long text and more turns than a person says."""
        if len(turn.text) > MAX_TEXT_LENGTH:
            raise refuse("text_too_long", max_length=str(MAX_TEXT_LENGTH))
        if not self._rate_limiter.allow(turn.key):
            raise refuse("rate_limited")

    async def _async_run_turn(self, turn: Utterance) -> TurnResult:
        """Steps 2-11 as the key's newest turn; a newer one supersedes it."""
        self._in_flight.begin(turn)
        self._recall(turn)
        try:
            result = await self._async_route(turn)
        except SupersededError:
            turn.trace(fallback="superseded")
            return TurnResult(turn.say("superseded"), Outcome.SUPERSEDED, Source.MODEL)
        except SpokenError as err:
            result = self._refusal(turn, err)
        except HomeAssistantError as err:
            turn.trace(error=err.translation_key)
            result = TurnResult(str(err), Outcome.ERROR, Source.FALLBACK)
        finally:
            self._in_flight.end(turn)
        if not turn.dry_run and result.continue_conversation:
            self._pending[turn.key] = Pending.asked(
                turn, result.pending_plan, result.offered
            )
        return result

    def _recall(self, turn: Utterance) -> None:
        """Step 3: recent turns, the last turn's question, an automation's."""
        turn.history = self._context.recent(turn.key)
        turn.automation = automation_question(turn.user_input, turn.chat_log)
        pending = self._pending.pop(turn.key, None)
        if pending is not None and pending.expires >= time.monotonic():
            turn.pending = pending

    def _refusal(self, turn: Utterance, err: SpokenError) -> TurnResult:
        """A turn that ends with an explanation in the turn's language."""
        turn.trace(error=err.phrase.key)
        return TurnResult(turn.phrases.say(err.phrase), Outcome.ERROR, Source.FALLBACK)

    async def _async_route(self, turn: Utterance) -> TurnResult:
        """Steps 4-10: shortcuts, local intents, the model, fallback."""
        history = turn.history
        # A yes to an automation's question means what it asked: the model.
        allowed = available_shortcuts(
            history, asked=turn.pending is not None, automation=bool(turn.automation)
        )
        shortcut = match_shortcut(turn.text, turn.user_input.language, allowed)
        if shortcut is not None and not turn.dry_run:
            turn.trace(shortcut=shortcut)
            return await self._async_shortcut(turn, shortcut)

        settings = self._settings
        # Local intents act as they match, so a dry run can only ask the model.
        tried_local = not turn.dry_run and (
            settings.local_first or not settings.use_llm
        )
        if tried_local and (local := await self._async_local(turn, Source.LOCAL)):
            return local
        if not settings.use_llm:
            raise refuse("not_understood_locally")

        try:
            catalog = await self._async_catalog(
                turn,
                # With the question it answers: "yes, close it" names nothing.
                turn.words,
                [t for past in history for a in past.actions for t in a.targets],
            )
            if learned := await self._async_learned(turn, catalog):
                return learned
            completion = await self.planner.async_plan(turn, catalog)
            plan = _parse(completion)
            turn.trace(plan=plan.as_dict())
            result = await self._async_carry_out(turn, plan, catalog, Source.MODEL)
        except ModelFailedError as failure:
            turn.trace(fallback=failure.reason)
            if (
                not tried_local
                and not turn.dry_run
                and (local := await self._async_local(turn, Source.FALLBACK))
            ):
                return local
            raise refuse(failure.key) from failure
        result.completion = completion
        return result

    async def _async_shortcut(self, turn: Utterance, shortcut: Shortcut) -> TurnResult:
        """Step 4: answer a follow-up from memory, with no model call."""
        if shortcut is Shortcut.NO:
            return TurnResult(turn.say("cancelled"), Outcome.CANCELLED, Source.SHORTCUT)
        pending = turn.pending.plan if turn.pending else None
        if shortcut is Shortcut.YES:
            if pending is None:
                return TurnResult(
                    turn.say("nothing_to_confirm"), Outcome.ANSWERED, Source.SHORTCUT
                )
            plan = pending
            confirmed = True
        else:
            acted = last_acted(turn.history)
            actions = follow_up_actions(shortcut, acted) if acted else []
            if acted is None or not actions:
                return TurnResult(
                    turn.say(f"nothing_to_{shortcut}"),
                    Outcome.ANSWERED,
                    Source.SHORTCUT,
                )
            plan = Plan(tuple(actions), "", 1.0)
            confirmed = False
            if shortcut is Shortcut.UNDO:
                # Undone is not wanted: not to be learned, nor kept learned.
                self._learned.forget_sentence(acted.text)
        catalog = await self._async_catalog(
            turn, "", [t for a in plan.actions for t in a.targets]
        )
        try:
            result = await self._async_carry_out(
                turn, plan, catalog, Source.SHORTCUT, confirmed=confirmed
            )
        except ModelFailedError as failure:
            # Something it acted on is gone or no longer exposed or allowed.
            raise refuse("follow_up_rejected") from failure
        if (
            shortcut in (Shortcut.UNDO, Shortcut.STOP)
            and result.outcome is Outcome.DONE
        ):
            names = target_names(self._hass, (o.action for o in result.outcomes))
            result.speech = turn.phrases.say(phrase(f"{shortcut}_done", targets=names))
        return result

    async def _async_local(self, turn: Utterance, source: Source) -> TurnResult | None:
        """Step 5: HA's strict local intents; remembered like any other turn.

        A sentence whose targets ask first is recognised, not handled: what it
        would do goes through the gate like any plan.
        """
        before = {state.entity_id: state for state in self._hass.states.async_all()}
        confirm = self._settings.confirm_domains
        response = await async_handle_locally(
            self._hass,
            turn.user_input,
            turn.chat_log,
            lambda state: asks_first(
                state.domain, state.attributes.get("device_class"), confirm
            ),
        )
        turn.trace(local_match=response is not None)
        if isinstance(response, Held):
            if not response.actions:
                return None
            plan = Plan(response.actions, "", 1.0)
            catalog = await self._async_catalog(
                turn, "", [t for a in plan.actions for t in a.targets]
            )
            return await self._async_carry_out(turn, plan, catalog, source)
        if response is None:
            return None
        return local_result(response, executed_actions(response, before), source)

    async def _async_catalog(
        self, turn: Utterance, text: str, recent_targets: Sequence[str]
    ) -> Catalog:
        """Step 6: what the model may see and use for these words."""
        return await async_build_catalog(
            self._hass,
            text,
            turn.user_input.language,
            turn.user_input.device_id,
            self._settings.allowed_domains,
            recent_targets,
            self._tool_sources,
            turn.area_id,
        )

    async def _async_learned(
        self, turn: Utterance, catalog: Catalog
    ) -> TurnResult | None:
        """Step 7, skipped: these words here ran before and stood (learned.py).

        Not for an answer to a question or an automation's: the words alone
        do not say what those mean.
        """
        if not self._settings.learn_commands or turn.pending or turn.automation:
            return None
        plan = self._learned.lookup(
            sentence_key(turn.text, turn.user_input.language, catalog.speaker_area),
            lambda actions: fingerprint(
                actions,
                turn.mentions_in(catalog),
                catalog,
                self._settings.confirm_domains,
            ),
        )
        if plan is None:
            return None
        turn.trace(learned=plan.as_dict())
        return await self._async_carry_out(turn, plan, catalog, Source.LEARNED)

    async def _async_carry_out(
        self,
        turn: Utterance,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        *,
        confirmed: bool = False,
    ) -> TurnResult:
        """Steps 8-11: validate, gate, execute, and say what happened."""
        try:
            plan = validate_plan(
                self._hass,
                plan,
                catalog,
                offered_args_only=source in (Source.MODEL, Source.LEARNED),
            )
        except ToolQuestion as question:
            turn.trace(tool_question=question.question.key)
            speech = turn.phrases.say(question.question)
            return TurnResult(speech, Outcome.CLARIFY, source, plan)
        except PlanError as err:
            LOGGER.info("Rejected a plan: %s", err.rejection)
            LOGGER.debug("Rejected plan detail: %s", err.detail)
            turn.trace(rejection=err.rejection, detail=err.detail)
            raise ModelFailedError("plan_rejected", str(err.rejection)) from err

        if source is Source.MODEL:
            answer = answer_only(plan, catalog, turn.text, turn.user_input.language)
            if answer != plan:
                turn.trace(question_dropped=[a.tool for a in plan.actions])
                if not (answer.actions or answer.speech):  # acted, never answered
                    raise ModelFailedError("plan_rejected", "no_answer")
                plan = answer
            # A yes to an automation's own question confirms what it asked.
            confirmed = automation_confirms(
                plan, turn.automation, turn.text, turn.user_input.language, catalog
            )
        gated = self._gate(turn, plan, catalog, source, confirmed)
        if isinstance(gated, TurnResult):
            return gated
        plan = gated
        if not self._in_flight.is_latest(turn):
            raise SupersededError

        outcomes = await async_execute(
            self._hass,
            plan.actions,
            turn.user_input.context,
            # Actions share the turn's deadline, with a moment for the last
            # ones when the model used nearly all of it.
            max(turn.deadline, self._hass.loop.time() + MIN_ACTION_TIME),
            catalog.tools,
        )
        turn.trace(
            outcomes=[{"tool": o.action.tool, "error": o.error} for o in outcomes]
        )
        executed = [o.as_executed() for o in outcomes if o.ok]
        if any(not o.ok for o in outcomes):
            return TurnResult(
                failure_speech(self._hass, turn.phrases, outcomes),
                Outcome.PARTIAL if executed else Outcome.FAILED,
                source,
                plan,
                outcomes,
                executed,
            )
        speech = await self._async_phrase(turn, plan, outcomes)
        result = TurnResult(speech, Outcome.DONE, source, plan, outcomes, executed)
        if source is Source.MODEL:
            result.lesson = self._lesson(turn, plan, catalog)
        return result

    def _lesson(self, turn: Utterance, plan: Plan, catalog: Catalog) -> Lesson | None:
        """What a model plan that ran may teach: not an answer to a question."""
        if not self._settings.learn_commands or turn.pending or turn.automation:
            return None
        return lesson(
            plan,
            turn.grounded,
            turn.mentions_in(catalog),
            catalog,
            turn.user_input.language,
            self._settings.confirm_domains,
            turn.text,
        )

    def _ground(
        self, turn: Utterance, plan: Plan, catalog: Catalog
    ) -> TurnResult | Plan:
        """Step 9: what of the plan the words point at, else a question.

        The plan with only its grounded actions and targets; otherwise the
        question naming the devices that fit, or, when none does, that
        nothing was done.
        """
        verdict = check_grounding(
            plan,
            turn.mentions_in(catalog),
            catalog,
            turn.last_targets,
            turn.pending.offered if turn.pending else (),
            self._settings.confirm_domains,
        )
        if isinstance(verdict, Ungrounded):
            turn.trace(ungrounded=[a.tool for a in plan.actions])
            return ungrounded_reply(self._hass, turn.phrases, plan, verdict.choices)
        turn.grounded = verdict
        turn.trace(grounded=dict(verdict.bases))
        if verdict.dropped:
            turn.trace(dropped=[a.tool for a in verdict.dropped])
        return verdict.plan

    def _gate(
        self,
        turn: Utterance,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        confirmed: bool,
    ) -> TurnResult | Plan:
        """Step 9: the plan to run now, or the reply when it is not to run."""
        if turn.dry_run:
            # What the plan would do, from its actions: a model's own words
            # may say one thing and plan another.
            speech = (
                confirm_question(self._hass, turn.phrases, plan.actions)
                if plan.actions
                else plan.clarify or plan.speech
            )
            return TurnResult(speech, Outcome.PLANNED, source, plan)
        settings = self._settings
        decision = decide(plan, settings.confidence_threshold, False)
        if decision is Decision.CLARIFY:
            turn.trace(decision=decision)
            return TurnResult(plan.clarify or "", Outcome.CLARIFY, source, plan)
        if decision is Decision.UNSURE:
            turn.trace(decision=decision)
            raise refuse("not_sure")
        if source in (Source.MODEL, Source.LEARNED) and plan.actions:
            grounded = self._ground(turn, plan, catalog)
            if isinstance(grounded, TurnResult):
                return grounded
            plan = grounded
        decision = decide(
            plan,
            settings.confidence_threshold,
            not confirmed
            and any(
                catalog.needs_confirmation(target, settings.confirm_domains)
                for action in plan.actions
                for target in action.targets
            ),
        )
        turn.trace(decision=decision)
        if decision is Decision.CONFIRM:
            speech = confirm_question(self._hass, turn.phrases, plan.actions)
            return TurnResult(speech, Outcome.CONFIRM, source, plan, pending_plan=plan)
        if not plan.actions:
            return TurnResult(plan.speech, Outcome.ANSWERED, source, plan)
        return plan

    async def _async_phrase(
        self, turn: Utterance, plan: Plan, outcomes: Sequence[ActionOutcome]
    ) -> str:
        """Step 11: what ran, in words; data phrased by a second model call.

        The model's own speech is never heard about actions: it may say one
        thing and plan another.
        """
        results = [
            {"tool": o.action.tool, "result": o.result} for o in outcomes if o.result
        ]
        # The model's words only for data it was asked for: an answer.
        fallback = (
            done_speech(self._hass, turn.phrases, outcomes)
            or (plan.speech if results else "")
            or turn.say("done")
        )
        if not results:
            return fallback
        return await self.planner.async_phrase(turn, results) or fallback

    def _remember(self, turn: Utterance, result: TurnResult) -> None:
        """Step 12: keep the turn, with what ran and any pending question."""
        self._context.add(
            turn.key,
            Turn(
                time=time.time(),
                text=turn.text,
                speech=result.speech,
                outcome=result.outcome,
                source=result.source,
                plan=result.plan.as_dict() if result.plan else None,
                actions=result.executed,
            ),
        )
        self._learned.observe(turn.key, result.lesson, result.executed)

    def _report(self, turn: Utterance, result: TurnResult, started: float) -> None:
        """Step 12: fire `intent_router_handled` and count the turn (no text)."""
        data = {
            "entry_id": self._entry_id,
            "device_id": turn.user_input.device_id,
            "conversation_id": turn.user_input.conversation_id,
            "text_length": len(turn.text),
            "latency_ms": round((time.monotonic() - started) * 1000, 1),
            **result.report(),
        }
        self._stats.record(data)
        self._hass.bus.async_fire(EVENT_HANDLED, data, context=turn.user_input.context)


def _parse(completion: Completion) -> Plan:
    """The model's JSON as a Plan; a malformed one is a model failure."""
    try:
        plan = parse_plan(completion.data)
    except PlanError as err:
        raise ModelFailedError("model_invalid_reply", str(err.rejection)) from err
    return plan
