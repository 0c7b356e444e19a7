"""Words, in every language the integration ships: the one place for them.

One tokenizer (`fold`, `words`) reads every utterance, name and table, so a
word listed here is the word read from what was said. Each language is one
data file of this package's folder named by its code (`en.yaml`, `de.yaml`,
...), read and checked when this package is imported (in Home Assistant's
executor, with the integration; files.py), so adding a language is one
words file and one translation file, nothing to register.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
import re

from .files import read_languages, unshipped_words
from .tables import GAP, MIN_PART, Shortcut, Unit, Verb, Words, fold, plain

__all__ = [
    "FALLBACK_LANGUAGE",
    "GAP",
    "LANGUAGES",
    "UNSHIPPED",
    "Shortcut",
    "Unit",
    "Verb",
    "Words",
    "base_language",
    "capitalises_nouns",
    "compound",
    "conditions_at",
    "content_words",
    "decimal_mark",
    "elide",
    "euphonic",
    "every_kind_word",
    "fold",
    "is_question",
    "kind_words",
    "name_terms",
    "number",
    "same_thing",
    "says_condition",
    "singular",
    "spans",
    "stop_words",
    "terms",
    "words",
    "words_for",
]

# A word as its elided start and the rest ("m'accendi": "m'", "accendi").
_ELIDED = re.compile(r"[^']+'|[^']+")
# Unshipped languages are read with these stop words, as all were before
# each language had its own.
FALLBACK_LANGUAGE = "en"
# What speech-to-text writes for a question; folding drops them, so they are
# looked for in the text as said.
_QUESTION_MARKS = ("?", "\u00bf")
# What a word that elides its vowel must be followed by ("d'Adele").
_VOWEL_NEXT = "(?=(?i:[aeiouyàâæéèêëîïôœùûü]))"


def words(text: str) -> list[str]:
    """The words of a text, as every table here is written."""
    return fold(text).split()


def spans(tokens: list[str], phrases: Collection[str]) -> set[int]:
    """Where in `tokens` any of the phrases is said (the indexes it covers).

    A phrase with a gap ("schalte … ab") is a separable verb: its first
    part, then its last anywhere after it ("schalte das Licht im Flur ab").
    """
    found: set[int] = set()
    for phrase in phrases:
        first, gap, last = phrase.partition(f" {GAP} ")
        if gap:
            found.update(_separated(tokens, first, last))
            continue
        parts = phrase.split()
        for start in range(len(tokens) - len(parts) + 1):
            if tokens[start : start + len(parts)] == parts:
                found.update(range(start, start + len(parts)))
    return found


def _separated(tokens: list[str], first: str, last: str) -> set[int]:
    """Where a separable verb's two parts are said, in order."""
    start = next((i for i, word in enumerate(tokens) if word == first), None)
    if start is None:
        return set()
    end = next(
        (i for i in range(len(tokens) - 1, start, -1) if tokens[i] == last), None
    )
    return set() if end is None else {start, end}


@lru_cache(maxsize=64)
def base_language(language: str) -> str:
    """The language of a tag without its region ("de" for "de-CH", "pt_BR")."""
    return language.replace("_", "-").partition("-")[0].casefold()


# The folders whose `<code>.yaml` files are the languages: this package's.
WORDS_FOLDERS = (Path(__file__).parent,)
# Read here, with the integration, never in the event loop.
LANGUAGES: Mapping[str, Words] = read_languages(WORDS_FOLDERS)
# The words of every language not shipped: each table empty, nothing matches.
UNSHIPPED: Words = unshipped_words()


def words_for(language: str) -> Words:
    """The words of a language tag ("de-CH" is "de"); `UNSHIPPED` if not shipped."""
    return LANGUAGES.get(base_language(language), UNSHIPPED)


def kind_words(domain: str, language: str) -> frozenset[str]:
    """Words naming a domain's kind of device in a language (none unshipped)."""
    return words_for(language).kinds.get(domain, frozenset())


def narrow_kind_words(domain: str, language: str) -> frozenset[str]:
    """A kind's words that are not a kind's own name ("lamp", not "light")."""
    return kind_words(domain, language) - kind_names(language)


@cache
def kind_names(language: str) -> frozenset[str]:
    """Every kind's own name in a language ("light", "lights", "fan", ...)."""
    return frozenset().union(*words_for(language).kind_names.values())


def stop_words(language: str) -> frozenset[str]:
    """The words that say nothing in a name; English for unshipped languages."""
    return LANGUAGES.get(base_language(language), LANGUAGES[FALLBACK_LANGUAGE]).stop


@lru_cache(maxsize=8192)
def content_words(text: str, language: str) -> frozenset[str]:
    """The words of a name that say something ("the", "der" do not).

    Cached: the home's names are read on every turn.
    """
    return frozenset(name_terms(text, language)) - stop_words(language)


def distinctive_words(name: str, language: str) -> frozenset[str]:
    """A name's words that no kind says ("netatmo smart" of a thermostat's)."""
    return content_words(name, language) - every_kind_word(language)


@lru_cache(maxsize=8192)
def name_terms(name: str, language: str) -> tuple[str, ...]:
    """A name's `terms`, cached: the home's names are read on every turn."""
    return tuple(terms(name, words_for(language)))


def is_called(name: str, said: Collection[str], spoken: Words) -> bool:
    """Whether a name has one of these words, alone or as a compound's end.

    "Study Lamp" and "Schreibtischlampe" are called "lamp" and "lampe";
    "Kitchen Lights" is not called "lamp". The name's words are also read
    without their plural ending (`singular`), in the language of `spoken`.
    """
    return any(
        word.endswith(kind) or singular(word, spoken).endswith(kind)
        for word in words(name)
        for kind in said
    )


@lru_cache(maxsize=256)
def same_thing(said: frozenset[str], language: str) -> frozenset[str]:
    """Words said, with every language's one word for each thing among them.

    A home named in English calls a lamp "Lamp" where a German speaker says
    "Lampe": the senses tables' words of the same thing ("lamp").
    """
    found = set(said)
    for sense, phrases in words_for(language).senses.items():
        if phrases & found:
            found.update(
                phrase
                for other in LANGUAGES.values()
                for phrase in other.senses.get(sense, ())
                if " " not in phrase
            )
    return frozenset(found)


def singular(word: str, spoken: Words) -> str:
    """A word without the language's plural ending ("lamps", "Lampen": "lamp").

    The ending is stripped from singulars too ("Lampe": "lamp"), so that a
    word said and a name compare by their stems; unshipped languages have
    no endings.
    """
    for ending in spoken.plurals:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_PART:
            return word.removesuffix(ending)
    return word


def plural_kinds(said: set[str], spoken: Words) -> set[str]:
    """The kinds said in the plural ("lights": the table has "light" too)."""
    return {
        kind
        for kind, found in spoken.kinds.items()
        for word in found & said
        if any(
            len(other) < len(word) and singular(other, spoken) == singular(word, spoken)
            for other in found
        )
    }


def decimal_mark(language: str) -> str:
    """How the language writes a decimal ("," for "21,5"); "." unshipped."""
    return words_for(language).decimal_mark


def capitalises_nouns(language: str) -> bool:
    """Whether the language's nouns keep their capital ("Heizbetrieb")."""
    return words_for(language).capitalised_nouns


def elide(text: str, language: str) -> str:
    """A sentence with the language's elisions made ("de Adele": "d'Adele")."""
    pattern = _elision(base_language(language))
    return pattern.sub(lambda found: f"{found[1][:-1]}'", text) if pattern else text


@cache
def _elision(language: str) -> re.Pattern[str] | None:
    """The words that elide before a vowel, as one pattern; None if none do."""
    spoken = LANGUAGES.get(language, UNSHIPPED)
    if not spoken.elided:
        return None
    elided = "|".join(sorted(map(re.escape, spoken.elided), key=len, reverse=True))
    return re.compile(rf"\b((?i:{elided})) {_VOWEL_NEXT}")


def euphonic(joiner: str, last: str, language: str) -> str:
    """A list's joiner as said before its last word ("y" is "e" before "Iris")."""
    for usual, (other, sound) in words_for(language).euphony.items():
        if sound.match(last):
            joiner = joiner.replace(f" {usual} ", f" {other} ")
    return joiner


def terms(text: str, spoken: Words) -> list[str]:
    """The words of a text as names and tables are matched in a language.

    Elided articles are stripped ("l'entrée" is "entrée") and pronouns
    attached to a verb split off ("apágala" is "apaga la", "spegnili" is
    "spegni li"), so that each part is read as if said apart.
    """
    return [part for word in words(text) for part in _parts(word, spoken)]


def _parts(word: str, spoken: Words) -> list[str]:
    """One word as its parts: without its elision, or a verb and its pronoun."""
    for elided in spoken.elisions:
        if word.startswith(elided) and len(word) > len(elided):
            return [word[len(elided) :]]
    stems = spoken.verb_stems
    if word in stems.values():
        return [word]
    for clitic in spoken.clitics:
        joined = clitic.replace(" ", "")
        verb = stems.get(plain(word.removesuffix(joined)))
        if word.endswith(joined) and verb:
            return [verb, *clitic.split()]
    for small in spoken.diminutives:
        if word.endswith(small) and word.removesuffix(small) in spoken.nouns:
            return [word.removesuffix(small)]
    return [word]


@cache
def every_kind_word(language: str) -> frozenset[str]:
    """Every word of every kind in a language (none unshipped)."""
    return frozenset().union(*words_for(language).kinds.values())


@cache
def table_words(language: str) -> frozenset[str]:
    """Every word a language's tables hold, in any phrase (none unshipped).

    A word of them is that word, never a slip of another ("leise" is no
    misspelt "leiser").
    """
    spoken = words_for(language)
    phrases = [
        *(p for found in spoken.shortcuts.values() for p in found),
        *spoken.filler,
        *spoken.hedges,
        *spoken.here,
        *spoken.openers,
        *spoken.asking,
        *spoken.requests,
        *spoken.leads,
        *spoken.reference,
        *spoken.closing,
        *spoken.negations,
        *spoken.everything,
        *spoken.anything,
        *spoken.anywhere,
        *spoken.counting,
        *spoken.perfect,
        *spoken.left,
        *spoken.stop,
        *spoken.asides,
        *(p for found in spoken.kinds.values() for p in found),
        *(p for found in spoken.senses.values() for p in found),
        *spoken.numbers,
        *spoken.levels,
        *(p for found in spoken.verbs.values() for p in found),
        *(p for found in spoken.states.values() for p in found),
        *(p for found in spoken.classes.values() for p in found),
        *(p for found in spoken.units.values() for p in found),
        *spoken.verb_forms,
        *(p for found in spoken.complaints.values() for p in found),
        *spoken.complaint_frame,
    ]
    return frozenset(word for phrase in phrases for word in phrase.split())


def compound(word: str, spoken: Words, heads: Collection[str]) -> list[str]:
    """A compound noun as its head and its kind ("küchenlampe": "küche lampe").

    Only in languages that write compounds, and only where the head (without
    its joint: "küchen" is "küche") is one of `heads`, the home's words of
    places and names; else the word itself.
    """
    if not spoken.joints:
        return [word]
    for kind in spoken.kind_endings:
        head = word.removesuffix(kind)
        if head == word or len(head) < MIN_PART:
            continue
        joined = (head, *(head.removesuffix(j) for j in spoken.joints))
        if found := next((h for h in joined if h in heads), None):
            return [found, kind]
    return [word]


def says_condition(words: Sequence[str], spoken: Words) -> bool:
    """Whether words make what they ask hang on a condition ("if", "wenn")."""
    return bool(conditions_at(words, spoken))


def conditions_at(words: Sequence[str], spoken: Words) -> list[int]:
    """Where a condition's word ("if", "wenn", "si") is said.

    Not where it is politeness: "s'il te plaît" asks nothing of "s'il".
    """
    said = list(words)
    if not spoken.conditions.intersection(said):
        return []
    polite = spans(said, (*spoken.requests, *spoken.filler))
    return [
        at
        for at, word in enumerate(said)
        if word in spoken.conditions and at not in polite
    ]


def says_day_ahead(words: Sequence[str], spoken: Words) -> bool:
    """Whether words name a day after today ("tomorrow", "on Sunday")."""
    ahead = [p for day, found in spoken.days.items() if day != "today" for p in found]
    today = spans(list(words), spoken.days.get("today", ()))
    return bool(spans(list(words), ahead) - today)


def is_question(text: str, spoken: Words) -> bool:
    """Whether an utterance asks about the home rather than for a change.

    It opens as a question ("is", "est-ce que", "a qué"), says a phrase that
    asks wherever it is ("est-elle"), or ends as one: a "?" or "¿" kept from
    speech-to-text asks in every language, where statements and yes/no
    questions open alike. A request phrased as a question ("can you ...?",
    "¿me abres la puerta?", "mi accendi la luce?") asks for the change.
    """
    marked = any(mark in text for mark in _QUESTION_MARKS)
    folded = fold(text)
    if folded.startswith(spoken.requests) or _led_request(text, spoken):
        return False
    padded = f" {folded} "
    return (
        marked
        or folded.startswith(spoken.openers)
        or any(f" {phrase} " in padded for phrase in spoken.asks)
    )


def _led_request(text: str, spoken: Words) -> bool:
    """Whether pronouns open it and a verb of the table follows them.

    Elided pronouns are pronouns ("m'accendi": "m'" then "accendi"); an
    object pronoun may follow the first ("¿me la abres?").
    """
    said = [part for word in words(text) for part in _ELIDED.findall(word)]
    for index, word in enumerate(said):
        if word not in (spoken.leads | spoken.closing if index else spoken.leads):
            return index > 0 and plain(word) in spoken.verb_stems
    return False


def number(said: str, language: str) -> float | None:
    """The value of a number said in words ("fifty", "dix-sept") or digits."""
    folded = fold(said)
    if folded.isdecimal():
        return float(folded)
    return words_for(language).numbers.get(folded)
