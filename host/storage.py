"""The storage interface (:class:`Storage`) and the SQLite store: one aiosqlite
connection, WAL mode, numbered migrations. The PostgreSQL store is host/storage_pg.py.

Every accepted choice is one transaction (:meth:`Store.commit_action`): the action row, the
new state and the version bump land together or not at all, and only if the version is
still the one the caller read (optimistic check), so two racing writers cannot both win.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from host import pacing

T = TypeVar("T")

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: SQLite's ``synchronous`` level for every connection (bench/accept.py measures its cost).
SYNCHRONOUS = "FULL"


class VersionConflict(Exception):
    """The game moved on between read and write."""


class ChannelBusy(Exception):
    """A lobby or active game already lives in this channel."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    options: dict[str, str]
    seed: int
    version: int
    state: dict[str, Any] | None
    lang: str
    owner_id: int
    lobby_message_id: int | None
    table_message_id: int | None
    table_to_move: list[int]
    created_at: float
    updated_at: float
    finished_at: float | None
    table_hash: str | None = None
    host_options: dict[str, str] = field(default_factory=dict)
    published_version: int = 0
    #: The channel's trail of moves (migration 0006): the message being written, the last
    #: action before its first line, and the round it is for.
    trail_message_id: int | None = None
    trail_seq: int = 0
    trail_key: str = ""
    #: Reminders posted in the channel: (message id, seats it names), until answered.
    nudge_messages: list[list[Any]] = field(default_factory=list)
    #: When the pacing tick next has work for this game (migration 0007; None: none).
    wake_at: float | None = None
    #: Why the game is paused (its channel cannot be reached), and since when.
    paused: str | None = None
    paused_at: float | None = None
    #: Failures to publish in a row (not a lost channel), and when to try again.
    publish_fails: int = 0
    retry_at: float | None = None

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "active")


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    is_bot: bool
    name: str
    locale: str
    dm_open: bool
    autopilot: bool = False
    missed: int = 0
    #: A bot seat's level (migration 0008): easy / normal / hard; None: the default.
    level: str | None = None


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    choice: str
    by_user: int | None
    by_bot: bool
    events: list[dict[str, Any]]
    at: float
    undone: str | None = None
    think: float | None = None
    #: The key of the timer that made this move when it ran out (None: a player or bot).
    timer: str | None = None


@dataclass(frozen=True)
class TimerRow:
    """A decision's timer as the host runs it (see :class:`core.contract.Timer`)."""

    game_id: int
    key: str
    seat: int
    started: float
    seconds: float
    open: bool = True
    fired_at: float | None = None
    fired_seq: int | None = None

    @property
    def due(self) -> float:
        return self.started + self.seconds

    @property
    def running(self) -> bool:
        return self.fired_at is None


@dataclass(frozen=True)
class Loaded:
    """A game with everything a move needs (:meth:`Storage.load`), read in one statement."""

    row: GameRow
    seats: list[SeatRow]
    moves_by_seat: dict[int, int]
    waits: dict[int, tuple[float, int, int]]
    timers: dict[str, TimerRow]


def _loaded(r: Any, n: int) -> Loaded:
    """A :class:`Loaded` from a row of the game's ``n`` columns and four JSON lists: seats,
    move counts, waits and timers (times as JSON numbers or as exact text)."""
    row = _game(list(r)[:n])
    seats, moves, waits, timers = (json.loads(r[n + i] or "[]") for i in range(4))
    return Loaded(
        row=row,
        seats=sorted(
            (
                SeatRow(
                    row.id, s[0], s[1], bool(s[2]), s[3], s[4], bool(s[5]), bool(s[6]), s[7], s[8]
                )
                for s in seats
            ),
            key=lambda s: s.seat,
        ),
        moves_by_seat={int(m[0]): int(m[1]) for m in moves},
        waits={int(w[0]): (float(w[1]), int(w[2]), int(w[3])) for w in waits},
        timers={
            t[0]: TimerRow(
                row.id,
                t[0],
                int(t[1]),
                float(t[2]),
                float(t[3]),
                bool(t[4]),
                None if t[5] is None else float(t[5]),
                t[6],
            )
            for t in timers
        },
    )


_GAME_COLS = (
    "id, guild_id, channel_id, game, status, options, seed, version, state, lang, owner_id, "
    "lobby_message_id, table_message_id, table_to_move, created_at, updated_at, finished_at, "
    "table_hash, host_options, published_version, trail_message_id, trail_seq, trail_key, "
    "nudge_messages, wake_at, paused, paused_at, publish_fails, retry_at"
)
#: How many columns :data:`_GAME_COLS` reads (where :meth:`Storage.load`'s lists begin).
N_GAME_COLS = len(_GAME_COLS.split(","))


def _game(row: Iterable[Any]) -> GameRow:
    r = list(row)
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        game=r[3],
        status=r[4],
        options=json.loads(r[5]),
        seed=r[6],
        version=r[7],
        state=json.loads(r[8]) if r[8] is not None else None,
        lang=r[9],
        owner_id=r[10],
        lobby_message_id=r[11],
        table_message_id=r[12],
        table_to_move=json.loads(r[13]),
        created_at=r[14],
        updated_at=r[15],
        finished_at=r[16],
        table_hash=r[17],
        host_options=json.loads(r[18]) if r[18] else {},
        published_version=r[19],
        trail_message_id=r[20],
        trail_seq=r[21],
        trail_key=r[22],
        nudge_messages=json.loads(r[23]) if r[23] else [],
        wake_at=r[24],
        paused=r[25],
        paused_at=r[26],
        publish_fails=r[27] or 0,
        retry_at=r[28],
    )


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


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


class Storage(ABC):
    """What the host asks of its database, whichever it is (:class:`SqliteStore`, or
    :class:`host.storage_pg.PgStore`). Both keep the same semantics: every accepted choice
    is one transaction, guarded by the optimistic version check."""

    #: "sqlite" or "postgresql"
    dialect: str = ""

    @abstractmethod
    async def migrate(self) -> int:
        """Apply the migrations not applied yet; the schema's version after."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Any]:
        """Hold while several reads must agree with each other."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Any]:
        """One write transaction; what it yields is the backend's own connection."""

    def lock_game(self, game_id: int) -> AbstractAsyncContextManager[Any]:
        """A lock on one game that holds across processes on the same database. Taken by
        the host inside its in-process lock; a one-process backend needs none."""
        return contextlib.nullcontext()

    def lock_publish(self, game_id: int) -> AbstractAsyncContextManager[Any]:
        """A lock on showing one game's table in its channel, across processes (the game's
        lock is another: a move may commit while its table is being shown)."""
        return contextlib.nullcontext()

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
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
    ) -> int: ...

    @abstractmethod
    async def game(self, game_id: int) -> GameRow | None: ...

    @abstractmethod
    async def live_game(self, channel_id: int) -> GameRow | None: ...

    @abstractmethod
    async def load(
        self, game_id: int | None = None, *, channel: int | None = None
    ) -> Loaded | None:
        """The game (by id, or the live game of a channel) with its seats, moves per seat
        (undone ones too), waits and timers: one statement, so one consistent read."""

    @abstractmethod
    async def latest_game(self, channel_id: int) -> GameRow | None: ...

    @abstractmethod
    async def games_in_guild(self, guild_id: int, live_only: bool = True) -> list[GameRow]: ...

    @abstractmethod
    async def lagging_games(
        self, now: float | None = None, *, after: int = 0, limit: int | None = None
    ) -> list[int]:
        """Games whose table does not show their stored version yet, by id (those after
        ``after``, at most ``limit``). Paused games are left out, and with ``now`` so are
        games whose next try after a failure (``retry_at``) is still to come."""

    @abstractmethod
    async def active_games(self) -> list[GameRow]: ...

    @abstractmethod
    async def due_games(self, now: float, *, after: int = 0, limit: int = 100) -> list[int]:
        """Active games, not paused, that the pacing tick must look at by ``now``: their
        ``wake_at`` has come or one of their running timers has run out. By id, those
        after ``after``, at most ``limit`` (the tick asks batch by batch)."""

    @abstractmethod
    async def set_wake(self, game_id: int, wake_at: float | None) -> None:
        """When the tick must next look at the game (None: not until it moves)."""

    @abstractmethod
    async def pause_game(self, game_id: int, reason: str, now: float) -> bool:
        """Pause a game whose channel cannot be reached; False if it was paused already."""

    @abstractmethod
    async def resume_game(self, game_id: int) -> bool:
        """Lift a pause (and forget failures to publish); False if it was not paused."""

    @abstractmethod
    async def publish_failed(self, game_id: int, now: float) -> float:
        """Count one more failure to publish the game's table; when to try again."""

    @abstractmethod
    async def publish_ok(self, game_id: int) -> None:
        """The table is published: forget earlier failures."""

    @abstractmethod
    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        """Set bookkeeping fields (not the state of a running game: see commit_action)."""

    @abstractmethod
    async def bump_lobby(self, game_id: int, version: int, now: float, **fields: Any) -> int:
        """Change lobby fields and bump the version, if still at ``version``."""

    @abstractmethod
    async def start_game(
        self, game_id: int, version: int, seed: int, state: dict[str, Any], now: float
    ) -> int: ...

    @abstractmethod
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
        """Append the action, store the state and bump the version: one transaction.

        ``waits`` (when the move changes whom the game waits for) replaces the game's waits
        in the same transaction; with ``waits_was`` (the waits as the caller read them,
        under the game's lock) only what changed is written, in as few statements as can be.
        ``timers_opened``/``timers_closed`` are :meth:`update_timers`'s, done with the move.
        ``wake_at`` (see :func:`host.pacing.wake_at`) is written with the waits; left out,
        the tick looks at the game at once and works it out.

        With ``timer`` (a running timer's key) the move is that timer's expiry, and the
        timer is marked fired in the same transaction: if it already fired, nothing is
        written (:class:`VersionConflict`)."""

    @abstractmethod
    async def finish(self, game_id: int, status: str, now: float) -> bool:
        """Mark a live game abandoned (or over); False if it was not live."""

    @abstractmethod
    async def seats(self, game_id: int) -> list[SeatRow]: ...

    @abstractmethod
    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None: ...

    @abstractmethod
    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None: ...

    @abstractmethod
    async def reopen_dms(self, user_id: int) -> None:
        """The user says DMs work again: try them in every game of theirs."""

    @abstractmethod
    async def games_of_user(self, user_id: int, live_only: bool = True) -> list[GameRow]: ...

    @abstractmethod
    async def actions(
        self, game_id: int, limit: int | None = None, *, live: bool = True
    ) -> list[ActionRow]:
        """The action log in order; ``live`` leaves out undone actions (what replay uses)."""

    @abstractmethod
    async def undo_actions(
        self,
        game_id: int,
        version: int,
        seqs: list[int],
        kind: str,
        state: dict[str, Any],
        now: float,
    ) -> int:
        """Mark ``seqs`` undone (kind "undo" or "rollback") and store the state they lead
        back to: one transaction, if the game is still at ``version``."""

    @abstractmethod
    async def moves_by_seat(self, game_id: int) -> dict[int, int]:
        # Undone actions count too: a button from before an undo stays dead.
        ...

    @abstractmethod
    async def count_actions(self, game_id: int) -> int: ...

    @abstractmethod
    async def vote(self, game_id: int, kind: str, user_id: int, now: float) -> set[int]: ...

    @abstractmethod
    async def dm_panel(
        self, game_id: int, seat: int
    ) -> tuple[str, int | None, int | None] | None: ...

    @abstractmethod
    async def set_dm_panel(
        self, game_id: int, seat: int, token: str, channel_id: int | None, message_id: int | None
    ) -> None: ...

    @abstractmethod
    async def clear_votes(self, game_id: int, kind: str) -> None: ...

    @abstractmethod
    async def waits(self, game_id: int) -> dict[int, tuple[float, int, int]]:
        """seat -> (since, nudges sent, deadline state)."""

    @abstractmethod
    async def set_waits(
        self,
        game_id: int,
        keep: dict[int, tuple[float, int, int]],
        wake_at: float | None = 0.0,
    ) -> None:
        """Replace the game's waits, and its ``wake_at`` in the same transaction (left
        out: 0, so that the next tick looks at the game and works it out)."""

    async def mark_wait(self, game_id: int, seat: int, **fields: int) -> None:
        await self.mark_waits(game_id, {seat: fields}, wake_at=0.0)

    @abstractmethod
    async def mark_waits(
        self, game_id: int, marks: dict[int, dict[str, int]], wake_at: float | None = 0.0
    ) -> None:
        """Record what was done about waits (seat -> nudges / deadline) and the game's next
        ``wake_at``, in one transaction."""

    @abstractmethod
    async def timers(self, game_id: int) -> dict[str, TimerRow]:
        """Every timer of the game seen so far, by key."""

    @abstractmethod
    async def open_timer_keys(self, game_id: int) -> set[str]: ...

    @abstractmethod
    async def update_timers(
        self,
        game_id: int,
        opened: list[tuple[str, int, float]],
        closed: Iterable[str],
        now: float,
    ) -> None:
        """Timers (key, seat, seconds) now open start counting if new; known keys keep
        their start (a key names one run of a timer) and are open again. Keys no longer
        open are marked so."""

    @abstractmethod
    async def next_timer_due(self) -> float | None:
        """When the soonest running timer of an active game runs out."""

    @abstractmethod
    async def drop_timer(self, game_id: int, key: str, now: float) -> bool:
        """Mark a running timer fired without a move (its option was no longer offered)."""

    @abstractmethod
    async def save_results(self, rows: list[tuple[Any, ...]]) -> None: ...

    @abstractmethod
    async def user_stats(self, user_id: int) -> list[tuple[Any, ...]]:
        """Per game kind: games, wins, average score, games with bots."""

    @abstractmethod
    async def user_think(self, user_id: int) -> tuple[int, float | None]: ...

    @abstractmethod
    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[Any, ...]]:
        """user, wins, games, average score, games with bots — best first."""

    @abstractmethod
    async def user_settings(self, user_id: int) -> tuple[bool, str | None]: ...

    @abstractmethod
    async def set_user_settings(self, user_id: int, dm_turn: bool, lang: str | None) -> None: ...

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> tuple[str | None, str | None]: ...

    @abstractmethod
    async def set_guild_settings(
        self, guild_id: int, lang: str | None, reminders: str | None
    ) -> None: ...


class _Direct:
    """What a transaction body uses of :class:`aiosqlite.Connection` (``execute``,
    ``executemany``, ``execute_fetchall``), done directly on the ``sqlite3`` connection, in
    aiosqlite's own thread: :meth:`SqliteStore.in_one_hop` runs a whole transaction there at
    once, instead of one trip to that thread per statement (~0.2 ms each)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def sql(self, sql: str, params: Any = (), many: bool = False) -> sqlite3.Cursor:
        """Every statement goes through here (the statement-count test wraps it)."""
        if many:
            return self.conn.executemany(sql, params)
        return self.conn.execute(sql, params)

    async def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.sql(sql, params)

    async def executemany(self, sql: str, params: Any) -> sqlite3.Cursor:
        return self.sql(sql, params, many=True)

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        return self.sql(sql, params).fetchall()


def _run_now(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (a body over :class:`_Direct`) to its end."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a one-hop transaction body must not wait for anything")


class SqliteStore(Storage):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._tx = asyncio.Lock()

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
        """Apply the numbered ``migrations/NNNN_*.sql`` files newer than ``user_version``."""
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        files = sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
        for path in files:
            number = int(re.match(r"(\d+)", path.name).group(1))  # type: ignore[union-attr]
            if number <= current:
                continue
            log.info("applying migration %s", path.name)
            script = path.read_text(encoding="utf-8")
            await self.db.executescript(
                f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            current = number
        return current

    def reading(self) -> asyncio.Lock:
        """Hold while several reads must agree: every task shares one connection, so a
        read taken while another task's transaction is open would see its uncommitted
        half. Waiting for the write lock keeps reads whole."""
        return self._tx

    @asynccontextmanager
    async def transaction(self):  # type: ignore[no-untyped-def]
        """One write transaction. A statement or the COMMIT that fails (a full disk, a file
        another program holds locked: storage faults, see host/dbfaults.py) rolls it back,
        unless SQLite did already, so the connection is never left inside it."""
        async with self._tx:
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
        """Run the transaction ``body(db)`` — written like one over :meth:`transaction`, but
        awaiting nothing but ``db``'s calls — in aiosqlite's thread in one trip (BEGIN to
        COMMIT, or ROLLBACK on any error, which reaches the caller). For the hot path: an
        accepted move. (``aiosqlite.Connection._execute`` and ``_conn`` are private; the
        version is pinned in constraints.txt.)"""

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

        async with self._tx:
            return await self.db._execute(run)  # type: ignore[no-any-return]

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
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, options, seed, "
                    "lang, owner_id, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, dumps(options), seed, lang, owner_id, now, now),
                )
                return int(cur.lastrowid or 0)
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy(channel_id) from exc

    async def game(self, game_id: int) -> GameRow | None:
        sql = f"SELECT {_GAME_COLS} FROM games WHERE id = ?"
        async with self.db.execute(sql, (game_id,)) as c:
            row = await c.fetchone()
        return _game(row) if row else None

    async def live_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? "
            "AND status IN ('lobby', 'active')",
            (channel_id,),
        ) as c:
            row = await c.fetchone()
        return _game(row) if row else None

    #: Storage.load's query: times in the JSON lists as exact text (JSON numbers would be
    #: rounded to 15 digits).
    _LOAD = (
        f"SELECT {_GAME_COLS}, "
        "(SELECT json_group_array(json_array(seat, user_id, is_bot, name, locale, dm_open, "
        "autopilot, missed, level)) FROM seats WHERE game_id = g.id), "
        "(SELECT json_group_array(json_array(seat, n)) FROM "
        "(SELECT seat, COUNT(*) AS n FROM actions WHERE game_id = g.id GROUP BY seat)), "
        "(SELECT json_group_array(json_array(seat, printf('%!.17g', since), nudges, deadline)) "
        "FROM waits WHERE game_id = g.id), "
        "(SELECT json_group_array(json_array(key, seat, printf('%!.17g', started), "
        "printf('%!.17g', seconds), open, "
        "CASE WHEN fired_at IS NULL THEN NULL ELSE printf('%!.17g', fired_at) END, fired_seq)) "
        "FROM timers WHERE game_id = g.id) "
        "FROM games g WHERE "
    )

    async def load(
        self, game_id: int | None = None, *, channel: int | None = None
    ) -> Loaded | None:
        arg: int | None = game_id
        sql = self._LOAD + "g.id = ?"
        if game_id is None:
            sql = self._LOAD + "g.channel_id = ? AND g.status IN ('lobby', 'active')"
            arg = channel
        rows = await self.db.execute_fetchall(sql, (arg,))
        return _loaded(next(iter(rows)), N_GAME_COLS) if rows else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ) as c:
            row = await c.fetchone()
        return _game(row) if row else None

    async def games_in_guild(self, guild_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND status IN ('lobby', 'active')" if live_only else ""
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE guild_id = ? {where} ORDER BY id",
            (guild_id,),
        ) as c:
            rows = await c.fetchall()
        return [_game(r) for r in rows]

    async def lagging_games(
        self, now: float | None = None, *, after: int = 0, limit: int | None = None
    ) -> list[int]:
        """Games whose table does not show their stored version yet (not paused; with
        ``now``, not waiting to retry after a failure)."""
        sql = (
            "SELECT id FROM games WHERE status IN ('active', 'over') "
            "AND published_version < version AND paused IS NULL AND +id > ?"
        )
        params: list[Any] = [after]
        if now is not None:
            sql += " AND (retry_at IS NULL OR retry_at <= ?)"
            params.append(now)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        async with self.db.execute(sql, params) as c:
            return [int(r[0]) for r in await c.fetchall()]

    async def due_games(self, now: float, *, after: int = 0, limit: int = 100) -> list[int]:
        # Each half searches its own index (games_wake, timers_due); "+id" keeps SQLite
        # from scanning every game in id order instead.
        async with self.db.execute(
            "SELECT id FROM (SELECT id FROM games WHERE status = 'active' AND wake_at <= ? "
            "AND paused IS NULL AND +id > ? "
            "UNION SELECT g.id FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND t.started + t.seconds <= ? "
            "AND g.status = 'active' AND g.paused IS NULL AND +g.id > ?) "
            "ORDER BY +id LIMIT ?",
            (now, after, now, after, limit),
        ) as c:
            return [int(r[0]) for r in await c.fetchall()]

    async def set_wake(self, game_id: int, wake_at: float | None) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE games SET wake_at = ? WHERE id = ?", (wake_at, game_id))

    async def pause_game(self, game_id: int, reason: str, now: float) -> bool:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET paused = ?, paused_at = ? WHERE id = ? AND paused IS NULL",
                (reason, now, game_id),
            )
            return cur.rowcount == 1

    async def resume_game(self, game_id: int) -> bool:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET paused = NULL, paused_at = NULL, publish_fails = 0, "
                "retry_at = NULL WHERE id = ? AND paused IS NOT NULL",
                (game_id,),
            )
            return cur.rowcount == 1

    async def publish_failed(self, game_id: int, now: float) -> float:
        async with self.transaction() as db:
            async with db.execute("SELECT publish_fails FROM games WHERE id = ?", (game_id,)) as c:
                row = await c.fetchone()
            fails = (int(row[0]) if row else 0) + 1
            when = now + pacing.retry_after(fails)
            await db.execute(
                "UPDATE games SET publish_fails = ?, retry_at = ? WHERE id = ?",
                (fails, when, game_id),
            )
        return when

    async def publish_ok(self, game_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE games SET publish_fails = 0, retry_at = NULL WHERE id = ?", (game_id,)
            )

    async def active_games(self) -> list[GameRow]:
        async with self.db.execute(
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' ORDER BY id"
        ) as c:
            rows = await c.fetchall()
        return [_game(r) for r in rows]

    _UPDATABLE = frozenset(
        {
            "status",
            "options",
            "state",
            "lang",
            "lobby_message_id",
            "table_message_id",
            "table_to_move",
            "finished_at",
            "seed",
            "table_hash",
            "host_options",
            "published_version",
            "trail_message_id",
            "trail_seq",
            "trail_key",
            "nudge_messages",
        }
    )

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        """Set bookkeeping fields (not the state of a running game: see commit_action)."""
        bad = set(fields) - self._UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {bad}")
        sets, values = [], []
        for key, value in fields.items():
            if (
                key in ("options", "state", "table_to_move", "host_options", "nudge_messages")
                and value is not None
            ):
                value = dumps(value)
            sets.append(f"{key} = ?")
            values.append(value)
        sets.append("updated_at = ?")
        values.append(now)
        async with self.transaction() as db:
            sql = f"UPDATE games SET {', '.join(sets)} WHERE id = ?"
            await db.execute(sql, (*values, game_id))

    async def bump_lobby(self, game_id: int, version: int, now: float, **fields: Any) -> int:
        """Change lobby fields and bump the version, if still at ``version``."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (now, game_id, version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(game_id)
            for key, value in fields.items():
                if key not in ("options", "host_options"):
                    raise ValueError(key)
                sql = f"UPDATE games SET {key} = ? WHERE id = ?"
                await db.execute(sql, (dumps(value), game_id))
        return version + 1

    async def start_game(
        self, game_id: int, version: int, seed: int, state: dict[str, Any], now: float
    ) -> int:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status = 'active', seed = ?, state = ?, "
                "version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'lobby'",
                (seed, dumps(state), now, game_id, version),
            )
            if cur.rowcount != 1:
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
        waits_was: dict[int, tuple[float, int, int]] | None = None,
        timers_opened: list[tuple[str, int, float]] | None = None,
        timers_closed: Iterable[str] = (),
        wake_at: float | None = 0.0,
    ) -> int:
        """Append the action, store the state and bump the version: one transaction (see
        :meth:`Storage.commit_action`; ``waits`` and ``wake_at`` are written with it).

        With ``timer`` (a running timer's key) the move is that timer's expiry, and the
        timer is marked fired in the same transaction: if it already fired, nothing is
        written (:class:`VersionConflict`)."""

        async def body(db: Any) -> None:
            cur = await db.execute(
                "UPDATE games SET state = ?, version = version + 1, updated_at = ?, "
                "status = CASE WHEN ? THEN 'over' ELSE status END, "
                "finished_at = CASE WHEN ? THEN ? ELSE finished_at END, "
                "wake_at = CASE WHEN ? THEN ? ELSE wake_at END "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (
                    dumps(state),
                    now,
                    over,
                    over,
                    now,
                    waits is not None,
                    wake_at,
                    game_id,
                    version,
                ),
            )
            if cur.rowcount != 1:
                raise VersionConflict(game_id)
            rows = await db.execute_fetchall(
                "INSERT INTO actions "
                "(game_id, seq, seat, choice, by_user, by_bot, events, at, think, timer) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ? "
                "FROM actions WHERE game_id = ? RETURNING seq",
                (
                    game_id,
                    seat,
                    choice,
                    by_user,
                    int(by_bot),
                    dumps(events),
                    now,
                    think,
                    timer,
                    game_id,
                ),
            )
            (seq,) = next(iter(rows))
            if timer is not None:
                cur = await db.execute(
                    "UPDATE timers SET fired_at = ?, fired_seq = ? "
                    "WHERE game_id = ? AND key = ? AND fired_at IS NULL",
                    (now, seq, game_id, timer),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(game_id)
            if waits is not None and waits_was is None:
                await self._write_waits(db, game_id, waits)
            elif waits is not None and waits_was is not None:
                await self._change_waits(db, game_id, waits_was, waits)
            if timers_opened or timers_closed:
                await self._write_timers(db, game_id, timers_opened or [], timers_closed, now)

        await self.in_one_hop(body)
        return version + 1

    async def finish(self, game_id: int, status: str, now: float) -> bool:
        """Mark a live game abandoned (or over); False if it was not live."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status = ?, finished_at = ?, updated_at = ?, "
                "version = version + 1 WHERE id = ? AND status IN ('lobby', 'active')",
                (status, now, now, game_id),
            )
            return cur.rowcount == 1

    # -- seats --------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.db.execute(
            "SELECT game_id, seat, user_id, is_bot, name, locale, dm_open, autopilot, missed, "
            "level "
            "FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as c:
            rows = await c.fetchall()
        return [
            SeatRow(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9])
            for r in rows
        ]

    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, is_bot, name, locale, dm_open, "
                "autopilot, missed, level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        sets = ", ".join(f"{k} = ?" for k in fields)
        values = [int(v) if isinstance(v, bool) else v for v in fields.values()]
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                (*values, game_id, seat),
            )

    async def reopen_dms(self, user_id: int) -> None:
        """The user says DMs work again: try them in every game of theirs."""
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET dm_open = 1 WHERE user_id = ?", (user_id,))

    async def games_of_user(self, user_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND g.status IN ('lobby', 'active')" if live_only else ""
        cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLS.split(","))
        async with self.db.execute(
            f"SELECT DISTINCT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND s.is_bot = 0 {where} ORDER BY g.id",
            (user_id,),
        ) as c:
            rows = await c.fetchall()
        return [_game(r) for r in rows]

    # -- actions ------------------------------------------------------------------------

    async def actions(
        self, game_id: int, limit: int | None = None, *, live: bool = True
    ) -> list[ActionRow]:
        """The action log in order; ``live`` leaves out undone actions (what replay uses)."""
        cols = "game_id, seq, seat, choice, by_user, by_bot, events, at, undone, think, timer"
        where = "game_id = ?" + (" AND undone IS NULL" if live else "")
        sql = f"SELECT {cols} FROM actions WHERE {where} ORDER BY seq"
        params: tuple[Any, ...] = (game_id,)
        if limit is not None:
            sql = (
                f"SELECT * FROM (SELECT {cols} FROM actions WHERE {where} "
                "ORDER BY seq DESC LIMIT ?) ORDER BY seq"
            )
            params = (game_id, limit)
        async with self.db.execute(sql, params) as c:
            rows = await c.fetchall()
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
        """Mark ``seqs`` undone (kind "undo" or "rollback") and store the state they lead
        back to: one transaction, if the game is still at ``version``."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET state = ?, version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (dumps(state), now, game_id, version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(game_id)
            await db.executemany(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND seq = ?",
                [(kind, game_id, seq) for seq in seqs],
            )
            # A rollback restarts every clock (the decisions it reopens count from now);
            # otherwise a timer whose expiry is taken back runs again from its reopening.
            if kind == "rollback":
                await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            else:
                await db.executemany(
                    "DELETE FROM timers WHERE game_id = ? AND fired_seq = ?",
                    [(game_id, seq) for seq in seqs],
                )
        return version + 1

    async def moves_by_seat(self, game_id: int) -> dict[int, int]:
        # Undone actions count too: a button from before an undo stays dead.
        async with self.db.execute(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id = ? GROUP BY seat", (game_id,)
        ) as c:
            rows = await c.fetchall()
        return {int(r[0]): int(r[1]) for r in rows}

    async def count_actions(self, game_id: int) -> int:
        async with self.db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
        ) as c:
            (n,) = await c.fetchone()  # type: ignore[misc]
        return int(n)

    # -- votes --------------------------------------------------------------------------

    async def vote(self, game_id: int, kind: str, user_id: int, now: float) -> set[int]:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO votes (game_id, kind, user_id, at) VALUES (?, ?, ?, ?)",
                (game_id, kind, user_id, now),
            )
            async with db.execute(
                "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)
            ) as c:
                rows = await c.fetchall()
        return {r[0] for r in rows}

    # -- private panels -----------------------------------------------------------------

    async def dm_panel(self, game_id: int, seat: int) -> tuple[str, int | None, int | None] | None:
        async with self.db.execute(
            "SELECT token, channel_id, message_id FROM dm_panels WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        ) as c:
            row = await c.fetchone()
        return (row[0], row[1], row[2]) if row else None

    async def set_dm_panel(
        self, game_id: int, seat: int, token: str, channel_id: int | None, message_id: int | None
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO dm_panels (game_id, seat, token, channel_id, message_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "token = excluded.token, channel_id = excluded.channel_id, "
                "message_id = excluded.message_id",
                (game_id, seat, token, channel_id, message_id),
            )

    async def clear_votes(self, game_id: int, kind: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "DELETE FROM votes WHERE game_id = ? AND kind LIKE ?", (game_id, kind)
            )

    # -- waits (pacing) -----------------------------------------------------------------

    async def waits(self, game_id: int) -> dict[int, tuple[float, int, int]]:
        """seat -> (since, nudges sent, deadline state)."""
        async with self.db.execute(
            "SELECT seat, since, nudges, deadline FROM waits WHERE game_id = ?", (game_id,)
        ) as c:
            rows = await c.fetchall()
        return {int(r[0]): (float(r[1]), int(r[2]), int(r[3])) for r in rows}

    async def set_waits(
        self,
        game_id: int,
        keep: dict[int, tuple[float, int, int]],
        wake_at: float | None = 0.0,
    ) -> None:
        async with self.transaction() as db:
            await self._write_waits(db, game_id, keep)
            await db.execute("UPDATE games SET wake_at = ? WHERE id = ?", (wake_at, game_id))

    @staticmethod
    async def _write_waits(
        db: aiosqlite.Connection, game_id: int, keep: dict[int, tuple[float, int, int]]
    ) -> None:
        await db.execute("DELETE FROM waits WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO waits (game_id, seat, since, nudges, deadline) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seat, *row) for seat, row in keep.items()],
        )

    @staticmethod
    async def _change_waits(
        db: aiosqlite.Connection,
        game_id: int,
        was: dict[int, tuple[float, int, int]],
        keep: dict[int, tuple[float, int, int]],
    ) -> None:
        """Turn the waits ``was`` into ``keep``: a wait that ends becomes one that starts
        (the turn passing on: one statement), the others are deleted or written."""
        ended = [seat for seat in sorted(was) if seat not in keep]
        started = [(seat, row) for seat, row in sorted(keep.items()) if was.get(seat) != row]
        pairs = list(zip(ended, started, strict=False))
        if pairs:
            await db.executemany(
                "UPDATE OR REPLACE waits SET seat = ?, since = ?, nudges = ?, deadline = ? "
                "WHERE game_id = ? AND seat = ?",
                [(seat, *row, game_id, old) for old, (seat, row) in pairs],
            )
        if len(ended) > len(pairs):
            marks = ", ".join("?" * len(keep))
            await db.execute(
                f"DELETE FROM waits WHERE game_id = ? AND seat NOT IN ({marks})",
                (game_id, *sorted(keep)),
            )
        if len(started) > len(pairs):
            await db.executemany(
                "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "since = excluded.since, nudges = excluded.nudges, deadline = excluded.deadline",
                [(game_id, seat, *row) for seat, row in started[len(pairs) :]],
            )

    async def mark_waits(
        self, game_id: int, marks: dict[int, dict[str, int]], wake_at: float | None = 0.0
    ) -> None:
        allowed = {"nudges", "deadline"}
        for fields in marks.values():
            if set(fields) - allowed:
                raise ValueError(fields)
        async with self.transaction() as db:
            for seat, fields in marks.items():
                if fields:
                    sets = ", ".join(f"{k} = ?" for k in fields)
                    await db.execute(
                        f"UPDATE waits SET {sets} WHERE game_id = ? AND seat = ?",
                        (*fields.values(), game_id, seat),
                    )
            await db.execute("UPDATE games SET wake_at = ? WHERE id = ?", (wake_at, game_id))

    # -- timers -------------------------------------------------------------------------

    async def timers(self, game_id: int) -> dict[str, TimerRow]:
        """Every timer of the game seen so far, by key."""
        async with self.db.execute(
            "SELECT game_id, key, seat, started, seconds, open, fired_at, fired_seq "
            "FROM timers WHERE game_id = ?",
            (game_id,),
        ) as c:
            rows = await c.fetchall()
        return {r[1]: TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7]) for r in rows}

    async def open_timer_keys(self, game_id: int) -> set[str]:
        async with self.db.execute(
            "SELECT key FROM timers WHERE game_id = ? AND open = 1", (game_id,)
        ) as c:
            return {r[0] for r in await c.fetchall()}

    async def update_timers(
        self,
        game_id: int,
        opened: list[tuple[str, int, float]],
        closed: Iterable[str],
        now: float,
    ) -> None:
        """Timers (key, seat, seconds) now open start counting if new; known keys keep
        their start (a key names one run of a timer) and are open again. Keys no longer
        open are marked so."""
        async with self.transaction() as db:
            await self._write_timers(db, game_id, opened, closed, now)

    @staticmethod
    async def _write_timers(
        db: aiosqlite.Connection,
        game_id: int,
        opened: list[tuple[str, int, float]],
        closed: Iterable[str],
        now: float,
    ) -> None:
        if opened:
            await db.executemany(
                "INSERT INTO timers (game_id, key, seat, started, seconds) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, key) DO UPDATE SET open = 1",
                [(game_id, key, seat, now, seconds) for key, seat, seconds in opened],
            )
        closed = list(closed)
        if closed:
            await db.executemany(
                "UPDATE timers SET open = 0 WHERE game_id = ? AND key = ?",
                [(game_id, key) for key in closed],
            )

    async def next_timer_due(self) -> float | None:
        """When the soonest running timer of an active game runs out."""
        async with self.db.execute(
            "SELECT MIN(t.started + t.seconds) FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND g.status = 'active'"
        ) as c:
            row = await c.fetchone()
        return float(row[0]) if row and row[0] is not None else None

    async def drop_timer(self, game_id: int, key: str, now: float) -> bool:
        """Mark a running timer fired without a move (its option was no longer offered)."""
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE timers SET fired_at = ? WHERE game_id = ? AND key = ? "
                "AND fired_at IS NULL",
                (now, game_id, key),
            )
            return cur.rowcount == 1

    # -- results and stats --------------------------------------------------------------

    async def save_results(self, rows: list[tuple[Any, ...]]) -> None:
        async with self.transaction() as db:
            await db.executemany(
                "INSERT OR REPLACE INTO results (game_id, seat, user_id, guild_id, game, score, "
                "rank, with_bots, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    async def user_stats(self, user_id: int) -> list[tuple[Any, ...]]:
        """Per game kind: games, wins, average score, games with bots."""
        async with self.db.execute(
            "SELECT game, COUNT(*), SUM(rank = 1), AVG(score), SUM(with_bots) FROM results "
            "WHERE user_id = ? GROUP BY game ORDER BY game",
            (user_id,),
        ) as c:
            return [tuple(row) for row in await c.fetchall()]

    async def user_think(self, user_id: int) -> tuple[int, float | None]:
        async with self.db.execute(
            "SELECT COUNT(a.think), AVG(a.think) FROM actions a JOIN seats s "
            "ON s.game_id = a.game_id AND s.seat = a.seat "
            "WHERE s.user_id = ? AND a.by_bot = 0 AND a.think IS NOT NULL",
            (user_id,),
        ) as c:
            row = await c.fetchone()
        return (int(row[0]), row[1]) if row else (0, None)

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[Any, ...]]:
        """user, wins, games, average score, games with bots — best first."""
        async with self.db.execute(
            "SELECT user_id, SUM(rank = 1) AS wins, COUNT(*) AS games, AVG(score), "
            "SUM(with_bots) FROM results WHERE guild_id = ? AND game = ? AND user_id IS NOT NULL "
            "GROUP BY user_id ORDER BY wins DESC, games ASC, AVG(score) DESC LIMIT ?",
            (guild_id, game, limit),
        ) as c:
            return [tuple(row) for row in await c.fetchall()]

    # -- preferences --------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> tuple[bool, str | None]:
        async with self.db.execute(
            "SELECT dm_turn, lang FROM user_settings WHERE user_id = ?", (user_id,)
        ) as c:
            row = await c.fetchone()
        return (bool(row[0]), row[1]) if row else (False, None)

    async def set_user_settings(self, user_id: int, dm_turn: bool, lang: str | None) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, dm_turn, lang) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_turn = excluded.dm_turn, "
                "lang = excluded.lang",
                (user_id, int(dm_turn), lang),
            )

    async def guild_settings(self, guild_id: int) -> tuple[str | None, str | None]:
        async with self.db.execute(
            "SELECT lang, reminders FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as c:
            row = await c.fetchone()
        return (row[0], row[1]) if row else (None, None)

    async def set_guild_settings(
        self, guild_id: int, lang: str | None, reminders: str | None
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, lang, reminders) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET lang = excluded.lang, "
                "reminders = excluded.reminders",
                (guild_id, lang, reminders),
            )


#: The SQLite store's older name.
Store = SqliteStore
