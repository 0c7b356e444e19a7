"""How a language's words shape an utterance, whatever they name.

Where a question's own words end ("est-ce que", "combien"), where the verb
that opens a command stands ("switch the fan on"), whether a word that
refers back does ("mach sie aus", not "mach sie Lampe aus"), which things
are said whole: read from the tables alone (tables.py), before the home is
looked at. Given the words that named devices, whether a state's
small word is their preposition ("what's playing on the speaker?").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from . import GAP, spans
from .tables import FIXTURES, YIELDING_VERBS, Shortcut, Verb, Words

# The longest ending an opener's stem takes ("quel": "quelles").
_MAX_ENDING = 3


def question_shape(own: list[str], spoken: Words) -> frozenset[str]:
    """Words that only shape a question, and ask nothing of the home.

    The first word, a one-word opener wherever it stands ("combien", and
    the forms of "welche", "quanto", "cuánto": "auf welche Temperatur …?",
    "il riscaldamento a quanto è?"), every word of the opener it starts
    with ("est-ce que", "y a-t-il"), the phrases that ask wherever they
    stand ("l'évier est-il humide ?"), and the language's "it is"
    ("fait-il", "ist es"), as a complaint's frame. Also what asks how
    many or says no place (`counting`, `anywhere`), and the words of a
    question in the past ("did I leave", "hast du", "ai-je laissé":
    `perfect`, `left`). A state said first is what is asked, not only the
    shape ("brennt noch Licht?", "brandt er nog licht?").
    """
    shape = set(own[:1])
    shape.update(
        own[i]
        for i in spans(
            own, spoken.anywhere | spoken.counting | spoken.perfect | spoken.left
        )
    )
    for opener in spoken.openers:
        parts = opener.split()
        if opener.endswith(" ") and len(parts) == 1 and parts[0] in own:
            shape.add(parts[0])
        elif len(parts) == 1:
            shape.update(word for word in own if _a_form_of(word, parts[0]))
        if _opens_with(own, parts):
            shape.update(own[: len(parts)])
    shape.update(own[i] for i in spans(own, spoken.complaint_frame))
    shape.update(own[i] for i in spans(own, spoken.asks))
    return frozenset(shape - _states(spoken))


def _states(spoken: Words) -> frozenset[str]:
    """Every one-word participle that says a state ("brennt", "zugemacht")."""
    return frozenset(
        word for found in spoken.states.values() for word in found if " " not in word
    )


def asks_which(own: list[str], spoken: Words) -> bool:
    """Whether a question asks which, what or how, not yes or no.

    One opened by its verb asks yes or no: in "ist was heiß?", "is er wat
    aan?" the asking word is "something".
    """
    first = own[0] if own else ""
    verb_first = f"{first} " in spoken.openers and first not in spoken.asking
    return not verb_first and bool(spoken.asking.intersection(own))


def _a_form_of(word: str, stem: str) -> bool:
    """Whether a word is an inflected form of an opener written as its stem.

    "welche" is "welcher", "welches"; "quant" is "quanto", "quanti"; a word
    much longer ("qualcosa" of "qual") is another word.
    """
    return word.startswith(stem) and len(word) - len(stem) <= _MAX_ENDING


def _opens_with(own: list[str], parts: list[str]) -> bool:
    """Whether the words start with these; the last may be cut ("qu": "que")."""
    return len(own) >= len(parts) and all(
        said == part or (index == len(parts) - 1 and said.startswith(part))
        for index, (said, part) in enumerate(zip(own, parts, strict=False))
    )


def verb_positions(
    heard: list[str],
    said_verbs: Mapping[Verb, set[str]],
    spoken: Words,
    kinds: frozenset[str],
) -> set[int]:
    """Where the verb that opens the command is said, if one of its words is a kind.

    "Switch off the lamp" opens with "switch off"; in "switch the fan on"
    the phrase's first word opens the command and its rest follows later.
    After another verb or a kind word, it is the device ("turn the switch
    on", "put the switch on"); a verb of one word may also imply its kind
    ("brighter": lights). `kinds`: every kind word of the language.
    """
    phrases = [p.split() for v in said_verbs for p in spoken.verbs[v]]
    for index, word in enumerate(heard):
        for parts in phrases:
            if heard[index : index + len(parts)] == parts:
                return (
                    set(range(index, index + len(parts))) if len(parts) > 1 else set()
                )
            if (
                len(parts) > 1
                and parts[0] == word
                and set(parts[1:]) <= set(heard[index + 1 :])
            ):
                return {index}
        if word in kinds:
            break
    return set()


def closes(tokens: list[str], spoken: Words) -> bool:
    """Whether a word that refers back only where no noun follows it does.

    "Mach sie aus", "zet het uit", "éteins-la", "apágala en la cocina": what
    follows it is a verb, a particle or a small word, not a noun nor an
    article ("Schalten Sie das Licht ein"); in "mach das Licht aus" it is an
    article.
    """
    small = {
        word
        for table in (
            spoken.hedges,
            spoken.here,
            spoken.filler,
            spoken.stop,
            spoken.everything,
            spoken.reference,
            spoken.shortcuts[Shortcut.AGAIN],
            *spoken.verbs.values(),
        )
        for word in table
        if " " not in word
    } - spoken.closing
    return any(
        word in spoken.closing
        and (index + 1 == len(tokens) or tokens[index + 1] in small)
        for index, word in enumerate(tokens)
    )


def follows_up(own: list[str], verb_said: bool, spoken: Words) -> bool:
    """Whether words follow up on the last turn's devices.

    They say no verb of their own ("and the ceiling light"), or refer back
    ("and the one on the ceiling", "und die an der Decke", "et celle du
    plafond"). A language without verbs (one not shipped) says none, and
    so follows up on nothing.
    """
    if not spoken.verbs:
        return False
    return not verb_said or not spoken.reference.isdisjoint(own) or closes(own, spoken)


def verbs_said(
    tokens: list[str], own: list[str], spoken: Words, *, question: bool
) -> dict[Verb, set[str]]:
    """The verbs said, each with its words; in a question, participles too.

    A participle says the state asked of ("ist sie abgeschlossen?"), read
    from the speaker's `own` words only, never from an automation's
    question ("la puerta lleva 10 minutos abierta, ¿la cierro?").
    """
    said = phrases_said(tokens, spoken.verbs)
    timed = times_said(tokens, spoken)
    for verb in (Verb.NEXT, Verb.PREVIOUS):
        # "Next week", "la semaine suivante": a span of time, no track.
        if verb in said and spans(tokens, spoken.verbs[verb]) <= timed:
            said.pop(verb)
    if len(said) > 1:
        # In "stop the vacuum", "vacuum return to base", "turn on the lamp
        # next to the bed" the word is no verb.
        for verb in YIELDING_VERBS:
            said.pop(verb, None)
    if not question:
        return said
    states = phrases_said(own, spoken.states)
    return _longest(
        {
            verb: said.get(verb, set()) | states.get(verb, set())
            for verb in said.keys() | states.keys()
        }
    )


def times_said(tokens: list[str], spoken: Words) -> set[int]:
    """Where a word for the next or previous stands beside a time's, with it.

    "Next week", "nächste Woche", "la semaine suivante": a span of time,
    which names no track, and no device ("Next Alarm").
    """
    times = spoken.periods | {p for found in spoken.days.values() for p in found}
    ordinal = spoken.verbs.get(Verb.NEXT, frozenset()) | spoken.verbs.get(
        Verb.PREVIOUS, frozenset()
    )
    found: set[int] = set()
    for at in spans(tokens, ordinal):
        beside = {j for j in (at - 1, at + 1) if 0 <= j < len(tokens)}
        if timed := {j for j in beside if tokens[j] in times}:
            found |= {at, *timed}
    return found


def said_whole(
    tokens: list[str],
    said_verbs: Mapping[Verb, set[str]],
    spoken: Words,
    kinds: frozenset[str],
) -> set[int]:
    """Where phrases stand whose words are theirs alone, naming nothing.

    A verb said in several words ("naar beneden", "roll down": "beneden" is
    a floor too), the speaker's room said ("esta habitación": no
    "habitación" of the home), and a span of time ("next week": no "Next
    Alarm"). "Switch on" keeps its
    kind's word: "put the switch on" is a switch. `kinds`: every kind
    word of the language.
    """
    verb_phrases = [
        phrase
        for verb in said_verbs
        for phrase in spoken.verbs[verb]
        if " " in phrase and GAP not in phrase and kinds.isdisjoint(phrase.split())
    ]
    hedges = [phrase for phrase in (*spoken.hedges, *spoken.here) if " " in phrase]
    return spans(tokens, [*verb_phrases, *hedges]) | times_said(tokens, spoken)


def phrases_said[K](
    tokens: list[str], table: Mapping[K, frozenset[str]]
) -> dict[K, set[str]]:
    """The entries of a table said (verbs, complaints), each with its words.

    One whose words another's longer phrase holds is that one's: "cerrada
    con llave" is locked, not closed.
    """
    return _longest(
        {
            key: {tokens[i] for i in found}
            for key, phrases in table.items()
            if (found := spans(tokens, phrases))
        }
    )


def _longest[K](said: dict[K, set[str]]) -> dict[K, set[str]]:
    """The entries said, without those whose words another's phrase holds."""
    return {
        key: found
        for key, found in said.items()
        if not any(found < other for other in said.values())
    }


def introduces(
    found: set[str],
    heard: list[str],
    subjects: list[frozenset[str]],
    stop: frozenset[str],
) -> bool:
    """Whether a state's particle is a preposition before the device asked of.

    A state said by a small word ("on", "an", "aan") follows what it is
    said of: "is the speaker on?", "is the light on in the bedroom?",
    "what's on in the kitchen?". Right before a device's words, none of
    which came before it ("what's playing on the bedroom speaker?"), it is
    the preposition, and the question asks what the device is doing; said
    after it too ("was für ein Gassensor ist an?"), it is the state.
    """
    if not found <= stop:
        return False
    at = [i for i, word in enumerate(heard) if word in found]
    return bool(at) and all(_before_a_subject(i, heard, subjects, stop) for i in at)


def _before_a_subject(
    index: int, heard: list[str], subjects: list[frozenset[str]], stop: frozenset[str]
) -> bool:
    """Whether an article and a device's words come next, none of them before.

    Said right before the device, with no article, the word is the
    article itself ("lädt ein Akku?").
    """
    if index + 1 == len(heard) or heard[index + 1] not in stop:
        return False
    after = next((word for word in heard[index + 1 :] if word not in stop), None)
    return any(
        after in subject and not subject.intersection(heard[:index])
        for subject in subjects
    )


def kind_said_last(
    found: set[str],
    heard: list[str],
    said: list[str],
    used: Collection[str],
    spoken: Words,
) -> bool:
    """Whether a verb's words are a kind's word naming the thing acted on.

    "Unlock the entry lock": "lock" is the lock, not the opposite of the
    verb said, since nothing it could act on follows it; in "unlock the
    back door and lock the front door" (or "... and lock it") something
    does. `heard`: the words as read against the home, `used` those that
    named a device, a place or a kind; `said`: every word, pronouns too.
    """
    if not found <= frozenset().union(*spoken.kinds.values()):
        return False
    return not _follows(found, heard, used) and not _follows(
        found, said, spoken.reference
    )


def _follows(found: set[str], words: list[str], after: Collection[str]) -> bool:
    """Whether one of `after` comes after the last of the `found` words."""
    last = max((i for i, word in enumerate(words) if word in found), default=len(words))
    return any(word in after for word in words[last + 1 :])


def fixtures_said(heard: list[str], spoken: Words) -> dict[str, set[str]]:
    """The things of `FIXTURES` said whole, each with its words."""
    return {
        sense: {heard[i] for i in found}
        for sense in FIXTURES
        if (found := spans(heard, spoken.senses.get(sense, frozenset())))
    }
