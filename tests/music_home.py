"""Music players for the music tests: real entities, and a Spotify account.

`FakeSpeaker` is a real media player entity on a test platform (the way
core's tests build them) with a small library it can search, browse and
play. `SpotifyAccount` answers for the Spotify Web API behind core's real
`spotify` integration: the `spotifyaio` client is the only thing patched, at
the name core imports it by, as core's own spotify tests do.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
import time
from typing import Any
from unittest.mock import MagicMock

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockPlatform,
    mock_platform,
)
from spotifyaio.models import (
    Album,
    Device,
    PlaybackState,
    SavedAlbum,
    SearchResult,
    SearchType,
    SimplifiedAlbum,
    SimplifiedTrack,
    UserProfile,
)

from homeassistant.components.application_credentials import (
    ClientCredential,
    async_import_client_credential,
)
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.media_player import MediaPlayerEntity
from homeassistant.components.media_player.browse_media import (
    BrowseMedia,
    SearchMedia,
    SearchMediaQuery,
)
from homeassistant.components.media_player.const import (
    MediaClass,
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.components.spotify.const import SPOTIFY_SCOPES
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.helpers.entity_platform import AddEntitiesCallback
from homeassistant.helpers.typing import ConfigType, DiscoveryInfoType
from homeassistant.setup import async_setup_component

from .agents import set_agent_options

BASIC_FEATURES = (
    MediaPlayerEntityFeature.PLAY_MEDIA
    | MediaPlayerEntityFeature.PLAY
    | MediaPlayerEntityFeature.PAUSE
    | MediaPlayerEntityFeature.STOP
    | MediaPlayerEntityFeature.NEXT_TRACK
    | MediaPlayerEntityFeature.VOLUME_SET
    | MediaPlayerEntityFeature.VOLUME_STEP
    | MediaPlayerEntityFeature.SHUFFLE_SET
)


@dataclass(slots=True)
class Media:
    """An item of a speaker's library (a directory when it has children)."""

    title: str
    media_class: str
    media_id: str
    artist: str | None = None
    album: str | None = None
    children: list[Media] = field(default_factory=list)

    def browse(self, *, with_children: bool = True) -> BrowseMedia:
        """The item as Home Assistant's media browser shows it."""
        return BrowseMedia(
            title=self.title,
            media_class=self.media_class,
            media_content_type=self.media_class,
            media_content_id=self.media_id,
            can_play=self.media_class != MediaClass.DIRECTORY,
            can_expand=bool(self.children),
            children=[c.browse(with_children=False) for c in self.children]
            if with_children
            else None,
        )

    def walk(self) -> list[Media]:
        """The item and everything under it."""
        return [self, *(item for child in self.children for item in child.walk())]


KIND_OF_BLUE = Media(
    "Kind of Blue", MediaClass.ALBUM, "album/kind-of-blue", "Miles Davis"
)
SO_WHAT = Media(
    "So What", MediaClass.TRACK, "track/so-what", "Miles Davis", "Kind of Blue"
)
JAZZ = Media("Jazz Classics", MediaClass.PLAYLIST, "playlist/jazz")
SEARCHABLE_LIBRARY = Media(
    "Library", MediaClass.DIRECTORY, "root", children=[KIND_OF_BLUE, SO_WHAT, JAZZ]
)
BLUE_TRAIN = Media("Blue Train", MediaClass.ALBUM, "album/blue-train", "John Coltrane")
BROWSABLE_LIBRARY = Media(
    "Library",
    MediaClass.DIRECTORY,
    "root",
    children=[
        Media(
            "Podcasts",
            MediaClass.DIRECTORY,
            "podcasts",
            children=[Media("Blue Notes", MediaClass.PODCAST, "podcast/blue-notes")],
        ),
        Media("Albums", MediaClass.DIRECTORY, "albums", children=[BLUE_TRAIN]),
    ],
)


class FakeSpeaker(MediaPlayerEntity):
    """A speaker that searches or browses its library and plays from it."""

    _attr_should_poll = False

    def __init__(
        self,
        name: str,
        features: MediaPlayerEntityFeature,
        library: Media | None = None,
    ) -> None:
        """Start idle at 30 % volume; record what is asked of it."""
        self._attr_name = name
        self._attr_unique_id = name.casefold().replace(" ", "_")
        self._attr_supported_features = features
        self._attr_state = MediaPlayerState.IDLE
        self._attr_volume_level = 0.3
        self._attr_volume_step = 0.1
        self.library = library or Media("Library", MediaClass.DIRECTORY, "root")
        # How play_media goes: it may not start, fail, hang, or report late.
        self.starts = True
        self.failure: HomeAssistantError | None = None
        self.hangs = False
        self.reports_after = 0.0
        # Something else it plays instead of what it was given (a radio
        # station it falls back to, a queue that was not replaced).
        self.plays_instead: Media | None = None
        self.searches: list[SearchMediaQuery] = []
        self.browsed: list[str | None] = []
        self.played: list[tuple[str, str]] = []
        self.joined: list[list[str]] = []
        self.left = 0

    async def async_search_media(self, query: SearchMediaQuery) -> SearchMedia:
        """Items whose title or artist holds the query, of the classes asked."""
        self.searches.append(query)
        said = query.search_query.casefold()
        return SearchMedia(
            result=[
                item.browse(with_children=False)
                for item in self.library.walk()
                if said in f"{item.title} {item.artist or ''}".casefold()
                and item.children == []
                and (
                    not query.media_filter_classes
                    or item.media_class in query.media_filter_classes
                )
            ]
        )

    async def async_browse_media(
        self,
        media_content_type: str | None = None,
        media_content_id: str | None = None,
    ) -> BrowseMedia:
        """A directory of the library, the root when none is given."""
        self.browsed.append(media_content_id)
        node = next(
            (i for i in self.library.walk() if i.media_id == media_content_id),
            self.library,
        )
        return node.browse()

    async def async_play_media(
        self, media_type: str, media_id: str, **kwargs: Any
    ) -> None:
        """Play an item of the library: report its title, album and artist."""
        self.played.append((media_type, media_id))
        if self.failure:
            raise self.failure
        if self.hangs:
            await asyncio.Event().wait()
        if not self.starts:
            return
        item = self.plays_instead or next(
            i for i in self.library.walk() if i.media_id == media_id
        )
        self._attr_state = MediaPlayerState.PLAYING
        self._attr_media_content_id = item.media_id
        self._attr_media_title = item.title
        self._attr_media_artist = item.artist
        self._attr_media_album_name = (
            item.title if item.media_class == MediaClass.ALBUM else item.album
        )
        if self.reports_after:
            self.hass.loop.call_later(self.reports_after, self.async_write_ha_state)
        else:
            self.async_write_ha_state()

    async def async_media_pause(self) -> None:
        """Pause, unless it fails."""
        if self.failure:
            raise self.failure
        self._attr_state = MediaPlayerState.PAUSED
        self.async_write_ha_state()

    async def async_media_play(self) -> None:
        """Resume."""
        self._attr_state = MediaPlayerState.PLAYING
        self.async_write_ha_state()

    async def async_turn_on(self) -> None:
        """Switch on (HA calls it only with TURN_ON)."""
        self._attr_state = MediaPlayerState.ON
        self.async_write_ha_state()

    async def async_turn_off(self) -> None:
        """Switch off (HA calls it only with TURN_OFF)."""
        self._attr_state = MediaPlayerState.OFF
        self.async_write_ha_state()

    async def async_mute_volume(self, mute: bool) -> None:
        """Mute or unmute (HA calls it only with VOLUME_MUTE)."""
        self._attr_is_volume_muted = mute
        self.async_write_ha_state()

    async def async_media_stop(self) -> None:
        """Stop."""
        self._attr_state = MediaPlayerState.IDLE
        self.async_write_ha_state()

    async def async_media_next_track(self) -> None:
        """Skip to a track named "Next"."""
        self._attr_media_title = "Next"
        self.async_write_ha_state()

    async def async_set_volume_level(self, volume: float) -> None:
        """Set the volume."""
        self._attr_volume_level = volume
        self.async_write_ha_state()

    async def async_set_shuffle(self, shuffle: bool) -> None:
        """Shuffle on or off."""
        self._attr_shuffle = shuffle
        self.async_write_ha_state()

    async def async_join_players(self, group_members: list[str]) -> None:
        """Lead a group (HA calls it only with GROUPING): report its members."""
        self.joined.append(group_members)
        self._attr_group_members = [self.entity_id, *group_members]
        self.async_write_ha_state()

    async def async_unjoin_player(self) -> None:
        """Leave the group it is in (HA calls it only with GROUPING)."""
        self.left += 1
        self._attr_group_members = [self.entity_id]
        self.async_write_ha_state()


@dataclass(slots=True)
class Speakers:
    """The speakers of the music home, by room."""

    kitchen: FakeSpeaker
    bedroom: FakeSpeaker
    living_room: FakeSpeaker


# entity id -> area of the music home's speakers.
SPEAKER_AREAS = {
    "media_player.kitchen_speaker": "Kitchen",
    "media_player.bedroom_radio": "Bedroom",
    "media_player.living_room_tv": "Living Room",
}


async def async_setup_speakers(
    hass: HomeAssistant, more: Sequence[tuple[FakeSpeaker, str]] = ()
) -> Speakers:
    """A searching kitchen speaker, a browse-only bedroom radio and a TV.

    `more`: further speakers, each with its area's name.
    """
    speakers = Speakers(
        kitchen=FakeSpeaker(
            "Kitchen Speaker",
            BASIC_FEATURES | MediaPlayerEntityFeature.SEARCH_MEDIA,
            SEARCHABLE_LIBRARY,
        ),
        bedroom=FakeSpeaker(
            "Bedroom Radio",
            BASIC_FEATURES | MediaPlayerEntityFeature.BROWSE_MEDIA,
            BROWSABLE_LIBRARY,
        ),
        # It plays what it is given, but cannot look anything up.
        living_room=FakeSpeaker("Living Room TV", MediaPlayerEntityFeature.PAUSE),
    )

    async def async_setup_platform(
        hass: HomeAssistant,
        config: ConfigType,
        async_add_entities: AddEntitiesCallback,
        discovery_info: DiscoveryInfoType | None = None,
    ) -> None:
        async_add_entities(
            [
                speakers.kitchen,
                speakers.bedroom,
                speakers.living_room,
                *(speaker for speaker, _ in more),
            ]
        )

    mock_platform(
        hass,
        "music_test.media_player",
        MockPlatform(async_setup_platform=async_setup_platform),
    )
    assert await async_setup_component(
        hass, "media_player", {"media_player": [{"platform": "music_test"}]}
    )
    await hass.async_block_till_done()
    areas = {
        **SPEAKER_AREAS,
        **{str(speaker.entity_id): area for speaker, area in more},
    }
    for entity_id, area_name in areas.items():
        area = ar.async_get(hass).async_get_or_create(area_name)
        er.async_get(hass).async_update_entity(entity_id, area_id=area.id)
        async_expose_entity(hass, CONVERSATION_DOMAIN, entity_id, True)
    return speakers


# The Spotify side: one account, two Connect speakers, a tiny catalogue.
MILES = {
    "id": "0kbYTNQb4Pb1rPbbaF0pT4",
    "name": "Miles Davis",
    "uri": "spotify:artist:0kbYTNQb4Pb1rPbbaF0pT4",
}
SPOTIFY_KIND_OF_BLUE = "spotify:album:1weenld61qoidwYuZ1GESA"
SPOTIFY_SO_WHAT = "spotify:track:4vLYewWIvqHfKtJDk8c8tq"
KITCHEN_DEVICE = "kitchen-speaker-id"
TV_DEVICE = "living-room-tv-id"


def _album_json(tracks: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    return {
        "album_type": "album",
        "total_tracks": 5,
        "id": SPOTIFY_KIND_OF_BLUE.rsplit(":", 1)[1],
        "images": [],
        "name": "Kind of Blue",
        "release_date": "1959-08-17",
        "release_date_precision": "day",
        "uri": SPOTIFY_KIND_OF_BLUE,
        "artists": [MILES],
        "tracks": {"items": list(tracks)},
    }


def _track_json() -> dict[str, Any]:
    return {
        "id": SPOTIFY_SO_WHAT.rsplit(":", 1)[1],
        "artists": [MILES],
        "disc_number": 1,
        "duration_ms": 562000,
        "explicit": False,
        "external_urls": {},
        "href": "https://api.spotify.com/v1/tracks/so-what",
        "name": "So What",
        "is_local": False,
        "track_number": 1,
        "uri": SPOTIFY_SO_WHAT,
        "type": "track",
    }


def _device_json(
    device_id: str, name: str, kind: str, *, active: bool
) -> dict[str, Any]:
    return {
        "id": device_id,
        "is_active": active,
        "is_private_session": False,
        "is_restricted": False,
        "name": name,
        "type": kind,
        "volume_percent": 40,
        "supports_volume": True,
    }


class SpotifyAccount:
    """Answers the patched client's calls the way the Web API would."""

    def __init__(self, client: MagicMock, *, active: bool) -> None:
        """Wire the client; `active`: paused on the TV, else no active device."""
        self.client = client
        self.albums = [Album.from_dict(_album_json([_track_json()]))]
        self.tracks = [SimplifiedTrack.from_dict(_track_json())]
        self.devices = {
            KITCHEN_DEVICE: ("Kitchen Echo", "Speaker"),
            TV_DEVICE: ("Living Room TV", "TV"),
        }
        self.playback: dict[str, Any] | None = (
            self._playback(TV_DEVICE, playing=False) if active else None
        )
        client.get_current_user.return_value = UserProfile.from_dict(
            {
                "display_name": "Ann",
                "id": "1112264111",
                "images": [],
                "type": "user",
                "uri": "spotify:user:1112264111",
                "product": "premium",
            }
        )
        client.get_devices.return_value = [
            Device.from_dict(_device_json(i, n, k, active=False))
            for i, (n, k) in self.devices.items()
        ]
        client.get_playback.side_effect = self._get_playback
        client.search.side_effect = self._search
        client.start_playback.side_effect = self._start_playback
        client.transfer_playback.side_effect = self._transfer_playback
        # The library the media browser walks: one saved album, nothing else.
        for method in (
            "get_playlists_for_current_user",
            "get_followed_artists",
            "get_saved_tracks",
            "get_saved_shows",
            "get_recently_played_tracks",
            "get_top_artists",
            "get_top_tracks",
        ):
            getattr(client, method).return_value = []
        client.get_saved_albums.return_value = [
            SavedAlbum(added_at=datetime(2024, 1, 1, tzinfo=UTC), album=album)
            for album in self.albums
        ]

    def _playback(
        self, device_id: str, *, playing: bool, context: str | None = None
    ) -> dict[str, Any]:
        name, kind = self.devices[device_id]
        return {
            "context": {
                "external_urls": {},
                "href": "",
                "type": context.split(":")[1],
                "uri": context,
            }
            if context
            else None,
            "progress_ms": 0,
            "is_playing": playing,
            "item": {**_track_json(), "album": _album_json()} if playing else None,
            "currently_playing_type": "track",
            "device": _device_json(device_id, name, kind, active=True),
            "shuffle_state": False,
            "repeat_state": "off",
        }

    async def _get_playback(self) -> PlaybackState | None:
        return PlaybackState.from_dict(self.playback) if self.playback else None

    async def _search(
        self, query: str, types: list[SearchType], *, limit: int = 5
    ) -> SearchResult:
        said = query.casefold()
        albums = [
            SimplifiedAlbum.from_dict(_album_json())
            for a in self.albums
            if said in a.name.casefold()
        ]
        tracks = [t for t in self.tracks if said in t.name.casefold()]
        return SearchResult(
            albums=albums if SearchType.ALBUM in types else [],
            tracks=tracks if SearchType.TRACK in types else [],
            artists=[],
            playlists=[],
        )

    async def _start_playback(
        self,
        *,
        device_id: str | None = None,
        context_uri: str | None = None,
        uris: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        assert self.playback is not None, "Spotify plays nothing without a device"
        device = device_id or self.playback["device"]["id"]
        self.playback = self._playback(device, playing=True, context=context_uri)

    async def _transfer_playback(self, device_id: str) -> None:
        playing = bool(self.playback and self.playback["is_playing"])
        self.playback = self._playback(device_id, playing=playing)


async def async_setup_spotify(hass: HomeAssistant) -> str:
    """Core's spotify integration, set up from a config entry as core tests do.

    The client must be patched (and answered by a SpotifyAccount) meanwhile.
    Returns the Spotify player's entity id, exposed to Assist.
    """
    assert await async_setup_component(hass, "application_credentials", {})
    await async_import_client_credential(
        hass, "spotify", ClientCredential("CLIENT_ID", "CLIENT_SECRET"), "spotify"
    )
    entry = MockConfigEntry(
        domain="spotify",
        title="Ann",
        unique_id="1112264111",
        data={
            "auth_implementation": "spotify",
            "token": {
                "access_token": "mock-access-token",
                "refresh_token": "mock-refresh-token",
                "expires_at": time.time() + 3600,
                "scope": " ".join(SPOTIFY_SCOPES),
            },
            "id": "1112264111",
            "name": "Ann",
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    (player,) = [
        e.entity_id
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    ]
    async_expose_entity(hass, CONVERSATION_DOMAIN, player, True)
    return player


async def async_start_playing(hass: HomeAssistant, entity_id: str, media: str) -> None:
    """Start an item of a speaker's library, as if from its own app."""
    await hass.services.async_call(
        "media_player",
        "play_media",
        {"entity_id": entity_id, "media_content_id": media, "media_content_type": "x"},
        blocking=True,
    )


async def async_setup_music_agent(
    hass: HomeAssistant, entry: MockConfigEntry, **options: Any
) -> str:
    """The agent with these options, set up after the speakers; its id."""
    set_agent_options(hass, entry, options)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return str(entry.entry_id)
