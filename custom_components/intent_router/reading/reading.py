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

`read()` runs the passes of reading_passes.py in order over one marked-up
utterance; what the words name is found in mentions.py.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from ..core.said import Said
from ..home.catalog import Catalog
from ..language import FALLBACK_LANGUAGE, LANGUAGES, Verb, Words
from .mentions import Mentions
from .reading_passes import PASSES, Marks
from .values import Value


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
    # Its words, the turn's (`Said.spoken`): what decides reads them here.
    spoken: Words = field(
        default=LANGUAGES[FALLBACK_LANGUAGE], compare=False, repr=False
    )
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
    marks = Marks(said, catalog, automation, asked, follows)
    for read_pass in PASSES:
        read_pass(marks)
    return Reading(
        marks.mentions,
        frozenset(marks.verbs),
        marks.values,
        marks.question,
        marks.unexplained,
        marks.kind_words,
        marks.narrow_words,
        marks.shape,
        marks.language,
        marks.spoken,
        marks.complaint,
        marks.imperative,
        frozenset(marks.fixtures),
        marks.yes_no,
    )


def find_mentions(text: str, language: str, catalog: Catalog) -> Mentions:
    """What a text names in the home (the reading, without verbs or values)."""
    return read(Said.of(text, language), catalog).mentions
