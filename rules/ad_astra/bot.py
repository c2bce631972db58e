"""Ad Astra bots: greedy, a little noisy (so games vary), and fast (well under 100 ms).

A bot reads only what its seat may see: its own hand and artifacts, the planets it has looked
at, and the public board (other hands only while a Trade action shows them).
"""

from __future__ import annotations

import random
from typing import Any

from core.contract import Decision

from .data import ALIEN, CARD_IDS, ORES, RES, SCORING, TERRAFORMABLE, card_kind, card_pair
from .engine import P, hand_total, pending_of, pieces, systems_of, yield_of

S = dict[str, Any]

#: Rough worth of a planet type to land on (alien: artifact and 3-point colonies).
PLANET_VALUE = {"E": 3.0, "W": 2.2, "F": 2.2, "X": 1.8, "Y": 1.8, "Z": 1.8, ALIEN: 3.2}
UNKNOWN_VALUE = 2.3
BUILD_VALUE = {"factory_alien": 9.0, "terraform": 7.0, "colony_alien": 6.0, "ship": 5.0}


def choose(s: S, seat: int, rng: random.Random) -> str:
    decisions = [d for d in pending_of(s) if d.seat == seat]
    d = decisions[0]
    for cand in decisions:  # answer offers first: they run out
        if cand.prompt in (P + "prompt.offer", P + "prompt.proposal"):
            d = cand
            break
    kind = d.prompt[len(P) + len("prompt.") :]
    ids = [o.id for o in d.options]
    handler = _HANDLERS.get(kind)
    if handler is None:
        return ids[-1]
    return handler(s, seat, d, ids, rng)


# --------------------------------------------------------------------------- valuation


def need(s: S, seat: int) -> dict[str, float]:
    """How much one more card of each type helps ``seat`` now (about 1 = an ordinary card)."""
    hand = s["res"][seat]
    v = {r: 1.0 for r in RES}
    pc = pieces(s, seat)
    if pc["ship"] < 4:
        for o in ORES:
            if hand[o] == 0:
                v[o] += 0.8
    for r in ("W", "F"):
        if hand[r] < 2:
            v[r] += 0.7
    if hand["E"] < 2:
        v["E"] += 0.9
    for r in RES:
        if hand[r] >= 4:
            v[r] -= 0.5
    return v


def _elem_points(s: S, seat: int, elem: str) -> tuple[int, int]:
    """(points, measure for the bonus) of ``seat`` for a board element."""
    pc = pieces(s, seat)
    if elem == "colfac":
        return pc["c"] + 2 * pc["f"], pc["c"] + 2 * pc["f"]
    if elem == "ships":
        return 2 * pc["ship"], pc["ship"]
    if elem == "terra":
        return 3 * pc["tf"], pc["tf"]
    if elem == "systems":
        k = len(systems_of(s, seat))
        return k, k
    hand = s["res"][seat]
    k = max(hand.values()) if elem == "same" else sum(1 for r in RES if hand[r])
    k = k if k >= 2 else 0
    return k, k


def _guess_points(s: S, seat: int, elem: str) -> tuple[int, int]:
    """Another seat's points: board elements are public; for the resource scorings only the
    hand size is (unless a Trade shows the hands), so guess from it."""
    if elem not in ("same", "diff"):
        return _elem_points(s, seat, elem)
    k = hand_total(s, seat)
    k = k // 3 if elem == "same" else min(6, k // 2)
    return k, k


def _elem_value(s: S, seat: int, elem: str) -> float:
    mine, m = _elem_points(s, seat, elem)
    others = [_guess_points(s, o, elem) for o in range(s["n"]) if o != seat]
    best_other = max(x[1] for x in others)
    bonus = 3.0 if m > best_other else 0.0
    if elem in ("same", "diff"):
        return 0.7 * mine + 0.5 * bonus  # paid for with cards, others answer after seeing
    return mine + bonus - 0.4 * max(x[0] for x in others)


# --------------------------------------------------------------------------- planning


def _card_value(s: S, seat: int, card: str, rng: random.Random) -> float:
    kind = card_kind(card)
    fac = s["fac"][seat]
    noise = rng.uniform(0, 1.2)
    if kind == "prod":
        a, b = card_pair(fac, card)
        return 0.8 + max(yield_of(s, seat, a), yield_of(s, seat, b)) * 0.9 + noise
    if kind == "move":
        deep = sum(1 for loc in s["ships"][seat] if loc < 0)
        return 1.0 + 1.3 * deep + 0.3 * min(s["res"][seat]["E"], 3) + noise
    if kind == "build":
        return 2.2 + 0.15 * hand_total(s, seat) + noise
    if kind == "trade":
        return 0.6 + noise
    return 1.5 + max(_elem_value(s, seat, e) for e in SCORING[card]) * 0.5 + noise


def _plan_card(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    arm = [c for c in ids if c.startswith("arm.")]
    if arm and any(x is not None and x[0] != seat for x in s["slots"]):
        return arm[0]
    cards = [c for c in ids if c.startswith("c.")]
    return max(cards, key=lambda c: _card_value(s, seat, c[2:], rng))


def _arm_slot(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    """Arm an artifact on a card another player has already laid down."""
    theirs = [f"a.{i + 1}" for i, x in enumerate(s["slots"]) if x is not None and x[0] != seat]
    return rng.choice(theirs) if theirs else "back"


def _plan_slot(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    slots = [c for c in ids if c.startswith("s.")]
    kind = card_kind(s["pick"])
    total = len(s["slots"])
    target = {"prod": 0.15, "move": 0.3, "trade": 0.45, "build": 0.65, "score": 1.0}[kind]
    target = target * total + rng.uniform(-1.5, 1.5)
    return min(slots, key=lambda c: abs(int(c[2:]) - target))


# --------------------------------------------------------------------------- actions


def _produce(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    if "art.cornu" in ids:
        best = max(yield_of(s, seat, c[2:]) for c in ids if c.startswith("r."))
        if best >= 2:
            return "art.cornu"

    def score(c: str) -> float:
        r = c[2:]
        mine = yield_of(s, seat, r) * need(s, seat)[r]
        others = max(yield_of(s, o, r) for o in range(s["n"]) if o != seat)
        return mine - 0.4 * others + rng.uniform(0, 0.1)

    return max((c for c in ids if c.startswith("r.")), key=score)


def _move(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    if "art.tropaeum" in ids:
        return "art.tropaeum"
    if "art.commercium" in ids and _swap_low(s, seat, RES) is not None:
        return "art.commercium"
    stop = "done" if "done" in ids else "pass"
    best, best_v = stop, 0.4
    energy = s["res"][seat]["E"]
    for o in d.options:
        if not o.id.startswith("mv."):
            continue
        ship, dest, cost = o.args["ship"], o.args["dest"], o.args["cost"]
        if dest == "deep":
            continue
        loc = s["ships"][seat][ship]
        if loc >= 0:
            p = s["planets"][loc]
            if p["b"] is None and p["t"] != ALIEN and p["tf"] is None:
                continue  # a ship on a bare planet waits for a colony
            if energy - cost < 1 and cost > 0:
                continue
        v = _best_landing(s, seat, dest, loc) - 0.6 * cost + rng.uniform(0, 0.3)
        if v > best_v:
            best, best_v = o.id, v
    return best


def _best_landing(s: S, seat: int, sys_: str, loc: int) -> float:
    from .engine import _landings

    known = set(s["known"][seat])
    best = 0.0
    for pid in _landings(s, seat, sys_, loc):
        best = max(best, _landing_value(s, seat, pid, known))
    return best


def _landing_value(s: S, seat: int, pid: int, known: set[int]) -> float:
    p = s["planets"][pid]
    if p["up"]:
        v = PLANET_VALUE[p["t"]] - (1.0 if p["t"] == ALIEN else 0.3)
        return v - (1.5 if p["b"] is not None else 0.0)
    if pid in known:
        return PLANET_VALUE[p["t"]] + 0.2
    return UNKNOWN_VALUE


def _land(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    known = set(s["known"][seat])
    return max(ids, key=lambda c: _landing_value(s, seat, int(c[2:]), known) + rng.uniform(0, 0.2))


def _swap_low(s: S, seat: int, types: Any) -> str | None:
    """The held card needed least, when another type is needed clearly more; else None."""
    v = need(s, seat)
    held = [r for r in types if s["res"][seat][r] > 0]
    if not held:
        return None
    low = min(held, key=lambda r: v[r])
    return low if max(v.values()) - v[low] >= 0.5 else None


def _swap_give(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    """Hand over the card needed least, while another is needed clearly more."""
    low = _swap_low(s, seat, [c[3:] for c in ids if c.startswith("sw.")])
    return f"sw.{low}" if low is not None else "stop"


def _swap_get(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    v = need(s, seat)
    gets = [c for c in ids if c.startswith("sg.")]
    return max(gets, key=lambda c: v[c[3:]]) if gets else "back"


def _pay_ore(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    """As ruling 14 pays it: the ore held most (X, Y, Z order on a tie)."""
    hand = s["res"][seat]
    ores = [c for c in ids if c.startswith("ore.")]
    return max(ores, key=lambda c: (hand[c[4:]], -ORES.index(c[4:]))) if ores else "back"


def _speculum(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    return ",".join(rng.sample(ids, 2))


def _build(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    if "art.tropaeum" in ids:
        return "art.tropaeum"
    if "art.commercium" in ids and _swap_low(s, seat, RES) is not None:
        return "art.commercium"
    builds = [c for c in ids if c.split(".")[0] in ("col", "fac", "ter", "ship")]
    if "art.machina" in ids and builds:
        return "art.machina"
    stop = "done" if "done" in ids else "pass"
    best, best_v = stop, 0.0
    for c in builds:
        v = _build_value(s, seat, c) + rng.uniform(0, 0.5)
        if v > best_v:
            best, best_v = c, v
    return best


def _build_value(s: S, seat: int, c: str) -> float:
    head = c.split(".")[0]
    if head == "ship":
        return BUILD_VALUE["ship"] - 0.8 * len(s["ships"][seat])
    p = s["planets"][int(c.split(".")[1])]
    alien = p["t"] == ALIEN
    if head == "ter":
        return BUILD_VALUE["terraform"]
    if head == "fac":
        return BUILD_VALUE["factory_alien"] if alien else 4.5
    return BUILD_VALUE["colony_alien"] if alien else 4.0 + (1.0 if p["t"] in TERRAFORMABLE else 0)


def _score(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    return max(ids, key=lambda c: _elem_value(s, seat, c[3:]) + rng.uniform(0, 0.2))


def _same(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    hand = s["res"][seat]
    types = [c for c in ids if c.startswith("t.")]
    if not types:
        return "none"
    return max(types, key=lambda c: (hand[c[2:]] - (2 if c[2:] == "E" else 0), rng.random()))


def _same_count(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    counts = [c for c in ids if c.startswith("k.")]
    return counts[-1]


def _diff_ask(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    return "diff" if "diff" in ids else "none"


def _diff(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    types = [c for c in ids if c.startswith("d.")]
    return ",".join(types) if len(types) >= 2 else "none"


def _discard(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    hand = dict(s["res"][seat])
    value = need(s, seat)
    if not d.multi:
        return min(ids, key=lambda c: (value[c.split(".")[1]] - 0.1 * hand[c.split(".")[1]], c))
    picks: list[str] = []
    for _ in range(d.max_picks):
        r = min((r for r in RES if hand[r] > 0), key=lambda r: (value[r] - 0.2 * hand[r], r))
        nth = s["res"][seat][r] - hand[r] + 1
        picks.append(f"x.{r}.{nth}")
        hand[r] -= 1
    valid = {o.id for o in d.options}
    if all(p in valid for p in picks):
        return ",".join(picks)
    return ",".join(ids[: d.min_picks])


# --------------------------------------------------------------------------- trade


def _trade(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    hand = s["res"][seat]
    value = need(s, seat)
    t = s["task"]
    wanted = max(RES, key=lambda r: value[r])
    if value[wanted] > 1.4:
        # One try per window: a compose it cancels must not bring it back here for ever.
        if t["noff"] == 0 and t["ncomp"] == 0:
            for o in range(s["n"]):
                if o != seat and s["res"][o][wanted] >= 2 and f"offer.{o}" in ids:
                    return f"offer.{o}"
        surplus = [r for r in RES if hand[r] >= 3 and f"bank.{r}" in ids and r != wanted]
        if surplus:
            return "bank." + max(surplus, key=lambda r: hand[r])
    return "done"


def _bank_get(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    value = need(s, seat)
    gets = [c for c in ids if c.startswith("get.")]
    return max(gets, key=lambda c: value[c[4:]]) if gets else "back"


def _compose(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    value = need(s, seat)
    wants = [c for c in ids if c.startswith("w.") and c.endswith(".1")]
    gives = [c for c in ids if c.startswith("g.") and c.endswith(".1")]
    if not wants or not gives:
        return "x"
    w = max(wants, key=lambda c: value[c.split(".")[1]])
    g = min(gives, key=lambda c: (value[c.split(".")[1]], c))
    if w.split(".")[1] == g.split(".")[1]:
        return "x"
    return f"{g},{w}"


def _answer(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    oid = int(ids[-1].split(".")[1])
    off = next(o for o in s["task"]["offers"] if o["id"] == oid)
    value = need(s, seat)
    # For the recipient of an offer, "give" comes in; for the owner of a proposal as well.
    gets = sum(value[r] * k for r, k in off["give"].items())
    pays = sum(value[r] * k for r, k in off["want"].items())
    if f"acc.{oid}" in ids and gets >= pays + 0.2:
        return f"acc.{oid}"
    return f"ref.{oid}"


def _may_propose(s: S, seat: int, d: Decision, ids: list[str], rng: random.Random) -> str:
    return "pass"


_HANDLERS = {
    "plan_card": _plan_card,
    "plan_slot": _plan_slot,
    "arm_slot": _arm_slot,
    "produce": _produce,
    "move": _move,
    "move_rest": _move,
    "land": _land,
    "speculum": _speculum,
    "pay_ore": _pay_ore,
    "swap_give": _swap_give,
    "swap_get": _swap_get,
    "build": _build,
    "build_owner": _build,
    "score": _score,
    "same": _same,
    "same_count": _same_count,
    "diff_ask": _diff_ask,
    "diff": _diff,
    "discard": _discard,
    "trade": _trade,
    "bank_get": _bank_get,
    "compose": _compose,
    "offer": _answer,
    "proposal": _answer,
    "may_propose": _may_propose,
}

__all__ = ["CARD_IDS", "choose"]
