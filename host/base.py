"""What every part of :class:`host.sessions.Host` stands on: the store, the clock, the
seeds, the games and the locks, and loading a game into a :class:`Snapshot`."""

from __future__ import annotations

import marshal
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from core.contract import Game, standing_of
from host import registry
from host.clock import Clock
from host.locks import KeyedLocks
from host.records import HostError, Player, Snapshot
from host.storage import GameRow, Loaded, Storage
from host.store_api import PublishRead

#: Games whose last loaded state is kept (the games being played now; issue 23).
LOADS_KEPT = 512


class Loads:
    """The states last loaded, a few hundred games' (least recently used dropped): a game's
    ``load`` (a private copy of the stored data, checked entry by entry) is a pure function
    of that data, so stored data equal byte for byte (as :mod:`marshal` writes it: types
    told apart) gives the state loaded before, as a fresh copy. A click reads its game
    three or four times (its checks, its move, its table, its pings) at two versions: most
    loads become a copy. States :mod:`marshal` cannot write (not plain data) are loaded
    every time. A state kept is told apart by its game's id, the ``Game`` object whose
    ``load`` made it (another object, e.g. a host given other games, loads afresh) and the
    stored data; the copy is exact for plain data (dicts keep their order; the engines'
    states hold only dicts, lists, strings, numbers, booleans and None: tests/host/
    test_loads.py walks them), but :mod:`marshal` writes a bytearray as bytes and a set's
    order is rebuilt, so a state holding those would need another copy.
    Used from the event loop only."""

    def __init__(self, size: int = LOADS_KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[int, tuple[Game, str, bytes, bytes]] = OrderedDict()

    def load(self, game_id: int, game: Game, kind: str, data: Mapping[str, Any]) -> Any:
        """``game.load(data)``, or a copy of the same state loaded before."""
        try:
            raw = marshal.dumps(data)  # type: ignore[arg-type]
        except ValueError:  # not plain data (marshal takes builtin types only)
            return game.load(data)
        kept = self._kept.get(game_id)
        if kept is not None and kept[0] is game and kept[1] == kind and kept[2] == raw:
            self._kept.move_to_end(game_id)
            return marshal.loads(kept[3])
        state = game.load(data)
        try:
            self._kept[game_id] = (game, kind, raw, marshal.dumps(state))
        except ValueError:
            self._kept.pop(game_id, None)
            return state
        self._kept.move_to_end(game_id)
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return state


def _check_id(game_id: int) -> None:
    """An id no database integer can hold (a forged custom_id) names no game."""
    if not -(2**63) <= game_id < 2**63:
        raise HostError("host.error.no_game")


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
        #: The states last loaded (see :class:`Loads`).
        self.loads = Loads()

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
            snap.state = self.loads.load(row.id, game, row.game, row.state)
            if row.status == "active":
                snap.decisions = game.pending(snap.state)
                snap.standing = standing_of(game, snap.state)
            snap.moves_by_seat = loaded.moves_by_seat
        return snap

    async def by_id(self, game_id: int) -> Snapshot:
        """The game, read in one statement (see :meth:`Storage.load`). An id no database
        integer can hold (a forged custom_id) names no game either."""
        _check_id(game_id)
        async with self.store.reading():
            loaded = await self.store.load(game_id)
        return self._found(loaded)

    async def for_publish(self, game_id: int, limit: int) -> tuple[Snapshot, PublishRead]:
        """The game (as :meth:`by_id` reads it) and what else a publish reads first
        (:meth:`Storage.for_publish`: its DM panels, its last ``limit`` live actions, its
        people's settings), read together (one trip to SQLite's thread)."""
        _check_id(game_id)
        read = await self.store.for_publish(game_id, limit)
        return self._found(read.loaded), read

    async def in_channel(self, channel_id: int) -> Snapshot:
        async with self.store.reading():
            loaded = await self.store.load(channel=channel_id)
        return self._found(loaded)

    def _found(self, loaded: Loaded | None) -> Snapshot:
        """The game read, or the player told there is none."""
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
