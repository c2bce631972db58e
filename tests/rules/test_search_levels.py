"""The three bot levels on MLEM and Kosmonavts: each level stays within its budget (counted
in play-outs and ``apply`` calls, never wall-clock), the same seed gives the same move at
every level, the levels are ordered, and two Kosmonavts bot seats searching at a level still
fly different routes in most games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules.search as search
from core.contract import answers
from rules.kosmonavts import GAME as KOSMO
from rules.mlem import GAME as MLEM
from rules.search import LEVELS, bot_for, budget_of, choose, decision_of
from tests.rules.kit import count_playouts

GAMES: dict[str, Any] = {"mlem": MLEM, "kosmonavts": KOSMO}


class Counting:
    """A game that counts the ``apply`` calls made through it (everything else delegated)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.applied = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, s: Any, seat: int, choice: str) -> Any:
        self.applied += 1
        return self._game.apply(s, seat, choice)


def _mlem_positions() -> list[dict[str, Any]]:
    """MLEM positions with a real choice (two or more options), from random 2- and 3-player
    games with and without the variants."""
    out: list[dict[str, Any]] = []
    for seed, n, opts in ((4, 3, {"ufo": "on", "recon": "on", "missions": "on"}), (5, 2, {})):
        rng = random.Random(seed)
        s = MLEM.new(n, opts, seed)
        while MLEM.pending(s) and len(out) < 12 * (1 + seed - 4):
            d = MLEM.pending(s)[0]
            if len(d.options) > 1:
                out.append(s)
            s, _ = MLEM.apply(s, d.seat, rng.choice(d.options).id)
    return out[::3]


def _kosmo_positions() -> list[dict[str, Any]]:
    """Kosmonavts positions with a real choice, from a game of the pilot bots."""
    out: list[dict[str, Any]] = []
    rng = random.Random(3)
    s = KOSMO.new(2, {}, 3)
    while KOSMO.pending(s) and len(out) < 24:
        d = KOSMO.pending(s)[0]
        if len(d.options) > 1 and s["round"] >= 2:
            out.append(s)
        s, _ = KOSMO.apply(s, d.seat, KOSMO.bot_choice(s, d.seat, rng))
    return out[::4]


POSITIONS = {"mlem": _mlem_positions, "kosmonavts": _kosmo_positions}


def test_the_levels_are_ordered() -> None:
    for game in GAMES.values():
        easy, normal, hard = (budget_of(lv, game) for lv in ("easy", "normal", "hard"))
        assert easy.playouts == 0 and easy.noise > 0
        assert 0 < normal.playouts < hard.playouts
        assert easy.noise >= normal.noise >= hard.noise == 0
        assert (normal.depth or 10**6) <= (hard.depth or 10**6)


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("which", list(GAMES))
def test_every_level_stays_within_its_budget(
    which: str, level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    playouts = count_playouts(monkeypatch)
    game = Counting(GAMES[which])
    budget = budget_of(level, GAMES[which])
    for s in POSITIONS[which]():
        seat = game.pending(s)[0].seat
        playouts[0] = game.applied = 0
        answer = bot_for(game, level)(s, seat, random.Random(0))
        assert answers(decision_of(game, s, seat), answer)
        assert playouts[0] <= budget.playouts
        # every play-out: the candidate's move, then at most ``depth`` moves
        depth = budget.depth if budget.depth is not None else search.MAX_PLAYOUT_MOVES
        assert game.applied <= playouts[0] * (1 + depth)
        if budget.playouts == 0:
            assert game.applied == 0


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("which", list(GAMES))
def test_the_same_seed_gives_the_same_move(which: str, level: str) -> None:
    game = GAMES[which]
    for s in POSITIONS[which]()[:3]:
        seat = game.pending(s)[0].seat
        first = choose(game, s, seat, random.Random(11), level)
        assert choose(game, s, seat, random.Random(11), level) == first


def _route_game(seed: int, level: str) -> tuple[list[str], list[str]]:
    """A 2-player Kosmonavts game, both seats searching at ``level``; the bodies each ship
    lands on, in order."""
    s = KOSMO.new(2, {"planets": "random"}, seed)
    bot = bot_for(KOSMO, level)
    routes: dict[int, list[str]] = {0: [], 1: []}
    moves = 0
    while pend := KOSMO.pending(s):
        d = pend[0]
        s, events = KOSMO.apply(s, d.seat, bot(s, d.seat, random.Random(f"{seed}:{moves}")))
        moves += 1
        for e in events:
            parts = e.code.split(".")
            if parts[2] in ("landed", "visited") and e.seat is not None:
                routes[e.seat].append(parts[3])
    return routes[0], routes[1]


def test_two_kosmonavts_bot_seats_at_normal_take_different_routes() -> None:
    differ = sum(a != b for a, b in (_route_game(seed, "normal") for seed in range(6)))
    assert differ >= 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kosmonavts_worlds_deal_the_others_new_missions(players: int) -> None:
    """A sampled world keeps the seat's own missions and deals every other seat a fresh,
    complete hand from the cards the seat cannot see (with 4 players the basic decks are
    just large enough: only the cards the seat holds are out)."""
    for seed in range(20):
        s = KOSMO.new(players, {}, seed)
        for seat in range(players):
            w = KOSMO.sample(s, seat, random.Random(seed))
            assert w["missions"][seat] == s["missions"][seat]
            for k in range(players):
                assert len(w["missions"][k]) == len(s["missions"][k])
