"""A simple MLEM bot: push on while it is cheap, land when the prize is worth it."""

from __future__ import annotations

import random
from typing import Any

from core.contract import join_picks

from .board import ACCEPTS, DEEP, PLANETS
from .engine import _explore_specs, _land_targets, _picks_of_go, pending_of


def choose(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    decision = next(d for d in pending_of(s) if d.seat == seat)
    ids = [o.id for o in decision.options]
    phase = s["phase"]
    if phase == "explore":
        if decision.multi:  # the dice picked in steps: the best movement's parts
            best = _explore(s, ids, rng)
            if best == "reroll":
                return best
            return join_picks(decision, _picks_of_go(best))
        return _explore(s, ids, rng)
    if phase in ("land", "chute"):
        return _land(s, ids, rng)
    return rng.choice(ids)


def _explore(s: dict[str, Any], ids: list[str], rng: random.Random) -> str:
    fits = any(f in ACCEPTS[s["space"]] for f in s["roll"])
    if not fits and "reroll" in ids:
        return "reroll"
    specs = _explore_specs(s)
    if not specs:
        return "reroll" if "reroll" in ids else "crash"

    def score(oid: str) -> float:
        steps, faces, owners, extra, keep = specs[oid]
        lost = 0 if keep else sum(1 for f in s["roll"] if f in faces and f != "A")
        return steps - 1.6 * lost - 0.8 * len(owners) - (0.5 if extra else 0) + rng.random()

    offered = [oid for oid in specs if oid in ids] or list(specs)  # a keep step: its two
    return max(offered, key=score)


def _land(s: dict[str, Any], ids: list[str], rng: random.Random) -> str:
    if "chute.land" in ids:
        return "chute.land"
    targets = _land_targets(s)
    best, value = "stay", 0.0
    for oid, target in targets.items():
        if target is None:
            continue
        kind, body, _idx, points = target
        worth = float(points) if kind != "planet" else PLANETS[body][0] * 0.7
        if worth > value:
            best, value = oid, worth
    if best == "stay":
        return "stay"
    # The farther out, the riskier it is to wait.
    eagerness = 0.25 + s["space"] / DEEP * 0.6 + value / 20
    return best if rng.random() < eagerness else "stay"
