"""The reading proposes, the model chooses: what the words may mean, as options.

A turn the reading cannot settle alone reaches the model. Rather than ask
a small model to write a plan or an answer, the reading lays out the
interpretations its words allow, and the model picks one:

- the devices the words point at, in groups, most telling first (the
  target resolver's, targets/grouped.py): named (misheard names
  forgiven), referred back to ("it", "the same", or what was last acted
  on when the words name nothing), of a kind said or implied in the place
  meant, or in the place said;
- what each may do: the verbs said, else, beside words the reading
  cannot read, what its domain does (on, off, brighter, open, play...); a
  value the words leave open ("to N percent") is the model's to fill in; a
  device said with nothing else is asked what it is doing;
- for a question, what it may be about: answered from the states
  (answers.py), never in the model's words. A question that names nothing
  of the home ("who am I meeting for dinner?", "who do I need to call?")
  may be about what the home keeps: its calendars, lists and weather.

The plan an option makes goes through the same validation and gate as
any plan (plan_runner.py). Words that name nothing of the home, with no
option to offer, may still be answered in words. A turn with no option at
all (what the words name is not in the home, or a tool that acts on its
own may be meant) is left to the model's own plan, which the gate holds to
the words as well.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from ..core.device_states import asked_state
from ..core.domains import meant_verbs, own_verbs
from ..core.records import Action, EntityInfo, Plan
from ..core.said import Said
from ..core.spoken import SpokenValues
from ..home.catalog import Catalog
from ..language import Unit, Verb
from ..language.music import (
    music_kind,
    says_music,
    says_the_music,
    shares_music,
    words_after_play,
    words_from_music,
)
from ..reading.reading import Reading
from ..reading.values import Value
from .answers import answer
from .local_plans import merged_actions, service_call, verbs_for
from .targets.grouped import option_groups

# Options one request may offer: a small model reads each one.
MAX_OPTIONS = 9
# How sure a plan the model chose from the reading's options is.
CHOSEN_CONFIDENCE = 1.0
# The unit a value the model fills in is in, by domain (degrees: a thermostat's).
_DEGREES_DOMAINS = frozenset({"climate", "water_heater"})
# The music tool that plays by name (music/play.py).
PLAY_TOOL = "music.play"
# An answer in the model's words (held to the home's facts by the gate).
SAY = "say"
# What a list is asked to do, with the field the request's words fill.
_LIST_SERVICES = {
    "todo": (("todo.add_item", "item"), ("todo.remove_item", "item")),
}
# What a level said with no verb may ask ("the volume": up, down, to N).
_LEVEL_VERBS = frozenset({Verb.UP, Verb.DOWN, Verb.SET})
# What a domain's devices are asked when no verb was read, in this order.
_VERB_ORDER = (
    Verb.ON,
    Verb.OFF,
    Verb.OPEN,
    Verb.CLOSE,
    Verb.LOCK,
    Verb.UNLOCK,
    Verb.RESUME,
    Verb.PAUSE,
    Verb.UP,
    Verb.DOWN,
    Verb.NEXT,
    Verb.CLEAN,
    Verb.DOCK,
    Verb.SET,
)


@dataclass(slots=True, frozen=True)
class Option:
    """One interpretation of the words the model may choose.

    An action (`verb` on `targets`, with the `value` said or, where it is
    None and the verb sets one, a number the model fills in, in
    `open_unit`), or a question about `targets` (`question`: the reading
    as if it named them, answered from the states).
    """

    targets: tuple[str, ...]
    verb: Verb | None = None
    value: Value | None = None
    open_unit: Unit | None = None
    question: Reading | None = None
    # A service or tool no verb says ("todo.add_item", "music.play"), and
    # the field of it the model fills in with words of the request.
    service: str | None = None
    text_field: str | None = None
    # What the words say of it besides (the kind of music: "the album").
    given: tuple[tuple[str, str], ...] = ()
    # The words the reading itself finds for the field, for a model that
    # picks the option but fills in nothing ("Playing X." written back).
    read_text: str | None = None

    @property
    def takes_value(self) -> bool:
        """Whether the model fills in the value ("set the lamp to N percent")."""
        return self.open_unit is not None

    @property
    def takes_text(self) -> bool:
        """Whether the model fills in words ("add X to the shopping list")."""
        return self.text_field is not None


def propose(
    reading: Reading,
    said: Said,
    catalog: Catalog,
    referred: Sequence[str],
    confirm: Collection[str],
    values: SpokenValues,
) -> tuple[Option, ...]:
    """The options the words allow, most telling first; none when nothing fits.

    A question is asked of each group; a command acts on each, or asks of a
    group that does nothing (a sensor, the weather: "tell me the weather").
    Music said is played by the words the model takes from the request;
    music shared with another speaker ("in the office too") is no option's:
    the model's own plan says where.
    """
    if shares_music(said):
        return ()
    # Music said to play comes first (a player's own verbs are rarely
    # meant), else after what the words name.
    played, plays = _played(reading, said, catalog), says_music(said)
    first = played is not None and plays
    found: list[Option] = [played] if played and first else []
    for group in option_groups(reading, catalog, referred, confirm):
        if not _asked_to_act(reading, catalog.exposed[group[0]].domain):
            asked = _asked(reading, group, catalog, values, confirm)
            found += [asked] if asked else []
        else:
            found += _acts(reading, group, catalog, plays=plays)
    if played is not None and not first:
        found.append(played)
    options = tuple(dict.fromkeys(found))[: MAX_OPTIONS - 1]
    if reading.mentions.names_nothing and (options or not _tools_alone(catalog)):
        # Words that name nothing of the home may be about something else
        # ("tell me a joke"): an answer in words, held to the facts. Where
        # nothing else fits, it is the only option: a plan of the model's
        # own would act on whatever it guesses.
        options = (*options, Option((), service=SAY, text_field=SAY))
    return options


def _tools_alone(catalog: Catalog) -> bool:
    """Whether the home has tools that act on their own (MCP), beyond any option.

    Words that name nothing may be meant for one; only the model's own
    plan can call it.
    """
    return any(tool.kind is None for tool in catalog.tools.values())


def _asked_to_act(reading: Reading, domain: str) -> bool:
    """Whether the words may ask a domain's devices to do something.

    A list is asked by its words alone ("milk on the shopping list"); any
    other device by a verb or a value said, or by words the reading cannot
    read, which may be a verb it does not know ("slow the volume", "could
    the bed light be a touch livelier"). A device said with nothing else
    ("climate", "kitchen window") is asked what it is doing: a small model
    offered actions there picks the first.
    """
    if reading.question:
        return False
    if domain in _LIST_SERVICES:
        return True
    return bool(own_verbs(domain)) and bool(
        reading.verbs or reading.values or reading.unexplained
    )


def _played(reading: Reading, said: Said, catalog: Catalog) -> Option | None:
    """Music by a name the model takes from the words, where music is said.

    The kind of music said ("the album") goes with it. A player said by its
    level alone ("the volume") asks for no music, nor does music itself
    with nothing to search ("let me hear some music": the player plays).
    """
    if reading.question or PLAY_TOOL not in catalog.tools:
        return None
    # A player said, not by its level: "the volume" is no music to play.
    player = "media_player" in reading.mentions.kinds and not _level_said(
        reading, "media_player"
    )
    if not (player or says_music(said)):
        return None
    kind = music_kind(said)
    read = words_after_play(said) or words_from_music(said)
    if read is None and kind is None and says_the_music(said.terms, said.language):
        return None
    given = (("kind", kind),) if kind else ()
    return Option(
        (), service=PLAY_TOOL, text_field="query", given=given, read_text=read
    )


def chosen_plan(
    option: Option, value: float | None, text: str | None, catalog: Catalog
) -> Plan | None:
    """The plan an action option makes, with what the model filled in.

    None when the option needs a value or words the model did not give, or
    the value fits none of its devices (31 percent of a thermostat).
    """
    if option.service is not None:
        return _worded(option, text)
    said = option.value
    if option.takes_value:
        said = None if value is None else Value(value, option.open_unit)
        if said is None:
            return None
    calls = [
        (info, service_call(info, {option.verb}, (said,) if said else ()))
        for target in option.targets
        if option.verb is not None and (info := catalog.exposed.get(target))
    ]
    if len(calls) != len(option.targets) or any(c is None for _, c in calls):
        return None
    actions = [
        Action(f"{info.domain}.{call[0]}", (info.entity_id,), call[1])
        for info, call in calls
        if call is not None
    ]
    return Plan(merged_actions(actions), "", CHOSEN_CONFIDENCE)


def _worded(option: Option, text: str | None) -> Plan | None:
    """The plan of an option the model's words complete (an item, a name)."""
    text = text or option.read_text
    if not (text and option.text_field and option.service):
        return None
    if option.service == SAY:
        return Plan((), text, CHOSEN_CONFIDENCE)
    args = {**dict(option.given), option.text_field: text}
    action = Action(option.service, option.targets, args)
    return Plan((action,), "", CHOSEN_CONFIDENCE)


def _acts(
    reading: Reading, group: tuple[str, ...], catalog: Catalog, *, plays: bool
) -> list[Option]:
    """What a group of devices may be asked to do.

    The verbs said, with the value said; a value alone sets it; with
    neither, what the domain does, a setting's value left to the model
    (music said to play, `plays`: a player only plays).
    """
    infos = [catalog.exposed[t] for t in group]
    if infos[0].domain in _LIST_SERVICES:
        return [
            Option(group, service=service, text_field=field)
            for service, field in _LIST_SERVICES[infos[0].domain]
        ]
    value = reading.values[0] if reading.values else None
    said = meant_verbs(infos[0].domain, verbs_for(infos[0].domain, reading)) or (
        frozenset({Verb.SET}) if value else frozenset()
    )
    order = _VERB_ORDER if said else _changes_first(infos)
    verbs = said or _unsaid(reading, infos[0].domain, plays=plays)
    # One option a call: a cover's "on" is its "open".
    offered: dict[str, Option] = {}
    for verb in (v for v in order if v in verbs):
        option = _act(verb, infos, value)
        if option is not None:
            call = service_call(infos[0], {verb}, (value,) if value else ())
            offered.setdefault(repr(call) if call else verb.name, option)
    return list(offered.values())


def _unsaid(reading: Reading, domain: str, *, plays: bool) -> frozenset[Verb]:
    """What a domain's devices may be asked where no verb was read.

    Its level said ("the volume", "die Helligkeit"): that level up, down or
    set, not on, off or the next track. Music said to play ("arrange and
    play all songs of Eminem"): a player plays, and nothing else. Else all
    it does but a setting to a number: with neither a verb nor a level
    said, any number would be the model's own ("change the colour of the
    lights": 50 percent).
    """
    verbs = own_verbs(domain)
    if _level_said(reading, domain):
        return (verbs & _LEVEL_VERBS) or verbs
    if plays and Verb.RESUME in verbs:
        return frozenset({Verb.RESUME})
    return verbs - {Verb.SET}


def _level_said(reading: Reading, domain: str) -> bool:
    """Whether the words say a domain's level ("the volume" of a player)."""
    spoken = reading.spoken
    levels = spoken.quantities & spoken.kinds.get(domain, frozenset())
    return bool(reading.kind_words & levels)


def _changes_first(infos: Sequence[EntityInfo]) -> tuple[Verb, ...]:
    """The verbs in their order, those whose result every device shows last.

    No verb was read ("I'm heading to bed"): a small model picks the first
    option more often than not, and switching on lights that are on is
    the least likely meaning of words that ask for something.
    """

    def shown(verb: Verb) -> bool:
        return all(
            asked_state(verb, i.domain, i.all_attributes.get("device_class"), i.state)
            for i in infos
        )

    return tuple(sorted(_VERB_ORDER, key=shown))


def _act(verb: Verb, infos: list[EntityInfo], value: Value | None) -> Option | None:
    """One verb on a group, when every device in it can do it."""
    targets = tuple(info.entity_id for info in infos)
    if verb is Verb.SET and value is None:
        unit = Unit.DEGREES if infos[0].domain in _DEGREES_DOMAINS else Unit.PERCENT
        probe = Value(21 if unit is Unit.DEGREES else 50, unit)
        if all(service_call(info, {verb}, (probe,)) for info in infos):
            return Option(targets, verb, open_unit=unit)
        return None
    if all(service_call(info, {verb}, (value,) if value else ()) for info in infos):
        return Option(targets, verb, value)
    return None


def _asked(
    reading: Reading,
    group: tuple[str, ...],
    catalog: Catalog,
    values: SpokenValues,
    confirm: Collection[str],
) -> Option | None:
    """A question as if it named a group: offered when the states answer it."""
    named = replace(
        reading,
        mentions=replace(
            reading.mentions, entities=frozenset(group), which=frozenset()
        ),
        verbs=reading.verbs if reading.question else frozenset(),
        question=True,
        unexplained=(),
        complaint=frozenset(),
    )
    if answer(named, catalog, values, confirm) is None:
        return None
    return Option(group, question=named)
