"""The bot league: levels against each other and against random play, engine only.

python -m bench.league [--games N] [--game mlem|kosmonavts] [--line hard,random ...] [--jobs N]

A line names the players of one table, e.g. ``hard,random`` or ``hard,random,random``; the
first is the player measured. Seats are rotated (game i puts it in seat i mod n) and every
game has its own seed. Players: ``random`` (uniform among the offered answers), ``today``
(the game's own ``bot_choice`` heuristic), and the search levels ``easy``, ``normal``,
``hard`` (:mod:`rules.search`). Printed per line: the measured player's win share (a shared
victory counts 1/k) with a 95 % confidence interval (Wilson), and the mean and worst time
per decision (CPU time of this process, so a loaded machine does not inflate it) of
every search level at the table.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from host import registry
from rules.search import LEVELS, bot_for, decision_of, random_answer

Player = Callable[[Any, int, random.Random], str]

LINES: dict[str, tuple[str, ...]] = {
    "mlem": (
        "hard,random",
        "hard,random,random",
        "hard,normal",
        "normal,easy",
        "hard,today",
        "easy,random",
    ),
    "kosmonavts": ("hard,today", "hard,normal", "normal,easy", "hard,random"),
    "galaxy_trucker": ("hard,random", "hard,normal", "normal,easy", "hard,today"),
    "red_planet": ("hard,normal", "normal,easy", "hard,random"),
    "ad_astra": ("hard,normal,normal", "normal,easy,easy", "hard,random,random"),
}


def player(game: Any, name: str) -> Player:
    if name == "random":
        return lambda s, seat, rng: random_answer(decision_of(game, s, seat), rng)
    if name == "today":
        return game.bot_choice  # type: ignore[no-any-return]
    if name in LEVELS:
        return bot_for(game, name)
    raise SystemExit(f"unknown player {name!r}")


def play(
    game: Any, names: Sequence[str], shift: int, seed: int, options: dict[str, str]
) -> tuple[float, dict[str, list[float]]]:
    """One game; the measured player (names[0]) sits in seat ``shift``. Returns its win
    share and the decision times (ms) per player name."""
    n = len(names)
    seat_name = [names[(seat - shift) % n] for seat in range(n)]
    players = [player(game, nm) for nm in seat_name]
    rngs = [random.Random(f"league:{seed}:{seat}") for seat in range(n)]
    times: dict[str, list[float]] = {}
    s = game.new(n, options, seed)
    while True:
        pend = game.pending(s)
        if not pend:
            break
        seat = pend[0].seat
        t0 = time.process_time()
        answer = players[seat](s, seat, rngs[seat])
        times.setdefault(seat_name[seat], []).append((time.process_time() - t0) * 1000)
        s, _ = game.apply(s, seat, answer)
    res = game.result(s)
    winners = res.winners
    return (1 / len(winners) if shift in winners else 0.0), times


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _one(
    job: tuple[str, tuple[str, ...], int, dict[str, str]],
) -> tuple[float, dict[str, list[float]]]:
    gid, names, i, options = job
    return play(registry.get(gid), names, i % len(names), 1000 + i, options)


def run_line(
    game: Any,
    line: str,
    games: int,
    options: dict[str, str],
    progress: bool = False,
    jobs: int = 1,
) -> str:
    """Play ``games`` games of one line (in ``jobs`` worker processes) and sum them up."""
    names = tuple(line.split(","))
    shares: list[float] = []
    times: dict[str, list[float]] = {}
    work = [(game.id, names, i, options) for i in range(games)]
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(_one, work) if pool is not None else map(_one, work)
    for share, t in results:
        shares.append(share)
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
        if progress:
            print(_line(game, line, shares, times), file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    return _line(game, line, shares, times)


def _line(game: Any, line: str, shares: list[float], times: dict[str, list[float]]) -> str:
    games = len(shares)
    p = statistics.fmean(shares)
    lo, hi = wilson(p, games)
    timing = "  ".join(
        f"{k}: mean {statistics.fmean(v):.0f} ms max {max(v):.0f} ms"
        for k, v in sorted(times.items())
        if k in LEVELS and k != "easy"
    )
    return f"{game.id:11} {line:22} n={games:4}  {p:6.1%}  [{lo:5.1%}, {hi:5.1%}]  {timing}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--game", action="append", help="mlem, kosmonavts (default: both)")
    ap.add_argument("--line", action="append", help="e.g. hard,random (default: the set)")
    ap.add_argument("--option", action="append", default=[], help="key=value lobby option")
    ap.add_argument("--progress", action="store_true", help="running figures on stderr")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    for gid in args.game or list(LINES):
        game = registry.get(gid)
        for line in args.line or LINES[gid]:
            print(run_line(game, line, args.games, options, args.progress, args.jobs), flush=True)


if __name__ == "__main__":
    main()
