"""Per-game locks serialise work on a game and are dropped when the game is at rest."""

from __future__ import annotations

import asyncio

import pytest

from host.locks import KeyedLocks
from host.sessions import Host
from tests.host.kit import ANA, BEN, play_one, started


async def test_one_holder_at_a_time_and_nothing_left_after() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def first() -> None:
        async with locks[7]:
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks[7]:
            order.append("second in")

    a = asyncio.create_task(first())
    await asyncio.sleep(0)
    b = asyncio.create_task(second())
    await asyncio.sleep(0)
    assert locks.locked(7) and len(locks) == 1 and order == ["first in"]
    release.set()
    await asyncio.gather(a, b)
    assert order == ["first in", "first out", "second in"]
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_nothing_behind() -> None:
    locks = KeyedLocks()
    async with locks["g"]:
        waiter = asyncio.create_task(locks["g"].__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    assert len(locks) == 0


async def test_the_host_keeps_no_lock_for_idle_games(host: Host) -> None:
    games = [await started(host, ANA, BEN, channel=100 + i) for i in range(5)]
    for gid in games:
        await play_one(host, gid, {0: ANA, 1: BEN})
        await host.pace(gid)
    assert len(host.locks) == 0
