"""Test helpers every game's rules and render tests need (the test half of the game kit).

* :func:`random_pick` / :func:`play_out` — a seeded random play-out to the end (or to a
  moment), picking among every option of every pending decision; multi-pick decisions get
  a random legal set of picks. Bots join in with ``bot_share``.
* :func:`every_decision` — every decision met along seeded random play-outs of a game, with
  its state (random lobby options, every player count in turn).
* :func:`assert_hides` — a view-hides-secrets (non-interference) check: two states that differ
  only in what a seat may not see must give that seat the same view.
* :func:`png_ok` — a PNG sanity check (signature, budget, decodes) that returns the image.

Everything is deterministic: the only randomness is ``random.Random(seed)``.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from PIL import Image

from core.contract import Decision, Game, IllegalMove, join_picks, random_answer

#: The render budget of DESIGN.md.
PNG_BUDGET = 400 * 1024


def random_pick(d: Decision, rng: random.Random) -> str:
    """A random legal answer to ``d`` (several distinct options for a multi-pick)."""
    return random_answer(d, rng)


def play_out(
    game: Game,
    players: int,
    options: Mapping[str, str],
    seed: int,
    *,
    until: Callable[[Any], bool] | None = None,
    bot_share: float = 0.0,
    limit: int = 20_000,
    each: Callable[[Any, list[Decision]], None] | None = None,
) -> tuple[Any, list[tuple[int, str]]]:
    """Play ``game`` from ``new(players, options, seed)`` with random choices (a share
    ``bot_share`` by the game's ``bot_choice``, when it has one) until the game is over, or
    until ``until(state)``. ``each(state, pending)`` is called before every move (invariant
    checks). Returns the last state and the moves as ``(seat, choice)``; fails when the game
    has not ended within ``limit`` moves."""
    state = game.new(players, dict(options), seed)
    rng = random.Random(seed)
    moves: list[tuple[int, str]] = []
    bot = getattr(game, "bot_choice", None)
    for _ in range(limit):
        if until is not None and until(state):
            return state, moves
        pending = game.pending(state)
        if each is not None:
            each(state, pending)
        if not pending:
            assert until is None, "the game ended before the moment looked for"
            return state, moves
        d = rng.choice(pending)
        if bot is not None and bot_share and rng.random() < bot_share:
            choice = bot(state, d.seat, rng)
        else:
            choice = random_pick(d, rng)
        state, _events = game.apply(state, d.seat, choice)
        moves.append((d.seat, choice))
    raise AssertionError(f"no end after {limit} moves (seed {seed})")


def replay(
    game: Game, players: int, options: Mapping[str, str], seed: int, moves: list[tuple[int, str]]
) -> Any:
    """The state after ``moves`` from the same set-up (the action log, replayed)."""
    state = game.new(players, dict(options), seed)
    for seat, choice in moves:
        state, _events = game.apply(state, seat, choice)
    return state


def _canon(view: Any) -> str:
    return json.dumps(view, sort_keys=True, default=str)


def assert_hides(game: Game, state: Any, other: Any, seat: int | None) -> None:
    """``other`` differs from ``state`` only in what ``seat`` (``None``: the public) may not
    see: the seat's view must be the same, and so must every decision offered to someone
    else in public (prompts and options are shown in the channel)."""
    assert _canon(game.view(state, seat)) == _canon(game.view(other, seat)), (
        f"view of seat {seat} leaks a secret"
    )
    if seat is None:
        a = [(d.seat, d.prompt, d.options) for d in game.pending(state) if not d.private]
        b = [(d.seat, d.prompt, d.options) for d in game.pending(other) if not d.private]
        assert a == b, "a public decision leaks a secret"


def png_ok(data: bytes | None, budget: int = PNG_BUDGET) -> Image.Image:
    """``data`` is a PNG within the budget that decodes; the decoded image."""
    assert isinstance(data, bytes), type(data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert len(data) < budget, f"{len(data)} bytes"
    Image.open(io.BytesIO(data)).verify()
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def every_decision(
    game: Game, tag: str, games: int = 10, cap: int = 1500
) -> Iterator[tuple[Any, Decision]]:
    """(state, decision) for every decision pending along ``games`` seeded random play-outs
    of ``game`` (seeds named by ``tag``; random lobby options; the player counts in turn),
    each at most ``cap`` moves long. A multi-pick mix the rules refuse becomes one pick."""
    for g in range(games):
        rng = random.Random(f"{tag}:{game.id}:{g}")
        options = {o.id: rng.choice(o.choices) for o in game.options}
        players = game.min_players + g % (game.max_players - game.min_players + 1)
        state = game.new(players, options, g)
        for _ in range(cap):
            pending = game.pending(state)
            if not pending:
                break
            for d in pending:
                yield state, d
            d = rng.choice(pending)
            if d.multi:
                k = rng.randint(d.min_picks, min(d.max_picks, len(d.options)))
                choice = join_picks(d, [o.id for o in rng.sample(d.options, k)])
            else:
                choice = rng.choice(d.options).id
            try:
                state, _ = game.apply(state, d.seat, choice)
            except IllegalMove:
                state, _ = game.apply(state, d.seat, d.options[0].id)
