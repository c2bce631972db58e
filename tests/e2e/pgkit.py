"""The e2e kit's PostgreSQL piece: the offline harness waits for the database too (used by
the whole-bot tests on PostgreSQL, tests/host/test_pg_bot.py and test_pg_shards.py: import
the fixture there, it is autouse)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from host.storage_pg import PgStore
from tests.harness.idle import THREAD_WORK


@pytest.fixture(autouse=True)
def database_work_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness waits for the bot to be idle by watching the event loop and its worker
    threads; a PostgreSQL query waits on a socket instead. Count every connection in use
    as pending work, so that the harness waits for the database too."""
    inner = PgStore._conn

    @contextlib.asynccontextmanager
    async def counted(self: PgStore) -> AsyncIterator[Any]:
        loop = asyncio.get_running_loop()
        THREAD_WORK.begin(loop)
        try:
            async with inner(self) as con:
                yield con
        finally:
            THREAD_WORK.end(loop)

    monkeypatch.setattr(PgStore, "_conn", counted)


async def waiting_for_advisory_locks(store: PgStore, n: int) -> None:
    """Until ``n`` sessions wait for an advisory lock (bounded: at most ~10 s)."""
    for _ in range(1000):
        async with store.pool.acquire() as con:
            waiting = await con.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )
        if waiting >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{n} waiters never showed up")
