"""A simple Kosmonavts pilot for bot seats and random play-outs.

It flies to the body it can land on soonest among those still worth a marker (Earth once it
may end the game), refuels when low, and answers event cards with plain rules of thumb.
Its order plan depends only on the state at the start of the orders phase, so it composes
the order cube by cube without ever undoing; plans are memoised (pure function of the key).

Each bot seat has a temperament (:func:`temperament`), drawn from the game's seed and the
seat alone, so that replay reproduces it: a taste for some bodies (as if they were a
fraction of a round nearer; the bodies of its own missions are nearer still), the tank level
under which it stays landed to refuel, and how lightly it takes a danger sector. Two bot
seats therefore fly different routes in most games.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .board import (
    BODIES,
    CARDS,
    DIR_IDS,
    DIRS,
    EARTH,
    ORBITS,
    SUN,
    Hex,
    dist,
    hex_round,
    velocity,
    zone,
)
from .engine import can_get_marker, marker_top_values, return_ready, seat_options

#: rounds ahead the pilot looks for an interception
HORIZON = 12
#: thrust units per round the pilot counts on for later corrections
LATER_THRUST = 3
#: the largest taste for a body, in rounds of flight
MAX_TASTE = 0.5
#: how much nearer (in rounds) the body of one of the seat's missions looks
MISSION_PULL = {"m1": 1.0, "m2": 0.5}


@dataclass(frozen=True)
class Temperament:
    """How one bot seat flies (fixed for the whole game)."""

    #: body -> extra cost in rounds (0 = favourite), before the missions' pull
    taste: tuple[tuple[str, float], ...]
    #: a landed ship with less fuel than this in its tank stays to refuel
    refuel_below: int
    #: cost (in rounds) of ending in a danger sector with 2+ shields
    danger: float


def temperament(s: Mapping[str, Any], seat: int) -> Temperament:
    """The temperament of ``seat`` in this game: a pure function of the seed and the seat.

    A world the search engine samples (its seed redrawn) keeps the searching seat's own
    temperament under ``search_temper`` ([seat, the game's seed]): a seat knows how it flies."""
    own = s.get("search_temper")
    if own is not None and own[0] == seat:
        return _temperament(int(own[1]), seat)
    return _temperament(int(s["seed"]), seat)


@lru_cache(maxsize=256)
def _temperament(seed: int, seat: int) -> Temperament:
    r = random.Random(f"kosmonavts:temperament:{seed}:{seat}")
    taste = tuple((b, round(r.uniform(0.0, MAX_TASTE), 2)) for b in BODIES)
    return Temperament(taste=taste, refuel_below=r.choice((5, 6, 7)), danger=r.choice((1, 2, 3)))


def _build_combos() -> dict[Hex, list[tuple[int, int, int, tuple[str, ...]]]]:
    """Every thrust change reachable with up to 4 cubes -> [(cubes, reds, yellows, steps)],
    keeping for each change only the cube mixes that no other mix beats on both colours."""
    kinds = [("add", d) for d in range(6)] + [("addh", d) for d in range(6)]
    table: dict[Hex, dict[tuple[int, int], tuple[str, ...]]] = {}
    for k in range(5):
        for combo in itertools.combinations_with_replacement(kinds, k):
            dq = dr = 0
            reds = 0
            for kind, d in combo:
                u = 2 if kind == "addh" else 1
                reds += kind == "addh"
                dq += u * DIRS[d][0]
                dr += u * DIRS[d][1]
            mix = (k - reds, reds)
            steps = tuple(f"{kind}.{DIR_IDS[d]}" for kind, d in combo)
            table.setdefault((dq, dr), {}).setdefault(mix, steps)
    out: dict[Hex, list[tuple[int, int, int, tuple[str, ...]]]] = {}
    for delta, mixes in table.items():
        keep = []
        for (y, r), steps in mixes.items():
            if any((y2 <= y and r2 <= r) and (y2, r2) != (y, r) for (y2, r2) in mixes):
                continue
            keep.append((y + r, r, y, steps))
        out[delta] = sorted(keep)
    return out


COMBOS = _build_combos()


def _realise(delta: Hex, fuel: int, hyper: int, limit: int) -> tuple[str, ...] | None:
    for cubes, reds, yellows, steps in COMBOS.get(delta, ()):
        if cubes <= limit and yellows <= fuel and reds <= hyper:
            return steps
    return None


@cache
def _units(steps: tuple[str, ...]) -> tuple[int, int]:
    """(thrust units, red cubes) of an order's steps (each ``addh`` is a red cube worth 2)."""
    red = sum(st.startswith("addh") for st in steps)
    return len(steps) + red, red


def _straight_through_sun(pos: Hex, v: Hex) -> bool:
    for d in DIRS:
        # v = k * d for some k > 0?
        if d[0] * v[1] != d[1] * v[0] or (d[0] * v[0] + d[1] * v[1]) <= 0:
            continue
        k = dist(v)
        return any((pos[0] + i * d[0], pos[1] + i * d[1]) == SUN for i in range(1, k + 1))
    return False


def _neighbourhood(h: Hex) -> list[Hex]:
    return [h] + [(h[0] + d[0], h[1] + d[1]) for d in DIRS]


@lru_cache(maxsize=8192)
def plan_order(
    pos: Hex,
    rose: tuple[int, ...],
    fuel: int,
    hyper: int,
    shields: int,
    landed: bool,
    limit: int,
    advanced: bool,
    targets: tuple[tuple[str, int, float], ...],
    refuel_below: int = 6,
    danger: float = 2.0,
) -> tuple[str, ...]:
    """The order (steps then a closing option) the pilot gives this round. ``targets`` are
    (body, orbit index, extra cost in rounds) of the bodies worth flying to."""
    tank = fuel + hyper
    if landed and (tank < refuel_below or not targets):
        return ("stay",)
    prefix: tuple[str, ...] = ()
    if fuel + hyper == 0 and shields >= 2 and limit > 0:
        prefix = ("convert",)
        fuel = min(2, 10 - tank)
    v = velocity(list(rose))
    best: tuple[float, ...] | None = None
    best_steps: tuple[str, ...] = ()
    units_left_base = fuel + 2 * hyper
    reds = min(hyper, limit)
    umax = max(1, 2 * reds + min(fuel, limit - reds))

    def consider(delta: Hex, cost: float, residual: int, m: int) -> None:
        nonlocal best, best_steps
        steps = _realise(delta, fuel, hyper, limit)
        if steps is None:
            return
        v1 = (v[0] + delta[0], v[1] + delta[1])
        p1 = (pos[0] + v1[0], pos[1] + v1[1])
        z = zone(p1)
        if z in ("sun", "off_board") or _straight_through_sun(pos, v1):
            return
        used, red = _units(steps)
        if m > 0 and residual > 0 and -(-residual // m) > units_left_base - used:
            cost += 3  # probably not enough fuel for the corrections
        if z == "danger_sector":
            cost += {0: 50, 1: 4}.get(shields, danger)
        key = (cost, residual, len(steps), red)
        if best is None or key < best:
            best, best_steps = key, steps

    for body, idx, extra in targets:
        orbit = ORBITS[body]
        n = len(orbit)
        b0 = orbit[idx]
        b1 = orbit[(idx + 1) % n]
        consider((b0[0] - pos[0] - v[0], b0[1] - pos[1] - v[1]), extra, 0, 0)
        consider((b1[0] - pos[0] - v[0], b1[1] - pos[1] - v[1]), 0.5 + extra, 0, 0)
        for m in range(1, HORIZON + 1):
            bm = orbit[(idx + m) % n]
            wq = bm[0] - pos[0] - (m + 1) * v[0]
            wr = bm[1] - pos[1] - (m + 1) * v[1]
            reach = LATER_THRUST * m * (m + 1) // 2
            centre = hex_round(wq / (m + 1), wr / (m + 1))
            length = dist(centre)
            if length > umax:  # aim as far as this round's thrust can go
                centre = hex_round(centre[0] * umax / length, centre[1] * umax / length)
            found = False
            for delta in _neighbourhood(centre):
                res = dist((wq - (m + 1) * delta[0], wr - (m + 1) * delta[1]))
                if res <= reach and _realise(delta, fuel, hyper, limit) is not None:
                    found = True
                    consider(delta, m + extra, res, m)
            if found:
                break
    if best is None or best[0] >= 50:
        # nothing sensible: brake (thrust against the current velocity) or coast
        for delta in _neighbourhood(hex_round(-v[0], -v[1])):
            consider(delta, 99.0, dist((v[0] + delta[0], v[1] + delta[1])), 0)
        consider((0, 0), 100.0, 0, 0)
    if best is None:
        return ("stay",) if landed else ("evac",)
    steps = prefix + best_steps
    if landed and not best_steps:
        return (*prefix, "stay")
    return (*steps, "confirm")


def _targets(
    s: Mapping[str, Any], seat: int, temper: Temperament
) -> tuple[tuple[str, int, float], ...]:
    ship = s["ships"][seat]
    if return_ready(s, seat):
        wanted = [EARTH]
    else:
        wanted = [b for b in BODIES if can_get_marker(s, seat, b)] or [EARTH]
    if ship["fuel"] + 2 * ship["hyper"] < 3 and ship["landed"] is None:
        return tuple((b, s["bodies"][b], 0.0) for b in BODIES)  # anywhere to refuel
    if wanted == [EARTH]:
        return ((EARTH, s["bodies"][EARTH], 0.0),)
    extra = dict(temper.taste)
    for mid in s["missions"][seat]:
        kind, body = mid.split(".")
        extra[body] -= MISSION_PULL[kind]
    low = min(extra[b] for b in wanted)
    return tuple((b, s["bodies"][b], round(extra[b] - low, 2)) for b in wanted)


def seat_plan(
    s: Mapping[str, Any], seat: int, targets: tuple[tuple[str, int, float], ...] | None = None
) -> tuple[str, ...]:
    """The seat's planned orders (:func:`plan_order` from its ship and temperament) towards
    ``targets`` (None: the ones its temperament picks, :func:`_targets`)."""
    ship = s["ships"][seat]
    temper = temperament(s, seat)
    return plan_order(
        (ship["pos"][0], ship["pos"][1]),
        tuple(ship["rose"]),
        ship["fuel"],
        ship["hyper"],
        ship["shields"],
        ship["landed"] is not None,
        s["limits"][seat],
        s["rules"] == "advanced",
        _targets(s, seat, temper) if targets is None else targets,
        temper.refuel_below,
        temper.danger,
    )


def _order_choice(s: Mapping[str, Any], seat: int, offered: list[str]) -> str:
    plan = seat_plan(s, seat)
    steps, final = list(plan[:-1]), plan[-1]
    done = s["orders"][seat]["steps"]
    if done == steps[: len(done)]:
        if len(done) < len(steps) and steps[len(done)] in offered:
            return steps[len(done)]
        if len(done) == len(steps) and final in offered:
            return final
    elif "undo" in offered:
        return "undo"
    for closing in ("confirm", "stay", "evac", "stayfull"):
        if closing in offered:
            return closing
    return offered[0]


def _event_pick(offered: list[str]) -> str:
    rank = {"thrust": 5, "refuel": 4, "energy": 3, "wind": 2, "gravity": 1, "asteroids": 0}
    return max(offered, key=lambda o: rank.get(CARDS[o.split(".", 1)[1]]["kind"], -1))


def _response(s: Mapping[str, Any], seat: int, offered: list[str]) -> str:
    ship = s["ships"][seat]
    kind = CARDS[s["active"]]["kind"]
    if kind == "energy":
        return "pay" if "pay" in offered and ship["shields"] >= 2 and ship["fuel"] <= 5 else "skip"
    if kind == "gravity":
        pulls = [o for o in offered if o.startswith("pull.")]
        for o in pulls:
            body = o.split(".", 1)[1]
            if can_get_marker(s, seat, body) or (body == EARTH and return_ready(s, seat)):
                return o
        if "shield" in offered and ship["shields"] >= 2:
            return "shield"
        return pulls[0]
    if kind == "asteroids" and "shield" in offered and ship["shields"] >= 2 and ship["fuel"] >= 4:
        return "shield"
    return "accept" if "accept" in offered else offered[0]


def _marker_pick(s: Mapping[str, Any], seat: int, offered: list[str]) -> str:
    """Landing together with others (R12): take the marker a mission asks for (the second
    one for a Mission 2, the top one for a Mission 1), else the highest left."""
    body = s["touchdown"]["queue"][0][1]
    first, second = marker_top_values(s["rules"], body)
    missions = s["missions"][seat]
    if f"m2.{body}" in missions and f"marker.{second}" in offered:
        return f"marker.{second}"
    if f"m1.{body}" in missions and f"marker.{first}" in offered:
        return f"marker.{first}"
    return max(offered, key=lambda o: int(o.split(".")[1]))


def bot_choice(s: Mapping[str, Any], seat: int, rng: random.Random) -> str:
    """An option id for ``seat`` among those pending (raises ValueError if none)."""
    offered = [o.id for o in seat_options(s, seat)]
    if not offered:
        raise ValueError("no decision pending for this seat")
    if s["touchdown"] is not None:
        return _marker_pick(s, seat, offered)
    ph = s["phase"]
    if ph == "setup":
        return rng.choice(offered)
    if ph == "missions":
        ch = s["choice"][seat]
        if "confirm" in offered:
            return "confirm"
        # dealt cards are [m1, m1, m2, m2]: keep the two Mission 2 cards (4 VP each) when possible
        for i in (2, 3, 0, 1):
            if f"keep.{i}" in offered:
                return f"keep.{i}"
        return "undo" if ch["keep"] else offered[0]
    if ph == "event":
        if s["active"] is None:
            return _event_pick(offered)
        return _response(s, seat, offered)
    if ph == "orders":
        return _order_choice(s, seat, offered)
    # landing decision
    body = s["landing"]["body"][seat]
    ship = s["ships"][seat]
    useful = can_get_marker(s, seat, body) or (body == EARTH and return_ready(s, seat))
    return "land" if useful or ship["fuel"] + ship["hyper"] <= 4 else "noland"
