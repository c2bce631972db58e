"""Galaxy Trucker bots, engine only: the time a bot takes per decision (building and
flight), and whole bot-only games (building, pre-launch and flight, every move a bot's):
how many ships finish the flight, and their credits.

python -m bench.gt_bot [--games N] [--first K] [--level II] [--players 4]
                       [--bot today|easy|normal|hard]

``--bot today`` is the heuristic alone (``GAME.bot_choice``); a level name plays the search
engine at that level (:mod:`rules.search`, the game's own budgets). ``--first K`` plays the
seeds K to K + N - 1 (a long run split over several processes; the ships' counts add up).
Times are CPU time of this process (a loaded machine does not inflate them).

A ship "finishes" when it is still flying at the end: ``finished = seats - retired``, and
``retired`` counts every ship out of the flight, a voluntary retirement (``retire``, or "no"
to flying on) included. The last line tells why each ship left and on which card (the card
flown last, between two cards): ``gave up``, ``no humans``, ``lapped`` or ``no engines``
(no engine power in open space). Then the ships by their cabins at launch (the starting one
included) and by their firepower at launch (every battery on a double cannon; 7 beats level
II slavers), each as ships out / ships.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from bench.common import pct
from rules.galaxy_trucker import GAME
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.crew import batteries, humans
from rules.galaxy_trucker.flight import firepower, lapped
from rules.galaxy_trucker.tiles import cards, tile
from rules.search import bot_for


def chooser(name: str) -> Callable[[Any, int, random.Random], str]:
    return GAME.bot_choice if name == "today" else bot_for(GAME, name)  # type: ignore[return-value]


def play(seed: int, players: int, level: str, bot: str) -> dict[str, Any]:
    """One bot-only game; the seats move in a seeded random order (simultaneous building)."""
    s = GAME.new(players, {"rules": "2", "level": level}, seed)
    r = random.Random(seed)
    pick = chooser(bot)
    steps: list[float] = []
    flight: list[float] = []
    faceup = 0
    retired = 0
    causes: list[str] = []
    quit: set[int] = set()
    last = "-"  # the last card flown
    launch: list[tuple[int, int]] = []  # (cabins, firepower) of each ship at launch
    t0 = time.process_time()
    while GAME.pending(s):
        d = r.choice(GAME.pending(s))
        building = s["phase"] == "build"
        t = time.process_time()
        choice = pick(s, d.seat, r)
        (steps if building else flight).append(time.process_time() - t)
        before = _before(s, last)
        last = before[1] if before else last
        if choice == "retire":
            quit.add(d.seat)
        s, _ = GAME.apply(s, d.seat, choice)
        causes += _outs(s, before, quit)
        if building and s["phase"] != "build":
            faceup = len(s["faceup"])
        if s["phase"] == "flight" and not launch:
            launch = [_at_launch(p) for p in s["players"]]
    out: set[int] = set()
    if s.get("flight") is not None:
        retired = len(s["flight"]["retired"])
        out = set(s["flight"]["retired"])
    return {
        "game_s": time.process_time() - t0,
        "steps": steps,
        "flight": flight,
        "faceup": faceup,
        "retired": retired,
        "causes": causes,
        "credits": [p["credits"] for p in s["players"]],
        "launch": [(c, fp, k in out) for k, (c, fp) in enumerate(launch)],
    }


def _at_launch(p: dict[str, Any]) -> tuple[int, int]:
    """A ship's cabins (the starting one included) and its firepower with every battery on a
    double cannon (rounded down)."""
    ship = sh.load(p["ship"])
    cabins = sum(1 for t, _ in ship.values() if tile(t).type in ("cabin", "starting_cabin"))
    aliens = {c: (sh.unkey(v) if v else None) for c, v in p["aliens"].items()}
    return cabins, int(firepower(ship, aliens, batteries(p)))


def _before(s: dict[str, Any], last: str) -> tuple[int, str, dict[int, int]] | None:
    """What :func:`_outs` compares with: the retirements so far, the card being flown (or
    ``last``, the card flown last, between two cards) and where each ship is."""
    f = s.get("flight")
    if s["phase"] != "flight" or f is None:
        return None
    card = cards()[f["card"]]["type"] if f.get("card") else last
    pos = {k: q for k, q in enumerate(f["pos"]) if q is not None}
    return len(f["retired"]), card, pos


def _outs(
    s: dict[str, Any], before: tuple[int, str, dict[int, int]] | None, quit: set[int]
) -> list[str]:
    """Why each ship that left the flight with this move left it (``cause@card``):
    ``gave up`` (voluntary: retire, or "no" to flying on), ``no humans``, ``lapped``, or
    ``no engines`` (no engine power in open space)."""
    f = s.get("flight")
    if before is None or f is None or len(f["retired"]) == before[0]:
        return []
    out = []
    for seat in f["retired"][before[0] :]:
        p = s["players"][seat]
        if seat in quit:
            why = "gave up"
        elif humans(p) == 0:
            why = "no humans"
        elif seat in lapped(before[2], f["track"]):
            why = "lapped"
        else:
            why = "no engines"
        out.append(f"{why}@{before[1]}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--level", default="II")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="today", help="today, easy, normal or hard")
    args = ap.parse_args()
    seeds = range(args.first, args.first + args.games)
    games = [play(seed, args.players, args.level, args.bot) for seed in seeds]
    steps_ms = [x * 1000 for g in games for x in g["steps"]]
    flight_ms = [x * 1000 for g in games for x in g["flight"]] or [0.0]
    game_s = [g["game_s"] for g in games]
    seats = args.players * args.games
    finished = seats - sum(g["retired"] for g in games)
    credits = [c for g in games for c in g["credits"]]
    print(
        f"{args.bot}: building step median {statistics.median(steps_ms):.1f} ms, "
        f"p99 {pct(steps_ms, 99):.1f} ms, max {max(steps_ms):.1f} ms ({len(steps_ms)} steps); "
        f"flight/pre-launch decision median {statistics.median(flight_ms):.1f} ms, "
        f"max {max(flight_ms):.0f} ms ({len(flight_ms)})"
    )
    print(
        f"whole {args.players}-bot level {args.level} game: median "
        f"{statistics.median(game_s):.2f} s, max {max(game_s):.2f} s"
    )
    print(
        f"face-up tiles when building ends: mean "
        f"{statistics.fmean(g['faceup'] for g in games):.1f}, "
        f"max {max(g['faceup'] for g in games)}; ships finishing the flight: "
        f"{finished}/{seats} ({100 * finished / seats:.0f} %); mean credits "
        f"{statistics.fmean(credits):.1f}, at 0: {sum(c == 0 for c in credits)}/{seats}"
    )
    causes = Counter(c for g in games for c in g["causes"])
    why = Counter(c.split("@")[0] for c in causes.elements())
    print(
        "out of the flight: "
        + ", ".join(f"{k} {n}" for k, n in why.most_common())
        + " ("
        + ", ".join(f"{k} {n}" for k, n in causes.most_common())
        + ")"
    )
    ships = [x for g in games for x in g["launch"]]
    for name, i, top in (("cabins", 0, 6), ("firepower", 1, 8)):
        seen = Counter(min(x[i], top) for x in ships)
        lost = Counter(min(x[i], top) for x in ships if x[2])
        print(
            f"out / ships by {name} at launch: "
            + ", ".join(f"{k}{'+' if k == top else ''}: {lost[k]}/{seen[k]}" for k in sorted(seen))
        )


if __name__ == "__main__":
    main()
