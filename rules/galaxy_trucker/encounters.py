"""Galaxy Trucker in flight: how each adventure card type resolves, step by step
(``RESOLVERS``: open space, stardust, epidemic, the abandoned ship and station, planets,
meteor swarms, enemies, combat zones, sabotage)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.contract import Event

from . import flight as fl
from . import ship as sh
from .building import ev
from .crew import (
    _answer,
    _ask,
    _card_done,
    _num,
    _win,
    aliens_of,
    batteries,
    crew_total,
    drain,
    flying,
    lose_crew,
    move,
    ship_of,
)
from .goods import lose_goods, offer_goods
from .hazards import _sabotage, hazard
from .tiles import side


def _power_choice(
    s: dict[str, Any], seat: int, kind: str, events: list[Event], **extra: Any
) -> int | None:
    """How many doubles ``seat`` powers (asked when there is a choice); None = asked now."""
    p = s["players"][seat]
    most = min(
        fl.double_count(ship_of(s, seat), "engine" if kind == "engines" else "cannon"),
        batteries(p),
    )
    if most == 0:
        return 0
    got = _answer(s)
    if got is None:
        _ask(s, seat, kind, most=most, **extra)
        return None
    drain(p, int(got))
    return int(got)


def _open_space(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    while r["queue"]:
        seat = r["queue"][0]
        k = _power_choice(s, seat, "engines", events)
        if k is None:
            return
        power = fl.engine_power(ship_of(s, seat), aliens_of(s, seat), k)
        events.append(ev("engine_power", seat, power=power))
        if power == 0:
            s["flight"]["doomed"].append(seat)
        else:
            move(s, seat, power, events)
        r["queue"].pop(0)
    _card_done(s)


def _stardust(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    for seat in reversed(flying(s)):
        n = sh.exposed(ship_of(s, seat))
        if n:
            move(s, seat, -n, events)
    _card_done(s)


def _epidemic(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    for seat in flying(s):
        p = s["players"][seat]
        ship = ship_of(s, seat)
        alien_at = {v: c for c, v in p["aliens"].items() if v}
        occupied = {k for k, n in p["crew"].items() if n > 0} | set(alien_at)
        sick = set()
        for k in occupied:
            cell = sh.unkey(k)
            tid, rot = ship[cell]
            for d in range(4):
                other = sh.neighbour(cell, d)
                if sh.key(other) in occupied:
                    t2, r2 = ship[other]
                    if sh.joint(side(tid, rot, d), side(t2, r2, (d + 2) % 4)) == "ok":
                        sick.add(k)
        for k in sick:
            if k in alien_at:
                p["aliens"][alien_at[k]] = None
            else:
                p["crew"][k] -= 1
        if sick:
            events.append(ev("crew_lost", seat, count=len(sick)))
    _card_done(s)


def _abandoned(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    need = card.get("crew_lost", card.get("crew_required", 0))
    while r["queue"]:
        seat = r["queue"][0]
        if crew_total(s["players"][seat]) < need:
            r["queue"].pop(0)
            continue
        got = _answer(s)
        if got is None:
            _ask(s, seat, "take")
            return
        if got == "take":
            if card["type"] == "abandoned_ship":
                lose_crew(s, seat, card["crew_lost"], events)
                _win(s, seat, card["reward"]["credits"])
                events.append(ev("credits_won", seat, credits=card["reward"]["credits"]))
            else:
                offer_goods(s, seat, card["reward"]["goods"], events)
            move(s, seat, -card["days_lost"], events)
            break
        r["queue"].pop(0)
    _card_done(s)


def _planets(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    landed: dict[str, int] = r.setdefault("landed", {})
    while r["queue"]:
        seat = r["queue"][0]
        free = [i for i in range(len(card["planets"])) if str(i) not in landed]
        if not free:
            break
        got = _answer(s)
        if got is None:
            _ask(s, seat, "planet", free=free)
            return
        if got != "pass":
            landed[str(got)] = seat
            events.append(ev("landed", seat, planet=int(got) + 1))
            offer_goods(s, seat, card["planets"][int(got)], events)
        r["queue"].pop(0)
    for seat in reversed(flying(s)):
        if seat in landed.values():
            move(s, seat, -card["days_lost"], events)
    _card_done(s)


def _meteors(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    i = r.setdefault("i", 0)
    if i >= len(card["meteors"]):
        _card_done(s)
        return
    r["i"] = i + 1
    hazard(s, flying(s), card["meteors"][i], events)


def _enemy(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    losers: list[int] = r.setdefault("losers", [])
    while r["queue"]:
        seat = r["queue"][0]
        if r.get("won") == seat:
            got = _answer(s)
            if got is None:
                _ask(s, seat, "reward")
                return
            if got == "take":
                reward = card["reward"]
                if "credits" in reward:
                    _win(s, seat, reward["credits"])
                    events.append(ev("credits_won", seat, credits=reward["credits"]))
                else:
                    offer_goods(s, seat, reward["goods"], events)
                move(s, seat, -card["days_lost"], events)
            r["queue"] = []
            break
        k = _power_choice(s, seat, "cannons", events, enemy=card["firepower"])
        if k is None:
            return
        power = fl.firepower(ship_of(s, seat), aliens_of(s, seat), k)
        events.append(ev("firepower", seat, power=_num(power)))
        if power > card["firepower"]:
            events.append(ev("enemy_beaten", seat))
            r["won"] = seat
            continue
        if power < card["firepower"]:
            events.append(ev("enemy_won", seat))
            penalty = card["penalty"]
            if "crew_lost" in penalty:
                lose_crew(s, seat, penalty["crew_lost"], events)
            elif "goods_lost" in penalty:
                lose_goods(s, seat, penalty["goods_lost"], events)
            else:
                losers.append(seat)
        else:
            events.append(ev("enemy_tie", seat))
        r["queue"].pop(0)
    shots = card["penalty"].get("shots", [])
    j = r.setdefault("shot", 0)
    if losers and j < len(shots):
        r["shot"] = j + 1
        hazard(s, [x for x in losers if s["flight"]["pos"][x] is not None], shots[j], events)
        return
    _card_done(s)


def _combat(s: dict[str, Any], card: dict[str, Any], events: list[Event]) -> None:
    r = s["flight"]["r"]
    if len(flying(s)) < 2:
        _card_done(s)
        return
    if r.get("shots"):
        shot = r["shots"].pop(0)
        hazard(s, [r["target"]], shot, events)
        return
    line = r.setdefault("line", 0)
    if line >= len(card["lines"]):
        _card_done(s)
        return
    spec = card["lines"][line]
    if "values" not in r:
        r["values"] = {}
        r["queue"] = flying(s)
    crit = spec["criterion"]
    while r["queue"]:
        seat = r["queue"][0]
        if crit == "crew":
            value: Fraction = Fraction(crew_total(s["players"][seat]))
        elif crit == "engine_power":
            k = _power_choice(s, seat, "engines", events)
            if k is None:
                return
            value = Fraction(fl.engine_power(ship_of(s, seat), aliens_of(s, seat), k))
        else:
            k = _power_choice(s, seat, "cannons", events)
            if k is None:
                return
            value = fl.firepower(ship_of(s, seat), aliens_of(s, seat), k)
        r["values"][str(seat)] = [value.numerator, value.denominator]
        r["queue"].pop(0)
    order = flying(s)
    values = {int(k): Fraction(a, b) for k, (a, b) in r["values"].items()}
    target = min(order, key=lambda x: (values[x], order.index(x)))
    events.append(ev(f"combat_{crit}", target, value=_num(values[target])))
    penalty = spec["penalty"]
    r["line"] = line + 1
    del r["values"]
    if "days_lost" in penalty:
        move(s, target, -penalty["days_lost"], events)
    elif "crew_lost" in penalty:
        lose_crew(s, target, penalty["crew_lost"], events)
    elif "goods_lost" in penalty:
        lose_goods(s, target, penalty["goods_lost"], events)
    else:
        r["target"] = target
        r["shots"] = list(penalty["shots"])


RESOLVERS = {
    "open_space": _open_space,
    "stardust": _stardust,
    "epidemic": _epidemic,
    "abandoned_ship": _abandoned,
    "abandoned_station": _abandoned,
    "planets": _planets,
    "meteor_swarm": _meteors,
    "slavers": _enemy,
    "smugglers": _enemy,
    "pirates": _enemy,
    "combat_zone": _combat,
    "sabotage": _sabotage,
}
