"""The flight: the adventure deck, card by card, then the end-of-flight table.

``s["flight"]`` holds ``track``, ``pos`` (absolute position per seat, None once retired),
``deck`` (top first), ``card`` (being resolved, or None), ``r`` (the card's own progress),
``ask`` (the one open question: seat, kind and limits), ``splits`` (seats whose ship broke
and must choose a part), ``bank`` (goods left), ``retired`` (in retirement order),
``doomed`` (seats that must retire when the card ends), ``seq`` (answers so far) and
``cards_done``. Each player gains ``goods`` (``{"r.c": [colour, ...]}``).

Everything a player really chooses is a decision: how many double engines or cannons to
power, whether to take a reward, which planet, which part of a broken ship to keep, whether
(and from which battery tile) to stop a hazard, which goods to carry when not all fit.
Everything else is automatic (rulings R14-R22 and R30-R34 in the package docstring).
``r["hz"]`` holds a hazard being resolved ship by ship; ``loads`` the loads waiting for
their question (``[seat, goods]``, plus the answer once given).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from core.contract import Decision, Event, Option, split_picks
from rules.kit import rng

from . import flight as fl
from . import ship as sh
from .building import GAME, cell_arg, err, ev, grid_options, opt
from .tiles import cards, data, level, side, tile

LEVEL_NUMBER = {"learning": 1, "I": 1, "II": 2, "III": 3}
GOODS_ICON = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}
ENEMIES = ("slavers", "smugglers", "pirates")
#: A load with this many goods to choose from (aboard and new) is done automatically: a
#: select menu holds at most 25 options, one of them "load the best for me".
MAX_GOODS_OPTIONS = 24


# --------------------------------------------------------------------------- set-up


def start_flight(s: dict[str, Any]) -> list[Event]:
    info = level(s["level"])
    pos: list[int | None] = [None] * s["n"]
    for k, seat in enumerate(s["order"]):
        pos[seat] = info["start_spaces"][k]
    deck = [c for pile in s["piles"] for c in pile]
    r = rng(s, GAME)
    want = LEVEL_NUMBER[s["level"]]
    r.shuffle(deck)
    while cards()[deck[0]]["level"] != want:
        r.shuffle(deck)
    s["flight"] = {
        "track": info["track"],
        "pos": pos,
        "deck": deck,
        "card": None,
        "r": {},
        "ask": None,
        "splits": [],
        "losses": [],
        "loads": [],
        "bank": dict(data()["goods_supply"]),
        "retired": [],
        "doomed": [],
        "seq": 0,
        "cards_done": 0,
    }
    for p in s["players"]:
        p["goods"] = {}
        p["won"] = 0
    s["phase"] = "flight"
    return [ev("launch", cards=len(deck)), *advance(s)]


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


def fullest(p: dict[str, Any]) -> str:
    """The battery tile R14 spends from: the fullest (ties: the first key)."""
    return max(sorted(p["batteries"]), key=lambda c: p["batteries"][c])


def pay(p: dict[str, Any], cell: str) -> None:
    """Spend one battery from the tile at ``cell``."""
    p["batteries"][cell] -= 1


# --------------------------------------------------------------------------- the loop


def advance(s: dict[str, Any]) -> list[Event]:
    """Resolve automatically until a player must decide, or the flight ends."""
    events: list[Event] = []
    f = s["flight"]
    while s["phase"] == "flight":
        if f["ask"] is not None:
            return events
        if "hz" in f["r"]:  # a hazard hits every ship before broken ones are mended
            _hazard_step(s, events)
            continue
        if f["splits"]:
            seat = f["splits"][0]
            f["ask"] = {"seat": seat, "kind": "keep"}
            return events
        if f["losses"]:
            seat, n = f["losses"][0][:2]  # (rules 2: and the members taken so far)
            f["ask"] = {"seat": seat, "kind": "crew", "left": n}
            return events
        if f.get("loads"):
            _load_step(s, events)
            continue
        if f["card"] is None:
            events += _end_of_card(s)
            if not f["deck"] or not flying(s):
                events += finish(s)
                return events
            if _window(s):
                continue
            cid = f["deck"].pop(0)
            f["card"] = cid
            f["r"] = {"queue": flying(s)}
            f.pop("window", None)
            if s.get("rules", 1) >= 2:  # what each ship has, to tell who the card hurts
                f["seen"] = {str(x): _stock(s["players"][x]) for x in flying(s)}
            k, total = f["cards_done"] + 1, f["cards_done"] + 1 + len(f["deck"])
            events.append(
                ev(f"card_{cards()[cid]['type']}", card=cid, k=k, cards=total, reveals=True)
            )
            continue
        card = cards()[f["card"]]
        RESOLVERS[card["type"]](s, card, events)
    return events


def _end_of_card(s: dict[str, Any]) -> list[Event]:
    f = s["flight"]
    events: list[Event] = []
    pos = {i: q for i, q in enumerate(f["pos"]) if q is not None}
    out = set(f["doomed"]) | set(fl.lapped(pos, f["track"]))
    out |= {i for i in pos if humans(s["players"][i]) == 0}
    for seat in sorted(out):
        if f["pos"][seat] is not None:
            f["pos"][seat] = None
            f["retired"].append(seat)
            events.append(ev("retired", seat))
    f["doomed"] = []
    return events


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


def _window(s: dict[str, Any]) -> bool:
    """R26b: between two cards, each ship the card just flown has hurt (lost tiles, crew or
    goods) is asked, in flight order, whether it flies on or gives up now. True when a
    question is open."""
    f = s["flight"]
    if s.get("rules", 1) < 2:
        return False
    if "window" not in f:
        f["window"] = [x for x in flying(s) if hurt(s, x)]
    f["window"] = [x for x in f["window"] if f["pos"][x] is not None]
    if not f["window"]:
        return False
    _ask(s, f["window"][0], "next")
    return True


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


def _num(x: Fraction) -> str:
    whole, rest = divmod(x, 1)
    return f"{whole}½" if rest else f"{whole}"


# --------------------------------------------------------------------------- decisions


def decisions(s: dict[str, Any]) -> list[Decision]:
    f = s["flight"]
    a = f["ask"]
    if a is None:
        return []
    seat, kind = a["seat"], a["kind"]
    key = f"fl.{f['cards_done']}.{f['seq']}"
    card = cards()[f["card"]] if f["card"] else {}
    options: list[Option] = []
    args: dict[str, Any] = {"card": f["card"] or ""}
    grid = None
    if kind == "keep":
        ship = ship_of(s, seat)
        grid, options = grid_options(sorted(ship), "keep", "opt.keep", "primary")
        args = {"parts": len(sh.parts(ship))}
        prompt = "prompt.broken"  # (public: not the private pre-launch "prompt.split")
        return [Decision(seat, f"{GAME}.{prompt}", tuple(options), args, key=key, grid=grid)]
    if kind == "crew":
        p = s["players"][seat]
        alien_at = {v: c for c, v in p["aliens"].items() if v}
        cells = [sh.unkey(k) for k in occupied(p)]
        grid, options = grid_options(cells, "crew", "opt.crew", "danger")
        options = [
            Option(o.id, o.label, {**o.args, "who": _who(p, alien_at, o.id[5:])}, o.style, o.cell)
            for o in options
        ]
        args = {"count": a["left"]}
        return [Decision(seat, f"{GAME}.prompt.crew", tuple(options), args, key=key, grid=grid)]
    if kind == "hazard":
        return [_hazard_decision(s, a, key)]
    if kind == "next":  # R26b: fly on, or give up before the next card
        p = s["players"][seat]
        done = f["cards_done"]
        seen = f.get("seen", {}).get(str(seat), _stock(p))
        now = _stock(p)
        args = {
            "card": done,
            "tiles": max(0, now[0] - seen[0]),
            "crew": max(0, seen[1] - now[1]),
            "goods": max(0, seen[2] - now[2]),
            "left": len(f["deck"]),
        }
        options = [opt("go", "opt.go", "primary"), opt("retire", "opt.retire_now", "danger")]
        return [Decision(seat, f"{GAME}.prompt.next", tuple(options), args, key=key)]
    if kind == "goods":
        return [_goods_decision(s, a, key)]
    if kind in ("engines", "cannons"):
        ship, aliens = ship_of(s, seat), aliens_of(s, seat)
        for k in range(a["most"] + 1):
            if kind == "engines":
                value = str(fl.engine_power(ship, aliens, k))
            else:
                value = _num(fl.firepower(ship, aliens, k))
            options.append(opt(f"pow.{k}", f"opt.{kind}", count=k, power=value))
        prompt = f"prompt.{kind}"
        if "enemy" in a:
            prompt += "_enemy"
            args["enemy"] = a["enemy"]
    elif kind in ("take", "reward"):
        prompt = f"prompt.{card['type']}"
        args.update(_card_args(card))
        take = opt("take", "opt.take", "success")
        goods = card.get("reward", {}).get("goods", [])
        if goods:  # say before taking what the holds can carry (as for planets)
            fit = _fit(s, seat, goods)
            if fit < len(goods):
                label = "opt.take_some" if fit else "opt.take_none"
                take = opt("take", label, "success", fit=fit, n=len(goods))
        options = [take, opt("pass", "opt.pass")]
    else:  # planet
        prompt = "prompt.planet"
        args["days"] = card["days_lost"]
        for i in a["free"]:
            goods = card["planets"][i]
            icons = "".join(GOODS_ICON[g] for g in goods)
            fit = _fit(s, seat, goods)  # say before landing what the holds can take
            label = (
                "opt.planet"
                if fit >= len(goods)
                else "opt.planet_some"
                if fit
                else "opt.planet_none"
            )
            options.append(
                opt(f"planet.{i}", label, planet=i + 1, goods=icons, fit=fit, n=len(goods))
            )
        options.append(opt("pass", "opt.pass"))
    return [Decision(seat, f"{GAME}.{prompt}", tuple(options), args, key=key)]


def _hazard_decision(s: dict[str, Any], a: dict[str, Any], key: str) -> Decision:
    """R30: defend (power a shield, or fire a double cannon) for a battery, or let it hit.
    ``def`` pays from the tile R14 would pick; ``def.<row>.<col>`` from another charged
    battery tile."""
    seat = a["seat"]
    p = s["players"][seat]
    hz = s["flight"]["r"]["hz"]
    cell = sh.unkey(a["cell"])
    ship = ship_of(s, seat)
    _, parts = fl.destroy(ship, cell)
    first = fullest(p)
    charged = [k for k in sorted(p["batteries"], key=sh.unkey) if p["batteries"][k] > 0]
    label = f"opt.def_{a['how']}" + ("" if len(charged) == 1 else "_from")
    options = [opt("def", label, "success", **_at(first, p))]
    options += [opt(f"def.{k}", label, "primary", **_at(k, p)) for k in charged if k != first]
    part_key = f"{GAME}.tile.{tile(ship[cell][0]).kind}"
    hit = "opt.hit_split" if len(parts) > 1 else "opt.hit"
    options.append(opt("hit", hit, "danger", row=cell[0], col=cell[1], part_key=part_key))
    args = {
        "what_key": f"{GAME}.hz.{hz['size']}",
        "side_key": f"{GAME}.hz.{hz['from']}",
        "line": hz["line"],
        "row": cell[0],
        "col": cell[1],
        "batteries": batteries(p),
    }
    axis = "col" if hz["from"] in ("front", "rear") else "row"
    prompt = f"{GAME}.prompt.hazard_{a['how']}_{axis}"
    return Decision(seat, prompt, tuple(options), args, key=key)


def _at(k: str, p: dict[str, Any]) -> dict[str, Any]:
    row, col = sh.unkey(k)
    return {"row": row, "col": col, "left": p["batteries"][k]}


def _goods_decision(s: dict[str, Any], a: dict[str, Any], key: str) -> Decision:
    """R31: pick the goods to carry (new and aboard), or ``auto`` (R16's load)."""
    seat = a["seat"]
    pool = goods_pool(s, seat, a["goods"])
    holds = _holds(ship_of(s, seat))
    total, red = _room(holds)
    colour = dict(pool)
    best = "".join(GOODS_ICON[colour[i]] for i in best_goods(pool, holds))
    options = [replace(opt("auto", "opt.goods_auto", "success", goods=best), alone=True)]
    for oid, g in pool:
        if oid.startswith("a."):
            row, col, _ = (int(x) for x in oid[2:].split("."))
            options.append(opt(oid, "opt.goods_aboard", good=GOODS_ICON[g], row=row, col=col))
        else:
            options.append(opt(oid, "opt.goods_new", "primary", good=GOODS_ICON[g]))
    new = "".join(GOODS_ICON[g] for oid, g in pool if oid.startswith("n."))
    args = {"goods": new, "room": total, "red": red}
    return Decision(
        seat,
        f"{GAME}.prompt.goods",
        tuple(options),
        args,
        key=key,
        max_picks=max(1, min(total, len(pool))),
    )


def _who(p: dict[str, Any], alien_at: dict[str, str], k: str) -> str:
    if k in alien_at:
        return "👽"
    return "👤" * int(p["crew"].get(k, 0))


def _card_args(card: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"days": card.get("days_lost", 0)}
    reward = card.get("reward", {})
    out["credits"] = reward.get("credits", 0)
    out["goods"] = "".join(GOODS_ICON[g] for g in reward.get("goods", []))
    out["crew"] = card.get("crew_lost", card.get("crew_required", 0))
    return out


def apply_flight(s: dict[str, Any], seat: int, choice: str) -> list[Event]:
    f = s["flight"]
    a = f["ask"]
    if a is None or a["seat"] != seat:
        raise err("not_your_turn")
    kind = a["kind"]
    head, _, rest = choice.partition(".")
    if kind == "keep":
        if head != "keep":
            raise err("not_offered")
        cell = cell_arg(rest)
        ship = ship_of(s, seat)
        if cell not in ship:
            raise err("bad_cell")
        kept, lost = sh.keep_part(ship, cell)
        p = s["players"][seat]
        p["ship"] = sh.dump(kept)
        p["lost"] += lost
        events = [ev("kept", seat, row=cell[0], col=cell[1], count=len(lost))]
        _prune(s, seat, events)
        f["splits"].remove(seat)
    elif kind == "crew":
        p = s["players"][seat]
        if head != "crew" or rest not in occupied(p):
            raise err("not_offered")
        _remove_one(p, rest)
        left = a["left"] - 1
        entry = f["losses"].pop(0)
        if s.get("rules", 1) < 2:
            events = [ev("crew_lost", seat, count=1)]  # one line per member (rules 1)
            if left:
                lose_crew(s, seat, left, events)  # asks again, or takes the rest
                if f["losses"] and f["losses"][-1][0] == seat:  # keep the queue order
                    f["losses"].insert(0, f["losses"].pop())
        else:  # one line for the whole loss: "loses 2 crew members"
            taken = (entry[2] if len(entry) > 2 else 0) + 1
            more: list[Event] = []
            if left:
                lose_crew(s, seat, left, more)  # asks again, or takes the rest
                if f["losses"] and f["losses"][-1][0] == seat:  # keep the queue order
                    f["losses"].insert(0, f["losses"].pop())
                    f["losses"][0].append(taken)
                    taken = 0
            taken += sum(
                int(e.args.get("count", 0)) for e in more if e.code.endswith(".crew_lost")
            )
            more = [e for e in more if not e.code.endswith(".crew_lost")]
            events = ([ev("crew_lost", seat, count=taken)] if taken else []) + more
    elif kind == "hazard":
        p = s["players"][seat]
        if choice == "def":
            f["r"]["answer"] = fullest(p)
        elif choice == "hit":
            f["r"]["answer"] = "hit"
        elif head == "def" and p["batteries"].get(rest, 0) > 0:
            f["r"]["answer"] = rest
        else:
            raise err("not_offered")
        events = []
    elif kind == "goods":
        f["loads"][0] = [seat, a["goods"], _check_goods(s, seat, a["goods"], choice)]
        events = []
    elif kind == "next":  # R26b
        if choice not in ("go", "retire"):
            raise err("not_offered")
        f["window"].remove(seat)
        events = []
        if choice == "retire":
            f["pos"][seat] = None
            f["retired"].append(seat)
            events = [ev("gave_up", seat)]
    elif kind in ("engines", "cannons"):
        if head != "pow" or not rest.isdigit() or int(rest) > a["most"]:
            raise err("not_offered")
        f["r"]["answer"] = int(rest)
        events = []
    elif kind in ("take", "reward"):
        if choice not in ("take", "pass"):
            raise err("not_offered")
        f["r"]["answer"] = choice
        events = [] if choice == "take" else [ev("passed", seat)]
    else:
        if choice == "pass":
            f["r"]["answer"] = "pass"
            events = [ev("passed", seat)]
        elif head == "planet" and rest.isdigit() and int(rest) in a["free"]:
            f["r"]["answer"] = int(rest)
            events = []
        else:
            raise err("not_offered")
    f["ask"] = None
    f["seq"] += 1
    return events + advance(s)


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


# --------------------------------------------------------------------------- the end


def breakdown_of(s: dict[str, Any]) -> list[dict[str, int]]:
    """The end-of-flight table: finish-order reward and best-looking ship for the ships
    still flying, goods (half price rounded up once retired), minus lost tiles; never below
    0 in all."""
    info = level(s["level"])
    f = s.get("flight")
    finishers = flying(s) if f else list(s["order"])
    exposed = {seat: sh.exposed(ship_of(s, seat)) for seat in finishers}
    best = min(exposed.values()) if exposed else 0
    out = []
    for seat, p in enumerate(s["players"]):
        rank = finishers.index(seat) if seat in finishers else None
        goods = {sh.unkey(k): v for k, v in p.get("goods", {}).items()}
        b = {
            "reward": info["rewards"][rank] if rank is not None else 0,
            "best_ship": info["best_ship_bonus"]
            if rank is not None and exposed[seat] == best
            else 0,
            "cards": int(p.get("won", 0)),
            "goods": fl.goods_value(goods, retired=rank is None),
            "lost": -len(p["lost"]) * int(data()["lost_tile_penalty"]),
        }
        total = sum(b.values())
        if total < 0:
            b["lost"] -= total  # credits never go below 0
        out.append(b)
    return out


def finish(s: dict[str, Any]) -> list[Event]:
    s["phase"] = "over"
    events = [ev("flight_over")]
    for seat, (p, b) in enumerate(zip(s["players"], breakdown_of(s), strict=True)):
        p["credits"] = sum(b.values())
        events.append(ev("credits", seat, credits=p["credits"]))
    return events
