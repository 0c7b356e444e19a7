"""Media players as the music tools use them: kinds of media, items, calls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.components.media_player.const import (
    DOMAIN as MEDIA_PLAYER_DOMAIN,
    SERVICE_BROWSE_MEDIA,
    SERVICE_SEARCH_MEDIA,
    MediaClass,
    MediaPlayerEntityFeature,
)
from homeassistant.const import ATTR_ENTITY_ID, ATTR_SUPPORTED_FEATURES
from homeassistant.core import Context, HomeAssistant

# What a kind of request (`MUSIC_KINDS`) may be played as (media classes
# of search results).
KIND_CLASSES: Mapping[str, frozenset[str]] = {
    "track": frozenset({MediaClass.TRACK, MediaClass.MUSIC}),
    "album": frozenset({MediaClass.ALBUM}),
    "artist": frozenset({MediaClass.ARTIST}),
    "playlist": frozenset({MediaClass.PLAYLIST}),
    # Moods and genres are mostly found as playlists.
    "genre": frozenset({MediaClass.GENRE, MediaClass.PLAYLIST}),
    "podcast": frozenset({MediaClass.PODCAST, MediaClass.EPISODE}),
}


@dataclass(slots=True, frozen=True)
class Found:
    """A playable search result."""

    title: str
    artist: str | None
    # A media class (track, album, artist, playlist, genre, ...).
    kind: str
    media_id: str
    media_type: str


def features(hass: HomeAssistant, player: str) -> MediaPlayerEntityFeature:
    """What a player says it supports."""
    state = hass.states.get(player)
    supported = state.attributes.get(ATTR_SUPPORTED_FEATURES) if state else None
    # A misbehaving integration's attribute must not break the turn.
    return MediaPlayerEntityFeature(supported if isinstance(supported, int) else 0)


async def async_call(
    hass: HomeAssistant,
    player: str,
    service: str,
    data: Mapping[str, Any],
    context: Context,
) -> Any:
    """A blocking media_player call on one player, with its response if any."""
    wants_response = service in (SERVICE_SEARCH_MEDIA, SERVICE_BROWSE_MEDIA)
    response = await hass.services.async_call(
        MEDIA_PLAYER_DOMAIN,
        service,
        {ATTR_ENTITY_ID: player, **data},
        blocking=True,
        context=context,
        return_response=wants_response,
    )
    return response[player] if response else None
