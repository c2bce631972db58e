"""Two bot instances with different shard ranges on one PostgreSQL database, through the
offline Discord harness (tests/harness/shards.py): instance "a" runs shard 0, which gets
every DM interaction, and "b" runs shard 1, the guild's. Each has its own bot, its own
connection pool and its own recorded HTTP; they share only the database and Discord."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import nullcontext
from typing import Any, cast

import pytest
import pytest_asyncio

from bot import Cosmodrome, build_bot
from host.clock import FakeClock
from host.settings import Settings
from host.storage import open_store
from host.storage_pg import PgStore
from tests.e2e.driver import latest_table, move_buttons, play_to_end, play_turn, refused, tables
from tests.e2e.kit import cog_of, host_of, open_and_play, open_game, snapshot
from tests.e2e.pgkit import (  # noqa: F401 - database_work_counts: autouse fixture
    database_work_counts,
    waiting_for_advisory_locks,
)
from tests.harness import FakeUser
from tests.harness.shards import ShardedHarness


@pytest.fixture
def make_bot(pg_url: str, clock: FakeClock) -> Callable[[list[int]], Cosmodrome]:
    seeds = random.Random(2024)

    def make(ids: list[int]) -> Cosmodrome:
        settings = Settings(
            token="test-token",
            db_path=pg_url,
            tick_seconds=0,
            shard_ids=tuple(ids),
            shard_count=2,
        )
        return build_bot(settings, clock=clock, seeds=seeds)

    return make


@pytest_asyncio.fixture
async def shards(make_bot: Callable[[list[int]], Cosmodrome]) -> AsyncIterator[ShardedHarness]:
    h = ShardedHarness(make_bot, shard_count=2, instances={"a": [0], "b": [1]}, guild_shard=1)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def interactions_to(h: ShardedHarness, name: str) -> list[Any]:
    """The interactions each live or past instance called ``name`` answered."""
    return [
        r
        for n, inst in h.history
        if n == name
        for r in inst.own_requests
        if r.kind.startswith("interaction")
    ]


async def test_the_instances_run_their_own_shards(shards: ShardedHarness) -> None:
    h = shards
    a, b = cast(Cosmodrome, h.bot_of("a")), cast(Cosmodrome, h.bot_of("b"))
    assert (a.shard_ids, b.shard_ids, a.shard_count) == ([0], [1], 2)
    assert a.get_guild(h.guild_id) is None and b.get_guild(h.guild_id) is not None
    assert isinstance(host_of(h.instance("a")).store, PgStore)
    assert host_of(h.instance("a")).store is not host_of(h.instance("b")).store
    ana = h.user("Ana", "es-ES")
    dm = h.dm_channel_id(ana)
    assert h.owner(h.channel_id) is h.instance("b") and h.owner(dm) is h.instance("a")


async def test_a_game_in_one_instances_channel_with_dm_clicks_at_the_other(
    shards: ShardedHarness,
) -> None:
    h = shards
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats, rng = await open_and_play(h, "red_planet", [ana, ben], turns=4, seed=11, bots=1)
    # /game mine in a DM reaches "a", which reads the game that "b" started.
    mine = await h.slash(ana, "game mine", channel=h.dm_channel_id(ana))
    assert mine.record.payload["channel_id"] == str(h.dm_channel_id(ana))
    assert str(h.channel_id) in mine.text()  # the link to the game's channel
    final = await play_to_end(h, seats, rng)
    assert "🏆" in final.text()
    snap = await snapshot(h)
    assert snap.row.status == "over"
    assert await host_of(h.instance("a")).replay(snap.id) == snap.row.state
    # The secret choices were DM clicks, answered by "a"; the channel's by "b". "a" showed
    # the moves it applied in b's channel (REST reaches every channel from any process).
    dm_channels = {h.dm_channel_id(ana), h.dm_channel_id(ben)}
    routed_a = interactions_to(h, "a")
    assert routed_a and all(
        h.backend.interactions[r.interaction_id].channel_id in dm_channels for r in routed_a
    )
    assert all(
        h.backend.interactions[r.interaction_id].channel_id == h.channel_id
        for r in interactions_to(h, "b")
    )
    posted_by_a = [
        r for r in h.instance("a").own_requests if r.channel_id == h.channel_id and r.status < 400
    ]
    assert posted_by_a
    assert len([m for m in tables(h) if move_buttons(m) or "🏆" in m.text()]) == 1
    # /stats in a DM reaches "a" too: the game "b" hosted counts.
    stats = await h.slash(ben, "stats", channel=h.dm_channel_id(ben))
    assert "Red Planet" in stats.text() or "Marte" in stats.text()
    assert not h.unexpected


async def test_a_hundred_clicks_split_between_the_instances_apply_once(
    shards: ShardedHarness,
) -> None:
    h = shards
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    before = await snapshot(h)
    store = host_of(h.instance("a")).store
    moves = await store.count_actions(before.id)
    table = latest_table(h)
    waiting = {ana: 0, ben: 1}
    (user,) = [u for u, s in waiting.items() if move_buttons(table, s)]
    button = move_buttons(table, waiting[user])[0]
    records = [h.build_click(user, table, button) for _ in range(100)]
    replies = await h.run_on(("a" if i % 2 else "b", rec) for i, rec in enumerate(records))
    assert await store.count_actions(before.id) == moves + 1
    after = await snapshot(h)
    assert after.row.version == before.row.version + 1
    applied = [r for r in replies if not refused(r)]
    assert len(applied) == 1, [r.text() for r in replies[:3]]
    assert await host_of(h.instance("b")).replay(before.id) == after.row.state
    # One live table, not one per instance.
    assert len([m for m in tables(h) if move_buttons(m)]) == 1


async def test_a_reminder_is_sent_once_when_both_instances_tick(
    shards: ShardedHarness, clock: FakeClock
) -> None:
    h = shards
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    clock.advance(13 * 3600)  # past the default 12h reminder
    await asyncio.gather(cog_of(h.instance("a")).tick(), cog_of(h.instance("b")).tick())
    await h.idle()
    reminders = [m for m in h.messages() if m.content.startswith("⏰")]
    assert len(reminders) == 1
    # Both ticked again at once: nothing new is due.
    await asyncio.gather(cog_of(h.instance("b")).tick(), cog_of(h.instance("a")).tick())
    await h.idle()
    assert len([m for m in h.messages() if m.content.startswith("⏰")]) == 1


async def commit_unseen(h: ShardedHarness, user: FakeUser, seat: int, on: str = "a") -> None:
    """A move committed but not shown (its process stopped before publishing)."""
    host = host_of(h.instance(on))
    snap = await snapshot(h)
    d = next(d for d in snap.decisions if d.seat == seat)
    await host.play(snap.id, user.id, seat, snap.token(d), d.options[0].id)


@pytest.mark.parametrize("across", [True, False], ids=["publish-lock", "no-lock"])
async def test_two_instances_republishing_one_game_post_one_table(
    shards: ShardedHarness, across: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both instances find the same game lagging and publish it at once: with the lock
    across processes one posts the new table and the other finds it shown; without it (the
    control) both post one."""
    h = shards
    if not across:
        for name in ("a", "b"):
            cog = cog_of(h.instance(name))
            monkeypatch.setattr(cog.publish_locks, "across", lambda _gid: nullcontext())
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    seats = {ana: 0, ben: 1}
    rng = random.Random(3)
    snap = await snapshot(h)
    # Play until a move hands the turn over (a new table, not an edit in place).
    while True:
        (seat,) = snap.to_move()
        user = next(u for u, s in seats.items() if s == seat)
        await commit_unseen(h, user, seat)
        snap = await snapshot(h)
        if snap.to_move() != [seat]:
            break
    await asyncio.gather(cog_of(h.instance("a")).tick(), cog_of(h.instance("b")).tick())
    await h.idle()
    live = [m for m in tables(h) if move_buttons(m)]
    if not across:
        assert len(live) == 2  # the control: both processes posted a table
        return
    assert len(live) == 1
    assert (await snapshot(h)).row.published_version == snap.row.version
    assert await play_turn(h, seats, rng) is not None  # and the game goes on from it


async def test_killing_an_instance_mid_game_loses_nothing(shards: ShardedHarness) -> None:
    h = shards
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats, rng = await open_and_play(h, "red_planet", [ana, ben], turns=6, seed=5, bots=1)
    # "b" (the guild's shard) commits a move and dies before showing it: its connections
    # drop at once, then the process goes.
    snap = await snapshot(h)
    seat = snap.decisions[0].seat
    await commit_unseen(h, next(u for u, s in seats.items() if s == seat), seat, on="b")
    lagging = await snapshot(h)
    assert lagging.row.published_version < lagging.row.version
    host_of(h.instance("b")).store.pool.terminate()
    await h.kill("b")
    # The survivor's pacing tick shows that move in b's channel (REST reaches any channel).
    shown_by_a = len(h.instance("a").own_requests)
    await cog_of(h.instance("a")).tick()
    await h.idle()
    before = await snapshot(h)
    assert before.row.published_version == before.row.version == lagging.row.version
    assert any(r.channel_id == h.channel_id for r in h.instance("a").own_requests[shown_by_a:])
    assert len(tables(h)) == 1  # the new table replaced the old one
    # DM clicks still reach "a", which carries on.
    moved = 0
    for _ in range(40):
        snap = await snapshot(h)
        dm_waiting = [
            u
            for u, s in seats.items()
            if s in snap.to_move() and [m for m in h.dm_messages(u) if move_buttons(m)]
        ]
        if not dm_waiting or snap.row.status != "active":
            break
        user = dm_waiting[0]
        panel = [m for m in h.dm_messages(user) if move_buttons(m)][-1]
        reply = await h.click(user, panel, move_buttons(panel)[0])
        if refused(reply):
            break
        moved += 1
    assert moved >= 1
    after = await snapshot(h)
    assert after.row.version >= before.row.version + moved
    assert await host_of(h.instance("a")).replay(after.id) == after.row.state
    # Discord gives shard 1 to a new process: it starts, and the game goes on to the end
    # from the buttons the dead one and "a" posted.
    await h.revive("b")
    await cog_of(h.instance("b")).tick()
    await h.idle()
    final = await play_to_end(h, seats, rng)
    assert "🏆" in final.text()
    end = await snapshot(h)
    assert await host_of(h.instance("b")).replay(end.id) == end.row.state
    assert not h.unexpected


async def test_the_publish_lock_holds_across_processes_apart_from_the_game_lock(
    pg_url: str,
) -> None:
    one, two = await open_store(pg_url), await open_store(pg_url)
    try:
        order: list[str] = []

        async def second() -> None:
            async with two.lock_publish(7):
                order.append("two")

        async with one.lock_publish(7):
            task = asyncio.create_task(second())
            await waiting_for_advisory_locks(one, 1)  # type: ignore[arg-type]
            # Another key space: the game's own lock on 7 is free meanwhile.
            async with two.lock_game(7):
                order.append("game")
            order.append("one")
        await task
        assert order == ["game", "one", "two"]
    finally:
        await one.close()
        await two.close()
