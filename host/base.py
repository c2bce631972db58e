"""What every part of :class:`host.sessions.Host` stands on: the store, the clock, the
seeds, the games and the locks, and loading a game into a :class:`Snapshot`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.contract import Game, standing_of
from host import registry
from host.clock import Clock
from host.locks import KeyedLocks
from host.records import HostError, Player, Snapshot
from host.storage import ActionRow, GameRow, Loaded, Storage


class HostBase:
    """The host's ground: what it works with, and reading a game (never writing one)."""

    def __init__(
        self,
        store: Storage,
        clock: Clock | None = None,
        seeds: random.Random | None = None,
        games: Callable[[], dict[str, Game]] = registry.games,
        chooser: registry.Chooser | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or Clock()
        self.seeds = seeds or random.SystemRandom()
        self._games = games
        #: How bots pick (default: the search engine, ``registry.bot_chooser()``).
        self._chooser = chooser
        #: Test-only: what a level name stands for when handed to the chooser (e.g. a
        #: smaller budget of the engine); levels not listed are passed by name.
        self.bot_budgets: dict[str, Any] = {}
        # One game at a time in this process, and across processes where the store can.
        self.locks = KeyedLocks(across=store.lock_game)

    def game(self, game_id: str) -> Game:
        try:
            return self._games()[game_id]
        except KeyError:
            raise HostError("host.error.unknown_game", game=game_id) from None

    # -- loading ------------------------------------------------------------------------

    async def snapshot(self, row: GameRow) -> Snapshot:
        """The game of ``row`` with its seats and derived facts. Seats and move counts are
        read again here, consistently (never in the middle of another task's write)."""
        async with self.store.reading():
            loaded = await self.store.load(row.id)
        if loaded is None:
            loaded = Loaded(row, await self.store.seats(row.id), {}, {}, {})
        return self._load(loaded)

    def _load(self, loaded: Loaded) -> Snapshot:
        row = loaded.row
        game = self.game(row.game)
        snap = Snapshot(row=row, seats=loaded.seats, game=game, waits=loaded.waits)
        snap.timers = loaded.timers
        if row.state is not None:
            snap.state = game.load(row.state)
            if row.status == "active":
                snap.decisions = game.pending(snap.state)
                snap.standing = standing_of(game, snap.state)
            snap.moves_by_seat = loaded.moves_by_seat
        return snap

    async def by_id(self, game_id: int) -> Snapshot:
        """The game, read in one statement (see :meth:`Storage.load`). An id no database
        integer can hold (a forged custom_id) names no game either."""
        if not -(2**63) <= game_id < 2**63:
            raise HostError("host.error.no_game")
        async with self.store.reading():
            loaded = await self.store.load(game_id)
        if loaded is None:
            raise HostError("host.error.no_game")
        return self._load(loaded)

    async def for_publish(
        self, game_id: int, limit: int
    ) -> tuple[Snapshot, dict[int, tuple[str, int | None, int | None]], list[ActionRow]]:
        """The game (as :meth:`by_id` reads it), its DM panels and its last ``limit`` live
        actions, read together (one trip to SQLite's thread: what a publish reads first)."""
        if not -(2**63) <= game_id < 2**63:
            raise HostError("host.error.no_game")
        loaded, panels, recent = await self.store.for_publish(game_id, limit)
        if loaded is None:
            raise HostError("host.error.no_game")
        return self._load(loaded), panels, recent

    async def in_channel(self, channel_id: int) -> Snapshot:
        async with self.store.reading():
            loaded = await self.store.load(channel=channel_id)
        if loaded is None:
            raise HostError("host.error.no_game")
        return self._load(loaded)

    async def _active(self, game_id: int) -> Snapshot:
        """The game, refused unless it is being played (a lobby, or over)."""
        snap = await self.by_id(game_id)
        if snap.row.status != "active":
            raise HostError("host.error.game_over")
        return snap

    @staticmethod
    def _player_seat(snap: Snapshot, who: Player) -> int:
        """``who``'s own seat, refused if they have none."""
        seat = snap.seat_of(who.user_id)
        if seat is None:
            raise HostError("host.error.not_a_player")
        return seat
