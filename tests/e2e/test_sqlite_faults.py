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
from typing import Any

import pytest

from bot import Cosmodrome, build_bot
from core.i18n import t
from host.clock import FakeClock
from host.settings import Settings
from host.storage import SqliteStore, _Direct
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


def told(seats: dict[FakeUser, int], user: FakeUser, reply: Reply, key: str) -> None:
    """The click was refused with the sentence ``key``, in the player's language."""
    assert refused(reply)
    lang = "es" if seats[user] == 0 else "en"
    assert t(key, lang) in reply.text()


async def plays_on(h: Harness, seats: dict[FakeUser, int], version: int) -> None:
    """The game still at ``version``: the next click plays, and the game replays."""
    assert (await snapshot(h)).row.version == version
    _, reply = await click_waiting(h, seats)
    assert not refused(reply)
    assert (await snapshot(h)).row.version == version + 1
    await assert_replays(h)


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
        told(seats, user, reply, "host.error.storage_not_made")
        assert (await snapshot(h)).row.version == before.row.version
    finally:
        other.rollback()
        other.close()
    await plays_on(h, seats, before.row.version)


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


def failing(monkeypatch: pytest.MonkeyPatch, *statements: str) -> dict[str, int]:
    """Make each of ``statements`` (e.g. "COMMIT", "ROLLBACK") fail once, as a disk I/O
    error, in the transactions run in one trip (a move's); how many times each failed."""
    inner = _Direct.sql
    failed = dict.fromkeys(statements, 0)

    def sql(self: _Direct, text: str, *args: Any, **kwargs: Any) -> Any:
        if failed.get(text) == 0:
            failed[text] += 1
            raise sqlite3.OperationalError("disk I/O error")
        return inner(self, text, *args, **kwargs)

    monkeypatch.setattr(_Direct, "sql", sql)
    return failed


async def test_a_commit_and_its_rollback_both_failing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    """The move's COMMIT fails and so does the ROLLBACK after it: the connection must not
    stay inside the move's transaction (where a read would see the move as made). The
    player is told the truth (not made), the file holds no trace of the move, and the
    next click plays."""
    h = harness
    seats, _ = await setup(h)
    before = await snapshot(h)
    kept = await host_of(h).store.actions(before.id)
    store = host_of(h).store
    first = store.db
    failed = failing(monkeypatch, "COMMIT", "ROLLBACK")
    user, reply = await click_waiting(h, seats)
    assert failed == {"COMMIT": 1, "ROLLBACK": 1}
    told(seats, user, reply, "host.error.storage_not_made")
    # The connection left inside the move's transaction was closed, a new one opened.
    assert store.db is not first and not store.db.in_transaction
    assert await store.actions(before.id) == kept
    other = sqlite3.connect(db_path)  # what another program reads in the file
    try:
        (n,) = other.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (before.id,))
        assert n == (len(kept),)
    finally:
        other.close()
    await plays_on(h, seats, before.row.version)


async def test_a_commit_answer_lost_with_the_move_stored(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The COMMIT goes through but its answer is an error: read again, the move is stored,
    so the player is told nothing wrong and the table shows it."""
    h = harness
    seats, _ = await setup(h)
    before = await snapshot(h)
    inner = _Direct.sql
    lost = {"n": 0}

    def sql(self: _Direct, text: str, *args: Any, **kwargs: Any) -> Any:
        out = inner(self, text, *args, **kwargs)
        if text == "COMMIT" and not lost["n"]:
            lost["n"] += 1
            raise sqlite3.OperationalError("disk I/O error")
        return out

    monkeypatch.setattr(_Direct, "sql", sql)
    _, reply = await click_waiting(h, seats)
    assert lost["n"] == 1 and not refused(reply)
    assert (await snapshot(h)).row.version == before.row.version + 1
    assert await play_turn(h, seats, random.Random(3)) is not None
    await assert_replays(h)


async def test_a_double_fault_and_the_file_cannot_be_opened_again(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The COMMIT and its ROLLBACK fail, and the file cannot be opened again for a while:
    the player is told it cannot be told yet (never that the move was made); once the file
    opens again, the move is not there and the next click plays."""
    h = harness
    seats, store = await setup(h)
    before = await snapshot(h)
    connect = SqliteStore._connect
    down = {"on": True, "tries": 0}

    async def unopenable(path: str, busy_timeout: float) -> Any:
        if down["on"]:
            down["tries"] += 1
            raise sqlite3.OperationalError("unable to open database file")
        return await connect(path, busy_timeout)

    monkeypatch.setattr(SqliteStore, "_connect", staticmethod(unopenable))
    failing(monkeypatch, "COMMIT", "ROLLBACK")
    user, reply = await click_waiting(h, seats)
    assert down["tries"] >= 2
    told(seats, user, reply, "host.error.storage_unsure")
    down["on"] = False
    await plays_on(h, seats, before.row.version)
    assert not store.db.in_transaction
