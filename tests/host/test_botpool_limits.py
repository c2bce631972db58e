"""The bots' search pool's limits (host/botpool.py), with real worker processes: a search
is timed in its worker's CPU, not the wall clock's (one starved of CPU is not lost, one that
spins is ended by the kernel and its workers replaced); and a pool left aside after
``renderpool.GIVE_UP`` breaks tries fresh workers again after a cool-down (the house's
clock, faked here), doubled each time they break again, up to a cap."""

from __future__ import annotations

import logging
import os
import signal
import time
from typing import Any

import pytest

from host import botpool, renderpool
from host.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def pool(clock: FakeClock) -> Any:
    p = botpool.BotPool(1, warm=False, clock=clock)
    p.start()
    await p.ready()
    try:
        yield p
    finally:
        await p.close()


def processes(pool: botpool.BotPool) -> list[Any]:
    return list((getattr(pool._executor, "_processes", None) or {}).values())


@pytest.mark.skipif(not botpool.CPU_TIMED, reason="no CPU-time timer here")
async def test_a_search_that_spins_past_its_cpu_time_is_lost_and_replaced(
    pool: botpool.BotPool,
) -> None:
    assert pool.cpu_timeout == botpool.TIMEOUT and pool.timeout == botpool.BACKSTOP
    workers = processes(pool)
    pool.cpu_timeout = 0.2  # (a search that never ends: the outcome is the same)
    pool.timeout = 120.0  # (should the CPU go untimed, a SIGKILL, not a ten-minute wait)
    assert await pool.run(1, sum, range(10**15)) == ("lost", None)  # (spins, in C)
    assert [w.exitcode for w in workers] == [-signal.SIGPROF]  # ended by the kernel
    assert pool.replaced == 1 and not pool.broken
    status, pid = await pool.run(1, renderpool.worker_pid)  # fresh workers go on
    assert status == "done" and pid not in {w.pid for w in workers}


@pytest.mark.skipif(not botpool.CPU_TIMED, reason="no CPU-time timer here")
async def test_a_search_starved_of_cpu_is_not_lost(pool: botpool.BotPool) -> None:
    # Far longer in wall clock than its CPU time allows (a nice worker on a busy machine
    # waits for the CPU; here it sleeps): answered, the worker kept.
    pool.cpu_timeout = 0.1
    (pid,) = await pool.pids()
    assert await pool.run(1, time.sleep, 0.4) == ("done", None)
    assert pool.replaced == 0 and {pid} == await pool.pids()
    # The timer is disarmed between calls: CPU used by later calls starts from nothing.
    for _ in range(3):
        assert await pool.run(1, sum, range(200_000)) == ("done", sum(range(200_000)))
    assert pool.replaced == 0 and {pid} == await pool.pids()


async def test_where_cpu_is_not_timed_the_timeout_is_the_wall_clocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(botpool, "CPU_TIMED", False)
    p = botpool.BotPool(1, warm=False)
    assert p.timeout == botpool.TIMEOUT and p.cpu_timeout is None
    assert botpool.timed(None, pow, 2, 10) == 1024
    p.start()
    try:
        assert (await p.run(1, renderpool.worker_pid))[0] == "done"
    finally:
        await p.close()


def lines(caplog: pytest.LogCaptureFixture, level: int, text: str) -> int:
    return sum(1 for r in caplog.records if r.levelno == level and text in r.getMessage())


async def test_a_pool_left_aside_tries_fresh_workers_after_a_cool_down(
    pool: botpool.BotPool, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    cool = botpool.COOL_DOWN
    for _ in range(renderpool.GIVE_UP):  # a worker that dies at every call
        assert await pool.run(1, os._exit, 1) == ("lost", None)
    assert pool.broken and pool.retry_at == clock.now() + cool
    assert lines(caplog, logging.ERROR, f"breaks in a row; searching in a thread for {cool:.0f}")
    assert await pool.run(1, renderpool.worker_pid) == ("off", None)
    assert await pool.choose("mlem", {}, 0, "seed", "easy") == (False, None)  # in a thread
    clock.advance(cool - 1)
    assert await pool.run(1, renderpool.worker_pid) == ("off", None)
    clock.advance(1)
    status, _ = await pool.run(1, renderpool.worker_pid)  # the cool-down over: fresh workers
    assert status == "done" and not pool.broken and pool.retry_at is None
    assert pool.cool_down == cool  # (they answered: the next cool-down is the first one)
    assert lines(caplog, logging.WARNING, "cool-down over") == 1

    # Broken again: aside for the cool-down; fresh workers that break before answering send
    # the pool aside at once, for twice as long each time, up to the cap.
    for _ in range(renderpool.GIVE_UP):
        assert await pool.run(1, os._exit, 1) == ("lost", None)
    waits = []
    while len(waits) < 5:
        assert pool.broken and pool.retry_at is not None
        waits.append(pool.retry_at - clock.now())
        clock.advance(waits[-1])
        assert await pool.run(1, os._exit, 1) == ("lost", None)  # tried, and broken again
    assert waits == [cool, 2 * cool, 4 * cool, botpool.MAX_COOL_DOWN, botpool.MAX_COOL_DOWN]
    assert pool.retry_at == clock.now() + botpool.MAX_COOL_DOWN
    assert lines(caplog, logging.ERROR, "its fresh workers broke; searching in a thread") == 5
    assert lines(caplog, logging.ERROR, "breaks in a row") == 2  # (each setting aside: once)
    assert lines(caplog, logging.WARNING, "cool-down over") == 6
    clock.advance(botpool.MAX_COOL_DOWN)
    assert (await pool.run(1, renderpool.worker_pid))[0] == "done"
    assert pool.cool_down == cool and not pool.broken

    # A closed pool is never tried again.
    for _ in range(renderpool.GIVE_UP):
        await pool.run(1, os._exit, 1)
    assert pool.broken
    await pool.close()
    clock.advance(botpool.MAX_COOL_DOWN)
    assert await pool.run(1, renderpool.worker_pid) == ("off", None)
    assert pool._executor is None


async def test_workers_that_cannot_start_are_tried_again(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot_start(*_: Any, **__: Any) -> Any:
        raise OSError("no more processes")

    monkeypatch.setattr(renderpool, "ProcessPoolExecutor", cannot_start)
    p = botpool.BotPool(1, warm=False, clock=clock)
    p.start()
    try:
        assert p.broken and p.retry_at == clock.now() + botpool.COOL_DOWN
        clock.advance(botpool.COOL_DOWN)
        assert await p.run(1, renderpool.worker_pid) == ("off", None)  # tried: still cannot
        assert p.broken and p.retry_at == clock.now() + 2 * botpool.COOL_DOWN
        monkeypatch.undo()
        clock.advance(2 * botpool.COOL_DOWN)
        assert (await p.run(1, renderpool.worker_pid))[0] == "done"
        assert not p.broken and p.cool_down == botpool.COOL_DOWN
    finally:
        await p.close()


@pytest.mark.skipif(not botpool.CPU_TIMED, reason="no CPU-time timer here")
def test_the_cpu_timer_is_disarmed_when_the_call_raises() -> None:
    # (In this process, far from ringing: the timer is armed for a minute of CPU.)
    def fails() -> None:
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 0  # armed during the call
        raise KeyError("the engine's own error")

    with pytest.raises(KeyError):
        botpool.timed(60.0, fails)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert botpool.timed(60.0, pow, 2, 10) == 1024
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
