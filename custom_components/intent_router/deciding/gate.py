"""The one gate: what a valid plan from any path may do in this turn.

`gate` weighs a plan against the turn's facts (`Facts`) and returns one
verdict (`Gated`): refused, cancelled, held for a dry run, ask which,
admit doubt, ungrounded, ask whether, answer, nothing to change (a step,
"brighter", at its end already), or run; and whether a plan that runs may be learned
(`learnable`). What grounds a target is grounding.py's, which follow-ups
apply is shortcuts.py's. Nothing here talks to Home Assistant, so each
part is tested without it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from enum import StrEnum

from ..core.device_states import at_step_end
from ..core.domains import ConfirmPolicy, domain_info, domain_of
from ..core.records import Action, EntityInfo, Plan
from ..core.said import Said
from ..home.catalog import Catalog
from ..language import says_condition, words
from ..language.tables import Verb
from ..reading.mentions import Mentions
from ..reading.reading import Reading, find_mentions
from .grounding import SPEAKER_INDEPENDENT, WEAK, Grounded, Ungrounded, check_grounding
from .polarity import against_the_words, both_ways
from .shortcuts import answers_no, answers_yes


class Decision(StrEnum):
    """What the gate makes of a valid plan."""

    EXECUTE = "execute"
    ANSWER = "answer"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    UNSURE = "unsure"
    UNGROUNDED = "ungrounded"
    REFUSED = "refused"
    CANCELLED = "cancelled"
    PLANNED = "planned"
    # Words that only step ("brighter") and every device at the end of that
    # step (at full brightness): said so, nothing is called.
    ALREADY = "already"


class Refusal(StrEnum):
    """Why a plan is refused whole (the trace's reason)."""

    AGAINST_THE_WORDS = "against_the_words"
    NO_ANSWER = "no_answer"


def decide(
    plan: Plan, threshold: float, needs_confirmation: bool, *, grounded: bool = True
) -> Decision:
    """Act, ask which, ask whether, or admit doubt.

    `plan` is the plan as proposed (its confidence and question decide
    first); `grounded` is False when nothing of it is what the words meant,
    and `needs_confirmation` is about what is left of it to run.
    """
    if plan.clarify and (plan.confidence < threshold or not plan.actions):
        return Decision.CLARIFY
    if plan.confidence < threshold:
        return Decision.UNSURE
    if not grounded:
        return Decision.UNGROUNDED
    if needs_confirmation and plan.actions:
        return Decision.CONFIRM
    return Decision.EXECUTE


def at_its_end(plan: Plan, catalog: Catalog, reading: Reading | None) -> bool:
    """Whether the words step and every device is at the end of that step.

    "Brighter" when the lights are at full, "louder" at full volume,
    "warmer" at the thermostat's highest: nothing can be sent that would
    change anything, and the reply says so (`Decision.ALREADY`). Each
    action must be its domain's own step that way. A command that says its
    result ("turn off", "to 50 percent") always runs: the state shown may be
    stale, and Home Assistant's own agent sends it too.
    """
    direction = _step_said(reading)
    return (
        direction is not None
        and bool(plan.actions)
        and all(
            action.targets
            and all(
                (info := catalog.exposed.get(target)) is not None
                and domain_of(action.tool) == info.domain
                and _steps(action, info, direction)
                and at_step_end(info.domain, direction, info.state, info.all_attributes)
                for target in action.targets
            )
            for action in plan.actions
        )
    )


def _step_said(reading: Reading | None) -> int | None:
    """Up (+1) or down (-1), for words that only step ("brighter"); else None."""
    if reading is None or reading.values:
        return None
    steps = reading.verbs & {Verb.UP, Verb.DOWN}
    if len(steps) != 1:
        return None
    return 1 if Verb.UP in steps else -1


def _steps(action: Action, info: EntityInfo, direction: int) -> bool:
    """Whether an action is its device's own step that way (volume_up, ...)."""
    step = domain_info(info.domain).step
    call = step(info, direction) if step is not None else None
    return call is not None and action.tool == f"{info.domain}.{call[0]}"


def _unsaid_subject(tool: str, catalog: Catalog, said: Collection[str]) -> bool:
    """Whether a tool may change things and the words do not say what."""
    found = catalog.tools.get(tool)
    subject = found.subject if found is not None else None
    return subject is not None and not subject & set(said)


def answer_only(plan: Plan, catalog: Catalog, *, asked: bool) -> Plan:
    """For a question about the home, the plan without what would change it.

    A small model sometimes "answers" how warm it is by setting the
    thermostat. Services that return data and tools (music, MCP) may still
    answer. A request that is not a question (`asked`) keeps its plan.
    """
    if not asked:
        return plan
    keep = tuple(
        action
        for action in plan.actions
        if action.tool not in catalog.services or catalog.reads_only(action.tool)
    )
    return replace(plan, actions=keep)


def automation_confirms(
    plan: Plan, asked: str | None, said: Said, catalog: Catalog
) -> bool:
    """Whether a yes answers an automation's own question about these targets.

    "The garage door is open, should I close it?" - "yes, close it": the
    person was asked about that garage door, so it needs no second yes.
    """
    if not asked or not answers_yes(said):
        return False
    named = find_mentions(asked, said.language, catalog).entities
    return all(t in named for action in plan.actions for t in action.targets)


def automation_refused(
    plan: Plan, asked: str | None, said: Said, catalog: Catalog
) -> tuple[Action, ...]:
    """The actions on what an automation asked about, when the answer says no.

    "The garage door is open, should I close it?" - "no, leave it open for
    now": whatever the model makes of that, the garage door is not touched.
    """
    if not asked or not answers_no(said):
        return ()
    named = find_mentions(asked, said.language, catalog).entities
    return tuple(a for a in plan.actions if any(t in named for t in a.targets))


def _guessed_here(grounding: Grounded | Ungrounded | None, facts: Facts) -> bool:
    """Whether the model took a device by its kind here while a word is unread.

    "Turn on the dest lamp": "dest" names nothing the reading knows, so the
    room's lamp the model chose is a guess at what was meant; it is asked
    about ("Do you want me to turn on Desk Lamp?"), never run unasked.
    """
    return (
        facts.from_model
        and facts.reading is not None
        and bool(facts.reading.unexplained)
        and isinstance(grounding, Grounded)
        and any(basis in WEAK for basis in grounding.bases.values())
    )


def learns(enabled: bool, *, answering: bool, question: bool) -> bool:
    """Whether these words may teach a command, or replay one they taught.

    Not an answer to a question, which means nothing without it, nor a
    question itself ("Licht an?" is not "Licht an").
    """
    return enabled and not answering and not question


def learnable(
    plan: Plan,
    grounded: Grounded,
    mentions: Mentions,
    catalog: Catalog,
    said: Said,
    confirm: Collection[str],
) -> bool:
    """Whether a plan that ran may answer the same words next time, at once.

    Only what the words alone decide: every target named, or of a kind said
    in a place said (or the whole home); nothing referred back; services
    that change something (no tools, no data); every argument said ("50
    percent", not "a bit brighter", which the model worked out from a state
    that will have changed). What asks for confirmation is never learned.
    """
    heard = set(said.words)
    return (
        bool(plan.actions)
        and not mentions.refers_back
        and all(
            action.tool in catalog.services
            and not catalog.reads_only(action.tool)
            and all(
                grounded.bases.get(target) in SPEAKER_INDEPENDENT
                and not catalog.needs_confirmation(target, confirm)
                for target in action.targets
            )
            and all(_said(value, heard) for value in action.args.values())
            for action in plan.actions
        )
    )


def _said(value: object, said: set[str]) -> bool:
    """Whether an argument's value is in the words (each item of a list)."""
    if isinstance(value, list):
        return all(_said(item, said) for item in value)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    value_words = set(words(str(value)))
    return bool(value_words) and value_words <= said


@dataclass(slots=True, frozen=True)
class Facts:
    """What the gate weighs of a turn besides the plan.

    `reading` is there for a plan made for these words (the reading's own, a
    learned one or the model's), None for follow-ups and HA's sentences;
    `offered` is what the last question offered, `pending` whether there
    was one; `from_model` marks the model's plan, which may answer a
    question only and may teach; `learn` is the owner's option.
    """

    catalog: Catalog
    threshold: float
    confirm: ConfirmPolicy
    said: Said
    reading: Reading | None = None
    automation: str | None = None
    pending: bool = False
    offered: Collection[str] = ()
    last_targets: Collection[str] = ()
    confirmed: bool = False
    from_model: bool = False
    learn: bool = False
    dry_run: bool = False


@dataclass(slots=True, frozen=True)
class Gated:
    """The gate's verdict on a valid plan.

    `plan` is what runs, is asked about or answers (the grounded part, when
    the plan was read against the words); for a question back ("which
    one?", clarify, ungrounded, cancelled, a dry run) the plan as checked.
    `grounding` is None for plans that do not come from reading the words.
    The rest says why, for the trace: the actions `against` the words,
    those an automation's question was `refused` for, and a question's plan
    whose changes were dropped (`question_dropped`).
    """

    decision: Decision
    plan: Plan
    grounding: Grounded | Ungrounded | None = None
    refusal: Refusal | None = None
    against: tuple[Action, ...] = ()
    refused: tuple[Action, ...] = ()
    question_dropped: tuple[Action, ...] = ()
    learnable: bool = False


def gate(plan: Plan, facts: Facts) -> Gated:
    """One gate for every path: the words, the answer, grounding, confidence.

    A plan against the words (a verb's opposite) is refused whole. A no to
    an automation's own question leaves what it asked about alone, whichever
    path planned it; a yes to it confirms what it asked about. A question
    about the home (the model's plan) changes nothing, and a plan left with
    no answer is refused. Then `_weigh` decides on what is left.
    """
    reading, catalog = facts.reading, facts.catalog
    if reading is not None and (against := against_the_words(plan, reading)):
        return Gated(
            Decision.REFUSED, plan, refusal=Refusal.AGAINST_THE_WORDS, against=against
        )
    refused = automation_refused(plan, facts.automation, facts.said, catalog)
    if refused:
        plan = replace(plan, actions=tuple(a for a in plan.actions if a not in refused))
        if not (plan.actions or plan.speech or plan.clarify):
            return Gated(Decision.CANCELLED, plan, refused=refused)
    dropped: tuple[Action, ...] = ()
    confirmed = facts.confirmed
    if facts.from_model:
        answer = answer_only(plan, catalog, asked=bool(reading and reading.question))
        if answer != plan:
            dropped = plan.actions
            if not (answer.actions or answer.speech):  # acted, never answered
                return Gated(
                    Decision.REFUSED,
                    plan,
                    refusal=Refusal.NO_ANSWER,
                    refused=refused,
                    question_dropped=dropped,
                )
            plan = answer
        confirmed = automation_confirms(plan, facts.automation, facts.said, catalog)
    if facts.dry_run:
        weighed = Gated(Decision.PLANNED, plan)
    else:
        weighed = _weigh(plan, facts, confirmed=confirmed)
    return replace(weighed, refused=refused, question_dropped=dropped)


def _weigh(plan: Plan, facts: Facts, *, confirmed: bool) -> Gated:
    """Grounding, confidence and confirmation, and whether it may be learned.

    With a reading (a plan made for these words), each target must be
    grounded in them (grounding.py); what asks first (`_asks_first`) asks
    unless `confirmed` already.
    """
    catalog, reading = facts.catalog, facts.reading
    grounding, implied = _grounded(plan, facts)
    runs = grounding.plan if isinstance(grounding, Grounded) else plan
    needs_confirmation = not confirmed and (
        implied or _asks_first(runs, grounding, facts)
    )
    decision = decide(
        plan,
        facts.threshold,
        needs_confirmation,
        grounded=not isinstance(grounding, Ungrounded),
    )
    if decision in (Decision.CONFIRM, Decision.EXECUTE) and at_its_end(
        runs, catalog, reading
    ):
        return Gated(Decision.ALREADY, runs, grounding)
    if decision is Decision.CONFIRM:
        return Gated(decision, runs, grounding)
    if decision is not Decision.EXECUTE:
        return Gated(decision, plan, grounding)
    if not runs.actions:
        return Gated(Decision.ANSWER, runs, grounding)
    return Gated(decision, runs, grounding, learnable=_taught(runs, grounding, facts))


def _grounded(plan: Plan, facts: Facts) -> tuple[Grounded | Ungrounded | None, bool]:
    """The plan's grounding in the words, and whether the words only imply it.

    Words that name nothing ("I'm heading to bed") ground no plan, yet may
    imply one: the model's is offered as a question, never run unasked.
    Not a script or scene: what they do is not in the question.
    """
    reading = facts.reading
    mentions = reading.mentions if reading is not None else None
    grounding = (
        check_grounding(
            plan,
            mentions,
            facts.catalog,
            facts.last_targets,
            facts.offered,
            facts.confirm.domains,
        )
        if mentions is not None and plan.actions
        else None
    )
    implied = (
        isinstance(grounding, Ungrounded)
        and mentions is not None
        and mentions.names_nothing
        and not any(
            domain_info(domain_of(target)).must_be_named
            for action in plan.actions
            for target in action.targets
        )
    )
    return (None if implied else grounding), implied


def _asks_first(
    runs: Plan, grounding: Grounded | Ungrounded | None, facts: Facts
) -> bool:
    """Whether what would run must be asked about before it runs.

    What asks first (unlocking, opening a garage door: `confirm`) asks, and
    so does a device guessed here, a tool that may change things when the
    words do not say what it acts on, and a script or scene whose name the
    words only quote: no opening verb, and words left unexplained ("my
    grandmother always said good night"), and a command that hangs on a
    condition nobody checked ("if", "wenn").
    """
    catalog, reading = facts.catalog, facts.reading
    said = facts.said.words
    commanded = reading is None or reading.imperative or not reading.unexplained
    return (
        _guessed_here(grounding, facts)
        or (facts.from_model and bool(both_ways(runs, reading)))
        # "Set it to 22 if it is above 23": nobody checked the condition.
        or (bool(runs.actions) and says_condition(said, facts.said.spoken))
        or (
            any(
                catalog.action_needs_confirmation(action.tool, target, facts.confirm)
                for action in runs.actions
                for target in action.targets
            )
            or any(
                _unsaid_subject(action.tool, catalog, said) for action in runs.actions
            )
            or (
                not commanded
                and any(
                    domain_info(domain_of(target)).must_be_named
                    for action in runs.actions
                    for target in action.targets
                )
            )
        )
    )


def _taught(runs: Plan, grounding: Grounded | Ungrounded | None, facts: Facts) -> bool:
    """Whether a model's plan that runs, grounded in the words, may be learned."""
    reading = facts.reading
    return (
        facts.from_model
        and reading is not None
        and isinstance(grounding, Grounded)
        and learns(
            facts.learn,
            answering=facts.pending or bool(facts.automation),
            question=reading.question,
        )
        and learnable(
            runs,
            grounding,
            reading.mentions,
            facts.catalog,
            facts.said,
            facts.confirm.domains,
        )
    )
