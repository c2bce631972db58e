"""The ``host`` fixture of the host tests (a module may define its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from host.clock import FakeClock
from host.sessions import Host
from tests.host.kit import hosted


@pytest.fixture
async def host(db: str) -> AsyncIterator[Host]:
    """A Host on the toy game, on each backend in turn (the ``db`` fixture)."""
    async with hosted(db, FakeClock()) as h:
        yield h
