"""Galaxy Trucker in flight: the small helpers every card uses — who still flies, a ship's crew,
aliens and batteries, moving on the track, paying in crew or batteries, and the one open
question (``ask``). See rules.galaxy_trucker for the rulings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.contract import Event

from . import flight as fl
from . import ship as sh
from .building import ev

# --------------------------------------------------------------------------- helpers


def flying(s: dict[str, Any]) -> list[int]:
    """Seats still flying, in flight order (leader first)."""
    pos = s["flight"]["pos"]
    return fl.flight_order({i: p for i, p in enumerate(pos) if p is not None})


def ship_of(s: dict[str, Any], seat: int) -> sh.Ship:
    return sh.load(s["players"][seat]["ship"])


def aliens_of(s: dict[str, Any], seat: int) -> dict[str, sh.Cell | None]:
    return {k: (sh.unkey(v) if v else None) for k, v in s["players"][seat]["aliens"].items()}


def humans(p: dict[str, Any]) -> int:
    return int(sum(p["crew"].values()))


def crew_total(p: dict[str, Any]) -> int:
    return humans(p) + sum(1 for v in p["aliens"].values() if v)


def batteries(p: dict[str, Any]) -> int:
    return int(sum(p["batteries"].values()))


def move(s: dict[str, Any], seat: int, days: int, events: list[Event]) -> None:
    f = s["flight"]
    pos = {i: q for i, q in enumerate(f["pos"]) if q is not None}
    f["pos"][seat] = fl.move(pos, seat, days, f["track"])
    space = f["pos"][seat] % f["track"] + 1
    if days >= 0:
        events.append(ev("move", seat, days=days, space=space))
    else:
        events.append(ev("move_back", seat, days=-days, space=space))


def drain(p: dict[str, Any], k: int) -> None:
    """Spend ``k`` batteries, from the fullest battery tile first."""
    for _ in range(k):
        pay(p, fullest(p))


def occupied(p: dict[str, Any]) -> list[str]:
    """Cabins with crew (humans or an alien), by cell."""
    cells = {k for k, n in p["crew"].items() if n > 0} | {v for v in p["aliens"].values() if v}
    return sorted(cells, key=sh.unkey)


def lose_crew(s: dict[str, Any], seat: int, n: int, events: list[Event]) -> None:
    """``seat`` loses ``n`` crew. When it matters (several occupied cabins and some crew
    left afterwards) the player picks the cabins one by one (a ``crew`` question);
    otherwise everyone aboard goes."""
    p = s["players"][seat]
    if n <= 0:
        return
    if len(occupied(p)) > 1 and n < crew_total(p):
        s["flight"]["losses"].append([seat, n])
        return
    lost = 0
    for k in occupied(p):
        while lost < n and _remove_one(p, k):
            lost += 1
    events.append(ev("crew_lost", seat, count=lost))


def _remove_one(p: dict[str, Any], k: str) -> bool:
    """One crew member leaves cabin ``k`` (its alien, or a human)."""
    for colour, where in p["aliens"].items():
        if where == k:
            p["aliens"][colour] = None
            return True
    if p["crew"].get(k, 0) > 0:
        p["crew"][k] -= 1
        return True
    return False


def fullest(p: dict[str, Any]) -> str:
    """The battery tile R14 spends from: the fullest (ties: the first key)."""
    return max(sorted(p["batteries"]), key=lambda c: p["batteries"][c])


def pay(p: dict[str, Any], cell: str) -> None:
    """Spend one battery from the tile at ``cell``."""
    p["batteries"][cell] -= 1


def _stock(p: dict[str, Any]) -> list[int]:
    """Tiles lost so far, crew aboard and goods aboard (a card that changes them hurt)."""
    goods = sum(len(v) for v in p.get("goods", {}).values())
    return [len(p["lost"]), crew_total(p), goods]


def hurt(s: dict[str, Any], seat: int) -> bool:
    """Did the card just flown cost ``seat``'s ship a tile, crew or goods?"""
    seen = s["flight"].get("seen", {}).get(str(seat))
    if seen is None:
        return False
    now = _stock(s["players"][seat])
    return now[0] > seen[0] or now[1] < seen[1] or now[2] < seen[2]


def _win(s: dict[str, Any], seat: int, credits: int) -> None:
    s["players"][seat]["won"] += credits
    s["players"][seat]["credits"] += credits


def _card_done(s: dict[str, Any]) -> None:
    f = s["flight"]
    f["last"] = f["card"]  # shown on the table while its losses are still being asked
    f["card"] = None
    f["r"] = {}
    f["cards_done"] += 1


def _answer(s: dict[str, Any]) -> Any:
    return s["flight"]["r"].pop("answer", None)


def _ask(s: dict[str, Any], seat: int, kind: str, **extra: Any) -> None:
    s["flight"]["ask"] = {"seat": seat, "kind": kind, **extra}


def _num(x: Fraction) -> str:
    whole, rest = divmod(x, 1)
    return f"{whole}½" if rest else f"{whole}"
