"""One utterance, from guard to memory (DESIGN.md, "Flow of one utterance").

The decisions along the way (the confidence gate, which follow-ups apply)
are small pure functions; everything that talks to Home Assistant, the model
or storage lives in its own module.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
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
    CONF_MODEL,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    DEFAULT_ALLOWED_DOMAINS,
    DEFAULT_CONFIDENCE_THRESHOLD,
    DEFAULT_CONFIRM_DOMAINS,
    DEFAULT_MODEL,
    DEFAULT_TEMPERATURE,
    DEFAULT_TIMEOUT,
    DOMAIN,
    LOGGER,
    MAX_TEXT_LENGTH,
)
from .context_store import Turn, context_key
from .executor import ActionOutcome, async_execute, entity_name, target_names
from .llm_client import LLMAuthError, LLMError, LLMTimeoutError
from .plan import Action, Plan, PlanError, parse_plan, plan_json_schema, validate_plan
from .prompt import build_messages, estimate_tokens
from .shortcuts import Shortcut, match_shortcut, stop_actions, undo_actions

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import Context, HomeAssistant

    from .data import IntentRouterConfigEntry

type Trace = Callable[[dict[str, Any]], None]


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
    ERROR = "error"


class Source(StrEnum):
    """What answered a turn."""

    MODEL = "model"
    SHORTCUT = "shortcut"


def decide(plan: Plan, threshold: float, needs_confirmation: bool) -> Decision:
    """Apply the confidence gate: act, ask which, ask whether, or admit doubt."""
    if plan.clarify and (plan.confidence < threshold or not plan.actions):
        return Decision.CLARIFY
    if plan.confidence < threshold:
        return Decision.UNSURE
    if needs_confirmation and plan.actions:
        return Decision.CONFIRM
    return Decision.EXECUTE


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


@dataclass(slots=True)
class TurnResult:
    """What happened in a turn, before it becomes a reply and a memory."""

    speech: str
    outcome: Outcome
    source: Source
    plan: Plan | None = None
    outcomes: list[ActionOutcome] = field(default_factory=list)
    pending_plan: Plan | None = None

    @property
    def continue_conversation(self) -> bool:
        """A question was asked: keep the microphone open for the answer."""
        return self.outcome in (Outcome.CLARIFY, Outcome.CONFIRM)


@dataclass(slots=True)
class AgentReply:
    """The reply to one turn, and whether the microphone stays open."""

    response: intent.IntentResponse
    continue_conversation: bool = False

    @property
    def speech(self) -> str:
        """The plain-text speech of the response."""
        return str(self.response.speech.get("plain", {}).get("speech", ""))


def _error(key: str, **placeholders: str) -> HomeAssistantError:
    """Build a translated error whose message is spoken to the user."""
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders=placeholders or None,
    )


def _say(key: str, **placeholders: str) -> str:
    """Translate a spoken phrase (kept with the errors, in one place)."""
    return str(_error(key, **placeholders))


class IntentRouterAgent:
    """Routes utterances for one config entry (one model server)."""

    def __init__(self, hass: HomeAssistant, entry: IntentRouterConfigEntry) -> None:
        """Bind the agent to its entry; options are read per turn."""
        self._hass = hass
        self._entry = entry

    def _option(self, key: str, default: Any) -> Any:
        return self._entry.options.get(key, default)

    async def async_handle(
        self, user_input: ConversationInput, chat_log: ChatLog
    ) -> AgentReply:
        """Handle one turn; errors become spoken, translated replies."""
        response = intent.IntentResponse(language=user_input.language)
        text = user_input.text.strip()
        if not text:
            response.async_set_speech("")
            return AgentReply(response)
        trace = chat_log.async_trace
        key = context_key(
            user_input.device_id,
            user_input.context.user_id,
            user_input.conversation_id,
        )
        try:
            result = await self._async_route(user_input, text, key, trace)
        except HomeAssistantError as err:
            trace({"error": err.translation_key})
            response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, str(err))
            self._remember(key, text, TurnResult(str(err), Outcome.ERROR, Source.MODEL))
            return AgentReply(response)
        self._remember(key, text, result)
        if result.outcome is Outcome.ANSWERED:
            response.response_type = intent.IntentResponseType.QUERY_ANSWER
        response.async_set_speech(result.speech)
        if result.outcomes:
            _set_results(self._hass, response, result.outcomes)
        return AgentReply(response, result.continue_conversation)

    async def _async_route(
        self, user_input: ConversationInput, text: str, key: str, trace: Trace
    ) -> TurnResult:
        """Steps 1 and 3-10 of the flow."""
        if len(text) > MAX_TEXT_LENGTH:
            raise _error("text_too_long", max_length=str(MAX_TEXT_LENGTH))
        history = self._entry.runtime_data.context.recent(key)
        shortcut = match_shortcut(
            text, user_input.language, available_shortcuts(history)
        )
        if shortcut is not None:
            trace({"shortcut": shortcut})
            return await self._async_shortcut(shortcut, history, user_input, trace)

        catalog = await self._async_catalog(
            text,
            user_input.device_id,
            [t for turn in history for a in turn.actions for t in a.targets],
        )
        plan = await self._async_plan(catalog, text, history, trace)
        return await self._async_carry_out(
            plan, catalog, user_input.context, Source.MODEL, trace
        )

    async def _async_catalog(
        self, text: str, device_id: str | None, recent_targets: Sequence[str]
    ) -> Catalog:
        return await async_build_catalog(
            self._hass,
            text,
            device_id,
            self._option(CONF_ALLOWED_DOMAINS, DEFAULT_ALLOWED_DOMAINS),
            recent_targets,
        )

    async def _async_shortcut(
        self,
        shortcut: Shortcut,
        history: Sequence[Turn],
        user_input: ConversationInput,
        trace: Trace,
    ) -> TurnResult:
        """Step 4: answer a follow-up from memory, with no model call."""
        if shortcut is Shortcut.NO:
            return TurnResult(_say("cancelled"), Outcome.CANCELLED, Source.SHORTCUT)
        pending = history[-1].pending_plan if history else None
        if shortcut is Shortcut.YES and pending is not None:
            plan = parse_plan(pending)
            confirmed = True
        else:
            acted = last_acted(history)
            actions = _follow_up_actions(shortcut, acted)
            if acted is None or not actions:
                return TurnResult(
                    _say(f"nothing_to_{shortcut}"), Outcome.ANSWERED, Source.SHORTCUT
                )
            speech = acted.speech if shortcut is Shortcut.AGAIN else ""
            plan = Plan(tuple(actions), speech, 1.0)
            confirmed = False
        catalog = await self._async_catalog(
            "", user_input.device_id, [t for a in plan.actions for t in a.targets]
        )
        result = await self._async_carry_out(
            plan,
            catalog,
            user_input.context,
            Source.SHORTCUT,
            trace,
            confirmed=confirmed,
        )
        if (
            shortcut in (Shortcut.UNDO, Shortcut.STOP)
            and result.outcome is Outcome.DONE
        ):
            names = target_names(self._hass, result.outcomes)
            result.speech = _say(f"{shortcut}_done", targets=names)
        return result

    async def _async_carry_out(
        self,
        plan: Plan,
        catalog: Catalog,
        context: Context,
        source: Source,
        trace: Trace,
        *,
        confirmed: bool = False,
    ) -> TurnResult:
        """Steps 8-10: validate, gate, execute."""
        try:
            validate_plan(self._hass, plan, catalog)
        except PlanError as err:
            LOGGER.info("Rejected a plan: %s", err.rejection)
            LOGGER.debug("Rejected plan detail: %s", err.detail)
            trace({"rejection": err.rejection, "detail": err.detail})
            raise _error("plan_rejected") from err

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
        trace({"decision": decision})
        if decision is Decision.CLARIFY:
            return TurnResult(plan.clarify or "", Outcome.CLARIFY, source, plan)
        if decision is Decision.UNSURE:
            raise _error("not_sure")
        if decision is Decision.CONFIRM:
            speech = _say("confirm_action", actions=_describe(self._hass, plan))
            return TurnResult(speech, Outcome.CONFIRM, source, plan, pending_plan=plan)
        if not plan.actions:
            return TurnResult(plan.speech, Outcome.ANSWERED, source, plan)

        outcomes = await async_execute(
            self._hass,
            plan.actions,
            context,
            float(self._option(CONF_TIMEOUT, DEFAULT_TIMEOUT)),
        )
        trace(
            {"outcomes": [{"tool": o.action.tool, "error": o.error} for o in outcomes]}
        )
        done = [outcome for outcome in outcomes if outcome.ok]
        failed = [outcome for outcome in outcomes if not outcome.ok]
        if not failed:
            return TurnResult(
                plan.speech or _say("done"), Outcome.DONE, source, plan, outcomes
            )
        failed_names = target_names(self._hass, failed)
        if not done:
            speech = _say("all_failed", failed=failed_names)
            return TurnResult(speech, Outcome.FAILED, source, plan, outcomes)
        speech = _say(
            "partly_failed", done=target_names(self._hass, done), failed=failed_names
        )
        return TurnResult(speech, Outcome.PARTIAL, source, plan, outcomes)

    async def _async_plan(
        self, catalog: Catalog, text: str, history: Sequence[Turn], trace: Trace
    ) -> Plan:
        """Step 7: one model call within the timeout, parsed into a Plan."""
        client = self._entry.runtime_data.client
        messages = build_messages(
            catalog, text, history, self._option(CONF_EXTRA_INSTRUCTIONS, None)
        )
        timeout = float(self._option(CONF_TIMEOUT, DEFAULT_TIMEOUT))
        trace(
            {
                "entities_sent": len(catalog.entities),
                "services_sent": len(catalog.services),
                "history_turns": len(history),
                "prompt_tokens_estimate": estimate_tokens(messages),
            }
        )
        try:
            async with asyncio.timeout(timeout):
                completion = await client.async_complete_json(
                    messages,
                    model=self._option(CONF_MODEL, DEFAULT_MODEL),
                    temperature=float(
                        self._option(CONF_TEMPERATURE, DEFAULT_TEMPERATURE)
                    ),
                    schema=plan_json_schema(catalog),
                    timeout=timeout,
                )
        except TimeoutError as err:
            trace({"model_error": LLMTimeoutError.reason})
            raise _error("model_unavailable") from err
        except LLMAuthError as err:
            trace({"model_error": err.reason})
            self._entry.async_start_reauth(self._hass)
            raise _error("model_auth_failed") from err
        except LLMError as err:
            LOGGER.info("Model request failed: %s", err.reason)
            trace({"model_error": err.reason})
            unreachable = err.reason in {"connection", "timeout"}
            raise _error(
                "model_unavailable" if unreachable else "model_invalid_reply"
            ) from err
        trace(
            {
                "response_mode": completion.mode,
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens,
            }
        )
        try:
            plan = parse_plan(completion.data)
        except PlanError as err:
            trace({"rejection": err.rejection, "detail": err.detail})
            raise _error("model_invalid_reply") from err
        LOGGER.debug("Plan reason: %s", plan.reason)
        trace({"plan": plan.as_dict()})
        return plan

    def _remember(self, key: str, text: str, result: TurnResult) -> None:
        """Step 12: keep the turn, with what ran and any pending question."""
        self._entry.runtime_data.context.add(
            key,
            Turn(
                time=time.time(),
                text=text,
                speech=result.speech,
                outcome=result.outcome,
                source=result.source,
                plan=result.plan.as_dict() if result.plan else None,
                actions=[o.as_executed() for o in result.outcomes if o.ok],
                pending_plan=(
                    result.pending_plan.as_dict() if result.pending_plan else None
                ),
            ),
        )


def _follow_up_actions(shortcut: Shortcut, acted: Turn | None) -> list[Action]:
    """The actions "again", "undo" or "stop" mean after a turn."""
    if acted is None:
        return []
    if shortcut is Shortcut.AGAIN:
        return [Action(a.tool, tuple(a.targets), dict(a.data)) for a in acted.actions]
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
