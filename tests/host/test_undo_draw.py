"""Undo is refused after a card draw (a Kosmonavts event card), through the host."""

from __future__ import annotations

import random

import pytest

from host.clock import FakeClock
from host.sessions import Host, HostError, Player
from host.storage import open_store

ANA, BEN = Player(1, "Ana"), Player(2, "Ben")


async def test_undo_refused_after_a_card_draw(db: str) -> None:
    store = await open_store(db)
    host = Host(store, clock=FakeClock(), seeds=random.Random(3))
    users = {0: ANA, 1: BEN}
    snap = await host.new_lobby(
        guild_id=1, channel_id=9, game_id="kosmonavts", owner=ANA, lang="en"
    )
    await host.join(snap.id, BEN)
    await host.start(snap.id, ANA)
    rng = random.Random(4)
    for _ in range(3000):
        snap = await host.by_id(snap.id)
        d = rng.choice(snap.decisions)
        choice = snap.game.bot_choice(snap.state, d.seat, rng)  # type: ignore[attr-defined]
        await host.play(snap.id, users[d.seat].user_id, d.seat, snap.token(d), choice)
        last = (await store.actions(snap.id))[-1]
        if any(e["code"].endswith("card_drawn") for e in last.events):
            break
    else:
        raise AssertionError("no card was drawn")
    # The draw starts the secret orders: then every undo gets the one answer that tells
    # nobody whether someone has started composing (undo_secret_phase).
    with pytest.raises(HostError, match=r"undo_revealed|undo_secret_phase"):
        await host.undo(snap.id, users[last.seat])
    assert await host.undoable(await host.by_id(snap.id)) is None
    await store.close()


async def test_a_covered_secret_order_is_one_miss(db: str) -> None:
    """The clock covers an absent player's whole order (several secret steps) as one
    move, counted as one missed deadline — not one per cube."""
    store = await open_store(db)
    clock = FakeClock()
    host = Host(store, clock=clock, seeds=random.Random(5))
    snap = await host.new_lobby(
        guild_id=1, channel_id=9, game_id="kosmonavts", owner=ANA, lang="en"
    )
    await host.join(snap.id, BEN)
    await host.cycle_option(snap.id, "h.deadline", ANA)  # none -> 12h
    await host.start(snap.id, ANA)
    snap = await host.by_id(snap.id)
    assert all(d.private for d in snap.decisions) and len(snap.to_move()) == 2
    clock.advance(25 * 3600)  # past twice the deadline
    due = await host.pace(snap.id)
    assert sorted(due.forced) == [0, 1]
    after = await host.by_id(snap.id)
    assert [s.missed for s in after.seats] == [1, 1]
    assert not any(s.autopilot for s in after.seats)
    assert after.view(None)["phase"] != "kosmonavts.phase.orders" or not any(
        d.private for d in after.decisions
    )
    await store.close()
