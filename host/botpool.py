"""Bots' searches in worker processes, off the bot's interpreter (issue 23).

A search (``registry.bot_chooser()``, up to a couple of seconds for a hard bot) run in a
thread of the bot's process holds the interpreter's lock against the event loop: while a
hard bot thinks, every click and every picture handed to a render worker waits its turn. A
:class:`BotPool` runs ``COSMODROME_BOT_WORKERS`` worker processes (one by default) that
only search, forked from the same fork server as the render workers (host/renderpool.py:
the rules and the search engine are imported there once) and started nicer than the render
workers (:data:`NICENESS`): on a busy machine the clicks, then the pictures, get the CPU
first, and a bot thinks with what is left (bots play over days: a bot's move may come a
little later, a click's picture does not).

A search is asked for with plain data: the game's registry key, its stored dump (the
``state`` the move that led to it wrote), the seat, the seed string and the level's budget
(a level name or the engine's ``Budget``); the worker loads the state and runs the same
``choose`` with ``random.Random(seed)``: the same move as the in-thread search for the same
position (tests/host/test_botpool.py checks it for every game and level). At most one search
per worker is handed over at a time (the others wait in the bot's process), so
:data:`TIMEOUT` times a search, not its wait in a queue; a quick move (an easy bot's) may
wait for a hard search to end: more workers, ``COSMODROME_BOT_WORKERS``, search side by
side.

A bot never blocks a game: a worker that dies (killed, out of memory) or hangs (no answer
within :data:`TIMEOUT`) while it searches loses that search, which :meth:`BotPool.choose`
reports by raising :class:`SearchLost` (``Play.bot_pick`` then plays the game's heuristic,
as for any failed search); the workers are replaced for the next search (workers found dead
before a search is handed over, killed while idle, are replaced first: that search is not
lost), and after ``renderpool.GIVE_UP`` breaks in a row the pool is left aside and
searches run in a thread of the bot's process, as with ``COSMODROME_BOT_WORKERS=0``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.contract import Game
from host import registry
from host.renderpool import WorkerPool

log = logging.getLogger(__name__)

#: Seconds a search may take in a worker before the worker is taken for hung (a hard
#: search takes up to about 2 s on an idle core; a nice worker on a busy machine, longer).
TIMEOUT = 60.0

#: How much nicer than the bot the search workers run: more than the render workers
#: (renderpool.NICENESS), so that a search never starves the pictures of a click.
NICENESS = 10

#: Play-outs of the warm-up's searches (a hard budget cut down).
WARM_PLAYOUTS = 2


class SearchLost(Exception):
    """A search's worker died or hung: the bot plays its fallback answer."""


def search(game_id: str, dumped: dict[str, Any], seat: int, seed: str, budget: Any) -> str:
    """A bot's answer, in a worker: the game's state loaded from its dump, searched as
    ``Play.bot_pick`` searches in-process."""
    game = registry.get(game_id)
    choose = registry.bot_chooser()
    return str(choose(game, game.load(dumped), seat, random.Random(seed), budget))


def warm_up() -> None:
    """A worker's start: every game and the search engine imported (they are, in the fork
    server), and one small search of a fresh game of each (its data and caches loaded)."""
    budget = replace(registry.bot_levels()["hard"], playouts=WARM_PLAYOUTS, depth=2)
    for game_id in registry.GAME_MODULES:
        try:
            game = registry.get(game_id)
            state = game.new(game.min_players, {}, 1)
            pending = game.pending(state)
            if pending:
                search(game_id, game.dump(state), pending[0].seat, "warm", budget)
        except Exception:  # a cold start is slower, nothing worse
            log.exception("bot worker: warming up %s failed", game_id)


def start_worker(warm: bool, niceness: int = NICENESS) -> None:
    """A worker's initializer: nicer than the bot and its render workers, then warmed up."""
    with contextlib.suppress(OSError):  # not allowed here: the bot's own priority
        os.nice(niceness)
    if warm:
        warm_up()


class BotPool(WorkerPool):
    """``workers`` worker processes searching bots' moves; see the module's docstring."""

    what = "bot"
    without = "searching in a thread"

    def __init__(self, workers: int, *, warm: bool = True, niceness: int = NICENESS) -> None:
        super().__init__(workers, niceness=niceness, timeout=TIMEOUT)
        self.warm = warm
        #: One search per worker handed over at a time, per event loop (the bot runs one;
        #: a benchmark's hard bot runs its own).
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._slots = weakref.WeakKeyDictionary()
        #: Searches answered by a worker (benchmarks).
        self.searches = 0

    def initializer(self) -> tuple[Callable[..., None], tuple[Any, ...]]:
        return start_worker, (self.warm, self.niceness)

    async def choose(
        self, game_id: str, dumped: dict[str, Any], seat: int, seed: str, budget: Any
    ) -> tuple[bool, str | None]:
        """(searched, answer): searched False when the pool cannot search (never started,
        left aside, closed): the caller searches in-process. :class:`SearchLost` when the
        worker died or hung; the engine's own error is raised as it would be in-process (as a
        ``renderpool.WorkerError`` if it cannot be pickled back)."""
        loop = asyncio.get_running_loop()
        slots = self._slots.setdefault(loop, asyncio.Semaphore(self.workers))
        async with slots:  # one search per worker at a time: the timeout is its own
            status, answer = await self.run(1, search, game_id, dumped, seat, seed, budget)
        if status == "lost":
            raise SearchLost(f"the bot worker searching {game_id} died or hung")
        if status == "done":
            self.searches += 1
            return True, str(answer)
        return False, None


_current: BotPool | None = None


def install(pool: BotPool | None) -> None:
    """Make ``pool`` the one :func:`searcher` returns (None: bots search in-process)."""
    global _current
    _current = pool


def current() -> BotPool | None:
    return _current


def searcher(game: Game, game_id: str, dumped: dict[str, Any] | None) -> BotPool | None:
    """The pool to search ``game`` in, or None (no pool; a game the registry does not know,
    e.g. a test's toy game, or a state with no dump): the caller searches in a thread."""
    pool = _current
    if pool is None or dumped is None or registry.games().get(game_id) is not game:
        return None
    return pool
