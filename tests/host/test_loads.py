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
from host.clock import FakeClock
from tests.host.kit import ANA, BEN, USERS, hosted, started


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


def same_shape(a: Any, b: Any, where: str = "$") -> str | None:
    """Where ``b`` differs from ``a`` in anything a caller could tell: a type (a tuple for a
    list, bytes for a bytearray), a dict's key order, a set's iteration order, a float's
    sign; None when nowhere."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} / {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{where}: key order"
        return next((w for k in a if (w := same_shape(a[k], b[k], f"{where}.{k}"))), None)
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: length"
        pairs = enumerate(zip(a, b, strict=True))
        return next((w for i, (x, y) in pairs if (w := same_shape(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, (set, frozenset)):
        return None if list(a) == list(b) else f"{where}: set order"
    return None if repr(a) == repr(b) else f"{where}: {a!r} / {b!r}"


@pytest.mark.parametrize("game_id", list(registry.GAME_MODULES))
def test_a_kept_state_is_the_loaded_state_in_every_detail(game_id: str) -> None:
    """Along whole random games (every seat count): the copy a kept state gives is the state
    ``load`` gives, down to types and orders (what :mod:`marshal` would not keep: sets'
    order, bytearrays — an engine whose state holds them needs another copy)."""
    game = registry.get(game_id)
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(players)
        state = game.new(players, {}, players)
        for step in range(600):
            decisions = game.pending(state)
            if not decisions:
                break
            if step % 7 == 0:
                data = game.dump(state)
                loads = Loads()
                loads.load(1, game, game_id, data)
                copy = loads.load(1, game, game_id, game.dump(state))
                assert same_shape(game.load(data), copy) is None, (players, step)
            d = decisions[step % len(decisions)]
            state, _ = game.apply(state, d.seat, random_answer(d, rng))


def test_another_game_object_loads_afresh() -> None:
    """A state kept is tied to the ``Game`` whose ``load`` made it, not only to its id: a
    host given other games (tests, a reload) never gets another load's state."""
    mlem = registry.get("mlem")
    first, second = Counted(mlem), Counted(mlem)
    loads = Loads()
    data = played("mlem", 5)
    loads.load(1, first, "mlem", data)  # type: ignore[arg-type]
    loads.load(1, second, "mlem", data)  # type: ignore[arg-type]
    loads.load(1, second, "mlem", data)  # type: ignore[arg-type]
    assert (first.calls, second.calls) == (1, 1)


async def test_a_state_changed_by_its_reader_is_never_seen_by_the_next(db: str) -> None:
    """Through the host, on both databases: a snapshot's state is the reader's own (the
    first load's as much as a kept copy's); changing it changes no later read, nor a move."""
    async with hosted(db, FakeClock(), games=registry.games()) as host:
        gid = await started(host, ANA, BEN, game_id="mlem")
        for _ in range(3):
            first = await host.by_id(gid)
            assert first.row.state is not None
            stored = registry.get("mlem").load(first.row.state)
            assert first.state == stored
            first.state.clear()
            again = await host.by_id(gid)
            assert again.state == stored and again.state is not first.state
            again.state.clear()
            snap = await host.by_id(gid)
            d = snap.decisions[0]
            await host.play(gid, USERS[d.seat].user_id, d.seat, snap.token(d), d.options[0].id)
