"""The one place that reaches into core's `spotify` integration.

Core Spotify players cannot search (no SEARCH_MEDIA) and core offers no
public search, so the account's Web API client is taken from core's config
entry (`runtime_data.coordinator.client`), an internal detail. Everything
that depends on it is here, guarded: if core changes, the search falls
through to browsing the library, with one warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from homeassistant.components.media_player.const import MediaClass
from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from ..const import LOGGER
from .media import Found

SPOTIFY_DOMAIN = "spotify"
# Spotify search types per kind; a request of no kind searches them all.
SPOTIFY_TYPES: Mapping[str | None, tuple[str, ...]] = {
    "track": ("track",),
    "album": ("album",),
    "artist": ("artist",),
    "playlist": ("playlist",),
    "genre": ("playlist",),
    "podcast": ("show",),
    None: ("track", "album", "artist", "playlist"),
}
# Results asked of the search engine.
SEARCH_LIMIT = 5


def is_spotify_player(hass: HomeAssistant, entity_id: str) -> bool:
    """Whether a player is core Spotify's, with its entry loaded."""
    return _spotify_entry(hass, entity_id) is not None


async def async_search(
    hass: HomeAssistant, player: str, query: str, kind: str | None
) -> list[Found] | None:
    """Search the Spotify account behind a player; None if it cannot be searched."""
    entry = _spotify_entry(hass, player)
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
        LOGGER.debug("Spotify search failed: %s", err)
        return None
    except (AttributeError, TypeError) as err:
        _warn_spotify_changed(repr(err))
        return None
    return found


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
    found.extend(
        Found(s.name, None, MediaClass.PODCAST, s.uri, "show")
        for s in result.shows or ()
    )
    return found


def _artists(artists: Iterable[Any]) -> str | None:
    return ", ".join(artist.name for artist in artists) or None
