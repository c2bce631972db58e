"""The render pool's delivery (host/renderpool.py): worker processes, their pipes and what
goes through them, without an executor nor a thread in the bot's process.

A set of workers (:class:`Workers`) shares one pipe of jobs (a socket pair: the bot's process
writes at one end, the workers take at the other, one at a time under a lock, so the oldest
job goes to the first free worker) and has one pipe of results a worker, which the event loop
reads itself (``loop.add_reader``). A job is a frame: its id and its length (12 bytes,
big-endian), then its pickle. A result is a header (its job's id, the lengths of its two
parts), its pickle, and the picture's bytes apart (pickle protocol 5, out of band: read with
one ``recv`` of their exact size into the bytes object the bot sends). A worker that dies
ends its pipe; the set is then replaced as a whole (:meth:`Workers.wreck` tells the jobs it
never took from the ones it lost)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import socket
import traceback
from collections.abc import Callable
from typing import Any, Protocol


class WorkerError(Exception):
    """An error raised in a worker that could not be sent back as it was (it does not
    survive pickling, e.g. the rules' ``IllegalMove``): its traceback, as text."""


def call(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, in a worker. An error that would not survive the way back (the
    executor would take it for a dead worker, and kill and replace the workers) comes back
    as a :class:`WorkerError`; any other as it is."""
    try:
        return fn(*args)
    except Exception as err:
        try:
            pickle.loads(pickle.dumps(err))
        except Exception:
            raise WorkerError(traceback.format_exc()) from None
        raise


class Lost(Exception):
    """A job's workers died or hung while it ran (or they were killed as hung)."""


class Off(Exception):
    """A job the pool will not run: it is closing, or it was left aside (see GIVE_UP)."""


#: A job's frame: its id (8 bytes, big-endian; 0 for a stop), its pickle's length (4),
#: then its pickle.
HEADER = 12


def frame(job_id: int, payload: bytes) -> bytes:
    return job_id.to_bytes(8, "big") + len(payload).to_bytes(4, "big") + payload


#: A result's bytes sent apart from its pickle from this size on (a picture's PNG).
BIG = 4096


def receive(sock: socket.socket, size: int) -> bytearray | None:
    """``size`` bytes from ``sock`` (blocking), None at its end."""
    buf = bytearray(size)
    view, got = memoryview(buf), 0
    while got < size:
        n = sock.recv_into(view[got:])
        if n == 0:
            return None
        got += n
    return buf


def serve(
    jobs: socket.socket,
    lock: Any,
    results: socket.socket,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    """A render worker's life: started (``initializer``), it says so, then takes the jobs
    from the pipe its pool's workers share, first come first served (``lock``: one worker
    reads a job at a time), and sends each result on its own pipe, until a stop (a job
    ``None``) or the bot's process is gone (the pipe's end)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the bot stops its workers itself)
    initializer(*initargs)
    send(results, (None, True, os.getpid()))
    while True:
        with lock:
            head = receive(jobs, HEADER)
            payload = None if head is None else receive(jobs, int.from_bytes(head[8:], "big"))
        if head is None or payload is None:
            return
        try:
            job_id, fn, args = pickle.loads(payload)
        except Exception:  # a job this worker cannot unpickle: its caller's error
            job_id, fn, args = (
                int.from_bytes(head[:8], "big"),
                unreadable,
                (traceback.format_exc(),),
            )
        if job_id is None:
            return
        try:
            out = (job_id, True, call(fn, *args))
        except Exception as err:
            out = (job_id, False, err)
        try:
            send(results, out)
        except OSError:  # the bot's process is gone
            return
        except Exception:  # a result that cannot be sent back
            send(results, (job_id, False, WorkerError(traceback.format_exc())))


def unreadable(why: str) -> None:
    """A job its worker could not unpickle (say, an argument that does not survive
    pickling): ``why`` (its traceback), as a :class:`WorkerError` (the worker goes on)."""
    raise WorkerError(why)


def big(value: Any) -> bool:
    return isinstance(value, bytes) and len(value) >= BIG


def send(results: socket.socket, message: tuple[int | None, bool, Any]) -> None:
    """A result on its worker's pipe: a header (its job's id, the lengths of the two
    parts), the message pickled, and the picture's bytes apart (out of band: the bot's
    process reads them straight into the bytes it uses, no copy nor unpickling of a
    100 KB string)."""
    job_id, ok, value = message
    raw = b""
    if ok and big(value):
        raw, value = value, pickle.PickleBuffer(value)
    elif ok and isinstance(value, tuple) and value and big(value[0]):  # a picture, its text
        raw, value = value[0], (pickle.PickleBuffer(value[0]), *value[1:])
    apart: list[pickle.PickleBuffer] = []
    meta = pickle.dumps((job_id, ok, value), 5, buffer_callback=apart.append if raw else None)
    head = (job_id or 0).to_bytes(8, "big") + len(meta).to_bytes(4, "big")
    parts = [head + len(raw).to_bytes(4, "big"), meta, raw]
    sent = results.sendmsg(parts)
    if sent < sum(map(len, parts)):  # (cut short by a signal)
        results.sendall(b"".join(parts)[sent:])


class Job:
    """A call asked of the pool: handed to the workers (written to their pipe, at
    ``offset`` of its stream) or waiting its turn in the bot's process; ``tries``: the
    times it may still be handed to workers that are then lost."""

    __slots__ = ("args", "fn", "future", "handed", "id", "offset", "tries", "workers")

    def __init__(
        self, job_id: int, fn: Callable[..., Any], args: tuple[Any, ...], future: Any, tries: int
    ):
        self.id, self.fn, self.args, self.tries = job_id, fn, args, tries
        self.future: asyncio.Future[tuple[bool, Any]] = future
        self.offset = 0
        self.workers: Workers | None = None
        #: When it was handed over (the event loop's clock).
        self.handed = 0.0


class Inbox:
    """A result being read from a worker's pipe, part by part: its header (its job's id and
    the lengths of the two parts), its pickle, and its bytes apart (when it has some)."""

    __slots__ = ("got", "job", "meta", "need", "parts", "raw", "stage")

    #: A result's header: its job's id (0: the worker's start), its pickle's length, its
    #: bytes apart's length.
    HEAD = 16

    def __init__(self) -> None:
        self.stage, self.need, self.got, self.raw, self.job = 0, self.HEAD, 0, 0, 0
        self.parts: list[bytes] = []
        self.meta = b""

    def take(self, part: bytes) -> Any:
        """The next part, read whole: the message once it is complete, else None. A message
        the bot's process cannot unpickle is its job's :class:`WorkerError` (the next one
        is read in step all the same)."""
        if self.stage == 0:  # the header
            self.job = int.from_bytes(part[:8], "big")
            self.need, self.raw = (
                int.from_bytes(part[8:12], "big"),
                int.from_bytes(part[12:], "big"),
            )
            self.stage = 1
            return None
        if self.stage == 1 and self.raw:  # the pickle; the bytes apart come next
            self.meta, self.need, self.stage = part, self.raw, 2
            return None
        meta, buffers = (part, None) if self.stage == 1 else (self.meta, [part])
        self.stage, self.need, self.meta = 0, self.HEAD, b""
        try:
            return pickle.loads(meta, buffers=buffers)
        except Exception:
            return self.job or None, False, WorkerError(traceback.format_exc())


class Workers:
    """One set of worker processes (replaced as a whole when one dies or hangs): the pipe
    of jobs they share (a socket pair: the bot's process writes at one end, the workers
    take at the other) and each one's pipe of results, read by the event loop
    (``loop.add_reader``: no thread, no queue between a result and its caller)."""

    def __init__(
        self,
        pool: Owner,
        loop: asyncio.AbstractEventLoop,
        ctx: Any,
        initializer: Callable[..., None],
        initargs: tuple[Any, ...],
    ) -> None:
        self.pool, self.loop = pool, loop
        self.jobs, self.taken = socket.socketpair()
        self.results: list[socket.socket] = []
        self.processes: list[Any] = []
        self.inboxes: list[Inbox] = []
        #: Jobs handed over and not answered, in the order written; bytes written.
        self.handed: dict[int, Job] = {}
        self.written = 0
        self.unsent = bytearray()
        self.dead = False
        self.up = 0
        self.started: asyncio.Future[None] = loop.create_future()
        self.exits: list[asyncio.Future[None]] = []
        #: How the workers ended (once closed: tests).
        self.exitcodes: list[int | None] = []
        try:
            #: (kept while the workers live: the semaphore goes with its last reference)
            self.lock = lock = ctx.Lock()
            for i in range(pool.workers):
                mine, theirs = socket.socketpair()
                self.results.append(mine)
                self.inboxes.append(Inbox())
                args = (self.taken, lock, theirs, initializer, initargs)
                process = ctx.Process(target=serve, args=args, daemon=True)  # type: ignore[attr-defined]
                try:
                    process.start()
                finally:
                    theirs.close()
                self.processes.append(process)
                self.exits.append(loop.create_future())
                mine.setblocking(False)
                loop.add_reader(mine.fileno(), self.readable, i)
        except BaseException:
            self.kill()
            self.close()
            raise
        self.jobs.setblocking(False)

    def pids(self) -> set[int]:
        return {p.pid for p in self.processes}

    # -- jobs out ---------------------------------------------------------------------------

    def hand(self, job: Job, payload: bytes) -> None:
        """Write a job to the workers' pipe (what the pipe cannot take yet is written when
        it can: the event loop never blocks on a worker)."""
        data = frame(job.id, payload)
        job.offset, job.workers, job.handed = self.written, self, self.loop.time()
        self.written += len(data)
        self.handed[job.id] = job
        if self.unsent:
            self.unsent += data
            return
        try:
            sent = self.jobs.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:  # every worker gone: their ends tell the pool
            sent = 0
        if sent < len(data):
            self.unsent += memoryview(data)[sent:]
            self.loop.add_writer(self.jobs.fileno(), self.flush)

    def flush(self) -> None:
        try:
            sent = self.jobs.send(self.unsent)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            sent = 0
            self.loop.remove_writer(self.jobs.fileno())
            return
        del self.unsent[:sent]
        if not self.unsent:
            self.loop.remove_writer(self.jobs.fileno())

    # -- results in -------------------------------------------------------------------------

    def readable(self, i: int) -> bool:
        """Read a worker's result (each part with one ``recv`` of its exact size, most
        often: the picture's bytes are read into the very bytes object the bot sends):
        True once one is delivered (another, rarely there yet, wakes the loop again)."""
        sock, box = self.results[i], self.inboxes[i]
        delivered = False
        while not delivered:
            try:
                chunk = sock.recv(box.need - box.got)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                chunk = b""
            if not chunk:  # the worker is gone (or stopped: see close)
                self.loop.remove_reader(sock.fileno())
                if not self.exits[i].done():
                    self.exits[i].set_result(None)
                if not self.dead:
                    self.pool.died(self)
                return False
            if box.got == 0 and len(chunk) == box.need:
                part = chunk
            else:
                box.parts.append(chunk)
                box.got += len(chunk)
                if box.got < box.need:
                    continue
                part, box.got = b"".join(box.parts), 0
                box.parts.clear()
            message = box.take(part)
            if message is not None:
                self.answer(*message)
                delivered = True
        self.pool.pump()
        return delivered

    def answer(self, job_id: int | None, ok: bool, value: Any) -> None:
        if job_id is None:  # a worker started
            self.up += 1
            if self.up == len(self.processes) and not self.started.done():
                self.started.set_result(None)
            return
        job = self.handed.pop(job_id, None)
        if job is None:
            return
        self.pool.answered()
        if not job.future.done():
            job.future.set_result((ok, value))

    # -- the end ------------------------------------------------------------------------------

    def kill(self) -> None:
        for process in self.processes:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()
        for process in self.processes:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(5.0)

    def wreck(self) -> tuple[list[Job], list[Job]]:
        """Kill the workers (dead, hung or not) and sort what they were handed: (the jobs
        still in the pipe, never taken: they go to the next workers as they are; the jobs
        taken, lost with them). Results already sent are delivered first."""
        self.dead = True
        self.kill()
        for i in range(len(self.results)):
            while self.readable(i):
                pass
        left = len(self.unsent)
        while True:
            try:
                chunk = self.taken.recv(1 << 18, socket.MSG_DONTWAIT)
            except OSError:
                break
            if not chunk:
                break
            left += len(chunk)
        first = self.written - left
        jobs = list(self.handed.values())
        self.handed.clear()
        self.close()
        return [j for j in jobs if j.offset >= first], [j for j in jobs if j.offset < first]

    async def stop(self, grace: float) -> bool:
        """Stop the workers once the jobs handed to them are done (within ``grace``
        seconds; else, or should one of them die meanwhile, they are killed: False)."""
        late = {job.future for job in self.handed.values() if not job.future.done()}
        deadline = self.loop.time() + grace
        while late and not any(end.done() for end in self.exits):
            left = deadline - self.loop.time()
            if left <= 0:
                break
            # (a worker gone: the jobs it had never end)
            waiting: list[asyncio.Future[Any]] = [*late, *self.exits]
            await asyncio.wait(waiting, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            late = {future for future in late if not future.done()}
        done = not late and not any(end.done() for end in self.exits)
        if done:
            stop = frame(0, pickle.dumps((None, None, ()), pickle.HIGHEST_PROTOCOL))
            for _ in self.processes:
                self.unsent += stop  # (after any job not yet written: it is done first)
            self.flush()
            if self.unsent:
                self.loop.add_writer(self.jobs.fileno(), self.flush)
            _, alive = await asyncio.wait(self.exits, timeout=grace)
            done = not alive
        self.dead = True
        self.kill()
        for job in self.handed.values():
            if not job.future.done():
                job.future.set_exception(Off())
        self.handed.clear()
        self.close()
        return done

    def close(self) -> None:
        """Let go of the pipes and the processes (they are dead)."""
        for fut in (self.started, *self.exits):
            if not fut.done():
                fut.set_result(None)
        with contextlib.suppress(ValueError, OSError):
            self.loop.remove_writer(self.jobs.fileno())
        for sock in self.results:
            with contextlib.suppress(ValueError, OSError):
                self.loop.remove_reader(sock.fileno())
            sock.close()
        self.jobs.close()
        self.taken.close()
        for process in self.processes:
            with contextlib.suppress(ValueError):
                self.exitcodes.append(process.exitcode)
                process.close()


class Owner(Protocol):
    """What a set of workers tells its pool (host/renderpool.RenderPool)."""

    workers: int

    def died(self, workers: Workers) -> None: ...

    def answered(self) -> None: ...

    def pump(self) -> None: ...
