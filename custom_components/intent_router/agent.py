"""One utterance, from guard to memory (DESIGN.md, "Flow of one utterance").

The decisions along the way (the confidence gate, which follow-ups apply)
are small pure functions; everything that talks to Home Assistant, the model
or storage lives in its own module. Whatever fails, the user hears a short,
translated reply within the time budget, never a stack trace.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
import json
import time
from typing import TYPE_CHECKING, Any

from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .catalog import Catalog, async_build_catalog
from .const import (
    CONF_ALLOWED_DOMAINS,
    CONF_CONFIDENCE_THRESHOLD,
    CONF_CONFIRM_DOMAINS,
    CONF_EXTRA_INSTRUCTIONS,
    CONF_LOCAL_FIRST,
    CONF_MODEL,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_USE_LLM,
    DEFAULT_ALLOWED_DOMAINS,
    DEFAULT_CONFIDENCE_THRESHOLD,
    DEFAULT_CONFIRM_DOMAINS,
    DEFAULT_LOCAL_FIRST,
    DEFAULT_MODEL,
    DEFAULT_TEMPERATURE,
    DEFAULT_TIMEOUT,
    DEFAULT_USE_LLM,
    DOMAIN,
    EVENT_HANDLED,
    LOGGER,
    MAX_TEXT_LENGTH,
    RATE_LIMIT_PER_MINUTE,
)
from .context_store import ExecutedAction, Turn, context_key
from .executor import ActionOutcome, async_execute, entity_name, prior_of, target_names
from .fallback import async_handle_locally, executed_actions
from .llm_client import Completion, LLMAuthError, LLMError
from .plan import Action, Plan, PlanError, parse_plan, plan_json_schema, validate_plan
from .prompt import build_messages, build_phrase_messages, estimate_tokens
from .shortcuts import (
    Shortcut,
    is_state_question,
    match_shortcut,
    stop_actions,
    undo_actions,
)
from .speech import say, translated_error
from .tools import ToolQuestion

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant

    from .data import IntentRouterConfigEntry


# Above this many keys, the rate limiter drops those idle for a minute.
RATE_LIMIT_KEYS = 1000


class Decision(StrEnum):
    """What the confidence gate makes of a valid plan."""

    EXECUTE = "execute"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    UNSURE = "unsure"


class Outcome(StrEnum):
    """How a turn ended, as remembered and reported."""

    DONE = "done"
    PARTIAL = "partial"
    FAILED = "failed"
    ANSWERED = "answered"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    CANCELLED = "cancelled"
    PLANNED = "planned"
    SUPERSEDED = "superseded"
    ERROR = "error"


class Source(StrEnum):
    """What answered a turn."""

    LOCAL = "local"
    MODEL = "model"
    SHORTCUT = "shortcut"
    FALLBACK = "fallback"


def decide(plan: Plan, threshold: float, needs_confirmation: bool) -> Decision:
    """Apply the confidence gate: act, ask which, ask whether, or admit doubt."""
    if plan.clarify and (plan.confidence < threshold or not plan.actions):
        return Decision.CLARIFY
    if plan.confidence < threshold:
        return Decision.UNSURE
    if needs_confirmation and plan.actions:
        return Decision.CONFIRM
    return Decision.EXECUTE


def answer_only(plan: Plan, catalog: Catalog) -> Plan:
    """A plan for a question, without the actions that would change things.

    Questions are answered from states (DESIGN.md, "The plan"); a small model
    sometimes "answers" how warm it is by setting the thermostat. Services
    that return data and tools (music, MCP) may still answer.
    """
    keep = tuple(
        action
        for action in plan.actions
        if action.tool not in catalog.services or catalog.services[action.tool].responds
    )
    return replace(plan, actions=keep)


def available_shortcuts(history: Sequence[Turn]) -> list[Shortcut]:
    """Follow-ups that make sense after these turns (yes/no only when asked)."""
    shortcuts = [Shortcut.AGAIN, Shortcut.UNDO]
    if history and history[-1].pending_plan is not None:
        shortcuts[:0] = [Shortcut.YES, Shortcut.NO]
    if last_acted(history) is not None:
        shortcuts.append(Shortcut.STOP)
    return shortcuts


def last_acted(history: Sequence[Turn]) -> Turn | None:
    """The most recent turn that changed something."""
    return next((turn for turn in reversed(history) if turn.actions), None)


class ModelFailedError(Exception):
    """The model path gave nothing usable; `key` is the spoken explanation."""

    def __init__(self, key: str, reason: str) -> None:
        """Keep the translation key and the reason class for the trace."""
        super().__init__(reason)
        self.key = key
        self.reason = reason


@dataclass(slots=True)
class TurnResult:
    """What happened in a turn, before it becomes a reply and a memory."""

    speech: str
    outcome: Outcome
    source: Source
    plan: Plan | None = None
    outcomes: list[ActionOutcome] = field(default_factory=list)
    executed: list[ExecutedAction] = field(default_factory=list)
    pending_plan: Plan | None = None
    # A local intent's own response, passed through as it is.
    response: intent.IntentResponse | None = None
    completion: Completion | None = None

    @property
    def continue_conversation(self) -> bool:
        """A question was asked: keep the microphone open for the answer."""
        return self.outcome in (Outcome.CLARIFY, Outcome.CONFIRM)


@dataclass(slots=True)
class AgentReply:
    """The reply to one turn, whether the microphone stays open, and details."""

    response: intent.IntentResponse
    continue_conversation: bool = False
    # What happened (absent for empty input), for the `route` action.
    result: TurnResult | None = None

    @property
    def speech(self) -> str:
        """The plain-text speech of the response."""
        return str(self.response.speech.get("plain", {}).get("speech", ""))


@dataclass(slots=True)
class _Turn:
    """One utterance on its way through the flow."""

    user_input: ConversationInput
    chat_log: ChatLog
    text: str
    key: str
    deadline: float
    # Set by the `route` action: a room to act for, and plan-only runs.
    area_id: str | None = None
    dry_run: bool = False

    def trace(self, details: dict[str, Any]) -> None:
        """Add details to Assist's debug trace of this turn."""
        self.chat_log.async_trace(details)


class IntentRouterAgent:
    """Routes utterances for one config entry (one model server)."""

    def __init__(self, hass: HomeAssistant, entry: IntentRouterConfigEntry) -> None:
        """Bind the agent to its entry; options are read per turn."""
        self._hass = hass
        self._entry = entry
        self._model_calls: dict[str, asyncio.Task[Completion]] = {}
        self._turn_times: dict[str, deque[float]] = {}

    def _option(self, key: str, default: Any) -> Any:
        return self._entry.options.get(key, default)

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
        turn = _Turn(
            user_input,
            chat_log,
            text,
            # The chat log's id: the input's is None on a conversation's
            # first turn, before HA's chat session assigns one.
            context_key(
                user_input.device_id,
                user_input.context.user_id,
                chat_log.conversation_id,
            ),
            self._hass.loop.time() + float(self._option(CONF_TIMEOUT, DEFAULT_TIMEOUT)),
            area_id=area_id,
            dry_run=dry_run,
        )
        try:
            self._guard(turn)
            result = await self._async_route(turn)
        except HomeAssistantError as err:
            turn.trace({"error": err.translation_key})
            result = TurnResult(str(err), Outcome.ERROR, Source.FALLBACK)
        if not dry_run and result.outcome is not Outcome.SUPERSEDED:
            self._remember(turn, result)
        self._report(turn, result, started)
        return AgentReply(
            self._response(turn, result), result.continue_conversation, result
        )

    def _guard(self, turn: _Turn) -> None:
        """Step 1: refuse over-long text and more turns than a person says."""
        if len(turn.text) > MAX_TEXT_LENGTH:
            raise translated_error("text_too_long", max_length=str(MAX_TEXT_LENGTH))
        now = time.monotonic()
        if len(self._turn_times) > RATE_LIMIT_KEYS:
            # Keys without a device (chats) come and go: forget the idle ones.
            self._turn_times = {
                key: times
                for key, times in self._turn_times.items()
                if times and now - times[-1] <= 60  # noqa: PLR2004 - per minute
            }
        times = self._turn_times.setdefault(turn.key, deque())
        while times and now - times[0] > 60:  # noqa: PLR2004 - per minute
            times.popleft()
        if len(times) >= RATE_LIMIT_PER_MINUTE:
            raise translated_error("rate_limited")
        times.append(now)

    async def _async_route(self, turn: _Turn) -> TurnResult:
        """Steps 3-11: memory, shortcuts, local intents, the model, fallback."""
        history = self._entry.runtime_data.context.recent(turn.key)
        shortcut = match_shortcut(
            turn.text, turn.user_input.language, available_shortcuts(history)
        )
        if shortcut is not None and not turn.dry_run:
            turn.trace({"shortcut": shortcut})
            return await self._async_shortcut(turn, shortcut, history)

        use_llm = self._option(CONF_USE_LLM, DEFAULT_USE_LLM)
        # Local intents act as they match, so a dry run can only ask the model.
        tried_local = not turn.dry_run and (
            self._option(CONF_LOCAL_FIRST, DEFAULT_LOCAL_FIRST) or not use_llm
        )
        if tried_local and (local := await self._async_local(turn, Source.LOCAL)):
            return local
        if not use_llm:
            raise translated_error("not_understood_locally")

        try:
            catalog = await self._async_catalog(
                turn,
                turn.text,
                [t for past in history for a in past.actions for t in a.targets],
            )
            completion = await self._async_plan(turn, catalog, history)
            plan = _parse(completion)
            turn.trace({"plan": plan.as_dict()})
            result = await self._async_carry_out(turn, plan, catalog, Source.MODEL)
        except ModelFailedError as failure:
            turn.trace({"fallback": failure.reason})
            if failure.reason == "superseded":
                return TurnResult(say("superseded"), Outcome.SUPERSEDED, Source.MODEL)
            if (
                not tried_local
                and not turn.dry_run
                and (local := await self._async_local(turn, Source.FALLBACK))
            ):
                return local
            raise translated_error(failure.key) from failure
        result.completion = completion
        return result

    async def _async_catalog(
        self, turn: _Turn, text: str, recent_targets: Sequence[str]
    ) -> Catalog:
        return await async_build_catalog(
            self._hass,
            text,
            turn.user_input.device_id,
            self._option(CONF_ALLOWED_DOMAINS, DEFAULT_ALLOWED_DOMAINS),
            recent_targets,
            self._entry.runtime_data.tool_sources,
            turn.area_id,
        )

    async def _async_local(self, turn: _Turn, source: Source) -> TurnResult | None:
        """Step 5: HA's strict local intents; remembered like any other turn."""
        before = {state.entity_id: state for state in self._hass.states.async_all()}
        response = await async_handle_locally(
            self._hass, turn.user_input, turn.chat_log
        )
        turn.trace({"local_match": response is not None})
        if response is None:
            return None
        prior = {
            target.id: prior_of(before[target.id])
            for target in response.success_results
            if target.id in before
        }
        outcome = {
            intent.IntentResponseType.QUERY_ANSWER: Outcome.ANSWERED,
            intent.IntentResponseType.ERROR: Outcome.FAILED,
        }.get(response.response_type, Outcome.DONE)
        speech = str(response.speech.get("plain", {}).get("speech", ""))
        return TurnResult(
            speech,
            outcome,
            source,
            executed=executed_actions(response, prior),
            response=response,
        )

    async def _async_shortcut(
        self, turn: _Turn, shortcut: Shortcut, history: Sequence[Turn]
    ) -> TurnResult:
        """Step 4: answer a follow-up from memory, with no model call."""
        if shortcut is Shortcut.NO:
            return TurnResult(say("cancelled"), Outcome.CANCELLED, Source.SHORTCUT)
        pending = history[-1].pending_plan if history else None
        if shortcut is Shortcut.YES and pending is not None:
            try:
                plan = parse_plan(pending)
            except PlanError as err:  # stored by an older version, say
                raise translated_error("follow_up_rejected") from err
            confirmed = True
        else:
            acted = last_acted(history)
            actions = _follow_up_actions(shortcut, acted)
            if acted is None or not actions:
                return TurnResult(
                    say(f"nothing_to_{shortcut}"), Outcome.ANSWERED, Source.SHORTCUT
                )
            speech = acted.speech if shortcut is Shortcut.AGAIN else ""
            plan = Plan(tuple(actions), speech, 1.0)
            confirmed = False
        catalog = await self._async_catalog(
            turn, "", [t for a in plan.actions for t in a.targets]
        )
        try:
            result = await self._async_carry_out(
                turn, plan, catalog, Source.SHORTCUT, confirmed=confirmed
            )
        except ModelFailedError as failure:
            # Something it acted on is gone or no longer exposed or allowed.
            raise translated_error("follow_up_rejected") from failure
        if (
            shortcut in (Shortcut.UNDO, Shortcut.STOP)
            and result.outcome is Outcome.DONE
        ):
            names = target_names(self._hass, result.outcomes)
            result.speech = say(f"{shortcut}_done", targets=names)
        return result

    async def _async_carry_out(
        self,
        turn: _Turn,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        *,
        confirmed: bool = False,
    ) -> TurnResult:
        """Steps 8-11: validate, gate, execute, and say what happened."""
        try:
            plan = validate_plan(self._hass, plan, catalog)
        except ToolQuestion as question:
            turn.trace({"tool_question": question.question})
            return TurnResult(question.question, Outcome.CLARIFY, source, plan)
        except PlanError as err:
            LOGGER.info("Rejected a plan: %s", err.rejection)
            LOGGER.debug("Rejected plan detail: %s", err.detail)
            turn.trace({"rejection": err.rejection, "detail": err.detail})
            raise ModelFailedError("plan_rejected", str(err.rejection)) from err

        if source is Source.MODEL and is_state_question(
            turn.text, turn.user_input.language
        ):
            answer = answer_only(plan, catalog)
            if answer.actions != plan.actions:
                turn.trace({"question_dropped": [a.tool for a in plan.actions]})
                plan = answer
        if (stop := self._gate(turn, plan, catalog, source, confirmed)) is not None:
            return stop

        outcomes = await async_execute(
            self._hass,
            plan.actions,
            turn.user_input.context,
            float(self._option(CONF_TIMEOUT, DEFAULT_TIMEOUT)),
            catalog.tools,
        )
        turn.trace(
            {"outcomes": [{"tool": o.action.tool, "error": o.error} for o in outcomes]}
        )
        executed = [o.as_executed() for o in outcomes if o.ok]
        failed = [o for o in outcomes if not o.ok]
        if failed:
            return TurnResult(
                self._failure_speech(outcomes),
                Outcome.PARTIAL if executed else Outcome.FAILED,
                source,
                plan,
                outcomes,
                executed,
            )
        speech = await self._async_phrase(turn, plan, outcomes)
        return TurnResult(speech, Outcome.DONE, source, plan, outcomes, executed)

    def _gate(
        self,
        turn: _Turn,
        plan: Plan,
        catalog: Catalog,
        source: Source,
        confirmed: bool,
    ) -> TurnResult | None:
        """Step 9: the reply when the plan is not to run now; None to run it."""
        if turn.dry_run:
            return TurnResult(plan.speech, Outcome.PLANNED, source, plan)
        confirm_domains = self._option(CONF_CONFIRM_DOMAINS, DEFAULT_CONFIRM_DOMAINS)
        decision = decide(
            plan,
            self._option(CONF_CONFIDENCE_THRESHOLD, DEFAULT_CONFIDENCE_THRESHOLD),
            not confirmed
            and any(
                catalog.needs_confirmation(target, confirm_domains)
                for action in plan.actions
                for target in action.targets
            ),
        )
        turn.trace({"decision": decision})
        if decision is Decision.CLARIFY:
            return TurnResult(plan.clarify or "", Outcome.CLARIFY, source, plan)
        if decision is Decision.UNSURE:
            raise translated_error("not_sure")
        if decision is Decision.CONFIRM:
            speech = say("confirm_action", actions=_describe(self._hass, plan))
            return TurnResult(speech, Outcome.CONFIRM, source, plan, pending_plan=plan)
        if not plan.actions:
            return TurnResult(plan.speech, Outcome.ANSWERED, source, plan)
        return None

    def _failure_speech(self, outcomes: Sequence[ActionOutcome]) -> str:
        """An honest account: what worked, what did not, in the tools' words."""
        done = [o for o in outcomes if o.ok]
        silent = [o for o in outcomes if not o.ok and not o.speech]
        parts = []
        if silent and done:
            parts.append(
                say(
                    "partly_failed",
                    done=target_names(self._hass, done),
                    failed=target_names(self._hass, silent),
                )
            )
        elif silent:
            parts.append(say("all_failed", failed=target_names(self._hass, silent)))
        elif done:
            parts.append(say("done_for", targets=target_names(self._hass, done)))
        parts.extend(o.speech for o in outcomes if not o.ok and o.speech)
        return " ".join(parts)

    async def _async_phrase(
        self, turn: _Turn, plan: Plan, outcomes: Sequence[ActionOutcome]
    ) -> str:
        """Step 11: the plan's speech, or data phrased by a second model call."""
        results = [
            {"tool": o.action.tool, "result": o.result} for o in outcomes if o.result
        ]
        tool_speech = " ".join(o.speech for o in outcomes if o.speech)
        fallback = tool_speech or plan.speech or say("done")
        if not results:
            return fallback
        options = self._entry.options
        remaining = turn.deadline - self._hass.loop.time()
        turn.trace({"escalate": [r["tool"] for r in results]})
        try:
            return (
                await self._entry.runtime_data.client.async_complete_text(
                    build_phrase_messages(turn.text, json.dumps(results, default=str)),
                    model=options.get(CONF_MODEL, DEFAULT_MODEL),
                    temperature=float(
                        options.get(CONF_TEMPERATURE, DEFAULT_TEMPERATURE)
                    ),
                    budget=max(remaining, 0.0),
                )
                or fallback
            )
        except LLMError as err:
            turn.trace({"escalate_error": err.reason})
            return fallback

    async def _async_plan(
        self, turn: _Turn, catalog: Catalog, history: Sequence[Turn]
    ) -> Completion:
        """Step 7: one model call within the budget; a newer turn cancels it."""
        messages = build_messages(
            catalog, turn.text, history, self._option(CONF_EXTRA_INSTRUCTIONS, None)
        )
        turn.trace(
            {
                "entities_sent": len(catalog.entities),
                "services_sent": len(catalog.services),
                "history_turns": len(history),
                "prompt_tokens_estimate": estimate_tokens(messages),
            }
        )
        if (previous := self._model_calls.pop(turn.key, None)) is not None:
            previous.cancel()
        call = self._hass.async_create_task(
            self._entry.runtime_data.client.async_complete_json(
                messages,
                model=self._option(CONF_MODEL, DEFAULT_MODEL),
                temperature=float(self._option(CONF_TEMPERATURE, DEFAULT_TEMPERATURE)),
                schema=plan_json_schema(catalog),
                budget=max(turn.deadline - self._hass.loop.time(), 0.0),
            ),
            f"{DOMAIN} model call",
            eager_start=False,
        )
        self._model_calls[turn.key] = call
        try:
            completion = await call
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if call.cancelled() and current is not None and not current.cancelling():
                raise ModelFailedError("superseded", "superseded") from None
            raise
        except LLMAuthError as err:
            turn.trace({"model_error": err.reason})
            self._entry.async_start_reauth(self._hass)
            raise ModelFailedError("model_auth_failed", err.reason) from err
        except LLMError as err:
            LOGGER.info("Model request failed: %s", err.reason)
            turn.trace({"model_error": err.reason})
            unreachable = err.reason in {"connection", "timeout"}
            key = "model_unavailable" if unreachable else "model_invalid_reply"
            raise ModelFailedError(key, err.reason) from err
        finally:
            if self._model_calls.get(turn.key) is call:
                del self._model_calls[turn.key]
        turn.trace(
            {
                "response_mode": completion.mode,
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens,
            }
        )
        return completion

    def _remember(self, turn: _Turn, result: TurnResult) -> None:
        """Step 12: keep the turn, with what ran and any pending question."""
        self._entry.runtime_data.context.add(
            turn.key,
            Turn(
                time=time.time(),
                text=turn.text,
                speech=result.speech,
                outcome=result.outcome,
                source=result.source,
                plan=result.plan.as_dict() if result.plan else None,
                actions=result.executed,
                pending_plan=(
                    result.pending_plan.as_dict() if result.pending_plan else None
                ),
            ),
        )

    def _report(self, turn: _Turn, result: TurnResult, started: float) -> None:
        """Fire `intent_router_handled` and count the turn (no user text)."""
        completion = result.completion
        tools = [a.tool for a in result.executed] or (
            [a.tool for a in result.plan.actions] if result.plan else []
        )
        data = {
            "entry_id": self._entry.entry_id,
            "device_id": turn.user_input.device_id,
            "conversation_id": turn.user_input.conversation_id,
            "text_length": len(turn.text),
            "source": result.source,
            "outcome": result.outcome,
            "tools": tools,
            "confidence": result.plan.confidence if result.plan else None,
            "latency_ms": round((time.monotonic() - started) * 1000, 1),
            "prompt_tokens": completion.prompt_tokens if completion else None,
            "completion_tokens": completion.completion_tokens if completion else None,
        }
        self._entry.runtime_data.stats.record(data)
        self._hass.bus.async_fire(EVENT_HANDLED, data, context=turn.user_input.context)

    def _response(self, turn: _Turn, result: TurnResult) -> intent.IntentResponse:
        """Step 11: the IntentResponse Assist speaks and shows."""
        if result.response is not None:
            return result.response
        response = intent.IntentResponse(language=turn.user_input.language)
        if result.outcome is Outcome.ERROR:
            response.async_set_error(
                intent.IntentResponseErrorCode.UNKNOWN, result.speech
            )
            return response
        if result.outcome is Outcome.FAILED:
            # Nothing worked: satellites and automations must see a failure.
            response.async_set_error(
                intent.IntentResponseErrorCode.FAILED_TO_HANDLE, result.speech
            )
            _set_results(self._hass, response, result.outcomes)
            return response
        if result.outcome is Outcome.ANSWERED:
            response.response_type = intent.IntentResponseType.QUERY_ANSWER
        response.async_set_speech(result.speech)
        if result.outcomes:
            _set_results(self._hass, response, result.outcomes)
        return response


def _parse(completion: Completion) -> Plan:
    """The model's JSON as a Plan; a malformed one is a model failure."""
    try:
        plan = parse_plan(completion.data)
    except PlanError as err:
        raise ModelFailedError("model_invalid_reply", str(err.rejection)) from err
    LOGGER.debug("Plan reason: %s", plan.reason)
    return plan


def _follow_up_actions(shortcut: Shortcut, acted: Turn | None) -> list[Action]:
    """The actions "again", "undo" or "stop" mean after a turn."""
    if acted is None:
        return []
    if shortcut is Shortcut.AGAIN:
        return [Action(a.tool, tuple(a.targets), dict(a.args)) for a in acted.actions]
    if shortcut is Shortcut.UNDO:
        return undo_actions(acted.actions)
    return stop_actions(acted.actions)


def _describe(hass: HomeAssistant, plan: Plan) -> str:
    """Word actions for a confirmation question ("unlock Front Door")."""
    return "; ".join(
        f"{action.tool.partition('.')[2].replace('_', ' ')} "
        f"{target_names(hass, [ActionOutcome(action)])}"
        for action in plan.actions
    )


def _set_results(
    hass: HomeAssistant,
    response: intent.IntentResponse,
    outcomes: Sequence[ActionOutcome],
) -> None:
    """Record success and failure targets, for Assist's debug view and clients."""

    def targets(*, ok: bool) -> list[intent.IntentResponseTarget]:
        return [
            intent.IntentResponseTarget(
                type=intent.IntentResponseTargetType.ENTITY,
                name=entity_name(hass, entity_id),
                id=entity_id,
            )
            for outcome in outcomes
            if outcome.ok is ok
            for entity_id in outcome.action.targets
        ]

    response.async_set_results(
        success_results=targets(ok=True), failed_results=targets(ok=False)
    )
