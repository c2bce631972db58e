"""The whole bot on PostgreSQL, through the offline Discord harness: a game from /game new
to the final scores, a restart mid-game that goes on from the old buttons, and the stats."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot import Cosmodrome, build_bot
from host.clock import FakeClock
from host.settings import Settings
from host.storage_pg import PgStore
from tests.e2e.driver import play_to_end, play_turn
from tests.e2e.kit import assert_replays, host_of, open_and_play, snapshot
from tests.e2e.pgkit import database_work_counts  # noqa: F401 - autouse fixture
from tests.harness import Harness


@pytest.fixture
def bot_factory(pg_url: str, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(token="test-token", db_path=pg_url, tick_seconds=0)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def test_a_whole_game_with_a_restart_on_postgresql(harness: Harness) -> None:
    h = harness
    assert isinstance(host_of(h).store, PgStore)
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats, rng = await open_and_play(h, "mlem", [ana, ben], turns=6, seed=4)
    before = await snapshot(h)
    await h.restart()
    assert await play_turn(h, seats, rng) is not None  # a button the old instance posted
    assert (await snapshot(h)).row.version > before.row.version
    final = await play_to_end(h, seats, rng)
    assert "🏆" in final.text()
    await assert_replays(h)
    stats = await h.slash(ben, "stats")
    assert "MLEM" in stats.text()
    mine = await h.slash(ana, "game mine")
    assert mine is not None
    assert not h.unexpected
