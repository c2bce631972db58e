"""rules/kit.py's shared glue: what a game's class line fills in, and the small helpers the
engines share (ranks, results, views, load)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from core.contract import IllegalMove, Result
from host import registry
from rules.kit import (
    SEARCH_HOOKS,
    EngineGame,
    load_checked,
    ranks_of,
    result_of_parts,
    result_view,
    view_head,
)


@pytest.mark.parametrize("game_id", sorted(registry.GAME_MODULES))
def test_class_line_binds_every_search_hook_its_module_defines(game_id: str) -> None:
    game = registry.get(game_id)
    assert isinstance(game, EngineGame)
    assert game.id == game_id and game.name == f"{game_id}.name"
    assert 2 <= game.min_players <= game.max_players <= 6
    search = importlib.import_module(f"{registry.GAME_MODULES[game_id]}.search")
    for hook in SEARCH_HOOKS:
        if hasattr(search, hook):
            assert getattr(game, hook) is getattr(search, hook)
        else:
            assert not hasattr(game, hook)
    assert getattr(game, "search_levels", None) is getattr(search, "LEVELS", None)


def test_bot_choice_refuses_a_seat_with_nothing_to_decide() -> None:
    game = registry.get("red_planet")
    assert isinstance(game, EngineGame)
    state = game.new(3, {}, 7)
    seats = {d.seat for d in game.pending(state)}
    assert seats  # every seat keeps a mission, all at once
    state, _ = game.apply(state, 0, game.pending(state)[0].options[0].id)
    assert 0 not in {d.seat for d in game.pending(state)}
    with pytest.raises(IllegalMove) as err:
        game.bot_choice(state, 0, random.Random(0))
    assert err.value.code == "red_planet.error.not_your_turn"
    assert game.bot_choice(state, 1, random.Random(0)).startswith("keep.")


def test_a_class_line_without_a_bot_has_no_bot() -> None:
    class Bare(EngineGame, game="bare", players=(2, 3)):
        pass

    assert (Bare.id, Bare.name, Bare.min_players, Bare.max_players) == ("bare", "bare.name", 2, 3)
    assert not hasattr(Bare, "sample") and not hasattr(Bare, "search_levels")
    assert Bare._bot is None


def test_ranks_share_places_on_equal_keys() -> None:
    assert ranks_of([3, 5, 3, 1]) == (2, 1, 2, 4)
    assert ranks_of([(4, 1), (4, 2), (4, 2)]) == (3, 1, 1)
    assert ranks_of([]) == ()


def test_result_of_parts_and_its_view() -> None:
    res = result_of_parts([{"a": 2, "b": 3}, {"a": 5}, {"b": 1}])
    assert res == Result(scores=(5, 5, 1), ranks=(1, 1, 3), breakdown=res.breakdown)
    assert result_view(res) == {
        "scores": [5, 5, 1],
        "ranks": [1, 1, 3],
        "breakdown": [{"a": 2, "b": 3}, {"a": 5}, {"b": 1}],
        "winners": [0, 1],
    }
    assert "winners" not in result_view(res, winners=False)


def test_view_head_keeps_the_contract_keys_in_order() -> None:
    s = {"round": 3, "step": "over", "n": 4}
    head = view_head(s, {"over": "x.phase.over"}, [1, 2, 3, 4])
    assert list(head) == ["round", "phase", "step", "scores", "over", "players"]
    assert head["phase"] == "x.phase.over" and head["over"] is True and head["players"] == 4


def test_load_checked_refuses_what_is_not_a_state() -> None:
    def validate(s: dict[str, Any]) -> None:
        assert isinstance(s["n"], int)

    data = {"n": 2, "list": [1, 2]}
    loaded = load_checked(data, "toy", validate)
    assert loaded == data and loaded["list"] is not data["list"]
    with pytest.raises(ValueError, match="malformed toy state"):
        load_checked({}, "toy", validate)
    with pytest.raises(ValueError, match="not a toy state"):
        load_checked({"n": object()}, "toy", validate)
