"""Bots in the background meet the cog's life cycle (issue 13 with issue 14): unloading the
cog (shutdown) cancels the bots' tasks, the tick and the start-up resume, and waits for them
to end, so none is left pending when the loop closes; the move a cancelled bot was thinking
is still owed, and made after a restart."""

from __future__ import annotations

import asyncio

from tests.e2e.botkit import mlem_with_a_bot_thinking
from tests.e2e.kit import cog_of, host_of, snapshot
from tests.harness import Harness


async def test_unloading_the_cog_ends_its_bot_tasks(harness: Harness) -> None:
    h = harness
    _, gate = await mlem_with_a_bot_thinking(h, 9)
    cog = cog_of(h)
    tasks = [*cog.bot_tasks.values(), cog._ticker, cog._resume]
    assert gate.waiting == 1 and cog.bot_tasks
    before = await snapshot(h)
    assert h.bot is not None
    await h.bot.remove_cog("GameCog")
    # Every task has ended by the time the unload returns (none "destroyed but pending").
    assert all(t is None or t.done() for t in tasks)
    assert not cog.bot_tasks
    after = await snapshot(h)
    assert after.row.version == before.row.version  # nothing half done
    assert await host_of(h).bots_owed() == [after.id]  # the bot's move is still owed
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("bots-")]
    gate.event.set()
