"""Ad Astra on the search engine: the sampled worlds keep everything the seat sees
and redraw everything it does not (so a hidden card cannot change its move), the same seed
gives the same move, and the levels are ordered."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ad_astra import GAME
from rules.search import budget_of
from tests import searchkit as kit


def positions(players: int, seed: int, every: int = 3) -> list[dict[str, Any]]:
    return kit.positions(GAME, players, seed, every)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_a_sampled_world_looks_the_same_to_the_seat_and_is_a_real_state(
    players: int, seed: int
) -> None:
    kit.check_sampled_worlds_look_the_same(GAME, players, seed)


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (4, 5)])
def test_worlds_do_not_depend_on_what_the_seat_cannot_see(players: int, seed: int) -> None:
    """Two states the seat cannot tell apart (the second a sampled world of the first:
    planets, artifacts, planning cards, hands, decks and seed all
    redrawn) give the same worlds, hence the same move, for the same generator."""
    kit.check_worlds_do_not_depend_on_the_hidden(GAME, players, seed)


def test_a_hidden_card_that_would_change_a_peeking_bots_move_does_not_change_the_bots() -> None:
    kit.check_a_peek_would_matter_but_is_never_made(GAME, 3, 6, every=3)


def test_the_same_seed_gives_the_same_move_at_every_level() -> None:
    kit.check_same_seed_same_move(GAME, 3, 7, every=9)


def test_the_levels_are_ordered() -> None:
    easy, normal, hard = (budget_of(lv, GAME) for lv in ("easy", "normal", "hard"))
    # Easy slips, normal is the heuristic without slips, hard searches.
    assert easy.playouts == normal.playouts == 0 and easy.noise > normal.noise == 0
    assert hard.playouts > 0 and hard.noise == 0


def test_evaluate_is_a_chance() -> None:
    for s in positions(3, 8, every=12):
        for seat in range(3):
            assert 0.0 <= GAME.evaluate(s, seat) <= 1.0
