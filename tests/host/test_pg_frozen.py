"""A database that stops answering (neither answering nor refusing: a paused server, a dead
link) never holds a click (issue 24): through a proxy that stops forwarding, every click is
acknowledged well within Discord's 3 s with the private sentence "the game's storage is not
answering", nothing changes, and once the database answers again play goes on by itself.

The bot runs with a small COSMODROME_DB_TIMEOUT (:data:`TIMEOUT`), so the waits are short;
the budget checked is the one the default timeout keeps (see README, "When the database is
away")."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot import Cosmodrome, build_bot
from core.i18n import t
from host.clock import FakeClock
from host.settings import Settings
from tests.conftest import new_pg_database
from tests.e2e.driver import (
    hand_button,
    latest_table,
    move_buttons,
    play_turn,
    press,
    refused,
    waiting_ids,
)
from tests.e2e.kit import open_game, snapshot
from tests.e2e.pgkit import database_work_counts  # noqa: F401 - autouse fixture
from tests.harness import Harness
from tests.host.pgproxy import FreezableProxy
from tests.host.pgserver import PgTestServer

#: The bot's COSMODROME_DB_TIMEOUT in these tests (seconds).
TIMEOUT = 0.3
#: The longest a click may wait for its acknowledgement: Discord's 3 s scaled as the
#: default timeout (1 s) is to :data:`TIMEOUT`. A call on a stuck connection fails after two
#: timeouts (the statement's, then asyncpg's cancel request's), a call that must connect
#: after one, and a click answers at the first call that fails (measured: 2.05 timeouts).
BUDGET = 3 * TIMEOUT


@pytest.fixture
def proxy(pg_server: PgTestServer) -> Iterator[FreezableProxy]:
    p = FreezableProxy(pg_server.socket_dir)
    p.start()
    yield p
    p.thaw()
    p.stop()


@pytest.fixture
def bot_factory(
    pg_server: PgTestServer, proxy: FreezableProxy, clock: FakeClock
) -> Callable[[], Cosmodrome]:
    url = proxy.url(new_pg_database(pg_server))
    settings = Settings(
        token="test-token", db_path=url, tick_seconds=0, db_pool=2, db_timeout=TIMEOUT
    )
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


def ack_times(h: Harness) -> dict[int, float]:
    """When (time.monotonic) each interaction got its first answer, from now on."""
    acked: dict[int, float] = {}
    inner = h.backend.interaction_callback

    def callback(rec: Any, body: Any, files: Any) -> None:
        acked.setdefault(rec.id, time.monotonic())
        inner(rec, body, files)

    h.backend.interaction_callback = callback  # type: ignore[method-assign]
    return acked


async def timed(acked: dict[int, float], run: Any) -> tuple[Any, float]:
    """Run one interaction; its reply, and how long it waited for its acknowledgement."""
    before = set(acked)
    start = time.monotonic()
    reply = await run
    (rid,) = set(acked) - before
    return reply, acked[rid] - start


async def test_a_frozen_database_answers_every_click_in_time(
    harness: Harness, proxy: FreezableProxy
) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats = {ana: 0, ben: 1}
    await open_game(h, "mlem", ana, [ben])
    before = await snapshot(h)
    table = latest_table(h)
    acked = ack_times(h)
    waiting = next(u for u in seats if u.id in waiting_ids(table))
    lang = {ana: "es", ben: "en"}
    down = {u: t("host.error.storage_down", lang[u]) for u in seats}

    proxy.freeze()
    button = move_buttons(table, seats[waiting])[0]
    for attempt in range(3):  # the pool's connections time out, then cannot connect
        reply, waited = await timed(acked, press(h, waiting, table, button, random.Random(1)))
        assert waited < BUDGET, f"click {attempt} acknowledged after {waited:.2f} s"
        assert refused(reply) and down[waiting] in reply.text()
    reply, waited = await timed(acked, h.click(ben, table, hand_button(table)))
    assert waited < BUDGET and refused(reply) and down[ben] in reply.text()
    reply, waited = await timed(acked, h.slash(ana, "game list"))
    assert waited < BUDGET and reply.ephemeral and down[ana] in reply.text()
    assert latest_table(h).id == table.id  # nothing shown changed

    proxy.thaw()  # the bot recovers by itself: the same click now plays
    assert not refused(await press(h, waiting, table, button, random.Random(1)))
    after = await snapshot(h)
    assert after.row.version == before.row.version + 1
    assert after.row.published_version == after.row.version
    assert await play_turn(h, seats, random.Random(2)) is not None
    public = h.all_public_text()
    assert all(text not in public for text in down.values())
