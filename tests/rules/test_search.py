"""The search engine (rules/search.py): no peeking, determinism, budgets, multi-picks."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules.search as search
from core.contract import IllegalMove, answers
from rules.kosmonavts import GAME as KOSMO
from rules.mlem import GAME as MLEM
from rules.search import Budget, bot_for, choose, decision_of
from tests.rules.kit import check_sample_keeps_what_the_seat_sees, count_playouts
from tests.searchtoy import Guess, PeekingGuess, Pick, SampledGuess

SMALL = Budget(playouts=24)
#: enough worlds that the right bet (two chances in three) beats the heuristic's pick
GUESS = Budget(playouts=64)


def _guess_state(card: str) -> dict[str, Any]:
    return {"schema": 1, "card": card, "guess": None}


@pytest.mark.parametrize("card", ["hi", "lo"])
def test_the_engine_never_peeks_at_the_hidden_card(card: str) -> None:
    game = SampledGuess()
    for seed in range(10):
        assert choose(game, _guess_state(card), 0, random.Random(seed), GUESS) == "hi"


def test_the_toy_is_sensitive_to_peeking() -> None:
    # The same search over the true state (a game that claims to hide nothing) follows the card:
    # so the test above would fail if the engine looked at it.
    game = PeekingGuess()
    assert choose(game, _guess_state("lo"), 0, random.Random(1), GUESS) == "lo"
    assert choose(game, _guess_state("hi"), 0, random.Random(1), GUESS) == "hi"


def test_a_game_without_sample_is_never_searched() -> None:
    class Counting(Guess):
        applied = 0

        def apply(self, s: dict[str, Any], seat: int, choice: str) -> Any:
            Counting.applied += 1
            return super().apply(s, seat, choice)

    game = Counting()
    # Not searchable: every level plays the game's own heuristic (here: "lo").
    assert not search.searchable(game)
    assert choose(game, _guess_state("hi"), 0, random.Random(0), "hard") == "lo"
    assert Counting.applied == 0


def test_multi_pick_decisions_are_searched_over_legal_answers() -> None:
    game = Pick()
    s = game.new(2, {}, 0)
    answer = choose(game, s, 0, random.Random(3), SMALL)
    assert answer == "b,c"
    assert answers(decision_of(game, s, 0), answer)


def test_a_noisy_slip_the_rules_refuse_falls_back_to_the_policy() -> None:
    """A slip is a uniformly random answer; a multi-pick mix of offered options that the
    rules refuse together is never played: the game's own pick is, deterministically."""

    class Picky(Pick):
        def apply(self, s: dict[str, Any], seat: int, choice: str) -> Any:
            if choice != "b":
                raise IllegalMove("pick.error")  # only "b" alone is allowed
            return super().apply(s, seat, choice)

        def bot_choice(self, s: dict[str, Any], seat: int, rng: random.Random) -> str:
            return "b"

    game = Picky()
    s = game.new(2, {}, 0)
    for seed in range(30):
        assert choose(game, s, 0, random.Random(seed), Budget(playouts=0, noise=1.0)) == "b"


def test_multi_pick_with_many_answers_samples_a_few() -> None:
    class Wide(Pick):
        VALUES = {k: i for i, k in enumerate("abcdefghij")}

    game = Wide()
    s = game.new(2, {}, 0)
    d = decision_of(game, s, 0)
    cands = search.candidates(game, s, d, random.Random(1), 12)
    assert len(cands) == 12 and len(set(cands)) == 12
    assert all(answers(d, c) for c in cands)
    assert answers(d, choose(game, s, 0, random.Random(1), SMALL))


def _mlem_position(seed: int = 4, moves: int = 40) -> dict[str, Any]:
    """A mid-game MLEM position with every variant on, reached by random play."""
    rng = random.Random(seed)
    s = MLEM.new(3, {"ufo": "on", "recon": "on", "missions": "on"}, seed)
    for _ in range(moves):
        pend = MLEM.pending(s)
        d = pend[0]
        s, _ = MLEM.apply(s, d.seat, rng.choice(d.options).id)
    while len(MLEM.pending(s)[0].options) < 2:
        d = MLEM.pending(s)[0]
        s, _ = MLEM.apply(s, d.seat, d.options[0].id)
    return s


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_same_seed_same_move(level: str) -> None:
    s = _mlem_position()
    seat = MLEM.pending(s)[0].seat
    first = choose(MLEM, s, seat, random.Random(11), level)
    for _ in range(2):
        assert choose(MLEM, s, seat, random.Random(11), level) == first


def test_playouts_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = count_playouts(monkeypatch)
    s = _mlem_position()
    seat = MLEM.pending(s)[0].seat
    budget = Budget(playouts=30, depth=20)
    choose(MLEM, s, seat, random.Random(2), budget)
    assert 0 < calls[0] <= budget.playouts


def _kosmo_position() -> dict[str, Any]:
    """A Kosmonavts position in the orders phase of round 3, reached by the pilot bots."""
    rng = random.Random(3)
    s = KOSMO.new(2, {}, 3)
    while not (s["phase"] == "orders" and s["round"] >= 3):
        d = KOSMO.pending(s)[0]
        s, _ = KOSMO.apply(s, d.seat, KOSMO.bot_choice(s, d.seat, rng))
    return s


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        bot_for(MLEM, "godlike")


@pytest.mark.parametrize("seed", range(3))
def test_mlem_sample_keeps_what_the_seat_sees(seed: int) -> None:
    rng = random.Random(seed)
    s = MLEM.new(3, {"ufo": "on", "recon": "on", "missions": "on"}, seed)
    for step in range(400):
        pend = MLEM.pending(s)
        if not pend:
            break
        if step % 7 == 0:
            check_sample_keeps_what_the_seat_sees(MLEM, s, 3, rng)
        d = pend[0]
        s, _ = MLEM.apply(s, d.seat, rng.choice(d.options).id)


@pytest.mark.parametrize("options", [{}, {"rules": "advanced"}])
def test_kosmonavts_sample_keeps_what_the_seat_sees(options: dict[str, str]) -> None:
    rng = random.Random(5)
    s = KOSMO.new(2, options, 5)
    step = 0
    while KOSMO.pending(s):
        if step % 4 == 0:
            check_sample_keeps_what_the_seat_sees(KOSMO, s, 2, rng)
        d = KOSMO.pending(s)[0]
        s, _ = KOSMO.apply(s, d.seat, KOSMO.bot_choice(s, d.seat, rng))
        step += 1


def test_kosmonavts_search_is_deterministic_and_legal() -> None:
    s = KOSMO.new(2, {}, 2)
    budget = Budget(playouts=12, depth=15)
    for _ in range(40):
        pend = KOSMO.pending(s)
        if not pend:
            break
        d = pend[0]
        a = choose(KOSMO, s, d.seat, random.Random(7), budget)
        assert a == choose(KOSMO, s, d.seat, random.Random(7), budget)
        assert answers(d, a)
        s, _ = KOSMO.apply(s, d.seat, a)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (MLEM, {"ufo": "on", "recon": "on", "missions": "on"}),
        (KOSMO, {"rules": "advanced"}),
        (KOSMO, {}),
    ],
    ids=["mlem-variants", "kosmonavts-advanced", "kosmonavts-basic"],
)
def test_search_bots_finish_whole_games(game: Any, options: dict[str, str]) -> None:
    # Every seat a bot: seat 0 easy, the others a tiny search (every phase gets searched).
    tiny = bot_for(game, Budget(playouts=6, depth=8))
    easy = bot_for(game, "easy")
    s = game.new(3, options, 21)
    rngs = [random.Random(i) for i in range(3)]
    for _ in range(3000):
        pend = game.pending(s)
        if not pend:
            break
        d = pend[0]
        a = (easy if d.seat == 0 else tiny)(s, d.seat, rngs[d.seat])
        assert answers(d, a)
        s, _ = game.apply(s, d.seat, a)
    assert game.result(s) is not None


def test_kosmonavts_prune_offers_routes_and_the_rollout_flies_them() -> None:
    s = _kosmo_position()
    d = decision_of(KOSMO, s, 0)
    kept = KOSMO.prune(s, d)
    assert kept and all(d.option(k) is not None for k in kept)
    # Take a route that is not the pilot's own (when there is one): the play-out policy
    # then carries on with that route instead of undoing it.
    steps = [k for k in kept if k.startswith(("add.", "addh.", "convert"))]
    assert steps
    s2, _ = KOSMO.apply(s, 0, steps[-1])
    assert KOSMO.rollout(s2, 0, random.Random(0)) != "undo"
