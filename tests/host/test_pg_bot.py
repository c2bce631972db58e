"""The whole bot on PostgreSQL, through the offline Discord harness: a game from /game new
to the final scores, a restart mid-game that goes on from the old buttons, and the stats."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot import Cosmodrome, build_bot
from host.clock import FakeClock
from host.settings import Settings
from host.storage_pg import PgStore
from tests.e2e.driver import play_to_end, play_turn
from tests.e2e.test_mlem_e2e import check_replay, game_of, open_game, snapshot
from tests.harness import Harness
from tests.harness.idle import THREAD_WORK


@pytest.fixture(autouse=True)
def database_work_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness waits for the bot to be idle by watching the event loop and its worker
    threads; a PostgreSQL query waits on a socket instead. Count every connection in use
    as pending work, so that the harness waits for the database too."""
    inner = PgStore._conn

    @contextlib.asynccontextmanager
    async def counted(self: PgStore) -> AsyncIterator[Any]:
        loop = asyncio.get_running_loop()
        THREAD_WORK.begin(loop)
        try:
            async with inner(self) as con:
                yield con
        finally:
            THREAD_WORK.end(loop)

    monkeypatch.setattr(PgStore, "_conn", counted)


@pytest.fixture
def bot_factory(pg_url: str, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(token="test-token", db_path=pg_url, tick_seconds=0)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def test_a_whole_game_with_a_restart_on_postgresql(harness: Harness) -> None:
    h = harness
    assert isinstance(game_of(h).store, PgStore)
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, ana, ben)
    seats = {ana: 0, ben: 1}
    rng = random.Random(4)
    for _ in range(6):
        await play_turn(h, seats, rng)
    before = await snapshot(h)
    await h.restart()
    assert await play_turn(h, seats, rng) is not None  # a button the old instance posted
    assert (await snapshot(h)).row.version > before.row.version
    final = await play_to_end(h, seats, rng)
    assert "🏆" in final.text()
    await check_replay(h)
    stats = await h.slash(ben, "stats")
    assert "MLEM" in stats.text()
    mine = await h.slash(ana, "game mine")
    assert mine is not None
    assert not h.unexpected
