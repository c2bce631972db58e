"""A PostgreSQL server that drops a connection at the worst moment never misleads a player
(issue 24), through the offline Discord harness on a real server: the backend killed right
after a move's commit, or during it (the COMMIT's answer lost), or before it."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import asyncpg
import pytest

from bot import Cosmodrome, build_bot
from core.i18n import t
from host.clock import FakeClock
from host.dbfaults import StorageDown
from host.settings import Settings
from host.storage_pg import PgStore, _unlock
from tests.e2e.driver import (
    is_final,
    latest_table,
    move_buttons,
    offers,
    play_turn,
    press,
    refused,
    tables,
    waiting_ids,
)
from tests.e2e.kit import assert_replays, host_of, open_game, snapshot
from tests.e2e.pgkit import database_work_counts  # noqa: F401 - autouse fixture
from tests.harness import Harness
from tests.harness.idle import THREAD_WORK

JOIN, START = t("host.lobby.join", "es"), t("host.lobby.start", "es")  # Ana opens the lobbies


@pytest.fixture
def bot_factory(pg_url: str, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(token="test-token", db_path=pg_url, tick_seconds=0, db_pool=2)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def kill_backend(url: str, pid: int) -> None:
    """pg_terminate_backend from another connection, waiting until the backend is gone."""
    con = await asyncpg.connect(url)
    try:
        assert await con.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        await con.close()


async def start(h: Harness) -> tuple[dict[Any, int], PgStore]:
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    store = host_of(h).store
    assert isinstance(store, PgStore)
    return {ana: 0, ben: 1}, store


def kill_at_commit(
    store: PgStore, url: str, *, when: str, raise_after: bool = False
) -> dict[str, int]:
    """Make the next move's commit meet a killed backend: ``before`` it runs, or ``after``
    it committed (then, with ``raise_after``, as if the COMMIT's answer was lost on the
    way), or after the commit of the move that ends the game (``over``). Returns a counter
    of the kills made."""
    inner = store.commit_action
    kills = {"n": 0}

    async def commit(move: Any) -> int:
        con = store._current()
        assert con is not None  # a move commits on its game lock's connection
        if kills["n"] == 0 and when == "before":
            kills["n"] += 1
            await kill_backend(url, con.get_server_pid())
        version = await inner(move)
        if kills["n"] == 0 and (when == "after" or (when == "over" and move.over)):
            kills["n"] += 1
            await kill_backend(url, con.get_server_pid())
            if raise_after:
                raise asyncpg.exceptions.ConnectionDoesNotExistError(
                    "connection was closed in the middle of operation"
                )
        return version

    store.commit_action = commit  # type: ignore[method-assign]
    return kills


def kill_at_record(store: PgStore, url: str, field: str) -> dict[str, int]:
    """Kill the backend of the next ``update_game`` that records ``field``, just before
    it runs (so it fails). Returns a counter of the kills made."""
    inner = store.update_game
    kills = {"n": 0}

    async def update_game(game_id: int, now: float, **fields: Any) -> None:
        con = store._current()
        if field in fields and kills["n"] == 0 and con is not None:
            kills["n"] += 1
            await kill_backend(url, con.get_server_pid())
        await inner(game_id, now, **fields)

    store.update_game = update_game  # type: ignore[method-assign]
    return kills


async def check_move_shown(h: Harness, store: PgStore, version: int) -> None:
    after = await snapshot(h)
    assert after.row.version == version
    assert after.row.published_version == after.row.version  # the table follows
    assert latest_table(h).id == after.row.table_message_id
    assert await store.lagging_games() == []


async def test_backend_killed_right_after_the_commit(harness: Harness, pg_url: str) -> None:
    """The unlock after the commit meets a dead connection: the player is not told that
    nothing changed, and the table shows the move."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    kills = kill_at_commit(store, pg_url, when="after")
    reply = await play_turn(h, seats, random.Random(1))  # asserts: not refused
    assert reply is not None and not refused(reply)
    assert kills["n"] == 1
    await check_move_shown(h, store, before.row.version + 1)
    assert await play_turn(h, seats, random.Random(2)) is not None  # play goes on


async def test_commit_answer_lost_but_the_move_is_stored(harness: Harness, pg_url: str) -> None:
    """The connection is lost during the COMMIT (the answer never comes back) but the move
    is stored: read again on a fresh connection, the player is told nothing wrong."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    kill_at_commit(store, pg_url, when="after", raise_after=True)
    reply = await play_turn(h, seats, random.Random(1))
    assert reply is not None and not refused(reply)
    await check_move_shown(h, store, before.row.version + 1)
    assert len(await store.actions(before.id)) == sum(before.moves_by_seat.values()) + 1


async def test_backend_killed_before_the_commit(harness: Harness, pg_url: str) -> None:
    """The connection dies before the move is stored: the player hears that the storage
    stopped answering and the move was not made; nothing changed; the next click plays."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    kill_at_commit(store, pg_url, when="before")
    table = latest_table(h)
    waiting = next(u for u in seats if u.id in waiting_ids(table))
    ana = next(u for u, s in seats.items() if s == 0)
    button = move_buttons(table, seats[waiting])[0]
    reply = await press(h, waiting, table, button, random.Random(1))
    assert refused(reply)
    lang = "es" if waiting is ana else "en"
    assert t("host.error.storage_not_made", lang) in reply.text()
    assert (await snapshot(h)).row.version == before.row.version
    assert latest_table(h).id == table.id
    assert await play_turn(h, seats, random.Random(3)) is not None
    assert (await snapshot(h)).row.version == before.row.version + 1


async def test_commit_answer_lost_and_the_database_cannot_say(
    harness: Harness, pg_url: str
) -> None:
    """The COMMIT's answer is lost and the read that would tell fails too: the player is
    told it is not known yet (never "nothing was changed"); the move is stored, and the
    tick shows it."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    kill_at_commit(store, pg_url, when="after", raise_after=True)
    actions = store.actions
    failed = {"n": 0}

    async def unreadable(*args: Any, **kwargs: Any) -> Any:
        if failed["n"] == 0:
            failed["n"] += 1
            raise StorageDown()
        return await actions(*args, **kwargs)

    store.actions = unreadable  # type: ignore[method-assign]
    table = latest_table(h)
    waiting = next(u for u in seats if u.id in waiting_ids(table))
    reply = await press(
        h, waiting, table, move_buttons(table, seats[waiting])[0], random.Random(1)
    )
    assert refused(reply)
    lang = "es" if seats[waiting] == 0 else "en"
    assert t("host.error.storage_unsure", lang) in reply.text()
    assert (await snapshot(h)).row.version == before.row.version + 1
    await h.bot.get_cog("GameCog").tick()  # type: ignore[union-attr]
    await check_move_shown(h, store, before.row.version + 1)


async def test_backend_killed_after_the_last_move_of_the_game(
    harness: Harness, pg_url: str
) -> None:
    """The game's last move commits, then its connection dies before the results are
    written: the final table is shown, and the results are written all the same."""
    h = harness
    seats, store = await start(h)
    kills = kill_at_commit(store, pg_url, when="over")
    rng = random.Random(11)
    for _ in range(2000):
        if await play_turn(h, seats, rng) is None:
            break
    assert kills["n"] == 1
    final = await snapshot(h)
    assert final.row.status == "over" and is_final(latest_table(h))
    assert final.row.published_version == final.row.version
    for user in seats:
        assert [row[0] for row in await store.user_stats(user.id)] == ["mlem"]
    await assert_replays(h)


def live_tables(h: Harness) -> list[Any]:
    """The channel's table messages with a button still enabled."""
    return [m for m in tables(h) if any(not b.disabled for b in m.buttons)]


async def test_database_fails_between_posting_a_table_and_recording_it(
    harness: Harness, pg_url: str
) -> None:
    """A new table is posted, then its connection is killed before its id is recorded:
    the posted table is taken back, so the channel never holds a table nobody recorded;
    the next publish (the tick) leaves one live table, the last game message."""
    h = harness
    seats, store = await start(h)
    kills = kill_at_record(store, pg_url, "table_message_id")
    rng = random.Random(5)
    while kills["n"] == 0:  # until a move needs a new table (a new player to move)
        before = await snapshot(h)
        assert await play_turn(h, seats, rng) is not None
    after = await snapshot(h)
    assert after.row.version == before.row.version + 1  # the move stands
    assert after.row.published_version < after.row.version  # not shown yet: it lags
    # The table recorded is the one live table (the trail of moves may be below it now).
    assert [m.id for m in live_tables(h)] == [after.row.table_message_id]
    assert latest_table(h).id == after.row.table_message_id
    await h.bot.get_cog("GameCog").tick()  # type: ignore[union-attr]
    shown = await snapshot(h)
    assert shown.row.published_version == shown.row.version
    assert [m.id for m in live_tables(h)] == [shown.row.table_message_id]
    assert latest_table(h).id == shown.row.table_message_id
    assert h.messages(h.channel_id)[-1].id == shown.row.table_message_id
    assert await play_turn(h, seats, rng) is not None


async def test_slow_discord_never_holds_the_connections_clicks_need(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 games clicked at once while Discord answers each request slowly, on a pool of 2:
    every publish holds its lock's connection across its Discord calls, from a pool of its
    own, so no click waits for a connection of the main pool longer than the timeout (the
    clicks would otherwise be told that the storage is not answering)."""
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats = {ana: 0, ben: 1}
    channels = [h.channel_id] + [h.new_channel(f"mesa-{i}") for i in range(19)]
    for channel in channels:
        lobby = (await h.slash(ana, "game new", channel=channel, game="mlem")).posted
        await h.click(ben, lobby, label=JOIN)
        await h.click(ana, lobby, label=START)
    store = host_of(h).store
    assert isinstance(store, PgStore) and store.timeout is not None

    waits: list[float] = []
    acquire = asyncpg.pool.Pool.acquire

    def timed_acquire(pool: asyncpg.Pool, *args: Any, **kwargs: Any) -> Any:
        inner = acquire(pool, *args, **kwargs)
        if pool is not store.pool:
            return inner

        class Timed:
            async def __aenter__(self) -> Any:
                start = time.monotonic()
                try:
                    return await inner.__aenter__()
                finally:
                    waits.append(time.monotonic() - start)

            async def __aexit__(self, *exc: Any) -> Any:
                return await inner.__aexit__(*exc)

        return Timed()

    monkeypatch.setattr(asyncpg.pool.Pool, "acquire", timed_acquire)
    slow_discord(h, SLOW_DISCORD)

    clicks = []
    for channel in channels:
        table = latest_table(h, channel)
        user = next(u for u in seats if u.id in waiting_ids(table))
        offer = offers(table, seats[user])[0]
        values = None if offer.value is None else [offer.value]
        clicks.append(
            {"user": user, "message": table, "custom_id": offer.custom_id, "values": values}
        )
    replies = await h.click_many(clicks)
    assert not any(refused(r) for r in replies), [r.text() for r in replies if refused(r)]
    assert waits and max(waits) < store.timeout, f"a click waited {max(waits):.2f} s"
    for channel in channels:
        snap = await snapshot(h, channel)
        assert snap.row.version == 3  # started, then one move
        assert snap.row.published_version == snap.row.version
        assert latest_table(h, channel).id == snap.row.table_message_id


#: How long each Discord request but the interactions' own answers takes (seconds).
SLOW_DISCORD = 0.1


def slow_discord(h: Harness, delay: float) -> None:
    """Every request to Discord's API but the answers to interactions (callbacks and
    followups) waits ``delay`` seconds first, counted as pending work for the harness."""
    inner = h.backend.http

    async def slow(method: str, url: str, **kwargs: Any) -> Any:
        if "/interactions/" not in url and "/webhooks/" not in url:
            loop = asyncio.get_running_loop()
            THREAD_WORK.begin(loop)
            try:
                await asyncio.sleep(delay)
            finally:
                THREAD_WORK.end(loop)
        return await inner(method, url, **kwargs)

    h.backend.http = slow  # type: ignore[method-assign]


def trail_messages(h: Harness) -> list[Any]:
    return [m for m in h.messages(h.channel_id) if "• " in (m.content or "") and not m.embeds]


async def test_database_fails_before_the_trail_is_recorded(harness: Harness, pg_url: str) -> None:
    """The first move's trail message is posted, then the connection dies before it is
    recorded: the message is taken back, so the moves are never written twice; the tick
    writes the trail once, then the table below it."""
    h = harness
    seats, store = await start(h)
    kills = kill_at_record(store, pg_url, "trail_seq")
    assert trail_messages(h) == []
    assert await play_turn(h, seats, random.Random(1)) is not None
    assert kills["n"] == 1
    assert trail_messages(h) == []  # posted, not recorded: taken back
    await h.bot.get_cog("GameCog").tick()  # type: ignore[union-attr]
    (trail,) = trail_messages(h)
    shown = await snapshot(h)
    assert shown.row.trail_message_id == trail.id
    assert shown.row.published_version == shown.row.version
    assert h.messages(h.channel_id)[-1].id == shown.row.table_message_id


async def test_an_unlock_that_fails_closes_its_connection(pg_url: str) -> None:
    """An advisory unlock that fails on a live connection (here a statement error; in life
    a timeout) never raises over the critical section, and the connection is closed rather
    than pooled still holding the lock: PostgreSQL frees it, and the pool connects anew."""
    store = await PgStore.open(pg_url, max_size=2)
    other = await asyncpg.connect(pg_url)
    try:
        async with store._conn() as con:
            await con.execute("SELECT pg_advisory_lock($1)", 77)
            assert not await other.fetchval("SELECT pg_try_advisory_lock(77)")
            await _unlock(con, "SELECT pg_advisory_unlock($1) / 0", 77)  # division by zero
            # Closed at once, not only when handed back (asyncpg's reset unlocks all too).
            for _ in range(100):  # the server ends the session's locks as it goes
                if await other.fetchval("SELECT pg_try_advisory_lock(77)"):
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the lock outlived its connection")
        assert await store.count_actions(1) == 0  # the pool works on
    finally:
        await other.close()
        await store.close()


@pytest.mark.parametrize("fault", ["rollback", "cancel"])
async def test_a_transaction_left_open_by_a_fault(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """A statement fails inside a transaction and asyncpg's own ROLLBACK fails too (the
    connection alive, still in the transaction): the store rolls back explicitly and pools
    the connection clean. A task cancelled during its COMMIT: the connection is closed at
    once (no wait on the database), never pooled in doubt. Either way asyncpg's pool reset
    never finds an open transaction, and the pool works on."""
    store = await PgStore.open(pg_url, max_size=2)
    loop = asyncio.get_running_loop()
    complaints: list[str] = []
    handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: complaints.append(context["message"]))
    execute = asyncpg.connection.Connection.execute
    sent: list[str] = []
    armed = {"on": True}

    async def faulty(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        word = query.strip().rstrip(";").upper()
        if armed["on"] and word in ("COMMIT", "ROLLBACK"):
            sent.append(word)
            if len(sent) == 1:
                armed["on"] = fault == "rollback"  # (the explicit ROLLBACK counted too)
                if fault == "cancel":
                    raise asyncio.CancelledError
                raise asyncpg.exceptions.ConnectionDoesNotExistError("injected")
        return await execute(self, query, *args, **kwargs)

    monkeypatch.setattr(asyncpg.connection.Connection, "execute", faulty)
    raw: list[Any] = []
    try:
        lost = asyncpg.exceptions.ConnectionDoesNotExistError  # (asyncpg's ROLLBACK's)
        with pytest.raises(asyncio.CancelledError if fault == "cancel" else lost):
            async with store.transaction() as con:
                raw.append(con._con)
                await con.execute("INSERT INTO schema_version (version) VALUES (-1)")
                if fault == "rollback":
                    raise ZeroDivisionError  # a failure inside: asyncpg rolls back
        if fault == "rollback":
            assert sent == ["ROLLBACK", "ROLLBACK"]  # asyncpg's (failed), then ours
            assert not raw[0].is_closed() and not raw[0].is_in_transaction()
        else:
            assert sent == ["COMMIT"] and raw[0].is_closed()
        assert complaints == []  # no "Resetting connection with an active transaction"
        assert await store.count_actions(1) == 0  # the pool works on
        async with store.reading() as con:
            assert not await con.fetchval("SELECT count(*) FROM schema_version WHERE version < 0")
    finally:
        loop.set_exception_handler(handler)
        await store.close()


@pytest.mark.parametrize("rollback_fails", [False, True], ids=["rolled-back", "closed"])
async def test_a_failed_commit_is_rolled_back_explicitly(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, rollback_fails: bool
) -> None:
    """The move's COMMIT fails with the connection still alive inside the transaction: the
    store rolls it back at once, so the connection goes back to its pool clean (asyncpg
    logs no "Resetting connection with an active transaction": strict mode stays on); when
    that ROLLBACK fails too, the connection is closed, never pooled. Either way the read
    that tells the move's fate is made on a connection outside that transaction, so the
    player is told the truth (not made), nothing is stored, and the next click plays."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    execute = asyncpg.connection.Connection.execute
    failed: dict[str, int] = {"COMMIT": 0, "ROLLBACK": 0}
    sent: list[str] = []
    armed = {"on": False}
    closed: list[bool] = []

    async def faulty(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        word = query.strip().rstrip(";").upper()
        if armed["on"] and word in failed:
            sent.append(word)
        first = word == "COMMIT" or (failed["COMMIT"] and rollback_fails)
        if armed["on"] and failed.get(word) == 0 and first:
            failed[word] += 1
            raise asyncpg.exceptions.ConnectionDoesNotExistError("injected")
        return await execute(self, query, *args, **kwargs)

    inner = store.commit_action

    async def commit(move: Any) -> int:
        proxy = store._current()
        assert proxy is not None  # (a closed connection is detached from its pool proxy)
        con = proxy._con  # type: ignore[attr-defined]
        armed["on"] = True  # the move's own COMMIT fails, then (maybe) the next ROLLBACK
        try:
            return await inner(move)
        finally:
            armed["on"] = False
            closed.append(con.is_closed())

    monkeypatch.setattr(asyncpg.connection.Connection, "execute", faulty)
    monkeypatch.setattr(store, "commit_action", commit)
    table = latest_table(h)
    waiting = next(u for u in seats if u.id in waiting_ids(table))
    reply = await press(
        h, waiting, table, move_buttons(table, seats[waiting])[0], random.Random(1)
    )
    assert h.take_errors() == []  # no "Resetting connection with an active transaction"
    assert sent == ["COMMIT", "ROLLBACK"]  # one explicit ROLLBACK, not the pool's reset
    assert failed == {"COMMIT": 1, "ROLLBACK": int(rollback_fails)}
    assert closed == [rollback_fails]  # closed at once only when its ROLLBACK failed
    assert refused(reply)
    lang = "es" if seats[waiting] == 0 else "en"
    assert t("host.error.storage_not_made", lang) in reply.text()
    assert (await snapshot(h)).row.version == before.row.version
    assert len(await store.actions(before.id)) == sum(before.moves_by_seat.values())
    assert await play_turn(h, seats, random.Random(3)) is not None
    assert (await snapshot(h)).row.version == before.row.version + 1


async def test_the_lock_let_go_with_an_error_after_the_commit(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move commits, then the pool's reset of the game lock's connection fails (the
    connection still alive): the move is made, and the player is told nothing wrong."""
    h = harness
    seats, store = await start(h)
    before = await snapshot(h)
    execute = asyncpg.connection.Connection.execute
    failed = {"armed": 0, "n": 0}

    async def faulty(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        if failed["armed"] and not failed["n"] and "pg_advisory_unlock_all" in query:
            failed["n"] += 1
            raise asyncpg.exceptions.ConnectionDoesNotExistError("injected")
        return await execute(self, query, *args, **kwargs)

    inner = store.commit_action

    async def commit(move: Any) -> int:
        version = await inner(move)
        failed["armed"] = 1  # the reset of the lock's connection, once it is let go
        return version

    monkeypatch.setattr(asyncpg.connection.Connection, "execute", faulty)
    monkeypatch.setattr(store, "commit_action", commit)
    reply = await play_turn(h, seats, random.Random(1))  # asserts: not refused
    assert reply is not None and not refused(reply) and failed["n"] == 1
    await check_move_shown(h, store, before.row.version + 1)
    assert await play_turn(h, seats, random.Random(2)) is not None
