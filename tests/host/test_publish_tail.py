"""A publish's recent actions (``Storage.for_publish``) are the actions read again, move
after move, whatever happened to the log in between: new moves, an undo, a rollback, a log
changed by another program. On SQLite the last ones read are kept and only the newer ones
are read (host/storage.py, ``SqliteStore._recent_actions``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from host.clock import FakeClock
from host.sessions import Host
from host.storage import SqliteStore, _Direct
from tests.host.kit import ANA, BEN, CAL, hosted, play_one, started

LIMITS = (300, 3)


@contextmanager
def statements() -> Iterator[list[str]]:
    """The SQL of every statement run in one trip to SQLite's thread while inside."""
    seen: list[str] = []
    direct = _Direct.sql

    def counted(self: _Direct, sql: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(sql)
        return direct(self, sql, *args, **kwargs)

    _Direct.sql = counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        _Direct.sql = direct  # type: ignore[method-assign]


async def same(host: Host, gid: int) -> None:
    """Each limit's publish read gives the actions a plain read gives."""
    for limit in LIMITS:
        read = await host.store.for_publish(gid, limit)
        assert read.actions == await host.store.actions(gid, limit), limit


async def undo(host: Host, gid: int, seqs: list[int], kind: str) -> None:
    snap = await host.by_id(gid)
    state = snap.game.dump(snap.state)
    now = host.clock.now()
    await host.store.undo_actions(gid, snap.row.version, seqs, kind, state, now)


async def test_the_recent_actions_are_those_read_again(db: str) -> None:
    clock = FakeClock()
    async with hosted(db, clock) as host:
        gid = await started(host, ANA, BEN, CAL)
        await same(host, gid)  # nothing played yet
        for _ in range(7):
            await play_one(host, gid)
            clock.advance(5)
            await same(host, gid)
        await same(host, gid)  # read twice with nothing new
        last = (await host.store.actions(gid))[-1].seq
        await undo(host, gid, [last], "undo")
        await same(host, gid)
        await play_one(host, gid)
        await same(host, gid)
        live = [a.seq for a in await host.store.actions(gid)]
        await undo(host, gid, live[-3:], "rollback")
        await same(host, gid)
        for _ in range(2):
            await play_one(host, gid)
        await same(host, gid)
        assert len(await host.store.actions(gid, 300)) >= 5


async def test_sqlite_reads_only_the_newer_actions_and_sees_another_program(
    tmp_path: Any,
) -> None:
    clock = FakeClock()
    async with hosted(str(tmp_path / "tail.db"), clock) as host:
        store = host.store
        assert isinstance(store, SqliteStore)
        gid = await started(host, ANA, BEN, CAL)
        for _ in range(4):
            await play_one(host, gid)
        await same(host, gid)
        await play_one(host, gid)
        with statements() as seen:
            await same(host, gid)
        recent = [s for s in seen if "FROM actions" in s and "COUNT(" not in s]
        # the one new action for each limit, not the whole tail
        assert len(recent) == len(LIMITS)
        assert all("seq > ?" in s for s in recent), recent
        # Another program changes the log (the last action deleted, an old one undone):
        # the kept actions are read again, not trusted. (Nothing edits a stored action in
        # place, but for its undone mark.)
        async with store.transaction() as con:
            await con.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq = "
                "(SELECT MAX(seq) FROM actions WHERE game_id = ?)",
                (gid, gid),
            )
        await same(host, gid)
        async with store.transaction() as con:
            sql = "UPDATE actions SET undone = 'undo' WHERE game_id = ? AND seq = 1"
            await con.execute(sql, (gid,))
        await same(host, gid)
        assert [a.seq for a in await store.actions(gid, 300)][:1] == [2]
