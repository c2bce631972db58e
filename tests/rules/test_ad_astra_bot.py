"""Ad Astra on the search engine: the sampled worlds keep everything the seat sees
and redraw everything it does not (so a hidden card cannot change its move), the same seed
gives the same move, and the levels are ordered."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.ad_astra import GAME
from rules.search import Budget, budget_of, choose

SMALL = Budget(playouts=8, depth=10)


class Peeking:
    """The same game, searched by a bot that cheats: its worlds keep every hidden card as it
    is (only the future dice change)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sample(self, s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        w = GAME.load(GAME.dump(s))
        w["seed"] = rng.getrandbits(48)
        w["rc"] = 0
        return w


def positions(players: int, seed: int, every: int = 3) -> list[dict[str, Any]]:
    """Positions with a real choice from a game of the heuristic bots."""
    out: list[dict[str, Any]] = []
    rng = random.Random(seed)
    s = GAME.new(players, {}, seed)
    k = 0
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        if len(d.options) > 1:
            k += 1
            if k % every == 0:
                out.append(s)
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
    return out


def seat_of(s: dict[str, Any]) -> int:
    return GAME.pending(s)[0].seat


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_a_sampled_world_looks_the_same_to_the_seat_and_is_a_real_state(
    players: int, seed: int
) -> None:
    for i, s in enumerate(positions(players, seed)):
        seat = seat_of(s)
        w = GAME.sample(s, seat, random.Random(i))
        assert GAME.view(w, seat) == GAME.view(s, seat)
        assert GAME.load(GAME.dump(w)) == w  # every component where it can be
        assert [d.seat for d in GAME.pending(w)] == [d.seat for d in GAME.pending(s)]


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (4, 5)])
def test_worlds_do_not_depend_on_what_the_seat_cannot_see(players: int, seed: int) -> None:
    """Two states the seat cannot tell apart (the second a sampled world of the first:
    planets, artifacts, planning cards, hands, decks and seed all
    redrawn) give the same worlds, hence the same move, for the same generator."""
    redrawn = 0
    for i, s in enumerate(positions(players, seed)):
        seat = seat_of(s)
        other = GAME.sample(s, seat, random.Random(1000 + i))
        redrawn += GAME.dump(other) != GAME.dump(s)
        a = GAME.sample(s, seat, random.Random(i))
        b = GAME.sample(other, seat, random.Random(i))
        assert GAME.dump(a) == GAME.dump(b)
    assert redrawn > 0


def test_a_hidden_card_that_would_change_a_peeking_bots_move_does_not_change_the_bots() -> None:
    peeking = Peeking(GAME)
    changed = 0
    for i, s in enumerate(positions(3, 6, every=3)[:24]):
        seat = seat_of(s)
        other = GAME.sample(s, seat, random.Random(500 + i))
        honest = [choose(GAME, x, seat, random.Random(i), SMALL) for x in (s, other)]
        assert honest[0] == honest[1]
        cheat = [choose(peeking, x, seat, random.Random(i), SMALL) for x in (s, other)]
        changed += cheat[0] != cheat[1]
    assert changed > 0  # the hidden cards mattered to a bot that could see them


def test_the_same_seed_gives_the_same_move_at_every_level() -> None:
    for s in positions(3, 7, every=9)[:8]:
        seat = seat_of(s)
        for level in ("easy", SMALL):
            a = choose(GAME, s, seat, random.Random(11), level)
            b = choose(GAME, GAME.load(GAME.dump(s)), seat, random.Random(11), level)
            assert a == b


def test_the_levels_are_ordered() -> None:
    easy, normal, hard = (budget_of(lv, GAME) for lv in ("easy", "normal", "hard"))
    # Easy slips, normal is the heuristic without slips, hard searches.
    assert easy.playouts == normal.playouts == 0 and easy.noise > normal.noise == 0
    assert hard.playouts > 0 and hard.noise == 0


def test_evaluate_is_a_chance() -> None:
    for s in positions(3, 8, every=12):
        for seat in range(3):
            assert 0.0 <= GAME.evaluate(s, seat) <= 1.0
