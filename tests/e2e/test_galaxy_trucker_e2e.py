"""Galaxy Trucker through the offline Discord harness: whole flights from ``/game new`` to the
credits, building through private views (DMs, or "My hand" for a player whose DMs are
closed), a face-up tile contended by two players at once, the hourglass running out on a
slow builder (FakeClock + the pacing tick), bots in some seats; nothing of a ship in
progress ever reaches the channel.

The simulated players click only what the bot shows them; they mostly pick what the
engine's bot would (``rules/galaxy_trucker/bot.py``) and finish building after a few tiles,
so that a flight stays short.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from host.clock import FakeClock
from tests.e2e import kit
from tests.e2e.driver import (
    Offer,
    hand_button,
    latest_table,
    offers,
    panel_of,
    play_turn,
    refused,
)
from tests.e2e.kit import assert_translated, host_of, snapshot
from tests.e2e.players import Trucker, ship_guard
from tests.e2e.players import finish_flight as finish
from tests.harness import FakeUser, Harness

pytestmark = pytest.mark.usefixtures("i18n_warnings")
TIMER_FIELD = ("⏳ Time runs out", "⏳ Se acaba el tiempo")


async def open_game(
    h: Harness, owner: FakeUser, others: Sequence[FakeUser], bots: int, options: dict[str, str]
) -> Any:
    await kit.open_game(h, "galaxy_trucker", owner, others, bots=bots, options=options)
    return await snapshot(h)


async def test_two_players_learning_flight_one_through_my_hand(
    harness: Harness, caplog: Any
) -> None:
    h = harness
    (ana, ben), seats = kit.seated(h, ("Ana", "es-ES"), ("Ben", "en-US"), closed=1)
    snap = await open_game(h, ana, [ben], 0, {"level": "learning"})
    assert snap.state["phase"] == "build" and snap.state["hg"]["runs"] == 0
    # No hourglass in the learning flight: no timer on the table.
    table = latest_table(h)
    assert not any(name in table.text() for name in TIMER_FIELD)
    # Building is private: Ana's panel is a DM with her ship's picture; Ben's comes from
    # "My hand", as an ephemeral reply.
    panel = await panel_of(h, ana, table, set())
    assert panel.guild_id is None and "private.png" in [a.name for a in panel.attachments]
    opened = await h.click(ben, table, hand_button(table))
    assert opened.ephemeral and "private.png" in [a.name for a in opened.posted.attachments]

    tr = Trucker(h, tiles=5)
    rng = random.Random(21)
    snap = await finish(h, seats, rng, {ben}, tr)
    assert tr.clicks["build:private"] > 10 and tr.clicks["flight:table"] > 0
    actions = await host_of(h).store.actions(snap.id)
    # Both built: Ben's moves came through "My hand" (his DMs are closed).
    placed = Counter(a.seat for a in actions if a.choice.startswith("place."))
    assert placed[0] >= 4 and placed[1] >= 4
    assert not h.dm_messages(ben)
    assert not [a for a in actions if a.by_bot]
    ship_guard(h, [ana, ben])
    assert_translated(h, "galaxy_trucker", [ana, ben], caplog)
    assert not h.unexpected and not h.errors, h.errors
    print(f"\nlearning 2p: {len(actions)} moves, clicks {dict(tr.clicks)}")


async def test_four_players_level_two_contended_pool_and_the_hourglass(
    harness: Harness, clock: FakeClock, caplog: Any
) -> None:
    h = harness
    (ana, ben), seats = kit.seated(h, ("Ana", "en-US"), ("Ben", "es-ES"), closed=1)
    snap = await open_game(h, ana, [ben], 2, {"level": "II", "hourglass": "90s"})
    state = snap.state
    assert state["phase"] == "build" and state["hg"] == {"run": 1, "runs": 3, "out": False}
    # The bots built at once (legal ships) and left tiles face up.
    assert state["players"][2]["done"] and state["players"][3]["done"]
    assert state["faceup"], "no face-up tile to fight over"
    table = latest_table(h)
    assert any(name in table.text() for name in TIMER_FIELD)

    # Ana (DM) and Ben ("My hand") click the same face-up tile at once: one gets it, the
    # other is told who was faster.
    ana_panel = await panel_of(h, ana, table, set())
    ben_panel = (await h.click(ben, table, hand_button(table))).posted
    tile = state["faceup"][0]

    def take(panel: Any) -> Offer:
        return next(o for o in offers(panel) if o.option == f"take.{tile}")

    a, b = take(ana_panel), take(ben_panel)
    replies = await h.click_many(
        [
            (ana, a.message, a.custom_id, None if a.value is None else [a.value]),
            (ben, b.message, b.custom_id, None if b.value is None else [b.value]),
        ]
    )
    assert refused(replies[0]) != refused(replies[1])
    loser = 0 if refused(replies[0]) else 1
    sentence = replies[loser].text()
    winner_name = ("Ana", "Ben")[1 - loser]
    assert winner_name in sentence and f"#{tile}" in sentence, sentence
    state = (await snapshot(h)).state
    assert state["taken"][str(tile)] == 1 - loser
    assert state["players"][1 - loser]["hand"] == tile

    # Ana builds a small ship and finishes; Ben places two tiles and then stops clicking.
    tr = Trucker(h, tiles=5)
    rng = random.Random(33)
    for _ in range(200):
        state = (await snapshot(h)).state
        if state["players"][0]["done"]:
            break
        assert await play_turn(h, {ana: 0}, rng, choose=tr) is not None
    assert state["players"][0]["done"]
    slow = Trucker(h, tiles=99)
    for _ in range(40):
        state = (await snapshot(h)).state
        me = state["players"][1]
        if len(me["ship"]) >= 3 and me["hand"] is not None:
            break
        assert await play_turn(h, {ben: 1}, rng, closed={ben}, choose=slow) is not None
    assert state["phase"] == "build" and state["players"][1]["hand"] is not None
    held = state["players"][1]["hand"]
    built = len(state["players"][1]["ship"])

    # The sand runs out, run after run; a finished player turns the hourglass each time
    # (the bots at once; Ana only if they have not). When the last run is out, Ben stops
    # where he is, his tile in hand goes back, and the pre-launch checks begin.
    host = host_of(h)
    cog: Any = h.bot.get_cog("GameCog")  # type: ignore[union-attr]
    for _run in range(3):
        clock.advance(89)
        await cog.tick()
        assert (await snapshot(h)).state["hg"]["out"] is False
        clock.advance(2)
        await cog.tick()
        await h.idle()  # the bot moves the sand unblocks are made in the background
        state = (await snapshot(h)).state
        if state["phase"] != "build":
            break
        assert state["hg"]["out"] or state["hg"]["run"] > _run + 1
        if state["hg"]["out"]:  # nobody turned it yet: Ana does, from the table
            table = latest_table(h)
            flip = next(o for o in offers(table, 0) if o.option == "flip")
            assert not refused(await h.click(ana, table, flip.custom_id))
    state = (await snapshot(h)).state
    assert state["phase"] != "build", state["hg"]
    actions = await host.store.actions(snap.id)
    fired = [x for x in actions if x.timer]
    # Three runs of the sand, each ended by the clock; between them a finished player
    # turned the hourglass (the last turn may only be made by someone who is done).
    sand = [(x.choice, x.timer) for x in actions if x.choice in ("flip", "hg.out")]
    assert sand == [
        ("hg.out", "hourglass.1"),
        ("flip", None),
        ("hg.out", "hourglass.2"),
        ("flip", None),
        ("hg.out", "hourglass.3"),
    ]
    assert all(x.seat != 1 for x in actions if x.choice == "flip")
    assert [x.choice for x in fired] == ["hg.out"] * 3
    # Ben was stopped: no more tiles than he had placed, a start space all the same.
    assert len(state["players"][1]["ship"]) <= built and 1 in state["order"]
    assert (
        held in state["faceup"]
        or held in state["players"][1]["reserve"] + state["players"][1]["lost"]
    )
    assert any("⏳" in m.content for m in h.messages())

    # Pre-launch and the flight, to the credits.
    snap = await finish(h, seats, rng, {ben}, tr)
    actions = await host.store.actions(snap.id)
    assert {a.seat for a in actions if a.by_bot} == {2, 3}
    assert not h.dm_messages(ben)
    assert any(a.seat == 1 and not a.by_bot and a.choice.startswith("place.") for a in actions)
    ship_guard(h, [ana, ben])
    assert_translated(h, "galaxy_trucker", [ana, ben], caplog)
    assert not h.unexpected and not h.errors, h.errors
    print(f"\nlevel II 4p: {len(actions)} moves, clicks {dict(tr.clicks)}")
