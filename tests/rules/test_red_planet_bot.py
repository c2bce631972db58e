"""Mission: Red Planet: whom the game waits for is whom its decisions ask, through whole
games of rollouts (its search tests: tests/rules/test_search_sampled.py)."""

from __future__ import annotations

import random

import pytest

from rules.red_planet import GAME


@pytest.mark.parametrize("players", [2, 3, 5])
def test_to_move_names_the_seats_that_pending_asks(players: int) -> None:
    rng = random.Random(players)
    s = GAME.new(players, {}, players)
    while True:
        assert GAME.to_move(s) == sorted({d.seat for d in GAME.pending(s)})
        pend = GAME.pending(s)
        if not pend:
            break
        s, _ = GAME.apply(s, pend[0].seat, GAME.rollout(s, pend[0].seat, rng))
