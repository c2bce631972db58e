"""Two bot processes on one PostgreSQL database, each a Host with its own store (its own
connection pool, its own in-process locks): what one process guarantees holds across both.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import pytest

from core.contract import Game
from host.clock import FakeClock
from host.sessions import Host, HostError
from host.storage import VersionConflict, open_store
from host.storage_pg import PgStore
from tests import timedgame, toygame
from tests.e2e.pgkit import waiting_for_advisory_locks
from tests.host.kit import ANA, BEN, play_one, started


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def make(pg_url: str, clock: FakeClock) -> AsyncIterator[Callable[[], Any]]:
    """``await make()``: another process's Host on the same database."""
    hosts: list[Host] = []

    async def new() -> Host:
        store = await open_store(pg_url)
        h = Host(
            store,
            clock=clock,
            seeds=random.Random(len(hosts)),
            games=lambda: {"toy": cast(Game, toygame.GAME), "timed": timedgame.GAME},
        )
        hosts.append(h)
        return h

    yield new
    for h in hosts:
        await h.store.close()


def count_conflicts(h: Host) -> list[int]:
    """Count the optimistic version check's refusals in ``h``'s store."""
    counter = [0]
    inner = h.store.commit_action

    async def counted(*args: Any, **kwargs: Any) -> int:
        try:
            return await inner(*args, **kwargs)
        except VersionConflict:
            counter[0] += 1
            raise

    h.store.commit_action = counted  # type: ignore[method-assign]
    return counter


async def test_migrations_from_two_processes_starting_together(pg_url: str) -> None:
    a, b = await asyncio.gather(open_store(pg_url), open_store(pg_url))
    try:
        assert await a.migrate() == await b.migrate() > 0
    finally:
        await a.close()
        await b.close()


async def test_the_game_lock_holds_across_processes(make) -> None:
    one, two = await make(), await make()
    order: list[str] = []

    async def second() -> None:
        async with two.locks[7]:
            order.append("two")

    async with one.locks[7]:
        task = asyncio.create_task(second())
        await waiting_for_advisory_locks(cast(PgStore, one.store), 1)
        order.append("one")
    await task
    assert order == ["one", "two"]
    assert len(one.locks) == len(two.locks) == 0


async def test_a_hundred_clicks_split_between_two_processes_apply_once(make) -> None:
    one, two = await make(), await make()
    gid = await started(one, ANA, BEN)
    snap = await two.by_id(gid)
    (d,) = snap.decisions
    who = {0: ANA, 1: BEN}[d.seat]
    conflicts = [count_conflicts(one), count_conflicts(two)]
    results = await asyncio.gather(
        *(
            (one if i % 2 else two).play(gid, who.user_id, d.seat, snap.token(d), "add2")
            for i in range(100)
        ),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 99
    assert all(isinstance(r, HostError) for r in refused)
    # The lock, not the version check, kept them apart: each click saw the one before.
    assert conflicts == [[0], [0]]
    assert await one.store.count_actions(gid) == 1
    assert await two.replay(gid) == (await one.by_id(gid)).row.state


async def test_a_reminder_is_due_once_across_processes(make, clock: FakeClock) -> None:
    one, two = await make(), await make()
    gid = await started(one, ANA, BEN)
    clock.advance(13 * 3600)  # past the default 12h reminder
    dues = await asyncio.gather(*(h.pace(gid) for h in (one, two, one, two)))
    assert sum(len(due.nudges) for due in dues) == 1


async def test_a_timer_fires_once_across_processes(make, clock: FakeClock) -> None:
    one, two = await make(), await make()
    lobby = await one.new_lobby(guild_id=1, channel_id=100, game_id="timed", owner=ANA, lang="en")
    await two.join(lobby.id, BEN)
    await one.start(lobby.id, ANA)
    await one.pace(lobby.id)  # the first turn's timer starts counting
    clock.advance(timedgame.SPEED["live"])
    dues = await asyncio.gather(*(h.pace(lobby.id) for h in (one, two, two, one)))
    assert sum(len(due.timed) for due in dues) == 1
    assert await one.store.count_actions(lobby.id) == 1
    assert await two.replay(lobby.id) == (await one.by_id(lobby.id)).row.state


async def test_a_process_that_dies_mid_game_loses_nothing(make) -> None:
    one, two = await make(), await make()
    gid = await started(one, ANA, BEN)
    users = {0: ANA, 1: BEN}
    for _ in range(2):
        await play_one(one, gid, users)
    # The first process dies while it holds the game's lock (its connections drop).
    store = cast(PgStore, one.store)
    holding = asyncio.Event()

    async def crash() -> None:
        async with one.locks[gid]:
            holding.set()
            await asyncio.Event().wait()  # never lets go by itself

    task = asyncio.create_task(crash())
    await holding.wait()
    store.pool.terminate()
    task.cancel()
    with pytest.raises(BaseException):  # noqa: B017 - whatever a dead process leaves
        await task
    # The other process takes over at once and finishes the game.
    moves = await two.store.count_actions(gid)
    assert moves == 2
    while (await two.by_id(gid)).row.status == "active":
        await play_one(two, gid, users)
    snap = await two.by_id(gid)
    assert snap.row.status == "over"
    assert await two.replay(gid) == snap.row.state
