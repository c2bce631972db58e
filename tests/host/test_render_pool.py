"""The render pool (issue 23) with real worker processes: its pictures are byte for byte the
ones drawn in-process; a killed worker is replaced and the picture still arrives; a pool that
cannot draw leaves the picture to the bot's own process; and a whole bot with workers shows
its tables through the harness.

The other end-to-end tests draw in-process (``Settings.render_workers`` is 0 unless set):
starting and warming worker processes costs a second or two per bot, hundreds of times over,
for pictures that are the same bytes (checked here)."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock
from unittest.mock import Mock

import pytest

from bot import Cosmodrome, build_bot
from cogs import present
from core.contract import Decision, IllegalMove, Option, check_picks
from host import registry, renderpool
from host.clock import FakeClock
from host.settings import Settings, SettingsError
from tests.e2e.driver import latest_table, play_turn
from tests.e2e.kit import open_game
from tests.harness import Harness
from tests.render.kit import random_states

#: Sizes and bytes as production deflates them (the tests draw at zlib level 1).
pytestmark = pytest.mark.usefixtures("production_png")

Job = tuple[str, str, dict[str, Any], list[str], str]


def jobs(seed: int = 5, moves: int = 12) -> Iterator[Job]:
    """Every game a few random moves in: its table and each seat's private picture."""
    rng = random.Random(seed)
    for game_id in registry.GAME_MODULES:
        game = registry.get(game_id)
        players = min(game.max_players, 3)
        state = random_states(game, players, seed, limit=moves)[-1]
        names = [f"P{i}" for i in range(players)]
        lang = rng.choice(["en", "es"])
        yield "table", game_id, game.view(state, None), names, lang
        for seat in range(players):
            yield "private", game_id, {**game.view(state, seat), "seat": seat}, names, lang


async def test_pictures_through_the_pool_are_the_same_bytes() -> None:
    pool = renderpool.RenderPool(2)
    pool.start()
    try:
        await pool.ready()
        assert len(await pool.pids()) == 2
        assert os.getpid() not in await pool.pids()
        for pid in await pool.pids():  # nicer than the bot: clicks get the CPU first
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + renderpool.NICENESS)
        for job in jobs():
            drawn, data = await pool.draw(*job)
            assert drawn
            assert data == renderpool.draw(*job), job[:2]
            # The picture and its alt text in one job, as the bot asks for them.
            drawn, (png, text, problem) = await pool.draw_described(*job)
            assert drawn and png == data and problem is None
            kind, game_id, view, names, lang = job
            expected = "" if data is None else present.describe(game_id, kind, view, names, lang)
            assert text == expected, job[:2]
            assert (text != "") == (data is not None)
    finally:
        await pool.close()


async def test_an_alt_text_that_fails_is_logged_and_left_out(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """In-process (no pool) as in a worker: the picture goes out without its text."""
    job = next(jobs())
    renderer = registry.renderer(job[1])

    def broken(*_: Any) -> str:
        raise ValueError("no words")

    monkeypatch.setattr(renderer, "describe_table", broken)
    renderpool.install(None)
    data, text = await renderpool.render_described(present._render_table, *job)
    assert data == renderpool.draw(*job) and text == ""
    assert "ValueError: no words" in caplog.text
    assert present.describe(job[1], "table", job[2], job[3], job[4]) == ""


async def test_a_killed_worker_is_replaced_and_the_picture_still_arrives() -> None:
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        (pid,) = await pool.pids()
        os.kill(pid, signal.SIGKILL)  # its only worker: the picture cannot go anywhere else
        job = next(jobs())
        drawn, data = await pool.draw(*job)
        assert drawn and data == renderpool.draw(*job)
        assert pool.replaced == 1 and not pool.broken
        assert (await pool.pids()) != {pid}
        drawn, again = await pool.draw(*job)  # and the fresh worker goes on drawing
        assert drawn and again == data
    finally:
        await pool.close()


async def test_a_hung_worker_is_killed_and_replaced() -> None:
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        (pid,) = await pool.pids()
        os.kill(pid, signal.SIGSTOP)  # hung: it will never answer
        pool.timeout = 0.5  # (a stopped worker never answers: the outcome is the same)
        start = pool._spawn

        def fresh() -> Any:  # the fresh worker has all the time it needs to start
            pool.timeout = renderpool.TIMEOUT
            return start()

        pool._spawn = fresh  # type: ignore[method-assign]
        job = next(jobs())
        drawn, data = await pool.draw(*job)
        assert drawn and data == renderpool.draw(*job)
        assert pool.replaced == 1 and pid not in await pool.pids()
    finally:
        await pool.close()


async def test_a_pool_that_cannot_draw_leaves_the_picture_in_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    job = next(jobs())
    local: list[str] = []

    def in_process(*args: Any) -> bytes | None:
        local.append(args[0])
        return renderpool.draw(job[0], *args)

    def cannot_start(*_: Any, **__: Any) -> Any:
        raise OSError("no more processes")

    monkeypatch.setattr(renderpool, "context", cannot_start)
    pool = renderpool.RenderPool(2)
    pool.start()
    assert pool.broken
    renderpool.install(pool)
    try:
        drawn, _text = await renderpool.render_described(in_process, *job)
        assert drawn == renderpool.draw(*job)
    finally:
        renderpool.install(None)
    assert local == [job[1]]

    # A pool closed (the bot is closing) draws nothing either; nor does one left aside.
    monkeypatch.undo()
    closed = renderpool.RenderPool(1, warm=False)
    closed.start()
    await closed.close()
    assert await closed.draw(*job) == (False, None)


async def test_a_pool_broken_again_and_again_is_left_aside() -> None:
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        job = next(jobs())
        pool._breaks = renderpool.GIVE_UP - 1  # as if its workers had died at every picture
        (pid,) = await pool.pids()
        os.kill(pid, signal.SIGKILL)
        # One break more in a row: no fresh workers; the caller draws it in-process.
        assert await pool.draw(*job) == (False, None)
        assert pool.broken and await pool.pids() == set()
    finally:
        await pool.close()


@pytest.fixture
def bot_factory(db_path: Path, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(token="t", db_path=str(db_path), tick_seconds=0, render_workers=1)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def test_a_bot_with_workers_shows_its_tables_through_them(
    harness: Harness,
    renders: list[tuple[str, int | None]],
) -> None:
    h = harness
    pool = renderpool.current()
    assert pool is not None and pool.workers == 1
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, "mlem", ana, [ben])
    rng = random.Random(1)
    before = [a.data for a in latest_table(h).attachments]
    for _ in range(3):
        await play_turn(h, {ana: 0, ben: 1}, rng)
    after = [a.data for a in latest_table(h).attachments]
    assert after and after[0].startswith(b"\x89PNG") and after != before
    assert renders == []  # every picture came from the worker, none from the bot's process
    await h.stop()
    assert renderpool.current() is None and pool.closed


def test_the_setting() -> None:
    def workers(value: str | None) -> int:
        env = {} if value is None else {"COSMODROME_RENDER_WORKERS": value}
        return Settings.from_env(env=env, dotenv=None).render_workers

    assert workers(None) == max(1, os.cpu_count() or 1)  # one per core
    assert workers("0") == 0 and workers(" 3 ") == 3
    for bad in ("-1", "two", "65", "1.5"):
        with pytest.raises(SettingsError, match="COSMODROME_RENDER_WORKERS"):
            workers(bad)
    assert Settings().render_workers == 0  # built in code (tests, benchmarks): in-process


def words_of(job: Job, lang: str) -> str:
    """A picture's alt text as the bot made it before the texts moved (issue 23): the
    game's renderer called directly, cut to Discord's 1,024 characters."""
    kind, game_id, view, names, _ = job
    return str(getattr(registry.renderer(game_id), f"describe_{kind}")(view, names, lang))[:1024]


async def test_alt_texts_are_the_same_wherever_they_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every game's table and each seat's private picture (a seat's text from its own view:
    the job carries nothing else), in both languages: the text a worker makes, the one made
    in-process (no pool, or a pool that cannot draw) and the one the bot made before are the
    same; a text that fails in the worker's job leaves the picture whole."""
    every = list(jobs())
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        for job in every:
            kind, game_id, view, names, _ = job
            for lang in ("en", "es"):
                expected = words_of(job, lang)
                assert expected, (kind, game_id, lang)
                assert await pool.run(
                    1, renderpool.describe, kind, game_id, view, names, lang
                ) == (
                    "done",
                    expected,
                )
                assert present.describe(game_id, kind, view, names, lang) == expected
    finally:
        await pool.close()
    local = {"table": present._render_table, "private": present._render_private}
    broken = renderpool.RenderPool(1, warm=False)
    monkeypatch.setattr(renderpool, "context", Mock(side_effect=OSError("none")))
    broken.start()
    assert broken.broken
    for job, pool_now in zip(every, [None, broken] * len(every), strict=False):
        renderpool.install(pool_now)
        try:
            got = await renderpool.render_described(local[job[0]], *job, present._words)
        finally:
            renderpool.install(None)
        data = renderpool.draw(*job)
        assert got == (data, "" if data is None else words_of(job, job[4])), job[:2]
    # A worker's job whose text fails: the picture, no text, and why (logged by the bot).
    job = every[0]
    monkeypatch.setattr(
        registry.renderer(job[1]), f"describe_{job[0]}", Mock(side_effect=KeyError)
    )
    png, text, problem = renderpool.draw_described(*job)
    assert png == renderpool.draw(*job) and text == "" and "KeyError" in (problem or "")


async def test_calls_start_in_the_order_asked_and_one_dropped_while_waiting_never_runs(
    tmp_path: Path,
) -> None:
    """The jobs are handed over oldest first (HANDED a worker at a time; the others wait
    in the bot's process): one whose caller stops waiting before it is handed over (a
    table drawn ahead and replaced) is never run."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        await pool.ready()
        waiting = renderpool.HANDED + 2
        clocks = [asyncio.create_task(pool.run(1, time.monotonic_ns)) for _ in range(waiting)]
        made = [
            asyncio.create_task(pool.run(1, os.mkdir, str(tmp_path / str(i)))) for i in range(4)
        ]
        await asyncio.sleep(0)  # (the loop's turn, no clock) every call asked
        assert len(pool._queue) == waiting + 4 - renderpool.HANDED
        made[1].cancel()
        times = [value for status, value in await asyncio.gather(*clocks) if status == "done"]
        assert len(times) == waiting and times == sorted(times)  # one worker: as asked
        outcomes = await asyncio.gather(*made, return_exceptions=True)
        assert isinstance(outcomes.pop(1), asyncio.CancelledError)
        assert outcomes == [("done", None)] * 3
        assert sorted(p.name for p in tmp_path.iterdir()) == ["0", "2", "3"]
    finally:
        await pool.close()


async def test_a_worker_killed_while_idle_costs_no_attempt() -> None:
    """A call handed to a worker killed before it took it goes to the fresh workers as it
    was: one attempt is enough."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        (pid,) = await pool.pids()
        os.kill(pid, signal.SIGKILL)
        assert await pool.run(1, renderpool.worker_pid) == ("done", mock.ANY)
        assert pool.replaced == 1 and pid not in await pool.pids()
    finally:
        await pool.close()


async def test_errors_come_back_as_they_would_be_raised_in_process() -> None:
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        with pytest.raises(KeyError, match="unknown game"):
            await pool.run(1, registry.get, "no such game")
        # One that does not survive pickling (the rules' IllegalMove): as a WorkerError.
        with pytest.raises(renderpool.WorkerError, match="IllegalMove"):
            await pool.run(1, check_picks, Decision(0, "pick", (Option("a", "a"),)), "b")
        # A result that cannot be sent back: its error, as a WorkerError.
        with pytest.raises(renderpool.WorkerError, match="pickle"):
            await pool.run(1, threading.Lock)
        assert pool.replaced == 0 and not pool.broken
        status, pid = await pool.run(1, renderpool.worker_pid)  # the same worker goes on
        assert status == "done" and {pid} == await pool.pids()
    finally:
        await pool.close()


async def test_closing_does_not_wait_for_a_hung_picture() -> None:
    """The bot stopping while a worker hangs mid-picture: the worker is killed after the
    grace and the picture's caller draws it itself (the pool drew nothing)."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    (pid,) = await pool.pids()
    workers = pool._workers
    assert workers is not None
    os.kill(pid, signal.SIGSTOP)  # hung: it will never answer
    drawing = asyncio.create_task(pool.draw(*next(jobs())))
    while not workers.handed:
        await asyncio.sleep(0)  # (the loop's turn, no clock) until it is handed over
    pool.close_grace = 0.2  # (a stopped worker never answers: the outcome is the same)
    await pool.close()
    assert workers.exitcodes == [-signal.SIGKILL]
    assert await drawing == (False, None)
    assert await pool.draw(*next(jobs())) == (False, None)


async def test_a_closed_pool_stops_its_workers_and_lets_go_of_their_pipes() -> None:
    pool = renderpool.RenderPool(2, warm=False)
    pool.start()
    workers = pool._workers
    assert workers is not None
    assert await pool.run(1, renderpool.worker_pid) == ("done", mock.ANY)
    await pool.close()
    assert workers.exitcodes == [0, 0]  # stopped, not killed
    assert workers.jobs.fileno() == -1 and all(s.fileno() == -1 for s in workers.results)


async def test_workers_that_cannot_be_replaced_leave_the_pictures_in_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker dies and no fresh one can start, whatever the error (the fork server gone
    reads as an EOFError): the pool is left aside and the picture is drawn in-process, not
    waited for."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        (pid,) = await pool.pids()
        monkeypatch.setattr(renderpool, "context", Mock(side_effect=EOFError("unexpected EOF")))
        os.kill(pid, signal.SIGKILL)
        # (the guard's seconds are only met by a pool that would wait forever)
        assert await asyncio.wait_for(pool.draw(*next(jobs())), 30) == (False, None)
        assert pool.broken and pool._workers is None
    finally:
        await pool.close()


def small_pipes(workers: int, monkeypatch: pytest.MonkeyPatch) -> renderpool.RenderPool:
    """A pool started with pipes that take 4 KB at a time (the least the system allows):
    a job or a result of more goes through in pieces."""
    pair = socket.socketpair

    def small_pair() -> tuple[socket.socket, socket.socket]:
        ends = pair()
        for end in ends:
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        return ends

    pool = renderpool.RenderPool(workers, warm=False)
    with monkeypatch.context() as patch:
        patch.setattr(socket, "socketpair", small_pair)
        pool.start()
    return pool


async def test_big_jobs_and_results_through_small_pipes_arrive_whole_and_in_their_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pipes that take a few KB at a time: a job is written in pieces when the pipe can take
    them (the event loop never waits), a result is read in pieces as they come (short
    reads, EAGAIN), and each caller gets its own result, whole."""
    pool = small_pipes(2, monkeypatch)
    try:
        await pool.ready()
        workers = pool._workers
        assert workers is not None
        assert workers.jobs.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) < 20_000
        sizes = [300_000, 5, 120_000, 4096, 4095, 250_000, 70_000, 1]
        payloads = [bytes([i + 1]) * size for i, size in enumerate(sizes)]
        calls = [pool.run(1, bytes, p) for p in payloads]  # a picture alone
        calls += [pool.run(1, tuple, (p, f"alt {i}", None)) for i, p in enumerate(payloads)]
        got = await asyncio.gather(*calls)
        assert got[: len(sizes)] == [("done", p) for p in payloads]
        assert got[len(sizes) :] == [
            ("done", (p, f"alt {i}", None)) for i, p in enumerate(payloads)
        ]
        assert not workers.unsent and not workers.handed and pool.replaced == 0
    finally:
        await pool.close()


async def kill_halfway(
    pool: renderpool.RenderPool, sizes: list[int], ended: list[int] | None = None
) -> tuple[int, list[asyncio.Task[tuple[str, Any]]]]:
    """With the bot reading none of its only worker's results, ``pool.run(2, bytes, size)``
    for each size (the first one big: its result waits on a full pipe), the worker killed
    once that result has begun, and its pipe read again: the worker's pid and the calls
    (each size appended to ``ended`` as its call ends)."""
    (pid,) = await pool.pids()
    workers = pool._workers
    assert workers is not None
    loop, fd = asyncio.get_running_loop(), workers.results[0].fileno()
    loop.remove_reader(fd)
    started: asyncio.Future[None] = loop.create_future()

    def begun() -> None:
        if not started.done():
            started.set_result(None)

    async def call(size: int) -> tuple[str, Any]:
        try:
            return await pool.run(2, bytes, size)
        finally:
            (ended if ended is not None else []).append(size)

    loop.add_reader(fd, begun)
    calls = [asyncio.create_task(call(size)) for size in sizes]
    await started
    loop.remove_reader(fd)
    os.kill(pid, signal.SIGKILL)
    loop.add_reader(fd, workers.readable, 0)
    return pid, calls


async def test_a_worker_killed_halfway_through_a_result_loses_only_the_job_it_had(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker killed while writing a big result (half of it read): the half is thrown
    away, its job is asked again of the fresh workers (one attempt more), and the job
    waiting behind it in the pipe, never taken, goes to them as it was (no attempt)."""
    pool = small_pipes(1, monkeypatch)
    try:
        pid, (big, behind) = await kill_halfway(pool, [2_000_000, 10])
        assert await big == ("done", bytes(2_000_000))
        assert await behind == ("done", bytes(10))
        assert pool.replaced == 1 and pid not in await pool.pids()
    finally:
        await pool.close()


async def test_workers_started_afresh_where_there_is_no_fork_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``spawn`` (no fork server): the workers get their pipes all the same and draw the
    same bytes."""
    monkeypatch.setattr(renderpool, "context", lambda: multiprocessing.get_context("spawn"))
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        job = next(jobs())
        assert await pool.draw(*job) == (True, renderpool.draw(*job))
        (pid,) = await pool.pids()
        os.kill(pid, signal.SIGKILL)  # and fresh ones replace a dead one
        assert await pool.draw(*job) == (True, renderpool.draw(*job))
        assert pool.replaced == 1
    finally:
        await pool.close()


async def test_a_result_the_bot_cannot_read_back_fails_its_call_only() -> None:
    """A result a worker can send but the bot's process cannot unpickle (an IllegalMove
    returned, not raised: it does not survive pickling), alone or beside a picture's bytes:
    its caller gets a WorkerError; the results after it are read in step, from the same
    worker."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        apart = itertools.chain([bytes(10_000)], map(IllegalMove, ["host.error.not_offered"]))
        calls = [
            pool.run(1, bytes, 10_000),
            pool.run(1, IllegalMove, "host.error.not_offered"),
            pool.run(1, bytes, 20_000),
            pool.run(1, tuple, apart),
            pool.run(1, bytes, 30_000),
        ]
        got = await asyncio.gather(*calls, return_exceptions=True)
        assert got[0::2] == [("done", bytes(n)) for n in (10_000, 20_000, 30_000)]
        for failed in got[1::2]:
            assert isinstance(failed, renderpool.WorkerError) and "IllegalMove" in str(failed)
        assert pool.replaced == 0 and not pool.broken
    finally:
        await pool.close()


async def test_a_job_a_worker_cannot_read_fails_its_call_only() -> None:
    """A job that pickles in the bot's process but cannot be unpickled in a worker (an
    argument that does not survive pickling): its caller gets a WorkerError, and the same
    worker goes on with the next jobs."""
    pool = renderpool.RenderPool(1, warm=False)
    pool.start()
    try:
        (pid,) = await pool.pids()
        with pytest.raises(renderpool.WorkerError, match="IllegalMove"):
            await pool.run(1, str, IllegalMove("host.error.not_offered"))
        assert await pool.run(1, renderpool.worker_pid) == ("done", pid)
        assert pool.replaced == 0
    finally:
        await pool.close()


async def test_workers_that_die_as_they_start_are_left_aside_after_give_up_tries() -> None:
    """Workers that die as they start, every time (a broken install): fresh ones are tried
    GIVE_UP times in all, then the pool is left aside; a picture asked meanwhile, never
    taken by any of them, is drawn in-process, not waited for."""
    pool = renderpool.RenderPool(2, warm=False)
    pool.initializer = lambda: (os._exit, (3,))  # type: ignore[method-assign]
    pool.start()
    try:
        assert await pool.draw(*next(jobs())) == (False, None)
        assert pool.broken and pool.replaced == renderpool.GIVE_UP - 1
    finally:
        await pool.close()


async def test_a_call_lost_with_its_worker_is_asked_again_before_the_younger_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Oldest first, even after a worker died: the call it was running (its result half
    written) is asked of the fresh workers before the calls asked after it, the one waiting
    in the pipe and those waiting in the bot's process."""
    pool = small_pipes(1, monkeypatch)
    try:
        ended: list[int] = []
        sizes = [2_000_000, 1, 2, 3]  # the first one taken, one in the pipe, two waiting
        _, calls = await kill_halfway(pool, sizes, ended)
        assert len(pool._queue) == 2
        assert await asyncio.gather(*calls) == [("done", bytes(size)) for size in sizes]
        assert ended == sizes and pool.replaced == 1
    finally:
        await pool.close()


async def test_a_worker_dying_while_the_pool_closes_does_not_hold_it_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot stopping while a worker draws, and that worker dies: the pool does not wait
    out its grace for a picture that will never come (its caller draws it itself)."""
    pool = small_pipes(1, monkeypatch)
    pool.close_grace = 3600.0  # (only a pool waiting for the dead worker's job meets it)
    (pid,) = await pool.pids()
    workers = pool._workers
    assert workers is not None
    loop, fd = asyncio.get_running_loop(), workers.results[0].fileno()
    loop.remove_reader(fd)  # (the bot reads nothing for now: the worker must wait)
    big = asyncio.create_task(pool.run(1, bytes, 2_000_000))
    while not workers.handed:
        await asyncio.sleep(0)  # (the loop's turn, no clock) until it is handed over
    closing = asyncio.create_task(pool.close())
    await asyncio.sleep(0)
    os.kill(pid, signal.SIGKILL)
    loop.add_reader(fd, workers.readable, 0)
    await asyncio.wait_for(closing, 60)
    assert await big == ("off", None) and workers.exitcodes == [-signal.SIGKILL]
