"""Where today's host changes meet (issues 11, 13, 14): after every kind of change a game's
stored ``wake_at`` is what the pacing tick needs (never forgotten while something is due,
never read with nothing due), and the snapshot a move leaves in memory equals a fresh load.
Random play on the toy games, on each backend (the ``db`` fixture)."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

import pytest

from host import pacing
from host.clock import FakeClock
from host.pacing import HOUR
from host.sessions import BOT_RETRY, HostError, Player, Snapshot
from tests.host.kit import ANA, BEN, make_paced_host, paced_host, tick

BOSS = Player(9, "Boss", "en", can_manage=True)
USERS = {ANA.user_id: ANA, BEN.user_id: BEN}


def same(mem: Snapshot, fresh: Snapshot) -> None:
    """Every field the callers use, from memory and from a reload, equal."""
    assert asdict(mem.row) == asdict(fresh.row)
    assert mem.seats == fresh.seats
    assert mem.state == fresh.state
    assert mem.decisions == fresh.decisions
    assert mem.moves_by_seat == fresh.moves_by_seat
    assert mem.timers == fresh.timers
    assert mem.waits == fresh.waits


async def check_wake(host: Any, gid: int, clock: FakeClock, what: str) -> None:
    """The stored wake_at against what the tick would work out: a bot owing a move makes
    the game due (at the latest RETRY_FIRST later, as pace leaves it); else exactly the
    next nudge or deadline of those the game waits for (None: nothing due)."""
    snap = await host.by_id(gid)
    if snap.row.status != "active":
        return
    if snap.row.paused is not None:
        return  # the tick does not read it; resume works it out again
    waits = await host.store.waits(gid)
    got = snap.row.wake_at
    if host.bot_to_move(snap) is not None:
        assert got is not None and got <= clock.now() + pacing.RETRY_FIRST, (what, got)
        due = await host.paced_games(limit=10_000) if got <= clock.now() else [gid]
        assert gid in due, what
    else:
        want = pacing.wake_at(waits, snap.row.host_options, snap.human_to_move())
        assert got == want, (what, got, want, waits)


async def lobby(host: Any, game: str, deadline: bool, channel: int) -> int:
    snap = await host.new_lobby(guild_id=1, channel_id=channel, game_id=game, owner=ANA, lang="en")
    await host.join(snap.id, BEN)
    await host.add_bot(snap.id, ANA)
    if deadline:
        while (await host.by_id(snap.id)).row.host_options.get("deadline") != "12h":
            await host.cycle_option(snap.id, "h.deadline", ANA)
    return int(snap.id)


async def step(host: Any, gid: int, rng: random.Random, clock: FakeClock) -> str:
    """One random change of any kind; what it was."""
    snap = await host.by_id(gid)
    kind = rng.choice(
        ["move", "move", "move", "bots", "bots", "leave", "back", "undo", "rollback", "tick"]
    )
    try:
        if kind == "move":
            human = [d for d in snap.decisions if snap.human(d.seat)]
            if not human:
                return "move: none"
            d = rng.choice(human)
            uid = snap.seats[d.seat].user_id
            out = await host.play(
                gid, uid, d.seat, snap.token(d), rng.choice(d.options).id, bots=False
            )
            same(out.after, await host.by_id(gid))
        elif kind == "bots":
            await host.play_bots(gid)
        elif kind == "leave":
            await host.leave(gid, USERS[rng.choice([ANA.user_id, BEN.user_id])], bots=False)
        elif kind == "back":
            after = await host.take_back(gid, USERS[rng.choice([ANA.user_id, BEN.user_id])])
            same(after, await host.by_id(gid))
        elif kind == "undo":
            after = await host.undo(gid, USERS[rng.choice([ANA.user_id, BEN.user_id])])
            same(after, await host.by_id(gid))
        elif kind == "rollback":
            after, _, _, _ = await host.rollback(gid, BOSS, bots=rng.random() < 0.5)
            same(after, await host.by_id(gid))
        else:
            clock.advance(rng.choice([0.0, 61.0, 3 * HOUR, 7 * HOUR, 13 * HOUR]))
            await tick(host)
    except HostError as err:
        return f"{kind}: {err.code}"
    return kind


@pytest.mark.parametrize("game", ["toy", "timed"])
async def test_wake_at_after_every_kind_of_change(db: str, game: str) -> None:
    clock = FakeClock()
    host = await make_paced_host(db, clock)
    inner = host._commit

    async def checked(*args: Any, **kw: Any) -> Snapshot:
        after = await inner(*args, **kw)
        same(after, await host.by_id(after.id))  # every move: human, bot, timer, cover
        return after

    host._commit = checked  # type: ignore[method-assign]
    try:
        for seed in range(6):
            rng = random.Random(seed)
            gid = await lobby(host, game, deadline=seed % 2 == 0, channel=200 + seed)
            out = await host.start(gid, ANA, bots=seed % 3 == 0)
            same(out.after, await host.by_id(gid))
            await check_wake(host, gid, clock, "start")
            trail = ["start"]
            for _ in range(60):
                trail.append(await step(host, gid, rng, clock))
                await check_wake(host, gid, clock, " > ".join(trail[-6:]))
                if (await host.by_id(gid)).row.status != "active":
                    break
    finally:
        await host.store.close()


async def test_a_seat_handed_to_a_bot_is_due_for_the_tick(db: str) -> None:
    """Leaving (bots left to the background) makes the game due a little later: were the
    bot task to fail, the tick starts the bot."""
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        gid = await lobby(host, "toy", deadline=False, channel=300)
        await host.start(gid, ANA)  # the bot moves at once
        snap = await host.by_id(gid)
        seat = snap.to_move()[0]
        user = USERS[snap.seats[seat].user_id]  # type: ignore[index]
        await host.leave(gid, user, bots=False)
        assert gid not in await host.paced_games()  # the cog's bot task moves it first
        clock.advance(BOT_RETRY)
        assert gid in await host.paced_games()  # ...or else the tick, a little later
        await tick(host)  # pace keeps it due until the bot has moved
        assert gid in await host.bots_owed([gid])
        clock.advance(pacing.RETRY_FIRST)
        assert gid in await host.paced_games()
        assert await host.play_bots(gid)
        await check_wake(host, gid, clock, "bots moved")


async def test_a_paused_game_stops_its_bots_and_resumes_them(db: str) -> None:
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        gid = await lobby(host, "toy", deadline=False, channel=400)
        await host.start(gid, ANA)
        snap = await host.by_id(gid)
        seat = snap.to_move()[0]
        user = USERS[snap.seats[seat].user_id]  # type: ignore[index]
        await host.store.pause_game(gid, "deleted", clock.now())
        await host.leave(gid, user, bots=False)
        version = (await host.by_id(gid)).row.version
        assert await host.bots_owed() == []  # nor resumed at start-up
        assert await host.play_bots(gid) == []  # nobody can see the table
        assert (await host.by_id(gid)).row.version == version
        assert gid not in await host.paced_games()
        assert await host.resume(gid)
        clock.advance(BOT_RETRY)
        assert gid in await host.paced_games()  # the tick starts the bots if nothing does
        assert await host.bots_owed([gid]) == [gid]
        assert await host.play_bots(gid)


async def test_a_paused_game_fires_no_timer(db: str) -> None:
    """Its clocks wait for it: pace (e.g. from a tick that chose it just before the pause)
    neither fires a timer nor moves a bot."""
    clock = FakeClock()
    async with paced_host(db, clock) as host:
        gid = await lobby(host, "timed", deadline=False, channel=500)
        await host.start(gid, ANA)
        assert (await host.by_id(gid)).running_timers()
        await host.store.pause_game(gid, "deleted", clock.now())
        version = (await host.by_id(gid)).row.version
        clock.advance(HOUR)
        assert gid not in await host.paced_games()
        due = await host.pace(gid)
        assert due.timed == [] and (await host.by_id(gid)).row.version == version
        assert await host.resume(gid)
        assert (await host.pace(gid)).timed  # back: the timer that ran out fires
