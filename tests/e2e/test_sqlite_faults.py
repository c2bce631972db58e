"""SQLite faults never mislead a player (issue 24), through the offline Discord harness: a
full disk (SQLite's own "database or disk is full", from a cap on the file's pages) and a
file another program holds locked. The click is answered with a private sentence, nothing
committed before is lost, nothing half-written, and play resumes once there is room (or the
lock is gone)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import Cosmodrome, build_bot
from core.i18n import t
from host.clock import FakeClock
from host.settings import Settings
from host.storage import SqliteStore
from tests.e2e.driver import latest_table, move_buttons, play_turn, press, refused, waiting_ids
from tests.e2e.kit import assert_replays, host_of, open_game, snapshot
from tests.harness import Harness
from tests.harness.models import FakeUser, Reply

#: The bot's COSMODROME_DB_TIMEOUT here: how long a write waits for a locked file.
TIMEOUT = 0.2


@pytest.fixture
def bot_factory(db_path: Path, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(
        token="test-token", db_path=str(db_path), tick_seconds=0, db_timeout=TIMEOUT
    )
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def setup(h: Harness) -> tuple[dict[FakeUser, int], SqliteStore]:
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    store = host_of(h).store
    assert isinstance(store, SqliteStore)
    seats = {ana: 0, ben: 1}
    rng = random.Random(7)
    for _ in range(4):
        assert await play_turn(h, seats, rng) is not None
    return seats, store


async def click_waiting(h: Harness, seats: dict[FakeUser, int]) -> tuple[FakeUser, Reply]:
    table = latest_table(h)
    user = next(u for u in seats if u.id in waiting_ids(table))
    button = move_buttons(table, seats[user])[0]
    return user, await press(h, user, table, button, random.Random(1))


async def test_a_full_disk(harness: Harness) -> None:
    h = harness
    seats, store = await setup(h)
    pages = (await (await store.db.execute("PRAGMA page_count")).fetchone())[0]  # type: ignore[index]
    await store.db.execute(f"PRAGMA max_page_count = {pages}")  # no room to grow
    before = await snapshot(h)
    kept = await store.actions(before.id)
    refusals = 0
    for _ in range(30):  # the moves that still fit in the file's free room go through
        snap = await snapshot(h)
        user, reply = await click_waiting(h, seats)
        if refused(reply):
            lang = "es" if seats[user] == 0 else "en"
            assert t("host.error.storage_not_made", lang) in reply.text()
            assert (await snapshot(h)).row.version == snap.row.version  # nothing half-written
            refusals += 1
            break
    assert refusals == 1, "the disk never filled up"
    assert (await store.actions(before.id))[: len(kept)] == kept  # nothing committed lost
    assert (await snapshot(h)).row.published_version == (await snapshot(h)).row.version

    await store.db.execute(f"PRAGMA max_page_count = {pages + 10_000}")  # room again
    version = (await snapshot(h)).row.version
    _, reply = await click_waiting(h, seats)
    assert not refused(reply)
    assert (await snapshot(h)).row.version == version + 1
    assert await play_turn(h, seats, random.Random(3)) is not None
    await assert_replays(h)


async def test_a_file_another_program_holds_locked(harness: Harness, db_path: Path) -> None:
    h = harness
    seats, _ = await setup(h)
    before = await snapshot(h)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program writes and does not let go
        user, reply = await click_waiting(h, seats)
        assert refused(reply)
        lang = "es" if seats[user] == 0 else "en"
        assert t("host.error.storage_not_made", lang) in reply.text()
        assert (await snapshot(h)).row.version == before.row.version
    finally:
        other.rollback()
        other.close()
    _, reply = await click_waiting(h, seats)
    assert not refused(reply)
    assert (await snapshot(h)).row.version == before.row.version + 1
    await assert_replays(h)


async def test_a_lobby_reposted_but_not_recorded_is_taken_back(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/game status reposts the lobby at the bottom; the disk is full when its id is to be
    recorded: the new copy is taken back, so the lobby recorded stays the one live lobby."""
    h = harness
    ana = h.user("Ana", "es-ES")
    lobby = (await h.slash(ana, "game new", game="mlem")).posted
    store = host_of(h).store
    inner = store.update_game

    async def full(game_id: int, now: float, **fields: object) -> None:
        if "lobby_message_id" in fields:
            raise sqlite3.OperationalError("database or disk is full")
        await inner(game_id, now, **fields)

    monkeypatch.setattr(store, "update_game", full)
    reply = await h.slash(ana, "game status")
    assert t("host.error.storage_down", "es") in reply.text()
    lobbies = [m for m in h.messages(h.channel_id) if m.buttons]
    assert [m.id for m in lobbies] == [lobby.id]
    row = await store.latest_game(h.channel_id)
    assert row is not None and row.lobby_message_id == lobby.id
