"""A Galaxy Trucker bot that builds legal, sensible ships: every tile it places fits its
neighbours, engines go to the back facing the rear, cannons to the front, and it wants
cabins, batteries and shields along the way. At pre-launch it asks for "fix it for me"
(never needed for its own ships) and puts aliens where it may."""

from __future__ import annotations

import random
from typing import Any

from . import ship as sh
from .building import board_of
from .engine import pending_of
from .tiles import board_cells, cards, start_cell, tile

#: How much each kind of tile is worth having (the bot skips face-up tiles worth little).
WANT = {
    "engine": 3.0,
    "engine2": 3.5,
    "cannon": 2.5,
    "cannon2": 3.0,
    "cabin": 3.0,
    "battery": 2.5,
    "shield": 2.5,
    "life_brown": 1.5,
    "life_purple": 1.5,
    "hold": 1.5,
    "red_hold": 1.5,
    "structural": 1.0,
}
#: Kinds every ship should have at least one of.
NEEDED = ("engine", "cannon", "cabin", "battery")
#: A bot stops building after this many of its own moves (a guard; it normally fills up).
MAX_STEPS = 160


def placement_score(
    s: dict[str, Any], ship: sh.Ship, cell: sh.Cell, tid: int, rot: int
) -> float | None:
    """How good it is to put ``tid`` turned ``rot`` at ``cell`` (None = breaks a rule)."""
    if not sh.fits(ship, cell, tid, rot):
        return None
    board = board_cells(board_of(s))
    sr, _ = start_cell(board_of(s))
    t = tile(tid)
    score = WANT.get(t.kind, 1.0)
    if t.type in NEEDED and all(tile(other).type != t.type for other, _ in ship.values()):
        score += 2.5  # the first one of a kind every ship needs
    growth = growth_of(ship, board)
    no_engine = all(tile(other).type != "engine" for other, _ in ship.values())
    for d in range(4):
        other = sh.neighbour(cell, d)
        mine = sh.side(tid, rot, d)
        if other in ship:
            if sh.side(*ship[other], (d + 2) % 4) != sh.NONE:
                growth -= 1  # that connector is used up
            if mine != sh.NONE:
                score += 1.0
        elif other in board:
            if mine != sh.NONE:
                growth += 1
                score += 0.4  # room to grow
                if d == sh.REAR and no_engine:
                    score += 1.0  # somewhere to hang an engine
        elif mine != sh.NONE:
            score -= 1.0  # exposed for ever
    if growth <= 0 and len(ship) + 1 < len(board):
        score -= 6.0  # the ship could not grow any more
    r, _ = cell
    if t.type == "engine":
        score += 1.5 * (r - sr)
        if sh.neighbour(cell, sh.REAR) in board:
            score -= 1.0  # the cell behind stays empty for ever
    elif t.type == "cannon":
        f = sh.facing(tid, rot)
        score += 1.5 * (sr - r) + (2.0 if f == sh.FRONT else 0.0)
        if sh.neighbour(cell, f or 0) in board:
            score -= 0.5
    return score


def growth_of(ship: sh.Ship, board: frozenset[sh.Cell]) -> int:
    """Connectors of the ship facing an empty board cell: where it can still grow."""
    n = 0
    for cell, (tid, rot) in ship.items():
        for d in range(4):
            other = sh.neighbour(cell, d)
            if other in board and other not in ship and sh.side(tid, rot, d) != sh.NONE:
                n += 1
    return n


def best_placement(
    s: dict[str, Any], ship: sh.Ship, tid: int
) -> tuple[float, sh.Cell, int] | None:
    best: tuple[float, sh.Cell, int] | None = None
    free = sh.free_cells(ship, board_cells(board_of(s)))
    for rot in range(4):
        for cell in free:
            sc = placement_score(s, ship, cell, tid, rot)
            if sc is not None and (best is None or sc > best[0]):
                best = (sc, cell, rot)
    return best


def choose(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    decision = next(d for d in pending_of(s) if d.seat == seat)
    ids = [o.id for o in decision.options]
    if s["phase"] == "flight":
        return _flight(s, seat, ids)
    if s["phase"] == "prelaunch":
        if "fix" in ids:
            return "fix"
        aliens = [i for i in ids if i.startswith("alien.")]
        return aliens[0] if aliens else ids[0]
    if "flip" in ids:
        return "flip"
    p = s["players"][seat]
    if p["peek"] is not None:
        return "unpeek"
    ship = sh.load(p["ship"])
    if p["hand"] is not None:
        found = best_placement(s, ship, p["hand"])
        if found is None:
            kind = tile(p["hand"]).type
            have = {tile(t).type for t, _ in ship.values()}
            if kind in NEEDED and kind not in have and "reserve" in ids:
                return "reserve"  # keep it for when it fits
            for way in ("return", "back"):
                if way in ids:
                    return way
            return "reserve"
        _, cell, rot = found
        if rot != p["rot"]:
            return "rot"
        return f"place.{cell[0]}.{cell[1]}"
    if p["step"] >= MAX_STEPS or not sh.free_cells(ship, board_cells(board_of(s))):
        return "done"
    for opt_id in ids:
        if opt_id.startswith("use.") and best_placement(s, ship, int(opt_id[4:])):
            return opt_id
    if p["placed"] and p["step"] % 40 == 5 and "peek.0" in ids:
        return f"peek.{rng.randrange(3)}"  # a look at the cards, now and then
    best_take: tuple[float, str] | None = None
    floor = 4.0 if "draw" in ids else float("-inf")  # an empty stack: anything that fits
    for opt_id in ids:
        if opt_id.startswith("take."):
            found = best_placement(s, ship, int(opt_id[5:]))
            if found and found[0] >= floor and (best_take is None or found[0] > best_take[0]):
                best_take = (found[0], opt_id)
    if best_take is not None:
        return best_take[1]
    if "draw" in ids:
        return "draw"
    return "done"


def _flight(s: dict[str, Any], seat: int, ids: list[str]) -> str:
    """Full power, every reward except a crew trade that would leave fewer than 3 aboard,
    the richest free planet, and the biggest part of a broken ship."""
    f = s["flight"]
    kind = f["ask"]["kind"]
    if kind == "hazard":  # a battery spent beats a lost tile (R14's tile pays)
        return "def"
    if kind == "goods":  # the most valuable goods that fit (R16)
        return "auto"
    if kind in ("engines", "cannons"):
        return max((i for i in ids if i.startswith("pow.")), key=lambda i: int(i[4:]))
    if kind == "crew":  # humans from the fullest cabin; aliens last
        p = s["players"][seat]
        aliens = {v for v in p["aliens"].values() if v}
        cells = [i[5:] for i in ids]
        humans = [k for k in cells if k not in aliens]
        pick = max(humans, key=lambda k: p["crew"].get(k, 0)) if humans else cells[0]
        return f"crew.{pick}"
    if kind == "keep":
        biggest = sh.parts(sh.load(s["players"][seat]["ship"]))[0]
        cell = min(biggest)
        return f"keep.{cell[0]}.{cell[1]}"
    card = cards()[f["card"]]
    if kind == "take":
        p = s["players"][seat]
        crew = sum(p["crew"].values()) + sum(1 for v in p["aliens"].values() if v)
        if card["type"] == "abandoned_ship" and crew - card["crew_lost"] < 3:
            return "pass"
        return "take"
    if kind == "reward":
        return "take"
    planets = [i for i in ids if i.startswith("planet.")]
    if not planets:
        return "pass"
    values = {"red": 4, "yellow": 3, "green": 2, "blue": 1}
    return max(planets, key=lambda i: sum(values[g] for g in card["planets"][int(i[7:])]))
