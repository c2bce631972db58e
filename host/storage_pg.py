"""The PostgreSQL store: the same interface and semantics as the SQLite one (host/storage.py),
and the same queries (host/store_sql.py's, their ``?`` numbered ``$1``, ``$2``, … here).

An asyncpg pool; the numbered migrations (SQLite's, in PostgreSQL's words: see
:func:`host.migrate.pg_migration`), applied at start under an advisory lock so that several
processes starting together apply each once. Every accepted choice is one transaction with
the optimistic version check (``UPDATE ... WHERE version = $n``: under READ COMMITTED a
second writer waits for the row and then finds the version moved on).

Several processes may share one database: :meth:`PgStore.lock_game` is a session advisory
lock on the game's id, held on one pooled connection for the whole critical section. The
host's queries inside it run on that same connection (bound to the task), so a lock never
waits for a free connection of its own pool. A process that dies drops its connections,
and PostgreSQL releases their locks and rolls back their open transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg
from asyncpg import Connection as Conn

from host.migrate import migrations, pg_migration
from host.rows import Waits
from host.store_sql import SqlStore, Tx, load_sql

log = logging.getLogger(__name__)

#: The advisory lock key that serialises migrations (game locks use the game's id, > 0).
MIGRATION_LOCK = -0x636F736D6F  # "cosmo"
#: The first half of the two-key advisory locks on publishing a game's table ("pu").
PUBLISH_LOCK = 0x7075
#: The two-key advisory lock, held to the transaction's end, on updating ratings ("ra").
RATINGS_LOCK = 0x7261
#: How long (seconds) the migrations at start may take: not a click's database call.
MIGRATION_TIMEOUT = 3600.0
#: How long (seconds) a publish may wait for its lock's connection and for the lock itself
#: (another publish of the same game may hold it across slow Discord calls): after the
#: click was answered, so longer than a click's waits.
PUBLISH_WAIT = 30.0


async def _unlock(con: Conn, sql: str, *key: int) -> None:
    """Let go of an advisory lock at the end of its critical section, which may have
    committed a move: this never raises an error over it. On a connection that died (the
    server restarted, the backend was killed) PostgreSQL has freed the lock already. Any
    other failure leaves the lock in doubt: the connection is closed at once (PostgreSQL
    then frees every lock it held), never handed back to the pool holding it."""
    try:
        await con.execute(sql, *key)
    except BaseException as err:
        _close(con)
        if not isinstance(err, Exception):
            raise  # cancelled: the connection is closed, so the lock is gone
        log.warning("advisory lock %s not released (%r): its connection is closed", key, err)


def _in_transaction(con: Conn) -> bool:
    """Whether ``con`` is alive and still inside a transaction (a connection closed under
    it is detached from its pool proxy, whose attributes then raise: not alive)."""
    try:
        return not con.is_closed() and con.is_in_transaction()
    except Exception:
        return False


@asynccontextmanager
async def _transaction(con: Conn, **options: Any) -> AsyncIterator[None]:
    """``con.transaction(**options)``, and when it fails with the connection still inside
    it (a COMMIT, or asyncpg's own ROLLBACK, that failed on a live connection) an explicit
    ROLLBACK, so that the connection goes back to its pool clean rather than left to the
    pool's reset (which rolls back too, but logs "Resetting connection with an active
    transaction"). A ROLLBACK that fails, or a task cancelled meanwhile, leaves the
    connection in doubt: it is closed at once, as asyncpg closes one whose reset fails
    (PostgreSQL rolls its transaction back), never pooled. Only on failure: a transaction
    that commits costs no statement more."""
    try:
        async with con.transaction(**options):
            yield
    except BaseException as err:
        if _in_transaction(con):
            await _roll_back(con, cancelled=not isinstance(err, Exception))
        raise


async def _roll_back(con: Conn, *, cancelled: bool) -> None:
    """End the transaction a failure left open on ``con`` (see :func:`_transaction`)."""
    if not cancelled:  # (no wait on the database for a task being cancelled)
        try:
            await con.execute("ROLLBACK")
            return
        except Exception as err:
            log.warning("a failed transaction not rolled back (%r): its connection is closed", err)
        except BaseException:
            _close(con)
            raise  # cancelled during the ROLLBACK
    _close(con)


def _close(con: Conn) -> None:
    """Close ``con`` at once, if it is not closed already (a connection closed under it is
    detached from its pool proxy, whose attributes then raise: closed already)."""
    with contextlib.suppress(Exception):
        if not con.is_closed():
            con.terminate()


#: What a connection's hand-back to its pool may meet when the database is away.
_RELEASE_FAULTS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


async def _hand_back(acquired: Any, con: Conn) -> None:
    """Hand ``con`` back to its pool (``acquired``: the pool's acquire context it came
    from). What was done on it stands, whatever the hand-back meets: a reset that fails
    with the database away (asyncpg then closes the connection rather than pool it) is
    logged, never raised over the work done (e.g. a move committed, then the reset of its
    game lock's connection lost: the move is made, and said so)."""
    try:
        await acquired.__aexit__(None, None, None)
    except _RELEASE_FAULTS as err:
        log.warning("a connection not handed back to its pool (%r): closed", err)
        _close(con)


def _count(status: str) -> int:
    """Rows touched, from asyncpg's status line ("UPDATE 1", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$1``, ``$2``, … (the
    SQL body writes no ``?`` but placeholders, not even in a string literal)."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))


class _Pg:
    """An asyncpg connection as a :class:`host.store_sql.Tx`."""

    def __init__(self, con: Conn) -> None:
        self.con = con

    async def run(self, sql: str, *args: Any) -> int:
        return _count(await self.con.execute(numbered(sql), *args))

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.con.executemany(numbered(sql), rows)

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        return list(await self.con.fetch(numbered(sql), *args))

    async def row(self, sql: str, *args: Any) -> Any:
        return await self.con.fetchrow(numbered(sql), *args)


class PgStore(SqlStore):
    dialect = "postgresql"

    _LOAD = load_sql("json_agg", "json_build_array", lambda col: col, "::text")
    _FOR_UPDATE = " FOR UPDATE"
    _UNIQUE = (asyncpg.UniqueViolationError,)
    _LOCK_RATINGS = f"SELECT pg_advisory_xact_lock({RATINGS_LOCK}, 0)"

    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        timeout: float | None = None,
        lock_pool: asyncpg.Pool | None = None,
    ) -> None:
        self.pool = pool
        #: How long to wait for a pooled connection (None: as long as it takes).
        self.timeout = timeout
        #: The connections that hold publish locks (see :meth:`lock_publish`).
        self.lock_pool = lock_pool or pool
        #: The pool (and how long to wait on it) this task's next connection comes from.
        self._via: ContextVar[tuple[asyncpg.Pool, float | None] | None] = ContextVar(
            f"cosmodrome-pg-via-{id(self)}", default=None
        )
        #: The connection the current task holds (in a lock, a transaction or a read).
        self._bound: ContextVar[tuple[asyncio.Task[Any] | None, Conn] | None] = ContextVar(
            f"cosmodrome-pg-{id(self)}", default=None
        )

    # -- life cycle ---------------------------------------------------------------------

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 2, max_size: int = 10, timeout: float = 1.0
    ) -> PgStore:
        """Pools of at most ``max_size`` connections in all. ``timeout`` (COSMODROME_DB_TIMEOUT)
        bounds every wait of a click on the database: connecting, a pooled connection, each
        statement (then asyncpg cancels it); past it, the call fails as a storage fault
        (host/dbfaults.py) and the player is told the storage is not answering. A
        connection that timed out is closed, and the pool connects anew when asked."""
        # A third of the connections (at least one) hold the publish locks, the rest serve
        # the clicks: at most ``max_size`` in all (a pool of one: a single pool).
        max_size = max(1, max_size)
        locks = max(1, max_size // 3) if max_size >= 2 else 0
        pool = await asyncpg.create_pool(
            url,
            min_size=min(min_size, max_size - locks),
            max_size=max_size - locks,
            timeout=timeout,
            command_timeout=timeout,
        )
        lock_pool = pool
        try:
            if locks:
                lock_pool = await asyncpg.create_pool(
                    url, min_size=0, max_size=locks, timeout=timeout, command_timeout=timeout
                )
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, timeout=timeout, lock_pool=lock_pool)
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        await self.pool.close()
        if self.lock_pool is not self.pool:
            await self.lock_pool.close()

    async def migrate(self) -> int:
        """Apply the numbered migrations (in PostgreSQL's words: :func:`pg_migration`) newer
        than the version recorded in ``schema_version``, all in one transaction, one process
        at a time."""
        wait = MIGRATION_TIMEOUT
        async with self.pool.acquire() as con, _transaction(con):
            await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=wait)
            await con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            current = await con.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            for number, name, script in migrations(current):
                log.info("applying migration %s", name)
                await con.execute(pg_migration(script), timeout=wait)
                await con.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                current = number
        return int(current)

    def _current(self) -> Conn | None:
        bound = self._bound.get()
        if bound is not None and bound[0] is asyncio.current_task():
            return bound[1]
        return None

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[Conn]:
        """The task's bound connection, else one from the pool, bound while in use."""
        con = self._current()
        if con is not None:
            yield con
            return
        pool, timeout = self._via.get() or (self.pool, self.timeout)
        acquired = pool.acquire(timeout=timeout)
        con = await acquired.__aenter__()
        token = self._bound.set((asyncio.current_task(), con))
        try:
            yield con
        finally:
            self._bound.reset(token)
            await _hand_back(acquired, con)

    @asynccontextmanager
    async def bound(self, con: Conn) -> AsyncIterator[None]:
        """Run this task's queries on ``con`` (e.g. inside a transaction of the caller's)."""
        token = self._bound.set((asyncio.current_task(), con))
        try:
            yield
        finally:
            self._bound.reset(token)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Conn]:
        """Reads that agree: one snapshot (REPEATABLE READ, read only), unless the task
        already holds a connection (in a game's lock, where nobody else writes the game)."""
        con = self._current()
        if con is not None:
            yield con
            return
        async with (
            self._conn() as con,
            _transaction(con, isolation="repeatable_read", readonly=True),
        ):
            yield con

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._conn() as con, _transaction(con):
            yield con

    @asynccontextmanager
    async def lock_game(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's advisory lock (across every process on this database)."""
        async with self._conn() as con:
            await con.execute("SELECT pg_advisory_lock($1)", game_id)
            try:
                yield
            finally:
                await _unlock(con, "SELECT pg_advisory_unlock($1)", game_id)

    @asynccontextmanager
    async def lock_publish(self, game_id: int) -> AsyncIterator[None]:
        """Hold the lock on showing the game's table: an advisory lock on the key pair
        (PUBLISH_LOCK, game id), a key space apart from the game locks' single keys, so a
        move can commit while its table is shown. The cog holds it around one publish, the
        Discord calls included (it decides from the table it finds recorded whether to edit
        or post): one connection per table being shown, bound to the task (the publish's
        queries run on it), from a pool of its own (:attr:`lock_pool`), so that slow Discord
        answers hold those connections and never the ones clicks need."""
        async with contextlib.AsyncExitStack() as stack:
            via = self._via.set((self.lock_pool, PUBLISH_WAIT))
            try:
                con = await stack.enter_async_context(self._conn())
            finally:
                self._via.reset(via)
            await con.execute(
                "SELECT pg_advisory_lock($1, $2)", PUBLISH_LOCK, game_id, timeout=PUBLISH_WAIT
            )
            try:
                yield
            finally:
                await _unlock(con, "SELECT pg_advisory_unlock($1, $2)", PUBLISH_LOCK, game_id)

    # -- what the SQL body asks of a driver ---------------------------------------------

    def _tx(self, con: Conn) -> Tx:
        return _Pg(con)

    @asynccontextmanager
    async def _reader(self) -> AsyncIterator[Tx]:
        async with self._conn() as con:
            yield _Pg(con)

    async def _change_waits(self, tx: Tx, game_id: int, was: Waits, keep: Waits) -> None:
        """One statement: the waits that end, and those that start (disjoint seats)."""
        started = [(k, r) for k, r in sorted(keep.items()) if was.get(k) != r]
        await tx.run(
            "WITH ended AS (DELETE FROM waits WHERE game_id = ? "
            "AND seat <> ALL(?::int[])) "
            "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
            "SELECT ?, * FROM unnest(?::int[], ?::float8[], ?::int[], ?::int[]) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET since = excluded.since, "
            "nudges = excluded.nudges, deadline = excluded.deadline",
            game_id,
            sorted(keep),
            game_id,
            [seat for seat, _ in started],
            [row[0] for _, row in started],
            [row[1] for _, row in started],
            [row[2] for _, row in started],
        )
