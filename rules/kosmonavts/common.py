"""Kosmonavts: the constants and small helpers every part of the engine shares (places on
the board, markers, tanks, the order being composed). See rules.kosmonavts for the rulings."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from rules.kit import Events, Options
from rules.kit import rng as next_rng

from .board import (
    ARROWS,
    BELT_RINGS,
    BODIES,
    DANGER_RINGS,
    DIR_INDEX,
    EARTH,
    HYPER_ARROWS,
    MARKERS_ADVANCED,
    MARKERS_BASIC,
    NON_EARTH,
    ORBITS,
    SPACE_OWNER,
    add_units,
    dist,
)

P = "kosmonavts."
SCHEMA = 1
TANK = 10  # fuel cubes a tank holds (yellow + red)
MAX_HYPER = 4
MAX_SHIELDS = 3
CUBES_PER_ORDER = 3
#: Picks (cubes, undos, conversions) a seat may make while composing one order; after that
#: only the closing options remain, so random play always ends its orders.
STEP_CAP = 16
#: DESIGNED safety net for games played over days: the game ends after this round even if
#: nobody has come back to Earth (see ruling R24).
ROUND_LIMIT = 40
MISSION_STEP_CAP = 8
GRAVITY_RANGE = 2

#: Every refusal code (``kosmonavts.error.<code>``) the engine raises.
ERRORS = (
    "game_over",
    "not_your_turn",
    "not_offered",
    "step_limit",
    "flares",
    "cube_limit",
    "no_fuel",
    "no_hyper",
    "already_converted",
    "no_shield",
    "nothing_to_undo",
    "must_stay",
    "basic_refuel",
    "not_landed",
    "cubes_placed",
    "evac_landed",
    "pulled_no_refuel",
)

PHASES = ("setup", "missions", "event", "orders", "flight", "planets", "over")
#: What may follow a touchdown (``touchdown["then"]``): the keys of the engine's
#: ``_AFTER_LANDING``.
LANDING_NEXT = ("event", "flight", "planets")
ORDER_FINALS = ("confirm", "stay", "stayfull", "evac")


# ---------------------------------------------------------------------------------- helpers


#: Kosmonavts' random stream, kept from before the kit: ``Random(f"{seed}:{count}")`` where
#: ``count`` is the state's counter ``rng`` after the draw (saved games replay unchanged).
RNG_STREAM = "{seed}:{count}"
_EV = Events("kosmonavts")
_OPT = Options("kosmonavts")


def _rng(s: dict[str, Any]) -> random.Random:
    return next_rng(s, "kosmonavts", counter="rng", stream=RNG_STREAM)


def body_pos(s: Mapping[str, Any], body: str) -> tuple[int, int] | None:
    idx = s["bodies"][body]
    if idx is None:
        return None
    return ORBITS[body][idx]


def clock_hour(h: tuple[int, int]) -> int:
    """Where a hex lies around the Sun as on a clock face over the board (12 at the top,
    3 to the right): how the log and the buttons name a place instead of coordinates."""
    x = math.sqrt(3) * (h[0] + h[1] / 2)
    y = 1.5 * h[1]  # screen y grows downward
    if x == 0 and y == 0:
        return 12
    angle = math.degrees(math.atan2(x, -y)) % 360  # clockwise from the top
    hour = round(angle / 30) % 12
    return hour or 12


def zone_key(h: tuple[int, int]) -> str:
    """The region of the board a hex is in (an i18n key): next to the Sun, the inner
    system, the asteroid belt or the outer system."""
    ring = dist(h)
    if ring in DANGER_RINGS:
        return P + "zone.sun"
    if ring in BELT_RINGS:
        return P + "zone.belt"
    return P + ("zone.inner" if ring < min(BELT_RINGS) else "zone.outer")


def place_args(s: Mapping[str, Any], h: tuple[int, int]) -> dict[str, Any]:
    """A place named for players: its zone, its clock hour and the nearest body (where the
    bodies stand now), e.g. "in the asteroid belt, at 4 o'clock, 2 hexes from Mars"."""
    near, gap = EARTH, 10**6
    for b in BODIES:
        pos = body_pos(s, b)
        if pos is not None and dist(h, pos) < gap:
            near, gap = b, dist(h, pos)
    return {
        "zone_key": zone_key(h),
        "hour": clock_hour(h),
        "near_key": P + "near." + near,
        "gap": gap,
    }


def body_next_pos(s: Mapping[str, Any], body: str, ahead: int = 1) -> tuple[int, int] | None:
    idx = s["bodies"][body]
    if idx is None:
        return None
    orbit = ORBITS[body]
    return orbit[(idx + ahead) % len(orbit)]


def _body_at(s: Mapping[str, Any], h: tuple[int, int]) -> str | None:
    body = SPACE_OWNER.get(h)
    if body is not None and body_pos(s, body) == h:
        return body
    return None


def _seat_order(s: Mapping[str, Any]) -> list[int]:
    """Seats from the instructor, clockwise (to the left = next seat index)."""
    n = s["n"]
    return [(s["instructor"] + k) % n for k in range(n)]


def _pos(ship: Mapping[str, Any]) -> tuple[int, int]:
    return (ship["pos"][0], ship["pos"][1])


def marker_top_values(rules: str, body: str) -> tuple[int, int]:
    """(first lander's value, second lander's value) of a body's stack."""
    stack = MARKERS_ADVANCED[body] if rules == "advanced" else MARKERS_BASIC
    return stack[-1], stack[-2]


def can_get_marker(s: Mapping[str, Any], seat: int, body: str) -> bool:
    return (
        body != EARTH
        and body not in s["removed"]
        and body not in s["ships"][seat]["markers"]
        and bool(s["stacks"].get(body))
    )


def return_ready(s: Mapping[str, Any], seat: int) -> bool:
    """May this ship's landing on Earth end the game (R17/R18)?"""
    held = s["ships"][seat]["markers"]
    if s["rules"] == "basic":
        return len(held) >= len(NON_EARTH) - 1
    if len(held) >= 4:
        return True
    return all(not can_get_marker(s, seat, b) for b in NON_EARTH if b not in held)


def tank(ship: Mapping[str, Any]) -> int:
    return ship["fuel"] + ship["hyper"]


def _add_hyper(ship: dict[str, Any]) -> str:
    """One red cube into the tank: in a free slot, else in place of a yellow (4 at most)."""
    if ship["hyper"] >= MAX_HYPER:
        return "full"
    if tank(ship) < TANK:
        ship["hyper"] += 1
        return "added"
    if ship["fuel"] > 0:
        ship["fuel"] -= 1
        ship["hyper"] += 1
        return "swapped"
    return "full"


def compose(ship: Mapping[str, Any], steps: list[str]) -> dict[str, Any]:
    """The ship as it would be after the order ``steps`` (tank, shields, rose)."""
    fuel, hyper, shields = ship["fuel"], ship["hyper"], ship["shields"]
    rose = list(ship["rose"])
    cubes = 0
    converted = False
    for st in steps:
        if st == "convert":
            shields -= 1
            fuel += min(2, TANK - fuel - hyper)
            converted = True
            continue
        kind, d = st.split(".")
        if kind == "add":
            fuel -= 1
            add_units(rose, DIR_INDEX[d], 1)
        else:
            hyper -= 1
            add_units(rose, DIR_INDEX[d], 2)
        cubes += 1
    return {
        "fuel": fuel,
        "hyper": hyper,
        "shields": shields,
        "rose": rose,
        "cubes": cubes,
        "converted": converted,
    }


def order_arrows(steps: list[str]) -> str:
    out = []
    for st in steps:
        if st == "convert":
            continue
        kind, d = st.split(".")
        out.append((ARROWS if kind == "add" else HYPER_ARROWS)[DIR_INDEX[d]])
    return "".join(out)


def marker_choices(s: Mapping[str, Any], seat: int, body: str) -> list[int]:
    """The marker values ``seat`` may choose from on landing at ``body``, highest first;
    [] when there is nothing to choose (a lone lander, or one value left)."""
    td = s["touchdown"]
    if td is None or body not in td["shared"] or not can_get_marker(s, seat, body):
        return []
    values = sorted(set(s["stacks"][body]), reverse=True)
    return values if len(values) > 1 else []
