"""The flight: the adventure deck, card by card, then the end-of-flight table.

This module holds the loop (``advance``), the decisions and applying an answer; the cards
resolve in ``encounters`` (one resolver per card type), with ``crew`` (crew, batteries, the
track, the open question), ``goods`` and ``hazards`` (dice, meteors, cannon fire, a ship
breaking apart). The names other code uses from here are re-exported (``__all__``).

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
from typing import Any

from core.contract import Decision, Event, Option
from rules.kit import rng

from . import flight as fl
from . import ship as sh
from .building import GAME, cell_arg, err, ev, grid_options, opt
from .crew import (
    _ask,
    _num,
    _remove_one,
    _stock,
    aliens_of,
    batteries,
    drain,
    flying,
    fullest,
    humans,
    hurt,
    lose_crew,
    occupied,
    ship_of,
)
from .encounters import RESOLVERS
from .goods import (
    GOODS_ICON,
    _check_goods,
    _fit,
    _holds,
    _load_step,
    _room,
    best_goods,
    goods_pool,
    load_goods,
    lose_goods,
)
from .hazards import _hazard_step, _prune, life_supported
from .tiles import cards, data, level, tile

LEVEL_NUMBER = {"learning": 1, "I": 1, "II": 2, "III": 3}
ENEMIES = ("slavers", "smugglers", "pirates")

#: The flight's interface, with the names other modules and tests use from here (re-exported
#: from the modules the flight is split into: crew, goods, hazards, encounters).
__all__ = [
    "advance",
    "apply_flight",
    "breakdown_of",
    "cards",
    "decisions",
    "drain",
    "finish",
    "flying",
    "fullest",
    "life_supported",
    "load_goods",
    "lose_goods",
    "start_flight",
]


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
