"""Words of a request to play music by name, per language, as `fold` leaves them.

Kept apart from the languages' own tables (`en.py`, ...): only the music
tool reads them (music/request.py), and a language without a table here
simply leaves "play <name>" to Home Assistant's sentences and the model.
Every word's reason: docs/languages/words.md, "Music".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import base_language, spans
from .tables import Words, _endings, _table

if TYPE_CHECKING:
    from ..said import Said


@dataclass(slots=True, frozen=True)
class MusicWords:
    """How one language says "play <query> [by kind] [on <speaker>]"."""

    # What opens a request to play (imperatives; "put on", "zet ... op").
    play: tuple[str, ...]
    # What may end one instead, in languages that put the verb last.
    play_last: tuple[str, ...]
    # A separable verb's particle at the end, after an opener ("zet … op").
    particles: tuple[str, ...]
    # Kinds of media (the music tool's `kind`) by the words that say them.
    kinds: Mapping[str, frozenset[str]]
    # Articles and fillers before a kind or a name ("the", "some", "by").
    leading: tuple[str, ...]
    # Prepositions before a speaker, a room or a service ("on", "in the").
    places: tuple[str, ...]
    # What says only "music" and names nothing to search for.
    generic: frozenset[str]
    # Openers other commands share ("zet", "metti"): after one, a verb of
    # the command table ("zet de waterkoker uit") or one of `commands`
    # ("metti in pausa", "pon un temporizador") says that command instead.
    shared: frozenset[str] = frozenset()
    commands: frozenset[str] = frozenset()
    # "Too": music shared with one more speaker ("also in the office").
    also: tuple[str, ...] = ()
    # What names the music playing there ("it", "the music"), with its
    # verb where the language writes them as one word ("ponla").
    playing: tuple[str, ...] = ()
    # What says a player's sound, not the player ("audio", "muto", "son"):
    # muting is about it; without it, "spegni la tv" switches the TV off.
    sound: frozenset[str] = frozenset()

    @classmethod
    def written(  # noqa: PLR0913 - one argument per table
        cls,
        *,
        play: str,
        play_last: str = "",
        particles: str = "",
        kinds: Mapping[str, str],
        leading: str,
        places: str,
        generic: str,
        shared: str = "",
        commands: str = "",
        also: str = "",
        playing: str = "",
        sound: str = "",
    ) -> MusicWords:
        """A language's music words from "|"-separated text."""
        return cls(
            _endings(play),
            _endings(play_last),
            _endings(particles),
            {kind: _table(text) for kind, text in kinds.items()},
            _endings(leading),
            _endings(places),
            _table(generic),
            _table(shared),
            _table(commands),
            _endings(also),
            _endings(playing),
            _table(sound),
        )


MUSIC_WORDS: Mapping[str, MusicWords] = {
    "en": MusicWords.written(
        play="play|put on|listen to",
        kinds={
            "artist": "artist|band|singer",
            "album": "album|record",
            "playlist": "playlist",
            "track": "song|track|tune",
            "genre": "genre",
            "podcast": "podcast|episode",
        },
        leading="the|some|a|an|my|music by|songs by|by|something by",
        places="on|in|on the|in the|through|through the|via",
        generic="music|something|anything|songs|tunes",
        shared="put on",
        commands="timer|alarm|reminder",
        also="too|as well|also",
        playing="it|this|that|the music|this music|the song|this song|the same|the same music",
        sound="mute|unmute|sound|audio|volume|silence|muted",
    ),
    "de": MusicWords.written(
        play="spiel|spiele|spiel mal|spiele mal|spiel bitte|spiele bitte",
        play_last="abspielen|spielen",
        particles="ab",
        kinds={
            "artist": "künstler|künstlerin|band|interpret|interpretin|sänger|sängerin",
            "album": "album",
            "playlist": "playlist|wiedergabeliste",
            "track": "lied|song|titel|track",
            "genre": "genre|musikrichtung",
            "podcast": "podcast|folge",
        },
        leading="den|die|das|der|dem|etwas|ein|eine|einen|von|musik von|was von",
        places="auf|in|im|in der|in dem|auf dem|auf der|über|über den|über die",
        generic="musik|etwas|was|lieder|songs",
        also="auch|ebenfalls",
        playing="es|das|die musik|diese musik|das lied|den song|dasselbe|die gleiche musik",
        sound="stumm|stummschalten|ton|audio|lautstärke|laut",
    ),
    "fr": MusicWords.written(
        play="joue|jouer|mets|lance|passe",
        kinds={
            "artist": "artiste|groupe|chanteur|chanteuse",
            "album": "album",
            "playlist": "playlist|liste de lecture",
            "track": "chanson|morceau|titre",
            "genre": "genre",
            "podcast": "podcast|épisode",
        },
        leading="le|la|les|l'|du|de la|des|un|une|de|d'|de l'|la musique de",
        places="sur|dans|sur le|sur la|sur l'|dans le|dans la|dans l'|à|au|via",
        generic="musique|quelque chose|chansons",
        shared="mets|lance|passe",
        commands="pause|minuteur|minuterie|alarme|timer",
        also="aussi|également|egalement",
        playing="la|le|ça|ca|la musique|cette musique|la chanson|cette chanson|la même musique",
        sound="son|sourdine|muet|audio|volume|silence",
    ),
    "es": MusicWords.written(
        play="pon|reproduce|toca|ponme|reproducir|poner",
        kinds={
            "artist": "artista|grupo|cantante|banda",
            "album": "álbum|album|disco",
            "playlist": "playlist|lista",
            "track": "canción|cancion|tema|pista",
            "genre": "género|genero",
            "podcast": "podcast|episodio",
        },
        leading="el|la|los|las|un|una|algo de|de|del|música de|musica de",
        places="en|en el|en la|por|por el|por la",
        generic="música|musica|algo|canciones",
        shared="pon|ponme|poner",
        commands="pausa|temporizador|alarma|timer",
        also="también|tambien",
        playing="la|lo|esto|eso|la música|la musica|esta música|esta musica|la canción|la cancion|lo mismo|ponla|ponlo",
        sound="sonido|audio|volumen|silencio|silencia|mudo|mute",
    ),
    "nl": MusicWords.written(
        play="speel|zet|speel eens|zet eens",
        play_last="afspelen|spelen",
        particles="af|op",
        kinds={
            "artist": "artiest|band|zanger|zangeres",
            "album": "album",
            "playlist": "afspeellijst|playlist",
            "track": "nummer|liedje|lied|track",
            "genre": "genre",
            "podcast": "podcast|aflevering",
        },
        leading="de|het|een|wat|iets|muziek van|van|iets van|wat van",
        places="op|in|op de|in de|op het|in het|via",
        generic="muziek|iets|wat|liedjes|nummers",
        shared="zet|zet eens",
        commands="pauze|pauzeer|timer|wekker|alarm",
        also="ook",
        playing="het|dit|dat|de muziek|deze muziek|het nummer|dit nummer|hetzelfde",
        sound="geluid|audio|volume|dempen|demp|stil|mute",
    ),
    "it": MusicWords.written(
        play="riproduci|metti|suona|fammi sentire|ascolta",
        kinds={
            "artist": "artista|gruppo|cantante|band",
            "album": "album",
            "playlist": "playlist",
            "track": "canzone|brano|traccia|pezzo",
            "genre": "genere",
            "podcast": "podcast|episodio",
        },
        leading=(
            "il|lo|la|i|gli|le|l'|un|una|uno|del|della|dello|dei|degli|di|"
            "musica di|qualcosa di"
        ),
        places="su|in|nel|nella|nello|sul|sulla|sullo",
        generic="musica|qualcosa|canzoni",
        shared="metti",
        commands="pausa|timer|sveglia|allarme",
        also="anche|pure",
        playing="la|lo|questo|la musica|questa musica|la canzone|questa canzone|lo stesso|mettila|mettilo",
        sound="audio|suono|volume|muto|silenzio|silenzia|muta",
    ),
}


def says_another_command(
    text: str, said: Sequence[str], language: str, spoken: Words | None
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
    if table is None or spoken is None:
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
    return (
        any(i >= opened for i in verb_said)
        or bool(set(rest) & table.commands)
        or bool(spans(rest, units))
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
    kinds = {word for found in table.kinds.values() for word in found}
    return bool(
        spans(words, (*table.play, *table.play_last))
        or set(words) & (kinds | table.generic)
    )


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
