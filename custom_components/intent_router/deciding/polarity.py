"""Whether a plan goes the way the words say: on or off, open or close.

A small model sometimes reverses a verb ("turn off" planned as `turn_on`),
and words may say both ways ("open the davinci code where I left off").
The gate (gate.py) refuses a plan against the words and asks about one
that takes a side the words do not settle.
"""

from __future__ import annotations

from ..core.domains import OPPOSITES, TOGGLES, meant_verbs, verb_service
from ..core.records import Action, Plan
from ..language.tables import STATE_VERBS
from ..reading.reading import Reading


def against_the_words(plan: Plan, reading: Reading) -> tuple[Action, ...]:
    """The actions whose service is the opposite of what the verb said.

    "Turn off" planned as `turn_on`, "lock" as `unlock`: a misspelt verb
    never makes it the other. A toggle is either way ("stop the audio" as
    `media_play_pause` plays a paused player): words that say one way are
    never sent as a toggle.
    """
    return tuple(
        action
        for action in _switching(plan)
        if (meant := _meant(action, reading))
        and _service(action) not in meant
        and (OPPOSITES.get(_service(action)) in meant or _service(action) in TOGGLES)
    )


def both_ways(plan: Plan, reading: Reading | None) -> tuple[Action, ...]:
    """The actions whose opposite the words say too ("on ... no, off").

    Either way is as much the words' as the other: the model's pick of one
    is asked about, never run unasked. Not where the words name several
    things, each may have its own ("kitchen lights off and the fan on").
    """
    if reading is None:
        return ()
    if len(reading.mentions.entities) + len(reading.mentions.kinds) > 1:
        return ()
    return tuple(
        action
        for action in _switching(plan)
        if _service(action) in (meant := _meant(action, reading))
        and OPPOSITES.get(_service(action)) in meant
    )


def _switching(plan: Plan) -> list[Action]:
    """The actions that switch: one with a value ("to 40 percent") sets."""
    return [action for action in plan.actions if not action.args]


def _service(action: Action) -> str:
    """An action's service without its domain."""
    return action.tool.partition(".")[2]


def _meant(action: Action, reading: Reading) -> set[str]:
    """The services of the action's domain that the verbs said mean.

    Nothing for a question: "is the light on?" says a state, not what to do.
    """
    if reading.question:
        return set()
    domain = action.tool.partition(".")[0]
    said = meant_verbs(domain, reading.verbs & STATE_VERBS)
    return {service for v in said if (service := verb_service(domain, v))}
