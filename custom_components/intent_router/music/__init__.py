"""Music by name: search, play where it was asked, and say so only when it plays.

`speakers` chooses where (media players and Spotify Connect speakers),
`search` finds what (the player's search, Spotify, its library), `spotify`
is the one adapter to core's Spotify integration, `verify` waits for the
player to report the item; `play` and `control` are the two tools, built on
`media` (player calls), `names` (names as spoken) and `arguments`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from homeassistant.components.media_player.const import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.core import HomeAssistant

from ..core.records import EntityInfo
from ..home.tools import Tool
from .control import MusicControl
from .play import MusicPlay
from .speakers import SpeakerChoice


class MusicSource:
    """Offers the music tools while any media player is exposed to Assist."""

    def __init__(self, hass: HomeAssistant, default_player: str | None) -> None:
        """Create the tools once; they read states per turn."""
        choice = SpeakerChoice(hass, default_player)
        # "Play it in the office too" is a join (control), not a search for "it".
        self._tools: tuple[Tool, ...] = (MusicControl(choice), MusicPlay(choice))

    def tools(self, exposed: Mapping[str, EntityInfo]) -> Iterable[Tool]:
        """Both tools, or none when no media player is exposed."""
        if any(info.domain == MEDIA_PLAYER_DOMAIN for info in exposed.values()):
            return self._tools
        return ()
