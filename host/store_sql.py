"""The one SQL body of both stores: every query the host sends, written once, with ``?``
placeholders (the PostgreSQL driver numbers them ``$1``, ``$2``, …).

:class:`SqlStore` holds the queries; a driver (host/storage.py for SQLite, host/storage_pg.py
for PostgreSQL) gives it a connection as a :class:`Tx`, runs transactions and locks, applies
the migrations, and names the little that differs between the two dialects:

* the head of :meth:`Storage.load`'s one statement (:func:`load_sql`: the JSON functions,
  and the exact text SQLite's times need);
* ``+`` before an id that SQLite must not search by its index (:attr:`SqlBase._NOINDEX`);
* ``FOR UPDATE`` on a row read to be written back (:attr:`SqlBase._FOR_UPDATE`);
* the error a duplicate live game in a channel raises (:attr:`SqlBase._UNIQUE`);
* the lock that keeps two processes from rating at once (:attr:`SqlBase._LOCK_RATINGS`);
* how a move turns the waits it read into the waits it leaves
  (:meth:`SqlBase._change_waits`: one statement each way, but not the same one).

Every accepted choice is one transaction (:meth:`SqlStore.commit_action`): the action row,
the new state and the version bump land together or not at all, and only if the version is
still the one the caller read (optimistic check), so two racing writers cannot both win.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol, TypeVar

from host import pacing, skill
from host.rows import (
    GAME_COLS,
    N_GAME_COLS,
    ActionRow,
    ChannelBusy,
    GameRow,
    Loaded,
    Move,
    NewGame,
    Opened,
    SeatRow,
    State,
    TimerRow,
    VersionConflict,
    Waits,
    dumps,
    game_row,
    loaded_row,
)
from host.store_api import PublishRead, Storage, people

T = TypeVar("T")

#: The ``games`` fields :meth:`SqlStore.update_game` may set, and those stored as JSON.
UPDATABLE = frozenset(
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
JSON_FIELDS = frozenset({"options", "state", "table_to_move", "host_options", "nudge_messages"})
#: The ``seats`` fields :meth:`SqlStore.update_seat` may set.
SEAT_FIELDS = frozenset(
    {"user_id", "is_bot", "name", "locale", "dm_open", "autopilot", "missed", "level"}
)
SEAT_COLS = "game_id, seat, user_id, is_bot, name, locale, dm_open, autopilot, missed, level"
ACTION_COLS = "game_id, seq, seat, choice, by_user, by_bot, events, at, undone, think, timer"
TIMER_COLS = "game_id, key, seat, started, seconds, open, fired_at, fired_seq"

#: The action log's events as decoded from their stored JSON text, by that text: a table's
#: publish reads the game's latest actions (up to 300) after every move, nearly all of them
#: read before. Shared between the rows that hold the same text: read them, never change
#: them. Emptied when full.
_EVENTS: dict[str, Any] = {}
EVENTS_KEPT = 8_000


def decoded_events(text: Any) -> Any:
    """An action's stored events (JSON text) decoded, once per text (see :data:`_EVENTS`)."""
    if not isinstance(text, str):
        return json.loads(text)
    events = _EVENTS.get(text)
    if events is None:
        events = json.loads(text)
        if len(_EVENTS) >= EVENTS_KEPT:
            _EVENTS.clear()
        _EVENTS[text] = events
    return events


def load_sql(agg: str, array: str, exact: Callable[[str], str], text: str) -> str:
    """The head of :meth:`Storage.load`'s statement (the ``WHERE`` follows): the game's
    columns and four JSON lists, built with the dialect's aggregate ``agg`` of ``array``s,
    each list read as ``text``; ``exact`` writes a time so that it reads back exactly."""

    def listed(cols: str, rest: str) -> str:
        return f"(SELECT {agg}({array}({cols})) FROM {rest}){text}"

    fired = f"CASE WHEN fired_at IS NULL THEN NULL ELSE {exact('fired_at')} END"
    return (
        f"SELECT {GAME_COLS}, "
        + listed(
            "seat, user_id, is_bot, name, locale, dm_open, autopilot, missed, level",
            "seats WHERE game_id = g.id",
        )
        + ", "
        + listed(
            "seat, n",
            "(SELECT seat, COUNT(*) AS n FROM actions WHERE game_id = g.id GROUP BY seat) m",
        )
        + ", "
        + listed(
            f"seat, {exact('since')}, nudges, deadline",
            "waits WHERE game_id = g.id",
        )
        + ", "
        + listed(
            f"key, seat, {exact('started')}, {exact('seconds')}, open, {fired}, fired_seq",
            "timers WHERE game_id = g.id",
        )
        + " FROM games g WHERE "
    )


class Tx(Protocol):
    """A connection as the SQL body uses it, whichever the database (``?`` placeholders)."""

    async def run(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it touched."""
        ...

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""
        ...

    async def rows(self, sql: str, *args: Any) -> list[Any]:
        """Run one statement; every row it returns."""
        ...

    async def row(self, sql: str, *args: Any) -> Any:
        """Run one statement; its first row (None: none)."""
        ...


def _ints(values: Iterable[Any]) -> tuple[Any, ...]:
    """``values`` with booleans as 0 and 1 (how both databases store them)."""
    return tuple(int(v) if isinstance(v, bool) else v for v in values)


class SqlBase(Storage):
    """What the queries share: the driver's hooks and the dialect's few differences."""

    #: The head of :meth:`load`'s statement (see :func:`load_sql`).
    _LOAD: str = ""
    #: Written before an id compared with ``>``: SQLite's ``+`` keeps its planner from
    #: walking every game in id order instead of searching the query's own index.
    _NOINDEX: str = ""
    #: Written after a read of a row the transaction writes back.
    _FOR_UPDATE: str = ""
    #: The errors of a second live game in a channel (the unique index says no).
    _UNIQUE: tuple[type[BaseException], ...] = ()
    #: A statement that serialises rating updates across processes, in a transaction
    #: (SQLite's one writer needs none).
    _LOCK_RATINGS: str = ""

    # -- what a driver supplies -----------------------------------------------------------

    @abstractmethod
    def _tx(self, con: Any) -> Tx:
        """The connection :meth:`transaction` yields, as a :class:`Tx`."""

    @abstractmethod
    def _reader(self) -> AbstractAsyncContextManager[Tx]:
        """A :class:`Tx` for reads outside any transaction of the caller's."""

    @abstractmethod
    async def _change_waits(self, tx: Tx, game_id: int, was: Waits, keep: Waits) -> None:
        """Turn the waits ``was`` into ``keep`` in as few statements as can be."""

    async def _atomic(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """Run ``body`` as one transaction (a driver may run it faster, in one trip)."""
        async with self._write() as tx:
            return await body(tx)

    async def _read_at_once(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """Run the reads ``body`` makes under :meth:`reading` (a driver may run them in one
        trip: SQLite does, see host/storage.py). On PostgreSQL that is one snapshot only
        when the task holds no connection yet: inside the publish lock (whose connection
        the publish's queries use) each statement sees what is committed when it runs, as
        the reads made one by one did before."""
        async with self.reading(), self._reader() as tx:
            return await body(tx)

    # -- helpers --------------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        async with self.transaction() as con:
            yield self._tx(con)

    async def _rows(self, sql: str, *args: Any) -> list[Any]:
        async with self._reader() as tx:
            return await tx.rows(sql, *args)

    async def _row(self, sql: str, *args: Any) -> Any:
        async with self._reader() as tx:
            return await tx.row(sql, *args)

    async def _change(self, sql: str, *args: Any) -> int:
        """One statement in a transaction of its own; how many rows it touched (on SQLite
        in one trip to the database's thread, see :meth:`_atomic`)."""

        async def body(tx: Tx) -> int:
            return await tx.run(sql, *args)

        return await self._atomic(body)

    @staticmethod
    async def _bump(
        tx: Tx,
        game_id: int,
        version: int,
        now: float,
        status: str = "",
        sets: str = "",
        *args: Any,
    ) -> None:
        """Bump the game's version, and set ``sets`` (``field = ?, `` each, with ``args``),
        if it is still at ``version`` (and ``status``); else :class:`VersionConflict`."""
        where = f" AND status = '{status}'" if status else ""
        touched = await tx.run(
            f"UPDATE games SET {sets}version = version + 1, updated_at = ? "
            f"WHERE id = ? AND version = ?{where}",
            *args,
            now,
            game_id,
            version,
        )
        if touched != 1:
            raise VersionConflict(game_id)

    @staticmethod
    async def _write_waits(tx: Tx, game_id: int, keep: Waits) -> None:
        await tx.run("DELETE FROM waits WHERE game_id = ?", game_id)
        await tx.many(
            "INSERT INTO waits (game_id, seat, since, nudges, deadline) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seat, *row) for seat, row in keep.items()],
        )

    @staticmethod
    async def _write_timers(
        tx: Tx, game_id: int, opened: Opened, closed: Iterable[str], now: float
    ) -> None:
        if opened:
            await tx.many(
                "INSERT INTO timers (game_id, key, seat, started, seconds) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, key) DO UPDATE SET open = 1",
                [(game_id, key, seat, now, seconds) for key, seat, seconds in opened],
            )
        closed = list(closed)
        if closed:
            await tx.many(
                "UPDATE timers SET open = 0 WHERE game_id = ? AND key = ?",
                [(game_id, key) for key in closed],
            )

    async def _games(self, where: str, *args: Any) -> list[GameRow]:
        return [
            game_row(r) for r in await self._rows(f"SELECT {GAME_COLS} FROM games {where}", *args)
        ]

    async def _one_game(self, where: str, *args: Any) -> GameRow | None:
        row = await self._row(f"SELECT {GAME_COLS} FROM games {where}", *args)
        return game_row(row) if row else None


class GameQueries(SqlBase):
    """The queries of a game's own rows: the game, its seats, its action log."""

    # -- games ----------------------------------------------------------------------------

    async def create_game(self, new: NewGame) -> int:
        try:
            async with self._write() as tx:
                row = await tx.row(
                    "INSERT INTO games (guild_id, channel_id, game, status, options, seed, "
                    "lang, owner_id, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    new.guild_id,
                    new.channel_id,
                    new.game,
                    dumps(new.options),
                    new.seed,
                    new.lang,
                    new.owner_id,
                    new.now,
                    new.now,
                )
                return int(row[0])
        except self._UNIQUE as exc:
            raise ChannelBusy(new.channel_id) from exc

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one_game("WHERE id = ?", game_id)

    async def live_game(self, channel_id: int) -> GameRow | None:
        return await self._one_game(
            "WHERE channel_id = ? AND status IN ('lobby', 'active')", channel_id
        )

    async def load(
        self, game_id: int | None = None, *, channel: int | None = None
    ) -> Loaded | None:
        if game_id is not None:
            row = await self._row(self._LOAD + "g.id = ?", game_id)
        else:
            row = await self._row(
                self._LOAD + "g.channel_id = ? AND g.status IN ('lobby', 'active')", channel
            )
        return loaded_row(row, N_GAME_COLS) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        return await self._one_game("WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id)

    async def games_in_guild(self, guild_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND status IN ('lobby', 'active')" if live_only else ""
        return await self._games(f"WHERE guild_id = ? {where} ORDER BY id", guild_id)

    async def lagging_games(
        self, now: float | None = None, *, after: int = 0, limit: int | None = None
    ) -> list[int]:
        sql = (
            "SELECT id FROM games WHERE status IN ('active', 'over') "
            f"AND published_version < version AND paused IS NULL AND {self._NOINDEX}id > ?"
        )
        args: list[Any] = [after]
        if now is not None:
            sql += " AND (retry_at IS NULL OR retry_at <= ?)"
            args.append(now)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [int(r[0]) for r in await self._rows(sql, *args)]

    async def due_games(self, now: float, *, after: int = 0, limit: int = 100) -> list[int]:
        # Each half searches its own index (games_wake, timers_due).
        n = self._NOINDEX
        rows = await self._rows(
            "SELECT id FROM (SELECT id FROM games WHERE status = 'active' AND wake_at <= ? "
            f"AND paused IS NULL AND {n}id > ? "
            "UNION SELECT g.id FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND t.started + t.seconds <= ? "
            f"AND g.status = 'active' AND g.paused IS NULL AND {n}g.id > ?) AS due "
            f"ORDER BY {n}id LIMIT ?",
            now,
            after,
            now,
            after,
            limit,
        )
        return [int(r[0]) for r in rows]

    async def set_wake(self, game_id: int, wake_at: float | None) -> None:
        await self._change("UPDATE games SET wake_at = ? WHERE id = ?", wake_at, game_id)

    async def pause_game(self, game_id: int, reason: str, now: float) -> bool:
        sql = "UPDATE games SET paused = ?, paused_at = ? WHERE id = ? AND paused IS NULL"
        return await self._change(sql, reason, now, game_id) == 1

    async def resume_game(self, game_id: int) -> bool:
        sql = (
            "UPDATE games SET paused = NULL, paused_at = NULL, publish_fails = 0, "
            "retry_at = NULL WHERE id = ? AND paused IS NOT NULL"
        )
        return await self._change(sql, game_id) == 1

    async def publish_failed(self, game_id: int, now: float) -> float:
        async with self._write() as tx:
            row = await tx.row(
                f"SELECT publish_fails FROM games WHERE id = ?{self._FOR_UPDATE}", game_id
            )
            fails = (int(row[0] or 0) if row else 0) + 1
            when = now + pacing.retry_after(fails)
            await tx.run(
                "UPDATE games SET publish_fails = ?, retry_at = ? WHERE id = ?",
                fails,
                when,
                game_id,
            )
        return when

    async def publish_ok(self, game_id: int) -> None:
        await self._change(
            "UPDATE games SET publish_fails = 0, retry_at = NULL WHERE id = ?", game_id
        )

    async def active_games(self) -> list[GameRow]:
        return await self._games("WHERE status = 'active' ORDER BY id")

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        bad = set(fields) - UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {bad}")
        sets, values = [], []
        for key, value in fields.items():
            if key in JSON_FIELDS and value is not None:
                value = dumps(value)
            sets.append(f"{key} = ?")
            values.append(value)
        sets.append("updated_at = ?")
        values.append(now)
        await self._change(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", *values, game_id)

    async def bump_lobby(self, game_id: int, version: int, now: float, **fields: Any) -> int:
        async with self._write() as tx:
            await self._bump(tx, game_id, version, now)
            for key, value in fields.items():
                if key not in ("options", "host_options"):
                    raise ValueError(key)
                await tx.run(f"UPDATE games SET {key} = ? WHERE id = ?", dumps(value), game_id)
        return version + 1

    async def start_game(
        self, game_id: int, version: int, seed: int, state: dict[str, Any], now: float
    ) -> int:
        async with self._write() as tx:
            started = "status = 'active', seed = ?, state = ?, "
            await self._bump(tx, game_id, version, now, "lobby", started, seed, dumps(state))
        return version + 1

    async def commit_action(self, move: Move) -> int:
        m = move

        async def body(tx: Tx) -> None:
            await self._bump(
                tx,
                m.game_id,
                m.version,
                m.now,
                "active",
                "state = ?, status = CASE WHEN ? THEN 'over' ELSE status END, "
                "finished_at = CASE WHEN ? THEN ? ELSE finished_at END, "
                "wake_at = CASE WHEN ? THEN ? ELSE wake_at END, ",
                dumps(m.state),
                m.over,
                m.over,
                m.now,
                m.waits is not None,
                m.wake_at,
            )
            (seq,) = await tx.row(
                "INSERT INTO actions "
                "(game_id, seq, seat, choice, by_user, by_bot, events, at, think, timer) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ? "
                "FROM actions WHERE game_id = ? RETURNING seq",
                m.game_id,
                m.seat,
                m.choice,
                m.by_user,
                int(m.by_bot),
                dumps(m.events),
                m.now,
                m.think,
                m.timer,
                m.game_id,
            )
            if m.timer is not None:
                touched = await tx.run(
                    "UPDATE timers SET fired_at = ?, fired_seq = ? "
                    "WHERE game_id = ? AND key = ? AND fired_at IS NULL",
                    m.now,
                    seq,
                    m.game_id,
                    m.timer,
                )
                if touched != 1:
                    raise VersionConflict(m.game_id)
            if m.waits is not None and m.waits_was is None:
                await self._write_waits(tx, m.game_id, m.waits)
            elif m.waits is not None and m.waits_was is not None:
                await self._change_waits(tx, m.game_id, m.waits_was, m.waits)
            if m.timers_opened or m.timers_closed:
                await self._write_timers(
                    tx, m.game_id, m.timers_opened or [], m.timers_closed, m.now
                )

        await self._atomic(body)
        return m.version + 1

    async def finish(self, game_id: int, status: str, now: float) -> bool:
        sql = (
            "UPDATE games SET status = ?, finished_at = ?, updated_at = ?, "
            "version = version + 1 WHERE id = ? AND status IN ('lobby', 'active')"
        )
        return await self._change(sql, status, now, now, game_id) == 1

    # -- seats ----------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._rows(
            f"SELECT {SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", game_id
        )
        return [
            SeatRow(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9])
            for r in rows
        ]

    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        async with self._write() as tx:
            await tx.run("DELETE FROM seats WHERE game_id = ?", game_id)
            await tx.many(
                f"INSERT INTO seats ({SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        if set(fields) - SEAT_FIELDS:
            raise ValueError(fields)
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self._change(
            f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
            *_ints(fields.values()),
            game_id,
            seat,
        )

    async def reopen_dms(self, user_id: int) -> None:
        await self._change("UPDATE seats SET dm_open = 1 WHERE user_id = ?", user_id)

    async def games_of_user(self, user_id: int, live_only: bool = True) -> list[GameRow]:
        where = "AND g.status IN ('lobby', 'active')" if live_only else ""
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLS.split(","))
        rows = await self._rows(
            f"SELECT DISTINCT {cols} FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND s.is_bot = 0 {where} ORDER BY g.id",
            user_id,
        )
        return [game_row(r) for r in rows]

    # -- actions --------------------------------------------------------------------------

    async def actions(
        self, game_id: int, limit: int | None = None, *, live: bool = True
    ) -> list[ActionRow]:
        async with self._reader() as tx:
            return await self._actions(tx, game_id, limit, live=live)

    @staticmethod
    async def _actions(
        tx: Tx, game_id: int, limit: int | None = None, *, live: bool = True
    ) -> list[ActionRow]:
        where = "game_id = ?" + (" AND undone IS NULL" if live else "")
        if limit is None:
            rows = await tx.rows(
                f"SELECT {ACTION_COLS} FROM actions WHERE {where} ORDER BY seq", game_id
            )
        else:
            rows = await tx.rows(
                f"SELECT * FROM (SELECT {ACTION_COLS} FROM actions WHERE {where} "
                "ORDER BY seq DESC LIMIT ?) AS recent ORDER BY seq",
                game_id,
                limit,
            )
        return [
            ActionRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                bool(r[5]),
                decoded_events(r[6]),
                r[7],
                r[8],
                r[9],
                r[10],
            )
            for r in rows
        ]

    async def undo_actions(
        self, game_id: int, version: int, seqs: list[int], kind: str, state: State, now: float
    ) -> int:
        async with self._write() as tx:
            await self._bump(tx, game_id, version, now, "active", "state = ?, ", dumps(state))
            await tx.many(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND seq = ?",
                [(kind, game_id, seq) for seq in seqs],
            )
            # A rollback restarts every clock (the decisions it reopens count from now);
            # otherwise a timer whose expiry is taken back runs again from its reopening.
            if kind == "rollback":
                await tx.run("DELETE FROM timers WHERE game_id = ?", game_id)
            else:
                await tx.many(
                    "DELETE FROM timers WHERE game_id = ? AND fired_seq = ?",
                    [(game_id, seq) for seq in seqs],
                )
        return version + 1

    async def moves_by_seat(self, game_id: int) -> dict[int, int]:
        # Undone actions count too: a button from before an undo stays dead.
        rows = await self._rows(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id = ? GROUP BY seat", game_id
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def count_actions(self, game_id: int) -> int:
        row = await self._row("SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id)
        return int(row[0])


class SqlStore(GameQueries):
    """Every query of :class:`Storage`, written once (a driver supplies the rest): those of
    :class:`GameQueries`, and of the tables around a game: votes, private panels, waits,
    timers, results and stats, preferences."""

    # -- votes ----------------------------------------------------------------------------

    async def vote(self, game_id: int, kind: str, user_id: int, now: float) -> set[int]:
        async with self._write() as tx:
            await tx.run(
                "INSERT INTO votes (game_id, kind, user_id, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                game_id,
                kind,
                user_id,
                now,
            )
            rows = await tx.rows(
                "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", game_id, kind
            )
        return {r[0] for r in rows}

    async def clear_votes(self, game_id: int, kind: str) -> None:
        await self._change("DELETE FROM votes WHERE game_id = ? AND kind LIKE ?", game_id, kind)

    # -- private panels -------------------------------------------------------------------

    async def dm_panel(self, game_id: int, seat: int) -> tuple[str, int | None, int | None] | None:
        row = await self._row(
            "SELECT token, channel_id, message_id FROM dm_panels WHERE game_id = ? AND seat = ?",
            game_id,
            seat,
        )
        return (row[0], row[1], row[2]) if row else None

    async def dm_panels(self, game_id: int) -> dict[int, tuple[str, int | None, int | None]]:
        async with self._reader() as tx:
            return await self._dm_panels(tx, game_id)

    @staticmethod
    async def _dm_panels(tx: Tx, game_id: int) -> dict[int, tuple[str, int | None, int | None]]:
        rows = await tx.rows(
            "SELECT seat, token, channel_id, message_id FROM dm_panels WHERE game_id = ?",
            game_id,
        )
        return {int(r[0]): (r[1], r[2], r[3]) for r in rows}

    async def for_publish(self, game_id: int, limit: int) -> PublishRead:
        return await self._read_at_once(lambda tx: self._for_publish(tx, game_id, limit))

    async def _for_publish(self, tx: Tx, game_id: int, limit: int) -> PublishRead:
        row = await tx.row(self._LOAD + "g.id = ?", game_id)
        loaded = loaded_row(row, N_GAME_COLS) if row else None
        users = [] if loaded is None else people(loaded.seats)
        settings: dict[int, tuple[bool, str | None]] = dict.fromkeys(users, (False, None))
        if users:
            marks = ", ".join("?" * len(users))
            for r in await tx.rows(
                f"SELECT user_id, dm_turn, lang FROM user_settings WHERE user_id IN ({marks})",
                *users,
            ):
                settings[int(r[0])] = (bool(r[1]), r[2])
        return PublishRead(
            loaded,
            await self._dm_panels(tx, game_id),
            await self._actions(tx, game_id, limit),
            settings,
        )

    async def set_dm_panel(
        self, game_id: int, seat: int, token: str, channel_id: int | None, message_id: int | None
    ) -> None:
        await self._change(
            "INSERT INTO dm_panels (game_id, seat, token, channel_id, message_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
            "token = excluded.token, channel_id = excluded.channel_id, "
            "message_id = excluded.message_id",
            game_id,
            seat,
            token,
            channel_id,
            message_id,
        )

    # -- waits (pacing) -------------------------------------------------------------------

    async def waits(self, game_id: int) -> Waits:
        rows = await self._rows(
            "SELECT seat, since, nudges, deadline FROM waits WHERE game_id = ?", game_id
        )
        return {int(r[0]): (float(r[1]), int(r[2]), int(r[3])) for r in rows}

    async def set_waits(self, game_id: int, keep: Waits, wake_at: float | None = 0.0) -> None:

        async def body(tx: Tx) -> None:  # (one trip to SQLite's thread: see _atomic)
            await self._write_waits(tx, game_id, keep)
            await tx.run("UPDATE games SET wake_at = ? WHERE id = ?", wake_at, game_id)

        await self._atomic(body)

    async def mark_waits(
        self, game_id: int, marks: dict[int, dict[str, int]], wake_at: float | None = 0.0
    ) -> None:
        allowed = {"nudges", "deadline"}
        for fields in marks.values():
            if set(fields) - allowed:
                raise ValueError(fields)

        async def body(tx: Tx) -> None:  # (one trip to SQLite's thread: see _atomic)
            for seat, fields in marks.items():
                if fields:
                    sets = ", ".join(f"{k} = ?" for k in fields)
                    await tx.run(
                        f"UPDATE waits SET {sets} WHERE game_id = ? AND seat = ?",
                        *fields.values(),
                        game_id,
                        seat,
                    )
            await tx.run("UPDATE games SET wake_at = ? WHERE id = ?", wake_at, game_id)

        await self._atomic(body)

    # -- timers ---------------------------------------------------------------------------

    async def timers(self, game_id: int) -> dict[str, TimerRow]:
        rows = await self._rows(f"SELECT {TIMER_COLS} FROM timers WHERE game_id = ?", game_id)
        return {r[1]: TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7]) for r in rows}

    async def open_timer_keys(self, game_id: int) -> set[str]:
        rows = await self._rows("SELECT key FROM timers WHERE game_id = ? AND open = 1", game_id)
        return {r[0] for r in rows}

    async def update_timers(
        self, game_id: int, opened: Opened, closed: Iterable[str], now: float
    ) -> None:

        async def body(tx: Tx) -> None:  # (one trip to SQLite's thread: see _atomic)
            await self._write_timers(tx, game_id, opened, closed, now)

        await self._atomic(body)

    async def next_timer_due(self) -> float | None:
        row = await self._row(
            "SELECT MIN(t.started + t.seconds) FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.fired_at IS NULL AND t.open = 1 AND g.status = 'active'"
        )
        return float(row[0]) if row and row[0] is not None else None

    async def drop_timer(self, game_id: int, key: str, now: float) -> bool:
        sql = "UPDATE timers SET fired_at = ? WHERE game_id = ? AND key = ? AND fired_at IS NULL"
        return await self._change(sql, now, game_id, key) == 1

    # -- results and stats ----------------------------------------------------------------

    async def save_results(
        self, rows: list[tuple[Any, ...]], players: Sequence[str] | None = None
    ) -> None:
        async with self._write() as tx:
            await tx.many(
                "INSERT INTO results (game_id, seat, user_id, guild_id, game, score, rank, "
                "with_bots, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                "guild_id = excluded.guild_id, game = excluded.game, score = excluded.score, "
                "rank = excluded.rank, with_bots = excluded.with_bots",
                [_ints(row) for row in rows],
            )
            if players is not None and rows:
                await self._rate(tx, rows, players)

    async def _rate(self, tx: Tx, rows: list[tuple[Any, ...]], players: Sequence[str]) -> None:
        """Rate the game of ``rows`` (results rows; ``players[i]`` is row i's player), in the
        transaction that stores them, unless it is rated already (its results saved again).
        Its time is the results' (the rebuild's order: see host/ratings.py)."""
        game_id, kind, now = rows[0][0], rows[0][4], rows[0][8]
        if await tx.row("SELECT 1 FROM rating_changes WHERE game_id = ? LIMIT 1", game_id):
            return
        if self._LOCK_RATINGS:  # a player's first rating is an INSERT: no row to lock
            await tx.run(self._LOCK_RATINGS)
        keys = sorted(set(players))
        known = await tx.rows(
            "SELECT player, mu, sigma, games FROM ratings "
            f"WHERE game = ? AND player IN ({', '.join('?' * len(keys))}){self._FOR_UPDATE}",
            kind,
            *keys,
        )
        before = {r[0]: skill.Rating(float(r[1]), float(r[2]), int(r[3])) for r in known}
        seats = [(p, int(row[6])) for p, row in zip(players, rows, strict=True)]
        changes = skill.rate(before, seats)
        await self._write_ratings(tx, [(game_id, kind, now, changes)])

    @staticmethod
    async def _write_ratings(
        tx: Tx, games: list[tuple[int, str, float, list[skill.Change]]]
    ) -> None:
        """Store the changes of rated games (game id, kind, when, changes; in order): the
        players' ratings after each, and the changes themselves."""
        latest: dict[tuple[str, str], tuple[Any, ...]] = {}
        changed: list[tuple[Any, ...]] = []
        for game_id, kind, now, changes in games:
            for c in changes:
                a, b = c.after, c.before
                latest[(kind, c.player)] = (kind, c.player, a.mu, a.sigma, a.games, now)
                changed.append((game_id, c.player, kind, b.mu, b.sigma, a.mu, a.sigma))
        if latest:
            await tx.many(
                "INSERT INTO ratings (game, player, mu, sigma, games, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, player) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                "updated_at = excluded.updated_at",
                list(latest.values()),
            )
            await tx.many(
                "INSERT INTO rating_changes (game_id, player, game, mu_before, sigma_before, "
                "mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
                changed,
            )

    async def rebuild_ratings(self) -> tuple[int, int]:
        async with self._write() as tx:
            if self._LOCK_RATINGS:
                await tx.run(self._LOCK_RATINGS)
            rows = await tx.rows(
                "SELECT r.game_id, r.game, r.finished_at, r.user_id, s.level, r.rank "
                "FROM results r LEFT JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
                "ORDER BY r.finished_at, r.game_id, r.seat"
            )
            games: dict[int, tuple[str, float, list[tuple[str, int]]]] = {}
            for game_id, kind, at, user_id, level, rank in rows:
                seats = games.setdefault(game_id, (kind, float(at), []))[2]
                seats.append((skill.player_key(user_id, level), int(rank)))
            done, table = skill.replay([(kind, seats) for kind, _, seats in games.values()])
            rated = [
                (game_id, kind, at, changes)
                for (game_id, (kind, at, _)), changes in zip(games.items(), done, strict=True)
                if changes
            ]
            await tx.run("DELETE FROM rating_changes")
            await tx.run("DELETE FROM ratings")
            await self._write_ratings(tx, rated)
        return len(rated), len(table)

    async def rating_changes(self, game_id: int) -> list[skill.Change]:
        rows = await self._rows(
            "SELECT c.player, c.mu_before, c.sigma_before, c.mu, c.sigma, r.games "
            "FROM rating_changes c JOIN ratings r ON r.game = c.game AND r.player = c.player "
            "WHERE c.game_id = ? ORDER BY c.player",
            game_id,
        )
        return [
            skill.Change(
                r[0],
                skill.Rating(float(r[1]), float(r[2])),
                skill.Rating(float(r[3]), float(r[4]), int(r[5])),
            )
            for r in rows
        ]

    async def user_ratings(self, player: str) -> dict[str, skill.Rating]:
        rows = await self._rows(
            "SELECT game, mu, sigma, games FROM ratings WHERE player = ? ORDER BY game", player
        )
        return {r[0]: skill.Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def rating_board(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[str, skill.Rating]]:
        rows = await self._rows(
            "SELECT r.player, r.mu, r.sigma, r.games FROM ratings r WHERE r.game = ? "
            "AND r.player IN (SELECT c.player FROM rating_changes c JOIN games g "
            "ON g.id = c.game_id WHERE c.game = ? AND g.guild_id = ?) "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.player LIMIT ?",
            game,
            game,
            guild_id,
            limit,
        )
        return [(r[0], skill.Rating(float(r[1]), float(r[2]), int(r[3]))) for r in rows]

    async def user_stats(self, user_id: int) -> list[tuple[Any, ...]]:
        rows = await self._rows(
            "SELECT game, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), "
            "CAST(AVG(score) AS DOUBLE PRECISION), SUM(with_bots) FROM results "
            "WHERE user_id = ? GROUP BY game ORDER BY game",
            user_id,
        )
        return [tuple(row) for row in rows]

    async def user_think(self, user_id: int) -> tuple[int, float | None]:
        row = await self._row(
            "SELECT COUNT(a.think), AVG(a.think) FROM actions a JOIN seats s "
            "ON s.game_id = a.game_id AND s.seat = a.seat "
            "WHERE s.user_id = ? AND a.by_bot = 0 AND a.think IS NOT NULL",
            user_id,
        )
        return (int(row[0]), row[1]) if row else (0, None)

    # -- preferences ----------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> tuple[bool, str | None]:
        row = await self._row("SELECT dm_turn, lang FROM user_settings WHERE user_id = ?", user_id)
        return (bool(row[0]), row[1]) if row else (False, None)

    async def set_user_settings(self, user_id: int, dm_turn: bool, lang: str | None) -> None:
        await self._change(
            "INSERT INTO user_settings (user_id, dm_turn, lang) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_turn = excluded.dm_turn, "
            "lang = excluded.lang",
            user_id,
            int(dm_turn),
            lang,
        )

    async def guild_settings(self, guild_id: int) -> tuple[str | None, str | None]:
        row = await self._row(
            "SELECT lang, reminders FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_guild_settings(
        self, guild_id: int, lang: str | None, reminders: str | None
    ) -> None:
        await self._change(
            "INSERT INTO guild_settings (guild_id, lang, reminders) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET lang = excluded.lang, "
            "reminders = excluded.reminders",
            guild_id,
            lang,
            reminders,
        )
