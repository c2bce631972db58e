"""Pytest fixtures for the harness. The lead's ``tests/conftest.py`` imports them:

from tests.harness.fixtures import harness, make_harness, no_network  # noqa: F401

@pytest.fixture
def bot_factory(tmp_path):          # what ``harness`` builds; define it in conftest
    settings = Settings(db_path=tmp_path / "bot.sqlite3", ...)
    return lambda: build_bot(settings)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio

from . import netguard
from .core import Harness

__all__ = ["harness", "make_harness", "no_network"]

HarnessMaker = Callable[..., Awaitable[Harness]]


@pytest.fixture
def no_network() -> Iterator[None]:
    """Block sockets and DNS for the whole test (the harness also does while started)."""
    with netguard.blocked():
        yield


@pytest_asyncio.fixture
async def make_harness() -> AsyncIterator[HarnessMaker]:
    """``h = await make_harness(bot_factory, guild_locale="es-ES", ...)``: a started
    :class:`Harness` (``start=False`` to start it yourself), stopped at teardown."""
    made: list[Harness] = []

    async def make(
        bot_factory: Callable[[], Any], *, start: bool = True, **kwargs: Any
    ) -> Harness:
        h = Harness(bot_factory, **kwargs)
        made.append(h)
        if start:
            await h.start()
        return h

    yield make
    for h in reversed(made):
        await h.stop()


@pytest_asyncio.fixture
async def harness(make_harness: HarnessMaker, bot_factory: Callable[[], Any]) -> Harness:
    """A started harness around the ``bot_factory`` fixture (which conftest provides)."""
    return await make_harness(bot_factory)
