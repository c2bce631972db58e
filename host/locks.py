"""Per-key asyncio locks that do not pile up.

``locks = KeyedLocks()`` then ``async with locks[game_id]: ...``: one lock per key while
anybody holds or waits for it; the entry is dropped as soon as nobody does, so a process
that touches ten thousand games keeps no lock for the ones at rest.

``KeyedLocks(across=store.lock_game)`` also takes a lock that holds across processes (the
PostgreSQL store's advisory lock) once the in-process one is held, and lets it go first: a
process asks its database for a key's lock once at a time, whatever its own queue.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any

Across = Callable[[Any], AbstractAsyncContextManager[Any]]


class KeyedLocks:
    def __init__(self, across: Across | None = None) -> None:
        #: key -> (lock, how many tasks hold or wait for it)
        self._entries: dict[Hashable, tuple[asyncio.Lock, int]] = {}
        self.across = across

    def __getitem__(self, key: Hashable) -> _Hold:
        return _Hold(self, key)

    def __len__(self) -> int:
        return len(self._entries)

    def locked(self, key: Hashable) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry[0].locked()

    def waiting(self, key: Hashable) -> int:
        """How many tasks wait for the key's lock (besides the one that holds it)."""
        entry = self._entries.get(key)
        return 0 if entry is None else max(0, entry[1] - 1)

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
        self.outer: AbstractAsyncContextManager[Any] | None = None

    async def __aenter__(self) -> None:
        self.lock = self.owner._enter(self.key)
        try:
            await self.lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self.owner._leave(self.key)
            raise
        if self.owner.across is not None:
            outer = self.owner.across(self.key)
            try:
                await outer.__aenter__()
            except BaseException:  # the shared lock was not had: let go of ours too
                self.lock.release()
                self.owner._leave(self.key)
                raise
            self.outer = outer

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self.lock is not None
        try:
            if self.outer is not None:
                outer, self.outer = self.outer, None
                await outer.__aexit__(exc_type, exc, tb)
        finally:
            self.lock.release()
            self.owner._leave(self.key)
