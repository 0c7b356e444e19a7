"""Where music plays: the speaker a request means, or a question naming them.

Speakers are the exposed media players and the Spotify Connect speakers of
core Spotify players. A name picks one (media players before Connect
speakers of the same name); without one, the speaker's area, the default
music player or the only player decides; several fitting ones make a question.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from homeassistant.components.media_player.const import (
    ATTR_INPUT_SOURCE_LIST,
    DOMAIN as MEDIA_PLAYER_DOMAIN,
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.core import HomeAssistant

from ..core.records import Action
from ..core.speech import Names, phrase, refuse
from ..deciding.plan import PlanError, Rejection
from ..home.tools import HomeView, ToolQuestion
from ..language import fold
from .media import features
from .names import name_words
from .spotify import SPOTIFY_DOMAIN, is_spotify_player


@dataclass(slots=True, frozen=True)
class Speaker:
    """Where music can play: a media player, or a Connect speaker of one."""

    player: str
    name: str
    source: str | None = None
    area: str | None = None
    # Normalised names and the words of names and area, for matching.
    keys: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


class SpeakerChoice:
    """Chooses the speaker of a request from the states of this turn."""

    def __init__(self, hass: HomeAssistant, default_player: str | None) -> None:
        """Keep what choosing needs: states, registry, the default player."""
        self._hass = hass
        self._default_player = default_player

    def speakers(self, home: HomeView) -> list[Speaker]:
        """Exposed media players, then the Connect speakers of Spotify ones."""
        players = sorted(
            (i for i in home.exposed.values() if i.domain == MEDIA_PLAYER_DOMAIN),
            key=lambda info: info.name.casefold(),
        )
        # A player is also called by the service it plays from ("on
        # Spotify"), and a Connect speaker by its account's player too ("the
        # kitchen on Spotify": the kitchen speaker of the Spotify account).
        services = {
            info.entity_id: SPOTIFY_DOMAIN
            for info in players
            if is_spotify_player(self._hass, info.entity_id)
        }
        speakers = [
            Speaker(
                info.entity_id,
                info.name,
                area=info.area,
                keys=frozenset(fold(n) for n in (info.name, *info.aliases)),
                words=name_words(
                    " ".join(
                        (
                            info.name,
                            *info.aliases,
                            info.area or "",
                            services.get(info.entity_id, ""),
                        )
                    )
                ),
            )
            for info in players
        ]
        speakers.extend(
            Speaker(
                info.entity_id,
                source,
                source,
                keys=frozenset({fold(source)}),
                words=name_words(
                    f"{source} {info.name} {services.get(info.entity_id, '')}"
                ),
            )
            for info in players
            for source in self.connect_sources(info.entity_id)
        )
        return speakers

    def connect_sources(self, player: str) -> list[str]:
        """Spotify Connect speakers a core `spotify` player can play on."""
        state = self._hass.states.get(player)
        if state is None or not is_spotify_player(self._hass, player):
            return []
        return [str(s) for s in state.attributes.get(ATTR_INPUT_SOURCE_LIST) or ()]

    def place_test(self, home: HomeView) -> Callable[[str], bool]:
        """Whether words name where music can play (`names_a_speaker`).

        The speakers are looked up once, and only for words that read as a
        request.
        """
        speakers: list[Speaker] = []

        def is_place(said: str) -> bool:
            speakers[:] = speakers or self.speakers(home)
            return names_a_speaker(said, speakers)

        return is_place

    def for_play(self, speakers: Sequence[Speaker], area: str | None) -> Speaker:
        """No speaker named: the area's, else the default, else the only one."""
        players = [s for s in speakers if not s.source]
        return _choose(
            (
                *_in_area(speakers, area),
                self._default(speakers),
                players if len(players) == 1 else [],
            ),
            speakers,
        )

    def check_can_play(self, speaker: Speaker) -> None:
        """Ask for a Connect speaker when a Spotify account has none to play on."""
        sources = self.connect_sources(speaker.player)
        if (
            speaker.source is None
            and sources
            and MediaPlayerEntityFeature.PLAY_MEDIA
            not in features(self._hass, speaker.player)
        ):
            # An idle Spotify account has no speaker to play on yet.
            raise ToolQuestion(
                phrase(
                    "music_which_source",
                    player=speaker.name,
                    sources=Names(tuple(sources), any_of=True),
                )
            )

    def for_control(self, speakers: Sequence[Speaker], home: HomeView) -> Speaker:
        """Playing here, else used last by this device, else the default."""
        players = [s for s in speakers if not s.source]
        playing = [s for s in players if self._playing(s.player)]
        return _choose(
            (
                _in_speaker_area(playing, home),
                _last_used(players, home),
                self._default(players),
                playing,
                players if len(players) == 1 else [],
            ),
            playing or players,
        )

    def sharing(
        self, speakers: Sequence[Speaker], home: HomeView, joining: Speaker
    ) -> Speaker:
        """The player whose music `joining` is to play too.

        The one this device last used, else the one in its area, else the
        only one; it must be playing, and not be `joining` itself.
        """
        playing = [
            s
            for s in speakers
            if not s.source and s.player != joining.player and self._playing(s.player)
        ]
        if not playing:
            if self._playing(joining.player):
                raise refuse("music_already_playing", player=joining.name)
            raise refuse("music_nothing_to_share")
        return _choose(
            (_last_used(playing, home), _in_speaker_area(playing, home), playing),
            playing,
        )

    def check_can_group(self, speaker: Speaker, joining: Speaker) -> None:
        """Refuse, truthfully, a join with itself or one the player cannot make."""
        if speaker.player == joining.player:
            raise refuse("music_already_playing", player=joining.name)
        if MediaPlayerEntityFeature.GROUPING not in features(
            self._hass, speaker.player
        ):
            raise refuse("music_cannot_group", player=speaker.name, other=joining.name)

    def plays_here(self, home: HomeView) -> bool:
        """Whether music plays on the player last used here or in this area."""
        playing = [
            s for s in self.speakers(home) if not s.source and self._playing(s.player)
        ]
        return bool(_last_used(playing, home) or _in_speaker_area(playing, home))

    def _default(self, speakers: Sequence[Speaker]) -> list[Speaker]:
        """The default music player, when it is exposed."""
        return [
            s for s in speakers if s.player == self._default_player and not s.source
        ]

    def _playing(self, player: str) -> bool:
        state = self._hass.states.get(player)
        return state is not None and state.state == MediaPlayerState.PLAYING


def by_name(name: str, speakers: Sequence[Speaker]) -> Speaker:
    """The speaker a name means: an entity id, a name, or words of one.

    Media players win over Connect speakers of the same name (a speaker
    known to both is the same box); several matches make a question.
    """
    if found := next((s for s in speakers if s.player == name and not s.source), None):
        return found
    key = fold(name)
    said = name_words(name)
    exact = [s for s in speakers if key in s.keys]
    partial = [s for s in speakers if said and said <= s.words]
    groups = (
        [s for s in exact if not s.source],
        [s for s in exact if s.source],
        [s for s in partial if not s.source],
        [s for s in partial if s.source],
    )
    return _choose(groups, speakers)


def names_a_speaker(said: str, speakers: Sequence[Speaker]) -> bool:
    """Whether words name a speaker, its room, or the account it plays from."""
    key = fold(said)
    words = name_words(said)
    return any(key in s.keys or (words and words <= s.words) for s in speakers)


def _choose(
    groups: Iterable[Sequence[Speaker]], candidates: Sequence[Speaker]
) -> Speaker:
    """The one speaker of the first group that has any, else ask.

    Several in that group: ask among them; every group empty: ask among
    the candidates.
    """
    for group in groups:
        if len(group) == 1:
            return group[0]
        if group:
            raise _ask(group)
    raise _ask(candidates)


def requested(tool: str, action: Action, named: str | None) -> str | None:
    """A player the plan names, in `player` or as its one target."""
    if named:
        return named
    if len(action.targets) > 1:
        raise PlanError(Rejection.INVALID_ARGS, f"{tool}: one player at most")
    return action.targets[0] if action.targets else None


def _ask(speakers: Sequence[Speaker]) -> ToolQuestion:
    """Which speaker? Naming the candidates."""
    names = list(dict.fromkeys(s.name for s in speakers))
    return ToolQuestion(
        phrase("music_which_player", players=Names(tuple(names), any_of=True))
    )


def _last_used(players: Sequence[Speaker], home: HomeView) -> list[Speaker]:
    """Of `players`, the one this device's last turns acted on last, if any."""
    by_player = {s.player: s for s in players}
    recent = next((t for t in reversed(home.recent_targets) if t in by_player), None)
    return [by_player[recent]] if recent else []


def _in_speaker_area(players: Sequence[Speaker], home: HomeView) -> list[Speaker]:
    """Of `players`, those in the area of the device spoken to."""
    return [s for s in players if s.area and s.area == home.speaker_area]


def _in_area(speakers: Sequence[Speaker], area: str | None) -> list[list[Speaker]]:
    """The area's media players, else Connect speakers named after it."""
    if not area:
        return []
    said = name_words(area)
    return [
        [s for s in speakers if not s.source and s.area == area],
        [s for s in speakers if s.source and said <= s.words],
    ]


class SpeakerTool:
    """What the music tools share: they act on speakers, chosen alike.

    Music needs music or a speaker said (`kind`), so its subject is never
    asked about separately.
    """

    kind = "media_player"
    subject = None

    def __init__(self, choice: SpeakerChoice) -> None:
        """Keep the speaker choice both tools share."""
        self._choice = choice
