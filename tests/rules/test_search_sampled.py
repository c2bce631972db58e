"""The search engine on the games whose hidden cards its worlds redraw (Ad Astra, Mission:
Red Planet; the checks are tests/searchkit.py's): a sampled world keeps everything the seat
sees and redraws everything it does not (so a hidden card cannot change its move), the same
seed gives the same move, ``evaluate`` is a chance, and the levels are ordered."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ad_astra import GAME as AD_ASTRA
from rules.red_planet import GAME as RED_PLANET
from rules.search import budget_of
from tests import searchkit as kit

GAMES: dict[str, Any] = {"ad_astra": AD_ASTRA, "red_planet": RED_PLANET}


@pytest.mark.parametrize(
    ("which", "players", "seed"),
    [
        *[("ad_astra", 3, 1), ("ad_astra", 4, 2), ("ad_astra", 5, 3)],
        *[("red_planet", 2, 1), ("red_planet", 3, 2), ("red_planet", 4, 3)],
    ],
)
def test_a_sampled_world_looks_the_same_to_the_seat_and_is_a_real_state(
    which: str, players: int, seed: int
) -> None:
    kit.check_sampled_worlds_look_the_same(GAMES[which], players, seed)


@pytest.mark.parametrize(
    ("which", "players", "seed"),
    [("ad_astra", 3, 4), ("ad_astra", 4, 5), ("red_planet", 2, 4), ("red_planet", 3, 5)],
)
def test_worlds_do_not_depend_on_what_the_seat_cannot_see(
    which: str, players: int, seed: int
) -> None:
    """Two states the seat cannot tell apart (the second a sampled world of the first: Ad
    Astra's planets, artifacts, planning cards, hands, decks and seed; Red Planet's other
    hands, missions, discoveries, resources, secret choices, decks and seed, all redrawn)
    give the same worlds, hence the same move, for the same generator."""
    kit.check_worlds_do_not_depend_on_the_hidden(GAMES[which], players, seed)


@pytest.mark.parametrize(("which", "players", "every"), [("ad_astra", 3, 3), ("red_planet", 2, 2)])
def test_a_hidden_card_that_would_change_a_peeking_bots_move_does_not_change_the_bots(
    which: str, players: int, every: int
) -> None:
    kit.check_a_peek_would_matter_but_is_never_made(GAMES[which], players, 6, every=every)


@pytest.mark.parametrize(("which", "players", "every"), [("ad_astra", 3, 9), ("red_planet", 2, 5)])
def test_the_same_seed_gives_the_same_move_at_every_level(
    which: str, players: int, every: int
) -> None:
    kit.check_same_seed_same_move(GAMES[which], players, 7, every=every)


@pytest.mark.parametrize(("which", "every"), [("ad_astra", 12), ("red_planet", 6)])
def test_evaluate_is_a_chance(which: str, every: int) -> None:
    game = GAMES[which]
    for s in kit.positions(game, 3, 8, every):
        for seat in range(3):
            assert 0.0 <= game.evaluate(s, seat) <= 1.0


def test_the_levels_are_ordered() -> None:
    easy, normal, hard = (budget_of(lv, AD_ASTRA) for lv in ("easy", "normal", "hard"))
    # Ad Astra: easy slips, normal is the heuristic without slips, hard searches.
    assert easy.playouts == normal.playouts == 0 and easy.noise > normal.noise == 0
    assert hard.playouts > 0 and hard.noise == 0
    # Red Planet: each level searches more and slips less than the one before.
    easy, normal, hard = (budget_of(lv, RED_PLANET) for lv in ("easy", "normal", "hard"))
    assert easy.playouts == 0 and easy.noise > 0
    assert 0 < normal.playouts < hard.playouts
    assert easy.noise >= normal.noise >= hard.noise == 0
