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
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..core.domains import domain_info, domain_of, verb_service
from ..core.records import Action, EntityInfo, ExecutedAction, Plan
from ..core.restorers import ServiceCall
from ..home.catalog import Catalog
from ..language import LANGUAGES, Unit, Verb, Words, is_called, singular
from ..language.music import says_the_music
from ..language.tables import FIXTURES, STATE_VERBS
from ..reading.named import namesakes
from ..reading.reading import Reading
from ..reading.values import Value
from .targets.placed import candidates

# How sure a plan made from the words alone is: above any threshold a user
# sets, since nothing was guessed.
READ_CONFIDENCE = 1.0
# A player's switch said of the music: what the music does instead.
_MUSIC_SWITCHED = {Verb.ON: Verb.RESUME, Verb.OFF: Verb.PAUSE}


@dataclass(slots=True, frozen=True)
class Choice:
    """The words fit devices in several places equally: ask which."""

    choices: tuple[str, ...]


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
    picked = _picked(reading, catalog, offered)
    if picked is None and mentions.which & mentions.entities:
        # Devices the words name equally, that no place or verb tells apart.
        return Choice(tuple(sorted(mentions.which)))
    targets = picked or _targets(reading, catalog, referred, confirm)
    if targets is None or isinstance(targets, Choice):
        return targets
    actions: list[Action] = []
    for info in targets:
        call = _call(info, reading)
        if call is None:
            return None
        service, args = call
        actions.append(Action(f"{info.domain}.{service}", (info.entity_id,), args))
    return Plan(_merged(actions), "", READ_CONFIDENCE) if actions else None


def _merged(actions: Sequence[Action]) -> tuple[Action, ...]:
    """One action per service and arguments, on every target they fit."""
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
    states = set(verbs) & STATE_VERBS
    own = states & set(domain.verbs)
    said_states = {verb_service(info.domain, v) for v in own or states}
    said_states.discard(None)
    # "Sube la persiana", "raise the blinds": a cover's own verb, no step.
    steps = set() if own else set(verbs) & {Verb.UP, Verb.DOWN}
    if values:
        value = values[0]
        # "Turn off ... to 40 percent" asks two things; a setter turns on.
        if domain.set_to is None or (said_states - {domain.turn_on}):
            return None
        return domain.set_to(info, _by(info, value, steps), value.unit)
    if steps:
        if len(steps) > 1 or said_states or domain.step is None:
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


def _picked(
    reading: Reading, catalog: Catalog, offered: Collection[str]
) -> list[EntityInfo] | None:
    """The choices an answer to "which one?" picks: by place, or all of them."""
    mentions = reading.mentions
    picked = [
        catalog.exposed[e]
        for e in sorted(offered)
        if e in catalog.exposed
        and (mentions.everything or catalog.exposed[e].area in mentions.areas)
    ]
    return picked if picked and all(_fits(i, reading) for i in picked) else None


def _targets(
    reading: Reading,
    catalog: Catalog,
    referred: Sequence[str],
    confirm: Collection[str],
) -> list[EntityInfo] | Choice | None:
    """What the words point at that the verb fits, or a question, or None."""
    mentions = reading.mentions
    exposed = catalog.exposed
    # "Them" after "the kitchen lights" in the same words is those lights.
    if mentions.refers_back and not (mentions.entities or _kinds_said(reading)):
        last = [exposed[t] for t in dict.fromkeys(referred) if t in exposed]
        # Else what belongs to it: "lock it" after "is the back door open?".
        fitting = [info for info in last if _fits(info, reading)] or [
            info for info in namesakes(last, catalog) if _fits(info, reading)
        ]
        return fitting or None
    named = [exposed[e] for e in sorted(mentions.entities) if e in exposed]
    if not all(_fits(info, reading) for info in named):
        return None
    said = _kinds_said(reading)
    # A kind said beside a name of it, not in the plural, is the name's ("la
    # serrure Aqara du rez-de-chaussée" is one lock, "la luminosità del
    # soffitto" that light's).
    once = (said - mentions.plural) & {i.domain for i in named}
    if not (mentions.kinds - once or mentions.everything) and named:
        return named
    by_kind = _by_kind(reading, catalog, confirm)
    if mentions.everything and isinstance(by_kind, list):
        # "Alle Rollos im Wohnzimmer": every cover there, not those called
        # so; device classes narrow, names do not.
        named = [info for info in named if info.domain not in said]
    if not named:
        return by_kind
    if isinstance(by_kind, list):
        # "The tv and the lamp": a name, and a kind no name used.
        return [
            *named,
            *(
                info
                for info in by_kind
                if info not in named and info.domain not in once
            ),
        ]
    # A kind that fits nothing adds nothing; one unclear is not guessed.
    return named if by_kind is None else None


def _by_kind(
    reading: Reading, catalog: Catalog, confirm: Collection[str]
) -> list[EntityInfo] | Choice | None:
    """The devices of the kind said (or in the place said) the verb fits."""
    mentions = reading.mentions
    exposed = catalog.exposed
    kinds = {
        kind
        for kind in mentions.kinds
        if any(_fits(i, reading) for i in exposed.values() if i.domain == kind)
    }
    place_said = bool(mentions.areas or mentions.floors)
    if not kinds and _kinds_said(reading):
        # A kind said that the verb fits nowhere ("stop the blinds", "alle
        # Lichter … ab" with its verb unread) is never everything else there.
        return None
    if not kinds and (mentions.everything or place_said):
        # "Everything in the office"; "open the garage": what the verb fits there.
        kinds = {
            info.domain
            for info in exposed.values()
            if _fits(info, reading)
            and (mentions.everything or _specific(reading, info))
        }
    elif len(kinds) != 1 and not mentions.everything:
        return None  # two kinds the verb fits ("the lamp by the window"), or none
    found = [
        exposed[e]
        for e in sorted(candidates(mentions, catalog, confirm, kinds))
        if _fits(exposed[e], reading)
        # What asks first is acted on by its own kind said, never by "all".
        and not (
            (mentions.everything or not mentions.kinds)
            and catalog.needs_confirmation(e, confirm)
            and not _specific(reading, exposed[e])
        )
    ]
    if not found:
        return None
    if not (place_said or mentions.everything) and (
        elsewhere := _called_elsewhere(found, kinds, reading, catalog, confirm)
    ):
        return Choice(tuple(info.entity_id for info in [*found, *elsewhere]))
    found = _on_first(_playing_first(found), reading)
    if not mentions.everything:
        # "The lamps": those called so; "all the lamps": every light there.
        found = _called_so(found, reading)
    here = all(catalog.is_here(info) for info in found)
    # Of several in other places, or in none, "the speaker" (one, said in
    # the singular) asks which; "the speakers" are all of them.
    if not (place_said or mentions.everything or here) and (
        len({(i.area, i.floor) for i in found}) > 1
        or (len(found) > 1 and not kinds <= mentions.plural)
    ):
        return Choice(tuple(info.entity_id for info in found))
    one_thing = not mentions.everything and len(found) > 1 and reading.fixtures
    return _as_fixture(found, reading) if one_thing else found


def _kinds_said(reading: Reading) -> set[str]:
    """The kinds a noun said, not only a verb's word ("open": a contact sensor)."""
    kinds = reading.spoken.kinds
    return {
        kind
        for kind in reading.mentions.kinds
        if kinds.get(kind, frozenset()) & reading.kind_words
    }


def _specific(reading: Reading, info: EntityInfo) -> bool:
    """Whether a verb said is the domain's own ("open" a cover, "lock")."""
    return bool(reading.verbs & set(domain_info(info.domain).verbs))


def _on_first(found: list[EntityInfo], reading: Reading) -> list[EntityInfo]:
    """For "brighter" or "dimmer", those that are on (the others stay off)."""
    if not reading.verbs & {Verb.UP, Verb.DOWN}:
        return found
    on = [info for info in found if info.state not in ("off", "unavailable")]
    return on or found


def _called_so(found: list[EntityInfo], reading: Reading) -> list[EntityInfo]:
    """Those whose name has the narrow kind word said ("the lamp": the lamps).

    A kind's own name calls them all: "las luces de la cocina" are every
    light there, not only the "Luces de los armarios".
    """
    return called_so(found, reading.narrow_words, reading.spoken) or found


class _Named(Protocol):
    """A device as a path sees it: the reading's record, or HA's state."""

    @property
    def name(self) -> str:
        """The name it goes by."""
        ...


def called_so[T: _Named](
    found: Iterable[T], said: Collection[str], spoken: Words
) -> list[T]:
    """Those whose name has a narrow kind word said, in the singular or not."""
    singulars = {singular(word, spoken) for word in said}
    return [info for info in found if is_called(info.name, singulars, spoken)]


def called_elsewhere[T: _Named](
    here: Iterable[T], elsewhere: Iterable[T], said: Collection[str], spoken: Words
) -> Iterator[T]:
    """The lamp rule: devices elsewhere called what was said, where none here is.

    "The lamp", in a kitchen whose lights are not called lamps, may be the
    study's lamp: the reading asks which, and HA's own match on the
    kitchen's lights is left to it (local_checks.py). "The light" and "the
    lights" are a kind's own name, no narrow word: they call the room's
    lamps too.
    """
    if not said or called_so(here, said, spoken):
        return iter(())
    return (info for info in elsewhere if is_called(info.name, said, spoken))


def _as_fixture(found: list[EntityInfo], reading: Reading) -> list[EntityInfo] | Choice:
    """Which of `found` is the one thing said that no name here says.

    "The lamp" may be any of a room's lights; "the floor lamp" is one of
    them: the one called by the word it shares with others of its kind
    ("Living Room Lamp" for "Stehlampe", in any language), else which one
    is asked, never all switched.
    """
    heads = {head for sense in reading.fixtures if (head := FIXTURES[sense][1])}
    called = [
        info
        for info in found
        if any(
            is_called(info.name, spoken.senses.get(head, ()), spoken)
            for head in heads
            for spoken in LANGUAGES.values()
        )
    ]
    if len(called) == 1:
        return called
    return Choice(tuple(info.entity_id for info in called or found))


def _called_elsewhere(
    found: list[EntityInfo],
    kinds: Collection[str],
    reading: Reading,
    catalog: Catalog,
    confirm: Collection[str],
) -> list[EntityInfo]:
    """Devices elsewhere called just what was said, when none found here is.

    The choice is asked (`called_elsewhere`).
    """
    others = (
        info
        for info in catalog.exposed.values()
        if info.domain in kinds and info not in found
    )
    return [
        info
        for info in called_elsewhere(
            found, others, reading.narrow_words, reading.spoken
        )
        if _fits(info, reading)
        and not catalog.needs_confirmation(info.entity_id, confirm)
    ]


def _playing_first(found: list[EntityInfo]) -> list[EntityInfo]:
    """Of media players, those playing ("louder" means what is on)."""
    playing = [i for i in found if i.domain == "media_player" and i.state == "playing"]
    others = [i for i in found if i.domain != "media_player"]
    return [*others, *playing] if playing else found


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
    return Plan(_merged(actions), "", READ_CONFIDENCE) if actions else None
