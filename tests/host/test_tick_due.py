"""The pacing tick reads only the games that are due (issue 14): each game's ``wake_at`` is
kept with its waits, running timers are their own schedule, and a game with nothing due is
never loaded. On each backend (the ``db`` fixture), plus two processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from host import pacing
from host.clock import FakeClock
from host.pacing import HOUR
from host.sessions import Host
from host.storage import MIGRATIONS, SqliteStore
from tests import timedgame
from tests.host.kit import ANA, BEN, make_paced_host, paced_host, play_one, tick
from tests.host.kit import started as kit_started

#: A toy game started with ``pings`` (``live`` here: the reminders' own schedule, with no
#: catch-up ping of ``away`` before them; tested on its own below).
started = partial(kit_started, pings="live")


def count_loads(host: Host) -> Counter[int]:
    """Every game row the host reads from now on, by game id (each snapshot reads one)."""
    loads: Counter[int] = Counter()
    inner, inner_load = host.store.game, host.store.load

    async def counted(game_id: int) -> Any:
        loads[game_id] += 1
        return await inner(game_id)

    async def counted_load(game_id: int | None = None, **kw: Any) -> Any:
        got = await inner_load(game_id, **kw)
        if got is not None:
            loads[got.row.id] += 1
        return got

    host.store.game = counted  # type: ignore[method-assign]
    host.store.load = counted_load  # type: ignore[method-assign]
    return loads


async def test_the_tick_loads_only_the_due_games(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        n, k = 12, 5
        gids = [await started(host, ANA, BEN, channel=100 + i) for i in range(n)]
        clock.advance(6 * HOUR)
        moved = gids[k:]  # a new turn: these wait since 6 h, the first k since 0 h
        for gid in moved:
            await play_one(host, gid)
        clock.advance(7 * HOUR)  # 13 h: past the default 12 h reminder of the first k only
        loads = count_loads(host)
        dues = await tick(host)
        assert sorted(dues) == gids[:k]
        assert set(loads) == set(gids[:k])  # not one of the others was read
        assert all(len(dues[gid].nudges) == 1 for gid in gids[:k])
        # Done and recorded: the same tick again reads nothing.
        loads.clear()
        assert await tick(host) == {} and not loads
        # At 19 h the others' first reminder is due (18 h), and only theirs.
        clock.advance(6 * HOUR)
        dues = await tick(host)
        assert sorted(dues) == moved and set(loads) == set(moved)
        assert all(len(due.nudges) == 1 for due in dues.values())


async def test_a_move_reschedules_and_an_ended_wait_unschedules(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        gid = await started(host, ANA, BEN)
        t0 = clock.now()
        row = (await host.by_id(gid)).row
        assert row.wake_at == t0 + 12 * HOUR  # the first reminder of the player to move
        clock.advance(3 * HOUR)
        await play_one(host, gid)
        assert (await host.by_id(gid)).row.wake_at == t0 + 15 * HOUR
        # Reminders off (an old game's options changed by hand): the next wait wakes nobody.
        await host.store.update_game(gid, clock.now(), host_options={"reminders": "off"})
        await play_one(host, gid)
        assert (await host.by_id(gid)).row.wake_at is None
        clock.advance(100 * HOUR)
        assert await host.paced_games() == []


async def test_deadlines_wake_the_game_for_the_notice_then_the_bot(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        lobby = await host.new_lobby(guild_id=1, channel_id=7, game_id="toy", owner=ANA, lang="en")
        await host.join(lobby.id, BEN)
        for _ in range(2):  # deadline none -> 12h -> 1d
            await host.cycle_option(lobby.id, "h.deadline", ANA)
        await host.cycle_option(lobby.id, "h.pings", ANA)  # away -> live: no catch-up
        await host.start(lobby.id, ANA)
        t0 = clock.now()
        assert (await host.by_id(lobby.id)).row.wake_at == t0 + 12 * HOUR  # the warning
        clock.advance(12 * HOUR)
        assert len((await tick(host))[lobby.id].nudges) == 1
        assert (await host.by_id(lobby.id)).row.wake_at == t0 + 24 * HOUR  # time is up
        clock.advance(12 * HOUR)
        assert (await tick(host))[lobby.id].expired
        assert (await host.by_id(lobby.id)).row.wake_at == t0 + 48 * HOUR  # the bot plays
        clock.advance(24 * HOUR)
        assert (await tick(host))[lobby.id].forced
        assert await host.store.count_actions(lobby.id) == 1


async def test_when_away_the_catch_up_ping_is_due_unless_the_table_pinged(db: str) -> None:
    """``pings=away``: the game is due AWAY_AFTER into a wait for its catch-up ping, once;
    a table that pinged the player marks it done (kept across a restart), and the game
    then sleeps until the first reminder, which keeps its time."""
    clock = FakeClock()
    host = await make_paced_host(db, clock)
    try:
        quiet = await started(host, ANA, BEN, channel=1, pings="away")
        pinged = await started(host, ANA, BEN, channel=2, pings="away")
        t0 = clock.now()
        for gid in (quiet, pinged):
            assert (await host.by_id(gid)).row.wake_at == t0 + pacing.AWAY_AFTER
        (seat,) = (await host.by_id(pinged)).human_to_move()
        (other,) = (await host.by_id(quiet)).human_to_move()
        await host.table_pinged(pinged, {seat: t0})
        # A wait that started again since the table was drawn is left alone.
        await host.table_pinged(quiet, {other: t0 - 1})
        await host.store.close()
        host = await make_paced_host(db, clock)  # a restart
        assert (await host.by_id(pinged)).row.wake_at == t0 + 12 * HOUR
        assert (await host.store.waits(pinged))[seat] == (t0, 1, 0)
        clock.advance(pacing.AWAY_AFTER - 1)
        assert await host.paced_games() == []
        clock.advance(1)
        dues = await tick(host)
        assert list(dues) == [quiet] and dues[quiet].nudges == [(other, 1, t0)]
        assert await tick(host) == {}  # once
        assert (await host.by_id(quiet)).row.wake_at == t0 + 12 * HOUR
        clock.advance(12 * HOUR)
        dues = await tick(host)
        assert dues[quiet].nudges == [(other, 2, t0)] and dues[pinged].nudges == [(seat, 2, t0)]
    finally:
        await host.store.close()


async def test_a_running_timer_makes_its_game_due(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        idle = await started(host, ANA, BEN, channel=1)
        lobby = await host.new_lobby(
            guild_id=1, channel_id=2, game_id="timed", owner=ANA, lang="en"
        )
        await host.join(lobby.id, BEN)
        await host.start(lobby.id, ANA)
        assert await host.paced_games() == []
        clock.advance(timedgame.SPEED["live"])
        loads = count_loads(host)
        dues = await tick(host)
        assert list(dues) == [lobby.id] and dues[lobby.id].timed
        assert idle not in loads


async def test_paused_games_and_failed_tables_wait(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        store = host.store
        paused = await started(host, ANA, BEN, channel=1)
        failing = await started(host, ANA, BEN, channel=2)
        clock.advance(13 * HOUR)
        assert await store.pause_game(paused, "deleted", clock.now())
        assert not await store.pause_game(paused, "no_access", clock.now())  # once
        assert await host.paced_games() == [failing]
        assert (await store.game(paused)).paused == "deleted"  # type: ignore[union-attr]
        # Both lag (never published here); the paused one is left alone.
        assert await store.lagging_games(clock.now()) == [failing]
        first = await store.publish_failed(failing, clock.now())
        assert first == clock.now() + 60
        assert await store.lagging_games(clock.now()) == []
        clock.advance(60)
        second = await store.publish_failed(failing, clock.now())
        assert second == clock.now() + 120  # doubles...
        for _ in range(10):
            last = await store.publish_failed(failing, clock.now())
        assert last == clock.now() + HOUR  # ...up to an hour
        await store.publish_ok(failing)
        assert await store.lagging_games(clock.now()) == [failing]
        # Back: the pause is lifted and the clocks of those waited for start again.
        assert await host.resume(paused) and not await host.resume(paused)
        row = (await host.by_id(paused)).row
        assert row.paused is None and row.wake_at == clock.now() + 12 * HOUR
        assert await store.lagging_games(clock.now()) == [paused, failing]


async def test_many_due_games_come_in_batches(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        gids = [await started(host, ANA, BEN, channel=10 + i) for i in range(7)]
        clock.advance(13 * HOUR)
        seen: list[list[int]] = []
        after = 0
        while ids := await host.paced_games(after=after, limit=3):
            seen.append(ids)
            after = ids[-1]
        assert seen == [gids[:3], gids[3:6], gids[6:]]


async def test_two_processes_ticking_at_once_send_one_reminder(pg_url: str) -> None:
    clock = FakeClock()
    one, two = await make_paced_host(pg_url, clock), await make_paced_host(pg_url, clock)
    try:
        gids = [await started(one, ANA, BEN, channel=c) for c in (1, 2, 3)]
        clock.advance(13 * HOUR)
        a, b = await asyncio.gather(tick(one), tick(two))
        sent = Counter(gid for dues in (a, b) for gid, due in dues.items() if due.nudges)
        assert sent == Counter(gids)  # each game's reminder once, whichever process sent it
        assert await one.paced_games() == [] and await two.paced_games() == []
    finally:
        await one.store.close()
        await two.store.close()


# -- the schedule itself ---------------------------------------------------------------


def due_now(wait: tuple[float, int, int], now: float, opts: dict[str, str]) -> bool:
    """Would ``Host.pace`` do anything for this wait at ``now``? (its rules, restated)"""
    since, sent, state = wait
    if pacing.nudges_due(since, now, opts) > sent:
        return True
    deadline = pacing.deadline_at(since, opts.get("deadline"))
    if deadline is None or now < deadline:
        return False
    overdue = now >= deadline + (deadline - since)
    return (state == 0 and not overdue) or (overdue and state < 2)


CHOICES = {o.id: o.choices for o in pacing.HOST_OPTIONS}


@given(
    opts=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CHOICES.items()}),
    since=st.floats(0, 1e6),
    sent=st.integers(0, 4),
    state=st.integers(0, 2),
    before=st.floats(0.5, 10 * 24 * HOUR),
)
def test_wake_at_is_the_first_moment_pace_has_work(
    opts: dict[str, str], since: float, sent: int, state: int, before: float
) -> None:
    """Pace has nothing to do for a wait before its wake_at (nothing is missed by not
    looking) and something at it (a game is not woken for nothing)."""
    # Only waits that pace can leave behind: the nudges it recorded, the states it set.
    span = pacing.seconds(opts.get("deadline"))
    sent = min(sent, len(pacing.nudge_times(since, opts)))
    if span is None:
        state = 0
    marked = since + (span or 0) * state
    sent = max(sent, pacing.nudges_due(since, marked, opts)) if state else sent
    wake = pacing.wake_at({0: (since, sent, state)}, opts)
    if wake is None:
        assert not due_now((since, sent, state), since + 400 * 24 * HOUR, opts)
        return
    assert due_now((since, sent, state), wake, opts)
    earlier = wake - before
    if earlier >= max(since, marked):
        assert not due_now((since, sent, state), earlier, opts)


async def test_migration_0007_wakes_the_games_that_wait(tmp_path: Path) -> None:
    """A database from before 0007: each active game that waits for someone gets a wake_at
    no later than its first reminder (the first tick then works out the exact time)."""
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    for script in sorted(MIGRATIONS.glob("000[1-6]_*.sql")):
        con.executescript(script.read_text(encoding="utf-8"))
    con.execute("PRAGMA user_version = 6")
    for gid, status in ((1, "active"), (2, "active"), (3, "over")):
        con.execute(
            "INSERT INTO games (id, channel_id, game, status, seed, owner_id, created_at, "
            "updated_at) VALUES (?, ?, 'toy', ?, 1, 1, 0, 0)",
            (gid, gid, status),
        )
    con.executemany(
        "INSERT INTO waits (game_id, seat, since) VALUES (?, ?, ?)",
        [(1, 0, 500.0), (1, 1, 200.0), (3, 0, 100.0)],
    )
    con.commit()
    con.close()
    store = await SqliteStore.open(path)
    try:
        wakes = {gid: (await store.game(gid)).wake_at for gid in (1, 2, 3)}  # type: ignore[union-attr]
        assert wakes == {1: 200.0, 2: None, 3: None}
        assert await store.due_games(1000.0) == [1]
    finally:
        await store.close()


async def test_without_bots_a_fired_timer_or_a_forced_move_leaves_the_bots_owed(db: str) -> None:
    """The Discord tick paces with ``bots=False``: what the clock does is committed under
    the game's lock, and the bot moves it unblocks are owed (the game stays due for them)
    until :meth:`Host.play_bots` thinks them out off the lock."""
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        lobby = await host.new_lobby(
            guild_id=1, channel_id=2, game_id="timed", owner=ANA, lang="en"
        )
        await host.add_bot(lobby.id, ANA)
        await host.start(lobby.id, ANA, bots=False)
        await host.play_bots(lobby.id)  # a bot seat that opens the game moves first
        snap = await host.by_id(lobby.id)
        assert host.bot_to_move(snap) is None
        (d,) = snap.decisions
        before = await host.store.count_actions(lobby.id)
        clock.advance(timedgame.SPEED["live"])
        due = await host.pace(lobby.id, bots=False)
        assert d.timer is not None and due.timed == [(d.seat, d.timer.key)]
        snap = await host.by_id(lobby.id)
        assert await host.store.count_actions(lobby.id) == before + 1  # the expiry alone
        bot = host.bot_to_move(snap)
        assert bot is not None and bot != d.seat
        assert snap.row.wake_at is not None and snap.row.wake_at <= clock.now() + 60
        assert lobby.id in await host.bots_owed([lobby.id])
        steps = await host.play_bots(lobby.id)
        assert steps and all(s.seat == bot for s in steps)
        assert host.bot_to_move(await host.by_id(lobby.id)) is None


async def test_without_bots_a_deadline_move_leaves_the_next_bot_owed(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        lobby = await host.new_lobby(guild_id=1, channel_id=7, game_id="toy", owner=ANA, lang="en")
        await host.join(lobby.id, BEN)
        await host.add_bot(lobby.id, ANA)
        for _ in range(2):  # deadline none -> 12h -> 1d
            await host.cycle_option(lobby.id, "h.deadline", ANA)
        await host.start(lobby.id, ANA, bots=False)
        await host.play_bots(lobby.id)
        owed = 0
        for _ in range(3):  # until a forced move leaves the bot seat to move
            absent = set((await host.by_id(lobby.id)).human_to_move())
            clock.advance(48 * HOUR)
            due = await host.pace(lobby.id, bots=False)
            assert set(due.forced) == absent
            bot = host.bot_to_move(await host.by_id(lobby.id))
            if bot is None:
                continue
            owed += 1
            assert lobby.id in await host.bots_owed([lobby.id])
            assert await host.play_bots(lobby.id)
            assert host.bot_to_move(await host.by_id(lobby.id)) is None
        assert owed
