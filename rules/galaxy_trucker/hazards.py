"""Galaxy Trucker in flight: dice and hazards — meteors and cannon fire ship by ship, the
parts they destroy, a ship that breaks apart, and sabotage."""

from __future__ import annotations

from typing import Any

from core.contract import Event
from rules.kit import rng

from . import flight as fl
from . import ship as sh
from .building import GAME, ev
from .crew import _answer, _ask, _card_done, batteries, crew_total, flying, pay, ship_of
from .tiles import side, tile


def _prune(s: dict[str, Any], seat: int, events: list[Event]) -> None:
    """Contents of tiles that are gone go with them; an alien without life support too."""
    p = s["players"][seat]
    ship = ship_of(s, seat)
    keys = {sh.key(c) for c in ship}
    for name in ("crew", "batteries", "goods"):
        for k in [k for k in p[name] if k not in keys]:
            if name == "goods":
                for g in p[name][k]:
                    s["flight"]["bank"][g] += 1
            del p[name][k]
    for colour, k in list(p["aliens"].items()):
        if not k:
            continue
        cell = sh.unkey(k)
        if cell not in ship or not life_supported(ship, cell, colour):
            p["aliens"][colour] = None
            events.append(ev(f"alien_lost_{colour}", seat))


def life_supported(ship: sh.Ship, cell: sh.Cell, colour: str) -> bool:
    """Whether the tile at ``cell`` is joined to a life support of ``colour``."""
    tid, rot = ship[cell]
    for d in range(4):
        other = sh.neighbour(cell, d)
        if other in ship:
            t2, r2 = ship[other]
            if (
                tile(t2).alien == colour
                and sh.joint(side(tid, rot, d), side(t2, r2, (d + 2) % 4)) == "ok"
            ):
                return True
    return False


def destroy(s: dict[str, Any], seat: int, cell: sh.Cell, events: list[Event]) -> None:
    p = s["players"][seat]
    ship = ship_of(s, seat)
    tid = ship[cell][0]
    rest, parts = fl.destroy(ship, cell)
    p["ship"] = sh.dump(rest)
    p["lost"].append(tid)
    events.append(ev("destroyed", seat, row=cell[0], col=cell[1], tile=tid))
    _prune(s, seat, events)
    if len(parts) > 1 and seat not in s["flight"]["splits"]:
        s["flight"]["splits"].append(seat)


def roll(s: dict[str, Any]) -> int:
    r = rng(s, GAME)
    return r.randint(1, 6) + r.randint(1, 6)


def hazard(s: dict[str, Any], seats: list[int], h: dict[str, str], events: list[Event]) -> None:
    """One meteor or shot, rolled once, for every ship in ``seats`` (in flight order). A
    ship that can defend itself for a battery is asked (R30); the others are resolved at
    once (R14)."""
    line = roll(s)
    events.append(ev(f"hazard_{h['size']}_{h['from']}", reveals=True, line=line))
    order = flying(s)
    seats = sorted(seats, key=lambda x: order.index(x) if x in order else len(order))
    s["flight"]["r"]["hz"] = {"size": h["size"], "from": h["from"], "line": line, "seats": seats}
    _hazard_step(s, events)


def threat(
    s: dict[str, Any], seat: int, size: str, side_from: str, line: int
) -> tuple[str, sh.Cell | None]:
    """What a hazard does to ``seat``'s ship: ``("miss", None)``, ``("bounce", cell)``,
    ``("gun", cell)`` (a single cannon shoots it for free), ``("hit", cell)`` (nothing can
    stop it), or ``("shield", cell)`` / ``("cannon", cell)``: a battery would stop it, the
    player chooses (R30)."""
    ship = ship_of(s, seat)
    direction = fl.FROM[side_from]
    cell = fl.first_hit(ship, direction, line)
    if cell is None:
        return "miss", None
    if size == "small" and not fl.exposed_towards(ship, cell, direction):
        return "bounce", cell
    charged = batteries(s["players"][seat]) > 0
    if size in ("small", "light"):
        if direction in fl.shielded_sides(ship) and charged:
            return "shield", cell
        return "hit", cell
    if size == "large":
        guns = fl.cannons_against_large(ship, direction, line)
        if any(not tile(ship[c][0]).double for c in guns):
            return "gun", cell
        if guns and charged:
            return "cannon", cell
    return "hit", cell


def _hazard_step(s: dict[str, Any], events: list[Event]) -> None:
    """Resolve the open hazard ship by ship; stop at a ship that must choose (R30)."""
    f = s["flight"]
    hz = f["r"]["hz"]
    while hz["seats"]:
        seat = hz["seats"][0]
        what, cell = threat(s, seat, hz["size"], hz["from"], hz["line"])
        if what in ("shield", "cannon"):
            got = _answer(s)
            if got is None:
                assert cell is not None
                _ask(s, seat, "hazard", how=what, cell=sh.key(cell))
                return
            if got == "hit":
                what = "hit"
            else:
                pay(s["players"][seat], str(got))
                events.append(ev("shielded" if what == "shield" else "shot_down", seat))
        elif what == "bounce":
            events.append(ev("bounced", seat))
        elif what == "gun":
            events.append(ev("shot_down", seat))
        if what == "hit":
            assert cell is not None
            destroy(s, seat, cell, events)
        hz["seats"].pop(0)
    del f["r"]["hz"]


def _sabotage(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    order = flying(s)
    if len(order) >= 2:
        target = min(order, key=lambda x: (crew_total(s["players"][x]), order.index(x)))
        ship = ship_of(s, target)
        for _ in range(3):
            col, row = roll(s), roll(s)
            if (row, col) in ship:
                destroy(s, target, (row, col), events)
                break
        else:
            events.append(ev("sabotage_missed", target))
    _card_done(s)
