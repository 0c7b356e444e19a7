"""One reading of an utterance, before anything else decides.

Each word is explained at most once, against the home (catalog.py) and the
language's words (language/), read as the language writes them: elision
stripped, pronouns split off verbs, compounds split where the home knows
their head, verb forms never taken for kinds:

- names of entities and their aliases: the longest, best match wins, typos
  of six letters or more forgiven; of devices the words name equally, the
  verb decides ("unlock" fits a lock, not the contact sensor of the same
  name);
- areas and floors;
- kinds of device, from words no name used ("door" in "Back Door" is not
  also a kind), narrowed to device classes where a word says one ("door":
  door and garage covers, not blinds);
- verbs ("turn off", "unlock", "brighter", "set"), values with their units
  ("60 percent", "21 degrees", "half"; values.py), pronouns that refer back
  ("it", "them", "mach sie aus", not the article of "mach das Licht aus")
  or words that widen to everything;
- complaints ("too dark", "zu laut"): a kind and a step, as if said;
- whether it is a question, and the words nothing explained.

The reading answers questions from states and builds plans without a model
where it is complete (local_plans.py, answers.py); the gate grounds every
plan in it (grounding.py), and the model is asked only for what it leaves
open (planner.py).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .catalog import Catalog
from .domains import domains_acting_on, kinds_said_by
from .heard import compound_heads, generic_words, heard_as, verbs_heard, vocabulary
from .language import (
    FALLBACK_LANGUAGE,
    LANGUAGES,
    Shortcut,
    Verb,
    content_words,
    every_kind_word,
    kind_names,
    plural_kinds,
    same_thing,
    spans,
    stop_words,
    words,
    words_for,
)
from .language.shapes import (
    asks_which,
    closes,
    fixtures_said,
    follows_up,
    introduces,
    kind_said_last,
    phrases_said,
    question_shape,
    said_whole,
    verb_positions,
    verbs_said,
)
from .language.tables import FIXTURES, OPPOSITE_VERBS
from .meant import kinds_meant
from .named import Besides, heads_of_names, named, resolved
from .places import in_places, places_apart, places_said
from .records import EntityInfo
from .said import Said, said_words
from .senses import bridged, sense_bridges
from .values import Value, said_values

# A "door" is also a garage door or a gate (never a blind); only the class
# said itself lets what asks first be meant without its name.
_ALSO_MEANT = {"cover.door": ("cover.garage", "cover.gate")}
# What covers a window goes by words languages split differently ("volet",
# "Rollladen", "rolluik": shutter or roller shade): where none of the class
# said is there, the others are what was meant.
_WINDOW_COVERINGS = frozenset({"cover.blind", "cover.shade", "cover.shutter"})


@dataclass(slots=True, frozen=True)
class Mentions:
    """What an utterance names: entities, places, kinds, and references.

    `classes` narrows kinds to device classes ("cover.door"): an entity of
    that domain with another class is not meant.
    """

    entities: frozenset[str] = frozenset()
    areas: frozenset[str] = frozenset()
    floors: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    everything: bool = False
    refers_back: bool = False
    classes: frozenset[str] = frozenset()
    # Kinds said in the plural apart from any name ("lights"): every device
    # of the kind.
    plural: frozenset[str] = frozenset()
    # Domains a verb of their own was said for ("close": covers, valves).
    acted_on: frozenset[str] = frozenset()
    # Devices the words name equally that neither place nor verb tells
    # apart ("the reading light" in two rooms, "reading" for a light and a
    # fan): a plan on them asks which.
    which: frozenset[str] = frozenset()

    @property
    def names_nothing(self) -> bool:
        """Whether the words point at no device, kind or place at all."""
        return not (
            self.entities
            or self.kinds
            or self.areas
            or self.floors
            or self.everything
            or self.refers_back
        )

    def fits_class(self, info: EntityInfo, *, loosely: bool = False) -> bool:
        """Whether an entity's device class is one the words allow.

        `loosely`, any window covering stands for another.
        """
        said = {c for c in self.classes if c.partition(".")[0] == info.domain}
        said |= {also for c in said for also in _ALSO_MEANT.get(c, ())}
        if loosely and said & _WINDOW_COVERINGS:
            said |= _WINDOW_COVERINGS
        device_class = info.all_attributes.get("device_class")
        if device_class:
            return not said or f"{info.domain}.{device_class}" in said
        # No class set: the name may say one ("Garage" is no curtain).
        named_as = _named_classes(info.name, info.domain)
        return not said or not named_as or bool(named_as & said)


@lru_cache(maxsize=1024)
def _named_classes(name: str, domain: str) -> frozenset[str]:
    """The device classes a name says in any language ("Garage", "Tenda")."""
    said = words(name)
    return frozenset(
        device_class
        for spoken in LANGUAGES.values()
        for device_class, phrases in spoken.classes.items()
        if device_class.partition(".")[0] == domain and spans(said, phrases)
    )


@dataclass(slots=True, frozen=True)
class Reading:
    """Everything the words of one turn say, each word explained once."""

    mentions: Mentions = field(default_factory=Mentions)
    verbs: frozenset[Verb] = frozenset()
    values: tuple[Value, ...] = ()
    question: bool = False
    unexplained: tuple[str, ...] = ()
    # The words that said a kind ("lamp", "blinds"): a device whose name has
    # one is what they mean first.
    kind_words: frozenset[str] = frozenset()
    # Those that are not a kind's own name ("lamp", not "light"): they call
    # only the devices whose names say them.
    narrow_words: frozenset[str] = frozenset()
    # Words that only shape a question: the first one said ("what's") and
    # the language's one-word openers wherever they stand ("¿Kettle está
    # encendido?").
    question_words: frozenset[str] = frozenset()
    # The language the words are in (their plurals, for names called so).
    language: str = FALLBACK_LANGUAGE
    # The kinds a complaint was about ("too dark": lights): a place with
    # none of them to change hears so.
    complaint: frozenset[str] = frozenset()
    # Whether a verb opens the words ("run the movie night routine"), as a
    # command does and a story ("the kids run around on movie night") not.
    imperative: bool = False
    # Things said that no name here says ("Stehlampe", "lámpara de pie"), by
    # their sense (language.tables.FIXTURES): one of the kind's devices.
    fixtures: frozenset[str] = frozenset()
    # A question asking no "what", "which" or "how" ("ist Gas in der
    # Küche?"): its answer is a yes or a no.
    yes_no: bool = False


def read(
    said: Said,
    catalog: Catalog,
    *,
    automation: str | None = None,
    asked: str | None = None,
    follows: Collection[str] = (),
) -> Reading:
    """Read an utterance against the home, with what it answers.

    An automation's question lends its names, places, kinds and verbs ("yes,
    close it"); the agent's own last question (`asked`: "which one?") lends
    them to an answer that says no verb of its own ("the bedroom one"), not
    to a new command. Whether this is a question is the utterance's own.
    `follows`: what the last turn was about, whose place and kind a
    follow-up means first ("and the one on the ceiling").
    """
    language = said.language
    spoken = words_for(language)
    generic = generic_words(catalog, language)
    bridges = sense_bridges(catalog.all_names(), language)
    said_senses = frozenset(w for phrase in bridges for w in phrase)
    known_words = vocabulary(catalog, language, generic) | said_senses
    own = verbs_heard(list(said.terms), known_words, language)
    if asked and spoken and phrases_said(own, spoken.verbs):
        asked = None
    context = said_words(" ".join(filter(None, (automation, asked))), language)
    complained = phrases_said(own, spoken.complaints) if spoken else {}
    # A complaint says its kind and step; "es ist" with it refers to nothing.
    framed = {word for found in complained.values() for word in found}
    if complained and spoken:
        framed |= {own[i] for i in spans(own, spoken.complaint_frame)}
        own = [word for word in own if word not in framed]
    tokens = [*context, *own]
    # A complaint asks only with its mark ("hace calor" opens like a question).
    question = said.question and (
        not complained or any(mark in said.text for mark in "?¿")
    )
    said_verbs = verbs_said(tokens, own, spoken, question=question) if spoken else {}
    complaint_verbs = {verb for _, verb in complained}
    values, value_words = said_values(tokens, language)
    heads = compound_heads(catalog, language) | said_senses
    # Phrases whose words name nothing ("naar beneden", "esta habitación").
    phrased = (
        said_whole(tokens, said_verbs, spoken, every_kind_word(language))
        if spoken
        else set()
    )
    # Each word as the home's words hear it, once ("éteinte": "éteint").
    heard_forms = {
        word: heard_as(word, known_words, heads, language, spoken)
        for word in set(tokens)
    }
    heard = bridged(
        [
            known
            for index, word in enumerate(tokens)
            if index not in phrased
            for known in heard_forms[word]
        ],
        bridges,
        stop_words(language),
    )
    # In a question a verb's word is a state ("is the door open?").
    verb_at = (
        set()
        if question
        else verb_positions(heard, said_verbs, spoken, every_kind_word(language))
    )
    mentions, used, named_or_placed = _mentions(
        heard,
        language,
        catalog,
        set(said_verbs) | complaint_verbs,
        generic,
        verb_at,
        Besides(
            question,
            kinds_meant(heard, said_verbs, complained, language),
            [catalog.exposed[e] for e in follows if e in catalog.exposed]
            if spoken and follows_up(own, bool(said_verbs), spoken)
            else (),
            spoken is not None and not spoken.everything.isdisjoint(heard),
        ),
        # "In here", "hier drin": the speaker's room is the place said.
        here=bool(spoken and spans(tokens, spoken.here)),
    )
    complaint = frozenset(domain for domain, _ in complained)
    # A thing said whole that no name here says ("lámpara de pie"): its
    # words are read, its kind is said.
    fixtures = {
        sense: found
        for sense, found in fixtures_said(heard, spoken).items()
        if not found & named_or_placed
    }
    mentions = replace(
        mentions,
        kinds=mentions.kinds | complaint | {FIXTURES[s][0] for s in fixtures},
    )
    # A verb's word that named a device or a place is the name's when
    # another verb was said ("turn the back door lock off" locks nothing;
    # "enciende planta baja" lowers nothing; "lock the back door" does).
    verbs = {
        v
        for v, found in said_verbs.items()
        if not found <= named_or_placed
        and not (
            OPPOSITE_VERBS.get(v) in said_verbs
            and spoken is not None
            and kind_said_last(found, heard, tokens, used, spoken)
        )
    } or set(said_verbs)
    # A question's shape asks for nothing ("Auf wie viel Grad …?" opens none).
    shape = question_shape(own, spoken) if question else frozenset(own[:1])
    if question:
        subjects = _subjects_said(mentions, catalog, language, used)
        verbs = {
            v
            for v in verbs
            if not said_verbs[v] <= shape
            and not introduces(said_verbs[v], heard, subjects, stop_words(language))
        }
    verbs |= complaint_verbs
    # A verb's words, also as heard.
    verb_words = {heard[i] for i in verb_at}
    for word in {w for found in said_verbs.values() for w in found}:
        verb_words |= {word, *heard_forms.get(word, ())}
    mentions = replace(
        mentions,
        acted_on=domains_acting_on(frozenset(verbs)),
        # "Sauge hier": a verb only some devices do says their kind, unnamed.
        kinds=mentions.kinds
        or (frozenset() if mentions.entities else kinds_said_by(frozenset(verbs))),
    )
    # "Again" repeats what was last done ("und wieder an": it, on again).
    again = (
        {tokens[i] for i in spans(tokens, spoken.shortcuts[Shortcut.AGAIN])}
        if spoken
        else set()
    )
    if again or (spoken and (closes(context, spoken) or closes(own, spoken))):
        mentions = replace(mentions, refers_back=True)
    hedges = (
        {tokens[i] for i in spans(tokens, spoken.hedges | spoken.here)}
        if spoken
        else set()
    )
    # "Could you ..." asks for the action: its words say nothing more.
    if spoken and (
        request := next((r for r in spoken.requests if said.folded.startswith(r)), "")
    ):
        hedges |= set(request.split())
    # Politeness, "it" and "all" are read elsewhere.
    ignored = (
        stop_words(language)
        | again
        | hedges
        | (
            spoken.filler
            | spoken.asides
            | spoken.leads
            | spoken.reference
            | spoken.closing
            | spoken.everything
            | spoken.verb_forms
            if spoken
            else frozenset()
        )
        # "All the devices", "alle Geräte", "tous les appareils": everything.
        | (spoken.anything if spoken and mentions.everything else frozenset())
    )
    unexplained = tuple(
        word
        for word in heard
        if word not in used | verb_words | value_words | ignored
        and not any(word in found for found in fixtures.values())
    )
    forms = spoken.verb_forms if spoken else frozenset()
    opening = next((w for w in own if w not in ignored - forms), "")
    kind_words = frozenset(
        word
        for found in (spoken.kinds.values() if spoken else ())
        for word in found
        if word in used and word not in verb_words
    )
    return Reading(
        mentions,
        frozenset(verbs),
        values,
        question,
        unexplained,
        kind_words,
        same_thing(kind_words - kind_names(language), language),
        shape,
        language,
        complaint,
        opening in verb_words | forms,
        frozenset(fixtures),
        question and not (spoken and asks_which(own, spoken)),
    )


def _subjects_said(
    mentions: Mentions, catalog: Catalog, language: str, used: set[str]
) -> list[frozenset[str]]:
    """The words of each device said, and the kind words said, apart."""
    return [
        *(
            content_words(catalog.exposed[entity_id].name, language)
            for entity_id in mentions.entities
        ),
        frozenset(used) & every_kind_word(language),
    ]


def find_mentions(text: str, language: str, catalog: Catalog) -> Mentions:
    """What a text names in the home (the reading, without verbs or values)."""
    return read(Said.of(text, language), catalog).mentions


def _mentions(
    heard: list[str],
    language: str,
    catalog: Catalog,
    verbs: set[Verb],
    generic: frozenset[str],
    verb_at: set[int],
    besides: Besides,
    *,
    here: bool,
) -> tuple[Mentions, set[str], set[str]]:
    """Names first, then places, then kinds from the words left.

    A verb's word ("switch the fan on") is no kind, and a kind word beside a
    name of that kind is the name's ("the desk lamp light"). Also the words
    used, and of those the ones that named a device or a place. `besides`
    decides between names (named.py); `here`: "in here" was said.
    """
    spoken = words_for(language)
    said = set(heard)
    plural = plural_kinds(said, spoken, language)
    said_places = places_said(said, catalog, language, here=here)
    names = named(
        catalog,
        said,
        language,
        verbs,
        generic,
        plural,
        replace(besides, follows=()) if any(said_places) else besides,
    )
    areas, floors = places_apart(heard, names, catalog, language, here=here)
    names = in_places(names, (areas, floors), catalog, language)
    name_words = {word for hit in names.values() for word in hit}
    name_words |= heads_of_names(heard, names, catalog, language)
    used = name_words | {
        w
        for place in (
            *areas,
            *floors,
            *(a for p in areas for a in catalog.area_aliases.get(p, ())),
        )
        for w in content_words(place, language)
        if w in said
    }
    named_or_placed = set(used)
    left = {w for i, w in enumerate(heard) if i not in verb_at} - used
    # Devices named alike are told apart by every place word, a name's own
    # too ("the office lamp and the lights in the kitchen").
    entities, which = resolved(names, *said_places, catalog, plural)
    kind_words = {
        domain: found & left
        for domain, found in (spoken.kinds.items() if spoken else ())
        if found & left
    }
    # A verb's word implies its kind ("pause": what plays) only where no
    # other word says one and no name says what it is for: "pause the
    # vacuum" is no music, "dim the hallway ceiling" no other light.
    verb_words = {
        word
        for verb in verbs
        for phrase in (spoken.verbs.get(verb, ()) if spoken else ())
        for word in phrase.split()
    }
    kinds = {d for d, found in kind_words.items() if found - verb_words} or (
        set() if entities else set(kind_words)
    )
    classes = frozenset(
        name
        for name, found in (spoken.classes.items() if spoken else ())
        if found & left or spans(heard, frozenset(p for p in found if " " in p))
    )
    kinds |= {name.partition(".")[0] for name in classes}
    used |= {
        word
        for found in (
            (*spoken.kinds.values(), *spoken.classes.values()) if spoken else ()
        )
        for word in found & left
    }
    return (
        Mentions(
            entities=entities,
            areas=areas,
            floors=floors,
            kinds=frozenset(kinds),
            everything=spoken is not None and bool(left & spoken.everything),
            refers_back=spoken is not None and bool(left & spoken.reference),
            classes=classes,
            which=which,
            # Said apart from the names: "Master Bedroom Lights" is one light.
            plural=frozenset(plural_kinds(left, spoken, language)),
        ),
        used,
        named_or_placed,
    )
