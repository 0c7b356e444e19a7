"""Saying "Playing ..." only once the player reports what was asked for."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
import re
from typing import Any

from homeassistant.components.media_player.const import (
    ATTR_MEDIA_ALBUM_NAME,
    ATTR_MEDIA_ARTIST,
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_PLAYLIST,
    ATTR_MEDIA_TITLE,
    MediaClass,
    MediaPlayerState,
)
from homeassistant.core import (
    Event,
    EventStateChangedData,
    HomeAssistant,
    State,
    callback,
)
from homeassistant.helpers.event import async_track_state_change_event

from ..language import fold
from .media import Found

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
# How long a player may take to report what it plays (the user is waiting).
VERIFY_TIMEOUT = 1.5


async def async_wait_until_playing(
    hass: HomeAssistant,
    player: str,
    found: Found,
    before: State | None,
    deadline: float,
) -> bool:
    """Whether the player reports playing `found` soon, within the turn's deadline."""
    wait = min(VERIFY_TIMEOUT, max(deadline - hass.loop.time(), 0.0))
    return await _async_wait_for(
        hass, player, lambda state: plays(found, before, state), wait
    )


def plays(found: Found, before: State | None, state: State | None) -> bool:
    """Whether a player reports playing the item that was asked for."""
    if state is None or state.state != MediaPlayerState.PLAYING:
        return False
    attributes = state.attributes
    if attributes.get(ATTR_MEDIA_CONTENT_ID) == found.media_id:
        return True
    attribute = NOW_PLAYING_ATTRIBUTE.get(found.kind)
    if attribute and fold(found.title) in _names(attributes.get(attribute)):
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
    return {fold(text), *(fold(part) for part in re.split(r"[,;&/]", text))}


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
