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

A bot never blocks a game: a worker that dies (killed, out of memory) or hangs while it
searches loses that search, which :meth:`BotPool.choose` reports by raising
:class:`SearchLost` (``Play.bot_pick`` then plays the game's heuristic, as for any failed
search); the workers are replaced for the next search (workers found dead before a search is
handed over, killed while idle, are replaced first: that search is not lost).

A hang is counted in the worker's CPU time, not the wall clock's: a nice worker on a busy
machine may take minutes of wall clock for a legitimate hard search that uses seconds of
CPU. Around each call the worker arms a CPU-time timer (``setitimer(ITIMER_PROF)``, user and
system time of the worker) of :data:`TIMEOUT` seconds, disarmed when the call returns; should
it ring, the kernel ends the worker (SIGPROF's default action, wherever the search is stuck,
even in C), which reads as a worker that died. A worker stuck without using any CPU (stopped,
waiting on a lock) is caught by a wall-clock backstop, :data:`BACKSTOP`. Where there is no
such timer (no ``signal.setitimer``: Windows), :data:`TIMEOUT` is a
wall-clock limit, as it was.

After ``renderpool.GIVE_UP`` breaks in a row the pool is left aside and searches run in a
thread of the bot's process, as with ``COSMODROME_BOT_WORKERS=0``, but not for good: after
:data:`COOL_DOWN` seconds (the house's clock, host/clock.py) the next search starts fresh
workers, on probation: should they break before answering once, the pool is left aside
again, for twice as long (up to :data:`MAX_COOL_DOWN`); an answer brings the cool-down back to
:data:`COOL_DOWN`. Workers that cannot be started at all are tried again the same way. Each
setting aside and each new try is logged once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from core.contract import Game
from host import registry
from host.clock import Clock
from host.renderpool import GIVE_UP, WorkerPool

log = logging.getLogger(__name__)

#: Seconds of CPU a search may use in a worker before the worker is taken for hung and
#: ended (a hard search uses up to about 2 s): wall-clock seconds where the workers cannot
#: time their CPU (see :data:`CPU_TIMED`).
TIMEOUT = 60.0

#: Wall-clock seconds a search may take in a worker whose CPU is timed, before the worker is
#: taken for hung: one stuck without using any CPU (a nice worker on a busy machine takes
#: longer than on an idle one, not ten minutes for a couple of seconds of CPU).
BACKSTOP = 600.0

#: Whether the workers can time a call's CPU (an ``ITIMER_PROF`` timer, ending the worker
#: by SIGPROF): Linux and the other Unixes.
CPU_TIMED = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")

#: Seconds a pool left aside (``renderpool.GIVE_UP`` breaks in a row) waits before fresh
#: workers are tried; doubled each time they break again before answering, up to
#: :data:`MAX_COOL_DOWN`.
COOL_DOWN = 600.0
MAX_COOL_DOWN = 3600.0

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


def timed(cpu: float | None, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker, which the kernel ends (SIGPROF) should the call use more
    than ``cpu`` seconds of the worker's CPU (None: no limit here)."""
    if cpu is None:
        return fn(*args)
    signal.setitimer(signal.ITIMER_PROF, cpu)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def start_worker(warm: bool, niceness: int = NICENESS) -> None:
    """A worker's initializer: nicer than the bot and its render workers, SIGPROF ending it
    (:func:`timed`), then warmed up."""
    with contextlib.suppress(OSError):  # not allowed here: the bot's own priority
        os.nice(niceness)
    if CPU_TIMED:  # (its default action; set again, whatever the fork server inherited)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
    if warm:
        warm_up()


class BotPool(WorkerPool):
    """``workers`` worker processes searching bots' moves; see the module's docstring."""

    what = "bot"
    without = "searching in a thread"

    def __init__(
        self,
        workers: int,
        *,
        warm: bool = True,
        niceness: int = NICENESS,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(workers, niceness=niceness, timeout=BACKSTOP if CPU_TIMED else TIMEOUT)
        #: CPU seconds a call may use in a worker (None: not timed there; see ``timeout``).
        self.cpu_timeout: float | None = TIMEOUT if CPU_TIMED else None
        self.warm = warm
        self.clock = clock or Clock()
        #: When fresh workers are tried again (None: not left aside), and the next cool-down.
        self.retry_at: float | None = None
        self.cool_down = COOL_DOWN
        #: Fresh workers after a cool-down, not answered yet: one break sets them aside.
        self._probation = False
        #: One search per worker handed over at a time, per event loop (the bot runs one;
        #: a benchmark's hard bot runs its own).
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._slots = weakref.WeakKeyDictionary()
        #: Searches answered by a worker (benchmarks).
        self.searches = 0

    def initializer(self) -> tuple[Callable[..., None], tuple[Any, ...]]:
        return start_worker, (self.warm, self.niceness)

    # -- left aside, for a while ----------------------------------------------------------

    def _new(self) -> ProcessPoolExecutor | None:
        executor = super()._new()
        if executor is None and not self.closed:  # (logged): tried again after a cool-down
            self._aside()
        return executor

    def _give_up(self) -> None:
        why = "its fresh workers broke" if self._probation else f"{self._breaks} breaks in a row"
        log.error("%s pool: %s; %s for %d s", self.what, why, self.without, self.cool_down)
        self.broken = True
        self._aside()

    def _aside(self) -> None:
        self.retry_at = self.clock.now() + self.cool_down
        self.cool_down = min(self.cool_down * 2, MAX_COOL_DOWN)
        self._probation = False

    def _revive(self) -> None:
        """Left aside and the cool-down over: fresh workers, on probation."""
        if not self.broken or self.closed or self.retry_at is None:
            return
        if self.clock.now() < self.retry_at:
            return
        log.warning("%s pool: the cool-down over; trying fresh workers", self.what)
        self.retry_at = None
        self.broken = False
        self._breaks = GIVE_UP - 1  # one more break before an answer: aside again
        self._probation = True
        self._executor = self._new()

    async def run(self, tries: int, fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
        """``WorkerPool.run``, the call timed in the worker's CPU (:func:`timed`), after
        fresh workers are tried again if the pool was left aside long enough."""
        self._revive()
        status, result = await super().run(tries, timed, self.cpu_timeout, fn, *args)
        if status == "done":
            self.cool_down, self._probation = COOL_DOWN, False
        return status, result

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
