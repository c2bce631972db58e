"""MLEM's hooks for the search engine (:mod:`rules.search`): determinisation, play-out
policy and position evaluation.

* :func:`sample` redraws what ``seat`` cannot see: future dice (a fresh generator seed), the
  order of the expedition pile, the UFO tiles still face down together with the values of
  the UFO tiles other seats took, the order of the reconnaissance stack, and the mission
  tiles of the other seats (their dealt tiles and, once chosen, which three they kept).
  Reconnaissance points tiles other seats took stay as they are: they lay face up on the
  track before they were taken (R24), so a player at the table has seen them.
* :func:`rollout` is the play-out policy: the commander pushes on with the move that goes
  farthest for the fewest dice; an astronaut lands when the prize here is worth more than
  the expected prize of staying, computed from the exact odds that the next roll fits the
  next space; astronauts board in a sensible order.
* :func:`evaluate` turns a position into the seat's chance to win: final-score parts as they
  stand (planet majorities, objectives, missions, UFO and reconnaissance points, which in a
  sampled world are the sampled ones) plus a value per astronaut still to place.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from core.contract import join_picks

from .board import (
    ABILITIES,
    ACCEPTS,
    AFTERBURNER,
    BODY,
    DEEP,
    DICE_FACES,
    MISSION_DEAL,
    MISSION_KEEP,
    MISSIONS,
    MOONS,
    NO_LANDING,
    PLANETS,
)
from .engine import (
    _explore_specs,
    _land_targets,
    _picking,
    _picks_of_go,
    _reroll_available,
    _waiting,
    breakdown_of,
    pending_of,
)

#: value of an astronaut still to place, in points (a rough mean of a landing)
ASTRONAUT_VALUE = 2.5
#: scale (in points) of the logistic that turns a lead into a chance to win
LEAD_SCALE = 5.0


def sample(s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    from rules.kit import clone

    w = clone(s)
    w["seed"] = rng.getrandbits(48)
    w["rc"] = 0
    n = w["n"]
    exp = w["exp"]
    if exp is not None:
        rng.shuffle(exp["deck"])
    ufo = w["ufo"]
    if ufo is not None:
        pool = list(ufo["tiles"])
        for other in range(n):
            if other != seat:
                pool.extend(ufo["taken"][other])
        rng.shuffle(pool)
        for other in range(n):
            if other != seat:
                k = len(ufo["taken"][other])
                ufo["taken"][other] = pool[:k]
                pool = pool[k:]
        ufo["tiles"] = pool
    recon = w["recon"]
    if recon is not None:
        rng.shuffle(recon["stack"])
    ms = w["missions"]
    if ms is not None:
        mine = set(ms["dealt"][seat])
        pool = [m for m in MISSIONS if m not in mine]
        rng.shuffle(pool)
        for other in range(n):
            if other == seat:
                continue
            dealt = pool[:MISSION_DEAL]
            pool = pool[MISSION_DEAL:]
            ms["dealt"][other] = dealt
            if ms["kept"][other] is not None:
                drop = rng.randrange(MISSION_DEAL)
                ms["kept"][other] = [m for i, m in enumerate(dealt) if i != drop][:MISSION_KEEP]
    return w


@cache
def fit_chance(space: int, pool: int) -> float:
    """The exact chance that a roll of ``pool`` dice shows a face ``space`` accepts."""
    ok = ACCEPTS.get(space, frozenset())
    q = sum(1 for f in DICE_FACES if f in ok) / len(DICE_FACES)
    return 1.0 - (1.0 - q) ** pool


@cache
def mean_steps(space: int) -> float:
    """Mean number of spaces one fitting die moves from ``space`` (afterburner included)."""
    ok = ACCEPTS.get(space, frozenset())
    ab = AFTERBURNER.get(space) or 0
    vals = [ab if f == "A" else f for f in DICE_FACES if f in ok]
    return sum(vals) / len(vals) if vals else 1.0


def _planet_gain(s: dict[str, Any], seat: int, body: str, ability: str) -> float:
    """Points one more astronaut of ``seat`` on planet ``body`` is worth (majority ranks)."""
    counts: dict[int, int] = {}
    for a in s["planets"][body]:
        counts[a[0]] = counts.get(a[0], 0) + 1
    mine = counts.get(seat, 0)
    values = PLANETS[body]

    def award(c: int) -> float:
        if c == 0:
            return 0.0
        rank = sum(1 for o, k in counts.items() if o != seat and k >= c)
        return float(values[rank]) if rank < len(values) else 0.0

    gain = award(mine + 1) - award(mine)
    if ability == "planet_doubler":
        gain += award(mine + 1)
    return gain + 1.0  # planets also feed objectives and missions


def _target_value(s: dict[str, Any], seat: int, ability: str, target: tuple[Any, ...]) -> float:
    kind, body, _idx, points = target
    if kind == "planet":
        return _planet_gain(s, seat, body, ability)
    return float(points)


def _ahead_value(s: dict[str, Any], space: int) -> float:
    """A rough value of the best landing a little farther on (for an astronaut that stays)."""
    best = 0.0
    for sp in range(space + 1, min(DEEP, space + 6) + 1):
        if sp >= DEEP:
            best = max(best, 5.0)
            continue
        body = BODY.get(sp)
        if body is None or sp in NO_LANDING:
            continue
        if body in MOONS:
            free = [v for v, a in zip(MOONS[body], s["moons"][body], strict=True) if a is None]
            if free:
                best = max(best, float(max(free)))
        else:
            best = max(best, PLANETS[body][0] * 0.6)
    return best


def _land(s: dict[str, Any], seat: int, ids: list[str]) -> str:
    if "chute.land" in ids:
        return "chute.land"
    targets = _land_targets(s)
    _seat, ability = s["queue"][0]
    best, value = "stay", -1.0
    for oid, target in targets.items():
        if target is None:
            continue
        v = _target_value(s, seat, ability, target)
        if v > value:
            best, value = oid, v
    if best == "stay":
        return "stay"
    # staying: the rocket must survive the next roll, then the prize ahead
    survive = fit_chance(s["space"], s["pool"])
    stay = survive * survive * _ahead_value(s, s["space"])
    if s["final"] or s["disasters"] >= 9:
        stay *= 0.7
    return best if value >= stay else "stay"


def _explore(s: dict[str, Any], ids: list[str], specs: dict[str, Any] | None = None) -> str:
    if specs is None:
        specs = _explore_specs(s)
    if not specs:
        return "reroll" if "reroll" in ids else "crash"
    fits = any(f in ACCEPTS[s["space"]] for f in s["roll"])
    if not fits and "reroll" in ids:
        return "reroll"

    def score(oid: str) -> float:
        steps, faces, owners, extra, keep = specs[oid]
        lost = 0 if keep else sum(1 for f in s["roll"] if f in faces and f != "A")
        after = min(DEEP, s["space"] + steps)
        pool = max(1, s["pool"] - lost)
        chance = 1.0 if after >= DEEP else fit_chance(after, pool)
        return steps * 0.5 + 3.0 * chance - 0.6 * len(owners) - (0.4 if extra else 0)

    return max(specs, key=score)


#: boarding preference (earlier = boards first when free)
BOARD_ORDER = (
    "booster",
    "saboteur",
    "satellite",
    "parachute",
    "moon_doubler",
    "shifter",
    "planet_doubler",
    "deep_doubler",
)


def to_move(s: dict[str, Any]) -> list[int]:
    """The seats with an open decision (those of ``pending``, without building options)."""
    return _waiting(s)


def rollout(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    """The play-out policy (also a decent bot on its own): see the module docstring.

    Works from the state alone (no option labels are built) except for the mission choice
    and the second step of a movement picked in steps; a movement id (``go.…``) is accepted
    whenever the dice are picked (R32)."""
    phase = s["phase"]
    if phase == "explore" and s.get("pick") is None:
        specs = _explore_specs(s)
        best = _explore(s, ["reroll"] if _reroll_available(s) else [], specs)
        if best.startswith("go.") and _picking(s, specs):
            decision = next(d for d in pending_of(s) if d.seat == seat)
            return join_picks(decision, _picks_of_go(best))  # the dice, picked in steps
        return best
    if phase == "explore":  # second step of a movement picked in steps: keep the dice
        return s["pick"] + "+k"
    if phase in ("land", "chute"):
        return _land(s, seat, list(_land_targets(s)))
    if phase == "launch":
        left = s["board"][seat]
        if rng.random() < 0.3:
            return "board." + rng.choice(left)
        for ab in BOARD_ORDER:
            if ab in left:
                return f"board.{ab}"
    decision = next(d for d in pending_of(s) if d.seat == seat)
    return rng.choice([o.id for o in decision.options])


def evaluate(s: dict[str, Any], seat: int) -> float:
    """The seat's chance to win from here, judged from the score parts as they stand plus
    the astronauts each seat can still place before the game ends: it ends in the voyage
    in which a seat places its last astronaut, so nobody places more astronauts than the
    seat with the fewest left (one per voyage at most)."""
    parts = breakdown_of(s)
    n = s["n"]
    left = [len(ABILITIES) - s["placed"][i] for i in range(n)]
    voyages = 0 if s["phase"] == "over" else min(left)
    est = [sum(parts[i].values()) + ASTRONAUT_VALUE * min(left[i], voyages) for i in range(n)]
    lead = est[seat] - max(est[i] for i in range(n) if i != seat)
    return 1.0 / (1.0 + math.exp(-lead / LEAD_SCALE))
