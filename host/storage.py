"""The store's front door and its SQLite driver.

:func:`open_store` opens the database ``COSMODROME_DB`` names: SQLite here (one aiosqlite
connection, WAL mode, numbered migrations), PostgreSQL in host/storage_pg.py (imported only
when asked for). Both run the one SQL body of host/store_sql.py; the row types are in
host/rows.py and the interface in host/store_api.py, all re-exported here.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from host.migrate import MIGRATIONS as MIGRATIONS
from host.migrate import migrations

# What the host imports from here: the row types, the interface, the migrations' folder.
from host.rows import ActionRow as ActionRow
from host.rows import ChannelBusy as ChannelBusy
from host.rows import GameRow as GameRow
from host.rows import Loaded as Loaded
from host.rows import Move as Move
from host.rows import SeatRow as SeatRow
from host.rows import TimerRow as TimerRow
from host.rows import VersionConflict as VersionConflict
from host.rows import Waits
from host.store_api import Storage
from host.store_sql import SqlStore, Tx, load_sql

T = TypeVar("T")

log = logging.getLogger(__name__)

#: SQLite's ``synchronous`` level for every connection (bench/accept.py measures its cost).
SYNCHRONOUS = "FULL"


def is_postgres_url(target: str | Path) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL, False for a file path."""
    return str(target).startswith(("postgresql://", "postgres://"))


async def open_store(target: str | Path, *, pool: int = 10, timeout: float = 1.0) -> Storage:
    """Open the store ``COSMODROME_DB`` names: a ``postgresql://`` URL (PostgreSQL, at most
    ``pool`` connections) or a file path (SQLite). ``timeout``: how long one database call
    may wait (COSMODROME_DB_TIMEOUT) before it fails as a storage fault."""
    if is_postgres_url(target):
        from host.storage_pg import PgStore

        return await PgStore.open(str(target), max_size=pool, timeout=timeout)
    return await SqliteStore.open(target, busy_timeout=timeout)


class _Aio:
    """An :class:`aiosqlite.Connection` as a :class:`host.store_sql.Tx`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def run(self, sql: str, *args: Any) -> int:
        cur = await self.db.execute(sql, args)
        return cur.rowcount

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        return list(await self.db.execute_fetchall(sql, args))

    async def row(self, sql: str, *args: Any) -> Any:
        return next(iter(await self.rows(sql, *args)), None)


class _Direct:
    """A :class:`host.store_sql.Tx` done directly on the ``sqlite3`` connection, in
    aiosqlite's own thread: :meth:`SqliteStore.in_one_hop` runs a whole transaction there at
    once, instead of one trip to that thread per statement (~0.2 ms each)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def sql(self, sql: str, params: Any = (), many: bool = False) -> sqlite3.Cursor:
        """Every statement goes through here (the statement-count test wraps it)."""
        if many:
            return self.conn.executemany(sql, params)
        return self.conn.execute(sql, params)

    async def run(self, sql: str, *args: Any) -> int:
        return self.sql(sql, args).rowcount

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.sql(sql, rows, many=True)

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        return self.sql(sql, args).fetchall()

    async def row(self, sql: str, *args: Any) -> Any:
        return next(iter(await self.rows(sql, *args)), None)


def _run_now(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (a body over :class:`_Direct`) to its end."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a one-hop transaction body must not wait for anything")


class SqliteStore(SqlStore):
    dialect = "sqlite"

    #: Times in the JSON lists as exact text (JSON numbers would be rounded to 15 digits).
    _LOAD = load_sql("json_group_array", "json_array", lambda col: f"printf('%!.17g', {col})", "")
    _NOINDEX = "+"
    _UNIQUE = (sqlite3.IntegrityError,)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._tx_lock = asyncio.Lock()

    # -- life cycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout: float = 5.0) -> SqliteStore:
        # A file SQLite cannot open fails here, in this thread: when aiosqlite's own connect
        # fails, its worker thread outlives the call (and complains once the loop is gone).
        sqlite3.connect(str(path)).close()
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the move is announced, so it survives a power
            # cut too (NORMAL in WAL mode only survives a crash of the process).
            await db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            await db.execute("PRAGMA foreign_keys=ON")
            # How long a write waits for a file another program holds locked (then "database
            # is locked": a storage fault, see host/dbfaults.py).
            await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            store = cls(db)
            await store.migrate()
        except BaseException:
            await db.close()  # an unusable file: no connection thread left behind
            raise
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> int:
        """Apply the numbered migrations newer than ``user_version``, each in a transaction
        that also records its number there."""
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, name, script in migrations(current):
            log.info("applying migration %s", name)
            await self.db.executescript(
                f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            current = number
        return current

    def reading(self) -> asyncio.Lock:
        """Hold while several reads must agree: every task shares one connection, so a
        read taken while another task's transaction is open would see its uncommitted
        half. Waiting for the write lock keeps reads whole."""
        return self._tx_lock

    @asynccontextmanager
    async def transaction(self):  # type: ignore[no-untyped-def]
        """One write transaction. A statement or the COMMIT that fails (a full disk, a file
        another program holds locked: storage faults, see host/dbfaults.py) rolls it back,
        unless SQLite did already, so the connection is never left inside it."""
        async with self._tx_lock:
            if self.db.in_transaction:  # a ROLLBACK that failed before: end it now
                await self.db.execute("ROLLBACK")
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise

    async def in_one_hop(self, body: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """Run the transaction ``body(db)`` — written over a :class:`host.store_sql.Tx`, but
        awaiting nothing but ``db``'s calls — in aiosqlite's thread in one trip (BEGIN to
        COMMIT, or ROLLBACK on any error, which reaches the caller). For the hot path: an
        accepted move. (``aiosqlite.Connection._conn`` is private; the version is pinned in
        constraints.txt.)"""

        def run() -> T:
            db = _Direct(self.db._conn)
            if db.conn.in_transaction:  # as in :meth:`transaction`
                db.sql("ROLLBACK")
            db.sql("BEGIN IMMEDIATE")
            try:
                out = _run_now(body(db))
                db.sql("COMMIT")
            except BaseException:
                if db.conn.in_transaction:
                    db.sql("ROLLBACK")
                raise
            return out

        return await self._one_trip(run)

    async def _read_at_once(self, body: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """The reads ``body(db)`` makes (over a :class:`host.store_sql.Tx`, awaiting nothing
        but ``db``'s calls) in aiosqlite's thread in one trip, as :meth:`in_one_hop` runs a
        transaction; under :meth:`reading`'s lock, so that no other task's transaction is
        half seen."""

        return await self._one_trip(lambda: _run_now(body(_Direct(self.db._conn))))

    async def _one_trip(self, run: Callable[[], T]) -> T:
        """``run()`` in aiosqlite's thread, under the transactions' lock: one trip there
        and back (``aiosqlite.Connection._execute`` is private; the version is pinned)."""
        async with self._tx_lock:
            return await self.db._execute(run)  # type: ignore[no-any-return]

    # -- what the SQL body asks of a driver ---------------------------------------------

    def _tx(self, con: Any) -> Tx:
        return _Aio(con)

    @asynccontextmanager
    async def _reader(self) -> AsyncIterator[Tx]:
        yield _Aio(self.db)

    async def _atomic(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        return await self.in_one_hop(body)

    async def _change_waits(self, tx: Tx, game_id: int, was: Waits, keep: Waits) -> None:
        """A wait that ends becomes one that starts (the turn passing on: one statement),
        the others are deleted or written."""
        ended = [seat for seat in sorted(was) if seat not in keep]
        started = [(seat, row) for seat, row in sorted(keep.items()) if was.get(seat) != row]
        pairs = list(zip(ended, started, strict=False))
        if pairs:
            await tx.many(
                "UPDATE OR REPLACE waits SET seat = ?, since = ?, nudges = ?, deadline = ? "
                "WHERE game_id = ? AND seat = ?",
                [(seat, *row, game_id, old) for old, (seat, row) in pairs],
            )
        if len(ended) > len(pairs):
            marks = ", ".join("?" * len(keep))
            await tx.run(
                f"DELETE FROM waits WHERE game_id = ? AND seat NOT IN ({marks})",
                game_id,
                *sorted(keep),
            )
        if len(started) > len(pairs):
            await tx.many(
                "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "since = excluded.since, nudges = excluded.nudges, deadline = excluded.deadline",
                [(game_id, seat, *row) for seat, row in started[len(pairs) :]],
            )


#: The SQLite store's older name.
Store = SqliteStore
