"""Engine-only random play-outs: time per whole game, per game.

python -m bench.playout [game ...] [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import games_argument, playout, random_options
from host import registry


def bench(game_id: str, games: int) -> dict[str, float]:
    game = registry.get(game_id)
    rng = random.Random(1)
    times, moves = [], []
    for i in range(games):
        players = rng.randint(game.min_players, game.max_players)
        options = random_options(game, rng)
        t0 = time.perf_counter()
        _, n = playout(game, players, options, seed=i)
        times.append((time.perf_counter() - t0) * 1000)
        moves.append(n)
    return {
        "median_ms": statistics.median(times),
        "mean_ms": statistics.fmean(times),
        "games_per_s": 1000 / statistics.fmean(times),
        "moves_per_game": statistics.fmean(moves),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    games_argument(ap)
    ap.add_argument("--games", dest="n", type=int, default=300)
    args = ap.parse_args()
    for gid in args.games:
        r = bench(gid, args.n)
        print(
            f"{gid}: median {r['median_ms']:.1f} ms per game, {r['games_per_s']:.0f} games/s, "
            f"{r['moves_per_game']:.0f} moves per game"
        )


if __name__ == "__main__":
    main()
