"""The PostgreSQL store: the same interface and semantics as the SQLite one (host/storage.py).

An asyncpg pool; numbered migrations from ``migrations/pg/`` (the same numbers as SQLite's),
applied at start under an advisory lock so that several processes starting together apply
each once. Every accepted choice is one transaction with the optimistic version check
(``UPDATE ... WHERE version = $n``: under READ COMMITTED a second writer waits for the row
and then finds the version moved on).

Several processes may share one database: :meth:`PgStore.lock_game` is a session advisory
lock on the game's id, held on one pooled connection for the whole critical section. The
host's queries inside it run on that same connection (bound to the task), so a lock never
waits for a free connection of its own pool. A process that dies drops its connections,
and PostgreSQL releases their locks and rolls back their open transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg
from asyncpg import Connection as Conn

from host import pacing
from host.storage import MIGRATIONS as SQLITE_MIGRATIONS
from host.storage import (
    ActionRow,
    ChannelBusy,
    GameRow,
    Loaded,
    SeatRow,
    SqliteStore,
    Storage,
    TimerRow,
    VersionConflict,
    _game,
    _loaded,
    dumps,
)

log = logging.getLogger(__name__)

MIGRATIONS = SQLITE_MIGRATIONS / "pg"
#: The advisory lock key that serialises migrations (game locks use the game's id, > 0).
MIGRATION_LOCK = -0x636F736D6F  # "cosmo"
#: The first half of the two-key advisory locks on publishing a game's table ("pu").
PUBLISH_LOCK = 0x7075
#: How long (seconds) the migrations at start may take: not a click's database call.
MIGRATION_TIMEOUT = 3600.0
#: How long (seconds) a publish may wait for its lock's connection and for the lock itself
#: (another publish of the same game may hold it across slow Discord calls): after the
#: click was answered, so longer than a click's waits.
PUBLISH_WAIT = 30.0

_GAME_COLS = (
    "id, guild_id, channel_id, game, status, options, seed, version, state, lang, owner_id, "
    "lobby_message_id, table_message_id, table_to_move, created_at, updated_at, finished_at, "
    "table_hash, host_options, published_version, trail_message_id, trail_seq, trail_key, "
    "nudge_messages, wake_at, paused, paused_at, publish_fails, retry_at"
)


async def _unlock(con: Conn, sql: str, *key: int) -> None:
    """Let go of an advisory lock at the end of its critical section, which may have
    committed a move: this never raises an error over it. On a connection that died (the
    server restarted, the backend was killed) PostgreSQL has freed the lock already. Any
    other failure leaves the lock in doubt: the connection is closed at once (PostgreSQL
    then frees every lock it held), never handed back to the pool holding it."""
    try:
        await con.execute(sql, *key)
    except BaseException as err:
        # (a connection closed under it is detached from its pool proxy: that raises too)
        with contextlib.suppress(Exception):
            if not con.is_closed():
                con.terminate()
        if not isinstance(err, Exception):
            raise  # cancelled: the connection is closed, so the lock is gone
        log.warning("advisory lock %s not released (%r): its connection is closed", key, err)


def _count(status: str) -> int:
    """Rows touched, from asyncpg's status line ("UPDATE 1", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


class PgStore(Storage):
    dialect = "postgresql"

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
        """Apply the numbered ``migrations/pg/NNNN_*.sql`` files newer than the recorded
        version, all in one transaction, one process at a time."""
        wait = MIGRATION_TIMEOUT
        async with self.pool.acquire() as con, con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=wait)
            await con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            current = await con.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            for path in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
                number = int(re.match(r"(\d+)", path.name).group(1))  # type: ignore[union-attr]
                if number <= current:
                    continue
                log.info("applying migration pg/%s", path.name)
                await con.execute(path.read_text(encoding="utf-8"), timeout=wait)
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
        async with pool.acquire(timeout=timeout) as con:
            token = self._bound.set((asyncio.current_task(), con))
            try:
                yield con
            finally:
                self._bound.reset(token)

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
            con.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield con

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._conn() as con, con.transaction():
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

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._conn() as con:
            return list(await con.fetch(sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with self._conn() as con:
            return await con.fetchrow(sql, *args)

    # -- games --------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: dict[str, str],
        seed: int,
        lang: str,
        owner_id: int,
        now: float,
    ) -> int:
        try:
            async with self.transaction() as con:
                gid = await con.fetchval(
                    "INSERT INTO games (guild_id, channel_id, game, status, options, seed, "
                    "lang, owner_id, created_at, updated_at) "
                    "VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9) RETURNING id",
                    guild_id,
                    channel_id,
                    game,
                    dumps(options),
                    seed,
                    lang,
                    owner_id,
                    now,
                    now,
                )
                return int(gid)
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy(channel_id) from exc

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._fetchrow(f"SELECT {_GAME_COLS} FROM games WHERE id = $1", game_id)
        return _game(row) if row else None

    _LOAD = (
        f"SELECT {_GAME_COLS}, "
        "(SELECT json_agg(json_build_array(seat, user_id, is_bot, name, locale, dm_open, "
        "autopilot, missed, level)) FROM seats WHERE game_id = g.id)::text, "
        "(SELECT json_agg(json_build_array(seat, n)) FROM "
        "(SELECT seat, COUNT(*) AS n FROM actions WHERE game_id = g.id GROUP BY seat) m)::text, "
        "(SELECT json_agg(json_build_array(seat, since, nudges, deadline)) "
        "FROM waits WHERE game_id = g.id)::text, "
        "(SELECT json_agg(json_build_array(key, seat, started, seconds, open, fired_at, "
        "fired_seq)) FROM timers WHERE game_id = g.id)::text "
        "FROM games g WHERE "
    )

    async def load(
        self, game_id: int | None = None, *, channel: int | None = None
    ) -> Loaded | None:
        if game_id is not None:
            row = await self._fetchrow(self._LOAD + "g.id = $1", game_id)
        else:
            row = await self._fetchrow(
                self._LOAD + "g.channel_id = $1 AND g.status IN ('lobby', 'active')", channel
            )
        return _loaded(row, len(_GAME_COLS.split(","))) if row else None

    async def live_game(self, channel_id: int) -> GameRow | None:
        row = await self._fetchrow(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = $1 "
            "AND status IN ('lobby', 'active')",
            channel_id,
        )
        return _game(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        row = await self._fetchrow(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return _game(row) if row else None

    async def games_in_guild(self, guild_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND status IN ('lobby', 'active')" if live_only else ""
        rows = await self._fetch(
            f"SELECT {_GAME_COLS} FROM games WHERE guild_id = $1 {where} ORDER BY id", guild_id
        )
        return [_game(r) for r in rows]

    async def lagging_games(
        self, now: float | None = None, *, after: int = 0, limit: int | None = None
    ) -> list[int]:
        sql = (
            "SELECT id FROM games WHERE status IN ('active', 'over') "
            "AND published_version < version AND paused IS NULL AND id > $1"
        )
        args: list[Any] = [after]
        if now is not None:
            args.append(now)
            sql += f" AND (retry_at IS NULL OR retry_at <= ${len(args)})"
        sql += " ORDER BY id"
        if limit is not None:
            args.append(limit)
            sql += f" LIMIT ${len(args)}"
        return [int(r[0]) for r in await self._fetch(sql, *args)]

    async def due_games(self, now: float, *, after: int = 0, limit: int = 100) -> list[int]:
        rows = await self._fetch(
            "SELECT id FROM games WHERE status = 'active' AND wake_at <= $1 "
            "AND paused IS NULL AND id > $2 "
            "UNION SELECT g.id FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND t.started + t.seconds <= $1 "
            "AND g.status = 'active' AND g.paused IS NULL AND g.id > $2 "
            "ORDER BY 1 LIMIT $3",
            now,
            after,
            limit,
        )
        return [int(r[0]) for r in rows]

    async def set_wake(self, game_id: int, wake_at: float | None) -> None:
        async with self.transaction() as con:
            await con.execute("UPDATE games SET wake_at = $1 WHERE id = $2", wake_at, game_id)

    async def pause_game(self, game_id: int, reason: str, now: float) -> bool:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET paused = $1, paused_at = $2 WHERE id = $3 AND paused IS NULL",
                reason,
                now,
                game_id,
            )
            return _count(status) == 1

    async def resume_game(self, game_id: int) -> bool:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET paused = NULL, paused_at = NULL, publish_fails = 0, "
                "retry_at = NULL WHERE id = $1 AND paused IS NOT NULL",
                game_id,
            )
            return _count(status) == 1

    async def publish_failed(self, game_id: int, now: float) -> float:
        async with self.transaction() as con:
            fails = await con.fetchval(
                "SELECT publish_fails FROM games WHERE id = $1 FOR UPDATE", game_id
            )
            fails = int(fails or 0) + 1
            when = now + pacing.retry_after(fails)
            await con.execute(
                "UPDATE games SET publish_fails = $1, retry_at = $2 WHERE id = $3",
                fails,
                when,
                game_id,
            )
        return when

    async def publish_ok(self, game_id: int) -> None:
        async with self.transaction() as con:
            await con.execute(
                "UPDATE games SET publish_fails = 0, retry_at = NULL WHERE id = $1", game_id
            )

    async def active_games(self) -> list[GameRow]:
        rows = await self._fetch(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        bad = set(fields) - SqliteStore._UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {bad}")
        sets, values = [], []
        for key, value in fields.items():
            json_keys = ("options", "state", "table_to_move", "host_options", "nudge_messages")
            if key in json_keys and value is not None:
                value = dumps(value)
            values.append(value)
            sets.append(f"{key} = ${len(values)}")
        values.append(now)
        sets.append(f"updated_at = ${len(values)}")
        values.append(game_id)
        async with self.transaction() as con:
            sql = f"UPDATE games SET {', '.join(sets)} WHERE id = ${len(values)}"
            await con.execute(sql, *values)

    async def bump_lobby(self, game_id: int, version: int, now: float, **fields: Any) -> int:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET version = version + 1, updated_at = $1 "
                "WHERE id = $2 AND version = $3",
                now,
                game_id,
                version,
            )
            if _count(status) != 1:
                raise VersionConflict(game_id)
            for key, value in fields.items():
                if key not in ("options", "host_options"):
                    raise ValueError(key)
                await con.execute(
                    f"UPDATE games SET {key} = $1 WHERE id = $2", dumps(value), game_id
                )
        return version + 1

    async def start_game(
        self, game_id: int, version: int, seed: int, state: dict[str, Any], now: float
    ) -> int:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET status = 'active', seed = $1, state = $2, "
                "version = version + 1, updated_at = $3 "
                "WHERE id = $4 AND version = $5 AND status = 'lobby'",
                seed,
                dumps(state),
                now,
                game_id,
                version,
            )
            if _count(status) != 1:
                raise VersionConflict(game_id)
        return version + 1

    async def commit_action(
        self,
        game_id: int,
        version: int,
        *,
        seat: int,
        choice: str,
        by_user: int | None,
        by_bot: bool,
        events: list[dict[str, Any]],
        state: dict[str, Any],
        over: bool,
        now: float,
        think: float | None = None,
        timer: str | None = None,
        waits: dict[int, tuple[float, int, int]] | None = None,
        wake_at: float | None = 0.0,
        waits_was: dict[int, tuple[float, int, int]] | None = None,
        timers_opened: list[tuple[str, int, float]] | None = None,
        timers_closed: Iterable[str] = (),
    ) -> int:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET state = $1, version = version + 1, updated_at = $2, "
                "status = CASE WHEN $3 THEN 'over' ELSE status END, "
                "finished_at = CASE WHEN $3 THEN $2 ELSE finished_at END, "
                "wake_at = CASE WHEN $6 THEN $7 ELSE wake_at END "
                "WHERE id = $4 AND version = $5 AND status = 'active'",
                dumps(state),
                now,
                over,
                game_id,
                version,
                waits is not None,
                wake_at,
            )
            if _count(status) != 1:
                raise VersionConflict(game_id)
            seq = await con.fetchval(
                "INSERT INTO actions "
                "(game_id, seq, seat, choice, by_user, by_bot, events, at, think, timer) "
                "SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9 "
                "FROM actions WHERE game_id = $1 RETURNING seq",
                game_id,
                seat,
                choice,
                by_user,
                int(by_bot),
                dumps(events),
                now,
                think,
                timer,
            )
            if timer is not None:
                status = await con.execute(
                    "UPDATE timers SET fired_at = $1, fired_seq = $2 "
                    "WHERE game_id = $3 AND key = $4 AND fired_at IS NULL",
                    now,
                    seq,
                    game_id,
                    timer,
                )
                if _count(status) != 1:
                    raise VersionConflict(game_id)
            if waits is not None and waits_was is None:
                await self._write_waits(con, game_id, waits)
            elif waits is not None and waits_was is not None:
                # One statement: the waits that end, and those that start (disjoint seats).
                started = [(k, r) for k, r in sorted(waits.items()) if waits_was.get(k) != r]
                await con.execute(
                    "WITH ended AS (DELETE FROM waits WHERE game_id = $1 "
                    "AND seat <> ALL($2::int[])) "
                    "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
                    "SELECT $1, * FROM unnest($3::int[], $4::float8[], $5::int[], $6::int[]) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET since = excluded.since, "
                    "nudges = excluded.nudges, deadline = excluded.deadline",
                    game_id,
                    sorted(waits),
                    [seat for seat, _ in started],
                    [row[0] for _, row in started],
                    [row[1] for _, row in started],
                    [row[2] for _, row in started],
                )
            if timers_opened or timers_closed:
                await self._write_timers(con, game_id, timers_opened or [], timers_closed, now)
        return version + 1

    async def finish(self, game_id: int, status: str, now: float) -> bool:
        async with self.transaction() as con:
            done = await con.execute(
                "UPDATE games SET status = $1, finished_at = $2, updated_at = $2, "
                "version = version + 1 WHERE id = $3 AND status IN ('lobby', 'active')",
                status,
                now,
                game_id,
            )
            return _count(done) == 1

    # -- seats --------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            "SELECT game_id, seat, user_id, is_bot, name, locale, dm_open, autopilot, missed, "
            "level "
            "FROM seats WHERE game_id = $1 ORDER BY seat",
            game_id,
        )
        return [
            SeatRow(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9])
            for r in rows
        ]

    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        async with self.transaction() as con:
            await con.execute("DELETE FROM seats WHERE game_id = $1", game_id)
            await con.executemany(
                "INSERT INTO seats (game_id, seat, user_id, is_bot, name, locale, dm_open, "
                "autopilot, missed, level) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [
                    (
                        game_id,
                        i,
                        s.user_id,
                        int(s.is_bot),
                        s.name,
                        s.locale,
                        int(s.dm_open),
                        int(s.autopilot),
                        s.missed,
                        s.level,
                    )
                    for i, s in enumerate(seats)
                ],
            )

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        allowed = {
            "user_id",
            "is_bot",
            "name",
            "locale",
            "dm_open",
            "autopilot",
            "missed",
            "level",
        }
        if set(fields) - allowed:
            raise ValueError(fields)
        values = [int(v) if isinstance(v, bool) else v for v in fields.values()]
        sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(fields, 1))
        n = len(values)
        async with self.transaction() as con:
            await con.execute(
                f"UPDATE seats SET {sets} WHERE game_id = ${n + 1} AND seat = ${n + 2}",
                *values,
                game_id,
                seat,
            )

    async def reopen_dms(self, user_id: int) -> None:
        async with self.transaction() as con:
            await con.execute("UPDATE seats SET dm_open = 1 WHERE user_id = $1", user_id)

    async def games_of_user(self, user_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND g.status IN ('lobby', 'active')" if live_only else ""
        cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLS.split(","))
        rows = await self._fetch(
            f"SELECT DISTINCT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = $1 AND s.is_bot = 0 {where} ORDER BY g.id",
            user_id,
        )
        return [_game(r) for r in rows]

    # -- actions ------------------------------------------------------------------------

    async def actions(
        self, game_id: int, limit: int | None = None, *, live: bool = True
    ) -> list[ActionRow]:
        cols = "game_id, seq, seat, choice, by_user, by_bot, events, at, undone, think, timer"
        where = "game_id = $1" + (" AND undone IS NULL" if live else "")
        if limit is None:
            rows = await self._fetch(
                f"SELECT {cols} FROM actions WHERE {where} ORDER BY seq", game_id
            )
        else:
            rows = await self._fetch(
                f"SELECT * FROM (SELECT {cols} FROM actions WHERE {where} "
                "ORDER BY seq DESC LIMIT $2) AS recent ORDER BY seq",
                game_id,
                limit,
            )
        return [
            ActionRow(
                r[0], r[1], r[2], r[3], r[4], bool(r[5]), json.loads(r[6]), r[7], r[8], r[9], r[10]
            )
            for r in rows
        ]

    async def undo_actions(
        self,
        game_id: int,
        version: int,
        seqs: list[int],
        kind: str,
        state: dict[str, Any],
        now: float,
    ) -> int:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE games SET state = $1, version = version + 1, updated_at = $2 "
                "WHERE id = $3 AND version = $4 AND status = 'active'",
                dumps(state),
                now,
                game_id,
                version,
            )
            if _count(status) != 1:
                raise VersionConflict(game_id)
            await con.executemany(
                "UPDATE actions SET undone = $1 WHERE game_id = $2 AND seq = $3",
                [(kind, game_id, seq) for seq in seqs],
            )
            if kind == "rollback":
                await con.execute("DELETE FROM timers WHERE game_id = $1", game_id)
            else:
                await con.executemany(
                    "DELETE FROM timers WHERE game_id = $1 AND fired_seq = $2",
                    [(game_id, seq) for seq in seqs],
                )
        return version + 1

    async def moves_by_seat(self, game_id: int) -> dict[int, int]:
        rows = await self._fetch(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id = $1 GROUP BY seat", game_id
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def count_actions(self, game_id: int) -> int:
        async with self._conn() as con:
            n = await con.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id)
        return int(n)

    # -- votes --------------------------------------------------------------------------

    async def vote(self, game_id: int, kind: str, user_id: int, now: float) -> set[int]:
        async with self.transaction() as con:
            await con.execute(
                "INSERT INTO votes (game_id, kind, user_id, at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT DO NOTHING",
                game_id,
                kind,
                user_id,
                now,
            )
            rows = await con.fetch(
                "SELECT user_id FROM votes WHERE game_id = $1 AND kind = $2", game_id, kind
            )
        return {r[0] for r in rows}

    async def clear_votes(self, game_id: int, kind: str) -> None:
        async with self.transaction() as con:
            await con.execute(
                "DELETE FROM votes WHERE game_id = $1 AND kind LIKE $2", game_id, kind
            )

    # -- private panels -----------------------------------------------------------------

    async def dm_panel(self, game_id: int, seat: int) -> tuple[str, int | None, int | None] | None:
        row = await self._fetchrow(
            "SELECT token, channel_id, message_id FROM dm_panels WHERE game_id = $1 AND seat = $2",
            game_id,
            seat,
        )
        return (row[0], row[1], row[2]) if row else None

    async def set_dm_panel(
        self, game_id: int, seat: int, token: str, channel_id: int | None, message_id: int | None
    ) -> None:
        async with self.transaction() as con:
            await con.execute(
                "INSERT INTO dm_panels (game_id, seat, token, channel_id, message_id) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "token = excluded.token, channel_id = excluded.channel_id, "
                "message_id = excluded.message_id",
                game_id,
                seat,
                token,
                channel_id,
                message_id,
            )

    # -- waits (pacing) -----------------------------------------------------------------

    async def waits(self, game_id: int) -> dict[int, tuple[float, int, int]]:
        rows = await self._fetch(
            "SELECT seat, since, nudges, deadline FROM waits WHERE game_id = $1", game_id
        )
        return {int(r[0]): (float(r[1]), int(r[2]), int(r[3])) for r in rows}

    async def set_waits(
        self,
        game_id: int,
        keep: dict[int, tuple[float, int, int]],
        wake_at: float | None = 0.0,
    ) -> None:
        async with self.transaction() as con:
            await self._write_waits(con, game_id, keep)
            await con.execute("UPDATE games SET wake_at = $1 WHERE id = $2", wake_at, game_id)

    @staticmethod
    async def _write_waits(
        con: Conn, game_id: int, keep: dict[int, tuple[float, int, int]]
    ) -> None:
        await con.execute("DELETE FROM waits WHERE game_id = $1", game_id)
        await con.executemany(
            "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
            "VALUES ($1, $2, $3, $4, $5)",
            [(game_id, seat, *row) for seat, row in keep.items()],
        )

    async def mark_waits(
        self, game_id: int, marks: dict[int, dict[str, int]], wake_at: float | None = 0.0
    ) -> None:
        allowed = {"nudges", "deadline"}
        for fields in marks.values():
            if set(fields) - allowed:
                raise ValueError(fields)
        async with self.transaction() as con:
            for seat, fields in marks.items():
                if not fields:
                    continue
                sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(fields, 1))
                n = len(fields)
                await con.execute(
                    f"UPDATE waits SET {sets} WHERE game_id = ${n + 1} AND seat = ${n + 2}",
                    *fields.values(),
                    game_id,
                    seat,
                )
            await con.execute("UPDATE games SET wake_at = $1 WHERE id = $2", wake_at, game_id)

    # -- timers -------------------------------------------------------------------------

    async def timers(self, game_id: int) -> dict[str, TimerRow]:
        rows = await self._fetch(
            "SELECT game_id, key, seat, started, seconds, open, fired_at, fired_seq "
            "FROM timers WHERE game_id = $1",
            game_id,
        )
        return {r[1]: TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7]) for r in rows}

    async def open_timer_keys(self, game_id: int) -> set[str]:
        rows = await self._fetch("SELECT key FROM timers WHERE game_id = $1 AND open = 1", game_id)
        return {r[0] for r in rows}

    async def update_timers(
        self,
        game_id: int,
        opened: list[tuple[str, int, float]],
        closed: Iterable[str],
        now: float,
    ) -> None:
        async with self.transaction() as con:
            await self._write_timers(con, game_id, opened, closed, now)

    @staticmethod
    async def _write_timers(
        con: Conn,
        game_id: int,
        opened: list[tuple[str, int, float]],
        closed: Iterable[str],
        now: float,
    ) -> None:
        closed = list(closed)
        if opened:
            await con.executemany(
                "INSERT INTO timers (game_id, key, seat, started, seconds) "
                "VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (game_id, key) DO UPDATE SET open = 1",
                [(game_id, key, seat, now, seconds) for key, seat, seconds in opened],
            )
        if closed:
            await con.executemany(
                "UPDATE timers SET open = 0 WHERE game_id = $1 AND key = $2",
                [(game_id, key) for key in closed],
            )

    async def next_timer_due(self) -> float | None:
        row = await self._fetchrow(
            "SELECT MIN(t.started + t.seconds) FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND g.status = 'active'"
        )
        return float(row[0]) if row and row[0] is not None else None

    async def drop_timer(self, game_id: int, key: str, now: float) -> bool:
        async with self.transaction() as con:
            status = await con.execute(
                "UPDATE timers SET fired_at = $1 WHERE game_id = $2 AND key = $3 "
                "AND fired_at IS NULL",
                now,
                game_id,
                key,
            )
            return _count(status) == 1

    # -- results and stats --------------------------------------------------------------

    async def save_results(self, rows: list[tuple[Any, ...]]) -> None:
        async with self.transaction() as con:
            await con.executemany(
                "INSERT INTO results (game_id, seat, user_id, guild_id, game, score, rank, "
                "with_bots, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                "guild_id = excluded.guild_id, game = excluded.game, score = excluded.score, "
                "rank = excluded.rank, with_bots = excluded.with_bots, "
                "finished_at = excluded.finished_at",
                [tuple(int(v) if isinstance(v, bool) else v for v in row) for row in rows],
            )

    async def user_stats(self, user_id: int) -> list[tuple[Any, ...]]:
        rows = await self._fetch(
            "SELECT game, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), "
            "AVG(score)::float8, SUM(with_bots) FROM results "
            "WHERE user_id = $1 GROUP BY game ORDER BY game",
            user_id,
        )
        return [tuple(row) for row in rows]

    async def user_think(self, user_id: int) -> tuple[int, float | None]:
        row = await self._fetchrow(
            "SELECT COUNT(a.think), AVG(a.think) FROM actions a JOIN seats s "
            "ON s.game_id = a.game_id AND s.seat = a.seat "
            "WHERE s.user_id = $1 AND a.by_bot = 0 AND a.think IS NOT NULL",
            user_id,
        )
        return (int(row[0]), row[1]) if row else (0, None)

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[Any, ...]]:
        rows = await self._fetch(
            "SELECT user_id, SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END) AS wins, "
            "COUNT(*) AS games, AVG(score)::float8, SUM(with_bots) FROM results "
            "WHERE guild_id = $1 AND game = $2 AND user_id IS NOT NULL "
            "GROUP BY user_id ORDER BY wins DESC, games ASC, AVG(score) DESC LIMIT $3",
            guild_id,
            game,
            limit,
        )
        return [tuple(row) for row in rows]

    # -- preferences --------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> tuple[bool, str | None]:
        row = await self._fetchrow(
            "SELECT dm_turn, lang FROM user_settings WHERE user_id = $1", user_id
        )
        return (bool(row[0]), row[1]) if row else (False, None)

    async def set_user_settings(self, user_id: int, dm_turn: bool, lang: str | None) -> None:
        async with self.transaction() as con:
            await con.execute(
                "INSERT INTO user_settings (user_id, dm_turn, lang) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_turn = excluded.dm_turn, "
                "lang = excluded.lang",
                user_id,
                int(dm_turn),
                lang,
            )

    async def guild_settings(self, guild_id: int) -> tuple[str | None, str | None]:
        row = await self._fetchrow(
            "SELECT lang, reminders FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_guild_settings(
        self, guild_id: int, lang: str | None, reminders: str | None
    ) -> None:
        async with self.transaction() as con:
            await con.execute(
                "INSERT INTO guild_settings (guild_id, lang, reminders) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO UPDATE SET lang = excluded.lang, "
                "reminders = excluded.reminders",
                guild_id,
                lang,
                reminders,
            )
