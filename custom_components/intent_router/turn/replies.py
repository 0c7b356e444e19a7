"""What the user hears and sees of a turn, built from what ran.

Names come from the entities' states, lists and sentences from the turn's
phrasebook, and the `IntentResponse` carries the targets that worked and
failed, so Assist's debug view and automations see the same truth as the
spoken reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
import json
from typing import TYPE_CHECKING, Any

from homeassistant.helpers import intent

from ..core.device_states import stepped_value
from ..core.records import Action, ActionResult, ExecutedAction, Outcome, Plan
from ..core.speech import Names, Phrase, Phrasebook, phrase
from ..deciding.options import SAY, Option, chosen_plan
from ..deciding.states_said import said_state
from ..home.executor import ActionOutcome
from ..language import Unit
from ..model.llm_client import Completion

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..deciding.learned import Lesson
    from ..home.catalog import Catalog


class Source(StrEnum):
    """What answered a turn: each value means one path."""

    # Home Assistant's own sentences, tried before the model.
    LOCAL = "local"
    # The integration's own reading of the words: an answer from the home's
    # states, or a plan the words alone make.
    READING = "reading"
    # A plan of the model's.
    MODEL = "model"
    # "again", "undo", "stop", "yes", "no", from memory.
    SHORTCUT = "shortcut"
    # Words said here before, replayed without the model.
    LEARNED = "learned"
    # The model failed, and the reason is told (HA's sentences answering
    # instead are LOCAL; the trace says why the model was not heard).
    FALLBACK = "fallback"
    # Home Assistant raised an error that ended the turn; its message is said.
    ERROR = "error"
    # The agent's own checks refused the turn (too long, too many, unsure,
    # nothing understood without a model, a follow-up that no longer fits).
    REFUSED = "refused"


@dataclass(slots=True, frozen=True)
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
    # A model plan that ran and may be learned, if it stands (learned.py).
    lesson: Lesson | None = None
    # What a question answered from the states was about ("it" next turn).
    about: tuple[str, ...] = ()
    # Why a turn failed, as its explanation's key ("model_invalid_reply").
    failure: str | None = None
    # An undo or redo: the time of the turn it reversed (shortcuts.py).
    undid: float | None = None

    @property
    def continue_conversation(self) -> bool:
        """A question was asked: keep the microphone open for the answer."""
        return self.outcome in (Outcome.CLARIFY, Outcome.CONFIRM)

    def results(self) -> list[ActionResult]:
        """How each action ended (HA's sentences report only what ran)."""
        return [result for _, result in self.ran()]

    def ran(self) -> list[tuple[Action, ActionResult]]:
        """Each action that was called, with how it ended."""
        if self.outcomes:
            return [
                (
                    o.action,
                    ActionResult(
                        o.action.tool, o.action.targets, o.ok, o.error, o.result
                    ),
                )
                for o in self.outcomes
            ]
        return [
            (
                Action(a.tool, tuple(a.targets), a.args),
                ActionResult(a.tool, tuple(a.targets), ok=True),
            )
            for a in self.executed
        ]

    def report(self) -> dict[str, Any]:
        """What `intent_router_handled` says of the result (never any text)."""
        completion = self.completion
        plan = self.plan
        return {
            "source": self.source,
            "outcome": self.outcome,
            "tools": [a.tool for a in self.executed]
            or ([a.tool for a in plan.actions] if plan else []),
            "confidence": plan.confidence if plan else None,
            "failure": self.failure,
            "prompt_tokens": completion.prompt_tokens if completion else None,
            "completion_tokens": completion.completion_tokens if completion else None,
            "processed_prompt_tokens": (
                completion.processed_prompt_tokens if completion else None
            ),
        }


def local_result(
    response: intent.IntentResponse, executed: list[ExecutedAction]
) -> TurnResult:
    """A turn Home Assistant's own sentences answered, with what they ran."""
    outcome = {
        intent.IntentResponseType.QUERY_ANSWER: Outcome.ANSWERED,
        intent.IntentResponseType.ERROR: Outcome.FAILED,
    }.get(response.response_type, Outcome.DONE)
    speech = str(response.speech.get("plain", {}).get("speech", ""))
    # What HA's answer was about is what "it" means next ("lock it").
    about = (
        tuple(
            dict.fromkeys(
                state.entity_id
                for state in (*response.matched_states, *response.unmatched_states)
            )
        )
        if outcome is Outcome.ANSWERED
        else ()
    )
    return TurnResult(
        speech, outcome, Source.LOCAL, executed=executed, response=response, about=about
    )


@dataclass(slots=True)
class AgentReply:
    """The reply to one turn, whether the microphone stays open, and details."""

    response: intent.IntentResponse
    continue_conversation: bool = False
    # What happened (absent for empty input), for the `route` action.
    result: TurnResult | None = None
    # How the turn was decided, as its trace says it (Assist's debug view).
    decision: dict[str, Any] = field(default_factory=dict)

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


def done_speech(
    hass: HomeAssistant, phrases: Phrasebook, outcomes: Sequence[ActionOutcome]
) -> str:
    """Say what ran: each service call's effect, each tool in its own words.

    A call is said with the most specific sentence the phrasebook has:
    `did_<domain>_<service>`, `did_<service>`, the value it set, or "done
    for" its targets.
    """
    parts: list[str] = []
    for outcome in outcomes:
        if outcome.speech is not None:
            parts.append(phrases.say(outcome.speech))
        elif outcome.ok and not outcome.result:
            parts.append(
                phrases.say(_did(hass, phrases, outcome.effect or outcome.action))
            )
    return " ".join(dict.fromkeys(parts))


def confirm_question(
    hass: HomeAssistant, phrases: Phrasebook, actions: Sequence[Action]
) -> str:
    """Ask before acting, naming what would run ("Do you want me to unlock X?").

    Each action is asked about in its own sentence of the turn's language;
    a service with none is asked about by Home Assistant's name for it, as
    a name in a question whose verb is the language's own ("Soll ich die
    Aktion „Schloss öffnen“ für X ausführen?"), never as a verb in a slot.
    """
    questions = [_about(hass, phrases, action, "ask") for action in _joined(actions)]
    return " ".join(dict.fromkeys(phrases.say(question) for question in questions))


def option_label(
    hass: HomeAssistant, phrases: Phrasebook, option: Option, catalog: Catalog
) -> str:
    """An option as the model reads it, in the turn's language.

    An action as it would be said once done ("Turned off Desk Lamp."), a
    value left open as N ("Set Desk Lamp to N percent."), words left open
    as X ("Added X to Shopping List."); a question as what it would be
    about ("about Desk Lamp").
    """
    names = entity_names(hass, option.targets)
    if option.service == SAY:
        return phrases.say(phrase("option_say"))
    if option.question is not None:
        about = phrases.say(phrase("option_about", targets=names))
        # What kind of thing it is, where its name does not say it
        # ("about London (Weather)"): a small model matches the words.
        kind = phrases.values.kind(option.targets[0].partition(".")[0])
        if kind and kind.casefold() not in " ".join(names.items).casefold():
            return f"{about.rstrip('.')} ({kind})."
        return about
    if option.takes_value:
        unit = "value_degrees" if option.open_unit is Unit.DEGREES else "value_percent"
        value = phrases.messages[unit].format(value="N")
        return phrases.say(phrase("did_set", targets=names, value=value))
    plan = chosen_plan(option, None, "X", catalog)
    actions = plan.actions if plan is not None else ()
    return " ".join(phrases.say(_did(hass, phrases, action)) for action in actions)


def _joined(actions: Sequence[Action]) -> list[Action]:
    """One action per service and arguments, with all their targets.

    A model writes "turn off A" and "turn off B" as two: asked as one
    question ("turn off A and B?"), as they would run.
    """
    joined: dict[str, Action] = {}
    for action in actions:
        call = f"{action.tool} {json.dumps(action.args, sort_keys=True, default=str)}"
        if (same := joined.get(call)) is None:
            joined[call] = action
        else:
            targets = tuple(dict.fromkeys((*same.targets, *action.targets)))
            joined[call] = replace(same, targets=targets)
    return list(joined.values())


def _did(hass: HomeAssistant, phrases: Phrasebook, action: Action) -> Phrase:
    """The sentence for one service call that ran."""
    return _about(hass, phrases, action, "did")


# Fields a sentence of a service's own says as the words gave them.
_WORDED = ("item", "query")


def _about(
    hass: HomeAssistant, phrases: Phrasebook, action: Action, prefix: str
) -> Phrase:
    """The most specific sentence the phrasebook has about a service call.

    `<prefix>_<domain>_<service>`, `<prefix>_<service>`, the value it sets
    (`<prefix>_set`), else a general one: "done for" its targets, or the
    confirmation question in the service's own words.
    """
    domain, _, service = action.tool.partition(".")
    targets = target_names(hass, [action])
    step = action.args.get("brightness_step_pct")
    if prefix in ("did", "ask") and isinstance(step, (int, float)) and step:
        # "Brighter" and "dimmer" said as such, not as "turned on".
        way = "brighter" if step > 0 else "dimmer"
        return phrase(f"{prefix}_{way}", targets=targets)
    value = phrases.values.argument(domain, action.args)
    key = next(
        (
            k
            for k in (f"{prefix}_{domain}_{service}", f"{prefix}_{service}")
            if k in phrases.messages
        ),
        None,
    )
    if value is not None and (key is None or service == "turn_on"):
        key = f"{prefix}_set"
    if key is not None:
        # A list's item, the music asked for: said as the words said them.
        worded = next((str(action.args[f]) for f in _WORDED if f in action.args), "")
        return phrase(key, targets=targets, value=value or worded)
    if prefix == "ask":
        # A tool's own name is its last part ("mcp.<server>.add_todo").
        named = phrases.values.service(domain, action.tool.rpartition(".")[2])
        if targets.items:
            return phrase("confirm_action", action=named, targets=targets)
        return phrase("confirm_tool", action=named)
    return phrase("done_for", targets=targets) if targets.items else phrase("done")


def already_speech(
    phrases: Phrasebook, actions: Sequence[Action], catalog: Catalog
) -> str:
    """Devices a step can take no further, by the value they are at.

    "Kitchen Lights is already at 100 percent", "... at 30 degrees"; one
    at no value, by its state ("Bedroom Lamp is off").
    """
    values = phrases.values
    # What is said -> the names it is said of
    by_value: dict[str, list[str]] = {}
    stated: list[str] = []
    for action in actions:
        for target in action.targets:
            info = catalog.exposed[target]
            value = values.argument(
                info.domain, stepped_value(info.domain, info.all_attributes)
            )
            if value is None:
                stated.append(phrases.say(said_state(info, values)))
            else:
                by_value.setdefault(value, []).append(info.name)
    return " ".join(
        [
            *(
                phrases.say(
                    phrase("already_value", names=Names(tuple(names)), value=value)
                )
                for value, names in by_value.items()
            ),
            *stated,
        ]
    )


# A "which one?" names at most this many devices.
MAX_SPOKEN_CHOICES = 4


def ungrounded_reply(
    hass: HomeAssistant,
    phrases: Phrasebook,
    plan: Plan,
    choices: Sequence[str],
    source: Source,
) -> TurnResult:
    """For a plan that must not run: which of the devices that fit, or nothing.

    More choices than one says in a breath ask for a name or a room instead.
    """
    if not choices:
        return TurnResult(phrases.say(phrase("not_grounded")), Outcome.ANSWERED, source)
    names = entity_names(hass, choices, any_of=True)
    question = (
        phrase("which_one_of_many")
        if len(names.items) > MAX_SPOKEN_CHOICES
        else phrase("which_one", choices=names)
    )
    return TurnResult(
        phrases.say(question),
        Outcome.CLARIFY,
        source,
        plan,
        offered=tuple(choices),
    )


def failure_speech(
    hass: HomeAssistant, phrases: Phrasebook, outcomes: Sequence[ActionOutcome]
) -> str:
    """An honest account: what worked, what did not, in the tools' words."""
    done = [o.action for o in outcomes if o.ok]
    silent = [o.action for o in outcomes if not (o.ok or o.speech or o.refusal)]
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
    refused = (phrases.say_refusal(o.refusal) for o in outcomes if o.refusal)
    return " ".join([*(phrases.say(part) for part in parts), *refused])


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
