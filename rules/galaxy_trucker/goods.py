"""Galaxy Trucker in flight: goods — what fits where, the loads a player may choose, stowing
them, and losing them (R30-R33)."""

from __future__ import annotations

from typing import Any

from core.contract import Event, split_picks

from . import flight as fl
from . import ship as sh
from .building import err, ev
from .crew import _ask, batteries, drain, ship_of
from .tiles import tile

GOODS_ICON = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}
#: A load with this many goods to choose from (aboard and new) is done automatically: a
#: select menu holds at most 25 options, one of them "load the best for me".
MAX_GOODS_OPTIONS = 24


def _holds(ship: sh.Ship) -> list[tuple[str, int, bool]]:
    out = []
    for cell, (t, _) in sorted(ship.items()):
        if tile(t).type == "cargo_hold":
            out.append((sh.key(cell), tile(t).capacity, tile(t).red))
    return out


Goods = list[tuple[str, str]]  # (option id, colour): "a.<row>.<col>.<j>" aboard, "n.<i>" new


def goods_pool(s: dict[str, Any], seat: int, goods: list[str]) -> Goods:
    """Every good ``seat`` could carry after loading ``goods``: the ones aboard (``a.<hold
    row>.<col>.<j>``) and the new ones the bank still has (``n.<i>``, R26)."""
    p = s["players"][seat]
    out: Goods = []
    for k in sorted(p["goods"], key=sh.unkey):
        out += [(f"a.{k}.{j}", g) for j, g in enumerate(p["goods"][k])]
    bank = dict(s["flight"]["bank"])
    for i, g in enumerate(goods):
        if bank.get(g, 0) > 0:
            bank[g] -= 1
            out.append((f"n.{i}", g))
    return out


def _room(holds: list[tuple[str, int, bool]]) -> tuple[int, int]:
    """(all the spaces, the spaces in red holds)."""
    return sum(c for _, c, _ in holds), sum(c for _, c, red in holds if red)


def fits(colours: list[str], holds: list[tuple[str, int, bool]]) -> bool:
    """Can these goods all be stowed (red ones in red holds only), moving goods freely?"""
    total, red = _room(holds)
    return len(colours) <= total and colours.count("red") <= red


def best_goods(pool: Goods, holds: list[tuple[str, int, bool]]) -> list[str]:
    """R16: the most valuable goods that fit (goods aboard before new ones of the same
    colour). Greedy is optimal: red, the dearest, is the only colour with its own limit."""
    total, red = _room(holds)
    picked: list[str] = []
    reds = 0
    for oid, g in sorted(pool, key=lambda x: -fl.GOODS_VALUE[x[1]]):
        if len(picked) >= total or (g == "red" and reds >= red):
            continue
        picked.append(oid)
        reds += g == "red"
    return picked


def _fit(s: dict[str, Any], seat: int, goods: list[str]) -> int:
    """How many of ``goods`` the automatic load (R16) would carry: 0 when the ship has no
    hold for them (no hold, no red hold for red goods, holds full of dearer goods)."""
    pool = goods_pool(s, seat, goods)
    return sum(1 for oid in best_goods(pool, _holds(ship_of(s, seat))) if oid.startswith("n."))


def goods_choice(s: dict[str, Any], seat: int, goods: list[str]) -> Goods | None:
    """The pool when loading ``goods`` is a real choice for ``seat`` (R31): not everything
    fits, and some good left out could take the place of a kept one of another colour.
    None when the automatic load of R16 is the only sensible outcome."""
    pool = goods_pool(s, seat, goods)
    holds = _holds(ship_of(s, seat))
    colour = dict(pool)
    if fits(list(colour.values()), holds) or len(pool) >= MAX_GOODS_OPTIONS:
        return None
    best = best_goods(pool, holds)
    kept = [colour[i] for i in best]
    for out_id, g in pool:
        if out_id in best:
            continue
        for j, k in enumerate(kept):
            if k != g and fits([*kept[:j], *kept[j + 1 :], g], holds):
                return pool
    return None


def stow(
    s: dict[str, Any], seat: int, pool: Goods, picked: list[str], events: list[Event]
) -> None:
    """Carry exactly the goods ``picked`` out of ``pool`` (they fit): red ones in red holds,
    the goods kept stay in their hold when they can, the others fill normal holds first;
    goods left out go back to the bank (R16, R31)."""
    p = s["players"][seat]
    bank = s["flight"]["bank"]
    holds = _holds(ship_of(s, seat))
    cap = {k: c for k, c, _ in holds}
    is_red = {k: red for k, _, red in holds}
    colour = dict(pool)
    chosen = set(picked)
    new: dict[str, list[str]] = {k: [] for k in p["goods"]}
    placed: dict[str, int] = dict.fromkeys(cap, 0)
    loose: list[str] = []

    def put(k: str, g: str) -> None:
        new.setdefault(k, []).append(g)
        placed[k] += 1

    def home(oid: str) -> str | None:
        return oid[2:].rsplit(".", 1)[0] if oid.startswith("a.") else None

    ordered = [oid for oid, _ in pool if oid in chosen]
    for red_pass in (True, False):
        for oid in ordered:
            g = colour[oid]
            if (g == "red") != red_pass:
                continue
            k = home(oid)
            if k in cap and placed[k] < cap[k]:
                put(k, g)
            else:
                loose.append(g)
        if red_pass:  # new and displaced red goods: red holds with room
            for g in loose:
                put(next(k for k in cap if is_red[k] and placed[k] < cap[k]), g)
            loose = []
    for g in sorted(loose, key=lambda g: -fl.GOODS_VALUE[g]):
        spots = [k for k in cap if placed[k] < cap[k]]
        put(min(spots, key=lambda k: (is_red[k], sh.unkey(k))), g)
    loaded = [colour[oid] for oid in ordered if oid.startswith("n.")]
    dropped = [g for oid, g in pool if oid.startswith("a.") and oid not in chosen]
    for g in loaded:
        bank[g] -= 1
    for g in dropped:
        bank[g] += 1
    p["goods"] = new
    if loaded:
        events.append(ev("goods_loaded", seat, goods="".join(GOODS_ICON[g] for g in loaded)))
    else:
        events.append(ev("goods_none", seat))
    if dropped:
        events.append(ev("goods_dropped", seat, goods="".join(GOODS_ICON[g] for g in dropped)))


def load_goods(s: dict[str, Any], seat: int, goods: list[str], events: list[Event]) -> None:
    """Load ``goods`` for the player (R16): the most valuable goods that fit, red only in
    red holds, cheaper goods aboard going back to the bank to make room; what the bank
    lacks is not loaded."""
    pool = goods_pool(s, seat, goods)
    stow(s, seat, pool, best_goods(pool, _holds(ship_of(s, seat))), events)


def offer_goods(s: dict[str, Any], seat: int, goods: list[str], events: list[Event]) -> None:
    """``seat`` gains ``goods``: loaded at once when there is no real choice, else the
    player is asked (a ``goods`` question, R31) once the card's own questions allow.
    Loads keep their order: once one waits, the later ones wait behind it."""
    f = s["flight"]
    if f.setdefault("loads", []) or goods_choice(s, seat, goods) is not None:
        f["loads"].append([seat, list(goods)])
    else:
        load_goods(s, seat, goods, events)


def _load_step(s: dict[str, Any], events: list[Event]) -> None:
    """The first waiting load: asked when it is a real choice, else loaded (R31)."""
    f = s["flight"]
    seat, goods, *answer = f["loads"][0]
    if goods_choice(s, seat, goods) is None:
        load_goods(s, seat, goods, events)
    else:
        got = answer[0] if answer else None  # its own slot: a card's answer may be waiting
        if got is None:
            _ask(s, seat, "goods", goods=list(goods))
            return
        if got == "auto":
            load_goods(s, seat, goods, events)
        else:
            stow(s, seat, goods_pool(s, seat, goods), split_picks(str(got)), events)
    f["loads"].pop(0)


def lose_goods(s: dict[str, Any], seat: int, n: int, events: list[Event]) -> None:
    """The most valuable goods go first; without goods, batteries; then nothing."""
    p = s["players"][seat]
    bank = s["flight"]["bank"]
    goods = 0
    cells = 0
    for _ in range(n):
        aboard = [(fl.GOODS_VALUE[g], k, g) for k, gs in sorted(p["goods"].items()) for g in gs]
        if aboard:
            _, k, g = max(aboard, key=lambda x: x[0])
            p["goods"][k].remove(g)
            bank[g] += 1
            goods += 1
        elif batteries(p):
            drain(p, 1)
            cells += 1
    if goods or cells:  # the line names only what was lost
        code = (
            "goods_lost" if goods and cells else "goods_only_lost" if goods else "batteries_lost"
        )
        events.append(ev(code, seat, goods=goods, batteries=cells))
    else:
        events.append(ev("nothing_to_lose", seat))


def _check_goods(s: dict[str, Any], seat: int, goods: list[str], choice: str) -> str:
    """The answer to a ``goods`` question, checked: ``auto``, or distinct offered goods
    that fit the holds."""
    picks = split_picks(choice)
    if picks == ["auto"]:
        return choice
    colour = dict(goods_pool(s, seat, goods))
    if not picks or len(set(picks)) != len(picks) or any(x not in colour for x in picks):
        raise err("not_offered")
    holds = _holds(ship_of(s, seat))
    if not fits([colour[x] for x in picks], holds):
        total, red = _room(holds)
        raise err("goods_dont_fit", room=total, red=red)
    return choice
