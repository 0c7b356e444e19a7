"""Finding music by name with the best search a player offers.

In order: the player's own search (SEARCH_MEDIA), else the Spotify account
behind a core `spotify` player, else a bounded walk through the player's
library. The best result is the one whose name fits the words said.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.components.media_player.const import (
    ATTR_MEDIA_CONTENT_ID,
    ATTR_MEDIA_CONTENT_TYPE,
    ATTR_MEDIA_FILTER_CLASSES,
    ATTR_MEDIA_SEARCH_QUERY,
    SERVICE_BROWSE_MEDIA,
    SERVICE_SEARCH_MEDIA,
    MediaPlayerEntityFeature,
)
from homeassistant.core import Context, HomeAssistant

from ..language import fold
from ..turn.replies import entity_name
from . import spotify
from .media import KIND_CLASSES, Found, async_call, features
from .names import name_words

# How much of a library is walked.
MAX_BROWSE_CALLS = 12
MAX_BROWSE_DEPTH = 3

# Exact title, all words said (title and artist), some words said.
EXACT, COMPLETE, PARTIAL = 3, 2, 1


@dataclass(slots=True, frozen=True)
class Search:
    """What one search strategy found, and where (for "I couldn't find")."""

    found: list[Found]
    where: str
    # Search engines rank by relevance; a library walk only matches names.
    ranked: bool = True


type Strategy = Callable[
    [HomeAssistant, str, str, str | None, Context], Awaitable[Search | None]
]


async def async_search(
    hass: HomeAssistant, player: str, query: str, kind: str | None, context: Context
) -> Search | None:
    """The first search strategy that applies to the player; None if none."""
    strategies: tuple[Strategy, ...] = (
        _async_search_media,
        _async_search_spotify,
        _async_browse,
    )
    for strategy in strategies:
        if (search := await strategy(hass, player, query, kind, context)) is not None:
            return search
    return None


def best(search: Search, query: str, kind: str | None) -> Found | None:
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


async def _async_search_media(
    hass: HomeAssistant, player: str, query: str, kind: str | None, context: Context
) -> Search | None:
    """1. The player's own search (Music Assistant, Sonos, Plex, ...)."""
    if MediaPlayerEntityFeature.SEARCH_MEDIA not in features(hass, player):
        return None
    data: dict[str, Any] = {ATTR_MEDIA_SEARCH_QUERY: query}
    if kind:
        data[ATTR_MEDIA_FILTER_CLASSES] = sorted(KIND_CLASSES[kind])
    response = await async_call(hass, player, SERVICE_SEARCH_MEDIA, data, context)
    items = _as_dict(response).get("result") or []
    return Search(
        [_found(item) for item in items if item.get("can_play")],
        entity_name(hass, player),
    )


async def _async_search_spotify(
    hass: HomeAssistant, player: str, query: str, kind: str | None, context: Context
) -> Search | None:
    """2. The Spotify account of a core `spotify` player (no search of its own)."""
    found = await spotify.async_search(hass, player, query, kind)
    return None if found is None else Search(found, "Spotify")


async def _async_browse(
    hass: HomeAssistant, player: str, query: str, kind: str | None, context: Context
) -> Search | None:
    """3. A walk through the player's library, looking for the title."""
    if MediaPlayerEntityFeature.BROWSE_MEDIA not in features(hass, player):
        return None
    found: list[Found] = []
    queue: deque[tuple[dict[str, Any], int]] = deque([({}, 0)])
    calls = 0
    while queue and calls < MAX_BROWSE_CALLS:
        node, depth = queue.popleft()
        calls += 1
        response = await async_call(hass, player, SERVICE_BROWSE_MEDIA, node, context)
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
    return Search(found, entity_name(hass, player), ranked=False)


def _fits(found: Found, kind: str | None) -> bool:
    return kind is None or found.kind in KIND_CLASSES[kind]


def _score(query: str, found: Found) -> int:
    """How well a result's name matches what was said (0: not at all)."""
    if fold(query) == fold(found.title):
        return EXACT
    said = name_words(query)
    if said <= name_words(f"{found.title} {found.artist or ''}"):
        return COMPLETE
    return PARTIAL if said & name_words(found.title) else 0


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
