"""Database faults told apart from bugs (host/dbfaults.py), and their setting; SQLite's
connection never left inside a failed transaction (host/storage.py)."""

from __future__ import annotations

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
