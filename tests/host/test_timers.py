"""Timed decisions (core.contract.Timer) in the host: start, expiry, restarts, replay."""

from __future__ import annotations

import random

import pytest

from host.clock import FakeClock
from host.pacing import tick_wait
from host.sessions import TIMER_EVENT, Host, HostError, Player
from host.storage import Move, VersionConflict, open_store
from tests import timedgame

ANA = Player(1, "Ana", "es")
BEN = Player(2, "Ben", "en")
CAL = Player(3, "Cal", "en")
LIVE = timedgame.SPEED["live"]
DAYS = timedgame.SPEED["days"]


async def make_host(path: str, clock: FakeClock) -> Host:
    store = await open_store(path)
    return Host(
        store, clock=clock, seeds=random.Random(7), games=lambda: {"timed": timedgame.GAME}
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def host(db, clock):
    h = await make_host(db, clock)
    yield h
    await h.store.close()


async def started(host: Host, *players: Player, options: dict[str, str] | None = None) -> int:
    snap = await host.new_lobby(
        guild_id=1, channel_id=100, game_id="timed", owner=players[0], lang="en"
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    for key, value in (options or {}).items():
        while (await host.by_id(snap.id)).row.options[key] != value:
            await host.cycle_option(snap.id, key, players[0])
    await host.start(snap.id, players[0])
    return snap.id


def by_seat(*players: Player) -> dict[int, Player]:
    return dict(enumerate(players))


async def play(host: Host, gid: int, seat: int, who: Player, choice: str) -> None:
    snap = await host.by_id(gid)
    d = snap.decisions_for(seat)[0]
    await host.play(gid, who.user_id, seat, snap.token(d), choice)


async def test_a_timer_starts_when_first_seen_and_fires_once_at_its_time(host, clock):
    t0 = clock.now()
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    (d,) = snap.decisions
    assert d.timer is not None and d.timer.seconds == LIVE
    assert snap.timers[d.timer.key].started == t0
    assert snap.running_timers() == [(t0 + LIVE, [d.seat])]
    assert await host.next_timer() == t0 + LIVE

    clock.advance(LIVE - 1)
    due = await host.pace(gid)
    assert due.timed == [] and await host.store.count_actions(gid) == 0

    clock.advance(1)
    due = await host.pace(gid)
    assert due.timed == [(d.seat, d.timer.key)]
    (a,) = await host.store.actions(gid)
    assert (a.seat, a.choice, a.timer) == (d.seat, "pass", "turn.0")
    assert a.by_user is None and not a.by_bot
    assert a.at == t0 + LIVE and a.think is None
    assert a.events[0]["code"] == TIMER_EVENT and a.events[0]["seat"] == d.seat
    # The next turn's timer started when the expiry opened it.
    after = await host.by_id(gid)
    assert after.running_timers() == [(t0 + 2 * LIVE, [1 - d.seat])]
    # Never twice.
    assert (await host.pace(gid)).timed == []
    assert await host.store.count_actions(gid) == 1
    assert await host.replay(gid) == after.row.state


async def test_a_move_in_time_stops_the_timer(host, clock):
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    seat = snap.to_move()[0]
    clock.advance(LIVE - 10)
    await play(host, gid, seat, by_seat(ANA, BEN)[seat], "add1")
    clock.advance(20)  # past the first turn's time, not the second's
    assert (await host.pace(gid)).timed == []
    timers = await host.store.timers(gid)
    assert not timers["turn.0"].open and timers["turn.0"].running
    assert timers["turn.1"].started == clock.now() - 20
    assert await host.next_timer() == timers["turn.1"].due


async def test_durations_come_from_the_lobby_option(host, clock):
    gid = await started(host, ANA, BEN, options={"speed": "days"})
    snap = await host.by_id(gid)
    assert snap.decisions[0].timer.seconds == DAYS
    clock.advance(11 * 3600)
    assert (await host.pace(gid)).timed == []
    clock.advance(3600)
    assert len((await host.pace(gid)).timed) == 1


async def test_due_timers_fire_once_after_a_restart(db, clock):
    path = db
    first = await make_host(path, clock)
    gid = await started(first, ANA, BEN)
    await first.store.close()
    clock.advance(LIVE * 2.5)  # down through two turns' worth of time
    second = await make_host(path, clock)
    due = await second.pace(gid)
    # The first turn ran out while down; the second turn starts counting when seen.
    assert [key for _, key in due.timed] == ["turn.0"]
    assert await second.store.count_actions(gid) == 1
    await second.store.close()
    third = await make_host(path, clock)
    assert (await third.pace(gid)).timed == []
    assert await third.store.count_actions(gid) == 1
    snap = await third.by_id(gid)
    assert await third.replay(gid) == snap.row.state
    await third.store.close()


async def test_the_firing_commit_marks_the_timer_in_the_same_transaction(host, clock):
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    seat = snap.to_move()[0]
    state = snap.game.dump(snap.state)

    async def commit(version: int) -> int:
        return await host.store.commit_action(
            Move(
                gid,
                version,
                seat=seat,
                choice="pass",
                by_user=None,
                by_bot=False,
                events=[],
                state=state,
                over=False,
                now=clock.now(),
                timer="turn.0",
            )
        )

    version = await commit(snap.row.version)
    with pytest.raises(VersionConflict):
        await commit(version)  # the timer fired already: nothing is written
    assert await host.store.count_actions(gid) == 1
    assert (await host.by_id(gid)).row.version == version


async def test_per_seat_timers_of_a_secret_phase_all_fire(host, clock):
    gid = await started(host, ANA, BEN, CAL)
    for _ in range(3):  # three turns run out: the guessing phase opens
        clock.advance(LIVE)
        await host.pace(gid)
    snap = await host.by_id(gid)
    assert snap.to_move() == [0, 1, 2] and all(d.private for d in snap.decisions)
    await play(host, gid, 1, BEN, "odd")
    clock.advance(LIVE)
    due = await host.pace(gid)
    assert [s for s, key in due.timed][:2] == [0, 2]
    acts = await host.store.actions(gid)
    timed = [(a.seat, a.choice) for a in acts if a.timer and a.timer.startswith("guess")]
    assert timed == [(0, "even"), (2, "even")]
    snap = await host.by_id(gid)
    assert snap.view(None)["round"] == 2
    assert await host.replay(gid) == snap.row.state


async def test_a_phase_timer_fires_once_for_the_first_pending_seat(host, clock):
    gid = await started(host, ANA, BEN, CAL, options={"clock": "phase"})
    for _ in range(3):
        clock.advance(LIVE)
        await host.pace(gid)
    snap = await host.by_id(gid)
    assert {d.timer.key for d in snap.decisions} == {"guess.1"}
    assert snap.running_timers() == [(clock.now() + LIVE, [0, 1, 2])]
    await play(host, gid, 0, ANA, "odd")
    clock.advance(LIVE)
    due = await host.pace(gid)
    assert (1, "guess.1") in due.timed and not any(s == 2 for s, k in due.timed if k == "guess.1")
    acts = [a for a in await host.store.actions(gid) if a.timer == "guess.1"]
    assert [(a.seat, a.choice) for a in acts] == [(1, "close")]
    snap = await host.by_id(gid)
    assert snap.view(None)["round"] == 2 and snap.view(None)["scores"][1:] == [0, 0]


async def test_undo_keeps_the_clock_and_cannot_take_back_an_expiry(host, clock):
    t0 = clock.now()
    gid = await started(host, ANA, BEN)
    seats = by_seat(ANA, BEN)
    first = (await host.by_id(gid)).to_move()[0]
    clock.advance(100)
    await play(host, gid, first, seats[first], "add1")
    await host.undo(gid, seats[first])
    snap = await host.by_id(gid)
    assert snap.timers["turn.0"].started == t0  # a move taken back does not reset it
    clock.advance(LIVE - 100)
    assert len((await host.pace(gid)).timed) == 1
    with pytest.raises(HostError) as err:
        await host.undo(gid, seats[first])
    assert err.value.code == "host.error.undo_timer"


async def test_rollback_restarts_the_clocks(host, clock):
    mod = Player(9, "Mod", "en", can_manage=True)
    gid = await started(host, ANA, BEN)
    seats = by_seat(ANA, BEN)
    for _ in range(4):  # three turns, everyone guesses: round 2
        snap = await host.by_id(gid)
        for seat in snap.to_move():
            await play(host, gid, seat, seats[seat], snap.decisions_for(seat)[0].options[0].id)
    clock.advance(LIVE - 1)
    seat = (await host.by_id(gid)).to_move()[0]
    await play(host, gid, seat, seats[seat], "add1")
    clock.advance(LIVE - 1)
    snap, outcome, _, _ = await host.rollback(gid, mod)
    assert outcome == "rolled"
    (d,) = snap.decisions
    assert snap.timers[d.timer.key].started == clock.now()
    clock.advance(2)
    assert (await host.pace(gid)).timed == []


async def test_an_expiry_the_game_refuses_is_dropped(host, clock):
    class Odd(timedgame.Timed):
        def pending(self, s):
            from dataclasses import replace

            from core.contract import Timer

            return [
                replace(d, timer=Timer(d.timer.key, 5, "nope")) if d.timer else d
                for d in super().pending(s)
            ]

    host._games = lambda: {"timed": Odd()}
    gid = await started(host, ANA, BEN)
    clock.advance(10)
    assert (await host.pace(gid)).timed == []  # "nope" is not a move of the game
    assert await host.store.count_actions(gid) == 0
    assert not (await host.store.timers(gid))["turn.0"].running
    assert await host.next_timer() is None


def test_the_tick_wakes_up_for_the_next_timer():
    assert tick_wait(60, None, 1000) == 60
    assert tick_wait(60, 1010, 1000) == 10.5
    assert tick_wait(60, 1000.2, 1000) == 1.0  # never a busy loop
    assert tick_wait(60, 5000, 1000) == 60
    assert tick_wait(60, 990, 1000) == 60  # overdue after a tick: stuck, no hurry


async def test_an_expiry_option_need_not_be_a_button(host, clock):
    """Only the clock may pick a timer's option when the decision does not offer it: a
    player's click on it is refused, the timer applies it."""

    class Hidden(timedgame.Timed):
        def pending(self, s):
            from dataclasses import replace

            return [
                replace(d, options=tuple(o for o in d.options if o.id != d.timer.option))
                if d.timer
                else d
                for d in super().pending(s)
            ]

        def apply(self, s, seat, choice):
            return timedgame.Timed().apply(s, seat, choice)  # the game itself accepts it

    host._games = lambda: {"timed": Hidden()}
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    (decision,) = snap.decisions
    assert decision.timer is not None and decision.option(decision.timer.option) is None
    user = snap.seats[decision.seat].user_id
    assert user is not None
    with pytest.raises(HostError):
        await host.play(gid, user, decision.seat, snap.token(decision), decision.timer.option)
    clock.advance(decision.timer.seconds + 1)
    assert (await host.pace(gid)).timed == [(decision.seat, decision.timer.key)]
    assert await host.store.count_actions(gid) == 1
    assert await host.replay(gid) == (await host.by_id(gid)).row.state
