"""The garbage collector once the bot is loaded (issue 23, bot.steady_gc): what
exists then is frozen out of the collector's sight and young objects are collected after
5,000 allocations; done once per process (a second bot, or a restart, changes nothing)."""

from __future__ import annotations

import gc

import pytest

import bot
from tests.harness import Harness


async def test_the_bot_loaded_leaves_the_collector_steady(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert gc.get_threshold() == bot.GC_THRESHOLDS
    # modules, catalogs, the rules' data: out of the collector's way
    assert gc.get_freeze_count() > 10_000

    def again() -> None:
        raise AssertionError("frozen again")

    monkeypatch.setattr(gc, "freeze", again)
    monkeypatch.setattr(gc, "collect", again)
    await harness.restart()  # once per process
    assert gc.get_threshold() == bot.GC_THRESHOLDS
