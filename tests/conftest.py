"""Shared fixtures: a bot factory on a real SQLite file, and the offline Discord harness."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import Cosmodrome, build_bot
from host.clock import FakeClock
from host.settings import Settings
from tests.harness.fixtures import harness, make_harness, no_network  # noqa: F401


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
    settings = Settings(token="test-token", db_path=str(db_path))
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)
