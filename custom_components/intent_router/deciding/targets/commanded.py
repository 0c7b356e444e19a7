"""A command's targets, as a plan from the words alone takes them.

Named devices; what "it" or "them" refers back to; devices of the one kind
said (or, with no kind, what the verb fits in the place said) in the place
meant (placed.py), narrowed to those called so and, against the lamp rule,
asked about when devices elsewhere are called what was said (called.py).
"Brighter" and "dimmer" take those that are on, "louder" the players
that play; a fixture said ("the floor lamp") is one device. Where the
words fit devices in several places equally, the user is asked which
(`Choice`). What the verb or value said fits is the plan builder's to say
(local_plans.py): it comes in as `fits`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ...core.domains import domain_info
from ...core.records import EntityInfo
from ...home.catalog import Catalog
from ...language import LANGUAGES, Verb, is_called
from ...language.tables import FIXTURES
from ...reading.mentions import Mentions
from ...reading.named import namesakes
from ...reading.reading import Reading
from .called import Fits, called_so_elsewhere, called_so_or_all
from .placed import candidates, in_place_said


@dataclass(slots=True, frozen=True)
class Choice:
    """The words fit devices in several places equally: ask which."""

    choices: tuple[str, ...]


def command_targets(
    reading: Reading,
    catalog: Catalog,
    offered: Collection[str],
    referred: Sequence[str],
    confirm: Collection[str],
    fits: Fits,
) -> list[EntityInfo] | Choice | None:
    """What the words point at that the verb fits, or a question, or None.

    `offered` are the choices the last question named: "the bedroom one"
    picks among them; `referred` is what "it" means (shortcuts.referred).
    """
    mentions = reading.mentions
    picked = _picked_from_offered(reading, catalog, offered, fits)
    if picked is None and mentions.which & mentions.entities:
        # Devices the words name equally, that no place or verb tells apart.
        return Choice(tuple(sorted(mentions.which)))
    return picked or _targets(reading, catalog, referred, confirm, fits)


def _picked_from_offered(
    reading: Reading, catalog: Catalog, offered: Collection[str], fits: Fits
) -> list[EntityInfo] | None:
    """The choices an answer to "which one?" picks: all, or those in the area said.

    A plan from the words takes a pick only as sure as that; a floor or
    "that one" is left to the rules below (`_targets`), and a plan the
    model makes for it is held to the choices by `answer_picks`.
    """
    mentions = reading.mentions
    picked = [
        catalog.exposed[e]
        for e in sorted(offered)
        if e in catalog.exposed
        and (mentions.everything or catalog.exposed[e].area in mentions.areas)
    ]
    return picked if picked and all(fits(i) for i in picked) else None


def answer_picks(target: str, mentions: Mentions, catalog: Catalog) -> bool:
    """Whether an answer to "which one?" picks an offered target a plan took.

    A place said picks what is there ("the bedroom one": its area or floor),
    not every choice; with no place, "all of them" or "that one" picks any.
    It judges a plan already made (grounding.py), so it allows what
    `_picked_from_offered`, choosing with no model, leaves to other rules.
    """
    info = catalog.exposed.get(target)
    if info is None:
        return False
    if mentions.areas or mentions.floors:
        return in_place_said(info, mentions)
    return mentions.everything or mentions.refers_back


def _targets(
    reading: Reading,
    catalog: Catalog,
    referred: Sequence[str],
    confirm: Collection[str],
    fits: Fits,
) -> list[EntityInfo] | Choice | None:
    """What the words point at that the verb fits, offered choices aside."""
    mentions = reading.mentions
    exposed = catalog.exposed
    # "Them" after "the kitchen lights" in the same words is those lights.
    if mentions.refers_back and not (mentions.entities or _kinds_said(reading)):
        last = [exposed[t] for t in dict.fromkeys(referred) if t in exposed]
        # Else what belongs to it: "lock it" after "is the back door open?".
        fitting = [info for info in last if fits(info)] or [
            info for info in namesakes(last, catalog) if fits(info)
        ]
        return fitting or None
    named = [exposed[e] for e in sorted(mentions.entities) if e in exposed]
    if not all(fits(info) for info in named):
        return None
    said = _kinds_said(reading)
    # A kind said beside a name of it, not in the plural, is the name's ("la
    # serrure Aqara du rez-de-chaussée" is one lock, "la luminosità del
    # soffitto" that light's).
    once = (said - mentions.plural) & {i.domain for i in named}
    if not (mentions.kinds - once or mentions.everything) and named:
        return named
    of_kind = _of_the_kind_meant(reading, catalog, confirm, fits)
    if mentions.everything and isinstance(of_kind, list):
        # "Alle Rollos im Wohnzimmer": every cover there, not those called
        # so; device classes narrow, names do not.
        named = [info for info in named if info.domain not in said]
    if not named:
        return of_kind
    if isinstance(of_kind, list):
        # "The tv and the lamp": a name, and a kind no name used.
        return [
            *named,
            *(
                info
                for info in of_kind
                if info not in named and info.domain not in once
            ),
        ]
    # A kind that fits nothing adds nothing; one unclear is not guessed.
    return named if of_kind is None else None


def _of_the_kind_meant(
    reading: Reading, catalog: Catalog, confirm: Collection[str], fits: Fits
) -> list[EntityInfo] | Choice | None:
    """The devices of the kind said (or in the place said) the verb fits."""
    mentions = reading.mentions
    exposed = catalog.exposed
    kinds = {
        kind
        for kind in mentions.kinds
        if any(fits(i) for i in exposed.values() if i.domain == kind)
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
            if fits(info) and (mentions.everything or _specific(reading, info))
        }
    elif len(kinds) != 1 and not mentions.everything:
        return None  # two kinds the verb fits ("the lamp by the window"), or none
    found = [
        exposed[e]
        for e in sorted(candidates(mentions, catalog, confirm, kinds))
        if fits(exposed[e])
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
        elsewhere := called_so_elsewhere(found, kinds, reading, catalog, confirm, fits)
    ):
        return Choice(tuple(info.entity_id for info in [*found, *elsewhere]))
    found = _on_first(_playing_first(found), reading)
    if not mentions.everything:
        # "The lamps": those called so; "all the lamps": every light there.
        found = called_so_or_all(found, reading)
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


def _playing_first(found: list[EntityInfo]) -> list[EntityInfo]:
    """Of media players, those playing ("louder" means what is on)."""
    playing = [i for i in found if i.domain == "media_player" and i.state == "playing"]
    others = [i for i in found if i.domain != "media_player"]
    return [*others, *playing] if playing else found


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
