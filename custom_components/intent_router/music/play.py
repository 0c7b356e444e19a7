"""`music.play`: find music by name, play it where it was asked, verify.

It plays the best match on the chosen speaker, selecting a Spotify Connect
speaker first when one is named, and says so only once the player reports it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import voluptuous as vol

from homeassistant.components.media_player.const import (
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_ARTIST,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    ATTR_MEDIA_TITLE,
    SERVICE_PLAY_MEDIA,
    SERVICE_SELECT_SOURCE,
    MediaClass,
    MediaPlayerState,
)
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.exceptions import HomeAssistantError

from ..const import LOGGER, MUSIC_KINDS
from ..core.records import Action, PriorState
from ..core.said import Said
from ..core.speech import phrase
from ..home.executor import capture_prior
from ..home.tools import HomeView, ToolRun
from ..language.tables import Verb
from ..turn.replies import entity_name
from .arguments import NAME, checked, given
from .media import Found, async_call
from .request import play_request
from .search import async_search, best
from .speakers import SpeakerTool, by_name, requested
from .verify import async_wait_until_playing

_PLAY_SCHEMA = vol.Schema(
    {
        vol.Required("query"): NAME,
        vol.Optional("kind"): vol.Any(
            None, vol.All(str, vol.Lower, vol.In(MUSIC_KINDS))
        ),
        vol.Optional("player"): vol.Any(None, NAME),
    },
    extra=vol.REMOVE_EXTRA,
)


class MusicPlay(SpeakerTool):
    """`music.play`: search by name, play on the chosen speaker, verify."""

    name = "music.play"

    def describe(self) -> str:
        """The prompt line."""
        return (
            f"{self.name}(query, kind, player): find music by name and play it, "
            f"as `{self.name} query=<name> kind=<kind>`; kind is track, album, "
            "artist, playlist, genre (moods too) or podcast; player is a media "
            "player id or a Spotify Connect speaker name from a Spotify "
            "player's source_list, left out for the speaker's area; "
            "media_play only resumes what was paused"
        )

    def read_words(
        self, said: Said, home: HomeView, verbs: frozenset[Verb]
    ) -> Action | None:
        """A request to play by name, read from the words (music/request.py)."""
        request = play_request(said, self._choice.place_test(home))
        if request is None:
            return None
        args: dict[str, Any] = {"query": request.query, "kind": request.kind}
        if request.places:
            args["player"] = " ".join(request.places)
        return Action(self.name, (), given(args))

    def validate(self, action: Action, home: HomeView) -> Action:
        """Check the arguments and choose the speaker; ask when it is unclear."""
        args = checked(_PLAY_SCHEMA, self.name, action.args)
        speakers = self._choice.speakers(home)
        named = requested(self.name, action, args.get("player"))
        speaker = (
            by_name(named, speakers)
            if named
            else self._choice.for_play(speakers, home.speaker_area)
        )
        self._choice.check_can_play(speaker)
        args["player"] = speaker.source or speaker.player
        return Action(self.name, (speaker.player,), given(args))

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """Search, select the Connect speaker, play, and wait to hear it."""
        player = action.targets[0]
        query: str = action.args["query"]
        kind: str | None = action.args.get("kind")
        source = action.args["player"] if action.args["player"] != player else None
        run = _Run(
            self.name,
            player,
            source or entity_name(hass, player),
            capture_prior(hass, [player]),
        )
        deadline = hass.loop.time() + timeout
        title = query
        try:
            async with asyncio.timeout(timeout):
                search = await async_search(hass, player, query, kind, context)
                if search is None:
                    return run.failed(
                        "cannot_search", "music_cannot_search", player=run.where
                    )
                found = best(search, query, kind)
                if found is None:
                    return run.failed(
                        "not_found", "music_not_found", query=query, where=search.where
                    )
                title = found.title
                before = await _async_play(hass, player, found, source, context)
        except TimeoutError:
            return run.failed(
                "timeout", "music_not_started", title=title, player=run.where
            )
        except HomeAssistantError as err:
            LOGGER.debug("%s on %s failed: %s", self.name, player, err)
            return run.failed(
                type(err).__name__, "music_not_started", title=title, player=run.where
            )
        return await _async_heard(hass, run, found, before, deadline)


@dataclass(slots=True, frozen=True)
class _Run:
    """One play request's speaker, as said, and its state before, for undo."""

    tool: str
    player: str
    # The speaker as the reply names it: its Connect name, else the player's.
    where: str
    prior: dict[str, PriorState]

    def failed(self, error: str, key: str, **placeholders: str) -> ToolRun:
        """A failure, said with the phrase `key`."""
        LOGGER.debug("%s on %s: %s", self.tool, self.player, error)
        return ToolRun(
            error=error,
            speech=phrase(key, **placeholders),
            affected=(self.player,),
            prior=self.prior,
        )


async def _async_play(
    hass: HomeAssistant,
    player: str,
    found: Found,
    source: str | None,
    context: Context,
) -> State | None:
    """Select the Connect speaker if need be and play; the player's state before."""
    if source and _input_source(hass, player) != source:
        await async_call(
            hass, player, SERVICE_SELECT_SOURCE, {ATTR_INPUT_SOURCE: source}, context
        )
    before = hass.states.get(player)
    await async_call(
        hass,
        player,
        SERVICE_PLAY_MEDIA,
        {
            ATTR_MEDIA_CONTENT_ID: found.media_id,
            ATTR_MEDIA_CONTENT_TYPE: found.media_type,
        },
        context,
    )
    return before


async def _async_heard(
    hass: HomeAssistant,
    run: _Run,
    found: Found,
    before: State | None,
    deadline: float,
) -> ToolRun:
    """What plays once the player reports it: what was asked, or what instead."""
    player, where = run.player, run.where
    if not await async_wait_until_playing(hass, player, found, before, deadline):
        # Not what was asked: say so, and what plays instead if anything.
        instead = _playing_instead(hass.states.get(player), before)
        return run.failed(
            "not_started",
            "music_playing_instead" if instead else "music_not_started",
            title=found.title,
            player=where,
            **({"playing": instead} if instead else {}),
        )
    title, artist = now_playing(found, hass.states.get(player))
    return ToolRun(
        speech=phrase(
            "music_playing_by" if artist else "music_playing",
            title=title,
            artist=artist or "",
            player=where,
        ),
        affected=(player,),
        prior=run.prior,
    )


def now_playing(found: Found, state: State | None) -> tuple[str, str | None]:
    """What to say is playing, from the player's report once it plays `found`.

    A track or an artist: the track the player names, and its artist; an
    album: its title and artist; a playlist or genre: its name only (the
    artist of its first track is not the playlist's).
    """
    attributes = state.attributes if state else {}
    title = attributes.get(ATTR_MEDIA_TITLE)
    artist = attributes.get(ATTR_MEDIA_ARTIST)
    if found.kind in (MediaClass.TRACK, MediaClass.MUSIC):
        return str(title or found.title), found.artist or _text(artist)
    if found.kind == MediaClass.ARTIST and title:
        return str(title), found.title
    if found.kind == MediaClass.ALBUM:
        return found.title, found.artist or _text(artist)
    return found.title, found.artist


def _playing_instead(state: State | None, before: State | None) -> str | None:
    """What a player plays instead of what was asked, if it newly plays something."""
    if state is None or state.state != MediaPlayerState.PLAYING:
        return None
    title = _text(state.attributes.get(ATTR_MEDIA_TITLE))
    if title is None or (
        before is not None
        and before.state == MediaPlayerState.PLAYING
        and before.attributes.get(ATTR_MEDIA_TITLE) == title
    ):
        return None
    artist = _text(state.attributes.get(ATTR_MEDIA_ARTIST))
    return f"{title} ({artist})" if artist else title


def _text(value: Any) -> str | None:
    """A reported name, if it is one."""
    return str(value) if isinstance(value, str) and value.strip() else None


def _input_source(hass: HomeAssistant, player: str) -> Any:
    """The source a player plays from (a Connect speaker, for Spotify)."""
    state = hass.states.get(player)
    return state.attributes.get(ATTR_INPUT_SOURCE) if state else None
