"""Galaxy Trucker bots, engine only: the time a bot takes per building step, and whole
4-bot level II games (building, pre-launch and flight, every move a bot's).

python -m bench.gt_bot [--games N] [--level II] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.common import pct
from rules.galaxy_trucker import GAME


def play(seed: int, players: int, level: str) -> dict[str, Any]:
    """One bot-only game; the seats move in a seeded random order (simultaneous building)."""
    s = GAME.new(players, {"rules": "2", "level": level}, seed)
    r = random.Random(seed)
    steps: list[float] = []
    faceup = 0
    t0 = time.perf_counter()
    while GAME.pending(s):
        d = r.choice(GAME.pending(s))
        building = s["phase"] == "build"
        t = time.perf_counter()
        choice = GAME.bot_choice(s, d.seat, r)
        if building:
            steps.append(time.perf_counter() - t)
        s, _ = GAME.apply(s, d.seat, choice)
        if building and s["phase"] != "build":
            faceup = len(s["faceup"])
    return {
        "game_s": time.perf_counter() - t0,
        "steps": steps,
        "faceup": faceup,
        "retired": len(s["flight"]["retired"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--level", default="II")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    games = [play(seed, args.players, args.level) for seed in range(args.games)]
    steps_ms = [x * 1000 for g in games for x in g["steps"]]
    game_s = [g["game_s"] for g in games]
    seats = args.players * args.games
    finished = seats - sum(g["retired"] for g in games)
    print(
        f"bot building step: median {statistics.median(steps_ms):.1f} ms, "
        f"p99 {pct(steps_ms, 99):.1f} ms, max {max(steps_ms):.1f} ms "
        f"({len(steps_ms)} steps)"
    )
    print(
        f"whole {args.players}-bot level {args.level} game: median "
        f"{statistics.median(game_s):.2f} s, max {max(game_s):.2f} s"
    )
    print(
        f"face-up tiles when building ends: mean "
        f"{statistics.fmean(g['faceup'] for g in games):.1f}, "
        f"max {max(g['faceup'] for g in games)}; ships finishing the flight: "
        f"{finished}/{seats} ({100 * finished / seats:.0f} %)"
    )


if __name__ == "__main__":
    main()
