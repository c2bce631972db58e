"""Ad Astra — the open decisions of a state (``pending_of``): planning, production,
movement, build, Commercium Alienum, scoring, the trade window and the discards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from core.contract import Decision, Option, Timer

from .data import (
    ALIEN,
    CARD_IDS,
    MOVE_COST,
    PIECES,
    RES,
    SCORING,
    STARS,
    TERRAFORMABLE,
    VP_ALIEN_COLONY,
    VP_ALIEN_FACTORY,
    VP_TERRAFORM,
    card_pair,
)
from .state import (
    ARMED,
    MAX_OFFERS,
    MAX_PROPOSALS,
    MENU,
    P,
    S,
    _cost,
    _opt,
    _ore_choices,
    blocked,
    fmt_cards,
    hand_total,
    order_from,
    pieces,
)

# --------------------------------------------------------------------------- decisions


def pending_of(s: S, only: int | None = None) -> list[Decision]:
    """Every open decision (``only``: just that seat's, a shortcut for ``apply``)."""
    step = s["step"]
    if step == "over":
        return []
    if step == "plan":
        return [_plan_decision(s)]
    if step == "discard":
        return [_discard_decision(s, seat) for seat in range(s["n"]) if s["need"][seat] > 0]
    t = s["task"]
    kind = t["k"]
    if kind == "prod":
        return [_prod_decision(s)]
    if kind == "move":
        return [_move_decision(s)]
    if kind == "build":
        return [_build_decision(s)]
    if kind == "score":
        return [_score_decision(s)]
    return _trade_decisions(s, only)


def _plan_decision(s: S) -> Decision:
    seat = s["planner"]
    key = f"plan.{s['round']}.{s['placed']}"
    if s.get("arming"):
        return Decision(
            seat,
            P + "prompt.arm_slot",
            _slot_options("a", tuple(range(len(s["slots"])))),
            args={"art": s["arming"]},
            private=True,
            key=key + ".arm",
        )
    if s["pick"] is None:
        opts = _hand_options(s["fac"][seat], tuple(s["hand"][seat]))
        if s["arts"][seat]:
            opts += tuple(_opt(f"arm.{a}", f"opt.arm.{a}") for a in _armable(s, seat))
        return Decision(
            seat,
            P + "prompt.plan_card",
            opts,
            args={"round": s["round"]},
            private=True,
            key=key,
        )
    free = tuple(i for i, x in enumerate(s["slots"]) if x is None)
    return Decision(
        seat,
        P + "prompt.plan_slot",
        _slot_options("s", free),
        args={"card": s["pick"]},
        private=True,
        key=key + ".slot",
    )


@lru_cache(maxsize=4096)
def _hand_options(fac: str, hand: tuple[str, ...]) -> tuple[Option, ...]:
    """The cards of ``hand`` to plan, in card order (``CARD_IDS``), for ``fac``
    (a hand is a subset of the eleven cards: a few thousand tuples at most)."""
    return tuple(_faction_card(fac, c) for c in CARD_IDS if c in hand)


@lru_cache(maxsize=4096)
def _slot_options(prefix: str, slots: tuple[int, ...]) -> tuple[Option, ...]:
    """A slot to choose among ``slots`` (0-based indices), then back: ``s.N`` for a planned
    card's free slots, ``a.N`` for an armed artifact's (every slot)."""
    opts = tuple(_opt(f"{prefix}.{i + 1}", "opt.slot", "primary", slot=i + 1) for i in slots)
    return (*opts, _opt("back", "opt.back"))


@cache
def _faction_card(fac: str, card: str) -> Option:
    if card[0] in ("p", "m"):
        a, b = card_pair(fac, card)
        return _opt(f"c.{card}", f"opt.plan.{card}", "primary", a=a, b=b)
    return _opt(f"c.{card}", f"card.{card}", "primary")


def _armable(s: S, seat: int) -> list[str]:
    """The held slot artifacts ``seat`` has not armed yet this round."""
    armed = {a for _slot, o, a in s.get("armed", []) if o == seat}
    return [a for a in ARMED if a in s["arts"][seat] and a not in armed]


def _discard_decision(s: S, seat: int) -> Decision:
    need = s["need"][seat]
    hand = s["res"][seat]
    units = [(t, i) for t in RES for i in range(1, min(hand[t], need) + 1)]
    key = f"discard.{s['round']}"
    if len(units) <= MENU:
        opts = tuple(_opt(f"x.{t}.{i}", f"opt.discard_unit.{t}", res=t, nth=i) for t, i in units)
        return Decision(
            seat,
            P + "prompt.discard",
            opts,
            args={"count": need},
            private=True,
            key=key,
            min_picks=need,
            max_picks=need,
        )
    opts = tuple(_opt(f"x.{t}", f"opt.discard_one.{t}", res=t) for t in RES if hand[t] > 0)
    return Decision(seat, P + "prompt.discard", opts, args={"count": need}, private=True, key=key)


def _prod_decision(s: S) -> Decision:
    t = s["task"]
    seat = t.get("by", t["o"])
    opts = tuple(_opt(f"r.{r}", f"opt.produce.{r}", "primary", res=r) for r in t["pair"])
    if "cornu" in s["arts"][seat] and seat == t["o"]:
        opts += (_opt("art.cornu", "opt.art.cornu"),)
    return Decision(seat, P + "prompt.produce", opts, key=f"slot.{s['round']}.{s['cur']}")


def _art_opts(s: S, seat: int, ctx: str) -> tuple[Option, ...]:
    uses = {
        "move": ("ianua", "propulsor", "speculum", "tropaeum", "commercium"),
        "build": ("machina", "tropaeum", "commercium"),
    }
    t = s["task"]
    out = []
    for a in uses[ctx]:
        if a not in s["arts"][seat]:
            continue
        if a == "ianua" and t["gate"] == seat:
            continue
        if a == "propulsor" and seat in t["free"]:
            continue
        if a == "machina" and t["free"] == seat:
            continue
        if a == "commercium" and not _swap_gives(s, seat):
            continue
        out.append(_opt(f"art.{a}", f"opt.art.{a}"))
    return tuple(out)


# ----- Commercium Alienum: up to 3 cards swapped with the bank, one for one


def _swap_gives(s: S, seat: int) -> list[str]:
    """The types ``seat`` may hand the bank now (some other type is left to take)."""
    hand, bank = s["res"][seat], s["bank"]
    return [r for r in RES if hand[r] > 0 and any(bank[x] > 0 for x in RES if x != r)]


def _swap_decision(s: S) -> Decision:
    t = s["task"]
    sw = t["swap"]
    seat = sw["seat"]
    key = f"slot.{s['round']}.{s['cur']}.{t['n']}"
    if sw["give"] is None:
        opts = tuple(
            _opt(f"sw.{r}", "opt.swap_give", "primary", res=r) for r in _swap_gives(s, seat)
        )
        return Decision(
            seat,
            P + "prompt.swap_give",
            (*opts, _opt("stop", "opt.swap_stop")),
            args={"left": sw["left"]},
            key=key,
        )
    give = sw["give"]
    opts = tuple(
        _opt(f"sg.{r}", "opt.swap_get", "primary", res=r)
        for r in RES
        if r != give and s["bank"][r] > 0
    )
    return Decision(
        seat,
        P + "prompt.swap_get",
        (*opts, _opt("back", "opt.back")),
        args={"res": give},
        key=key,
    )


# ----- movement


def _move_targets(s: S, seat: int) -> list[tuple[int, str, int]]:
    """Legal (ship, destination, energy cost) for ``seat`` now: a card system or ``deep``."""
    t = s["task"]
    moved = t["moved"][seat]
    energy = s["res"][seat]["E"]
    free = seat in t["free"]
    systems = list(STARS) if t["gate"] == seat else list(t["sys"])
    out: list[tuple[int, str, int]] = []
    for i, loc in enumerate(s["ships"][seat]):
        if i in moved:
            continue
        here = s["planets"][loc]["sys"] if loc >= 0 else None
        if loc >= 0:
            cost = 0 if free else MOVE_COST["to_deep"]
            if energy >= cost:
                out.append((i, "deep", cost))
        for sys_ in systems:
            if loc < 0:
                cost = MOVE_COST["deep_to_planet"]
            elif here == sys_:
                cost = MOVE_COST["within_system"]
            else:
                cost = MOVE_COST["between_systems"]
            if free or t["gate"] == seat:
                cost = 0
            if energy < cost or not _landings(s, seat, sys_, loc):
                continue
            out.append((i, sys_, cost))
    return out


def _landings(s: S, seat: int, sys_: str, loc: int) -> list[int]:
    return [
        pid
        for pid, p in enumerate(s["planets"])
        if p["sys"] == sys_ and pid != loc and (not p["up"] or not blocked(s, pid, seat))
    ]


def _move_decision(s: S) -> Decision:
    t = s["task"]
    key = f"slot.{s['round']}.{s['cur']}.{t['n']}"
    if t.get("swap"):
        return _swap_decision(s)
    if t["land"] is not None:
        seat, sys_ = t["land"]["seat"], t["land"]["sys"]
        loc = s["ships"][seat][t["land"]["ship"]]
        opts = []
        for pid in _landings(s, seat, sys_, loc):
            p = s["planets"][pid]
            label = "opt.land_up" if p["up"] else "opt.reveal"
            opts.append(
                _opt(
                    f"l.{pid}",
                    f"{label}.{p['t']}",
                    "primary",
                    planet=pid + 1,
                    res=p["t"],
                    sys=sys_,
                )
            )
        return Decision(
            seat, P + "prompt.land", tuple(opts), args={"sys": sys_}, private=True, key=key
        )
    if t.get("spec") is not None:
        seat = t["spec"]
        sopts = tuple(_opt(f"sp.{x}", f"opt.system.{x}", sys=x) for x in STARS)
        return Decision(
            seat, P + "prompt.speculum", sopts, private=True, key=key, min_picks=2, max_picks=2
        )
    seat, mode = t["q"][0]
    opts = []
    seen: set[tuple[int, str]] = set()
    for i, d, c in _move_targets(s, seat):
        loc = s["ships"][seat][i]
        if (loc, d) in seen:
            continue  # ships at one place are alike: one button (ruling 24)
        seen.add((loc, d))
        frm = "deep" if loc < 0 else "planet"
        opts.append(
            _opt(
                f"mv.{i}.{d}",
                f"opt.move_from_{frm}.{d}",
                "primary",
                planet=loc + 1,
                dest=d,
                cost=c,
                ship=i,  # the ship's index (not shown: ships are named by their place)
            )
        )
    opts += list(_art_opts(s, seat, "move"))
    opts.append(
        _opt("done" if mode == "rest" else "pass", "opt.done" if mode == "rest" else "opt.pass")
    )
    prompt = "prompt.move_rest" if mode == "rest" else "prompt.move"
    return Decision(
        seat, P + prompt, tuple(opts), args={"a": t["sys"][0], "b": t["sys"][1]}, key=key
    )


def _move_equivalent(s: S, seat: int, choice: str) -> bool:
    """A move of a ship that the buttons stand for by another ship at the same place (one
    button per place, ruling 24): still accepted, so that stored games replay."""
    t = s["task"]
    if (
        s["step"] != "act"
        or t is None
        or t["k"] != "move"
        or t["land"] is not None
        or t.get("spec") is not None
        or t.get("swap")
        or not t["q"]
        or t["q"][0][0] != seat
        or not choice.startswith("mv.")
    ):
        return False
    parts = choice.split(".")
    if len(parts) != 3 or not parts[1].isdigit():
        return False
    return any(i == int(parts[1]) and d == parts[2] for i, d, _c in _move_targets(s, seat))


# ----- build


def _build_options(s: S, seat: int) -> list[tuple[str, str, int | None]]:
    """Legal (kind, option id, planet) builds for ``seat``."""
    t = s["task"]
    free = t["free"] == seat
    have = pieces(s, seat)

    def can(item: str) -> bool:
        return free or _cost(s, seat, item) is not None

    out: list[tuple[str, str, int | None]] = []
    ships_at = set(s["ships"][seat])
    for pid, p in enumerate(s["planets"]):
        b = p["b"]
        if (
            b is None
            and have["c"] < PIECES
            and (pid in ships_at or p["tf"] == seat)
            and not blocked(s, pid, seat)
            and can("colony")
        ):
            out.append(("colony", f"col.{pid}", pid))
        if b is not None and b == [seat, "c"] and have["f"] < PIECES and can("factory"):
            out.append(("factory", f"fac.{pid}", pid))
        if (
            p["tf"] is None
            and p["t"] in TERRAFORMABLE
            and have["tf"] < PIECES
            and ((b is not None and b[0] == seat) or pid in ships_at)
            and not blocked(s, pid, seat)
            and can("terraform")
        ):
            out.append(("terraform", f"ter.{pid}", pid))
    if have["ship"] < PIECES and can("ship"):
        out.append(("ship", "ship", None))
    return out


def _build_vp(s: S, kind: str, pid: int | None) -> int:
    """The points a build scores at once (shown on its button before it is built)."""
    if kind == "terraform":
        return VP_TERRAFORM
    if pid is not None and s["planets"][pid]["t"] == ALIEN:
        return VP_ALIEN_COLONY if kind == "colony" else VP_ALIEN_FACTORY
    return 0


def _build_decision(s: S) -> Decision:
    t = s["task"]
    if t.get("swap"):
        return _swap_decision(s)
    if t.get("ore"):
        seat, item = t["ore"]["seat"], t["ore"]["item"]
        oopts = tuple(
            _opt(f"ore.{o}", "opt.pay_ore", "primary", res=o) for o in _ore_choices(s, seat, item)
        )
        return Decision(
            seat,
            P + "prompt.pay_ore",
            (*oopts, _opt("back", "opt.back")),
            args={"item": item},
            private=True,
            key=f"slot.{s['round']}.{s['cur']}.{t['n']}",
        )
    seat = t["q"][0]
    opts = []
    for kind, oid, pid in _build_options(s, seat):
        vp = _build_vp(s, kind, pid)
        opts.append(
            _opt(
                oid,
                f"opt.build.{kind}" + ("_vp" if vp else ""),
                "primary",
                planet=pid + 1 if pid is not None else 0,
                sys=s["planets"][pid]["sys"] if pid is not None else "",
                vp=vp,
            )
        )
    opts += list(_art_opts(s, seat, "build"))
    owner = seat == t["o"]
    opts.append(_opt("done" if owner else "pass", "opt.done" if owner else "opt.pass"))
    return Decision(
        seat,
        P + ("prompt.build_owner" if owner else "prompt.build"),
        tuple(opts),
        key=f"slot.{s['round']}.{s['cur']}.{t['n']}",
    )


# ----- scoring


def _score_decision(s: S) -> Decision:
    t = s["task"]
    key = f"slot.{s['round']}.{s['cur']}.{t['n']}"
    if t["elem"] is None:
        seat = t.get("by", t["o"])
        opts = tuple(_opt(f"sc.{e}", f"opt.score.{e}", "primary") for e in SCORING[t["card"]])
        return Decision(seat, P + "prompt.score", opts, key=key)
    seat = t["q"][0]
    hand = s["res"][seat]
    if t["elem"] == "same":
        if t["pick"] is None:
            opts = tuple(
                _opt(f"t.{r}", f"opt.same_type.{r}", "primary", res=r, have=hand[r])
                for r in RES
                if hand[r] >= 2
            )
            return Decision(seat, P + "prompt.same", (*opts, _opt("none", "opt.none")), key=key)
        r = t["pick"]
        opts = tuple(
            _opt(f"k.{k}", f"opt.count.{r}", "primary", res=r, count=k)
            for k in range(2, hand[r] + 1)
        )
        return Decision(
            seat,
            P + "prompt.same_count",
            (*opts, _opt("back", "opt.back")),
            args={"res": r},
            key=key + ".k",
        )
    kinds = [r for r in RES if hand[r] >= 1]
    if t["pick"] != "diff":
        # First whether to discard at all, then which types: the multi-pick then needs 2+.
        go = (_opt("diff", "opt.diff_go", "primary"),) if len(kinds) >= 2 else ()
        return Decision(seat, P + "prompt.diff_ask", (*go, _opt("none", "opt.none")), key=key)
    opts = tuple(_opt(f"d.{r}", f"opt.diff_type.{r}", res=r) for r in kinds)
    return Decision(
        seat,
        P + "prompt.diff",
        opts,
        key=key + ".d",
        min_picks=2,
        max_picks=len(kinds),
    )


# ----- trade


def _trade_decisions(s: S, only: int | None = None) -> list[Decision]:
    t = s["task"]
    owner = t["o"]
    tid = t["tid"]
    secs = s["trade_secs"]
    offer_secs = s.get("offer_secs", secs // 3)  # states saved before offers had their own
    out: list[Decision] = []
    comp = t["comp"]
    # The owner: composing, choosing a bank card, or the main window decision.
    if only is not None and only != owner:
        pass
    elif str(owner) in comp:
        out.append(_compose_decision(s, owner, comp[str(owner)]))
    elif t["bank"] is not None:
        give = t["bank"]
        bopts = tuple(
            _opt(f"get.{r}", f"opt.bank_get.{r}", "primary", res=r)
            for r in RES
            if r != give and s["bank"][r] > 0 and s["res"][owner][give] >= 2
        )
        out.append(
            Decision(
                owner,
                P + "prompt.bank_get",
                (*bopts, _opt("back", "opt.back")),
                args={"res": give},
                key=f"trade.{tid}.bank.{t['nb']}",
                timer=Timer(f"trade.{tid}.bank.{t['nb']}", secs, "back"),
            )
        )
    else:
        opts: list[Option] = []
        if t["noff"] < MAX_OFFERS and hand_total(s, owner) > 0:
            opts += [_offer_option(o) for o in order_from(s, owner)[1:] if hand_total(s, o) > 0]
        held, bank = s["res"][owner], s["bank"]
        opts += [
            _bank_give_option(r)
            for r in RES
            if held[r] >= 2 and any(bank[x] > 0 for x in RES if x != r)
        ]
        opts.append(_TRADE_DONE)
        out.append(
            Decision(
                owner,
                P + "prompt.trade",
                tuple(opts),
                key=f"trade.{tid}.main",
                timer=Timer(f"trade.{tid}", secs, "done"),
            )
        )
    for off in t["offers"]:
        oid = off["id"]
        answers = [_opt(f"acc.{oid}", "opt.accept", "success")] if _feasible(s, off) else []
        answers.append(_opt(f"ref.{oid}", "opt.refuse", "danger"))
        terms = {
            "from_seat": off["frm"],
            "give": fmt_cards(off["give"]),
            "want": fmt_cards(off["want"]),
        }
        if off["prop"]:
            out.append(
                Decision(
                    owner, P + "prompt.proposal", tuple(answers), args=terms, key=f"prop.{oid}"
                )
            )
        else:
            answers.append(_opt(f"lapse.{oid}", "opt.lapse"))
            out.append(
                Decision(
                    off["to"],
                    P + "prompt.offer",
                    tuple(answers),
                    args=terms,
                    key=f"offer.{oid}",
                    # The offer was made in public (every hand is open while trading): its
                    # answer is asked on the table, not in secret.
                    timer=Timer(f"offer.{oid}", offer_secs, f"lapse.{oid}"),
                )
            )
    for seat in order_from(s, owner)[1:]:
        if only is not None and only != seat:
            continue
        if str(seat) in comp:
            out.append(_compose_decision(s, seat, comp[str(seat)]))
        elif _may_propose(s, seat):
            out.append(
                Decision(
                    seat,
                    P + "prompt.may_propose",
                    _propose_options(owner),
                    args={"owner_seat": owner},
                    key=f"trade.{tid}.p{seat}.{t['nprop'][seat]}",
                )
            )
    return out


@cache
def _offer_option(seat: int) -> Option:
    return _opt(f"offer.{seat}", "opt.offer_to", "primary", to_seat=seat)


@cache
def _bank_give_option(res: str) -> Option:
    return _opt(f"bank.{res}", f"opt.bank_give.{res}", res=res)


_TRADE_DONE = _opt("done", "opt.trade_done", "danger")


@cache
def _propose_options(owner: int) -> tuple[Option, Option]:
    """A proposal to the trade's owner, or none."""
    return (
        _opt("prop", "opt.propose", "primary", to_seat=owner),
        _opt("pass", "opt.no_proposal"),
    )


def _may_propose(s: S, seat: int) -> bool:
    t = s["task"]
    return (
        seat not in t["out"]
        and t["nprop"][seat] < MAX_PROPOSALS
        and not any(o["prop"] and o["frm"] == seat for o in t["offers"])
        and hand_total(s, seat) > 0
        and hand_total(s, t["o"]) > 0
    )


def _unit_caps(s: S, frm: int, to: int) -> int:
    for cap in (4, 3, 2, 1):
        total = sum(min(s["res"][frm][r], cap) + min(s["res"][to][r], cap) for r in RES)
        if total + 1 <= MENU:
            return cap
    return 1


def _compose_decision(s: S, seat: int, comp: Mapping[str, Any]) -> Decision:
    t = s["task"]
    to = comp["to"]
    cap = _unit_caps(s, seat, to)
    mine, theirs = s["res"][seat], s["res"][to]
    opts = [
        *_unit_options("g", "give", tuple(min(mine[r], cap) for r in RES)),
        *_unit_options("w", "want", tuple(min(theirs[r], cap) for r in RES)),
        _opt("x", "opt.cancel", "danger"),
    ]
    key = f"trade.{t['tid']}.c{seat}.{comp['n']}"
    return Decision(
        seat,
        P + "prompt.compose",
        tuple(opts),
        args={"to_seat": to},
        key=key,
        min_picks=1,
        max_picks=len(opts),
        timer=Timer(key, s["trade_secs"], "x"),
    )


@cache
def _unit_options(verb: str, word: str, counts: tuple[int, ...]) -> tuple[Option, ...]:
    """A compose's cards to give (``g``) or want (``w``): ``counts[i]`` of type ``RES[i]``."""
    return tuple(
        _opt(f"{verb}.{r}.{i}", f"opt.{word}_unit.{r}", res=r, nth=i)
        for r, k in zip(RES, counts, strict=True)
        for i in range(1, k + 1)
    )


def _feasible(s: S, off: Mapping[str, Any]) -> bool:
    frm, to = off["frm"], off["to"]
    return all(s["res"][frm][r] >= k for r, k in off["give"].items()) and all(
        s["res"][to][r] >= k for r, k in off["want"].items()
    )
