"""Ad Astra — applying an answer (``apply_move``): each decision's effect on the state."""

from __future__ import annotations

from core.contract import Decision, Event, IllegalMove

from .data import ALIEN, COSTS, RES, VP_ALIEN_COLONY, VP_ALIEN_FACTORY, VP_TERRAFORM
from .decisions import _build_options, _move_equivalent, _move_targets, _swap_gives, pending_of
from .flow import _advance
from .state import (
    P,
    S,
    _bonus,
    _cost,
    _ev,
    _next_id,
    _ore_choices,
    _pay,
    _take,
    _use_art,
    copy_state,
    face_down_left,
    fmt_cards,
    order_from,
    own_planet,
    pieces,
    systems_of,
    yield_of,
)

# --------------------------------------------------------------------------- apply


def apply_move(s0: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    if s0["step"] == "over":
        raise IllegalMove(P + "error.over")
    mine = [d for d in pending_of(s0, seat) if d.seat == seat]
    if not mine:
        raise IllegalMove(P + "error.not_your_turn")
    decision = mine[0] if _move_equivalent(s0, seat, choice) else _match(mine, choice)
    s = copy_state(s0)
    ev: list[Event] = []
    step = s["step"]
    if step == "plan":
        _apply_plan(s, seat, choice, ev)
    elif step == "discard":
        _apply_discard(s, seat, choice, decision, ev)
    else:
        kind = s["task"]["k"]
        if kind == "prod":
            _apply_prod(s, seat, choice, ev)
        elif kind == "move":
            _apply_move(s, seat, choice, ev)
        elif kind == "build":
            _apply_build(s, seat, choice, ev)
        elif kind == "score":
            _apply_score(s, seat, choice, ev)
        else:
            _apply_trade(s, seat, choice, decision, ev)
    _advance(s, ev)
    return s, ev


def _match(decisions: list[Decision], choice: str) -> Decision:
    for d in decisions:
        if d.multi:
            picks = choice.split(",") if choice else []
            if (
                picks
                and len(set(picks)) == len(picks)
                and d.min_picks <= len(picks) <= d.max_picks
                and all(d.option(p) is not None for p in picks)
            ):
                return d
        elif d.option(choice) is not None:
            return d
    raise IllegalMove(P + "error.not_offered", choice=choice)


def _apply_plan(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    if s.get("arming"):
        art = s["arming"]
        s["arming"] = None
        if choice != "back":
            slot = int(choice[2:])
            s.setdefault("armed", []).append([slot - 1, seat, art])
            ev.append(_ev("armed", seat, private_to=seat, art=art, slot=slot))
        return
    if choice.startswith("arm."):
        s["arming"] = choice[4:]
        return
    if s["pick"] is None:
        s["pick"] = choice[2:]
        return
    if choice == "back":
        s["pick"] = None
        return
    slot = int(choice[2:]) - 1
    card = s["pick"]
    s["hand"][seat].remove(card)
    s["slots"][slot] = [seat, card, False]
    s["pick"] = None
    s["placed"] += 1
    s["planner"] = (seat + 1) % s["n"]
    ev.append(_ev("placed", seat, slot=slot + 1))
    ev.append(_ev("placed_card", seat, private_to=seat, slot=slot + 1, card=card))


def _apply_discard(s: S, seat: int, choice: str, d: Decision, ev: list[Event]) -> None:
    drop = {r: 0 for r in RES}
    for pick in choice.split(","):
        drop[pick.split(".")[1]] += 1
    _pay(s, seat, drop)
    s["need"][seat] -= sum(drop.values())
    ev.append(_ev("discarded", seat, count=sum(drop.values())))
    ev.append(_ev("discarded_cards", seat, private_to=seat, cards=fmt_cards(drop)))


def _apply_prod(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    t = s["task"]
    if choice == "art.cornu":
        s["arts"][seat].remove("cornu")
        t["double"] = True
        ev.append(_ev("art_used", seat, art="cornu", reveals=True))
        return
    r = choice[2:]
    ev.append(_ev("produce", seat, res=r))
    owner = t["o"]
    for o in order_from(s, owner):
        want = yield_of(s, o, r)
        if o == owner and t.get("double"):
            want *= 2
        if want:
            got = _take(s, o, r, want)
            ev.append(_ev("gain", o, res=r, count=got, wanted=want))
    s["task"] = None


def _apply_move(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    t = s["task"]
    t["n"] += 1
    if t.get("swap"):
        _apply_swap(s, seat, choice, ev)
        return
    if t["land"] is not None:
        _land(s, seat, int(choice[2:]), ev)
        return
    if t.get("spec") is not None:
        systems = [c[3:] for c in choice.split(",")]
        for x in systems:
            _peek(s, seat, x, ev)
        t["spec"] = None
        return
    mode = t["q"][0][1]
    if choice in ("pass", "done"):
        t["q"].pop(0)
        if choice == "pass":
            ev.append(_ev("no_move", seat))
        return
    if choice.startswith("art."):
        a = _use_art(s, seat, choice[4:], ev)
        if a == "ianua":
            t["gate"] = seat
        elif a == "propulsor":
            t["free"].append(seat)
            if seat != t["o"] and mode == "one":
                t["q"].insert(1, [seat, "rest"])
        elif a == "speculum":
            t["spec"] = seat
        elif a == "tropaeum":
            s["vp"][seat]["artifact"] += 5
        elif a == "commercium":
            t["swap"] = {"seat": seat, "left": 3, "give": None}
        return
    _, ship_s, dest = choice.split(".")
    ship = int(ship_s)
    cost = next(c for i, d, c in _move_targets(s, seat) if i == ship and d == dest)
    if t["gate"] == seat and dest != "deep":
        t["gate"] = None
    s["res"][seat]["E"] -= cost
    s["bank"]["E"] += cost
    t["moved"][seat].append(ship)
    loc = s["ships"][seat][ship]
    if dest == "deep":
        s["ships"][seat][ship] = -1
        ev.append(_ev("to_deep", seat, planet=loc + 1, cost=cost))
        _after_move(t, mode)
        return
    if loc < 0:
        ev.append(_ev("move_from_deep", seat, sys=dest, cost=cost))
    else:
        ev.append(_ev("move", seat, planet=loc + 1, sys=dest, cost=cost))
    _peek(s, seat, dest, ev)
    t["land"] = {"seat": seat, "ship": ship, "sys": dest}


def _peek(s: S, seat: int, sys_: str, ev: list[Event]) -> None:
    down = [pid for pid, p in enumerate(s["planets"]) if p["sys"] == sys_ and not p["up"]]
    for pid in down:
        if pid not in s["known"][seat]:
            s["known"][seat].append(pid)
    s["known"][seat].sort()
    ev.append(_ev("looked", seat, sys=sys_, count=len(down)))
    if down:
        seen = "+".join(str(s["planets"][pid]["t"]) for pid in down)  # codes, in order
        ev.append(_ev("saw", seat, private_to=seat, sys=sys_, planets=seen))


def _after_move(t: S, mode: str) -> None:
    if mode == "one":
        t["q"].pop(0)


def _land(s: S, seat: int, pid: int, ev: list[Event]) -> None:
    t = s["task"]
    land = t["land"]
    t["land"] = None
    p = own_planet(s, pid)
    s["ships"][seat][land["ship"]] = pid
    if not p["up"]:
        p["up"] = True
        ev.append(_ev("reveal", seat, planet=pid + 1, sys=p["sys"], res=p["t"], reveals=True))
        for o in range(s["n"]):
            if pid in s["known"][o]:
                s["known"][o].remove(pid)
        if p["t"] == ALIEN:
            _draw_artifact(s, seat, ev)
        if face_down_left(s) == 0 and not s["ending"]:
            s["ending"] = True
            ev.append(_ev("last_planet"))
    ev.append(_ev("land", seat, planet=pid + 1, sys=p["sys"], res=p["t"]))
    _after_move(t, t["q"][0][1])


def _draw_artifact(s: S, seat: int, ev: list[Event]) -> None:
    if not s["adeck"]:
        ev.append(_ev("no_artifact", seat))
        return
    a = s["adeck"].pop()
    if a == "repositorium":
        got = {r: _take(s, seat, r, 1) for r in RES}
        ev.append(_ev("warehouse", seat, cards=fmt_cards(got), reveals=True))
        return
    s["arts"][seat].append(a)
    ev.append(_ev("artifact", seat, reveals=True))
    ev.append(_ev("artifact_is", seat, private_to=seat, art=a, reveals=True))


def _apply_build(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    t = s["task"]
    t["n"] += 1
    owner = seat == t["o"]
    if t.get("swap"):
        _apply_swap(s, seat, choice, ev)
        return
    ore = None
    if t.get("ore"):
        asked = t["ore"]
        t["ore"] = None
        if choice == "back":
            return
        ore, choice = choice[4:], asked["choice"]
    if choice in ("done", "pass"):
        t["q"].pop(0)
        if t["free"] == seat:
            t["free"] = None
        return
    if choice.startswith("art."):
        a = _use_art(s, seat, choice[4:], ev)
        if a == "machina":
            t["free"] = seat
        elif a == "commercium":
            t["swap"] = {"seat": seat, "left": 3, "give": None}
        else:
            s["vp"][seat]["artifact"] += 5
        return
    kind, _oid, pid = next(b for b in _build_options(s, seat) if b[1] == choice)
    free = t["free"] == seat
    if not free and ore is None and len(_ore_choices(s, seat, kind)) >= 2:
        t["ore"] = {"seat": seat, "choice": choice, "item": kind}  # which ore pays: ask
        return
    pay = {} if free else _cost(s, seat, kind)
    if ore is not None:
        pay = dict(COSTS[kind]["pay"])
        pay[ore] = pay.get(ore, 0) + 1
    assert pay is not None
    _pay(s, seat, pay)
    if free:
        t["free"] = None
    p = own_planet(s, pid) if pid is not None else None
    vp = 0
    if kind == "ship":
        s["ships"][seat].append(-1)
    elif kind == "colony":
        assert p is not None
        p["b"] = [seat, "c"]
        vp = VP_ALIEN_COLONY if p["t"] == ALIEN else 0
    elif kind == "factory":
        assert p is not None
        p["b"] = [seat, "f"]
        vp = VP_ALIEN_FACTORY if p["t"] == ALIEN else 0
    else:
        assert p is not None
        p["tf"] = seat
        vp = VP_TERRAFORM
    s["vp"][seat]["build"] += vp
    ev.append(
        _ev(
            "built_ship" if pid is None else "built",
            seat,
            item=kind,
            planet=0 if pid is None else pid + 1,
            sys="" if pid is None else s["planets"][pid]["sys"],
            cards=fmt_cards(pay),
            vp=vp,
        )
    )
    if not owner and not free:
        t["q"].pop(0)


def _apply_score(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    t = s["task"]
    t["n"] += 1
    if t["elem"] is None:
        elem = choice[3:]
        t["elem"] = elem
        ev.append(_ev("scoring", seat, elem=elem))
        if elem in ("same", "diff"):
            o = t["o"]
            t["q"] = [*order_from(s, o)[1:], o]
            t["got"] = [0] * s["n"]
        else:
            _score_board(s, elem, ev)
            s["task"] = None
        return
    hand = s["res"][seat]
    drop: dict[str, int] = {}
    if choice == "back":
        t["pick"] = None
        return
    if choice.startswith("t."):
        t["pick"] = choice[2:]
        return
    if choice == "diff":
        t["pick"] = "diff"
        return
    if choice.startswith("k."):
        drop = {t["pick"]: int(choice[2:])}
        t["pick"] = None
    elif choice != "none":
        t["pick"] = None
        picks = choice.split(",")
        if "none" not in picks:
            if len(picks) < 2:
                raise IllegalMove(P + "error.diff_two")
            drop = {p[2:]: 1 for p in picks}
    assert all(hand[r] >= k for r, k in drop.items())
    _pay(s, seat, drop)
    got = sum(drop.values())
    t["got"][seat] = got
    s["vp"][seat]["scoring"] += got
    ev.append(_ev("scored_discard", seat, cards=fmt_cards(drop), vp=got))
    t["q"].pop(0)


def _score_board(s: S, elem: str, ev: list[Event]) -> None:
    n = s["n"]
    pts = [0] * n
    measure = [0] * n
    for seat in range(n):
        pc = pieces(s, seat)
        if elem == "colfac":
            pts[seat] = pc["c"] + 2 * pc["f"]
            measure[seat] = pts[seat]
        elif elem == "ships":
            pts[seat] = 2 * pc["ship"]
            measure[seat] = pc["ship"]
        elif elem == "terra":
            pts[seat] = 3 * pc["tf"]
            measure[seat] = pc["tf"]
        else:
            k = len(systems_of(s, seat))
            pts[seat] = k
            measure[seat] = k
    for seat in range(n):
        s["vp"][seat]["scoring"] += pts[seat]
        ev.append(_ev("scored", seat, elem=elem, vp=pts[seat]))
    _bonus(s, measure, ev)


def _apply_trade(s: S, seat: int, choice: str, d: Decision, ev: list[Event]) -> None:
    t = s["task"]
    owner = t["o"]
    comp = t["comp"]
    if d.prompt == P + "prompt.compose":
        c = comp.pop(str(seat))
        picks = choice.split(",")
        if "x" in picks:
            return
        give = {r: 0 for r in RES}
        want = {r: 0 for r in RES}
        for pk in picks:
            side, r, _ = pk.split(".")
            (give if side == "g" else want)[r] += 1
        give = {r: k for r, k in give.items() if k}
        want = {r: k for r, k in want.items() if k}
        same = [r for r in RES if r in give and r in want]
        if same and s.get("rules", 1) >= 2:  # ruling 23: no card for one of its own type
            ev.append(_ev("same_both", seat, to_seat=c["to"], res=same[0]))
            return
        oid = _next_id(s)
        prop = seat != owner
        off = {"id": oid, "frm": seat, "to": c["to"], "give": give, "want": want, "prop": prop}
        t["offers"].append(off)
        if prop:
            t["nprop"][seat] += 1
        else:
            t["noff"] += 1
        ev.append(
            _ev(
                "proposal" if prop else "offer",
                seat,
                to_seat=c["to"],
                give=fmt_cards(give),
                want=fmt_cards(want),
                id=oid,
            )
        )
        return
    if choice == "done":
        _close_trade(s, seat, ev)
        return
    if choice == "pass":
        t["out"].append(seat)
        return
    if choice == "prop":
        t["ncomp"] += 1
        comp[str(seat)] = {"to": owner, "n": t["ncomp"]}
        return
    if choice.startswith("offer."):
        t["ncomp"] += 1
        comp[str(seat)] = {"to": int(choice[6:]), "n": t["ncomp"]}
        return
    if choice.startswith("bank."):
        t["bank"] = choice[5:]
        return
    if choice == "back":
        t["bank"] = None
        t["nb"] += 1
        return
    if choice.startswith("get."):
        give, get = t["bank"], choice[4:]
        _pay(s, seat, {give: 2})
        _take(s, seat, get, 1)
        t["bank"] = None
        t["nb"] += 1
        ev.append(_ev("bank_trade", seat, give=give, get=get))
        return
    verb, oid_s = choice.split(".")
    oid = int(oid_s)
    off = next(o for o in t["offers"] if o["id"] == oid)
    t["offers"].remove(off)
    if verb == "acc":
        frm, to = off["frm"], off["to"]
        for r, k in off["give"].items():
            s["res"][frm][r] -= k
            s["res"][to][r] += k
        for r, k in off["want"].items():
            s["res"][to][r] -= k
            s["res"][frm][r] += k
        ev.append(
            _ev(
                "accepted",
                seat,
                id=oid,
                from_seat=frm,
                give=fmt_cards(off["give"]),
                want=fmt_cards(off["want"]),
            )
        )
    elif verb == "ref":
        ev.append(_ev("refused", seat, id=oid, from_seat=off["frm"]))
    else:
        ev.append(_ev("lapsed", seat, id=oid, from_seat=off["frm"]))


def _close_trade(s: S, seat: int, ev: list[Event]) -> None:
    t = s["task"]
    for off in t["offers"]:
        ev.append(_ev("lapsed", off["to"], id=off["id"], from_seat=off["frm"]))
    ev.append(_ev("trade_closed", seat))
    s["task"] = None


# ----- Commercium Alienum: a give, then a take


def _apply_swap(s: S, seat: int, choice: str, ev: list[Event]) -> None:
    t = s["task"]
    sw = t["swap"]
    if choice == "stop":
        t["swap"] = None
        return
    if choice == "back":
        sw["give"] = None
        return
    if choice.startswith("sw."):
        sw["give"] = choice[3:]
        return
    give, get = sw["give"], choice[3:]
    _pay(s, seat, {give: 1})
    _take(s, seat, get, 1)
    ev.append(_ev("swapped", seat, give=give, get=get))
    sw["give"] = None
    sw["left"] -= 1
    if sw["left"] <= 0 or not _swap_gives(s, seat):
        t["swap"] = None
