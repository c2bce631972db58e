"""One property test for every registered game, through the contract only (hypothesis
draws the players, options, seed and every choice; derandomized, so runs are repeatable).

For every state on the way: decisions exist exactly until the game has a result, each
offers valid options to a real seat, the state survives dump/load, the public view has the
keys the host relies on and no private part, and each seat's view is the public view plus
its own private part. At the end, scores equal the sum of their parts."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.contract import check_option_id, random_answer
from host import registry

GAMES = sorted(registry.GAME_MODULES)


@st.composite
def setups(draw, game_id: str):
    game = registry.get(game_id)
    players = draw(st.integers(game.min_players, game.max_players))
    options = {o.id: draw(st.sampled_from(o.choices)) for o in game.options}
    seed = draw(st.integers(1, 2**31 - 1))
    picks = draw(st.lists(st.integers(0, 10**6), min_size=40, max_size=40))
    return players, options, seed, picks


@pytest.mark.parametrize("game_id", GAMES)
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_contract_holds_along_random_games(game_id: str, data) -> None:
    game = registry.get(game_id)
    players, options, seed, picks = data.draw(setups(game_id))
    state = game.new(players, options, seed)
    step = 0
    while True:
        pending = game.pending(state)
        result = game.result(state)
        assert (result is None) == bool(pending)
        dumped = game.dump(state)
        assert game.dump(game.load(json.loads(json.dumps(dumped)))) == dumped
        public = game.view(state, None)
        json.dumps(public)
        assert {"round", "phase", "scores", "over"} <= set(public) and "private" not in public
        for seat in range(players):
            mine = game.view(state, seat)
            assert {k: v for k, v in mine.items() if k != "private"} == public
        if not pending:
            break
        for d in pending:
            assert 0 <= d.seat < players and d.options
            assert all(check_option_id(o.id) for o in d.options)
        pick = picks[step % len(picks)] + step
        decision = pending[pick % len(pending)]
        bot = getattr(game, "bot_choice", None)
        if bot is not None and step >= len(picks):
            choice = bot(state, decision.seat, random.Random(pick))
        elif decision.min_picks > 1:  # one option alone is no answer: a legal set of them
            choice = random_answer(decision, random.Random(pick))
        else:
            choice = decision.options[pick % len(decision.options)].id
        state, _ = game.apply(state, decision.seat, choice)
        step += 1
        assert step < 20_000, "the game does not end"
    assert public["over"]
    assert result is not None
    if result.breakdown:
        for seat in range(players):
            assert sum(result.breakdown[seat].values()) == result.scores[seat]
