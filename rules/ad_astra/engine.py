"""Ad Astra — the pure rules engine (state, decisions, effects, scoring).

The state is a plain JSON-compatible dict; the package docstring lists the rulings. Seats
sit clockwise in seat order; seat ``i`` plays the faction ``state["fac"][i]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Result, Timer
from rules.kit import Events, Options, check, clone, result_of_parts, rng

from .data import (
    ALIEN,
    ARTIFACTS,
    BONUS,
    CARD_IDS,
    CARDS_PER_ROUND,
    COSTS,
    DATA,
    END_VP,
    FACTIONS,
    GAME_ID,
    HAND_LIMIT,
    MOVE_COST,
    ORES,
    PER_TYPE,
    PIECES,
    PLANET_COUNTS,
    RES,
    SCORING,
    SCORING_CARDS,
    SLOTS,
    SOL,
    STARS,
    TERRAFORMABLE,
    VP_ALIEN_COLONY,
    VP_ALIEN_FACTORY,
    VP_TERRAFORM,
    card_kind,
    card_pair,
)

SCHEMA = 1
#: The rulings a state follows: 2 since R23 (no offer of a type for the same type); a
#: state without the key is rules 1 (such offers are sent). It comes from the lobby's hidden
#: ``rules`` option, which new lobbies store: the host rebuilds a game from ``new_state``
#: and its log (undo, rollback, audits), so a lobby stored before it replays as it was.
RULES = 2
STEPS = ("plan", "act", "discard", "over")
PHASE_KEYS = {k: f"{GAME_ID}.phase.{k}" for k in STEPS}
P = f"{GAME_ID}."
TRADE_SECONDS: dict[str, int] = dict(DATA["trade"]["seconds"])
#: How long an offer waits for its answer before it lapses (shorter than the window).
OFFER_SECONDS: dict[str, int] = dict(DATA["trade"]["offer_seconds"])
MAX_OFFERS: int = DATA["trade"]["max_offers_per_window"]
MAX_PROPOSALS: int = DATA["trade"]["max_proposals_per_seat"]
#: Most options a select menu holds.
MENU = 25
#: Artifacts armed secretly on a slot during planning (they act when it is revealed).
ARMED = ("responsum", "sigillum")

_ev = Events(GAME_ID)
_opt = Options(GAME_ID)

S = dict[str, Any]


# --------------------------------------------------------------------------- set-up


def new_state(players: int, options: Mapping[str, str], seed: int) -> S:
    if not 3 <= players <= 5:
        raise ValueError("Ad Astra takes 3 to 5 players")
    trade = options.get("trade_time", "days")
    arts = options.get("artifacts", "base")
    rules = int(options.get("rules", "1"))
    if trade not in TRADE_SECONDS or arts not in ("base", "all") or rules not in (1, RULES):
        raise ValueError("unknown Ad Astra option")
    n = players
    s: S = {
        "schema": SCHEMA,
        "seed": int(seed),
        "rc": 0,
        "n": n,
        "fac": list(FACTIONS[:n]),
        "trade_secs": TRADE_SECONDS[trade],
        "offer_secs": OFFER_SECONDS[trade],
        "round": 1,
        "step": "plan",
        "first": 0,
        "slots": [None] * SLOTS[n],
        "planner": 0,
        "placed": 0,
        "pick": None,
        "hand": [list(CARD_IDS) for _ in range(n)],
        "used_sc": [[] for _ in range(n)],
        "res": [{t: 1 for t in RES} for _ in range(n)],
        "bank": {t: PER_TYPE - n for t in RES},
        "planets": [],
        "ships": [[-1] for _ in range(n)],
        "known": [[] for _ in range(n)],
        "arts": [[] for _ in range(n)],
        "adeck": [],
        "vp": [{"build": 0, "scoring": 0, "bonus": 0, "artifact": 0} for _ in range(n)],
        "cur": -1,
        "task": None,
        "ending": False,
        "seq": 0,
        "need": [0] * n,
        "armed": [],  # [slot index, seat, artifact] armed secretly during planning
        "arming": None,
    }
    r = rng(s, GAME_ID)
    pool = [t for t, k in PLANET_COUNTS.items() for _ in range(k)]
    r.shuffle(pool)
    # Home planets: the first n non-alien tiles; an alien goes back into the pool (ruling 13).
    homes: list[str] = []
    while len(homes) < n:
        t = pool.pop(0)
        if t == ALIEN:
            pool.insert(r.randrange(len(pool) + 1), t)
            continue
        homes.append(t)
    r.shuffle(pool)
    planets: list[dict[str, Any]] = []
    for seat, t in enumerate(homes):
        planets.append({"sys": SOL, "t": t, "up": True, "b": [seat, "f"], "tf": None})
    sizes = _system_sizes(len(pool), r)
    for star, size in zip(STARS, sizes, strict=True):
        for _ in range(size):
            planets.append({"sys": star, "t": pool.pop(), "up": False, "b": None, "tf": None})
    s["planets"] = planets
    deck = [
        a
        for a, card in ARTIFACTS.items()
        if card["implemented"] and (arts == "all" or not card["optional"])
    ]
    r.shuffle(deck)
    s["adeck"] = deck
    s["first"] = s["planner"] = r.randrange(n)
    if rules >= 2:  # a rules-1 state has no key, as those stored before it
        s["rules"] = rules
    return s


def _system_sizes(total: int, r: Any) -> list[int]:
    """As even as possible; random systems take the extra planets (DESIGNED default)."""
    k = len(STARS)
    sizes = [total // k] * k
    for i in r.sample(range(k), total % k):
        sizes[i] += 1
    return sizes


# --------------------------------------------------------------------------- helpers


def order_from(s: S, seat: int) -> list[int]:
    """Every seat clockwise, starting with ``seat``."""
    n = s["n"]
    return [(seat + i) % n for i in range(n)]


def hand_total(s: S, seat: int) -> int:
    return sum(s["res"][seat].values())


def vp_total(s: S, seat: int) -> int:
    return sum(s["vp"][seat].values())


def pieces(s: S, seat: int) -> dict[str, int]:
    """Pieces of ``seat`` in play: colonies, factories, terraformers, ships."""
    out = {"c": 0, "f": 0, "tf": 0, "ship": len(s["ships"][seat])}
    for p in s["planets"]:
        if p["b"] is not None and p["b"][0] == seat:
            out[p["b"][1]] += 1
        if p["tf"] == seat:
            out["tf"] += 1
    return out


def blocked(s: S, pid: int, seat: int) -> bool:
    """True when a pawn of another player stands on planet ``pid``."""
    p = s["planets"][pid]
    if p["b"] is not None and p["b"][0] != seat:
        return True
    if p["tf"] is not None and p["tf"] != seat:
        return True
    return any(pid in s["ships"][o] for o in range(s["n"]) if o != seat)


def face_down_left(s: S) -> int:
    return sum(1 for p in s["planets"] if not p["up"])


def _cost(s: S, seat: int, item: str) -> dict[str, int] | None:
    """The cards ``seat`` would pay for ``item``, or None when it cannot pay. The "any ore"
    is paid with the ore held most after the fixed part (X, Y, Z order on a tie): what a bot
    pays; a player with a real choice is asked (ruling 14)."""
    spec = COSTS[item]
    hand = s["res"][seat]
    pay = dict(spec["pay"])
    if any(hand[t] < k for t, k in pay.items()):
        return None
    for _ in range(spec["any_ore"]):
        left = {o: hand[o] - pay.get(o, 0) for o in ORES}
        best = max(ORES, key=lambda o: (left[o], -ORES.index(o)))
        if left[best] <= 0:
            return None
        pay[best] = pay.get(best, 0) + 1
    return pay


def _ore_choices(s: S, seat: int, item: str) -> list[str]:
    """The ores ``seat`` could pay a one-ore "any ore" of ``item`` with (after the fixed part);
    a real choice when there are two or more (ruling 14)."""
    spec = COSTS[item]
    if spec["any_ore"] != 1:
        return []
    hand = s["res"][seat]
    return [o for o in ORES if hand[o] - spec["pay"].get(o, 0) > 0]


def _pay(s: S, seat: int, pay: Mapping[str, int]) -> None:
    for t, k in pay.items():
        s["res"][seat][t] -= k
        s["bank"][t] += k


def _take(s: S, seat: int, t: str, k: int) -> int:
    got = min(k, s["bank"][t])
    s["bank"][t] -= got
    s["res"][seat][t] += got
    return got


def _card_owner(s: S) -> int:
    return int(s["task"]["o"])


def _next_id(s: S) -> int:
    s["seq"] += 1
    return int(s["seq"])


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
        aopts = tuple(
            _opt(f"a.{i + 1}", "opt.slot", "primary", slot=i + 1) for i in range(len(s["slots"]))
        )
        return Decision(
            seat,
            P + "prompt.arm_slot",
            (*aopts, _opt("back", "opt.back")),
            args={"art": s["arming"]},
            private=True,
            key=key + ".arm",
        )
    if s["pick"] is None:
        opts = tuple(_plan_option(s, seat, c) for c in _sorted_hand(s, seat))
        opts += tuple(_opt(f"arm.{a}", f"opt.arm.{a}") for a in _armable(s, seat))
        return Decision(
            seat,
            P + "prompt.plan_card",
            opts,
            args={"round": s["round"]},
            private=True,
            key=key,
        )
    free = [i for i, x in enumerate(s["slots"]) if x is None]
    opts = tuple(_opt(f"s.{i + 1}", "opt.slot", "primary", slot=i + 1) for i in free)
    opts += (_opt("back", "opt.back"),)
    return Decision(
        seat,
        P + "prompt.plan_slot",
        opts,
        args={"card": s["pick"]},
        private=True,
        key=key + ".slot",
    )


def _plan_option(s: S, seat: int, card: str) -> Option:
    """A card to plan, named with what it shows (resources or systems) for this faction."""
    if card[0] in ("p", "m"):
        a, b = card_pair(s["fac"][seat], card)
        return _opt(f"c.{card}", f"opt.plan.{card}", "primary", a=a, b=b)
    return _opt(f"c.{card}", f"card.{card}", "primary")


def _armable(s: S, seat: int) -> list[str]:
    """The held slot artifacts ``seat`` has not armed yet this round."""
    armed = {a for _slot, o, a in s.get("armed", []) if o == seat}
    return [a for a in ARMED if a in s["arts"][seat] and a not in armed]


def _sorted_hand(s: S, seat: int) -> list[str]:
    return [c for c in CARD_IDS if c in s["hand"][seat]]


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
            opts += [
                _opt(f"offer.{o}", "opt.offer_to", "primary", to_seat=o)
                for o in order_from(s, owner)[1:]
                if hand_total(s, o) > 0
            ]
        opts += [
            _opt(f"bank.{r}", f"opt.bank_give.{r}", res=r)
            for r in RES
            if s["res"][owner][r] >= 2 and any(s["bank"][x] > 0 for x in RES if x != r)
        ]
        opts.append(_opt("done", "opt.trade_done", "danger"))
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
            popts = (
                _opt("prop", "opt.propose", "primary", to_seat=owner),
                _opt("pass", "opt.no_proposal"),
            )
            out.append(
                Decision(
                    seat,
                    P + "prompt.may_propose",
                    popts,
                    args={"owner_seat": owner},
                    key=f"trade.{tid}.p{seat}.{t['nprop'][seat]}",
                )
            )
    return out


def yield_of(s: S, seat: int, r: str) -> int:
    """How many ``r`` tokens ``seat`` produces when ``r`` is produced: 2 per factory and 1
    per colony on planets of that kind, 1 per ship of the seat on one."""
    g = 0
    for pid, p in enumerate(s["planets"]):
        if p["t"] != r:
            continue
        if p["b"] is not None and p["b"][0] == seat:
            g += 2 if p["b"][1] == "f" else 1
        g += s["ships"][seat].count(pid)
    return g


def _use_art(s: S, seat: int, art: str, ev: list[Event]) -> str:
    """``seat`` plays its artifact ``art`` (gone from its hand, announced); returns it."""
    s["arts"][seat].remove(art)
    ev.append(_ev("art_used", seat, art=art, reveals=True))
    return art


def _may_propose(s: S, seat: int) -> bool:
    t = s["task"]
    return (
        seat not in t["out"]
        and t["nprop"][seat] < MAX_PROPOSALS
        and not any(o["prop"] and o["frm"] == seat for o in t["offers"])
        and hand_total(s, seat) > 0
        and hand_total(s, t["o"]) > 0
    )


def fmt_cards(cards: Mapping[str, int]) -> str:
    """A compact, language-neutral form of a bundle: ``2W+1X``."""
    return "+".join(f"{k}{r}" for r in RES if (k := cards.get(r, 0)))


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
    opts = [
        _opt(f"g.{r}.{i}", f"opt.give_unit.{r}", res=r, nth=i)
        for r in RES
        for i in range(1, min(s["res"][seat][r], cap) + 1)
    ]
    opts += [
        _opt(f"w.{r}.{i}", f"opt.want_unit.{r}", res=r, nth=i)
        for r in RES
        for i in range(1, min(s["res"][to][r], cap) + 1)
    ]
    opts.append(_opt("x", "opt.cancel", "danger"))
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


def _feasible(s: S, off: Mapping[str, Any]) -> bool:
    frm, to = off["frm"], off["to"]
    return all(s["res"][frm][r] >= k for r, k in off["give"].items()) and all(
        s["res"][to][r] >= k for r, k in off["want"].items()
    )


# --------------------------------------------------------------------------- apply


def apply_move(s0: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    if s0["step"] == "over":
        raise IllegalMove(P + "error.over")
    mine = [d for d in pending_of(s0, seat) if d.seat == seat]
    if not mine:
        raise IllegalMove(P + "error.not_your_turn")
    decision = mine[0] if _move_equivalent(s0, seat, choice) else _match(mine, choice)
    s = clone(s0)
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
    p = s["planets"][pid]
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
    p = s["planets"][pid] if pid is not None else None
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


def systems_of(s: S, seat: int) -> set[str]:
    """Systems where ``seat`` has a pawn (SOL counts, deep space does not; ruling 5)."""
    out = set()
    for pid, p in enumerate(s["planets"]):
        if (
            (p["b"] is not None and p["b"][0] == seat)
            or p["tf"] == seat
            or pid in s["ships"][seat]
        ):
            out.add(p["sys"])
    return out


def _bonus(s: S, measure: list[int], ev: list[Event]) -> None:
    top = max(measure)
    leaders = [i for i, m in enumerate(measure) if m == top]
    if len(leaders) == 1:
        s["vp"][leaders[0]]["bonus"] += BONUS
        ev.append(_ev("bonus", leaders[0], vp=BONUS))
    else:
        ev.append(_ev("no_bonus"))


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


# --------------------------------------------------------------------------- flow


def _advance(s: S, ev: list[Event]) -> None:
    while True:
        step = s["step"]
        if step == "plan":
            if s["placed"] < len(s["slots"]):
                return
            s["step"] = "act"
            s["cur"] = -1
            s["task"] = None
            continue
        if step == "discard":
            if any(s["need"]):
                return
            _end_round(s, ev)
            continue
        if step == "over":
            return
        if s["task"] is None:
            s["cur"] += 1
            if s["cur"] >= len(s["slots"]):
                _round_over(s, ev)
                continue
            _start_slot(s, ev)
            continue
        if _task_ready(s, ev):
            return


def _start_slot(s: S, ev: list[Event]) -> None:
    slot = s["slots"][s["cur"]]
    owner, card = slot[0], slot[1]
    slot[2] = True
    kind = card_kind(card)
    fac = s["fac"][owner]
    a, b = card_pair(fac, card) if kind in ("prod", "move") else ("", "")
    ev.append(_ev(f"reveal_{kind}", owner, slot=s["cur"] + 1, card=card, a=a, b=b))
    owner, chooser = _armed_here(s, owner, kind, ev)
    t: S = {"k": kind, "o": owner, "card": card, "n": 0, "by": chooser}
    if kind == "prod":
        t["pair"] = list(card_pair(fac, card))
    elif kind == "move":
        t["sys"] = list(card_pair(fac, card))
        t["q"] = (
            [[owner, "one"]] + [[o, "one"] for o in order_from(s, owner)[1:]] + [[owner, "rest"]]
        )
        t["moved"] = [[] for _ in range(s["n"])]
        t["land"] = None
        t["gate"] = None
        t["free"] = []
        t["spec"] = None
    elif kind == "build":
        t["q"] = order_from(s, owner)
        t["free"] = None
    elif kind == "score":
        t["elem"] = None
        t["pick"] = None
        t["q"] = []
        t["got"] = [0] * s["n"]
        s["first"] = owner
        ev.append(_ev("first_player", owner))
    else:
        t["tid"] = f"{s['round']}.{s['cur'] + 1}"
        t["offers"] = []
        t["comp"] = {}
        t["bank"] = None
        t["nb"] = 0
        t["out"] = []
        t["nprop"] = [0] * s["n"]
        t["noff"] = 0
        t["ncomp"] = 0
        ev.append(_ev("trade_open", owner))
    s["task"] = t


def _armed_here(s: S, owner: int, kind: str, ev: list[Event]) -> tuple[int, int]:
    """Apply the artifacts armed on the slot just revealed: Omnibus Rebus Responsum makes
    its holder the owner for this resolution; then Sigillum Arbitri lets its holder make
    the owner's choice of another player's Production or Scoring. An artifact that cannot
    act here (on the holder's own card, or Sigillum on another kind) goes back unused."""
    here = [x for x in s.get("armed", []) if x[0] == s["cur"]]
    s["armed"] = [x for x in s.get("armed", []) if x[0] != s["cur"]]
    chooser = owner
    for art in ARMED:  # Responsum first
        for _slot, seat, a in here:
            if a != art:
                continue
            usable = seat != owner and (art == "responsum" or kind in ("prod", "score"))
            if not usable:
                ev.append(_ev("armed_back", seat, private_to=seat, art=art))
                continue
            s["arts"][seat].remove(art)
            ev.append(_ev("art_used", seat, art=art, reveals=True))
            if art == "responsum":
                owner = chooser = seat
            else:
                chooser = seat
    return owner, chooser


def _task_ready(s: S, ev: list[Event]) -> bool:
    """Drop queue entries with nothing to do; True when a decision is open, False when the
    task has finished (``task`` set to None)."""
    t = s["task"]
    kind = t["k"]
    if kind in ("prod", "trade"):
        return True
    if kind == "move":
        if t["land"] is not None or t["spec"] is not None or t.get("swap"):
            return True
        while t["q"]:
            seat = t["q"][0][0]
            if _move_targets(s, seat) or _art_opts(s, seat, "move"):
                return True
            t["q"].pop(0)
        s["task"] = None
        return False
    if kind == "build":
        if t.get("swap") or t.get("ore"):
            return True
        while t["q"]:
            seat = t["q"][0]
            if _build_options(s, seat) or _art_opts(s, seat, "build"):
                return True
            t["q"].pop(0)
            if t["free"] == seat:
                t["free"] = None
        s["task"] = None
        return False
    # scoring
    if t["elem"] is None:
        return True
    while t["q"]:
        seat = t["q"][0]
        hand = s["res"][seat]
        if t["elem"] == "same" and any(hand[r] >= 2 for r in RES):
            return True
        if t["elem"] == "diff" and sum(1 for r in RES if hand[r]) >= 2:
            return True
        t["q"].pop(0)
    _bonus(s, t["got"], ev)
    s["task"] = None
    return False


def _round_over(s: S, ev: list[Event]) -> None:
    s["cur"] = -1
    s["need"] = [max(0, hand_total(s, seat) - HAND_LIMIT) for seat in range(s["n"])]
    s["step"] = "discard"


def _end_round(s: S, ev: list[Event]) -> None:
    n = s["n"]
    for slot in s["slots"]:
        seat, card = slot[0], slot[1]
        if card in SCORING_CARDS:
            s["used_sc"][seat].append(card)
        else:
            s["hand"][seat].append(card)
    for seat in range(n):
        if len(s["used_sc"][seat]) == len(SCORING_CARDS):
            s["hand"][seat] += s["used_sc"][seat]
            s["used_sc"][seat] = []
            ev.append(_ev("scoring_back", seat))
        s["hand"][seat] = [c for c in CARD_IDS if c in s["hand"][seat]]
    s["slots"] = [None] * len(s["slots"])
    s["armed"] = []
    ev.append(_ev("round_end", round=s["round"]))
    if s["ending"] or any(vp_total(s, seat) >= END_VP for seat in range(n)):
        s["step"] = "over"
        s["task"] = None
        ev.append(_ev("game_over", reveals=True))
        return
    s["round"] += 1
    s["step"] = "plan"
    s["placed"] = 0
    s["pick"] = None
    s["planner"] = s["first"]
    s["task"] = None


# --------------------------------------------------------------------------- result


def breakdown_of(s: S) -> list[dict[str, int]]:
    out = []
    for seat in range(s["n"]):
        b = dict(s["vp"][seat])
        if s["step"] == "over":
            b["arcanum"] = 7 if "arcanum" in s["arts"][seat] else 0
        out.append(b)
    return out


def result_of(s: S) -> Result | None:
    if s["step"] != "over":
        return None
    return result_of_parts(breakdown_of(s))


def public_scores(s: S) -> list[int]:
    if s["step"] == "over":
        res = result_of(s)
        assert res is not None
        return list(res.scores)
    return [vp_total(s, seat) for seat in range(s["n"])]


# --------------------------------------------------------------------------- persistence


def dump_state(s: S) -> S:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> S:
    try:
        s = clone(dict(data))
        _validate(s)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise ValueError(f"not an ad_astra state: {exc!r}") from exc
    return s


def _validate(s: S) -> None:
    check(s.get("schema") == SCHEMA, "schema")
    check(s.get("rules", 1) in (1, RULES), "rules version")
    n = s["n"]
    check(isinstance(n, int) and 3 <= n <= 5, "players")
    check(s["step"] in STEPS, "step")
    check(len(s["slots"]) == SLOTS[n], "slots")
    check(0 <= s["first"] < n, "first player")
    check(len(s["planets"]) == sum(PLANET_COUNTS.values()), "43 planets")
    for r in RES:
        total = s["bank"][r] + sum(h[r] for h in s["res"])
        check(total == PER_TYPE, f"{PER_TYPE} {r} cards")
        check(s["bank"][r] >= 0 and all(h[r] >= 0 for h in s["res"]), "no negative stock")
    for seat in range(n):
        pc = pieces(s, seat)
        check(all(v <= PIECES for v in pc.values()), "piece limits")
        check(all(c in CARD_IDS for c in s["hand"][seat]), "cards")
        check(CARDS_PER_ROUND[n] > 0, "cards per round")
