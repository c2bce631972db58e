"""The bot league: levels against each other and against random play, engine only.

python -m bench.league [--games N] [--game ID ...] [--line hard,random ...] [--jobs N]
                       [--option key=value ...] [--progress]

``--game`` takes any game of ``host/registry.py`` (repeat it for several; default: every
game, in the registry's order). A line names the players of one table, e.g. ``hard,random``
or ``hard,random,random``, so the line also sets the number of players; the first is the
player measured. Each game has its set of lines (:data:`LINES`, the issue's "Done when": the
levels against each other, against random play and, where it exists, against the game's own
heuristic), played with the game's bench options (:data:`OPTIONS`, overridden by
``--option``). Seats are rotated (game i puts it in seat i mod n) and every
game has its own seed. Players: ``random`` (uniform among the offered answers), ``today``
(the game's own ``bot_choice`` heuristic), and the search levels ``easy``, ``normal``,
``hard`` (:mod:`rules.search`). Printed per line: the measured player's win share (a shared
victory counts 1/k) with a 95 % confidence interval (Wilson), and the mean and worst time
per decision (CPU time of this process, so a loaded machine does not inflate it) of
every search level at the table; then the slowest decision of the whole run. A game may add
a figure of the measured player (:data:`STATS`, e.g. Galaxy Trucker's finished flights).
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
from dataclasses import dataclass, field
from typing import Any

from core.contract import IllegalMove
from host import registry
from rules.search import LEVELS, bot_for, decision_of, random_answer

Player = Callable[[Any, int, random.Random], str]

#: The lines of each game (``--line`` replaces them). A game missing here gets
#: :func:`default_lines` for its smallest table.
LINES: dict[str, tuple[str, ...]] = {
    "mlem": (
        "hard,random",
        "normal,random",
        "hard,random,random",
        "hard,normal",
        "normal,easy",
        "hard,today",
        "easy,random",
    ),
    "kosmonavts": ("hard,today", "hard,normal", "normal,easy", "hard,random", "normal,random"),
    "red_planet": ("hard,random", "normal,random", "hard,normal", "normal,easy"),
    "galaxy_trucker": ("hard,random", "normal,random", "hard,normal", "normal,easy", "hard,today"),
    # 3 players: a level against two of the level below (target 45 %), or two random players
    "ad_astra": (
        "hard,random,random",
        "normal,random,random",
        "hard,normal,normal",
        "normal,easy,easy",
    ),
}

#: Lobby options a game's league is played with by default (``--option`` adds to them).
OPTIONS: dict[str, dict[str, str]] = {
    "mlem": {},
    "kosmonavts": {},
    "red_planet": {},
    # the rulings every new lobby stores (R26b: a ship a card hurt is asked whether it flies
    # on); level I, the lobby's
    "galaxy_trucker": {"rules": "2"},
    "ad_astra": {},
}


def _gt_finished(game: Any, state: Any, seat: int) -> float | None:
    """Galaxy Trucker: 1 when the seat's ship finished the (last) flight, 0 when it
    retired (None: the state does not say)."""
    flight = state.get("flight") if isinstance(state, dict) else None
    if not isinstance(flight, dict) or "retired" not in flight:
        return None
    return 0.0 if seat in flight["retired"] else 1.0


#: Extra figures of the measured player, per game: (label, f(game, final state, its seat)),
#: averaged over the games where f does not return None.
STATS: dict[str, tuple[str, Callable[[Any, Any, int], float | None]]] = {
    "galaxy_trucker": ("finished", _gt_finished),
}


def default_lines(game: Any) -> tuple[str, ...]:
    """The issue's lines for a game not in :data:`LINES`, at its smallest table (at least 2
    players): hard and normal against random play, hard against normal, normal against
    easy (the measured level against n - 1 of the other)."""
    n = max(2, int(getattr(game, "min_players", 2)))

    def line(a: str, b: str) -> str:
        return ",".join([a] + [b] * (n - 1))

    return (
        line("hard", "random"),
        line("normal", "random"),
        line("hard", "normal"),
        line("normal", "easy"),
    )


def lines_of(game: Any) -> tuple[str, ...]:
    return LINES.get(game.id) or default_lines(game)


def check_line(game: Any, line: str) -> tuple[str, ...]:
    """The players of a line, or SystemExit with a clear message."""
    names = tuple(nm.strip() for nm in line.split(","))
    for nm in names:
        if nm not in ("random", "today") and nm not in LEVELS:
            raise SystemExit(f"unknown player {nm!r} in line {line!r}")
    lo = int(getattr(game, "min_players", 1))
    hi = int(getattr(game, "max_players", len(names)))
    if not lo <= len(names) <= hi:
        raise SystemExit(f"{game.id} plays with {lo}-{hi} players; line {line!r} has {len(names)}")
    if "today" in names and getattr(game, "bot_choice", None) is None:
        raise SystemExit(f"{game.id} has no heuristic (bot_choice) to play 'today'")
    return names


#: A random multi-pick answer the engine refuses is drawn again at most this many times.
RANDOM_TRIES = 20


def random_legal(game: Any, s: Any, seat: int, rng: random.Random) -> str:
    """A uniformly random answer the engine accepts. A multi-pick answer can be refused for
    a reason the decision's options do not show (Galaxy Trucker's goods: a pick that does
    not fit the holds, ``goods_dont_fit``): it is drawn again, and after RANDOM_TRIES
    refusals an option that stands alone (``auto``) or a single pick is played."""
    d = decision_of(game, s, seat)
    if not d.multi:
        return random_answer(d, rng)
    for _ in range(RANDOM_TRIES):
        answer = random_answer(d, rng)
        try:
            game.apply(s, seat, answer)
        except IllegalMove:
            continue
        return answer
    alone = [o.id for o in d.options if o.alone]
    return alone[0] if alone else d.options[0].id


def player(game: Any, name: str) -> Player:
    if name == "random":
        return lambda s, seat, rng: random_legal(game, s, seat, rng)
    if name == "today":
        return game.bot_choice  # type: ignore[no-any-return]
    if name in LEVELS:
        return bot_for(game, name)
    raise SystemExit(f"unknown player {name!r}")


Times = dict[str, list[float]]


def play(
    game: Any, names: Sequence[str], shift: int, seed: int, options: dict[str, str]
) -> tuple[float, Times, float | None]:
    """One game; the measured player (names[0]) sits in seat ``shift``. Returns its win
    share, the decision times (ms) per player name, and its :data:`STATS` figure (None when
    the game has none)."""
    n = len(names)
    seat_name = [names[(seat - shift) % n] for seat in range(n)]
    players = [player(game, nm) for nm in seat_name]
    rngs = [random.Random(f"league:{seed}:{seat}") for seat in range(n)]
    times: Times = {}
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
    winners = res.winners if res is not None else ()
    stat = STATS.get(game.id)
    figure = stat[1](game, s, shift) if stat is not None else None
    return (1 / len(winners) if shift in winners else 0.0), times, figure


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _one(
    job: tuple[str, tuple[str, ...], int, dict[str, str]],
) -> tuple[float, Times, float | None]:
    gid, names, i, options = job
    return play(registry.get(gid), names, i % len(names), 1000 + i, options)


@dataclass
class LineResult:
    """The figures of one line so far."""

    game: str
    line: str
    shares: list[float] = field(default_factory=list)
    times: Times = field(default_factory=dict)
    figures: list[float] = field(default_factory=list)

    def slowest(self) -> tuple[float, str]:
        """The slowest decision of any bot level at the table (ms) and which level it was."""
        return max(
            ((max(v), k) for k, v in self.times.items() if v and k in LEVELS), default=(0.0, "-")
        )

    def __str__(self) -> str:
        games = len(self.shares)
        p = statistics.fmean(self.shares) if self.shares else 0.0
        lo, hi = wilson(p, games)
        timing = "  ".join(
            f"{k}: mean {statistics.fmean(v):.0f} ms max {max(v):.0f} ms"
            for k, v in sorted(self.times.items())
            if k in LEVELS and k != "easy" and v
        )
        extra = ""
        if self.figures:
            label = STATS[self.game][0] if self.game in STATS else "figure"
            extra = f"  {label} {statistics.fmean(self.figures):.1%}"
        return (
            f"{self.game:14} {self.line:22} n={games:4}  {p:6.1%}  [{lo:5.1%}, {hi:5.1%}]"
            f"{extra}  {timing}"
        ).rstrip()


def run_line(
    game: Any,
    line: str,
    games: int,
    options: dict[str, str],
    progress: bool = False,
    jobs: int = 1,
    first: int = 0,
) -> LineResult:
    """Play ``games`` games of one line (in ``jobs`` worker processes) and sum them up;
    ``first``: the index (seed) of the first game, so a stopped run can be taken up where it
    stopped (``--progress`` prints the games in order)."""
    names = check_line(game, line)
    out = LineResult(game.id, ",".join(names))
    work = [(game.id, names, i, options) for i in range(first, first + games)]
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(_one, work) if pool is not None else map(_one, work)
    for share, t, figure in results:
        out.shares.append(share)
        for k, v in t.items():
            out.times.setdefault(k, []).extend(v)
        if figure is not None:
            out.figures.append(figure)
        if progress:
            print(out, file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    return out


def check_options(game: Any, options: dict[str, str]) -> dict[str, str]:
    """The options checked against the game's lobby options (SystemExit on a bad one)."""
    specs = {o.id: o for o in getattr(game, "options", ())}
    for key, value in options.items():
        if key not in specs:
            raise SystemExit(f"{game.id} has no option {key!r} (it has: {', '.join(specs)})")
        if value not in specs[key].choices:
            choices = ", ".join(specs[key].choices)
            raise SystemExit(f"{game.id} option {key!r}: {value!r} is not one of {choices}")
    return options


def main(argv: Sequence[str] | None = None) -> None:
    ids = list(registry.GAME_MODULES)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=400, help="games per line (default 400)")
    ap.add_argument("--game", action="append", choices=ids, help="default: every game")
    ap.add_argument("--line", action="append", help="e.g. hard,random (default: the game's set)")
    ap.add_argument("--option", action="append", default=[], help="key=value lobby option")
    ap.add_argument("--progress", action="store_true", help="running figures on stderr")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.first < 0:
        raise SystemExit("--games and --jobs must be at least 1, --first at least 0")
    extra: dict[str, str] = {}
    for o in args.option:
        if "=" not in o:
            raise SystemExit(f"--option {o!r}: expected key=value")
        key, value = o.split("=", 1)
        extra[key] = value
    slowest: tuple[float, str] = (0.0, "-")
    for gid in args.game or ids:
        game = registry.get(gid)
        options = check_options(game, {**OPTIONS.get(gid, {}), **extra})
        for line in args.line or lines_of(game):
            res = run_line(game, line, args.games, options, args.progress, args.jobs, args.first)
            print(res, flush=True)
            ms, who = res.slowest()
            slowest = max(slowest, (ms, f"{gid} {who} ({res.line})"))
    print(f"slowest decision: {slowest[0]:.0f} ms, {slowest[1]}", flush=True)


if __name__ == "__main__":
    main()
