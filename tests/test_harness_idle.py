"""The harness's idle detection on both event loops: asyncio's (whose ready queue it reads)
and uvloop's (whose queue is out of sight: its ``call_soon`` handles are counted)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import uvloop

from tests.harness.core import Harness
from tests.harness.idle import THREAD_WORK

LOOPS: dict[str, Callable[[], asyncio.AbstractEventLoop] | None] = {
    "asyncio": None,
    "uvloop": uvloop.new_event_loop,
}


@pytest.fixture(autouse=True)
def _installed() -> Iterator[None]:
    THREAD_WORK.install()
    yield
    THREAD_WORK.uninstall()


def run(loop: str, main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        return runner.run(main())


async def idle(rounds: int = 1000) -> None:
    """The harness's own wait (Harness.idle) on a stand-in for the harness."""
    stand_in = SimpleNamespace(max_idle_rounds=rounds, _raise_errors=lambda: None)
    await Harness.idle(stand_in)  # type: ignore[arg-type]


@pytest.mark.parametrize("loop", LOOPS)
def test_a_chain_of_plain_callbacks_is_waited_for(loop: str) -> None:
    async def main() -> list[int]:
        done: list[int] = []
        running = asyncio.get_running_loop()

        def link(n: int) -> None:
            if n:
                running.call_soon(link, n - 1)
            else:
                done.append(1)

        running.call_soon(link, 8)
        await idle()
        return list(done)  # (as it is now: the runner's close runs the loop again)

    assert run(loop, main) == [1]


@pytest.mark.parametrize("loop", LOOPS)
def test_nested_gathers_are_waited_for(loop: str) -> None:
    async def main() -> list[int]:
        done: list[int] = []

        async def leaf() -> int:
            return 1

        async def parent() -> None:
            inner: Any = leaf()
            for _ in range(6):  # each gather wakes the next through a plain callback
                inner = asyncio.gather(inner)
            await inner
            done.append(1)

        task = asyncio.ensure_future(parent())
        await idle()
        assert task.done()
        return list(done)

    assert run(loop, main) == [1]


@pytest.mark.parametrize("loop", LOOPS)
def test_a_cancelled_callback_and_a_future_timer_leave_it_idle(loop: str) -> None:
    async def main() -> bool:
        running = asyncio.get_running_loop()
        running.call_soon(print, "never").cancel()
        sleeper = asyncio.ensure_future(asyncio.sleep(3600))
        await idle(rounds=100)
        sleeper.cancel()
        return True

    assert run(loop, main)


def test_uninstalled_uvloop_is_as_it_was() -> None:
    assert "call_soon" in uvloop.Loop.__dict__
    THREAD_WORK.uninstall()
    try:
        assert "call_soon" not in uvloop.Loop.__dict__
    finally:
        THREAD_WORK.install()


@pytest.mark.parametrize("loop", LOOPS)
def test_a_render_workers_job_is_waited_for(loop: str) -> None:
    """A call out in a render worker (pipes read by loop.add_reader: no thread, no executor)
    keeps the bot busy until its answer is back, on either loop."""
    from host.renderpool import RenderPool

    async def main() -> tuple[str, Any]:
        pool = RenderPool(1, warm=False)
        pool.start()
        try:
            await pool.ready()
            job = asyncio.ensure_future(pool.run(1, pow, 2, 10))
            await idle(rounds=100_000)
            assert job.done()
            return job.result()
        finally:
            await pool.close()

    assert run(loop, main) == ("done", 1024)
