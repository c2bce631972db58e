"""How often a game pings its players, with the lobby's default ``pings`` (``away``: a new
table pings a player only if they have not acted in the game for
:data:`host.pacing.AWAY_AFTER`) and with ``live`` ("always"). The bound on a whole game of
every registered game with the default is checked in tests/e2e/test_contract_e2e.py
(three players and a bot).

Players click as soon as it is their turn (the game's own bot heuristic picks their move,
so the games end), on the table, in their DMs or through "My hand" — whatever the bot shows
them; the clock only moves when the game waits for a timer alone. A ping is a channel
message whose ``allowed_mentions`` notify that user (:func:`tests.e2e.driver.pings`).
The figures are printed (``-s``); the README quotes them."""

from __future__ import annotations

import os
import random

import pytest

from core.contract import random_answer, split_picks
from host import registry
from host.clock import FakeClock
from host.pacing import AWAY_AFTER, HOUR
from tests.e2e.driver import (
    is_final,
    latest_table,
    ping_counts,
    pings,
)
from tests.e2e.kit import (
    click_choice,
    cog_of,
    open_game,
    play_straight,
    play_whole_game,
    snapshot,
)
from tests.harness import Harness

GAMES = tuple(registry.GAME_MODULES)
#: The most pings a player may get in a whole 3-player game with the default options.
MOST_PINGS = 8
MAX_CLICKS = 4000


@pytest.mark.skipif(
    not os.environ.get("COSMODROME_FIGURES"), reason="the README's figures: COSMODROME_FIGURES=1"
)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("mode", "think"), [("away", 0.0), ("live", 0.0), ("away", 30.0), ("away", 120.0)]
)
async def test_figures(
    harness: Harness, clock: FakeClock, game: str, mode: str, think: float
) -> None:
    """The README's figures: the default (``away``) with players who click at once, take 30
    seconds or 2 minutes a move, and ``always`` (``live``)."""
    clicks_to = {"away": 0, "live": 1}[mode]
    users, clicks = await play_whole_game(
        harness, clock, game, pings_clicks=clicks_to, think=think
    )
    counts = ping_counts(harness, users)
    assert (await snapshot(harness)).row.host_options["pings"] == mode
    print(f"\npings {game} 3p {mode} think {think:.0f}s: {counts} in {clicks} clicks")


async def test_a_player_away_is_pinged_when_their_turn_comes(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_game(h, "mlem", users[0], users[1:])
    rng = random.Random(3)
    seats = {i: u for i, u in enumerate(users)}
    last: dict[int, float] = {}  # when each seat last clicked
    away_pinged = along_quiet = 0
    for _ in range(200):
        table = latest_table(h)
        if is_final(table):
            break
        snap = await snapshot(h)
        (mover,) = snap.human_to_move()
        d = snap.decisions_for(mover)[0]
        before = len(pings(h))
        # Now and then everyone is away a while (beyond the window) before a move.
        if len(last) == 3 and rng.random() < 0.25:
            clock.advance(AWAY_AFTER + 1)
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        assert await click_choice(h, seats[mover], mover, table, picks, d.multi)
        last[mover] = clock.now()
        after = await snapshot(h)
        got = set().union(*[who for _, who in pings(h)[before:]])
        for s in after.human_to_move():
            if s == mover or s not in last:
                continue
            if clock.now() - last[s] >= AWAY_AFTER:  # away: pinged when their turn comes
                assert seats[s].id in got
                away_pinged += 1
            else:  # clicking along: no ping
                assert seats[s].id not in got
                along_quiet += 1
        clock.advance(20)
    assert away_pinged >= 3 and along_quiet >= 10, (away_pinged, along_quiet)


async def test_always_pings_at_every_turn_change(harness: Harness, clock: FakeClock) -> None:
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_game(h, "mlem", users[0], users[1:], clicks={"h.pings": 1})
    assert (await snapshot(h)).row.host_options["pings"] == "live"
    await play_straight(h, users, clock, random.Random(2))
    assert all(n > MOST_PINGS for n in ping_counts(h, users).values())


async def test_a_player_who_left_just_before_their_turn_is_pinged_once_by_the_tick(
    harness: Harness, clock: FakeClock
) -> None:
    """The default's gap, closed: a player who moved a minute before their turn came (so
    the table does not ping them) and then left is pinged once by the pacing tick, about
    AWAY_AFTER after their turn came; a player the table pinged is not pinged again."""
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_game(h, "mlem", users[0], users[1:])
    rng = random.Random(5)
    seats = {i: u for i, u in enumerate(users)}
    tick = cog_of(h).tick
    last: dict[int, float] = {}

    async def click(mover: int) -> None:
        table = latest_table(h)
        d = (await snapshot(h)).decisions_for(mover)[0]
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        assert await click_choice(h, seats[mover], mover, table, picks, d.multi)
        last[mover] = clock.now()

    def pinged_since(start: int) -> list[set[int]]:
        return [who for _, who in pings(h)[start:] if who]

    # Quick moves, 30 s apart, until a player's turn comes a minute or so after their move.
    for _ in range(60):
        (mover,) = (await snapshot(h)).human_to_move()
        before = len(pings(h))
        await click(mover)
        (nxt,) = (await snapshot(h)).human_to_move()
        came = clock.now()
        if nxt != mover and nxt in last and came - last[nxt] <= 90:
            break
        clock.advance(30)
    else:
        raise AssertionError("no turn came shortly after the player's own move")
    assert seats[nxt].id not in set().union(*pinged_since(before))  # clicking along: quiet
    # They do not come back: nothing until AWAY_AFTER into their turn, then one ping.
    start = len(pings(h))
    clock.advance(AWAY_AFTER - 1)
    await tick()
    assert pinged_since(start) == []
    clock.advance(1)
    await tick()
    assert pinged_since(start) == [{seats[nxt].id}]
    clock.advance(HOUR)
    await tick()
    assert pinged_since(start) == [{seats[nxt].id}]  # once
    # Back, they move; everyone is then away: the next table pings its player, and the
    # catch-up does not ping them again.
    clock.advance(AWAY_AFTER + 1)
    before = len(pings(h))
    await click(nxt)
    (then,) = (await snapshot(h)).human_to_move()
    assert then != nxt and pinged_since(before) == [{seats[then].id}]
    start = len(pings(h))
    for _ in range(6):
        clock.advance(AWAY_AFTER)
        await tick()
    assert pinged_since(start) == []
