"""Shared helpers for the benchmarks: random play-outs through the game contract."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import TYPE_CHECKING, Any

from core.contract import Game, random_answer
from host import registry

if TYPE_CHECKING:
    from host.sessions import Host


def game_option(ap: argparse.ArgumentParser) -> None:
    """``--game``: the one game a benchmark plays (MLEM unless said)."""
    ap.add_argument("--game", default="mlem", choices=list(registry.GAME_MODULES))


def games_argument(ap: argparse.ArgumentParser) -> None:
    """The games a benchmark measures, one after the other (every game unless named)."""
    ap.add_argument("games", nargs="*", default=list(registry.GAME_MODULES))


def random_options(game: Game, rng: random.Random) -> dict[str, str]:
    return {o.id: rng.choice(o.choices) for o in game.options}


def playout(game: Game, players: int, options: dict[str, str], seed: int) -> tuple[Any, int]:
    """Play a whole game with uniformly random choices; returns the final state and moves."""
    rng = random.Random(seed)
    state = game.new(players, options, seed)
    moves = 0
    while True:
        pending = game.pending(state)
        if not pending:
            return state, moves
        decision = rng.choice(pending)
        state, _ = game.apply(state, decision.seat, random_answer(decision, rng))
        moves += 1


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary(ms: list[float]) -> str:
    return (
        f"n={len(ms)} median={statistics.median(ms):.2f} ms p99={pct(ms, 99):.2f} ms "
        f"max={max(ms):.2f} ms"
    )


async def timed_random_move(host: Host, gid: int, rng: random.Random) -> float | None:
    """A random option of a random open decision of game ``gid``, played by the person in
    that seat: the time ``host.play`` took (ms), or None when the game waits for no one."""
    snap = await host.by_id(gid)
    if not snap.decisions:
        return None
    d = rng.choice(snap.decisions)
    opt = rng.choice(d.options).id
    t0 = time.perf_counter()
    await host.play(gid, snap.seats[d.seat].user_id or 0, d.seat, snap.token(d), opt)
    return (time.perf_counter() - t0) * 1000
