"""Ship geometry: joints, the pre-launch check, parts of a split ship, "fix it for me",
exposed connectors and the cells where a tile may go.

A ship here is a mapping ``{(row, column): (tile id, rotation)}``; the state stores it as
``{"row.column": [tile id, rotation]}`` (see :func:`load` / :func:`dump`).

Two neighbouring tiles are **joined** when both facing sides carry a connector; a joint is
**legal** when the connectors match (single-single, double-double, universal-any). A
connector facing a smooth side is an illegal joint that does not join. Two smooth sides may
touch. Parts of a ship are the groups of tiles joined to each other (rulings R9, R10).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from .tiles import FRONT, NONE, REAR, STEP, UNIVERSAL, facing, side, tile

__all__ = ["FRONT", "NONE", "REAR", "facing", "side"]

Cell = tuple[int, int]
Ship = dict[Cell, tuple[int, int]]

#: Nodes the exact "fix it for me" search may visit before keeping its best so far.
FIX_BUDGET = 4000


def key(cell: Cell) -> str:
    return f"{cell[0]}.{cell[1]}"


@lru_cache(maxsize=1024)
def unkey(k: str) -> Cell:
    """The cell of a key ``"row.col"`` (the same few keys come again and again: cached)."""
    r, c = k.split(".")
    return int(r), int(c)


def load(d: Mapping[str, Any]) -> Ship:
    return {unkey(k): (int(v[0]), int(v[1])) for k, v in d.items()}


def dump(ship: Ship) -> dict[str, list[int]]:
    return {key(c): [t, r] for c, (t, r) in sorted(ship.items())}


def neighbour(cell: Cell, d: int) -> Cell:
    return cell[0] + STEP[d][0], cell[1] + STEP[d][1]


def joint(a: str, b: str) -> str:
    """``"open"`` (two smooth sides), ``"ok"`` (legal joint) or ``"bad"`` (illegal)."""
    if a == NONE and b == NONE:
        return "open"
    if a == NONE or b == NONE:
        return "bad"
    if UNIVERSAL in (a, b) or a == b:
        return "ok"
    return "bad"


def joined(a: str, b: str) -> bool:
    return a != NONE and b != NONE


def problems(ship: Ship) -> list[tuple[str, tuple[Cell, ...]]]:
    """Everything the pre-launch check refuses, except a split ship (see :func:`parts`).

    Each problem is ``(code, cells)``: removing any one of ``cells`` solves it.
    Codes: ``joint`` (illegal joint between two tiles), ``engine_dir`` (an engine not facing
    the rear), ``engine_blocked`` (a tile in the cell behind an exhaust: engine, tile),
    ``cannon_blocked`` (a tile in the cell in front of a barrel: cannon, tile)."""
    out: list[tuple[str, tuple[Cell, ...]]] = []
    for cell, (tid, rot) in sorted(ship.items()):
        for d in (1, 2):  # right and rear: each pair of neighbours once
            other = neighbour(cell, d)
            if other in ship:
                t2, r2 = ship[other]
                if joint(side(tid, rot, d), side(t2, r2, (d + 2) % 4)) == "bad":
                    out.append(("joint", (cell, other)))
        f = facing(tid, rot)
        if f is None:
            continue
        kind = tile(tid).type
        if kind == "engine" and f != REAR:
            out.append(("engine_dir", (cell,)))
        ahead = neighbour(cell, f)
        if ahead in ship:
            out.append((f"{kind}_blocked", (cell, ahead)))
    return out


def parts(ship: Ship) -> list[set[Cell]]:
    """Groups of joined tiles, largest first (ties: the group with the smallest cell)."""
    seen: set[Cell] = set()
    groups: list[set[Cell]] = []
    for start in sorted(ship):
        if start in seen:
            continue
        group = {start}
        stack = [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            tid, rot = ship[cell]
            for d in range(4):
                other = neighbour(cell, d)
                if other in seen or other not in ship:
                    continue
                t2, r2 = ship[other]
                if joined(side(tid, rot, d), side(t2, r2, (d + 2) % 4)):
                    seen.add(other)
                    group.add(other)
                    stack.append(other)
        groups.append(group)
    groups.sort(key=lambda g: (-len(g), min(g)))
    return groups


def is_valid(ship: Ship) -> bool:
    return not problems(ship) and len(parts(ship)) <= 1


def keep_part(ship: Ship, cell: Cell) -> tuple[Ship, list[int]]:
    """Keep the part holding ``cell``; return the new ship and the tile ids that fell off."""
    for group in parts(ship):
        if cell in group:
            kept = {c: v for c, v in ship.items() if c in group}
            lost = [v[0] for c, v in sorted(ship.items()) if c not in group]
            return kept, lost
    raise KeyError(cell)


def fix_plan(ship: Ship, prefer: Cell | None = None, cabin_first: bool = False) -> set[Cell]:
    """The cells to keep so that the ship is valid with the fewest tiles lost (removed or
    fallen off). With ``cabin_first`` (ruling R11b) the kept part must hold ``prefer`` (the
    starting cabin, as a player would keep the part with the humans), when the ship has it;
    without (R11, rules 1), ties prefer keeping ``prefer``. Then the smallest cells. An
    exact branch and bound over the problems, within :data:`FIX_BUDGET` nodes; past that,
    the best plan found so far (always a valid one)."""
    first = cabin_first and prefer in ship
    best: list[Any] = [(-1, -1, 0, ()), set()]  # [(has_prefer?, size, has_prefer, order), cells]
    nodes = [0]

    def score(cells: set[Cell]) -> tuple[int, int, int, tuple[Cell, ...]]:
        # Higher is better; among equals the lexicographically smaller cells win.
        neg = tuple((-r, -c) for r, c in sorted(cells))
        has = int(prefer in cells)
        return (has if first else 0, len(cells), has, neg)

    def search(sub: Ship) -> None:
        nodes[0] += 1
        for group in parts(sub):
            # what this group (or any part of it) could score at best
            bound = (int(prefer in group) if first else 0, len(group))
            if bound < best[0][:2]:
                continue
            part = {c: v for c, v in sub.items() if c in group}
            probs = problems(part)
            if not probs:
                s = score(group)
                if s > best[0]:
                    best[0], best[1] = s, set(group)
                continue
            if nodes[0] > FIX_BUDGET and best[0][0] >= int(first):
                return
            # Singles first (no choice), else the problem whose tiles are in most problems.
            count: dict[Cell, int] = {}
            for _, cells in probs:
                for c in cells:
                    count[c] = count.get(c, 0) + 1
            _, cells = min(probs, key=lambda p: (len(p[1]), -max(count[c] for c in p[1])))
            for c in sorted(cells, key=lambda c: (-count[c], c)):
                search({k: v for k, v in part.items() if k != c})

    search(dict(ship))
    out: set[Cell] = best[1]
    return out


def exposed(ship: Ship) -> int:
    """Connectors facing an empty cell or the board's edge (holes inside count too)."""
    n = 0
    for (r, c), (tid, rot) in ship.items():
        for dr, dc in _connector_steps(tid, rot):
            if (r + dr, c + dc) not in ship:
                n += 1
    return n


@cache
def _connector_steps(tid: int, rot: int) -> tuple[tuple[int, int], ...]:
    """The steps towards the sides of tile ``tid`` (turned ``rot``) that carry a connector."""
    return tuple(STEP[d] for d in range(4) if side(tid, rot, d) != NONE)


def free_cells(ship: Ship, board: Iterable[Cell]) -> list[Cell]:
    """Empty board cells next to at least one tile: where a tile may be placed (R5)."""
    out = []
    for cell in sorted(board):
        if cell in ship:
            continue
        r, c = cell
        if (r - 1, c) in ship or (r, c + 1) in ship or (r + 1, c) in ship or (r, c - 1) in ship:
            out.append(cell)
    return out


def fits(ship: Ship, cell: Cell, tid: int, rot: int) -> bool:
    """Would the tile at ``cell`` break no rule with the tiles already there? (The bot's
    test: every joint legal, at least one joint, engine to the rear, no tile in front of a
    barrel or behind an exhaust, and not in front of a barrel or behind an exhaust.)"""
    any_joint = False
    r, c = cell
    for d, (dr, dc) in enumerate(STEP):
        other = (r + dr, c + dc)
        if other not in ship:
            continue
        t2, r2 = ship[other]
        mine, theirs = side(tid, rot, d), side(t2, r2, (d + 2) % 4)
        j = joint(mine, theirs)
        if j == "bad":
            return False
        any_joint = any_joint or j == "ok"
        f2 = facing(t2, r2)
        if f2 is not None and f2 == (d + 2) % 4:
            return False  # we would sit in front of its barrel / behind its exhaust
    f = facing(tid, rot)
    if f is not None:
        if tile(tid).type == "engine" and f != REAR:
            return False
        if neighbour(cell, f) in ship:
            return False
    return any_joint
