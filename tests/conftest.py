"""Shared fixtures: a bot factory on a real SQLite file, and the offline Discord harness."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_asyncio

from bot import Cosmodrome, build_bot
from core import i18n
from host.clock import FakeClock
from host.settings import Settings
from tests.harness.fixtures import make_harness, no_network  # noqa: F401


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cosmodrome.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bot_factory(db_path: Path, clock: FakeClock) -> Callable[[], Cosmodrome]:
    """Each call builds a fresh bot on the same database (a restart builds another).

    Seeds for new games come from a counter, so every run deals the same games."""
    settings = Settings(token="test-token", db_path=str(db_path), tick_seconds=0)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


@pytest_asyncio.fixture
async def harness(make_harness, bot_factory):  # noqa: F811 - wraps the harness's fixture
    """A started harness around ``bot_factory``. At the end of the test: no refusal
    sentence (refusals are always private) ever appeared in a channel, in either language."""
    h = await make_harness(bot_factory)
    yield h
    public = h.all_public_text()
    for lang in ("en", "es"):
        for key, text in i18n.catalog()[lang].items():
            if key.startswith("host.error.") and "{" not in text:
                assert text not in public, f"refusal {key} was shown in a channel"
