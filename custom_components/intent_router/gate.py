"""The decisions that combine what a turn read, planned and remembered.

One gate for every path: whether a valid plan acts, asks which, asks
whether, or admits doubt (`decide`); what a question may still do
(`answer_only`); whether a yes answers an automation's own question
(`automation_confirms`). What grounds a target is grounding.py's, which
follow-ups apply is shortcuts.py's, what may be learned is learned.py's.
Nothing here talks to Home Assistant, so each is tested without it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from enum import StrEnum

from .catalog import Catalog
from .domains import (
    OPPOSITES,
    STATE_VERBS,
    ConfirmPolicy,
    domain_info,
    domain_of,
    verb_service,
)
from .grounding import Grounded, Ungrounded, check_grounding
from .reading import Mentions, Reading, find_mentions
from .records import Action, Plan
from .shortcuts import answers_no, answers_yes


class Decision(StrEnum):
    """What the gate makes of a valid plan."""

    EXECUTE = "execute"
    CLARIFY = "clarify"
    CONFIRM = "confirm"
    UNSURE = "unsure"
    UNGROUNDED = "ungrounded"


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


def against_the_words(plan: Plan, reading: Reading) -> tuple[Action, ...]:
    """The actions whose service is the opposite of what the verb said.

    "Turn off" planned as `turn_on`, "lock" as `unlock`: a small model
    sometimes reverses a verb, and a misspelt one never makes it the other.
    """
    if reading.question:
        return ()  # "is the light on?" says a state, not what to do
    said = reading.verbs & STATE_VERBS
    against: list[Action] = []
    for action in plan.actions:
        domain, _, service = action.tool.partition(".")
        meant = {verb_service(domain, verb) for verb in said} - {None}
        # An action with a value ("to 40 percent") sets, it does not switch.
        if action.args:
            continue
        if meant and service not in meant and OPPOSITES.get(service) in meant:
            against.append(action)
    return tuple(against)


def automation_confirms(
    plan: Plan, asked: str | None, text: str, language: str, catalog: Catalog
) -> bool:
    """Whether a yes answers an automation's own question about these targets.

    "The garage door is open, should I close it?" - "yes, close it": the
    person was asked about that garage door, so it needs no second yes.
    """
    if not asked or not answers_yes(text, language):
        return False
    named = find_mentions(asked, language, catalog).entities
    return all(t in named for action in plan.actions for t in action.targets)


def automation_refused(
    plan: Plan, asked: str | None, text: str, language: str, catalog: Catalog
) -> tuple[Action, ...]:
    """The actions on what an automation asked about, when the answer says no.

    "The garage door is open, should I close it?" - "no, leave it open for
    now": whatever the model makes of that, the garage door is not touched.
    """
    if not asked or not answers_no(text, language):
        return ()
    named = find_mentions(asked, language, catalog).entities
    return tuple(a for a in plan.actions if any(t in named for t in a.targets))


@dataclass(slots=True, frozen=True)
class Gated:
    """The gate's verdict on a valid plan.

    `plan` is what would run (the grounded part, when the plan was read
    against the words); `grounding` is the grounding verdict, None for plans
    that do not come from reading the words (follow-ups, HA's sentences).
    """

    decision: Decision
    plan: Plan
    grounding: Grounded | Ungrounded | None = None


def gate(  # noqa: PLR0913 - every fact the one gate weighs
    plan: Plan,
    catalog: Catalog,
    threshold: float,
    confirm: ConfirmPolicy,
    *,
    confirmed: bool,
    mentions: Mentions | None = None,
    last_targets: Collection[str] = (),
    offered: Collection[str] = (),
    said: Collection[str] = (),
    commanded: bool = True,
) -> Gated:
    """One gate for every path: grounding, confidence, confirmation.

    With `mentions` (a plan made for these words: the model's or a learned
    one), each target must be grounded in them (grounding.py); what asks
    first (unlocking, opening a garage door: `confirm`) asks unless
    `confirmed` already, and so does a tool that may change things when the
    words `said` do not say what it acts on, and a script or scene whose
    name the words only quote: no opening verb, and words left unexplained
    (`commanded` False: "my grandmother always said good night").
    """
    grounding = (
        check_grounding(plan, mentions, catalog, last_targets, offered, confirm.domains)
        if mentions is not None and plan.actions
        else None
    )
    # Words that name nothing ("I'm heading to bed") ground no plan, yet may
    # imply one: the model's is offered as a question, never run unasked.
    # Not a script or scene: what they do is not in the question.
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
    if implied:
        grounding = None
    runs = grounding.plan if isinstance(grounding, Grounded) else plan
    needs_confirmation = not confirmed and (
        implied
        or (
            any(
                catalog.action_needs_confirmation(action.tool, target, confirm)
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
    decision = decide(
        plan,
        threshold,
        needs_confirmation,
        grounded=not isinstance(grounding, Ungrounded),
    )
    return Gated(decision, runs, grounding)
