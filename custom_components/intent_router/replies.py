"""What the user hears and sees of a turn, built from what ran.

Names come from the entities' states, lists and sentences from the turn's
phrasebook, and the `IntentResponse` carries the targets that worked and
failed, so Assist's debug view and automations see the same truth as the
spoken reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from homeassistant.helpers import intent

from .context_store import ExecutedAction
from .executor import ActionOutcome
from .llm_client import Completion
from .plan import Action, Plan
from .speech import Names, Phrase, Phrasebook, phrase

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant


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


@dataclass(slots=True)
class TurnResult:
    """What happened in a turn, before it becomes a reply and a memory."""

    speech: str
    outcome: Outcome
    source: Source
    plan: Plan | None = None
    outcomes: list[ActionOutcome] = field(default_factory=list)
    executed: list[ExecutedAction] = field(default_factory=list)
    # A plan waiting for a yes, and the choices of "which one?": answerable
    # by the next turn only.
    pending_plan: Plan | None = None
    offered: tuple[str, ...] = ()
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


def entity_name(hass: HomeAssistant, entity_id: str) -> str:
    """The friendly name of an entity, for spoken replies."""
    state = hass.states.get(entity_id)
    return state.name if state else entity_id


def entity_names(
    hass: HomeAssistant, entity_ids: Iterable[str], *, any_of: bool = False
) -> Names:
    """Entities' names, each once, as a spoken list ("A, B and C")."""
    return Names(
        tuple(dict.fromkeys(entity_name(hass, entity_id) for entity_id in entity_ids)),
        any_of=any_of,
    )


def target_names(hass: HomeAssistant, actions: Iterable[Action]) -> Names:
    """The names of some actions' targets, each once, as a spoken list."""
    return entity_names(hass, (t for action in actions for t in action.targets))


def describe_actions(hass: HomeAssistant, actions: Sequence[Action]) -> str:
    """Word actions for a confirmation question ("unlock Front Door")."""
    return "; ".join(
        f"{action.tool.partition('.')[2].replace('_', ' ')} "
        f"{', '.join(target_names(hass, [action]).items)}"
        for action in actions
    )


def failure_speech(
    hass: HomeAssistant, phrases: Phrasebook, outcomes: Sequence[ActionOutcome]
) -> str:
    """An honest account: what worked, what did not, in the tools' words."""
    done = [o.action for o in outcomes if o.ok]
    silent = [o.action for o in outcomes if not o.ok and not o.speech]
    parts: list[Phrase] = []
    if silent and done:
        parts.append(
            phrase(
                "partly_failed",
                done=target_names(hass, done),
                failed=target_names(hass, silent),
            )
        )
    elif silent:
        parts.append(phrase("all_failed", failed=target_names(hass, silent)))
    elif done:
        parts.append(phrase("done_for", targets=target_names(hass, done)))
    parts.extend(o.speech for o in outcomes if not o.ok and o.speech)
    return " ".join(phrases.say(part) for part in parts)


def error_response(
    language: str, code: intent.IntentResponseErrorCode, speech: str
) -> intent.IntentResponse:
    """A response that tells satellites and automations the turn failed."""
    response = intent.IntentResponse(language=language)
    response.async_set_error(code, speech)
    return response


def set_results(
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


def build_response(
    hass: HomeAssistant, language: str, result: TurnResult
) -> intent.IntentResponse:
    """The IntentResponse Assist speaks and shows for a turn."""
    if result.response is not None:
        return result.response
    if result.outcome is Outcome.ERROR:
        return error_response(
            language, intent.IntentResponseErrorCode.UNKNOWN, result.speech
        )
    if result.outcome is Outcome.FAILED:
        # Nothing worked: satellites and automations must see a failure.
        response = error_response(
            language, intent.IntentResponseErrorCode.FAILED_TO_HANDLE, result.speech
        )
        set_results(hass, response, result.outcomes)
        return response
    response = intent.IntentResponse(language=language)
    if result.outcome is Outcome.ANSWERED:
        response.response_type = intent.IntentResponseType.QUERY_ANSWER
    response.async_set_speech(result.speech)
    if result.outcomes:
        set_results(hass, response, result.outcomes)
    return response
