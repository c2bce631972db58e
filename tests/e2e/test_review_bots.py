"""Bots in the background meet the cog's life cycle (issue 13 with issue 14): unloading the
cog (shutdown) cancels the bots' tasks, the tick and the start-up resume, and waits for them
to end, so none is left pending when the loop closes; the move a cancelled bot was thinking
is still owed, and made after a restart."""

from __future__ import annotations

import asyncio
import random

from tests.e2e.test_bot_levels import (
    START,
    Gate,
    cog_of,
    host_of,
    mlem_move_to_a_bot,
    open_lobby,
    small_budgets,
    snapshot,
)
from tests.harness import Harness


async def test_unloading_the_cog_ends_its_bot_tasks(harness: Harness) -> None:
    h = harness
    small_budgets(h)
    ana = h.user("Ana", "en-US")
    lobby = await open_lobby(h, "mlem", ana, bots=1)
    await h.click(ana, lobby, label=START)
    gate = Gate(host_of(h))
    await mlem_move_to_a_bot(h, ana, random.Random(9))
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
