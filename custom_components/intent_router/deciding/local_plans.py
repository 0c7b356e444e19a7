"""Plans built from the reading alone, when it leaves nothing open.

A verb that fits, targets the words ground (named, of a kind in the place
meant, or referred back to) and every value the service needs: the plan is
made here, in microseconds, and goes through the same validation and gate
as any plan (confirmation for locks included). "Brighter", "a bit warmer"
and "louder" step within range; "the same in the bedroom" repeats the last
actions on the same kinds of device there. Anything the reading leaves open
(a word nothing explained, two kinds a verb fits, two values, a verb and a
value that disagree) is not guessed: the model gets it (planner.py), and
when the words fit devices in several places equally, the user is asked.
Which devices the words mean is the target resolver's (targets/); what
the verb or value said means for each, the service call, is this
module's, and the resolver narrows by it (`fits`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from ..core.domains import domain_info, domain_of, meant_verbs, verb_service
from ..core.records import Action, EntityInfo, ExecutedAction, Plan
from ..core.restorers import ServiceCall
from ..home.catalog import Catalog
from ..language import Unit, Verb
from ..language.music import says_the_music
from ..language.tables import STATE_VERBS
from ..reading.reading import Reading
from ..reading.values import Value
from .targets.commanded import Choice, command_targets
from .targets.placed import candidates

# How sure a plan made from the words alone is: above any threshold a user
# sets, since nothing was guessed.
READ_CONFIDENCE = 1.0
# A player's switch said of the music: what the music does instead.
_MUSIC_SWITCHED = {Verb.ON: Verb.RESUME, Verb.OFF: Verb.PAUSE}


def plan_from_reading(
    reading: Reading,
    catalog: Catalog,
    last_actions: Sequence[ExecutedAction],
    confirm: Collection[str],
    offered: Collection[str] = (),
    referred: Sequence[str] = (),
) -> Plan | Choice | None:
    """The plan the words alone make, a question between equals, or None.

    `offered` are the choices the last question named: "the bedroom one"
    picks among them; `referred` is what "it" means (shortcuts.referred).
    """
    mentions = reading.mentions
    if reading.question or reading.unexplained or len(reading.values) > 1:
        return None
    if (
        mentions.refers_back
        and (mentions.areas or mentions.floors)
        and not (reading.verbs or reading.values or mentions.entities)
    ):
        return _same_elsewhere(reading, catalog, last_actions, confirm)
    if (mentions.entities or mentions.kinds) and not (reading.verbs or reading.values):
        reading = _as_last_time(reading, last_actions) or reading
    targets = command_targets(
        reading,
        catalog,
        offered,
        referred,
        confirm,
        fits=lambda info: _fits(info, reading),
    )
    if targets is None or isinstance(targets, Choice):
        return targets
    actions: list[Action] = []
    for info in targets:
        call = _call(info, reading)
        if call is None:
            return None
        service, args = call
        actions.append(Action(f"{info.domain}.{service}", (info.entity_id,), args))
    return Plan(merged_actions(actions), "", READ_CONFIDENCE) if actions else None


def merged_actions(actions: Sequence[Action]) -> tuple[Action, ...]:
    """One action per service and arguments, on every target they fit.

    For any plan built here or from the model's pick (options.py).
    """
    merged: dict[tuple[str, str], Action] = {}
    for action in actions:
        key = (action.tool, repr(sorted(action.args.items())))
        same = merged.get(key)
        targets = (*(same.targets if same else ()), *action.targets)
        merged[key] = Action(action.tool, tuple(dict.fromkeys(targets)), action.args)
    return tuple(merged.values())


def _call(info: EntityInfo, reading: Reading) -> ServiceCall | None:
    """The one service call the reading's verb or value means for an entity."""
    return service_call(info, verbs_for(info.domain, reading), reading.values[:1])


def verbs_for(domain: str, reading: Reading) -> frozenset[Verb]:
    """The verbs said, as a device of a domain hears them.

    "Turn on the music", "music off": the music was said, not a player, so
    the player plays or pauses; it is not switched on or off. A verb of the
    player's own said beside ("mets la musique en pause") says it already.
    """
    if (
        domain != "media_player"
        or reading.verbs & domain_info(domain).verbs.keys()
        or not says_the_music(reading.kind_words, reading.language)
    ):
        return reading.verbs
    return frozenset(_MUSIC_SWITCHED.get(verb, verb) for verb in reading.verbs)


def service_call(
    info: EntityInfo, verbs: Collection[Verb], values: Sequence[Value]
) -> ServiceCall | None:
    """The one service call verbs or a value mean for an entity.

    A verb of the domain's own ("close" for a cover) says more than a
    general one ("turn on the lamp and close the shades").
    """
    domain = domain_info(info.domain)
    meant = meant_verbs(info.domain, frozenset(verbs))
    said_states = {verb_service(info.domain, v) for v in meant & STATE_VERBS}
    said_states.discard(None)
    # "Sube la persiana", "raise the blinds": a cover's own verb, no step.
    own = meant & domain.verbs.keys()
    steps = set() if own else set(verbs) & {Verb.UP, Verb.DOWN}
    if values:
        value = values[0]
        # "Turn off ... to 40 percent" asks two things; a setter turns on.
        if domain.set_to is None or (said_states - {domain.turn_on}):
            return None
        return domain.set_to(info, _by(info, value, steps), value.unit)
    if steps:
        # "Pon la cocina más luminosa": a step said with "on" is the step.
        if len(steps) > 1 or (said_states - {domain.turn_on}) or domain.step is None:
            return None
        return domain.step(info, 1 if Verb.UP in steps else -1)
    if len(said_states) != 1:
        return None
    service = said_states.pop()
    return (service, {}) if service else None


def _by(info: EntityInfo, value: Value, steps: Collection[Verb]) -> float:
    """The value to set: "two degrees warmer" counts from the set point now.

    Only degrees with one step verb ("ein Grad wärmer", "un grado in meno");
    "warmer, 21 degrees" and a bare number are what they say.
    """
    target = info.all_attributes.get("temperature")
    if (
        value.unit is not Unit.DEGREES
        or len(steps) != 1
        or not isinstance(target, (int, float))
    ):
        return value.number
    return float(target) + (value.number if Verb.UP in steps else -value.number)


def _fits(info: EntityInfo, reading: Reading) -> bool:
    """Whether the verb or value said means something for this entity."""
    return _call(info, reading) is not None


def _as_last_time(
    reading: Reading, last_actions: Sequence[ExecutedAction]
) -> Reading | None:
    """The verb of what was last done, for what is named now ("and the fan")."""
    for action in reversed(last_actions):
        domain, _, service = action.tool.partition(".")
        verbs = {v for v in STATE_VERBS if verb_service(domain, v) == service}
        if verbs:
            return replace(reading, verbs=frozenset(verbs))
    return None


def _same_elsewhere(
    reading: Reading,
    catalog: Catalog,
    last_actions: Sequence[ExecutedAction],
    confirm: Collection[str],
) -> Plan | None:
    """The last actions again, on the same kinds of device in the place said."""
    mentions = reading.mentions
    actions: list[Action] = []
    for action in last_actions:
        kind = domain_of(action.tool)
        classes = {
            catalog.exposed[t].all_attributes.get("device_class")
            for t in action.targets
            if t in catalog.exposed
        }
        there = sorted(
            e
            for e in candidates(mentions, catalog, confirm, {kind})
            if e not in action.targets
        )
        # Blinds there for blinds here; shades when there are no blinds.
        alike = [
            e
            for e in there
            if catalog.exposed[e].all_attributes.get("device_class") in classes
        ]
        if alike or there:
            actions.append(
                Action(action.tool, tuple(alike or there), dict(action.args))
            )
    return Plan(merged_actions(actions), "", READ_CONFIDENCE) if actions else None
