"""One robust way to keep a file in Home Assistant storage.

Memory (context_store.py) and learned commands (learned.py) both keep a
versioned file that nothing found on disk may take down: a file written by
a newer major version, one the Store cannot read, or one that is not the
layout at all is kept beside the original as `<key>.bad`, a warning (and,
for files the user would miss, a repair issue) says so, and the owner
starts empty. Older layouts pass through the owner's `migrate` step. A
file moves to a new key as it is (`async_move_file`).
"""

from __future__ import annotations

from collections.abc import Callable
import contextlib
from dataclasses import dataclass
import shutil
from typing import TYPE_CHECKING, Any, Final

from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.storage import Store

from ..const import LOGGER
from .issues import async_warn, async_withdraw

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

# Files of any major version reach the migrate hook, which sets newer ones aside.
ANY_VERSION: Final = 2**31

# How a file of an older minor version is brought up to date, in place.
type Migrate = Callable[[int, Any], None]


@dataclass(slots=True, frozen=True)
class _StoredFile:
    """A file's payload, with the version that wrote it."""

    version: int
    minor_version: int
    data: Any


class _NewerFileError(Exception):
    """The file was written by a newer major version."""

    def __init__(self, stored: _StoredFile) -> None:
        """Keep the payload, so that it can be set aside."""
        super().__init__(f"file version {stored.version}")
        self.stored = stored


class _VersionedStorage(Store[Any]):
    """The Store, with the hook older and newer layouts pass through."""

    def __init__(
        self,
        hass: HomeAssistant,
        version: int,
        key: str,
        minor_version: int,
        migrate: Migrate | None,
        serialize_in_event_loop: bool,
    ) -> None:
        """A private, atomically written file."""
        super().__init__(
            hass,
            version,
            key,
            minor_version=minor_version,
            private=True,
            atomic_writes=True,
            max_readable_version=ANY_VERSION,
            serialize_in_event_loop=serialize_in_event_loop,
        )
        self._migrate = migrate
        # The version of the file last loaded, as it was on disk.
        self.file_version = f"{version}.{minor_version}"

    async def _async_migrate_func(
        self, old_major_version: int, old_minor_version: int, old_data: Any
    ) -> Any:
        """Bring an older minor version up to date; refuse a newer major version.

        A newer minor version is read as it is: the fields it added are not
        known here and are left out when its records are read.
        """
        self.file_version = f"{old_major_version}.{old_minor_version}"
        if old_major_version > self.version:
            raise _NewerFileError(
                _StoredFile(old_major_version, old_minor_version, old_data)
            )
        if old_minor_version < self.minor_version and self._migrate is not None:
            self._migrate(old_minor_version, old_data)
        return old_data


class RobustStore:
    """A versioned file that is set aside, never fatal, when it cannot be used.

    `issue_id` is the repair issue raised then (None: a lost file is only
    logged, for caches nobody needs to hear about).
    """

    def __init__(
        self,
        hass: HomeAssistant,
        key: str,
        version: int,
        minor_version: int,
        *,
        issue_id: str | None = None,
        migrate: Migrate | None = None,
        serialize_in_event_loop: bool = False,
    ) -> None:
        """Bind to the file `key` of this layout version.

        Saved data is made by a worker thread unless `serialize_in_event_loop`
        (for owners whose data function reads live state).
        """
        self._hass = hass
        self._store = _VersionedStorage(
            hass, version, key, minor_version, migrate, serialize_in_event_loop
        )
        self._issue_id = issue_id

    @property
    def key(self) -> str:
        """The storage key, for log lines."""
        return self._store.key

    @property
    def file_version(self) -> str:
        """The version of the file last loaded, as it was on disk ("1.2")."""
        return self._store.file_version

    async def async_load[T](self, read: Callable[[Any], T | None]) -> T | None:
        """The file read by `read` (in a worker thread); None when set aside.

        `read` returns None for data that is not its layout at all. A
        missing file is read as `{}`.
        """
        try:
            data = await self._store.async_load()
        except _NewerFileError as err:
            await self._async_set_aside(err.stored, "memory_from_newer_version")
            return None
        except (HomeAssistantError, KeyError, TypeError, ValueError) as err:
            LOGGER.debug("File %s unreadable: %r", self.key, err)
            await self._async_set_aside(None, "memory_unusable")
            return None
        loaded = await self._hass.async_add_executor_job(read, data or {})
        if loaded is None:
            stored = _StoredFile(self._store.version, self._store.minor_version, data)
            await self._async_set_aside(stored, "memory_unusable")
        return loaded

    def async_delay_save(self, data: Callable[[], Any], delay: float) -> None:
        """Write `data()` a little later."""
        self._store.async_delay_save(data, delay)

    async def async_save(self, data: Any) -> None:
        """Write now."""
        await self._store.async_save(data)

    async def async_remove(self) -> None:
        """Delete the file, a set-aside copy and its repair issue."""
        await self._store.async_remove()
        await self._bad_copy(
            self._store.version, self._store.minor_version
        ).async_remove()
        if self._issue_id is not None:
            async_withdraw(self._hass, self._issue_id)

    def _bad_copy(self, version: int, minor_version: int) -> Store[Any]:
        """The Store of the copy kept beside a file that was set aside."""
        return _plain_store(
            self._hass, f"{self._store.key}.bad", version, minor_version
        )

    async def _async_set_aside(
        self, stored: _StoredFile | None, translation_key: str
    ) -> None:
        """Keep an unusable file as `<key>.bad`, say so, start empty.

        The payload is written back under its own version, so the copy is the
        file as it was; a file the Store could not read is copied as bytes.
        """
        path: str = self._store.path
        if stored is None:
            await self._hass.async_add_executor_job(_copy_file, path, f"{path}.bad")
        else:
            copy = self._bad_copy(stored.version, stored.minor_version)
            await copy.async_save(stored.data)
        LOGGER.warning(
            "Could not use the file %s; it was kept as %s.bad and Intent Router"
            " starts without what it held",
            path,
            path,
        )
        if self._issue_id is None:
            return
        async_warn(
            self._hass,
            self._issue_id,
            translation_key,
            {
                "path": path,
                "copy": f"{path}.bad",
                **({"version": str(stored.version)} if stored else {}),
            },
        )


async def async_move_file(hass: HomeAssistant, key: str, new_key: str) -> None:
    """Give a file (and a set-aside copy of it) a new key, as it is.

    The payload keeps the version that wrote it, so its owner reads and
    migrates it under the new key as it would have under the old one. A
    file that cannot be read stays where it is, with a warning.
    """
    for old, new in ((key, new_key), (f"{key}.bad", f"{new_key}.bad")):
        # Version 0: any file is newer, so it comes back unmigrated.
        reader = _VersionedStorage(hass, 0, old, 0, None, False)
        try:
            await reader.async_load()
        except _NewerFileError as err:
            stored = err.stored
        except (HomeAssistantError, KeyError, TypeError, ValueError) as err:
            LOGGER.warning("Could not move the file %s to %s: %r", old, new, err)
            continue
        else:  # no such file
            continue
        copy = _plain_store(hass, new, stored.version, stored.minor_version)
        await copy.async_save(stored.data)
        await reader.async_remove()


def _plain_store(
    hass: HomeAssistant, key: str, version: int, minor_version: int
) -> Store[Any]:
    """A private Store of this version, to write a file as it was."""
    return Store(
        hass,
        version,
        key,
        private=True,
        minor_version=minor_version,
        serialize_in_event_loop=False,
    )


def _copy_file(source: str, destination: str) -> None:
    """Copy a file if it can be read (worker thread)."""
    with contextlib.suppress(OSError):
        shutil.copyfile(source, destination)
