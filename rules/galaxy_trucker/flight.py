"""Flight helpers: the pure pieces the adventure cards are resolved with (``adventure.py``
plays the cards with them); tested in ``tests/rules/test_galaxy_trucker_flight.py``.

Positions are absolute spaces on the flight track (they may pass the track's length; the
physical space is ``position % track``). Ships are ``{(row, col): (tile, rot)}`` as in
:mod:`rules.galaxy_trucker.ship`; ``aliens`` maps a colour to the cell of its cabin.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from . import ship as sh
from .tiles import FRONT, LEFT, REAR, RIGHT, facing, tile

Positions = Mapping[int, int]
#: Hazard directions by name, as the cards write them.
FROM = {"front": FRONT, "right": RIGHT, "rear": REAR, "left": LEFT}


# --------------------------------------------------------------------------- the track


def flight_order(positions: Positions) -> list[int]:
    """Seats in flight order: the leader (furthest ahead) first."""
    return sorted(positions, key=lambda seat: -positions[seat])


def move(positions: Positions, seat: int, days: int, track: int) -> int:
    """The new position of ``seat`` after ``days`` forward (or back, when negative),
    counting only empty spaces: spaces holding another rocket are skipped, not counted."""
    taken = {p % track for s, p in positions.items() if s != seat}
    pos = positions[seat]
    step = 1 if days > 0 else -1
    left = abs(days)
    while left:
        pos += step
        if pos % track not in taken:
            left -= 1
    return pos


def lapped(positions: Positions, track: int) -> list[int]:
    """Seats the leader is a full lap ahead of (they must retire after the card)."""
    if not positions:
        return []
    lead = max(positions.values())
    return sorted(s for s, p in positions.items() if lead - p > track)


# --------------------------------------------------------------------------- power


def _of_type(ship: sh.Ship, kind: str) -> list[tuple[sh.Cell, int, int]]:
    return [(c, t, r) for c, (t, r) in sorted(ship.items()) if tile(t).type == kind]


def engine_power(ship: sh.Ship, aliens: Mapping[str, sh.Cell | None], doubles: int = 0) -> int:
    """Engine power with ``doubles`` double engines powered (one battery each): single
    engines 1, powered doubles 2, and the brown alien +2 when the power is above 0."""
    engines = _of_type(ship, "engine")
    singles = sum(1 for _, t, _ in engines if not tile(t).double)
    n_doubles = sum(1 for _, t, _ in engines if tile(t).double)
    power = singles + 2 * min(doubles, n_doubles)
    if power > 0 and aliens.get("brown") in ship:
        power += 2
    return power


def firepower(ship: sh.Ship, aliens: Mapping[str, sh.Cell | None], doubles: int = 0) -> Fraction:
    """Firepower with the ``doubles`` best double cannons powered: a cannon counts double
    facing the front (single 1, double 2) and half otherwise; the purple alien +2 when the
    firepower is above 0. Returned as a Fraction (halves are real)."""
    cannons = _of_type(ship, "cannon")
    power = Fraction(0)
    double_values = []
    for _, t, r in cannons:
        value = Fraction(2 if tile(t).double else 1)
        if facing(t, r) != FRONT:
            value /= 2
        if tile(t).double:
            double_values.append(value)
        else:
            power += value
    double_values.sort(reverse=True)
    power += sum(double_values[:doubles], Fraction(0))
    if power > 0 and aliens.get("purple") in ship:
        power += 2
    return power


def double_count(ship: sh.Ship, kind: str) -> int:
    return sum(1 for _, t, _ in _of_type(ship, kind) if tile(t).double)


def battery_total(batteries: Mapping[sh.Cell, int]) -> int:
    return sum(batteries.values())


def crew_total(crew: Mapping[sh.Cell, int], aliens: Mapping[str, sh.Cell | None]) -> int:
    return sum(crew.values()) + sum(1 for c in aliens.values() if c is not None)


# --------------------------------------------------------------------------- hazards


def hazard_line(ship: sh.Ship, direction: int, line: int) -> list[sh.Cell]:
    """The ship's tiles on row/column ``line``, in the order a hazard from ``direction``
    meets them (front/rear hazards use the roll as a column, left/right as a row)."""
    if direction in (FRONT, REAR):
        cells = sorted(c for c in ship if c[1] == line)
        return cells if direction == FRONT else cells[::-1]
    cells = sorted((c for c in ship if c[0] == line), key=lambda c: c[1])
    return cells if direction == LEFT else cells[::-1]


def first_hit(ship: sh.Ship, direction: int, line: int) -> sh.Cell | None:
    """The tile a meteor or shot from ``direction`` along ``line`` hits, or None (a miss)."""
    cells = hazard_line(ship, direction, line)
    return cells[0] if cells else None


def shielded_sides(ship: sh.Ship) -> set[int]:
    """Directions covered by at least one shield generator (printed top and right, turned
    with the tile). A powered shield protects the whole ship on that side."""
    out: set[int] = set()
    for _, _t, r in _of_type(ship, "shield"):
        out |= {(FRONT + r) % 4, (RIGHT + r) % 4}
    return out


def exposed_towards(ship: sh.Ship, cell: sh.Cell, direction: int) -> bool:
    """Does the tile at ``cell`` show a connector on the side facing ``direction``? (A small
    meteor bounces off a smooth side.)"""
    t, r = ship[cell]
    return sh.side(t, r, direction) != sh.NONE


def cannons_against_large(ship: sh.Ship, direction: int, line: int) -> list[sh.Cell]:
    """Cannons that can shoot a large meteor from ``direction`` along ``line``: from the
    front only a cannon facing front in that column; from a side or the rear, a cannon
    facing that way in that line or an adjacent one."""
    lines = {line} if direction == FRONT else {line - 1, line, line + 1}
    out = []
    for cell, t, r in _of_type(ship, "cannon"):
        if facing(t, r) != direction:
            continue
        on = cell[1] if direction in (FRONT, REAR) else cell[0]
        if on in lines:
            out.append(cell)
    return out


def destroy(ship: sh.Ship, cell: sh.Cell) -> tuple[sh.Ship, list[set[sh.Cell]]]:
    """Remove the tile at ``cell``; return the rest and its parts (more than one part means
    the owner chooses which one to keep, with :func:`rules.galaxy_trucker.ship.keep_part`)."""
    rest = {c: v for c, v in ship.items() if c != cell}
    return rest, sh.parts(rest)


# --------------------------------------------------------------------------- scoring


GOODS_VALUE = {"red": 4, "yellow": 3, "green": 2, "blue": 1}


def goods_value(goods: Mapping[sh.Cell, list[str]], retired: bool) -> int:
    """Credits for the goods aboard: full price, or half (rounded up, on the total) for a
    retired ship."""
    total = sum(GOODS_VALUE[g] for cargo in goods.values() for g in cargo)
    return (total + 1) // 2 if retired else total
