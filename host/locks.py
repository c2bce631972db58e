"""Per-key asyncio locks that do not pile up.

``locks = KeyedLocks()`` then ``async with locks[game_id]: ...``: one lock per key while
anybody holds or waits for it; the entry is dropped as soon as nobody does, so a process
that touches ten thousand games keeps no lock for the ones at rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from types import TracebackType


class KeyedLocks:
    def __init__(self) -> None:
        #: key -> (lock, how many tasks hold or wait for it)
        self._entries: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    def __getitem__(self, key: Hashable) -> _Hold:
        return _Hold(self, key)

    def __len__(self) -> int:
        return len(self._entries)

    def locked(self, key: Hashable) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry[0].locked()

    def _enter(self, key: Hashable) -> asyncio.Lock:
        lock, users = self._entries.get(key) or (asyncio.Lock(), 0)
        self._entries[key] = (lock, users + 1)
        return lock

    def _leave(self, key: Hashable) -> None:
        lock, users = self._entries[key]
        if users <= 1:
            del self._entries[key]
        else:
            self._entries[key] = (lock, users - 1)


class _Hold:
    """``async with locks[key]``: waits for the key's lock, holds it, lets go."""

    def __init__(self, owner: KeyedLocks, key: Hashable) -> None:
        self.owner, self.key = owner, key
        self.lock: asyncio.Lock | None = None

    async def __aenter__(self) -> None:
        self.lock = self.owner._enter(self.key)
        try:
            await self.lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self.owner._leave(self.key)
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self.lock is not None
        self.lock.release()
        self.owner._leave(self.key)
