"""Table render time and PNG size over states sampled from random games.

python -m bench.render [game ...] [--states N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import pct, random_answer, random_options
from host import registry


def sample_views(game_id: str, count: int) -> list[tuple[dict, list[str]]]:
    game = registry.get(game_id)
    rng = random.Random(3)
    views: list[tuple[dict, list[str]]] = []
    seed = 0
    while len(views) < count:
        players = rng.randint(game.min_players, game.max_players)
        state = game.new(players, random_options(game, rng), seed)
        seed += 1
        names = [f"Player {i + 1}" for i in range(players)]
        step = 0
        while True:
            pending = game.pending(state)
            if step % 7 == 0 or not pending:
                views.append((game.view(state, None), names))
            if not pending:
                break
            d = rng.choice(pending)
            state, _ = game.apply(state, d.seat, random_answer(d, rng))
            step += 1
    return views[:count]


def bench(game_id: str, count: int) -> dict[str, float]:
    render = registry.renderer(game_id)
    views = sample_views(game_id, count)
    render.render_table(*views[0], "en")  # warm-up: fonts, static layers
    times, sizes = [], []
    for view, names in views:
        t0 = time.perf_counter()
        png = render.render_table(view, names, "es")
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    return {
        "median_ms": statistics.median(times),
        "p99_ms": pct(times, 99),
        "median_kb": statistics.median(sizes) / 1024,
        "max_kb": max(sizes) / 1024,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=list(registry.GAME_MODULES))
    ap.add_argument("--states", type=int, default=60)
    args = ap.parse_args()
    for gid in args.games:
        r = bench(gid, args.states)
        print(
            f"{gid}: render median {r['median_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms; "
            f"PNG median {r['median_kb']:.0f} KB, max {r['max_kb']:.0f} KB"
        )


if __name__ == "__main__":
    main()
