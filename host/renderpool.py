"""Pictures drawn in worker processes, on every core (issue 23).

Renderers share their FreeType faces, so one process draws one picture at a time
(``render.kit.LOCK``): with many games clicked at once the bot drew on one core while the
others idled. A :class:`RenderPool` runs ``COSMODROME_RENDER_WORKERS`` worker processes
(one per core by default), never a ``fork`` of the running bot (its threads, sockets and
database connections): they are forked from a fork server, a clean process started once that
imports the renderers (and the rules and the bots' search engine, for the bots' pool) before
any worker exists (:func:`context`), so their modules' memory is shared between the workers
(each worker's own share, PSS, measured 66 MB against 128 MB when each was started afresh
with ``spawn``, which is used where there is no fork server). Each worker warms up once at
start: its fonts loaded and its static layers built by drawing one table and one private
picture of each game. A picture is asked for with plain data (the game id, the view dict,
the names, the language) and comes back as PNG bytes, byte for byte the picture the bot
would draw itself, with its alt text (render/words.py) made in the same job
(:func:`render_described`), so the bot's process does not load the renderers for it.

The delivery is lean (it is paid a click): no executor, no thread in the bot's process. A
job is pickled once and written to a pipe the workers share (a socket pair; the first free
worker takes the oldest job, so the pictures start in the order asked, and no worker idles
while one waits), at most :data:`HANDED` a worker at a time (the others wait in the bot's
process, where one nobody waits for any more, a table drawn ahead and replaced, is dropped
undrawn); each worker sends its results on its own pipe, read by the event loop itself
(``loop.add_reader``): a result wakes the loop once and resolves its caller's future there.

Never a move lost or unshown because of the pool (the move is committed before anything is
drawn anyway): a worker that dies (killed, out of memory) ends its pipe, and one that hangs
(no picture within :data:`TIMEOUT`) is killed; the workers are replaced by fresh ones (the
jobs still in their pipe, never taken, go to the fresh ones as they were) and a picture
whose worker was lost is asked for again, once; should that fail too, or should no worker
start, the picture is drawn in the bot's own process, in a thread, as with
``COSMODROME_RENDER_WORKERS=0``. After :data:`GIVE_UP` breaks in a row with no picture drawn
between them the pool is left aside for good and every picture is drawn in-process.

The pool in use is process-wide (:func:`install`, :func:`current`): the bot starts one in
its ``setup_hook`` and closes it in ``close``; :func:`render_described` is what the cogs
call. :class:`WorkerPool` is the same machinery (start, replace, give up, time out) on a
``ProcessPoolExecutor``, which the bots' search pool (host/botpool.py) uses: a search is
seconds long and rare, its delivery's cost nothing to it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import cProfile
import itertools
import logging
import multiprocessing
import multiprocessing.util
import os
import pickle
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from host import registry
from host.renderpipes import Job, Lost, Off, Workers, call
from host.renderpipes import WorkerError as WorkerError

log = logging.getLogger(__name__)

#: Breaks in a row (no picture drawn in between) after which the pool is left aside.
GIVE_UP = 3

#: Seconds a picture may take, queued and drawn, before its workers are taken for hung:
#: they are killed and replaced, and the picture asked for again (once). (The render pool
#: counts from when the job is handed to its workers: see HANDED.)
TIMEOUT = 60.0

#: How much nicer than the bot the workers run: with every core drawing, the event loop
#: still gets the CPU first, so clicks are acknowledged at once (a picture waits a little).
NICENESS = 5

#: Seconds closing a pool waits for a call being run (a picture, a bot's search: a couple
#: of seconds at most) before its worker is killed.
CLOSE_GRACE = 10.0

Picture = bytes | None


def draw(kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str) -> Picture:
    """A table (``kind`` "table") or a seat's private picture ("private"), as PNG bytes (a
    private picture may be None: the game has none to show). Runs in a worker."""
    if PROFILE_ENV in os.environ:  # a bench profiles what the workers do
        job = (kind, game_id, view, names, lang)
        with open(os.path.join(os.environ[PROFILE_ENV], f"{os.getpid()}.jobs"), "ab") as f:
            pickle.dump(job, f)
        return _profiler().runcall(_draw, *job)
    return _draw(kind, game_id, view, names, lang)


#: A folder in the environment (bench-only): each worker profiles the pictures it draws
#: (cProfile, CPU time) and leaves there the profile at exit, ``<pid>.prof``, and the
#: pictures asked for, in order, ``<pid>.jobs`` (pickled; ``bench.render --jobs`` replays).
PROFILE_ENV = "COSMODROME_RENDER_PROFILE"
_profile: cProfile.Profile | None = None


def _profiler() -> cProfile.Profile:
    global _profile
    if _profile is None:
        _profile = cProfile.Profile(time.process_time)
        path = os.path.join(os.environ[PROFILE_ENV], f"{os.getpid()}.prof")
        multiprocessing.util.Finalize(None, _profile.dump_stats, (path,), exitpriority=10)
    return _profile


def _draw(kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str) -> Picture:
    renderer = registry.renderer(game_id)
    if kind == "table":
        data: Picture = renderer.render_table(view, names, lang)
    else:
        data = renderer.render_private(view, names, lang)
    return data


#: A picture, its alt text ("" when it has none) and, when describing it failed, why
#: (the traceback, logged by the bot: the picture goes out without a text).
Described = tuple[Picture, str, str | None]


def describe(kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """A picture's alt text (``kind``: "table" or "private"), from the view it is drawn
    from (the game's ``describe_table`` / ``describe_private``, render/words.py), cut to
    Discord's 1,024 characters. Raises what the game's function raises."""
    text = getattr(registry.renderer(game_id), f"describe_{kind}")(view, names, lang)
    return str(text)[:1024]


#: What makes a picture's alt text: ``words(kind, game_id, view, names, lang)``.
Words = Callable[[str, str, dict[str, Any], list[str], str], str]


def described(
    local: Callable[..., Picture],
    kind: str,
    game_id: str,
    view: dict[str, Any],
    names: list[str],
    lang: str,
    words: Words | None = None,
) -> Described:
    """``local(game_id, view, names, lang)``'s picture and its alt text (none for no
    picture), made by ``words`` (default :func:`describe`); a text that cannot be made is
    left out, and why is returned, never raised."""
    data = local(game_id, view, names, lang)
    if data is None:
        return None, "", None
    try:
        return data, (words or describe)(kind, game_id, view, names, lang), None
    except Exception:
        return data, "", traceback.format_exc()


def draw_described(
    kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str
) -> Described:
    """:func:`draw` and the picture's alt text, in one job: what a worker does for the bot
    (whose process then needs no renderer, not even for the words)."""
    return described(lambda *args: draw(kind, *args), kind, game_id, view, names, lang)


def warm_up() -> None:
    """A worker's start: import every renderer, load its fonts and build its static layers
    (drawing one table and one private picture of a fresh game of each, with their alt
    texts, in both languages: the strings they use are compiled once, here)."""
    for game_id in registry.GAME_MODULES:
        try:
            game = registry.get(game_id)
            players = game.min_players
            state = game.new(players, {}, 1)
            names = [f"P{i + 1}" for i in range(players)]
            table, private = game.view(state, None), {**game.view(state, 0), "seat": 0}
            _draw("table", game_id, table, names, "en")  # not profiled (bench-only hook)
            _draw("private", game_id, private, names, "en")
            for lang in ("en", "es"):  # the alt texts, as the bot asks for them
                describe("table", game_id, table, names, lang)
                describe("private", game_id, private, names, lang)
        except Exception:  # a cold start is slower, nothing worse
            log.exception("render worker: warming up %s failed", game_id)


def context() -> multiprocessing.context.BaseContext:
    """The fork server (where there is one) with the renderers, the rules and the bots'
    search engine imported once (the render and bot pools fork from the same server), else
    spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    # (only read when the fork server starts: the first pool of the process)
    modules = [f"render.{game_id}" for game_id in registry.GAME_MODULES]
    rules = [*registry.GAME_MODULES.values(), registry.SEARCH_MODULE]
    ctx.set_forkserver_preload(["__main__", __name__, *modules, *rules])
    return ctx


def start_worker(warm: bool, niceness: int = NICENESS) -> None:
    """A worker's initializer: nicer than the bot, then warmed up."""
    with contextlib.suppress(OSError):  # not allowed here: the bot's own priority
        os.nice(niceness)
    if warm:
        warm_up()


def kill_workers(executor: Executor) -> None:
    """Kill an executor's worker processes (its manager thread then marks it broken and
    fails what they were running)."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()


def worker_pid() -> int:
    """The worker's process id (tests kill one)."""
    return os.getpid()


class PoolBase:
    """What both pools keep alike: their settings, their state seen by the callers
    (``replaced``, ``broken``, ``closed``) and the count of breaks in a row that leaves a
    pool aside after :data:`GIVE_UP` (:meth:`_broke`). Subclasses say how a worker starts
    (:meth:`initializer`)."""

    #: What the workers do, in log lines.
    what = "worker"
    #: What the callers do when the pool cannot, in log lines.
    without = "working in-process"

    def __init__(self, workers: int, *, niceness: int, timeout: float) -> None:
        if workers < 1:
            raise ValueError(f"a {self.what} pool needs at least one worker")
        self.workers = workers
        self.timeout = timeout
        self.niceness = niceness
        #: Workers replaced after one died or hung; breaks in a row with no answer between.
        self.replaced = 0
        self._breaks = 0
        #: Left aside (see GIVE_UP), or never started: the callers do without.
        self.broken = False
        self.closed = False
        #: Seconds ``close`` waits for a call being run before killing its worker.
        self.close_grace = CLOSE_GRACE

    def initializer(self) -> tuple[Callable[..., None], tuple[Any, ...]]:
        """A worker's initializer and its arguments."""
        raise NotImplementedError

    def _broke(self) -> bool:
        """One more break in a row: whether fresh workers are to be started (counted and
        logged); else :data:`GIVE_UP` breaks came in a row and the pool is left aside
        (:meth:`_give_up`)."""
        self._breaks += 1
        if self._breaks >= GIVE_UP:
            self._give_up()
            return False
        log.warning("%s pool: a worker died; starting fresh workers", self.what)
        self.replaced += 1
        return True

    def _give_up(self) -> None:
        """:data:`GIVE_UP` breaks in a row: the pool is left aside (for good here; the bots'
        pool tries fresh workers again after a cool-down, host/botpool.py)."""
        log.error("%s pool: %d breaks in a row; %s", self.what, self._breaks, self.without)
        self.broken = True


class WorkerPool(PoolBase):
    """``workers`` worker processes forked from the fork server (:func:`context`), asked
    for plain data through a ``ProcessPoolExecutor``: the bots' pool's machinery
    (host/botpool.py; the render pool, :class:`RenderPool`, keeps the same promises with
    pipes of its own, host/renderpipes.py). A worker that dies breaks the executor, and
    one that hangs (no answer within ``timeout``) is killed; the executor is then replaced
    by a fresh one, unless :data:`GIVE_UP` breaks came in a row with no answer between
    them: the pool is then left aside (``broken``; for good, unless a subclass tries again:
    :meth:`_give_up`). Subclasses say how a worker starts (:meth:`initializer`)."""

    def __init__(self, workers: int, *, niceness: int, timeout: float) -> None:
        super().__init__(workers, niceness=niceness, timeout=timeout)
        self._executor: ProcessPoolExecutor | None = None
        self._warming: list[Future[Any]] = []

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers (they warm up in the background; see :meth:`ready`)."""
        self._executor = self._new()

    def _new(self) -> ProcessPoolExecutor | None:
        initializer, initargs = self.initializer()
        try:
            executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context(),
                initializer=initializer,
                initargs=initargs,
            )
            # Every worker starts at the first task (and runs its warm-up then): one small
            # task per worker starts them now rather than at the first call.
            self._warming = [executor.submit(worker_pid) for _ in range(self.workers)]
        except (OSError, RuntimeError) as err:
            log.error("%s pool: cannot start workers (%r); %s", self.what, err, self.without)
            self.broken = True
            return None
        return executor

    async def ready(self) -> None:
        """Wait until the workers have started and warmed up (benchmarks, tests)."""
        for fut in list(self._warming):
            try:
                await asyncio.wrap_future(fut)
            except Exception:  # a worker that died is replaced at the next call
                return

    async def pids(self) -> set[int]:
        """The workers' process ids."""
        executor = self._executor
        if executor is None:
            return set()
        await self.ready()
        procs = getattr(executor, "_processes", None) or {}
        return set(procs)

    async def close(self) -> None:
        """Stop the workers (a call being run is finished first, within
        :data:`CLOSE_GRACE` seconds, else its worker is killed: a hung worker must not keep
        the bot from stopping; queued calls are cancelled and their callers do without the
        pool)."""
        self.closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        stopping = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        try:
            await asyncio.wait_for(asyncio.shield(stopping), self.close_grace)
        except TimeoutError:
            log.warning("%s pool: a worker still busy at close; killed", self.what)
            kill_workers(executor)
            await stopping

    def _replace(self, broken: Executor) -> None:
        """A worker died: a fresh executor, unless another caller replaced it already."""
        if self._executor is not broken or self.closed:
            return
        kill_workers(broken)  # a hung worker would never end by itself
        broken.shutdown(wait=False, cancel_futures=True)
        if not self._broke():
            self._executor = None
            return
        self._executor = self._new()

    # -- calls -------------------------------------------------------------------------------

    async def run(self, tries: int, fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
        """``fn(*args)`` in a worker: ("done", its result); ("off", None) when there was no
        worker to ask (never started, left aside, closed); ("lost", None) when the workers
        died or hung at each of ``tries`` attempts (each on fresh workers). Workers found
        dead before the call is handed over (a worker killed while idle) cost no attempt:
        the call goes to fresh workers. An error of ``fn`` itself is raised as it would be
        in-process (as a :class:`WorkerError` if it cannot be sent back: see :func:`call`)."""
        loop = asyncio.get_running_loop()
        status = "off"
        while tries > 0:
            executor = self._executor
            if executor is None or self.broken or self.closed:
                break
            try:
                handed = loop.run_in_executor(executor, call, fn, *args)
            except BrokenProcessPool:  # died before this call: not its attempt
                self._replace(executor)
                continue
            except RuntimeError:  # shut down meanwhile (the bot is closing)
                break
            tries -= 1
            try:
                result = await asyncio.wait_for(handed, self.timeout)
            except (BrokenProcessPool, TimeoutError):  # a worker died, or hangs
                self._replace(executor)
                status = "lost"
                continue
            except RuntimeError:  # shut down meanwhile (the bot is closing)
                break
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self.closed and task is not None and not task.cancelling():
                    break  # cancelled by the pool's shutdown, not the caller
                raise
            self._breaks = 0
            return "done", result
        return status, None


#: Jobs handed to the workers at a time, a worker: one drawn, one waiting in the pipe
#: (taken the moment the worker is free, whatever the event loop is busy with). The
#: others wait in the bot's process, where a job nobody waits for any more is dropped.
HANDED = 2


class RenderPool(PoolBase):
    """``workers`` worker processes drawing pictures; see the module's docstring. The same
    promises as :class:`WorkerPool` (start, ready, replace, give up, time out, close), with
    a leaner delivery than an executor's: a job is pickled once and written to a pipe the
    workers share (the first free worker takes the oldest job), and its result comes back
    on the worker's own pipe, read by the event loop itself."""

    what = "render"
    without = "drawing in-process"

    def __init__(self, workers: int, *, warm: bool = True, niceness: int = NICENESS) -> None:
        super().__init__(workers, niceness=niceness, timeout=TIMEOUT)
        self.warm = warm
        self._workers: Workers | None = None
        #: Jobs not handed to the workers yet, oldest first.
        self._queue: collections.deque[Job] = collections.deque()
        self._ids = itertools.count(1)
        #: The one timer that finds hung workers (:meth:`_watch`).
        self._watcher: asyncio.TimerHandle | None = None

    def initializer(self) -> tuple[Callable[..., None], tuple[Any, ...]]:
        """A worker's initializer and its arguments."""
        return start_worker, (self.warm, self.niceness)

    # -- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers (they warm up in the background; see :meth:`ready`)."""
        self._workers = self._spawn()

    def _spawn(self) -> Workers | None:
        try:
            loop, (initializer, initargs) = asyncio.get_running_loop(), self.initializer()
            return Workers(self, loop, context(), initializer, initargs)
        except Exception as err:  # (any: a fork server gone reads as an EOFError; raised in
            # a reader's callback, it would leave dead workers in place and every job waiting)
            log.error("%s pool: cannot start workers (%r); %s", self.what, err, self.without)
            self.broken = True
            return None

    async def ready(self) -> None:
        """Wait until the workers have started and warmed up (benchmarks, tests)."""
        workers = self._workers
        if workers is not None:
            await asyncio.wait([workers.started])

    async def pids(self) -> set[int]:
        """The workers' process ids."""
        await self.ready()
        return set() if self._workers is None else self._workers.pids()

    async def close(self) -> None:
        """Stop the workers (a call being run is finished first, within
        :data:`CLOSE_GRACE` seconds, else its worker is killed: a hung worker must not keep
        the bot from stopping; queued calls are cancelled and their callers do without the
        pool)."""
        self.closed = True
        self._drop_queue()
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        workers, self._workers = self._workers, None
        if workers is not None and not await workers.stop(self.close_grace):
            log.warning("%s pool: a worker still busy at close; killed", self.what)

    def _drop_queue(self) -> None:
        while self._queue:
            job = self._queue.popleft()
            if not job.future.done():
                job.future.set_exception(Off())

    def died(self, workers: Workers) -> None:
        """A worker's pipe ended: it died (or its workers are being stopped)."""
        if workers is self._workers:
            self._replace(workers)

    def _replace(self, broken: Workers) -> None:
        """A worker died or hangs: fresh workers (unless the pool has had enough), the
        jobs never taken handed to them as they were, the ones taken lost: asked again
        (while they have tries left) before the younger ones, oldest first."""
        if broken is not self._workers or self.closed:
            return
        untaken, lost = broken.wreck()
        again = []
        for job in lost:
            job.tries -= 1
            if job.future.done():
                continue
            if job.tries > 0:
                again.append(job)
            else:
                job.future.set_exception(Lost())
        self._queue.extendleft(reversed([*again, *untaken]))
        if not self._broke():
            self._workers = None
            self._drop_queue()
            return
        self._workers = self._spawn()
        if self._workers is None:
            self._drop_queue()
        self.pump()

    def answered(self) -> None:
        self._breaks = 0

    # -- calls -------------------------------------------------------------------------------

    def _submit(self, fn: Callable[..., Any], args: tuple[Any, ...], tries: int) -> Job:
        """Queue a call (handed to the workers at once if they have room)."""
        future = asyncio.get_running_loop().create_future()
        job = Job(next(self._ids), fn, args, future, tries)
        self._queue.append(job)
        self.pump()
        return job

    def pump(self) -> None:
        """Hand the oldest jobs to the workers, up to :data:`HANDED` a worker."""
        workers = self._workers
        if workers is None or workers.dead:
            return
        room = HANDED * self.workers - len(workers.handed)
        while room > 0 and self._queue:
            job = self._queue.popleft()
            if job.future.done():  # (its caller stopped waiting)
                continue
            try:
                payload = pickle.dumps((job.id, job.fn, job.args), pickle.HIGHEST_PROTOCOL)
            except Exception as err:
                job.future.set_exception(err)
                continue
            workers.hand(job, payload)
            room -= 1
        if self._watcher is None and workers.handed:
            self._watch_from(next(iter(workers.handed.values())))

    def _watch_from(self, oldest: Job) -> None:
        deadline = oldest.handed + self.timeout
        self._watcher = asyncio.get_running_loop().call_at(deadline, self._watch)

    def _watch(self) -> None:
        """Hung workers: the oldest job handed to them unanswered for :attr:`timeout`
        seconds (one timer, set for that job, not one a call). They are killed and
        replaced; the jobs they had taken are lost (and asked again, once)."""
        self._watcher = None
        workers = self._workers
        if workers is None or workers.dead or not workers.handed:
            return
        oldest = next(iter(workers.handed.values()))
        if workers.loop.time() < oldest.handed + self.timeout:
            self._watch_from(oldest)
            return
        self._replace(workers)  # (which hands the jobs left to fresh workers, and watches)

    async def run(self, tries: int, fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
        """``fn(*args)`` in a worker: ("done", its result); ("off", None) when there was no
        worker to ask (never started, left aside, closed); ("lost", None) when the workers
        died or hung at each of ``tries`` attempts (each on fresh workers). A call its
        workers never took (they died first) costs no attempt: it goes to the fresh workers.
        An error of ``fn`` itself is raised as it would be in-process (as a
        :class:`WorkerError` if it cannot be sent back: see :func:`call`)."""
        if tries < 1 or self._workers is None or self.broken or self.closed:
            return "off", None
        job = self._submit(fn, args, tries)
        try:
            ok, value = await job.future
        except Lost:  # its workers died, or hung (see _watch), at each try
            return "lost", None
        except Off:  # (closed, or left aside: after a try lost, it counts as lost)
            return "lost" if job.tries < tries else "off", None
        if ok:
            return "done", value
        raise value

    async def draw(
        self, kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str
    ) -> tuple[bool, Picture]:
        """(drawn, picture): drawn False when the pool could not draw it (broken, closed,
        a worker died twice): the caller draws it in-process. A renderer's own error is
        raised as it would be in-process."""
        status, data = await self.run(2, draw, kind, game_id, view, names, lang)
        return status == "done", data

    async def draw_described(
        self, kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str
    ) -> tuple[bool, Described]:
        """:meth:`draw`, the picture coming back with its alt text
        (:func:`draw_described`)."""
        status, out = await self.run(2, draw_described, kind, game_id, view, names, lang)
        return status == "done", out if status == "done" else (None, "", None)


_current: RenderPool | None = None


def install(pool: RenderPool | None) -> None:
    """Make ``pool`` the one :func:`render_described` uses (None: draw in-process)."""
    global _current
    _current = pool


def current() -> RenderPool | None:
    return _current


async def render_described(
    local: Callable[..., Picture],
    kind: str,
    game_id: str,
    view: dict[str, Any],
    names: list[str],
    lang: str,
    words: Words | None = None,
) -> tuple[Picture, str]:
    """A picture through the pool in use, or ``local(game_id, view, names, lang)`` in a
    thread when there is none or it cannot draw it, with its alt text ("" for none) made
    where the picture is drawn: in a worker (by :func:`describe`), or in the thread drawing
    it in-process (by ``words``, default :func:`describe`). A text that could not be made
    is logged and left out (it never fails a post)."""
    pool = _current
    out: Described | None = None
    if pool is not None:
        drawn, got = await pool.draw_described(kind, game_id, view, names, lang)
        if drawn:
            out = got
    if out is None:
        out = await asyncio.to_thread(described, local, kind, game_id, view, names, lang, words)
    data, text, problem = out
    if problem is not None:
        log.error("describing the %s picture of %s\n%s", kind, game_id, problem)
    return data, text
