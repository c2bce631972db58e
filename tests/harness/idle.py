"""Deciding that the bot is idle without sleeping on the wall clock.

The bot is idle when the event loop has nothing runnable: no ready callbacks (on uvloop,
whose queue is out of sight, every ``call_soon`` not yet run is counted, see
:meth:`ThreadWork.soon_pending`), no timer that is already due (asyncio's loop only), and
no work out in another thread (``loop.run_in_executor`` / ``asyncio.to_thread`` and
aiosqlite's worker threads are counted while they run). Tasks that wait on a future timer
(``asyncio.sleep(60)``, a view timeout, ``delete_after``) or on an event nobody will set do
not keep the bot busy: the harness never advances the clock.

Errors the bot logs while handling events (discord.py logs every exception swallowed in an
event handler, command, view or dynamic item) are captured by :class:`ErrorCapture`.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import logging
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["THREAD_WORK", "CapturedError", "ErrorCapture", "ThreadWork", "loop_is_quiet"]


_INHERITED = object()  # (a patched attribute the class did not define itself)


class ThreadWork:
    """How many pieces of work each event loop has handed to other threads and not yet got
    back (counted per loop, so a previous test's leftovers never block this one)."""

    def __init__(self) -> None:
        self._pending: dict[asyncio.AbstractEventLoop, int] = {}
        self._waiters: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        self._depth = 0
        self._saved: list[tuple[Any, str, Any]] = []
        self._lock = threading.Lock()
        #: uvloop's callbacks scheduled by ``call_soon`` and not yet run, by loop.
        self._soon: dict[asyncio.AbstractEventLoop, dict[object, asyncio.Handle]] = {}

    @property
    def pending(self) -> int:
        """Pending thread work of the running loop (0 outside a loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return 0
        return self._pending.get(loop, 0)

    def begin(self, loop: asyncio.AbstractEventLoop) -> None:
        self._pending[loop] = self._pending.get(loop, 0) + 1

    def end(self, loop: asyncio.AbstractEventLoop) -> None:
        left = self._pending.get(loop, 0) - 1
        if left > 0:
            self._pending[loop] = left
            return
        self._pending.pop(loop, None)
        for waiter in self._waiters.pop(loop, []):
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self) -> None:
        """Wait (on a future, not a clock) until the running loop has no thread work."""
        loop = asyncio.get_running_loop()
        if not self._pending.get(loop):
            return
        waiter = loop.create_future()
        self._waiters.setdefault(loop, []).append(waiter)
        await waiter

    def soon_pending(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether ``loop`` (uvloop's) has a callback of ``call_soon`` not yet run nor
        cancelled: a future's done callbacks (``asyncio.gather``'s, a chain of plain
        callbacks) that wake no task until they run."""
        pending = self._soon.get(loop)
        if not pending:
            return False
        for token, handle in list(pending.items()):
            if handle.cancelled():
                pending.pop(token, None)
        return bool(pending)

    # -- patching ------------------------------------------------------------------------

    def install(self) -> None:
        with self._lock:
            self._depth += 1
            if self._depth > 1:
                return
            self._patch_executor()
            self._patch_aiosqlite()
            self._patch_render_pool()
            self._patch_uvloop_soon()

    def uninstall(self) -> None:
        with self._lock:
            if self._depth == 0:
                return
            self._depth -= 1
            if self._depth:
                return
            while self._saved:
                owner, name, value = self._saved.pop()
                if value is _INHERITED:
                    delattr(owner, name)
                else:
                    setattr(owner, name, value)
            self._soon.clear()

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._saved.append((owner, name, owner.__dict__.get(name, _INHERITED)))
        setattr(owner, name, replacement)

    def _patch_executor(self) -> None:
        work = self

        def make(original: Callable[..., Any]) -> Callable[..., Any]:
            def run_in_executor(loop: Any, executor: Any, func: Any, *args: Any) -> Any:
                future = original(loop, executor, func, *args)
                work.begin(loop)
                future.add_done_callback(lambda _f: work.end(loop))
                return future

            return run_in_executor

        base = asyncio.base_events.BaseEventLoop
        self._patch(base, "run_in_executor", make(base.__dict__["run_in_executor"]))
        try:  # the bot's loop where uvloop is installed (bot.loop_factory)
            import uvloop
        except ImportError:  # pragma: no cover - uvloop is a dependency on Linux
            return
        self._patch(uvloop.Loop, "run_in_executor", make(uvloop.Loop.run_in_executor))

    def _patch_aiosqlite(self) -> None:
        try:
            import aiosqlite.core as core
        except ImportError:  # pragma: no cover - aiosqlite is a project dependency
            return
        work = self
        for name in ("_execute", "_connect", "close"):
            original = core.Connection.__dict__.get(name)
            if original is None:  # pragma: no cover - other aiosqlite versions
                continue

            def make(original: Callable[..., Any]) -> Callable[..., Any]:
                async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                    loop = asyncio.get_running_loop()
                    work.begin(loop)
                    try:
                        return await original(self, *args, **kwargs)
                    finally:
                        work.end(loop)

                return wrapper

            self._patch(core.Connection, name, make(original))

    def _patch_render_pool(self) -> None:
        """A call out in a render worker (host/renderpool.py: pipes, no executor) counts
        as work out of the loop until its answer is back."""
        from host.renderpool import RenderPool

        original = RenderPool.__dict__["_submit"]
        work = self

        def _submit(pool: Any, *args: Any) -> Any:
            job = original(pool, *args)
            loop = asyncio.get_running_loop()
            work.begin(loop)
            job.future.add_done_callback(lambda _f: work.end(loop))
            return job

        self._patch(RenderPool, "_submit", _submit)

    def _patch_uvloop_soon(self) -> None:
        """uvloop's ``call_soon`` (which futures and tasks call to schedule their callbacks)
        keeps each handle until its callback runs: uvloop's ready queue cannot be read."""
        try:
            import uvloop
        except ImportError:  # pragma: no cover - uvloop is a dependency on Linux
            return
        original = uvloop.Loop.call_soon
        soon = self._soon

        def call_soon(loop: Any, callback: Any, *args: Any, context: Any = None) -> Any:
            pending = soon.setdefault(loop, {})
            token = object()

            def run(*args: Any) -> Any:
                pending.pop(token, None)
                return callback(*args)

            handle = original(loop, run, *args, context=context)
            pending[token] = handle
            return handle

        self._patch(uvloop.Loop, "call_soon", call_soon)


#: The process-wide counter (tests run in one thread, one loop at a time).
THREAD_WORK = ThreadWork()


def loop_is_quiet(loop: asyncio.AbstractEventLoop) -> bool:
    """True when no callback is ready to run and no timer is due."""
    ready = getattr(loop, "_ready", None)
    if ready is None:  # uvloop: its queue is out of sight; no callback nor task waiting
        if THREAD_WORK.soon_pending(loop):
            return False
        me = asyncio.current_task(loop)
        return not any(_runnable(task) for task in asyncio.all_tasks(loop) if task is not me)
    if len(ready):
        return False
    now = loop.time()
    for handle in getattr(loop, "_scheduled", ()):
        if not handle.cancelled() and handle.when() <= now:
            return False
    return True


def _runnable(task: asyncio.Task[Any]) -> bool:
    """A task that will run without waiting: not started, woken by its future, or after a
    bare ``yield`` (``asyncio.sleep(0)``)."""
    waiter = task._fut_waiter  # type: ignore[attr-defined]
    return waiter is None or bool(waiter.done())


@dataclass
class CapturedError:
    """One error the bot logged (or the loop reported) while the harness was active."""

    logger: str
    message: str
    exception: BaseException | None
    traceback: str

    def __str__(self) -> str:
        return f"[{self.logger}] {self.message}\n{self.traceback}".rstrip()


class _Handler(logging.Handler):
    def __init__(self, sink: ErrorCapture) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        tb = "".join(traceback.format_exception(*record.exc_info)) if record.exc_info else ""
        try:
            message = record.getMessage()
        except Exception:  # pragma: no cover - a broken log call
            message = str(record.msg)
        self.sink.errors.append(CapturedError(record.name, message, exc, tb))


class ErrorCapture:
    """Collects ERROR log records and loop exception-handler calls."""

    def __init__(self) -> None:
        self.errors: list[CapturedError] = []
        self._handler = _Handler(self)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_handler: Any = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        logging.getLogger().addHandler(self._handler)
        self._loop = loop
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_exception)

    def uninstall(self) -> None:
        logging.getLogger().removeHandler(self._handler)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.set_exception_handler(self._previous_handler)
        self._loop = None

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        tb = "".join(traceback.format_exception(exc)) if exc is not None else ""
        self.errors.append(CapturedError("asyncio", str(context.get("message")), exc, tb))
        if self._previous_handler is not None:
            self._previous_handler(loop, context)
