"""What every game's search tests check, for any game with a ``sample`` hook (the test half
of the search hooks): sampled worlds redraw only what the seat cannot see, a hidden card
that would change a peeking bot's move does not change the real bot's, and the same seed
gives the same move.

The games' own test files call these with their player counts and seeds."""

from __future__ import annotations

import random
from typing import Any

from rules.search import Budget, choose

SMALL = Budget(playouts=8, depth=10)


class Peeking:
    """The same game, searched by a bot that cheats: its worlds keep every hidden card as it
    is (only the stored seed of future randomness changes)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sample(self, s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        w: dict[str, Any] = self._game.load(self._game.dump(s))
        w["seed"] = rng.getrandbits(48)
        w["rc"] = 0
        return w


def positions(game: Any, players: int, seed: int, every: int = 3) -> list[dict[str, Any]]:
    """Positions with a real choice from a game of the heuristic bots (every ``every``th)."""
    out: list[dict[str, Any]] = []
    rng = random.Random(seed)
    s = game.new(players, {}, seed)
    k = 0
    while game.pending(s):
        d = game.pending(s)[0]
        if len(d.options) > 1:
            k += 1
            if k % every == 0:
                out.append(s)
        s, _ = game.apply(s, d.seat, game.bot_choice(s, d.seat, rng))
    return out


def seat_of(game: Any, s: dict[str, Any]) -> int:
    seat: int = game.pending(s)[0].seat
    return seat


def check_sampled_worlds_look_the_same(game: Any, players: int, seed: int) -> None:
    """A sampled world shows the seat what the real state shows it, is a state the game
    loads as it is, and waits for the same seats."""
    for i, s in enumerate(positions(game, players, seed)):
        seat = seat_of(game, s)
        w = game.sample(s, seat, random.Random(i))
        assert game.view(w, seat) == game.view(s, seat)
        assert game.load(game.dump(w)) == w  # every component where it can be
        assert [d.seat for d in game.pending(w)] == [d.seat for d in game.pending(s)]


def check_worlds_do_not_depend_on_the_hidden(game: Any, players: int, seed: int) -> None:
    """Two states the seat cannot tell apart (the second a sampled world of the first) give
    the same worlds, hence the same move, for the same generator."""
    redrawn = 0
    for i, s in enumerate(positions(game, players, seed)):
        seat = seat_of(game, s)
        other = game.sample(s, seat, random.Random(1000 + i))
        redrawn += game.dump(other) != game.dump(s)
        a = game.sample(s, seat, random.Random(i))
        b = game.sample(other, seat, random.Random(i))
        assert game.dump(a) == game.dump(b)
    assert redrawn > 0


def check_a_peek_would_matter_but_is_never_made(
    game: Any, players: int, seed: int, every: int
) -> None:
    """On positions the seat cannot tell apart, the bot's move is the same; a bot that
    could see the hidden cards would have moved differently at least once."""
    peeking = Peeking(game)
    changed = 0
    for i, s in enumerate(positions(game, players, seed, every=every)[:24]):
        seat = seat_of(game, s)
        other = game.sample(s, seat, random.Random(500 + i))
        honest = [choose(game, x, seat, random.Random(i), SMALL) for x in (s, other)]
        assert honest[0] == honest[1]
        cheat = [choose(peeking, x, seat, random.Random(i), SMALL) for x in (s, other)]
        changed += cheat[0] != cheat[1]
    assert changed > 0  # the hidden cards mattered to a bot that could see them


def check_same_seed_same_move(game: Any, players: int, seed: int, every: int) -> None:
    for s in positions(game, players, seed, every=every)[:8]:
        seat = seat_of(game, s)
        for level in ("easy", SMALL):
            a = choose(game, s, seat, random.Random(11), level)
            b = choose(game, game.load(game.dump(s)), seat, random.Random(11), level)
            assert a == b
