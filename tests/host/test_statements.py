"""A few SQL statements per accepted move (issue 14): the game is loaded once, the move is
committed in one transaction with whom the game waits for and its timers, and the state after
the move comes from memory, never from a reload. Counted on both backends: every statement the
store sends (BEGIN and COMMIT included) through the connection's execute/executemany/fetch*.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import asyncpg
import pytest

from core.contract import Game, random_answer
from host import registry
from host.clock import FakeClock
from host.sessions import Host, Player
from host.storage import SqliteStore, _Direct, open_store
from tests import timedgame

ANA = Player(1, "Ana", "es")
BEN = Player(2, "Ben", "en")

#: Statements for a whole click (Host.play: load + check + apply + commit), most a move
#: costs, on each backend. SQLite: 1 SELECT (the game, its seats, move counts, waits and
#: timers in one query) + BEGIN, UPDATE games, INSERT action, the waits (the turn passing
#: on: one UPDATE), COMMIT. PostgreSQL: the same, plus the game's advisory lock and unlock
#: (several processes) and the pool's reset of the connection.
BOUND = {"sqlite": 6, "postgresql": 9}
#: A move may also open the next decision's timer and close its own (same transaction).
TIMED_EXTRA = 2

_PG_METHODS = ("execute", "executemany", "fetch", "fetchrow", "fetchval")
_SQLITE_METHODS = ("execute", "executemany", "execute_fetchall", "execute_insert")


@contextmanager
def counting(store: Any) -> Iterator[list[str]]:
    """Every statement ``store`` sends while inside, as SQL text."""
    seen: list[str] = []
    if isinstance(store, SqliteStore):
        target: Any = store.db
        names: tuple[str, ...] = _SQLITE_METHODS
    else:
        target = asyncpg.connection.Connection
        names = _PG_METHODS
    saved = {n: getattr(target, n) for n in names}

    def wrap(name: str) -> Any:
        inner = saved[name]

        def counted(*args: Any, **kwargs: Any) -> Any:
            sql = args[1] if target is asyncpg.connection.Connection else args[0]
            seen.append(str(sql).split("\n")[0][:60])
            return inner(*args, **kwargs)

        return counted

    for n in names:
        setattr(target, n, wrap(n))
    direct = _Direct.sql  # a transaction run in one trip to SQLite's thread (in_one_hop)

    def direct_counted(self: _Direct, sql: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(sql).split("\n")[0][:60])
        return direct(self, sql, *args, **kwargs)

    _Direct.sql = direct_counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        for n in names:
            setattr(target, n, saved[n])
        _Direct.sql = direct  # type: ignore[method-assign]


async def _host(db: str, games: dict[str, Game]) -> Host:
    return Host(
        await open_store(db), clock=FakeClock(), seeds=random.Random(5), games=lambda: games
    )


async def _play_counted(
    host: Host, gid: int, users: dict[int, Player], moves: int, rng: random.Random
) -> list[int]:
    """Play ``moves`` moves of people, each as a click would; statements per Host.play
    (but the game's last move, checked here)."""
    counts: list[int] = []
    for _ in range(moves):
        snap = await host.by_id(gid)
        if snap.row.status != "active" or not snap.decisions:
            break
        d = snap.decisions[0]
        with counting(host.store) as seen:
            await host.play(
                gid, users[d.seat].user_id, d.seat, snap.token(d), random_answer(d, rng)
            )
        if (await host.by_id(gid)).row.status == "active":
            counts.append(len(seen))
        else:  # the last move also saves the results (once a game): 4 statements more,
            # and rates the game in their transaction (host/ratings.py): 4 more, 5 with
            # PostgreSQL's lock on ratings
            assert len(seen) <= BOUND[host.store.dialect] + 9, seen
    return counts


async def _started(host: Host, game: str, players: list[Player], **options: str) -> int:
    snap = await host.new_lobby(
        guild_id=1, channel_id=100, game_id=game, owner=players[0], lang="en"
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    for key, value in options.items():
        while (await host.by_id(snap.id)).row.options.get(key) != value:
            await host.cycle_option(snap.id, key, players[0])
    await host.start(snap.id, players[0])
    return snap.id


@pytest.mark.parametrize("game", ["mlem", "kosmonavts"])
async def test_statements_per_move(db: str, game: str) -> None:
    host = await _host(db, registry.games())
    try:
        gid = await _started(host, game, [ANA, BEN])
        counts = await _play_counted(host, gid, {0: ANA, 1: BEN}, 25, random.Random(3))
        assert counts, "no move was played"
        assert max(counts) <= BOUND[host.store.dialect], counts
        assert await host.replay(gid) == (await host.by_id(gid)).row.state
    finally:
        await host.store.close()


@pytest.mark.parametrize("clock", ["seat", "phase"])
async def test_statements_per_timed_move(db: str, clock: str) -> None:
    host = await _host(db, {"timed": cast(Game, timedgame.GAME)})
    try:
        gid = await _started(host, "timed", [ANA, BEN], clock=clock)
        counts = await _play_counted(host, gid, {0: ANA, 1: BEN}, 40, random.Random(4))
        assert len(counts) > 5
        assert max(counts) <= BOUND[host.store.dialect] + TIMED_EXTRA, counts
        assert await host.replay(gid) == (await host.by_id(gid)).row.state
    finally:
        await host.store.close()


async def test_bot_moves_after_a_click_do_not_reload(db: str) -> None:
    host = await _host(db, registry.games())
    try:
        snap = await host.new_lobby(
            guild_id=1, channel_id=100, game_id="mlem", owner=ANA, lang="en"
        )
        await host.add_bot(snap.id, ANA)
        await host.start(snap.id, ANA)
        rng = random.Random(6)
        with_bots = 0
        for _ in range(30):
            snap = await host.by_id(snap.id)
            if snap.row.status != "active":
                break
            mine = snap.decisions_for(0)
            if not mine:
                break
            d = mine[0]
            with counting(host.store) as seen:
                out = await host.play(
                    snap.id, ANA.user_id, 0, snap.token(d), random_answer(d, rng)
                )
            if out.after.row.status != "active":
                break
            bot_moves = sum(s.by_bot for s in out.steps)
            with_bots += bot_moves > 0
            loads = [sql for sql in seen if sql.startswith("SELECT id, guild_id")]
            assert len(loads) == 1, seen  # the click's own load, never one per move
            # Each bot move is a commit: BEGIN, UPDATE, INSERT, waits, COMMIT at most.
            assert len(seen) <= BOUND[host.store.dialect] + 5 * bot_moves, seen
        assert with_bots, "no bot moved after a click"
    finally:
        await host.store.close()
