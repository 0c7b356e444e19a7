"""The reading's passes, in the order they run over one utterance.

`read()` (reading.py) marks up one `Marks` with `PASSES`, in order: each
pass reads what the passes before it marked and marks what it finds. The
words first (the utterance's own, what it answers, a complaint's frame),
then whether it asks, its verbs and values, the words as the home hears
them, what they name (mentions.py), the verbs meant, references, and
last the words nothing explained.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace

from ..core.domains import domains_acting_on, kinds_said_by
from ..core.said import Said, said_words
from ..home.catalog import Catalog
from ..language import (
    Shortcut,
    Verb,
    Words,
    content_words,
    every_kind_word,
    kind_names,
    same_thing,
    says_day_ahead,
    spans,
    stop_words,
)
from ..language.shapes import (
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
from ..language.tables import FIXTURES, OPPOSITE_VERBS
from .heard import compound_heads, generic_words, heard_as, verbs_heard, vocabulary
from .meant import kinds_meant
from .mentions import Mentions, mentions_in
from .named import Besides
from .senses import bridged, sense_bridges
from .values import Value, said_values


@dataclass(slots=True)
class Marks:
    """One utterance as the passes mark it up, roughly in the order they run.

    The first fields are `read()`'s arguments.
    """

    said: Said
    catalog: Catalog
    automation: str | None
    asked: str | None
    follows: Collection[str]
    # Words that name nothing on their own; the speaker's words of what the
    # home names in another language, bridged to the home's (senses.py).
    generic: frozenset[str] = frozenset()
    bridges: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    sense_words: frozenset[str] = frozenset()
    known_words: frozenset[str] = frozenset()
    # The utterance's own words, and those of the question it answers.
    own: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)
    complained: dict[tuple[str, Verb], set[str]] = field(default_factory=dict)
    question: bool = False
    yes_no: bool = False
    said_verbs: dict[Verb, set[str]] = field(default_factory=dict)
    values: tuple[Value, ...] = ()
    value_words: set[str] = field(default_factory=set)
    # Each word said as the home hears it, and the words so heard, in order.
    heard_forms: dict[str, list[str]] = field(default_factory=dict)
    heard: list[str] = field(default_factory=list)
    verb_at: set[int] = field(default_factory=set)
    verb_words: set[str] = field(default_factory=set)
    mentions: Mentions = field(default_factory=Mentions)
    # The words that named, placed or said a kind; those that named or placed.
    used: set[str] = field(default_factory=set)
    named_or_placed: set[str] = field(default_factory=set)
    fixtures: dict[str, set[str]] = field(default_factory=dict)
    # The verbs meant, of those said.
    verbs: set[Verb] = field(default_factory=set)
    shape: frozenset[str] = frozenset()
    # The words that refer back by themselves: "again", "both".
    back_words: set[str] = field(default_factory=set)
    # Words said in passing, which explain nothing and need no explaining.
    ignored: frozenset[str] = frozenset()
    unexplained: tuple[str, ...] = ()
    kind_words: frozenset[str] = frozenset()
    narrow_words: frozenset[str] = frozenset()
    imperative: bool = False

    @property
    def language(self) -> str:
        """The language the words are in."""
        return self.said.language

    @property
    def spoken(self) -> Words:
        """The language's words, which every pass reads (the turn's)."""
        return self.said.spoken

    @property
    def tokens(self) -> list[str]:
        """Every word read: what was asked first, then the utterance's own."""
        return [*self.context, *self.own]

    @property
    def complaint(self) -> frozenset[str]:
        """The kinds a complaint was about ("too dark": lights)."""
        return frozenset(domain for domain, _ in self.complained)

    @property
    def complaint_verbs(self) -> set[Verb]:
        """The steps a complaint asks for ("too dark": brighter)."""
        return {verb for _, verb in self.complained}


def hear_own_words(marks: Marks) -> None:
    """The utterance's own words, a verb misspelt one slip away read as it.

    Against every word the home and the language know, a name's sense said
    in another language included ("Nachttischleuchte": Bedside Lamp), so
    that no word the home knows is taken for a misspelt verb ("trun of").
    """
    language = marks.language
    marks.generic = generic_words(marks.catalog, language)
    marks.bridges = sense_bridges(marks.catalog.all_names(), language)
    marks.sense_words = frozenset(w for phrase in marks.bridges for w in phrase)
    marks.known_words = (
        vocabulary(marks.catalog, marks.said, marks.generic) | marks.sense_words
    )
    marks.own = verbs_heard(list(marks.said.terms), marks.known_words, language)


def lend_what_was_asked(marks: Marks) -> None:
    """The words of the question this answers, read before its own.

    An automation's question lends its names, places, kinds and verbs
    ("yes, close it"); the agent's own last question (`asked`: "which
    one?") lends them to an answer that says no verb of its own ("the
    bedroom one"), not to a new command.
    """
    asked = marks.asked
    if asked and phrases_said(marks.own, marks.spoken.verbs):
        asked = None
    marks.context = said_words(
        " ".join(filter(None, (marks.automation, asked))), marks.spoken
    )


def set_complaints_apart(marks: Marks) -> None:
    """A complaint ("too dark", "zu laut") says a kind and a step, as if said.

    Its word alone complains too, right after its frame, where a place is
    said ("it's dark in here", "es ist kalt im Bad").

    Its words, and its frame with it ("es ist"), refer to nothing: they
    leave the utterance's own words.
    """
    spoken = marks.spoken
    marks.complained = phrases_said(marks.own, spoken.complaints) or _bare(marks)
    if marks.complained:
        framed = {word for found in marks.complained.values() for word in found}
        framed |= {marks.own[i] for i in spans(marks.own, spoken.complaint_frame)}
        marks.own = [word for word in marks.own if word not in framed]


def _bare(marks: Marks) -> dict[tuple[str, Verb], set[str]]:
    """A complaint's word said alone, where it complains: no verb, a place said.

    "It's dark in here" complains; "it's cold today" speaks of the weather,
    "make the kitchen lights really bright" asks for something.
    """
    bare = phrases_said(marks.own, marks.spoken.bare_complaints)
    if not bare or phrases_said(marks.own, marks.spoken.verbs):
        return {}
    names = marks.catalog.place_names()
    places = {" ".join(said_words(name, marks.spoken)) for name in names}
    return bare if spans(marks.own, places | marks.spoken.here) else {}


def decide_question(marks: Marks) -> None:
    """Whether the utterance asks, and whether its answer is a yes or a no.

    Whether it asks is its own shape (language.is_question), but a
    complaint asks only with its mark ("hace calor" opens like a question)
    or of a day to come ("too cold tomorrow?"). One asking no "what",
    "which" or "how" ("ist Gas in der Küche?") is answered yes or no.
    """
    said, ahead = marks.said, says_day_ahead(marks.own, marks.spoken)
    marks.question = said.question and (
        not marks.complained or ahead or any(mark in said.text for mark in "?¿")
    )
    marks.yes_no = marks.question and not asks_which(marks.own, marks.spoken)


def find_verbs(marks: Marks) -> None:
    """The verbs said, each with its words; in a question, participles too.

    A question's participle ("ist sie abgeschlossen?") is read from the
    utterance's own words only, never from the question it answers.
    """
    marks.said_verbs = verbs_said(
        marks.tokens, marks.own, marks.spoken, question=marks.question
    )


def find_values(marks: Marks) -> None:
    """The values said with their units ("60 percent", "half"; values.py).

    Also their words, which are explained by them.
    """
    marks.values, marks.value_words = said_values(marks.tokens, marks.spoken)


def hear_as_the_home(marks: Marks) -> None:
    """Each word once as the home's words hear it ("éteinte": "éteint").

    Compounds split where the home knows their head ("Küchenlampe"), a
    name's words said in another language bridged to the name, and the
    words of a phrase that names nothing ("naar beneden", "esta
    habitación") left out.
    """
    language, spoken, tokens = marks.language, marks.spoken, marks.tokens
    heads = compound_heads(marks.catalog, language) | marks.sense_words
    phrased = said_whole(tokens, marks.said_verbs, spoken, every_kind_word(language))
    marks.heard_forms = {
        word: heard_as(word, marks.known_words, heads, spoken) for word in set(tokens)
    }
    marks.heard = bridged(
        [
            known
            for index, word in enumerate(tokens)
            if index not in phrased
            for known in marks.heard_forms[word]
        ],
        marks.bridges,
        stop_words(language),
    )


def mark_verb_words(marks: Marks) -> None:
    """Where the verbs stand in the words heard, and their words, as heard too.

    A verb's word is explained, and is no kind ("switch the fan on": no
    switch). In a question a verb's word is a state ("is the door open?"),
    so it stands nowhere.
    """
    if not marks.question:
        marks.verb_at = verb_positions(
            marks.heard,
            marks.said_verbs,
            marks.spoken,
            every_kind_word(marks.language),
        )
    marks.verb_words = {marks.heard[i] for i in marks.verb_at}
    for word in {w for found in marks.said_verbs.values() for w in found}:
        marks.verb_words |= {word, *marks.heard_forms.get(word, ())}


def find_what_is_named(marks: Marks) -> None:
    """The devices, places, kinds and references the words name (mentions.py).

    Names decide by the question, the kinds the words mean, what a
    follow-up follows up on ("and the one on the ceiling": what the last
    turn was about) and "everything" (named.Besides); "in here" is the
    speaker's room.
    """
    spoken, heard, catalog = marks.spoken, marks.heard, marks.catalog
    followed = (
        [catalog.exposed[e] for e in marks.follows if e in catalog.exposed]
        if follows_up(marks.own, bool(marks.said_verbs), spoken)
        else ()
    )
    besides = Besides(
        marks.question,
        kinds_meant(heard, marks.said_verbs, marks.complained, spoken),
        followed,
        not spoken.everything.isdisjoint(heard),
    )
    marks.mentions, marks.used, marks.named_or_placed = mentions_in(
        heard,
        marks.said,
        catalog,
        set(marks.said_verbs) | marks.complaint_verbs,
        marks.generic,
        marks.verb_at,
        besides,
        here=bool(spans(marks.tokens, spoken.here)),
    )


def add_complained_and_fixture_kinds(marks: Marks) -> None:
    """A complaint's kind, and a thing said that no name here says, are kinds said.

    "Too dark": lights. A thing said whole ("lámpara de pie", "Stehlampe";
    language.tables.FIXTURES) is one of its kind's devices: its words are
    read, its kind is said.
    """
    marks.fixtures = {
        sense: found
        for sense, found in fixtures_said(marks.heard, marks.spoken).items()
        if not found & marks.named_or_placed
    }
    marks.mentions = replace(
        marks.mentions,
        kinds=marks.mentions.kinds
        | marks.complaint
        | {FIXTURES[s][0] for s in marks.fixtures},
    )


def leave_verbs_to_names(marks: Marks) -> None:
    """A verb's word that named something is the name's, where another verb was said.

    "Turn the back door lock off" locks nothing; "enciende planta baja"
    lowers nothing; "lock the back door" does. Of two opposite verbs, one
    said by the kind's word of what is acted on ("unlock the entry lock")
    is that kind's. Where that leaves none, every verb said stays.
    """
    said_verbs, spoken = marks.said_verbs, marks.spoken
    marks.verbs = {
        v
        for v, found in said_verbs.items()
        if not found <= marks.named_or_placed
        and not (
            OPPOSITE_VERBS.get(v) in said_verbs
            and kind_said_last(found, marks.heard, marks.tokens, marks.used, spoken)
        )
    } or set(said_verbs)


def leave_the_questions_shape(marks: Marks) -> None:
    """The words that only shape a question ask nothing of the home.

    Its shape ("Auf wie viel Grad …?", "what's") is no verb, nor is a
    state's small word right before the device asked of ("what's playing
    on the bedroom speaker?"). A command's first word is its shape.
    """
    if not marks.question:
        marks.shape = frozenset(marks.own[:1])
        return
    marks.shape = question_shape(marks.own, marks.spoken)
    subjects = _subjects_said(marks.mentions, marks.catalog, marks.language, marks.used)
    marks.verbs = {
        v
        for v in marks.verbs
        if not marks.said_verbs[v] <= marks.shape
        and not introduces(
            marks.said_verbs[v], marks.heard, subjects, stop_words(marks.language)
        )
    }


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


def act_with_the_verbs_meant(marks: Marks) -> None:
    """A complaint's step is a verb meant; the verbs say what they act on.

    The domains a verb of their own was said for ("close": covers,
    valves), and, where no device was named, the kind a verb only some
    devices do says ("Sauge hier": the vacuum).
    """
    marks.verbs |= marks.complaint_verbs
    verbs = frozenset(marks.verbs)
    mentions = marks.mentions
    marks.mentions = replace(
        mentions,
        acted_on=domains_acting_on(verbs),
        kinds=mentions.kinds
        or (frozenset() if mentions.entities else kinds_said_by(verbs)),
    )


def refer_back(marks: Marks) -> None:
    """Words that refer back to the last turn: "again", a pronoun no noun follows.

    "Und wieder an": it, on again; "mach sie aus", "éteins-la", in the words
    asked too, not the article of "mach das Licht aus"; "both" (two things).
    """
    spoken, tokens = marks.spoken, marks.tokens
    again_or_both = (*spoken.shortcuts[Shortcut.AGAIN], *spoken.both)
    marks.back_words = {tokens[i] for i in spans(tokens, again_or_both)}
    if marks.back_words or closes(marks.context, spoken) or closes(marks.own, spoken):
        marks.mentions = replace(marks.mentions, refers_back=True)


def leave_unexplained(marks: Marks) -> None:
    """The words nothing explained: what a plan without the model cannot leave open.

    Words said in passing explain nothing and need nothing explained
    (`_said_in_passing`); a fixture's words are its kind's.
    """
    marks.ignored = _said_in_passing(marks)
    explained = marks.used | marks.verb_words | marks.value_words | marks.ignored
    marks.unexplained = tuple(
        word
        for word in marks.heard
        if word not in explained
        and not any(word in found for found in marks.fixtures.values())
    )


def _said_in_passing(marks: Marks) -> frozenset[str]:
    """Politeness, hedges, "in here", "too", a request's opening, "again", "it".

    "Could you ..." asks for the action: its words say nothing more. "It",
    "again" and "all" are read by other passes; "all the devices" is all.
    """
    spoken, tokens = marks.spoken, marks.tokens
    ignored = stop_words(marks.language) | marks.back_words
    also = spoken.music.also if spoken.music else ()
    ignored |= {tokens[i] for i in spans(tokens, (*spoken.hedges, *spoken.here, *also))}
    folded = marks.said.folded
    if request := next((r for r in spoken.requests if folded.startswith(r)), ""):
        ignored |= set(request.split())
    ignored |= (
        spoken.filler
        | spoken.asides
        | spoken.leads
        | spoken.reference
        | spoken.closing
        | spoken.everything
        | spoken.verb_forms
    )
    if marks.mentions.everything:
        ignored |= spoken.anything
    return ignored


def find_kind_words(marks: Marks) -> None:
    """The words that said a kind, and of those the ones narrower than it.

    A device whose name has one ("lamp", "blinds") is what they mean
    first; one that is not the kind's own name ("lamp", not "light") calls
    only the devices whose names say it.
    """
    marks.kind_words = frozenset(
        word
        for found in marks.spoken.kinds.values()
        for word in found
        if word in marks.used and word not in marks.verb_words
    )
    marks.narrow_words = same_thing(
        marks.kind_words - kind_names(marks.language), marks.language
    )


def find_an_opening_verb(marks: Marks) -> None:
    """Whether a verb opens the words, as a command does and a story does not.

    "Run the movie night routine" runs it; "the kids run around on movie
    night" asks first. Words said in passing before it do not count.
    """
    forms = marks.spoken.verb_forms
    opening = next((w for w in marks.own if w not in marks.ignored - forms), "")
    marks.imperative = opening in marks.verb_words | forms


# In this order: each pass reads what those before it marked.
PASSES: tuple[Callable[[Marks], None], ...] = (
    hear_own_words,
    lend_what_was_asked,
    set_complaints_apart,
    decide_question,
    find_verbs,
    find_values,
    hear_as_the_home,
    mark_verb_words,
    find_what_is_named,
    add_complained_and_fixture_kinds,
    leave_verbs_to_names,
    leave_the_questions_shape,
    act_with_the_verbs_meant,
    refer_back,
    leave_unexplained,
    find_kind_words,
    find_an_opening_verb,
)
