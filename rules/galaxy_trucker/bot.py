"""The Galaxy Trucker bot.

Building: the bot weighs every legal placement of a tile (each free cell, each quarter
turn) with :func:`placement_score`: what the tile adds to the ship (cabins for crew,
single engines first and double ones with batteries, cannons facing the front, batteries,
shields on sides not yet covered, life support next to a cabin, cargo holds), with less
for each tile of a kind the ship already has enough of for its board; where it sits
(engines at the back with nothing behind them, cannons at the front with nothing ahead,
cabins inside); and what it does to the cells around it: how many of all the tiles could
still be placed on each neighbouring empty cell (:func:`cell_mask`), so that the ship keeps
room to grow instead of walling cells in with connectors few tiles match; while the ship
is small, a placement that leaves fewer than PORTS cells some tile could still go on loses
PORT_LOST for each such cell it takes away (since 2026-11-27, issue 20: ships walled in with
7-17 tiles launched with one or two cabins and little firepower, and most of the ships out
of a level II flight were those). A tile goes only
where every joint is legal and no engine or cannon is blocked
(:func:`rules.galaxy_trucker.ship.fits`), so pre-launch finds nothing to remove.

It takes a useful face-up tile before drawing, places what it draws whenever it fits
sensibly, keeps a needed tile it cannot place yet in the reserve (at most 2, only a tile
worth RESERVE_MIN or its first single engine: a tile still in the reserve when building
ends is a lost component, -1 credit; an engine or cannon whose only places would wall in a
cell waits there for the ship to reach the edge), puts what its reserve holds aboard
wherever it fits before finishing, and returns a tile face up only when it has no sensible
place for it. It is done when the
ship has what it needs and is nearly full, when few tiles could still fit it (a draw would
most likely go back face up), when it has spent its moves (about 4 per tile aboard, plus a
few: this bounds what one bot returns), or when the last run of the sand is on and the ship
has what it needs. It keeps drawing while it has no single engine or no cannon and one
could still fit, and once half the board is built its first single engine goes aboard
wherever it fits rather than wait in the reserve for a place on the edge (FIRST_ENGINE).
It does not look at the card piles: it would not remember them.

Measured over 20 seeded 4-bot level II games (``tests/rules/test_galaxy_trucker_bot.py``,
``bench/gt_bot.py``): ships legal as built, 21 tiles on 27 cells, about 30 tiles left face
up (at most 44), 86 % of the ships finish the flight (69 of 80; 278 of 320 over seeds 0-79,
87 %; 84 % before the purple alien came first at level II, 79 % before the open cells were
kept, 76 % before the crew changes of 2026-11-27, below). The weights below were tuned on
such games (seeds 0-39, checked on 40-79).

At pre-launch it asks for "fix it for me" (never needed for its own ships) and takes an
alien when enough humans stay aboard; at levels II and III the purple one (+2 firepower
against slavers of firepower 7 and 8) with fewer humans left, and no brown one that would
leave no room for it (the heuristic, 4 bots, seeds 0-79: 278 of 320 ships finished, 275
before; lost to slavers 24, 27 before; 2026-11-27). The flight part is :func:`_flight`: full power,
except against an enemy (the fewest double cannons that win, else tie, else none); every
reward, but an abandoned ship only when KEEP_HUMANS humans stay aboard; the planet whose
goods add the most to what the holds carry (none: it passes, rather than lose days for
nothing; until 2026-11-27 it landed on the richest planet even where nothing fitted); a
broken ship keeps a part with humans and an engine, then the one with the most crew; crew
it must give up are humans from the fullest cabin, an alien only before the last humans
(a ship without humans is out, aliens or not); in open space a ship moving on batteries
alone powers one double engine, not all (the next open space needs a battery too); it
defends and loads the automatic way, never retires, and answers a flight question it does
not know with its first option other than "retire". (Since 2026-11-27, issue 20: 17 of the
20 ships out of 20 level II games had lost their last humans, 10 of them to slavers.)

This heuristic is the easy level (with slips) and the play-out policy of the search
(:mod:`rules.galaxy_trucker.search`): the normal and hard levels search every flight
question (giving up beyond a locked win only in the learning flight and level I), and keep
this building.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from . import flight as fl
from . import goods as gd
from . import ship as sh
from .building import board_of
from .engine import _alien_cabins, pending_of
from .tiles import (
    FRONT,
    LEFT,
    REAR,
    RIGHT,
    board_cells,
    cards,
    facing,
    regular_tile_ids,
    side,
    start_cell,
    tile,
)

#: A tile is placed when its best placement scores at least PLACE_MIN, plus PLACE_FULL times
#: the share of the board already built (cells get precious); below, it is kept in the
#: reserve (when worth it) or returned face up.
PLACE_MIN = 0.0
PLACE_FULL = 2.0
#: A face-up tile is taken when its best placement scores at least this (else a draw).
TAKE_MIN = 2.0
#: Until this share of the board is built, an engine or cannon that would block a cell
#: waits in the reserve (when there is room) for a place on the edge.
PATIENT = 0.7
#: Once this share of the board is built, the first single engine goes aboard wherever it
#: fits (no more waiting in the reserve for a place on the edge).
FIRST_ENGINE = 0.5
#: A tile that fits nowhere is kept in the reserve when it is worth at least this.
RESERVE_MIN = 4.0
#: Done once a drawn tile would fit somewhere with less than this chance (ship ready) ...
FIT_DONE = 0.3
#: ... or, ready or not, with less than this chance.
FIT_GIVE_UP = 0.12
#: A bot is done after this many of its own building moves (a guard) ...
MAX_STEPS = 240
#: ... or after this many per tile of its ship and a few more: each tile placed costs about
#: 3 moves (take, turn, place), each tile returned 2: this bounds what one bot returns.
STEPS_PER_TILE = 4
SPARE_STEPS = 16
#: ... unless (up to twice as many) the ship has no single engine or no cannon (and one
#: could still fit), or less
#: than this share of its target of cabins: it keeps drawing for them. (0 = not for cabins:
#: 0.45 left twice as many tiles face up and no more ships finishing the flight.)
MUST_CABINS = 0.0
#: An abandoned ship is taken only when at least this many humans stay aboard (the crew
#: still has to face slavers, combat zones and epidemics; no humans = out of the flight;
#: level II slavers take 4: 4 until 2026-11-27).
KEEP_HUMANS = 5
#: At pre-launch an alien comes aboard when at least this many humans stay aboard.
ALIEN_HUMANS = 4
#: Levels whose slavers have firepower 7 and 8: the purple alien (+2 firepower) is weighed
#: before the brown one, and comes aboard when at least PURPLE_HUMANS humans stay
#: (2026-11-27, issue 20: most ships out of a level II flight lost their humans to slavers).
PURPLE_FIRST = ("II", "III")
PURPLE_HUMANS = 2
#: Points per unit of what a kind adds, while the ship has less than its target of it.
BASE = {"engine": 3.0, "cannon": 2.5, "cabin": 7.0, "battery": 2.5, "hold": 1.0}
#: A ship's target of each kind: one unit per this many cells of its board, at least FLOOR.
CELLS_PER_UNIT = {"engine": 6.5, "cannon": 4.0, "cabin": 3.0, "battery": 12.0, "hold": 13.0}
FLOOR = {"engine": 2.0, "cannon": 2.0, "cabin": 2.0, "battery": 1.0, "hold": 1.0}
#: Each unit beyond the target is worth this fraction of the one before.
BEYOND = 0.35
#: A shield covering a side not yet covered.
SHIELD_SIDE = {FRONT: 3.0, LEFT: 2.0, RIGHT: 2.0, REAR: 1.0}
JOINT = 0.4  # each joint with the ship (a sturdier ship)
HULL = 0.2  # a smooth side facing space
EXPOSED = 1.6  # each connector facing space (for ever)
ROOM = 4.0  # per whole tile set's worth of change in what the neighbouring cells accept
BLOCK = 4.0  # an engine or cannon that leaves a cell of the board empty for ever
#: While less than ROOMY of the board is built, a placement after which less than OPEN of
#: all tiles could fit the ship anywhere loses up to STUCK (a ship walled in too soon).
ROOMY = 0.75
OPEN = 0.12
STUCK = 5.0
#: Another tile on a cell at the front edge (a cannon's place) or the rear edge (an
#: engine's), times how far the ship is from its target of cannons or engines.
SPOT = 3.0
#: While less than ROOMY of the board is built, each empty cell a tile could still go on
#: below PORTS that a placement takes away costs PORT_LOST.
PORTS = 4
PORT_LOST = 2.0

#: The flight questions :func:`_flight` knows (any other: the first option but "retire").
FLIGHT_KINDS = (
    "hazard",
    "goods",
    "engines",
    "cannons",
    "crew",
    "keep",
    "take",
    "reward",
    "planet",
)

Key = tuple[str | None, str | None, str | None, str | None]


@cache
def _pool() -> tuple[int, ...]:
    return tuple(regular_tile_ids())


@cache
def fit_mask(key: Key) -> int:
    """The tiles (bits over :func:`_pool`) that fit, in some rotation, a cell whose
    neighbours show ``key`` (per direction: the connector the neighbour turns to the cell,
    or None for no neighbour) — the rule of :func:`rules.galaxy_trucker.ship.fits`."""
    mask = 0
    for i, tid in enumerate(_pool()):
        engine = tile(tid).type == "engine"
        for rot in range(4):
            f = facing(tid, rot)
            if f is not None and ((engine and f != REAR) or key[f] is not None):
                continue
            joints = [sh.joint(side(tid, rot, d), c) for d, c in enumerate(key) if c is not None]
            if "ok" in joints and "bad" not in joints:
                mask |= 1 << i
                break
    return mask


def cell_mask(ship: sh.Ship, cell: sh.Cell, board: frozenset[sh.Cell]) -> int:
    """The tiles (bits over :func:`_pool`) that could still go on the empty ``cell`` (none
    when it is off the board, taken, behind an exhaust or in front of a barrel)."""
    if cell not in board or cell in ship:
        return 0
    key: list[str | None] = [None] * 4
    for d in range(4):
        other = sh.neighbour(cell, d)
        if other in ship:
            tid, rot = ship[other]
            if facing(tid, rot) == (d + 2) % 4:
                return 0
            key[d] = side(tid, rot, (d + 2) % 4)
    return fit_mask((key[0], key[1], key[2], key[3]))


def share(mask: int) -> float:
    """The share of all tiles in ``mask``."""
    return mask.bit_count() / len(_pool())


def fit_any(ship: sh.Ship, board: frozenset[sh.Cell]) -> int:
    """The tiles (bits over :func:`_pool`) that would fit the ship somewhere."""
    mask = 0
    for cell in sh.free_cells(ship, board):
        mask |= cell_mask(ship, cell, board)
    return mask


def fit_chance(ship: sh.Ship, board: frozenset[sh.Cell]) -> float:
    """The share of all tiles that would fit the ship somewhere (a draw's chance to fit)."""
    return share(fit_any(ship, board))


@dataclass
class Yard:
    """What the bot knows about its ship while it weighs placements (once per move)."""

    ship: sh.Ship
    board: frozenset[sh.Cell]
    start: sh.Cell
    target: dict[str, float]
    have: dict[str, float] = field(default_factory=dict)
    shields: set[int] = field(default_factory=set)
    life: set[str] = field(default_factory=set)
    singles: int = 0
    doubles: int = 0
    masks: dict[sh.Cell, int] = field(default_factory=dict)
    free: list[sh.Cell] = field(default_factory=list)
    chance: float = 0.0  # fit_chance of the ship as it is

    def need(self, kind: str) -> float:
        """How far the ship is from its target of ``kind`` (1 = has none, 0 = enough)."""
        return max(0.0, 1.0 - self.have.get(kind, 0.0) / self.target[kind])

    def mask(self, cell: sh.Cell) -> int:
        """:func:`cell_mask` of the ship as it is (cached)."""
        if cell not in self.masks:
            self.masks[cell] = cell_mask(self.ship, cell, self.board)
        return self.masks[cell]

    def fill(self, cell: sh.Cell) -> float:
        return share(self.mask(cell))

    def chance_with(self, cell: sh.Cell) -> float:
        """:func:`fit_chance` once a tile is on ``cell`` (already put in ``ship``): only the
        cells next to it change."""
        near = {sh.neighbour(cell, d) for d in range(4)}
        mask = 0
        for c in self.free:
            if c != cell and c not in near:
                mask |= self.mask(c)
        for c in near:
            mask |= cell_mask(self.ship, c, self.board)
        return share(mask)

    def ports(self) -> int:
        """The empty cells some tile could still go on (the ship as it is)."""
        return sum(1 for c in self.free if self.mask(c))

    def ports_with(self, cell: sh.Cell) -> int:
        """:meth:`ports` once a tile is on ``cell`` (already put in ``ship``)."""
        near = {sh.neighbour(cell, d) for d in range(4)}
        n = sum(1 for c in self.free if c != cell and c not in near and self.mask(c))
        return n + sum(1 for c in near if cell_mask(self.ship, c, self.board))


def targets(cells: int) -> dict[str, float]:
    """How much of each kind a ship of ``cells`` board cells should have (power units)."""
    return {k: max(FLOOR[k], (cells - 1) / per) for k, per in CELLS_PER_UNIT.items()}


def units(tid: int, rot: int) -> tuple[str, float]:
    """The kind of power a tile adds and how much (doubles count less: they need batteries;
    a cannon not facing the front counts half)."""
    t = tile(tid)
    if t.type == "engine":
        return "engine", 1.5 if t.double else 1.0
    if t.type == "cannon":
        u = 1.5 if t.double else 1.0
        return "cannon", u if facing(tid, rot) == FRONT else u / 2
    if t.type == "cabin":
        return "cabin", 1.0
    if t.type == "battery":
        return "battery", t.capacity / 2
    if t.type == "cargo_hold":
        return "hold", t.capacity / 2 * (1.3 if t.red else 1.0)
    return t.type, 0.0


def yard_of(s: dict[str, Any], ship: sh.Ship) -> Yard:
    board = board_cells(board_of(s))
    y = Yard(ship, board, start_cell(board_of(s)), targets(len(board)))
    y.free = sh.free_cells(ship, board)
    y.chance = share(fit_any(ship, board))
    for _cell, (tid, rot) in ship.items():
        t = tile(tid)
        kind, u = units(tid, rot)
        y.have[kind] = y.have.get(kind, 0.0) + u
        if t.type == "shield":
            y.shields |= {(FRONT + rot) % 4, (RIGHT + rot) % 4}
        elif t.type == "life_support" and t.alien:
            y.life.add(t.alien)
        elif t.type == "engine" and not t.double:
            y.singles += 1
        if t.double:
            y.doubles += 1
    y.target["battery"] += y.doubles / 2
    return y


def worth(y: Yard, kind: str, u: float) -> float:
    """What ``u`` more units of ``kind`` are worth to this ship (diminishing past target)."""
    x, target = y.have.get(kind, 0.0), y.target.get(kind, 0.0)
    base = BASE.get(kind, 0.0)
    out = 0.0
    while u > 1e-9:
        part = min(0.5, u)
        out += base * part * (1.0 if x < target else BEYOND ** (1 + int(x - target)))
        x += part
        u -= part
    return out


def tile_worth(y: Yard, cell: sh.Cell, tid: int, rot: int) -> float:
    """What the tile adds to the ship, placed turned ``rot`` at ``cell`` (position aside)."""
    t = tile(tid)
    kind, u = units(tid, rot)
    value = worth(y, kind, u)
    if t.type == "engine":
        if y.singles == 0 and not t.double:
            value += 1.5  # never 0 engine power in open space
        if t.double and y.have.get("battery", 0.0) < 1:
            value -= 1.0
    elif t.type == "cannon" and facing(tid, rot) == REAR:
        value -= 1.0
    elif t.type == "shield":
        new = {(FRONT + rot) % 4, (RIGHT + rot) % 4} - y.shields
        value = sum(SHIELD_SIDE[d] for d in new) or 0.3
    elif t.type == "life_support":
        first = t.alien not in y.life
        joined = first and _joins(y, cell, tid, rot, "cabin")
        value = (1.5 if first else 0.3) + (1.5 if joined else 0.0)
    elif t.type == "cabin":
        if _joins(y, cell, tid, rot, "life_support"):
            value += 1.0
    elif t.type == "structural":
        value = 0.3
    return value


def _joins(y: Yard, cell: sh.Cell, tid: int, rot: int, kind: str) -> bool:
    for d in range(4):
        other = sh.neighbour(cell, d)
        if other in y.ship and sh.side(tid, rot, d) != sh.NONE:
            t2, r2 = y.ship[other]
            if tile(t2).type == kind and sh.side(t2, r2, (d + 2) % 4) != sh.NONE:
                return True
    return False


def _blocked(y: Yard, cell: sh.Cell) -> bool:
    """Is the empty ``cell`` behind an exhaust or in front of a barrel already?"""
    for d in range(4):
        other = sh.neighbour(cell, d)
        if other in y.ship and facing(*y.ship[other]) == (d + 2) % 4:
            return True
    return False


def placement_score(y: Yard, cell: sh.Cell, tid: int, rot: int) -> float | None:
    """How good it is to put ``tid`` turned ``rot`` at ``cell`` (None = breaks a rule)."""
    if y.fill(cell) == 0.0 or not sh.fits(y.ship, cell, tid, rot):
        return None
    t = tile(tid)
    score = tile_worth(y, cell, tid, rot)
    f = facing(tid, rot)
    near = [sh.neighbour(cell, d) for d in range(4)]
    before = [y.fill(c) for c in near]  # (cached: the ship as it is)
    walled = [_blocked(y, c) for c in near]
    y.ship[cell] = (tid, rot)
    try:
        for d in range(4):
            other = sh.neighbour(cell, d)
            mine = sh.side(tid, rot, d)
            if other in y.ship:
                if mine != sh.NONE:
                    score += JOINT
            elif other in y.board:
                after = 0.0 if f == d else share(cell_mask(y.ship, other, y.board))
                score += ROOM * (after - before[d])
                if f == d and not walled[d]:
                    score -= BLOCK
            elif mine != sh.NONE:
                score -= EXPOSED
            else:
                score += HULL
        if len(y.ship) < ROOMY * len(y.board):  # (only what this placement makes worse)
            now, after = max(0.0, OPEN - y.chance), max(0.0, OPEN - y.chance_with(cell))
            score -= STUCK * (after - now) / OPEN
            if PORTS:
                lost = max(0, PORTS - y.ports_with(cell)) - max(0, PORTS - y.ports())
                score -= PORT_LOST * lost
    finally:
        del y.ship[cell]
    r = cell[0] - y.start[0]
    if t.type == "engine":
        score += 1.0 * r
    elif t.type == "cannon" and f == FRONT:
        score -= 0.8 * r
    elif t.type == "cabin":
        score += 0.3 * sum(1 for d in range(4) if sh.neighbour(cell, d) in y.ship)
    if sh.neighbour(cell, FRONT) not in y.board and not (t.type == "cannon" and f == FRONT):
        score -= SPOT * y.need("cannon")
    if sh.neighbour(cell, REAR) not in y.board and t.type != "engine":
        score -= SPOT * y.need("engine")
    return score


def best_placement(y: Yard, tid: int) -> tuple[float, sh.Cell, int] | None:
    """The best (score, cell, rotation) for ``tid`` on the ship, or None if it fits nowhere
    (at most 4 evaluations per free cell)."""
    best: tuple[float, sh.Cell, int] | None = None
    for cell in y.free:
        for rot in range(4):
            sc = placement_score(y, cell, tid, rot)
            if sc is not None and (best is None or sc > best[0]):
                best = (sc, cell, rot)
    return best


def place_min(y: Yard) -> float:
    """The score a placement needs (more as the board fills up)."""
    return PLACE_MIN + PLACE_FULL * len(y.ship) / len(y.board)


def ready(y: Yard) -> bool:
    """Has the ship what it needs to fly (engines, cannons, crew, a battery)?"""
    need = {"engine": 0.6, "cannon": 0.6, "cabin": 0.6, "battery": 0.5}
    return y.singles > 0 and all(y.have.get(k, 0.0) >= f * y.target[k] for k, f in need.items())


@cache
def kind_mask(kind: str) -> int:
    """The tiles of a type, as bits over :func:`_pool`."""
    return sum(1 << i for i, tid in enumerate(_pool()) if tile(tid).type == kind)


def lacking(y: Yard, mask: int) -> bool:
    """Does the ship lack something it cannot fly well without (a single engine, a cannon,
    enough cabins) that some tile could still bring (``mask``: the tiles that fit)?"""
    if y.singles == 0 and mask & kind_mask("engine"):
        return True
    if y.have.get("cannon", 0.0) < 1 and mask & kind_mask("cannon"):
        return True
    return y.have.get("cabin", 0.0) < MUST_CABINS * y.target["cabin"] and bool(
        mask & kind_mask("cabin")
    )


def finished(s: dict[str, Any], p: dict[str, Any], y: Yard) -> bool:
    """Is the bot done building (with an empty hand and nothing of its reserve to place)?"""
    if p["step"] >= MAX_STEPS:
        return True
    mask = fit_any(y.ship, y.board)
    budget = STEPS_PER_TILE * len(y.ship) + SPARE_STEPS
    if lacking(y, mask) and p["step"] < 2 * budget:
        return False
    if p["step"] >= budget:
        return True
    chance = mask.bit_count() / len(_pool())
    if chance < FIT_GIVE_UP:
        return True
    fill_rate = len(y.ship) / len(y.board)
    last_sand = s["hg"]["runs"] and s["hg"]["run"] >= s["hg"]["runs"]
    return ready(y) and (fill_rate >= 0.85 or chance < FIT_DONE or bool(last_sand))


def choose(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    decision = next(d for d in pending_of(s) if d.seat == seat)
    ids = [o.id for o in decision.options]
    if s["phase"] == "flight":
        return _flight(s, seat, ids)
    if s["phase"] == "prelaunch":
        return _prelaunch(s, seat, ids)
    if "flip" in ids:
        return "flip"
    p = s["players"][seat]
    if p["peek"] is not None:
        return "unpeek"
    y = yard_of(s, sh.load(p["ship"]))
    if p["hand"] is not None:
        return _with_hand(s, y, p, ids)
    if p["step"] >= MAX_STEPS:
        return "done"
    for opt_id in ids:
        if opt_id.startswith("use."):
            tid = int(opt_id[4:])
            found = best_placement(y, tid)
            good = found is not None and (_first_engine(y, tid) or found[0] >= place_min(y))
            if found is not None and good and not _wait(y, tid, found):
                return opt_id
    if finished(s, p, y):
        # a tile left in the reserve is lost (-1 credit): anywhere legal beats that
        for opt_id in ids:
            if opt_id.startswith("use.") and best_placement(y, int(opt_id[4:])) is not None:
                return opt_id
        return "done"
    floor = max(TAKE_MIN, place_min(y)) if "draw" in ids else place_min(y)
    best_take: tuple[float, str] | None = None
    for opt_id in ids:
        if opt_id.startswith("take."):
            found = best_placement(y, int(opt_id[5:]))
            if found and found[0] >= floor and (best_take is None or found[0] > best_take[0]):
                best_take = (found[0], opt_id)
    if best_take is not None:
        return best_take[1]
    if "draw" in ids:
        return "draw"
    return "done"


def _wait(y: Yard, tid: int, found: tuple[float, sh.Cell, int]) -> bool:
    """Should an engine or cannon whose best place would wall in a cell of the board wait in
    the reserve for a better one (the ship is still growing towards the edges)?"""
    _, cell, rot = found
    f = facing(tid, rot)
    if _first_engine(y, tid):
        return False  # the first single engine goes aboard: its places may all close up
    return (
        f is not None and sh.neighbour(cell, f) in y.board and len(y.ship) < PATIENT * len(y.board)
    )


def _first_engine(y: Yard, tid: int) -> bool:
    """Is ``tid`` a single engine, the ship without one and already half built? It goes
    aboard wherever it fits best, at once: waiting longer for a place on the edge, the ship
    may close up every place an engine could take, and a ship without engine power leaves
    the flight at the first open space."""
    return (
        y.singles == 0
        and tile(tid).type == "engine"
        and not tile(tid).double
        and len(y.ship) >= FIRST_ENGINE * len(y.board)
    )


def _with_hand(s: dict[str, Any], y: Yard, p: dict[str, Any], ids: list[str]) -> str:
    tid = p["hand"]
    found = best_placement(y, tid)
    if found is not None and p["src"] == "reserve" and finished(s, p, y):
        _, cell, rot = found  # building is over for this bot: the reserve tile goes aboard
        return "rot" if rot != p["rot"] else f"place.{cell[0]}.{cell[1]}"
    if found is not None and (_first_engine(y, tid) or found[0] >= place_min(y)):
        if _wait(y, tid, found) and ("reserve" in ids or "back" in ids):
            return "reserve" if "reserve" in ids else "back"
        _, cell, rot = found
        if rot != p["rot"]:
            return "rot"
        return f"place.{cell[0]}.{cell[1]}"
    if "back" in ids:
        return "back"
    kind, u = units(tid, 0)
    first_engine = kind == "engine" and not tile(tid).double and y.singles == 0
    if "reserve" in ids and (first_engine or worth(y, kind, max(u, 1.0)) >= RESERVE_MIN):
        return "reserve"
    return "return" if "return" in ids else "reserve"


def _prelaunch(s: dict[str, Any], seat: int, ids: list[str]) -> str:
    """Fix it for me; an alien when at least ALIEN_HUMANS humans stay aboard; at the levels
    of PURPLE_FIRST the purple alien (firepower) before the brown one, and when at least
    PURPLE_HUMANS humans stay."""
    if "fix" in ids:
        return "fix"
    aliens = [i for i in ids if i.startswith("alien.")]
    if aliens:
        p = s["players"][seat]
        cabins = sum(
            1 for t, _ in p["ship"].values() if tile(t).type in ("cabin", "starting_cabin")
        )
        taken = sum(1 for v in p["aliens"].values() if v)
        humans = 2 * (cabins - taken - 1)  # (once this alien is aboard)
        if s["level"] in PURPLE_FIRST:
            if aliens[0].startswith("alien.purple"):
                return aliens[0] if humans >= PURPLE_HUMANS else "noalien"
            purple = "purple" not in p["aliens"] and _alien_cabins(s, seat, "purple")
            if purple and humans - 2 < ALIEN_HUMANS:
                return "noalien"  # (a brown alien now would leave no room for the purple)
        if humans >= ALIEN_HUMANS:
            return aliens[0]
    return "noalien" if "noalien" in ids else ids[0]


def _flight(s: dict[str, Any], seat: int, ids: list[str]) -> str:
    """Full power, every reward except a crew trade that would leave fewer than 3 aboard,
    the free planet that adds the most to the goods the holds carry (:func:`load_gain`),
    and the biggest part of a broken ship."""
    f = s["flight"]
    kind = (f.get("ask") or {}).get("kind")
    if kind not in FLIGHT_KINDS:  # a question this bot does not know: never retire
        return next((i for i in ids if i != "retire"), ids[0])
    if kind == "hazard":  # a battery spent beats a lost tile (R14's tile pays)
        return "def"
    if kind == "goods":  # the most valuable goods that fit (R16)
        return "auto"
    if kind in ("engines", "cannons"):
        powers = sorted((i for i in ids if i.startswith("pow.")), key=lambda i: int(i[4:]))
        enemy = f["ask"].get("enemy")
        if kind == "cannons" and enemy is not None and powers:
            return _against(s, seat, powers, enemy)
        if kind == "engines" and len(powers) > 1 and _battery_bound(s, seat):
            return powers[1]  # (one battery: the next open space needs one too)
        return powers[-1]
    if kind == "crew":  # humans from the fullest cabin; aliens last, but before the last human
        p = s["players"][seat]
        aliens = {v for v in p["aliens"].values() if v}
        cells = [i[5:] for i in ids]
        humans = [k for k in cells if k not in aliens]
        left = int(f["ask"].get("left", 1))
        if not humans or (sum(p["crew"].values()) <= left and len(humans) < len(cells)):
            return f"crew.{next(k for k in cells if k in aliens or not humans)}"
        pick = max(humans, key=lambda k: p["crew"].get(k, 0))
        return f"crew.{pick}"
    if kind == "keep":  # a part with humans and an engine, the most crew, the biggest
        p = s["players"][seat]
        alien_cells = {v for v in p["aliens"].values() if v}
        ship = sh.load(p["ship"])

        def rank(part: set[sh.Cell]) -> tuple[bool, bool, int, int]:
            keys = {sh.key(c) for c in part}
            humans = sum(v for k, v in p["crew"].items() if k in keys)
            engine = any(tile(ship[c][0]).type == "engine" for c in part)
            return humans > 0, engine, humans + len(keys & alien_cells), len(part)

        best = max(sh.parts(ship), key=rank)
        cell = min(best)
        return f"keep.{cell[0]}.{cell[1]}"
    card = cards()[f["card"]]
    if kind == "take":
        p = s["players"][seat]
        humans = sum(p["crew"].values())
        if card["type"] == "abandoned_ship" and humans - card["crew_lost"] < KEEP_HUMANS:
            return "pass"
        return "take"
    if kind == "reward":
        return "take"
    planets = [i for i in ids if i.startswith("planet.")]
    gains = {i: load_gain(s, seat, card["planets"][int(i[7:])]) for i in planets}
    if not planets or max(gains.values()) <= 0:
        return "pass"  # (landing where nothing fits only costs days)
    return max(planets, key=lambda i: gains[i])


def load_gain(s: dict[str, Any], seat: int, new: list[str]) -> int:
    """What loading ``new`` the automatic way (R16) adds to the value of the goods aboard:
    only what the holds can carry counts (red goods need a red hold)."""
    pool = gd.goods_pool(s, seat, new)
    colour = dict(pool)
    kept = gd.best_goods(pool, gd._holds(sh.load(s["players"][seat]["ship"])))
    aboard = sum(fl.GOODS_VALUE[g] for oid, g in pool if oid.startswith("a."))
    return sum(fl.GOODS_VALUE[colour[oid]] for oid in kept) - aboard


def _battery_bound(s: dict[str, Any], seat: int) -> bool:
    """In open space, does the ship move only on batteries (no single engine power)? Then
    it powers one double engine, not all: with its batteries spent, the next open space
    would leave it without engine power, out of the flight."""
    if cards()[s["flight"]["card"]]["type"] != "open_space":
        return False
    p = s["players"][seat]
    aliens = {c: (sh.unkey(v) if v else None) for c, v in p["aliens"].items()}
    return fl.engine_power(sh.load(p["ship"]), aliens, 0) == 0


def _against(s: dict[str, Any], seat: int, powers: list[str], enemy: int) -> str:
    """Against an enemy: the fewest double cannons that beat it, else that tie with it,
    else none (a battery spent on a lost fight is wasted)."""
    p = s["players"][seat]
    ship = sh.load(p["ship"])
    aliens = {c: (sh.unkey(v) if v else None) for c, v in p["aliens"].items()}
    tie = None
    for opt_id in powers:
        fp = fl.firepower(ship, aliens, int(opt_id[4:]))
        if fp > enemy:
            return opt_id
        if fp == enemy and tie is None:
            tie = opt_id
    return tie or powers[0]
