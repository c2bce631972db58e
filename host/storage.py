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

    def __init__(
        self, db: aiosqlite.Connection, *, path: str | Path, busy_timeout: float = 5.0
    ) -> None:
        self.db = db
        self._tx_lock = asyncio.Lock()
        #: Where :meth:`_reconnect` opens the connection again, and how.
        self._path = str(path)
        self._busy_timeout = busy_timeout
        #: A ROLLBACK failed: the connection is still inside a failed transaction.
        self._leftover = False
        #: The connection was closed and could not be opened again yet.
        self._lost = False
        #: :meth:`close` was called: no connection is opened again.
        self._closed = False

    # -- life cycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout: float = 5.0) -> SqliteStore:
        db = await cls._connect(str(path), busy_timeout)
        try:
            store = cls(db, path=path, busy_timeout=busy_timeout)
            await store.migrate()
        except BaseException:
            await db.close()  # an unusable file: no connection thread left behind
            raise
        return store

    @staticmethod
    async def _connect(path: str, busy_timeout: float) -> aiosqlite.Connection:
        """A connection to ``path``, set up as every connection of the store is."""
        # A file SQLite cannot open fails here, in this thread: when aiosqlite's own connect
        # fails, its worker thread outlives the call (and complains once the loop is gone).
        sqlite3.connect(path).close()
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the move is announced, so it survives a power
            # cut too (NORMAL in WAL mode only survives a crash of the process).
            await db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            await db.execute("PRAGMA foreign_keys=ON")
            # How long a write waits for a file another program holds locked (then "database
            # is locked": a storage fault, see host/dbfaults.py).
            await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        self._closed = True  # a reconnect under way closes what it opens (see _reconnect)
        await self.db.close()

    async def _settle(self) -> None:
        """Under the transactions' lock: make sure the connection is outside any
        transaction. One left open (its ROLLBACK failed after a failed statement or
        COMMIT) must not stay: a read on it would see the uncommitted writes, e.g. a move
        whose COMMIT failed, as if stored, and the next write would commit them or roll them
        back unasked. So the connection is closed (SQLite drops what was not committed) and
        a new one opened. If that fails (the file cannot be opened now), the error reaches
        the caller and the next use tries again. (A transaction found open with no failed
        ROLLBACK known, e.g. one a cancelled caller left behind, is ended the same way.)"""
        if self._lost or self._leftover or self.db.in_transaction:
            await self._reconnect()

    def _left_open(self) -> None:
        """A ROLLBACK failed (in whichever thread): :meth:`_settle` replaces the connection."""
        log.warning("a ROLLBACK failed: the SQLite connection will be replaced", exc_info=True)
        self._leftover = True

    async def _reconnect(self) -> None:
        log.warning("replacing the SQLite connection (left inside a transaction, or lost)")
        self._lost, self._leftover = True, False
        try:
            await self.db.close()  # what was not committed is dropped
        except Exception:
            log.warning("the SQLite connection did not close cleanly", exc_info=True)
        if self._closed:  # as any use of a closed store fails (aiosqlite's own error)
            raise ValueError("Connection closed")
        if not Path(self._path).is_file():  # gone (or in memory): never a new, empty one
            raise sqlite3.OperationalError("unable to open database file")
        db = await self._connect(self._path, self._busy_timeout)
        if self._closed:  # the store was closed meanwhile: no connection thread left behind
            await db.close()
            raise ValueError("Connection closed")
        self.db = db
        self._lost = False

    async def _settle_after_failure(self) -> None:
        """:meth:`_settle`, after a transaction failed: the transaction's own error is
        the one the caller gets, so failing to open the connection again is only logged
        (the next use tries again)."""
        try:
            await self._settle()
        except Exception:
            log.warning("could not open the SQLite connection again", exc_info=True)

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

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[None]:
        """Hold while several reads must agree: every task shares one connection, so a
        read taken while another task's transaction is open would see its uncommitted
        half. Waiting for the write lock keeps reads whole. Under it, the connection is
        settled first (:meth:`_settle`), so that :meth:`_reader`, which takes the lock to
        do so itself, never has to inside it (the lock is not re-entrant)."""
        async with self._tx_lock:
            await self._settle()
            yield

    @asynccontextmanager
    async def transaction(self):  # type: ignore[no-untyped-def]
        """One write transaction. A statement or the COMMIT that fails (a full disk, a file
        another program holds locked: storage faults, see host/dbfaults.py) rolls it back,
        unless SQLite did already; if that ROLLBACK fails too, the connection is replaced
        (:meth:`_settle`): it is never left inside the failed transaction, and the caller
        gets the transaction's own error."""
        async with self._tx_lock:
            await self._settle()
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    try:
                        await self.db.execute("ROLLBACK")
                    except Exception:
                        self._left_open()
                await self._settle_after_failure()
                raise

    async def in_one_hop(self, body: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """Run the transaction ``body(db)`` — written over a :class:`host.store_sql.Tx`, but
        awaiting nothing but ``db``'s calls — in aiosqlite's thread in one trip (BEGIN to
        COMMIT, or ROLLBACK on any error, which reaches the caller; a ROLLBACK that fails
        too leaves the connection to be replaced, see :meth:`_one_trip`). For the hot path:
        an accepted move. (``aiosqlite.Connection._conn`` is private; the version is pinned
        in constraints.txt.)"""

        def run() -> T:
            db = _Direct(self.db._conn)
            db.sql("BEGIN IMMEDIATE")
            try:
                out = _run_now(body(db))
                db.sql("COMMIT")
            except BaseException:
                if db.conn.in_transaction:
                    try:
                        db.sql("ROLLBACK")
                    except Exception:
                        self._left_open()
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
        and back (``aiosqlite.Connection._execute`` is private; the version is pinned).
        Before and after a failure, the connection is settled (:meth:`_settle`): the lock
        is never released with a transaction left open on it."""
        async with self._tx_lock:
            await self._settle()
            try:
                return await self.db._execute(run)  # type: ignore[no-any-return]
            except BaseException:
                await self._settle_after_failure()
                raise

    # -- what the SQL body asks of a driver ---------------------------------------------

    def _tx(self, con: Any) -> Tx:
        return _Aio(con)

    @asynccontextmanager
    async def _reader(self) -> AsyncIterator[Tx]:
        """Reads on the one connection, outside the lock (each statement sees what is
        committed; see :meth:`reading`). A connection left inside a failed transaction, or
        that could not be opened again after one, is replaced first (under the lock)."""
        if self._lost or self._leftover:  # never so inside :meth:`reading` (it settles)
            async with self._tx_lock:
                await self._settle()
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
