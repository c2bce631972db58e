"""Database faults told apart from bugs (host/dbfaults.py), and their setting; SQLite's
connection never left inside a failed transaction (host/storage.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from host.dbfaults import StorageDown, fault_key, storage_fault, timed_out
from host.settings import Settings, SettingsError
from host.storage import SqliteStore


def test_timeout_setting() -> None:
    assert Settings.from_env(env={}, dotenv=None).db_timeout == 1.0
    env = {"COSMODROME_DB_TIMEOUT": "2.5"}
    assert Settings.from_env(env=env, dotenv=None).db_timeout == 2.5
    for bad in ("0", "soon", "-1", "nan", "600"):
        with pytest.raises(SettingsError, match="COSMODROME_DB_TIMEOUT"):
            Settings.from_env(env={"COSMODROME_DB_TIMEOUT": bad}, dotenv=None)


def test_faults_and_bugs_told_apart() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    assert storage_fault(full)
    assert storage_fault(sqlite3.OperationalError("database is locked"))
    assert not storage_fault(sqlite3.OperationalError("no such table: games"))
    assert not storage_fault(ValueError("a bug"))
    assert not storage_fault(TimeoutError())  # not the database's client: Discord's?
    try:
        raise RuntimeError("wrapped") from full
    except RuntimeError as err:
        assert storage_fault(err)
    assert fault_key(full) == "host.error.storage_down"
    try:
        raise StorageDown("host.error.storage_unsure") from full
    except StorageDown as err:
        assert storage_fault(err) and fault_key(err) == "host.error.storage_unsure"


def test_timeouts_told_from_lost_connections() -> None:
    assert timed_out(sqlite3.OperationalError("database is locked"))
    assert not timed_out(sqlite3.OperationalError("database or disk is full"))
    assert not timed_out(TimeoutError())  # not from the database's client
    try:
        raise StorageDown() from TimeoutError()
    except StorageDown as err:
        assert timed_out(err)


async def test_a_failed_rollback_never_leaves_the_transaction_open(tmp_path: Path) -> None:
    """A transaction whose body fails and whose ROLLBACK fails too: the store replaces its
    connection, so neither its reads nor the next write see (or commit) the rows the failed
    transaction wrote; another program reading the file never sees them either."""
    path = tmp_path / "db.sqlite"
    store = await SqliteStore.open(path)
    try:
        await store.db.execute("CREATE TABLE notes (x INTEGER)")
        first = store.db
        execute = first.execute

        def no_rollback(sql: str, *args: Any) -> Any:
            if sql == "ROLLBACK":
                raise sqlite3.OperationalError("disk I/O error")
            return execute(sql, *args)

        first.execute = no_rollback  # type: ignore[method-assign]
        with pytest.raises(sqlite3.OperationalError, match="disk or memory"):
            async with store.transaction() as db:
                await db.execute("INSERT INTO notes VALUES (1)")
                raise sqlite3.OperationalError("disk or memory is gone")
        assert store.db is not first and not store.db.in_transaction
        assert await store._rows("SELECT x FROM notes") == []
        async with store.transaction() as db:
            await db.execute("INSERT INTO notes VALUES (2)")
        assert [tuple(r) for r in await store._rows("SELECT x FROM notes")] == [(2,)]
        other = sqlite3.connect(path)
        try:
            assert other.execute("SELECT x FROM notes").fetchall() == [(2,)]
        finally:
            other.close()
    finally:
        await store.close()


async def test_a_connection_not_opened_again_is_opened_by_a_read_under_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a failed transaction whose connection could not be opened again, the first
    use may be reads under :meth:`SqliteStore.reading` (a click's ``by_id``): the lock is
    not re-entrant, so it is there that the connection is opened again (no deadlock), and
    while the file stays unopenable the read fails as a storage fault."""
    store = await SqliteStore.open(tmp_path / "db.sqlite")
    connect = SqliteStore._connect
    down = {"on": True}

    async def unopenable(path: str, busy_timeout: float) -> Any:
        if down["on"]:
            raise sqlite3.OperationalError("unable to open database file")
        return await connect(path, busy_timeout)

    monkeypatch.setattr(SqliteStore, "_connect", staticmethod(unopenable))
    try:
        store._leftover = True  # as after a failed ROLLBACK
        with pytest.raises(sqlite3.OperationalError) as err:
            async with store.reading():
                await asyncio.wait_for(store.load(1), 5)
        assert storage_fault(err.value) and store._lost
        down["on"] = False
        async with store.reading():
            assert await asyncio.wait_for(store.load(1), 5) is None
        assert not store._lost
    finally:
        await store.close()


async def test_close_during_a_reconnect_leaves_no_connection_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store closed while it opens its connection again: the new connection is closed
    at once (no aiosqlite thread left behind) and the caller gets the error any use of a
    closed store gets."""
    store = await SqliteStore.open(tmp_path / "db.sqlite")
    connect = SqliteStore._connect
    opened: list[Any] = []

    async def slow(path: str, busy_timeout: float) -> Any:
        await store.close()  # the bot shuts down meanwhile
        db = await connect(path, busy_timeout)
        opened.append(db)
        return db

    monkeypatch.setattr(SqliteStore, "_connect", staticmethod(slow))
    store._leftover = True
    with pytest.raises(ValueError, match="Connection closed"):
        await store._rows("SELECT 1")
    assert len(opened) == 1
    opened[0]._thread.join(5)  # (aiosqlite's worker thread, private: the version is pinned)
    assert not opened[0]._thread.is_alive()
    with pytest.raises(ValueError, match="Connection closed"):
        await store._rows("SELECT 1")  # closed: never opened again
    assert len(opened) == 1


async def test_a_file_gone_is_never_replaced_by_an_empty_one(tmp_path: Path) -> None:
    """The file is gone when the connection is to be replaced: SQLite would create a new,
    empty one there; the store says it cannot open it (a storage fault) until it is back."""
    path = tmp_path / "db.sqlite"
    store = await SqliteStore.open(path)
    try:
        await store._change("CREATE TABLE notes (x INTEGER)")
        await store._change("INSERT INTO notes VALUES (1)")
        path.rename(tmp_path / "away.sqlite")
        store._leftover = True
        with pytest.raises(sqlite3.OperationalError) as err:
            await store._rows("SELECT x FROM notes")
        assert storage_fault(err.value) and not path.exists()
        (tmp_path / "away.sqlite").rename(path)
        assert [tuple(r) for r in await store._rows("SELECT x FROM notes")] == [(1,)]
    finally:
        await store.close()
