"""The states last loaded (host/base.py ``Loads``, issue 23): a game read again whose stored
data has not changed gives the state its ``load`` gave, as a fresh copy, without checking it
again; anything else is loaded afresh."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from core.contract import random_answer
from host import registry
from host.base import Loads


class Counted:
    """A game's ``load`` that counts its calls."""

    def __init__(self, game: Any) -> None:
        self.game, self.calls = game, 0

    def load(self, data: Any) -> Any:
        self.calls += 1
        return self.game.load(data)


def played(game_id: str, moves: int, seed: int = 3) -> dict[str, Any]:
    """A stored state (the dump) of ``game_id`` a few random moves in."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    state = game.new(min(game.max_players, 3), {}, seed)
    for _ in range(moves):
        decisions = game.pending(state)
        if not decisions:
            break
        d = decisions[0]
        state, _ = game.apply(state, d.seat, random_answer(d, rng))
    return game.dump(state)


@pytest.mark.parametrize("game_id", list(registry.GAME_MODULES))
def test_the_same_data_loads_once_as_fresh_copies(game_id: str) -> None:
    game = Counted(registry.get(game_id))
    loads = Loads()
    data = played(game_id, 6)
    first = loads.load(1, game, game_id, data)  # type: ignore[arg-type]
    again = loads.load(1, game, game_id, played(game_id, 6))  # type: ignore[arg-type]
    assert game.calls == 1
    assert again == first == registry.get(game_id).load(data)
    assert again is not first
    assert type(again) is type(first)
    # Changing the copy changes nothing kept.
    again.clear()
    assert loads.load(1, game, game_id, data) == first  # type: ignore[arg-type]
    # Another state of the same game is loaded (and checked) afresh.
    other = played(game_id, 9)
    if other != data:
        assert loads.load(1, game, game_id, other) == registry.get(game_id).load(other)  # type: ignore[arg-type]
        assert game.calls == 2


def test_what_is_told_apart_and_what_is_not_kept() -> None:
    calls: list[Any] = []

    class Echo:
        def load(self, data: Any) -> Any:
            calls.append(data)
            return dict(data)

    loads = Loads(size=2)
    echo: Any = Echo()
    assert loads.load(1, echo, "x", {"n": 1}) == {"n": 1}
    assert loads.load(1, echo, "x", {"n": True}) == {"n": True}  # equal in Python, not stored
    assert loads.load(1, echo, "y", {"n": True}) == {"n": True}  # another game's load
    assert len(calls) == 3
    loads.load(2, echo, "x", {"n": 2})
    loads.load(3, echo, "x", {"n": 3})  # the least recently used (game 1) is dropped
    loads.load(1, echo, "y", {"n": True})
    assert len(calls) == 6
    state: defaultdict[str, Any] = defaultdict(list, {"n": 4})  # not plain data: loaded every time

    class Deep:
        def load(self, data: Any) -> Any:
            calls.append(data)
            return state

    deep: Any = Deep()
    assert loads.load(4, deep, "x", {"n": 4}) is state
    assert loads.load(4, deep, "x", {"n": 4}) is state
    assert len(calls) == 8


def test_a_state_that_does_not_load_is_refused_every_time() -> None:
    game = Counted(registry.get("mlem"))
    loads = Loads()
    bad = {**played("mlem", 4), "voyage": "soon"}
    for _ in range(2):
        with pytest.raises(ValueError):
            loads.load(1, game, "mlem", bad)  # type: ignore[arg-type]
    assert game.calls == 2
