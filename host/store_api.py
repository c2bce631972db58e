"""The storage interface: what the host asks of its database, whichever it is. The one
SQL body of both backends is host/store_sql.py; the drivers are host/storage.py (SQLite)
and host/storage_pg.py (PostgreSQL); :func:`host.storage.open_store` picks one."""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, NamedTuple

from host import rows
from host.rows import ActionRow, GameRow, Loaded, Move, Opened, SeatRow, State, TimerRow, Waits
from host.skill import Change, Rating


class PublishRead(NamedTuple):
    """What :meth:`Storage.for_publish` reads."""

    loaded: Loaded | None
    #: Every seat's DM panel that has one: seat -> (token, channel id, message id).
    panels: dict[int, tuple[str, int | None, int | None]]
    actions: list[ActionRow]
    #: Each seated person's (user id) settings: (DM on their turn, language override).
    settings: dict[int, tuple[bool, str | None]]


def people(seats: Sequence[SeatRow]) -> list[int]:
    """The user ids of a game's seated people (not bots), each once, in seat order."""
    return list(dict.fromkeys(s.user_id for s in seats if not s.is_bot and s.user_id is not None))


class Storage(ABC):
    """What the host asks of its database, whichever it is (SQLite or PostgreSQL). Both keep
    the same semantics: every accepted choice is one transaction, guarded by the optimistic
    version check."""

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
    async def create_game(self, new: rows.NewGame) -> int:
        """Open the lobby ``new``; its id. :class:`ChannelBusy` if a lobby or an active game
        lives in its channel already."""

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
    async def commit_action(self, move: Move) -> int:
        """Append the action, store the state and bump the version: one transaction, and
        only if the game is still at ``move.version`` (else :class:`VersionConflict`).
        The game's new version. (See :class:`Move` for what else it writes.)"""

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
        self, game_id: int, version: int, seqs: list[int], kind: str, state: State, now: float
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
    async def dm_panels(self, game_id: int) -> dict[int, tuple[str, int | None, int | None]]:
        """Every seat's :meth:`dm_panel` of the game that has one, in one read."""

    async def for_publish(self, game_id: int, limit: int) -> PublishRead:
        """What a publish reads first, in one go (a driver may read it in one trip): the
        game as :meth:`load` reads it, its :meth:`dm_panels`, its last ``limit`` live
        :meth:`actions` and the :meth:`user_settings` of its seated people."""
        loaded = await self.load(game_id)
        users = [] if loaded is None else people(loaded.seats)
        return PublishRead(
            loaded,
            await self.dm_panels(game_id),
            await self.actions(game_id, limit),
            {u: await self.user_settings(u) for u in users},
        )

    @abstractmethod
    async def set_dm_panel(
        self, game_id: int, seat: int, token: str, channel_id: int | None, message_id: int | None
    ) -> None: ...

    @abstractmethod
    async def clear_votes(self, game_id: int, kind: str) -> None: ...

    @abstractmethod
    async def waits(self, game_id: int) -> Waits:
        """seat -> (since, nudges sent, deadline state)."""

    @abstractmethod
    async def set_waits(
        self,
        game_id: int,
        keep: Waits,
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
        self, game_id: int, opened: Opened, closed: Iterable[str], now: float
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
    async def save_results(
        self, rows: list[tuple[Any, ...]], players: Sequence[str] | None = None
    ) -> None:
        """Store a finished game's results (one row per seat; saved again: replaced). With
        ``players`` (row i's player, see :func:`host.skill.player_key`) the game is rated
        in the same transaction, unless it is rated already."""

    @abstractmethod
    async def rebuild_ratings(self) -> tuple[int, int]:
        """Forget every rating and rate every stored result again, in finish order, in one
        transaction: (games rated, ratings written)."""

    @abstractmethod
    async def rating_changes(self, game_id: int) -> list[Change]:
        """What the game did to its players' ratings (none: not rated), by player (the
        ratings' ``games`` are left 0 before, and are the player's games now after)."""

    @abstractmethod
    async def user_ratings(self, player: str) -> dict[str, Rating]:
        """The player's rating in each game kind they are rated in."""

    @abstractmethod
    async def rating_board(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[str, Rating]]:
        """(player, rating) of those rated in a game of this kind on this server, best
        conservative rating (μ − 3σ) first."""

    @abstractmethod
    async def user_stats(self, user_id: int) -> list[tuple[Any, ...]]:
        """Per game kind: games, wins, average score, games with bots."""

    @abstractmethod
    async def user_think(self, user_id: int) -> tuple[int, float | None]: ...

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
