"""Mission: Red Planet on the search engine: the sampled worlds keep everything the seat sees
and redraw everything it does not (so a hidden card cannot change its move), the same seed
gives the same move, and the levels are ordered."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.red_planet import GAME
from rules.search import budget_of
from tests import searchkit as kit


def positions(players: int, seed: int, every: int = 3) -> list[dict[str, Any]]:
    return kit.positions(GAME, players, seed, every)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_sampled_world_looks_the_same_to_the_seat_and_is_a_real_state(
    players: int, seed: int
) -> None:
    kit.check_sampled_worlds_look_the_same(GAME, players, seed)


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5)])
def test_worlds_do_not_depend_on_what_the_seat_cannot_see(players: int, seed: int) -> None:
    """Two states the seat cannot tell apart (the second a sampled world of the first:
    other hands, missions, discoveries, resources, secret choices, decks and seed all
    redrawn) give the same worlds, hence the same move, for the same generator."""
    kit.check_worlds_do_not_depend_on_the_hidden(GAME, players, seed)


def test_a_hidden_card_that_would_change_a_peeking_bots_move_does_not_change_the_bots() -> None:
    kit.check_a_peek_would_matter_but_is_never_made(GAME, 2, 6, every=2)


def test_the_same_seed_gives_the_same_move_at_every_level() -> None:
    kit.check_same_seed_same_move(GAME, 2, 7, every=5)


def test_the_levels_are_ordered() -> None:
    easy, normal, hard = (budget_of(lv, GAME) for lv in ("easy", "normal", "hard"))
    assert easy.playouts == 0 and easy.noise > 0
    assert 0 < normal.playouts < hard.playouts
    assert easy.noise >= normal.noise >= hard.noise == 0


def test_evaluate_is_a_chance() -> None:
    for s in positions(3, 8, every=6):
        for seat in range(3):
            assert 0.0 <= GAME.evaluate(s, seat) <= 1.0


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
