"""Per-game locks do not leak (issue 14): once games are idle, neither the host's game locks
nor the cog's publish locks hold an entry, after clicks, bot moves and pacing ticks."""

from __future__ import annotations

import random

from host.clock import FakeClock
from host.pacing import HOUR
from tests.e2e.driver import play_turn
from tests.e2e.kit import cog_of, host_of, open_game, snapshot
from tests.harness import Harness


async def test_no_lock_is_left_once_the_games_are_idle(harness: Harness, clock: FakeClock) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], bots=1)  # a bot moves after the people too
    rng = random.Random(2)
    for _ in range(6):
        await play_turn(h, {ana: 0, ben: 1}, rng)
    assert (await snapshot(h)).row.version > 6
    clock.advance(13 * HOUR)  # reminders are due: the tick publishes and nudges
    await cog_of(h).tick()
    await cog_of(h).tick()
    assert len(host_of(h).locks) == 0
    assert len(cog_of(h).publish_locks) == 0
