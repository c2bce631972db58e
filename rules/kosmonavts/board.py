"""Kosmonavts component data and hex geometry.

The data files under ``data/kosmonavts/`` are read once, at import. Coordinates are axial
``(q, r)`` tuples; directions are indices 0..5 into :data:`DIR_IDS` (opposite of ``d`` is
``(d + 3) % 6``). A compass rose is a list of six thrust *units* (a yellow cube is one unit,
a red hyperfuel cube two), so a ship's velocity is the vector sum of its rose.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "kosmonavts"

Hex = tuple[int, int]


def _read(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


BOARD_DATA: dict[str, Any] = _read("board.json")
EVENT_DATA: dict[str, Any] = _read("events.json")
MISSION_DATA: dict[str, Any] = _read("missions.json")

DIR_IDS: tuple[str, ...] = tuple(d["id"] for d in BOARD_DATA["directions"])
DIRS: tuple[Hex, ...] = tuple((d["vec"][0], d["vec"][1]) for d in BOARD_DATA["directions"])
DIR_INDEX: dict[str, int] = {d: i for i, d in enumerate(DIR_IDS)}
ARROWS: tuple[str, ...] = tuple(d["arrow"] for d in BOARD_DATA["directions"])
HYPER_ARROWS: tuple[str, ...] = tuple(d["hyper_arrow"] for d in BOARD_DATA["directions"])

RADIUS: int = BOARD_DATA["radius"]
SUN: Hex = (BOARD_DATA["sun"][0], BOARD_DATA["sun"][1])
BODIES: tuple[str, ...] = tuple(b["id"] for b in BOARD_DATA["bodies"])
EARTH = "earth"
NON_EARTH: tuple[str, ...] = tuple(b for b in BODIES if b != EARTH)
ORBITS: dict[str, tuple[Hex, ...]] = {
    b["id"]: tuple((p[0], p[1]) for p in b["orbit"]) for b in BOARD_DATA["bodies"]
}
BODY_KIND: dict[str, str] = {b["id"]: b["kind"] for b in BOARD_DATA["bodies"]}

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in EVENT_DATA["cards"]}
CARD_IDS: tuple[str, ...] = tuple(c["id"] for c in EVENT_DATA["cards"])

MARKERS_BASIC: list[int] = BOARD_DATA["markers"]["basic"]["default"]
MARKERS_EARTH: list[int] = BOARD_DATA["markers"]["basic"]["earth"]
MARKERS_ADVANCED: dict[str, list[int]] = {
    k: v for k, v in BOARD_DATA["markers"]["advanced"].items() if not k.startswith("_")
}

M1_BODIES: tuple[str, ...] = tuple(MISSION_DATA["m1"])
M2_ALPHA: tuple[str, ...] = tuple(MISSION_DATA["m2_alpha"])
M2_BETA: tuple[str, ...] = tuple(MISSION_DATA["m2_beta"])
MISSION_POINTS: dict[str, int] = dict(MISSION_DATA["points"])


def dist(a: Hex, b: Hex = SUN) -> int:
    """Hex distance between two axial coordinates."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _ring_hexes(rings: list[int]) -> frozenset[Hex]:
    out = set()
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(-RADIUS, RADIUS + 1):
            if dist((q, r)) in rings:
                out.add((q, r))
    return frozenset(out)


DANGER: frozenset[Hex] = _ring_hexes(BOARD_DATA["danger_rings"] + BOARD_DATA["belt_rings"])
#: Every orbit space -> the body whose orbit it belongs to (orbits never share a hex).
SPACE_OWNER: dict[Hex, str] = {p: b for b, orbit in ORBITS.items() for p in orbit}


def on_board(h: Hex) -> bool:
    return dist(h) <= RADIUS


def zone(h: Hex) -> str:
    """ "sun" | "off_board" | "danger_sector" | "none" for a hex where a move ends."""
    if h == SUN:
        return "sun"
    if not on_board(h):
        return "off_board"
    if h in DANGER:
        return "danger_sector"
    return "none"


(_Q0, _R0), (_Q1, _R1), (_Q2, _R2), (_Q3, _R3), (_Q4, _R4), (_Q5, _R5) = DIRS


def velocity(rose: list[int]) -> Hex:
    """The sum of the rose's thrust units as one vector (written out: it is called often)."""
    u0, u1, u2, u3, u4, u5 = rose
    return (
        u0 * _Q0 + u1 * _Q1 + u2 * _Q2 + u3 * _Q3 + u4 * _Q4 + u5 * _Q5,
        u0 * _R0 + u1 * _R1 + u2 * _R2 + u3 * _R3 + u4 * _R4 + u5 * _R5,
    )


def add_units(rose: list[int], d: int, units: int) -> None:
    """Put ``units`` thrust units in direction ``d``; they first cancel the opposite side."""
    opp = (d + 3) % 6
    cancel = min(rose[opp], units)
    rose[opp] -= cancel
    rose[d] += units - cancel


def end_hex(pos: Hex, rose: list[int]) -> Hex:
    v = velocity(rose)
    return (pos[0] + v[0], pos[1] + v[1])


def flight_hazard(pos: Hex, rose: list[int]) -> str:
    """How a flight with this rose ends: "sun", "off_board", "danger_sector" or "none".

    Only the end hex counts, except that the Sun cannot be crossed: a move in one single
    direction whose straight line goes through the Sun is a flight into the Sun. With two or
    more directions some order of the steps always goes round it (and, the board being a hex
    disc, stays on the board); :func:`find_path` finds such an order.
    """
    end = end_hex(pos, rose)
    z = zone(end)
    if z in ("sun", "off_board"):
        return z
    dirs = [i for i in range(6) if rose[i]]
    if len(dirs) == 1:
        d = dirs[0]
        for k in range(1, rose[d] + 1):
            if (pos[0] + k * DIRS[d][0], pos[1] + k * DIRS[d][1]) == SUN:
                return "sun"
    return z


def find_path(pos: Hex, rose: list[int]) -> list[Hex] | None:
    """Hexes visited (start and end included) by one order of the unit steps that never
    enters the Sun nor leaves the board, spreading the directions evenly; None if none."""
    dirs = [i for i in range(6) if rose[i]]
    total = [rose[i] for i in dirs]
    dead: set[tuple[int, ...]] = set()

    def walk(done: list[int], at: Hex) -> list[Hex] | None:
        key = tuple(done)
        if key in dead:
            return None
        if done == total:
            return [at]
        # prefer the direction furthest behind its share of the move
        steps = sum(done)
        n = sum(total)
        order = sorted(
            (k for k in range(len(dirs)) if done[k] < total[k]),
            key=lambda k: (done[k] + 1) / total[k] - (steps + 1) / n,
        )
        for k in order:
            d = dirs[k]
            nxt = (at[0] + DIRS[d][0], at[1] + DIRS[d][1])
            if nxt == SUN or not on_board(nxt):
                continue
            done[k] += 1
            rest = walk(done, nxt)
            done[k] -= 1
            if rest is not None:
                return [at, *rest]
        dead.add(key)
        return None

    return walk([0] * len(dirs), pos)


def hex_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (q, r)


#: Rings (distance from the Sun) of the solar danger sector and of the asteroid belt.
DANGER_RINGS: frozenset[int] = frozenset(BOARD_DATA["danger_rings"])
BELT_RINGS: frozenset[int] = frozenset(BOARD_DATA["belt_rings"])
#: Every hex on the board, row by row.
ALL_HEXES: tuple[Hex, ...] = tuple(
    (q, r)
    for q in range(-RADIUS, RADIUS + 1)
    for r in range(-RADIUS, RADIUS + 1)
    if dist((q, r)) <= RADIUS
)
