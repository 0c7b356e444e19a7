"""One utterance, from guard to memory (docs/design.md, the flow).

The methods of `IntentRouterAgent` follow the flow in this order: 1 guard
(empty, over-long, too many), 2 key (device, user, conversation), 3 recall
(recent turns, the question waiting, an automation's), 4 shortcut ("again",
"undo", "stop", "yes", "no"), 5-7 the first path that answers, in the one
order `Router` holds (router.py: HA's own sentences, answers from states,
the reading's plan, learned, the model), 8-11 validate, gate, execute,
respond (plan_runner.py), 12 remember (memory, lessons, counters,
`intent_router_handled`). Decisions are pure functions (gate.py,
grounding.py, shortcuts.py, learned.py, local_plans.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
import time
from typing import TYPE_CHECKING, Any

from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from ..const import EVENT_HANDLED, RATE_LIMIT_PER_MINUTE
from ..core.records import Outcome, Plan, Turn, encode
from ..core.said import Said
from ..core.speech import Phrase, Phrasebooks, SpokenError, phrase, refuse
from ..deciding.learned import LearnedCommands
from ..deciding.shortcuts import (
    available_shortcuts,
    follow_up_actions,
    follow_up_turn,
    match_shortcut,
)
from ..deciding.utterance import (
    InFlight,
    ModelFailedError,
    Pending,
    RateLimiter,
    Recalled,
    Utterance,
    automation_question,
    too_long,
)
from ..home.context_store import ContextStore, context_key
from ..language import Shortcut, fold
from ..model.llm_client import LLMClient
from ..model.planner import Planner
from .plan_runner import PlanRunner
from .replies import AgentReply, Source, TurnResult, build_response, target_names
from .router import Router, told

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant

    from ..core.settings import Settings
    from ..home.stats import TurnStats
    from ..home.tools import ToolSource


class IntentRouterAgent:
    """Routes utterances for one agent (a config subentry of a model server)."""

    def __init__(  # noqa: PLR0913 - collaborators are passed in, not looked up
        self,
        hass: HomeAssistant,
        *,
        entry_id: str,
        subentry_id: str,
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
        self._subentry_id = subentry_id
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
        self._runner = PlanRunner(hass, settings, self.planner, self._in_flight)
        self._router = Router(
            hass, settings, self._runner, self.planner, learned, self._tool_sources
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
        if not any(char.isalnum() for char in text):
            # No letter nor digit ("", "?"): nothing was said.
            response = intent.IntentResponse(language=user_input.language)
            response.async_set_speech("")
            return AgentReply(response)
        phrases = await self._phrasebooks.async_get(user_input.language)
        key = context_key(user_input, chat_log)
        decided: dict[str, Any] = {}
        if (refusal := self._guard(text, key)) is not None:
            # Refused before anything happened: nothing to recall or remember.
            chat_log.async_trace({"error": refusal.key})
            decided["error"] = refusal.key
            result = TurnResult(phrases.say(refusal), Outcome.ERROR, Source.REFUSED)
        else:
            utterance = Utterance(
                user_input,
                chat_log,
                Said.of(text, user_input.language),
                key,
                self._hass.loop.time() + self._settings.timeout,
                phrases,
                self._recall(key, user_input, chat_log),
                area_id=area_id,
                dry_run=dry_run,
            )
            result = await self._async_run_turn(utterance)
            decided = utterance.decided
            if not dry_run and result.outcome is not Outcome.SUPERSEDED:
                self._remember(utterance, result)
        self._report(user_input, text, result, started)
        response = build_response(self._hass, user_input.language, result)
        decided = {"source": result.source, "outcome": result.outcome, **decided}
        return AgentReply(response, result.continue_conversation, result, decided)

    def supersede(self, user_input: ConversationInput, conversation_id: str) -> None:
        """A newer turn of this conversation comes: ours of its key in flight yields.

        Before the newer turn opens the conversation's chat log, which
        Home Assistant (2026.11 on) gives one turn at a time.
        """
        for utterance in self._in_flight.in_conversation(conversation_id):
            if utterance.key == context_key(user_input, utterance.chat_log):
                self._in_flight.supersede(utterance.key)

    def _guard(self, text: str, key: str) -> Phrase | None:
        """Step 1: refuse over-long text and more turns than a person says."""
        if (refusal := too_long(text)) is not None:
            return refusal
        if not self._rate_limiter.allow(key):
            return phrase("rate_limited")
        return None

    def _recall(
        self, key: str, user_input: ConversationInput, chat_log: ChatLog
    ) -> Recalled:
        """Step 3: recent turns, the last turn's question, an automation's."""
        pending = self._pending.pop(key, None)
        return Recalled(
            tuple(self._context.recent(key)),
            pending if pending and pending.expires >= time.monotonic() else None,
            automation_question(user_input, chat_log),
        )

    async def _async_run_turn(self, utterance: Utterance) -> TurnResult:
        """Steps 4-11 as the key's newest turn; a newer one supersedes it."""
        self._in_flight.begin(utterance)
        try:
            result = await self._async_route(utterance)
        except SpokenError as err:
            result = told(utterance, err.phrase, Source.REFUSED)
        except HomeAssistantError as err:
            utterance.trace(error=err.translation_key)
            result = TurnResult(str(err), Outcome.ERROR, Source.ERROR)
        finally:
            self._in_flight.end(utterance)
        if not utterance.dry_run and result.continue_conversation:
            self._pending[utterance.key] = Pending.asked(
                utterance, result.pending_plan, result.offered
            )
        return result

    async def _async_route(self, utterance: Utterance) -> TurnResult:
        """Steps 4-10: a shortcut, else the first path that answers (router.py)."""
        # A yes to an automation's question means what it asked: the model.
        allowed = available_shortcuts(
            utterance.history,
            asked=utterance.pending is not None,
            automation=bool(utterance.automation),
        )
        shortcut = match_shortcut(utterance.said, allowed)
        if shortcut is not None and not utterance.dry_run:
            utterance.trace(shortcut=shortcut)
            return await self._async_shortcut(utterance, shortcut)
        return await self._router.async_answer(utterance)

    async def _async_shortcut(
        self, utterance: Utterance, shortcut: Shortcut
    ) -> TurnResult:
        """Step 4: answer a follow-up from memory, with no model call."""
        if shortcut is Shortcut.NO:
            return TurnResult(
                utterance.say("cancelled"), Outcome.CANCELLED, Source.SHORTCUT
            )
        pending = utterance.pending.plan if utterance.pending else None
        acted: Turn | None = None
        if shortcut is Shortcut.YES:
            if pending is None:
                return TurnResult(
                    utterance.say("nothing_to_confirm"),
                    Outcome.ANSWERED,
                    Source.SHORTCUT,
                )
            plan = pending
            confirmed = True
        else:
            acted = follow_up_turn(shortcut, utterance.history)
            actions = follow_up_actions(shortcut, acted) if acted else []
            if acted is None or not actions:
                return TurnResult(
                    utterance.say(f"nothing_to_{shortcut}"),
                    Outcome.ANSWERED,
                    Source.SHORTCUT,
                )
            plan = Plan(tuple(actions), "", 1.0)
            confirmed = False
            if shortcut is Shortcut.UNDO:
                # Undone is not wanted: not to be learned, nor kept learned.
                self._learned.forget_sentence(fold(acted.text))
        catalog = await self._router.async_catalog(
            utterance, (), [t for a in plan.actions for t in a.targets]
        )
        try:
            result = await self._runner.async_run(
                utterance, plan, catalog, Source.SHORTCUT, confirmed=confirmed
            )
        except ModelFailedError as failure:
            # Something it acted on is gone or no longer exposed or allowed.
            raise refuse("follow_up_rejected") from failure
        if acted is not None and shortcut in (Shortcut.UNDO, Shortcut.REDO):
            result = replace(result, undid=acted.time)
        if (
            shortcut in (Shortcut.UNDO, Shortcut.REDO, Shortcut.STOP)
            and result.outcome is Outcome.DONE
        ):
            names = target_names(self._hass, (o.action for o in result.outcomes))
            result = replace(
                result,
                speech=utterance.phrases.say(phrase(f"{shortcut}_done", targets=names)),
            )
        return result

    def _remember(self, utterance: Utterance, result: TurnResult) -> None:
        """Step 12: keep the turn, with what ran; send the talk so far ahead."""
        self._context.add(
            utterance.key,
            Turn(
                time=time.time(),
                text=utterance.text,
                speech=result.speech,
                outcome=result.outcome,
                source=result.source,
                plan=encode(result.plan) if result.plan else None,
                actions=result.executed,
                about=list(result.about),
                undid=result.undid,
            ),
        )
        self._learned.observe(utterance.key, result.lesson, result.executed)
        self.planner.async_follow(
            utterance, lambda: self._context.recent(utterance.key)
        )

    def _report(
        self,
        user_input: ConversationInput,
        text: str,
        result: TurnResult,
        started: float,
    ) -> None:
        """Step 12: fire `intent_router_handled` and count the turn (no text)."""
        data = {
            "entry_id": self._entry_id,
            "subentry_id": self._subentry_id,
            "device_id": user_input.device_id,
            "conversation_id": user_input.conversation_id,
            "text_length": len(text),
            "latency_ms": round((time.monotonic() - started) * 1000, 1),
            **result.report(),
        }
        self._stats.record(data)
        self._hass.bus.async_fire(EVENT_HANDLED, data, context=user_input.context)
