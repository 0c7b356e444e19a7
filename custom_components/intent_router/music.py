"""Music by name: search, play where it was asked, and say so only when it plays.

`music.play` finds what was asked with the best search the player offers:
its own search (SEARCH_MEDIA), else the Spotify account behind a core
`spotify` player, else a walk through the player's library. It plays the best
match, on a Spotify Connect speaker when one is named, then waits briefly for
the player to report that item before saying it plays. `music.control` is
transport and volume on the player the user most likely means.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
import re
from typing import TYPE_CHECKING, Any

import voluptuous as vol

from homeassistant.components.media_player.const import (
    ATTR_INPUT_SOURCE,
    ATTR_INPUT_SOURCE_LIST,
    ATTR_MEDIA_ALBUM_NAME,
    ATTR_MEDIA_ARTIST,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    ATTR_MEDIA_FILTER_CLASSES,
    ATTR_MEDIA_PLAYLIST,
    ATTR_MEDIA_REPEAT,
    ATTR_MEDIA_SEARCH_QUERY,
    ATTR_MEDIA_SHUFFLE,
    ATTR_MEDIA_TITLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MEDIA_PLAYER_DOMAIN,
    SERVICE_BROWSE_MEDIA,
    SERVICE_PLAY_MEDIA,
    SERVICE_SEARCH_MEDIA,
    SERVICE_SELECT_SOURCE,
    MediaClass,
    MediaPlayerEntityFeature,
    MediaPlayerState,
    RepeatMode,
)
from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.const import (
    ATTR_ENTITY_ID,
    ATTR_SUPPORTED_FEATURES,
    SERVICE_MEDIA_NEXT_TRACK,
    SERVICE_MEDIA_PAUSE,
    SERVICE_MEDIA_PLAY,
    SERVICE_MEDIA_PREVIOUS_TRACK,
    SERVICE_MEDIA_STOP,
    SERVICE_REPEAT_SET,
    SERVICE_SHUFFLE_SET,
    SERVICE_VOLUME_DOWN,
    SERVICE_VOLUME_SET,
    SERVICE_VOLUME_UP,
)
from homeassistant.core import (
    Context,
    Event,
    EventStateChangedData,
    HomeAssistant,
    State,
    callback,
)
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.event import async_track_state_change_event

from .catalog import STOP_WORDS, WORD_RE, Catalog, EntityInfo, words
from .const import CONF_DEFAULT_MUSIC_PLAYER, LOGGER
from .executor import capture_prior
from .plan import Action, PlanError, Rejection
from .replies import entity_name
from .speech import Names, phrase
from .tools import Tool, ToolQuestion, ToolRun

if TYPE_CHECKING:
    from .data import IntentRouterConfigEntry

SPOTIFY_DOMAIN = "spotify"

# What a kind of request may be played as (media classes of search results).
KIND_CLASSES: Mapping[str, frozenset[str]] = {
    "track": frozenset({MediaClass.TRACK, MediaClass.MUSIC}),
    "album": frozenset({MediaClass.ALBUM}),
    "artist": frozenset({MediaClass.ARTIST}),
    "playlist": frozenset({MediaClass.PLAYLIST}),
    # Moods and genres are mostly found as playlists.
    "genre": frozenset({MediaClass.GENRE, MediaClass.PLAYLIST}),
}
# Spotify search types per kind; a request of no kind searches them all.
SPOTIFY_TYPES: Mapping[str | None, tuple[str, ...]] = {
    "track": ("track",),
    "album": ("album",),
    "artist": ("artist",),
    "playlist": ("playlist",),
    "genre": ("playlist",),
    None: ("track", "album", "artist", "playlist"),
}
# The attribute in which a player names what it plays, per kind. Players
# rarely name the playlist or genre they play: there a new item is enough.
NOW_PLAYING_ATTRIBUTE: Mapping[str, str] = {
    MediaClass.TRACK: ATTR_MEDIA_TITLE,
    MediaClass.MUSIC: ATTR_MEDIA_TITLE,
    MediaClass.ALBUM: ATTR_MEDIA_ALBUM_NAME,
    MediaClass.ARTIST: ATTR_MEDIA_ARTIST,
    MediaClass.PLAYLIST: ATTR_MEDIA_PLAYLIST,
}
# Kinds players always name as they play them: for these the name must match.
NAMED_KINDS = frozenset(
    {MediaClass.TRACK, MediaClass.MUSIC, MediaClass.ALBUM, MediaClass.ARTIST}
)

# Results asked of a search engine, and how much of a library is walked.
SEARCH_LIMIT = 5
MAX_BROWSE_CALLS = 12
MAX_BROWSE_DEPTH = 3
# How long a player may take to report what it plays (the user is waiting).
VERIFY_TIMEOUT = 1.5

# Exact title, all words said (title and artist), some words said.
EXACT, COMPLETE, PARTIAL = 3, 2, 1

COMMAND_SERVICES: Mapping[str, str] = {
    "pause": SERVICE_MEDIA_PAUSE,
    "resume": SERVICE_MEDIA_PLAY,
    "stop": SERVICE_MEDIA_STOP,
    "next": SERVICE_MEDIA_NEXT_TRACK,
    "previous": SERVICE_MEDIA_PREVIOUS_TRACK,
    "volume_up": SERVICE_VOLUME_UP,
    "volume_down": SERVICE_VOLUME_DOWN,
    "volume_set": SERVICE_VOLUME_SET,
    "shuffle": SERVICE_SHUFFLE_SET,
    "repeat": SERVICE_REPEAT_SET,
    "transfer": SERVICE_SELECT_SOURCE,
}
SHUFFLE_MODES: Mapping[str, bool] = {"on": True, "off": False}
REPEAT_MODES: Mapping[str, RepeatMode] = {
    "on": RepeatMode.ALL,
    "all": RepeatMode.ALL,
    "one": RepeatMode.ONE,
    "off": RepeatMode.OFF,
}


def _mode(value: Any) -> str:
    """Shuffle and repeat modes as words; a model may send true/false."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).strip().lower()


_NAME = vol.All(str, vol.Strip, vol.Length(min=1, max=200))
_PLAY_SCHEMA = vol.Schema(
    {
        vol.Required("query"): _NAME,
        vol.Optional("kind"): vol.Any(
            None, vol.All(str, vol.Lower, vol.In(KIND_CLASSES))
        ),
        vol.Optional("player"): vol.Any(None, _NAME),
    },
    extra=vol.REMOVE_EXTRA,
)


def _complete(args: dict[str, Any]) -> dict[str, Any]:
    """What a control command needs besides its name."""
    command = args["command"]
    if command == "volume_set" and args.get("level") is None:
        raise vol.Invalid("volume_set needs a level")
    if command == "shuffle" and (args.get("mode") or "on") not in SHUFFLE_MODES:
        raise vol.Invalid("shuffle is on or off")
    if command == "transfer" and not args.get("target"):
        raise vol.Invalid("transfer needs a target speaker")
    return args


_CONTROL_SCHEMA = vol.All(
    {
        vol.Required("command"): vol.All(str, vol.Lower, vol.In(COMMAND_SERVICES)),
        vol.Optional("level"): vol.Any(
            None, vol.All(vol.Coerce(float), vol.Range(min=0, max=100))
        ),
        vol.Optional("mode"): vol.Any(None, vol.All(_mode, vol.In(REPEAT_MODES))),
        vol.Optional("target"): vol.Any(None, _NAME),
        vol.Optional("player"): vol.Any(None, _NAME),
    },
    _complete,
)


@dataclass(slots=True, frozen=True)
class Found:
    """A playable search result."""

    title: str
    artist: str | None
    # A media class (track, album, artist, playlist, genre, ...).
    kind: str
    media_id: str
    media_type: str


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


@dataclass(slots=True, frozen=True)
class Search:
    """What one search strategy found, and where (for "I couldn't find")."""

    found: list[Found]
    where: str
    # Search engines rank by relevance; a library walk only matches names.
    ranked: bool = True


type Strategy = Callable[[str, str, str | None, Context], Awaitable[Search | None]]


class MusicSource:
    """Offers the music tools while any media player is exposed to Assist."""

    def __init__(self, hass: HomeAssistant, entry: IntentRouterConfigEntry) -> None:
        """Create the tools once; they read options and states per turn."""
        self._tools: tuple[Tool, ...] = (
            MusicPlay(hass, entry),
            MusicControl(hass, entry),
        )

    def tools(self, exposed: Mapping[str, EntityInfo]) -> Iterable[Tool]:
        """Both tools, or none when no media player is exposed."""
        if any(info.domain == MEDIA_PLAYER_DOMAIN for info in exposed.values()):
            return self._tools
        return ()


class _MusicTool:
    """Player choice, shared by both tools."""

    name: str

    def __init__(self, hass: HomeAssistant, entry: IntentRouterConfigEntry) -> None:
        """Keep what choosing a player needs: states, registry, options."""
        self._hass = hass
        self._entry = entry

    def _speakers(self, catalog: Catalog) -> list[Speaker]:
        """Exposed media players, then the Connect speakers of Spotify ones."""
        players = sorted(
            (i for i in catalog.exposed.values() if i.domain == MEDIA_PLAYER_DOMAIN),
            key=lambda info: info.name.casefold(),
        )
        speakers = [
            Speaker(
                info.entity_id,
                info.name,
                area=info.area,
                keys=frozenset(_norm(n) for n in (info.name, *info.aliases)),
                words=frozenset(
                    _content_words(
                        " ".join((info.name, *info.aliases, info.area or ""))
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
                keys=frozenset({_norm(source)}),
                words=frozenset(_content_words(source)),
            )
            for info in players
            for source in self._connect_sources(info.entity_id)
        )
        return speakers

    def _connect_sources(self, player: str) -> list[str]:
        """Spotify Connect speakers a core `spotify` player can play on."""
        state = self._hass.states.get(player)
        if state is None or _spotify_entry(self._hass, player) is None:
            return []
        return [str(s) for s in state.attributes.get(ATTR_INPUT_SOURCE_LIST) or ()]

    def _named(self, name: str, speakers: Sequence[Speaker]) -> Speaker:
        """The speaker a name means: an entity id, a name, or words of one.

        Media players win over Connect speakers of the same name (a speaker
        known to both is the same box); several matches make a question.
        """
        if found := next(
            (s for s in speakers if s.player == name and not s.source), None
        ):
            return found
        key = _norm(name)
        said = _content_words(name)
        exact = [s for s in speakers if key in s.keys]
        partial = [s for s in speakers if said and said <= s.words]
        groups = (
            [s for s in exact if not s.source],
            [s for s in exact if s.source],
            [s for s in partial if not s.source],
            [s for s in partial if s.source],
        )
        return self._choose(groups, speakers)

    def _choose(
        self, groups: Iterable[Sequence[Speaker]], candidates: Sequence[Speaker]
    ) -> Speaker:
        """The one speaker of the first group that has any, else ask.

        Several in that group: ask among them; every group empty: ask among
        the candidates.
        """
        for group in groups:
            if len(group) == 1:
                return group[0]
            if group:
                raise self._ask(group)
        raise self._ask(candidates)

    def _ask(self, speakers: Sequence[Speaker]) -> ToolQuestion:
        """Which speaker? Naming the candidates."""
        names = list(dict.fromkeys(s.name for s in speakers))
        return ToolQuestion(
            phrase("music_which_player", players=Names(tuple(names), any_of=True))
        )

    def _default(self, speakers: Sequence[Speaker]) -> list[Speaker]:
        """The default music player option, when it is exposed."""
        default = self._entry.options.get(CONF_DEFAULT_MUSIC_PLAYER)
        return [s for s in speakers if s.player == default and not s.source]

    def _requested(self, action: Action, named: str | None) -> str | None:
        """A player the plan names, in `player` or as its one target."""
        if named:
            return named
        if len(action.targets) > 1:
            raise PlanError(Rejection.INVALID_ARGS, f"{self.name}: one player at most")
        return action.targets[0] if action.targets else None

    def _features(self, player: str) -> MediaPlayerEntityFeature:
        state = self._hass.states.get(player)
        features = state.attributes.get(ATTR_SUPPORTED_FEATURES) if state else None
        # A misbehaving integration's attribute must not break the turn.
        return MediaPlayerEntityFeature(features if isinstance(features, int) else 0)

    async def _async_call(
        self, player: str, service: str, data: Mapping[str, Any], context: Context
    ) -> Any:
        """A blocking media_player call on one player, with its response if any."""
        wants_response = service in (SERVICE_SEARCH_MEDIA, SERVICE_BROWSE_MEDIA)
        response = await self._hass.services.async_call(
            MEDIA_PLAYER_DOMAIN,
            service,
            {ATTR_ENTITY_ID: player, **data},
            blocking=True,
            context=context,
            return_response=wants_response,
        )
        return response[player] if response else None


class MusicPlay(_MusicTool):
    """`music.play`: search by name, play on the chosen speaker, verify."""

    name = "music.play"

    def describe(self) -> str:
        """The prompt line."""
        return (
            f"{self.name}(query, kind, player): find music by name and play it; "
            "kind is track, album, artist, playlist or genre (moods too); player "
            "is a media player id or a Spotify Connect speaker name from a "
            "Spotify player's source_list, left out for the speaker's area"
        )

    def validate(self, action: Action, catalog: Catalog) -> Action:
        """Check the arguments and choose the speaker; ask when it is unclear."""
        args = _checked(_PLAY_SCHEMA, self.name, action.args)
        speakers = self._speakers(catalog)
        named = self._requested(action, args.get("player"))
        players = [s for s in speakers if not s.source]
        speaker = (
            self._named(named, speakers)
            if named
            else self._choose(
                (
                    *_in_area(speakers, catalog.speaker_area),
                    self._default(speakers),
                    players if len(players) == 1 else [],
                ),
                speakers,
            )
        )
        sources = self._connect_sources(speaker.player)
        if (
            speaker.source is None
            and sources
            and MediaPlayerEntityFeature.PLAY_MEDIA
            not in self._features(speaker.player)
        ):
            # An idle Spotify account has no speaker to play on yet.
            raise ToolQuestion(
                phrase(
                    "music_which_source",
                    player=speaker.name,
                    sources=Names(tuple(sources), any_of=True),
                )
            )
        args["player"] = speaker.source or speaker.player
        return Action(self.name, (speaker.player,), _given(args))

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """Search, select the Connect speaker, play, and wait to hear it."""
        player = action.targets[0]
        query: str = action.args["query"]
        kind: str | None = action.args.get("kind")
        source = action.args["player"] if action.args["player"] != player else None
        where = source or entity_name(hass, player)
        prior = capture_prior(hass, [player])
        deadline = hass.loop.time() + timeout

        def failed(error: str, key: str, **placeholders: str) -> ToolRun:
            LOGGER.info("%s on %s: %s", self.name, player, error)
            return ToolRun(
                error=error,
                speech=phrase(key, **placeholders),
                affected=(player,),
                prior=prior,
            )

        title = query
        try:
            async with asyncio.timeout(timeout):
                search = await self._async_search(player, query, kind, context)
                if search is None:
                    return failed("cannot_search", "music_cannot_search", player=where)
                found = _best(search, query, kind)
                if found is None:
                    return failed(
                        "not_found", "music_not_found", query=query, where=search.where
                    )
                title = found.title
                if source and _attribute(hass, player, ATTR_INPUT_SOURCE) != source:
                    await self._async_call(
                        player,
                        SERVICE_SELECT_SOURCE,
                        {ATTR_INPUT_SOURCE: source},
                        context,
                    )
                before = hass.states.get(player)
                await self._async_call(
                    player,
                    SERVICE_PLAY_MEDIA,
                    {
                        ATTR_MEDIA_CONTENT_ID: found.media_id,
                        ATTR_MEDIA_CONTENT_TYPE: found.media_type,
                    },
                    context,
                )
        except TimeoutError:
            return failed("timeout", "music_not_started", title=title, player=where)
        except HomeAssistantError as err:
            LOGGER.warning("%s on %s failed: %s", self.name, player, err)
            return failed(
                type(err).__name__, "music_not_started", title=title, player=where
            )

        wait = min(VERIFY_TIMEOUT, max(deadline - hass.loop.time(), 0.0))
        if not await _async_wait_for(
            hass, player, lambda state: _plays(found, before, state), wait
        ):
            return failed("not_started", "music_not_started", title=title, player=where)
        key = "music_playing_by" if found.artist else "music_playing"
        return ToolRun(
            speech=phrase(
                key, title=found.title, artist=found.artist or "", player=where
            ),
            affected=(player,),
            prior=prior,
        )

    async def _async_search(
        self, player: str, query: str, kind: str | None, context: Context
    ) -> Search | None:
        """The first search strategy that applies to the player; None if none."""
        strategies: tuple[Strategy, ...] = (
            self._async_search_media,
            self._async_search_spotify,
            self._async_browse,
        )
        for strategy in strategies:
            if (search := await strategy(player, query, kind, context)) is not None:
                return search
        return None

    async def _async_search_media(
        self, player: str, query: str, kind: str | None, context: Context
    ) -> Search | None:
        """1. The player's own search (Music Assistant, Sonos, Plex, ...)."""
        if MediaPlayerEntityFeature.SEARCH_MEDIA not in self._features(player):
            return None
        data: dict[str, Any] = {ATTR_MEDIA_SEARCH_QUERY: query}
        if kind:
            data[ATTR_MEDIA_FILTER_CLASSES] = sorted(KIND_CLASSES[kind])
        response = await self._async_call(player, SERVICE_SEARCH_MEDIA, data, context)
        items = _as_dict(response).get("result") or []
        return Search(
            [_found(item) for item in items if item.get("can_play")],
            entity_name(self._hass, player),
        )

    async def _async_search_spotify(
        self, player: str, query: str, kind: str | None, context: Context
    ) -> Search | None:
        """2. The Spotify account of a core `spotify` player (no search of its own)."""
        entry = _spotify_entry(self._hass, player)
        if entry is None:
            return None
        # Loaded with core's spotify integration, which owns the client.
        from spotifyaio import SpotifyError  # noqa: PLC0415
        from spotifyaio.models import SearchType  # noqa: PLC0415

        # The client is reached through core's internals (the entry's runtime
        # data): if they change, fall through to browsing, with a warning.
        try:
            client = entry.runtime_data.coordinator.client
            result = await client.search(
                query, [SearchType(t) for t in SPOTIFY_TYPES[kind]], limit=SEARCH_LIMIT
            )
            found = _spotify_found(result)
        except SpotifyError as err:
            LOGGER.warning("Spotify search failed: %s", err)
            return None
        except (AttributeError, TypeError) as err:
            _warn_spotify_changed(repr(err))
            return None
        return Search(found, "Spotify")

    async def _async_browse(
        self, player: str, query: str, kind: str | None, context: Context
    ) -> Search | None:
        """3. A walk through the player's library, looking for the title."""
        if MediaPlayerEntityFeature.BROWSE_MEDIA not in self._features(player):
            return None
        found: list[Found] = []
        queue: deque[tuple[dict[str, Any], int]] = deque([({}, 0)])
        calls = 0
        while queue and calls < MAX_BROWSE_CALLS:
            node, depth = queue.popleft()
            calls += 1
            response = await self._async_call(
                player, SERVICE_BROWSE_MEDIA, node, context
            )
            for child in _as_dict(response).get("children") or []:
                if child.get("can_play"):
                    found.append(_found(child))
                if child.get("can_expand") and depth < MAX_BROWSE_DEPTH:
                    queue.append(
                        (
                            {
                                ATTR_MEDIA_CONTENT_TYPE: child["media_content_type"],
                                ATTR_MEDIA_CONTENT_ID: child["media_content_id"],
                            },
                            depth + 1,
                        )
                    )
            if any(_score(query, f) == EXACT and _fits(f, kind) for f in found):
                break
        return Search(found, entity_name(self._hass, player), ranked=False)


class MusicControl(_MusicTool):
    """`music.control`: transport, volume and Connect transfer."""

    name = "music.control"

    def describe(self) -> str:
        """The prompt line."""
        return (
            f"{self.name}(command, level, mode, target, player): command is "
            "pause, resume, stop, next, previous, volume_up, volume_down, "
            "volume_set (level 0-100), shuffle (mode on/off), repeat (mode "
            "off/all/one) or transfer (target: the Spotify Connect speaker to "
            "move playback to); player is left out for the one playing here "
            "or used last"
        )

    def validate(self, action: Action, catalog: Catalog) -> Action:
        """Check the command and choose the player; ask when it is unclear."""
        args = _checked(_CONTROL_SCHEMA, self.name, action.args)
        speakers = self._speakers(catalog)
        named = self._requested(action, args.get("player"))
        if args["command"] == "transfer":
            connect = [s for s in speakers if s.source]
            if not connect:
                raise PlanError(
                    Rejection.INVALID_ARGS, f"{self.name}: no Connect speakers"
                )
            if named:
                owner = self._named(named, speakers).player
                connect = [s for s in connect if s.player == owner]
            speaker = self._named(args["target"], connect)
            args["target"] = speaker.source
        elif named:
            speaker = self._named(named, speakers)
        else:
            speaker = self._for_control(speakers, catalog)
        args["player"] = speaker.player
        return Action(self.name, (speaker.player,), _given(args))

    def _for_control(self, speakers: Sequence[Speaker], catalog: Catalog) -> Speaker:
        """Playing here, else used last by this device, else the default."""
        players = [s for s in speakers if not s.source]
        playing = [
            s
            for s in players
            if _state(self._hass, s.player) == MediaPlayerState.PLAYING
        ]
        by_player = {s.player: s for s in players}
        recent = next(
            (t for t in reversed(catalog.recent_targets) if t in by_player), None
        )
        return self._choose(
            (
                [s for s in playing if s.area and s.area == catalog.speaker_area],
                [by_player[recent]] if recent else [],
                self._default(players),
                playing,
                players if len(players) == 1 else [],
            ),
            playing or players,
        )

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """One media_player service call on the chosen player."""
        player = action.targets[0]
        service, data = _service_call(action.args, self._features(player))
        prior = capture_prior(hass, [player])
        try:
            async with asyncio.timeout(timeout):
                await self._async_call(player, service, data, context)
        except (TimeoutError, HomeAssistantError) as err:
            LOGGER.warning("%s on %s failed: %r", self.name, player, err)
            return ToolRun(
                error="timeout"
                if isinstance(err, TimeoutError)
                else type(err).__name__,
                speech=phrase("music_control_failed", player=entity_name(hass, player)),
                affected=(player,),
                prior=prior,
            )
        return ToolRun(affected=(player,), prior=prior)


def _checked(
    schema: Callable[[Any], Any], tool: str, args: Mapping[str, Any]
) -> dict[str, Any]:
    """Arguments through a tool's schema; bad ones reject the plan."""
    try:
        return dict(schema(dict(args)))
    except vol.Invalid as err:
        raise PlanError(Rejection.INVALID_ARGS, f"{tool}: {err}") from err


def _service_call(
    args: Mapping[str, Any], features: MediaPlayerEntityFeature
) -> tuple[str, dict[str, Any]]:
    """The media_player service and data of a (validated) control command."""
    command = args["command"]
    mode = args.get("mode")
    if command == "volume_set":
        return SERVICE_VOLUME_SET, {ATTR_MEDIA_VOLUME_LEVEL: args["level"] / 100}
    if command == "shuffle":
        return SERVICE_SHUFFLE_SET, {ATTR_MEDIA_SHUFFLE: SHUFFLE_MODES[mode or "on"]}
    if command == "repeat":
        return SERVICE_REPEAT_SET, {ATTR_MEDIA_REPEAT: REPEAT_MODES[mode or "all"]}
    if command == "transfer":
        return SERVICE_SELECT_SOURCE, {ATTR_INPUT_SOURCE: args["target"]}
    if command == "stop" and MediaPlayerEntityFeature.STOP not in features:
        # Spotify and many speakers can only pause; to the user that is stopping.
        return SERVICE_MEDIA_PAUSE, {}
    return COMMAND_SERVICES[command], {}


def _in_area(speakers: Sequence[Speaker], area: str | None) -> list[list[Speaker]]:
    """The area's media players, else Connect speakers named after it."""
    if not area:
        return []
    said = _content_words(area)
    return [
        [s for s in speakers if not s.source and s.area == area],
        [s for s in speakers if s.source and said <= s.words],
    ]


def _best(search: Search, query: str, kind: str | None) -> Found | None:
    """The result that best fits the words and kind asked for.

    Search engines rank by relevance, so their first fitting result wins ties
    and one sharing no word still counts for a genre or mood ("something
    relaxing"); a library walk needs the name to match.
    """
    scored = [
        (score, -index, found)
        for index, found in enumerate(search.found)
        if _fits(found, kind)
        and ((score := _score(query, found)) > 0 or (search.ranked and kind == "genre"))
    ]
    return max(scored, key=lambda item: item[:2])[2] if scored else None


def _fits(found: Found, kind: str | None) -> bool:
    return kind is None or found.kind in KIND_CLASSES[kind]


def _score(query: str, found: Found) -> int:
    """How well a result's name matches what was said (0: not at all)."""
    if _norm(query) == _norm(found.title):
        return EXACT
    said = _content_words(query)
    if said <= _content_words(f"{found.title} {found.artist or ''}"):
        return COMPLETE
    return PARTIAL if said & _content_words(found.title) else 0


def _plays(found: Found, before: State | None, state: State | None) -> bool:
    """Whether a player reports playing the item that was asked for."""
    if state is None or state.state != MediaPlayerState.PLAYING:
        return False
    attributes = state.attributes
    if attributes.get(ATTR_MEDIA_CONTENT_ID) == found.media_id:
        return True
    attribute = NOW_PLAYING_ATTRIBUTE.get(found.kind)
    if attribute and _norm(found.title) in _names(attributes.get(attribute)):
        return True
    if found.kind in NAMED_KINDS:
        return False
    # Players rarely name the playlist or genre they play: a new item will do.
    return (
        before is None
        or before.state != MediaPlayerState.PLAYING
        or any(
            before.attributes.get(key) != attributes.get(key)
            for key in (ATTR_MEDIA_CONTENT_ID, ATTR_MEDIA_TITLE)
        )
    )


def _names(value: Any) -> set[str]:
    """A reported name, and each of several ("Miles Davis, John Coltrane")."""
    text = str(value or "")
    return {_norm(text), *(_norm(part) for part in re.split(r"[,;&/]", text))}


async def _async_wait_for(
    hass: HomeAssistant,
    entity_id: str,
    condition: Callable[[State | None], bool],
    timeout: float,
) -> bool:
    """Wait for an entity's state to meet a condition, on state changes only."""
    if condition(hass.states.get(entity_id)):
        return True
    met: asyncio.Future[None] = hass.loop.create_future()

    @callback
    def _changed(event: Event[EventStateChangedData]) -> None:
        if not met.done() and condition(event.data["new_state"]):
            met.set_result(None)

    unsubscribe = async_track_state_change_event(hass, [entity_id], _changed)
    try:
        async with asyncio.timeout(timeout):
            await met
    except TimeoutError:
        return False
    finally:
        unsubscribe()
    return True


def _spotify_entry(hass: HomeAssistant, entity_id: str) -> ConfigEntry[Any] | None:
    """The loaded config entry of core's `spotify` behind a player, if any."""
    entry = er.async_get(hass).async_get(entity_id)
    if entry is None or entry.platform != SPOTIFY_DOMAIN or not entry.config_entry_id:
        return None
    config_entry = hass.config_entries.async_get_entry(entry.config_entry_id)
    if config_entry is None or config_entry.state is not ConfigEntryState.LOADED:
        return None
    return config_entry


@cache
def _warn_spotify_changed(detail: str) -> None:
    """Say once that core's Spotify integration is not as this code expects."""
    LOGGER.warning(
        "Cannot search Spotify through Home Assistant's spotify integration "
        "(%s); falling back to browsing its library",
        detail,
    )


def _spotify_found(result: Any) -> list[Found]:
    """Search results of the Spotify Web API as playable items."""
    found = [
        Found(t.name, _artists(t.artists), MediaClass.TRACK, t.uri, "track")
        for t in result.tracks or ()
    ]
    found.extend(
        Found(a.name, _artists(a.artists), MediaClass.ALBUM, a.uri, "album")
        for a in result.albums or ()
    )
    found.extend(
        Found(a.name, None, MediaClass.ARTIST, a.uri, "artist")
        for a in result.artists or ()
    )
    found.extend(
        Found(p.name, None, MediaClass.PLAYLIST, p.uri, "playlist")
        for p in result.playlists or ()
    )
    return found


def _artists(artists: Iterable[Any]) -> str | None:
    return ", ".join(artist.name for artist in artists) or None


def _found(item: Mapping[str, Any]) -> Found:
    """A browse or search item (BrowseMedia as a dict) as a result."""
    return Found(
        str(item["title"]),
        None,
        str(item["media_class"]),
        str(item["media_content_id"]),
        str(item["media_content_type"]),
    )


def _as_dict(payload: Any) -> dict[str, Any]:
    """A BrowseMedia or SearchMedia response as JSON-like data."""
    return dict(payload.as_dict() if hasattr(payload, "as_dict") else payload or {})


def _state(hass: HomeAssistant, entity_id: str) -> str | None:
    state = hass.states.get(entity_id)
    return state.state if state else None


def _attribute(hass: HomeAssistant, entity_id: str, attribute: str) -> Any:
    state = hass.states.get(entity_id)
    return state.attributes.get(attribute) if state else None


def _given(args: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments without the empty ones, as memory and the prompt show them."""
    return {key: value for key, value in args.items() if value is not None}


def _norm(text: str) -> str:
    """Lower-case words only, for comparing names as spoken."""
    return " ".join(WORD_RE.findall(text.casefold()))


def _content_words(text: str) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not)."""
    return frozenset(words(text) - STOP_WORDS)
