"""Reading music requests from the words: "play <query> [in <room>]", "… too".

The query is what is left once the verb, the kind of media ("the album")
and the places said at the end are taken off; a place is only taken when it
names a speaker, a room with one, or a service behind one ("Spotify"), so
"Songs in the Key of Life" keeps its words. Nothing here guesses: a request
it cannot take apart is the model's (`music.play` is in its prompt).
"Also in the office" (`join_request`) shares what plays instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.said import Said
from ..language import base_language, fold
from ..language.music import MUSIC_WORDS, MusicWords, says_another_command


@dataclass(slots=True, frozen=True)
class PlayRequest:
    """What a request to play said: the query, its kind, where."""

    query: str
    kind: str | None
    # The speakers, rooms or services said, as said ("kitchen", "Spotify").
    places: tuple[str, ...]


@dataclass(slots=True, frozen=True)
class JoinRequest:
    """A request to play what plays on one more speaker ("also in the office")."""

    place: str
    # Whether a verb or the music was said, not only "also in <place>".
    says_music: bool


type _Tokens = list[tuple[str, str]]


def play_request(said: Said, is_place: Callable[[str], bool]) -> PlayRequest | None:
    """The request to play in the words, if it is one; None otherwise.

    `is_place` says whether words name where music can play.
    """
    language = said.language
    table = MUSIC_WORDS.get(base_language(language))
    if table is None:
        return None
    tokens = _request_tokens(said)
    opened = _phrase_at(tokens, table.play, 0)
    if says_another_command(said.text, said.words, language, said.spoken):
        return None
    tokens = tokens[opened:]
    # "… abspielen": the verb last; "zet … op": its particle, after one.
    closed = _phrase_at_end(tokens, table.play_last)
    if opened and not closed:
        closed = _phrase_at_end(tokens, table.particles)
    if not (opened or closed):
        return None
    tokens = tokens[: len(tokens) - closed]
    places: list[str] = []
    while (found := _place_at_end(tokens, table, is_place)) is not None:
        tokens, place = found
        places.insert(0, place)
    tokens, kind = _kind(tokens, table)
    query = " ".join(original for original, _ in tokens)
    if not query or " ".join(folded for _, folded in tokens) in table.generic:
        return None
    return PlayRequest(query, kind, tuple(places))


def join_request(said: Said, is_place: Callable[[str], bool]) -> JoinRequest | None:
    """The place to share the music with, if said: "[play it] in the office too".

    One "too" anywhere; the rest is a verb to play, the music ("it"), and
    "in <place>" naming where music can play (`is_place`), nothing else.
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return None
    # Folded word by word ("mets-la" is two), as the tables are written.
    tokens = [
        (word, word) for _, folded in _request_tokens(said) for word in folded.split()
    ]
    also = next(
        (
            (at, n)
            for at in range(len(tokens))
            if (n := _phrase_at(tokens, table.also, at))
        ),
        None,
    )
    if also is None:
        return None
    at, taken = also
    tokens = tokens[:at] + tokens[at + taken :]
    opened = _phrase_at(tokens, table.play, 0)
    tokens = tokens[opened:]
    ending = (*table.play_last, *(table.particles if opened else ()))
    tokens = tokens[: len(tokens) - _phrase_at_end(tokens, ending)]
    named = _phrase_at(tokens, table.playing, 0)
    tokens = tokens[named:]
    preposition = _phrase_at(tokens, table.places, 0)
    place = " ".join(word for word, _ in tokens[preposition:])
    if not (preposition and place and is_place(place)):
        return None
    return JoinRequest(place, says_music=bool(opened or named))


def _request_tokens(said: Said) -> _Tokens:
    """The words as said and as folded, without "can you", "please", "thanks".

    A wish before the verb goes too ("I'd like to hear …"). An elided
    article ("l'album") is a word of its own (`Said.as_said`).
    """
    spoken = said.spoken
    tokens: _Tokens = list(said.as_said)
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return tokens
    openers = tuple(fold(opener) for opener in (*spoken.requests, *table.wishes))
    while taken := _phrase_at(tokens, (*openers, *spoken.filler), 0):
        tokens = tokens[taken:]
    while taken := _phrase_at_end(tokens, tuple(spoken.filler)):
        tokens = tokens[:-taken]
    return tokens


def _phrase_at(tokens: _Tokens, phrases: Sequence[str], start: int) -> int:
    """How many words from `start` one of `phrases` takes (longest first), or 0."""
    for phrase in phrases:
        said = phrase.split()
        if said and [f for _, f in tokens[start : start + len(said)]] == said:
            return len(said)
    return 0


def _phrase_at_end(tokens: _Tokens, phrases: Sequence[str]) -> int:
    """How many words at the end one of `phrases` takes, or 0."""
    for phrase in phrases:
        said = phrase.split()
        if (
            said
            and len(said) < len(tokens)
            and [f for _, f in tokens[-len(said) :]] == said
        ):
            return len(said)
    return 0


def _place_at_end(
    tokens: _Tokens, table: MusicWords, is_place: Callable[[str], bool]
) -> tuple[_Tokens, str] | None:
    """The longest "on/in <place>" at the end, and the words before it."""
    for start in range(1, len(tokens)):
        taken = _longest_preposition_before(tokens, start, table)
        if not taken:
            continue
        place = " ".join(original for original, _ in tokens[start:])
        if is_place(place):
            return tokens[: start - taken], place
    return None


def _longest_preposition_before(tokens: _Tokens, end: int, table: MusicWords) -> int:
    """How many words before `end` are a place preposition ("in the"), or 0."""
    for phrase in table.places:
        said = phrase.split()
        if len(said) < end and [f for _, f in tokens[end - len(said) : end]] == said:
            return len(said)
    return 0


def _kind(tokens: _Tokens, table: MusicWords) -> tuple[_Tokens, str | None]:
    """The kind of media said before the name ("the album"), taken off."""
    tokens = _without_leading(tokens, table)
    if len(tokens) > 1:
        first = tokens[0][1]
        for kind, said in table.kinds.items():
            if first in said:
                return _without_leading(tokens[1:], table), kind
    return tokens, None


def _without_leading(tokens: _Tokens, table: MusicWords) -> _Tokens:
    """Without the articles and fillers before a name; one word is kept."""
    while len(tokens) > 1 and (taken := _phrase_at(tokens, table.leading, 0)):
        if taken >= len(tokens):
            break
        tokens = tokens[taken:]
    return tokens
