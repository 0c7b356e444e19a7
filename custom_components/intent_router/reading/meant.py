"""The kinds of device the words mean, and when a name yields to a kind.

A kind's own word ("Licht"), a verb only such devices do ("brighter"), a
complaint ("too dark") and "everything" say which kinds a turn means. A
device named like a place ("Kitchen", a speaker) or like a kind ("Light", a
binary sensor) is named only where the kinds meant allow it: "too dark in
the kitchen" means the kitchen's lights, "switch off the light" the lights
(named.py asks).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache

from ..core.domains import own_verbs
from ..core.said import Said
from ..language import Verb, Words, fold, words_for
from ..language.shapes import phrases_said, verbs_said

# What "everything" said means of a place: every kind in it (`kinds_meant`).
EVERY_KIND = "*"


def kinds_meant(
    heard: Collection[str],
    verbs: Mapping[Verb, set[str]],
    complained: Mapping[tuple[str, Verb], set[str]],
    spoken: Words,
) -> dict[str, frozenset[str]]:
    """Each word said that says or implies a kind of device, with its kinds.

    A kind's own word no verb said ("Licht", "temperature"); a verb said
    by a kind's word, for the kinds the verb acts on, a step included
    ("brighter", "più luce": lights; "louder": players; "open" is no
    sensor's); a complaint's words ("too
    dark": lights); "everything" (`EVERY_KIND`, every kind that is in the
    place, which no device named like the place is).
    """
    verb_words = {word for found in verbs.values() for word in found}
    meant: dict[str, set[str]] = {}
    for kind, kind_said in spoken.kinds.items():
        for word in kind_said.intersection(heard) - verb_words:
            meant.setdefault(word, set()).add(kind)
    for verb, found in verbs.items():
        for kind, kind_said in spoken.kinds.items():
            for word in kind_said & found if verb in own_verbs(kind) else ():
                meant.setdefault(word, set()).add(kind)
    for (domain, _), found in complained.items():
        for word in found:
            meant.setdefault(word, set()).add(domain)
    # "Everything in the kitchen": what is there, of every kind, and no
    # device named like the place.
    for word in spoken.everything.intersection(heard):
        meant.setdefault(word, set()).add(EVERY_KIND)
    return {word: frozenset(kinds) for word, kinds in meant.items()}


def meant_besides(
    hit: Collection[str], meant: Mapping[str, frozenset[str]]
) -> set[str]:
    """The kinds words other than a name's own say or imply."""
    return {kind for word, kinds in meant.items() if word not in hit for kind in kinds}


def kinds_meant_by(said: Said) -> dict[str, frozenset[str]]:
    """`kinds_meant` of an utterance's own words, before the home is read."""
    spoken, own = said.spoken, list(said.terms)
    return kinds_meant(
        own,
        verbs_said(own, own, spoken, question=said.question),
        phrases_said(own, spoken.complaints),
        spoken,
    )


def another_kind_meant(
    domain: str,
    names: Collection[str],
    hit: Collection[str],
    meant: Mapping[str, frozenset[str]],
    places: frozenset[str],
) -> bool:
    """Whether a device named like a place is not what the words mean.

    A speaker called "Kitchen" is that speaker only where no other kind is
    said or implied beside its name (`hit`; `meant`, from `kinds_meant`):
    "it's too dark in the kitchen" means the kitchen's lights, "play music
    in the kitchen" the speaker. `places` are the folded names of the
    home's places and the rooms and floors every shipped language names.
    """
    if not named_like_place(names, places):
        return False
    kinds = meant_besides(hit, meant)
    return bool(kinds) and domain not in kinds


def kind_meant_instead(
    domain: str, hit: frozenset[str], verbs: Collection[Verb], spoken: Words
) -> bool:
    """Whether words naming a device by a kind's word mean that kind instead.

    A binary sensor called "Light" cannot be switched off or dimmed: "switch
    off the light", "dim the light" mean the lights. Only where the words
    are another kind's own name ("light", "Licht", not "Haustür", whose
    sensor a lock's door is opened by), and a verb said changes that kind
    and not the device. A command with no verb read ("minimize the light
    power") asks nothing of a device that does nothing: the kind that does
    is meant.
    """
    named = spoken.kind_names.items()
    kinds = [k for k, found in named if k != domain and hit <= found]
    if not verbs:
        return not own_verbs(domain) and any(own_verbs(kind) for kind in kinds)
    return not any(verb in own_verbs(domain) for verb in verbs) and any(
        verb in own_verbs(kind) for kind in kinds for verb in verbs
    )


def named_like_place(names: Collection[str], places: frozenset[str]) -> bool:
    """Whether a device goes by the name of a place ("Kitchen", "Salon")."""
    return any(fold(name) in places for name in names if name)


def nouns_said(heard: set[str], hit: frozenset[str], language: str) -> set[str]:
    """The kinds the words beside a name say by a noun (no verb's word)."""
    return {kind for kind, found in nouns(language).items() if found & (heard - hit)}


@cache
def nouns(language: str) -> dict[str, frozenset[str]]:
    """Each kind's words that are no verb's ("lamp", not "brighter").

    Cached by language: its words are looked up once, not per turn.
    """
    spoken = words_for(language)
    verb_words = {
        w for found in spoken.verbs.values() for p in found for w in p.split()
    }
    return {kind: found - verb_words for kind, found in spoken.kinds.items()}
