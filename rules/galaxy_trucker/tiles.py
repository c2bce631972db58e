"""Component tiles and board data of Galaxy Trucker (2nd edition), read once from
``data/galaxy_trucker/``.

A tile is placed with a rotation ``rot`` in quarter turns clockwise (0-3). Directions are
numbered ``0`` front (top of the board), ``1`` right, ``2`` rear, ``3`` left. The printed
side that ends up facing direction ``d`` is ``(d - rot) % 4``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.kit import load_json

GAME = "galaxy_trucker"

FRONT, RIGHT, REAR, LEFT = 0, 1, 2, 3
#: (row step, column step) of each direction; rows grow towards the rear.
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))
NONE, SINGLE, DOUBLE, UNIVERSAL = "0", "1", "2", "U"

#: Starting cabin tile id of each seat (blue, green, red, yellow).
START_CABINS = (33, 34, 52, 61)


@dataclass(frozen=True)
class Tile:
    id: int
    type: str
    sides: str  # four connector characters, top right bottom left, as printed
    capacity: int = 0
    red: bool = False
    double: bool = False
    alien: str | None = None
    color: str | None = None

    @property
    def kind(self) -> str:
        """A short kind name used in i18n keys (``opt.take.<kind>``, ``tile.<kind>``)."""
        t = self.type
        if t in ("engine", "cannon"):
            return t + ("2" if self.double else "")
        if t == "cargo_hold":
            return "red_hold" if self.red else "hold"
        if t == "life_support":
            return f"life_{self.alien}"
        return t


@cache
def tiles() -> dict[int, Tile]:
    out: dict[int, Tile] = {}
    for t in load_json(GAME, "tiles.json")["tiles"]:
        out[t["id"]] = Tile(
            id=t["id"],
            type=t["type"],
            sides=t["sides"],
            capacity=t.get("capacity", 0),
            red=t.get("red", False),
            double=t.get("double", False),
            alien=t.get("alien"),
            color=t.get("color"),
        )
    return out


def tile(tid: int) -> Tile:
    return tiles()[tid]


@cache
def side(tid: int, rot: int, d: int) -> str:
    """The connector of tile ``tid`` placed with ``rot`` that faces direction ``d``."""
    return tiles()[tid].sides[(d - rot) % 4]


def sides_now(tid: int, rot: int) -> str:
    """The four connectors front, right, rear, left once rotated (for labels)."""
    return "".join(side(tid, rot, d) for d in range(4))


@cache
def facing(tid: int, rot: int) -> int | None:
    """Where a cannon fires or an engine's exhaust points, else None (fixed data: cached)."""
    t = tiles()[tid]
    if t.type == "cannon":
        return rot % 4
    if t.type == "engine":
        return (REAR + rot) % 4
    return None


def regular_tile_ids() -> list[int]:
    """Every tile of the shared pool (all but the starting cabins), in id order."""
    return [i for i, t in tiles().items() if t.type != "starting_cabin"]


def data() -> dict[str, Any]:
    out: dict[str, Any] = load_json(GAME, "boards.json")
    return out


def level(name: str) -> dict[str, Any]:
    out: dict[str, Any] = data()["levels"][name]
    return out


@cache
def board_cells(board: str) -> frozenset[tuple[int, int]]:
    rows = data()["boards"][board]["rows"]
    return frozenset((int(r), c) for r, cols in rows.items() for c in cols)


def board_frame(board: str) -> tuple[int, int, int, int]:
    """(first row, first column, rows, columns) of the printed board, for grids."""
    b = data()["boards"][board]
    r0, r1 = b["printed_rows"]
    c0, c1 = b["printed_columns"]
    return r0, c0, r1 - r0 + 1, c1 - c0 + 1


def start_cell(board: str) -> tuple[int, int]:
    r, c = data()["boards"][board]["start"]
    return int(r), int(c)


def cards() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in load_json(GAME, "cards.json")["cards"]}
