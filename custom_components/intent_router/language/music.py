"""Reading a request to play music by name against the language's words.

The words are each language's file's `music` (tables.MusicWords; every
word's reason: docs/languages/words.md, "Music"); only the music tool reads
them (music/request.py), and a language without them simply leaves "play
<name>" to Home Assistant's sentences and the model.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from . import LANGUAGES, base_language, spans
from .tables import MusicWords, Words

if TYPE_CHECKING:
    from ..core.said import Said

__all__ = ["MUSIC_WORDS", "MusicWords", "says_another_command"]

MUSIC_WORDS: Mapping[str, MusicWords] = {
    code: spoken.music for code, spoken in LANGUAGES.items() if spoken.music
}


def says_another_command(
    text: str, said: Sequence[str], language: str, spoken: Words
) -> bool:
    """Whether words read as a request to play say another command.

    A word of another command anywhere ("démarre un minuteur de 5 min",
    "metti in pausa") makes them that command. After "pon", "mets",
    "metti", "zet" or "put on", so do a verb of the command table ("zet de
    waterkoker uit", "mets la bouilloire en marche") and a unit ("pon el
    flexo al veintidós por ciento"), whatever read them as a search (Home
    Assistant's own "pon {query}" and "démarre {query}" too). `spoken` is
    the language's command table (`words_for`); `said` is `text`'s words as
    `language.words` splits them.
    """
    table = MUSIC_WORDS.get(base_language(language))
    if table is None:
        return False
    said = list(said)
    # Symbols fold away: "40 %" and "21°" say their unit as words do.
    if "%" in text or "°" in text:
        return _opened_by(said, table.shared) > 0
    if set(said) & table.commands:
        return True
    opened = _opened_by(said, table.shared)
    if not opened:
        return False
    rest = said[opened:]
    # Not the separable verb's own particle at the end ("zet Queen op").
    if rest and rest[-1] in table.particles:
        rest = rest[:-1]
    # A verb's phrase said after the opener ("… uit", "mets … en marche").
    verb_said = {
        i
        for phrases in spoken.verbs.values()
        for i in spans(said[: opened + len(rest)], phrases)
    }
    units = {u for found in spoken.units.values() for u in found}
    # A value said ("à fond", "al máximo"): music has none. Not a number
    # that is an article too ("pon un capítulo de …").
    values = [n for n in spoken.numbers if n not in spoken.stop | spoken.reference]
    return (
        any(i >= opened for i in verb_said)
        or bool(set(rest) & table.commands)
        or bool(spans(rest, units))
        or bool(spans(rest, values))
    )


def _opened_by(said: list[str], openers: frozenset[str]) -> int:
    """How many words the opener said first takes, or 0."""
    return next(
        (len(o.split()) for o in openers if said[: len(o.split())] == o.split()), 0
    )


def says_music(said: Said) -> bool:
    """Whether words say music: a verb that plays, a kind of it, or music itself.

    "I'd like to listen to some jazz", "a podcast please": the music tool is
    one of what they may mean.
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return False
    words = list(said.terms)
    return bool(
        spans(words, (*table.play, *table.play_last, *table.media))
        or set(words) & (_kind_words(table) | table.generic)
    )


def says_the_music(words: Collection[str], language: str) -> bool:
    """Whether words say the music itself ("the music", "a song"), not a player."""
    table = MUSIC_WORDS.get(base_language(language))
    if table is None:
        return False
    music = table.generic | table.kinds.get("track", frozenset())
    return not music.isdisjoint(words)


def music_kind(said: Said) -> str | None:
    """The kind of music the words say ("the album": album), if one."""
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return None
    words = set(said.terms)
    return next((kind for kind, found in table.kinds.items() if found & words), None)


def shares_music(said: Said) -> bool:
    """Whether the words share music with one more speaker ("in the office too")."""
    table = MUSIC_WORDS.get(base_language(said.language))
    return (
        table is not None
        and says_music(said)
        and bool(spans(list(said.terms), table.also))
    )


def without_opener(text: str, language: str) -> str:
    """A text without the words that open a request to play ("listen to ...")."""
    table = MUSIC_WORDS.get(base_language(language))
    if table is None:
        return text
    said = text.split()
    folded = [word.casefold() for word in said]
    cut = max(
        (len(o.split()) for o in table.play if folded[: len(o.split())] == o.split()),
        default=0,
    )
    return " ".join(said[cut:])


def words_after_play(said: Said) -> str | None:
    """The words after the first verb that plays, as said, if they name music.

    "Arrange and play all songs of Eminem": "all songs of Eminem"; "find
    my jazz and play the album Kind of Blue": "Kind of Blue". Not
    what names the music already playing ("find it and play it") or only
    music itself ("play some music").
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return None
    folded = [word for _, word in said.as_said]
    starts = [
        (at, len(phrase.split()))
        for phrase in table.play
        for at in range(len(folded))
        if folded[at : at + len(phrase.split())] == phrase.split()
    ]
    if not starts:
        return None
    at, length = min(starts)
    rest = _past_kind(list(said.as_said[at + length :]), table)
    words = " ".join(folded_word for _, folded_word in rest)
    if not words or words in table.playing or words in table.generic:
        return None
    return " ".join(original for original, _ in rest)


def words_from_music(said: Said) -> str | None:
    """The words from the first that says what to play to the end, as said.

    Where no verb that plays is said: "put the radio on": "radio"; "start
    podcast MLB daily": "MLB daily", a podcast; "continue with my audiobook
    please": "audiobook". A particle, a stop word or "please" at the end
    is no part of it; music itself names nothing to play.
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    if table is None:
        return None
    folded = [word for _, word in said.as_said]
    at = spans(folded, (*table.media, *_kind_words(table)))
    if not at:
        return None
    rest = _past_kind(list(said.as_said[min(at) :]), table)
    spoken = said.spoken
    while rest and rest[-1][1] in spoken.stop | spoken.filler | spoken.hedges:
        rest.pop()
    if {word for _, word in rest} <= table.generic | set(table.leading):
        return None
    return " ".join(original for original, _ in rest)


def _kind_words(table: MusicWords) -> frozenset[str]:
    """Every word that says a kind of music ("album", "podcast")."""
    return frozenset(word for found in table.kinds.values() for word in found)


def _past_kind(rest: list[tuple[str, str]], table: MusicWords) -> list[tuple[str, str]]:
    """Words as said, past the articles and the kind said first.

    The kind goes with the music (`music_kind`): "the album Kind of Blue",
    "podcast Heavyweight".
    """
    kinds = _kind_words(table)
    while rest and (rest[0][1] in table.leading or rest[0][1] in kinds):
        rest = rest[1:]
    return rest
