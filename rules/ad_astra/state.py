"""Ad Astra — the state: constants, set-up, the small helpers every part reads, the result
and persistence (dump, load, validation).

The state is a plain JSON-compatible dict; the package docstring lists the rulings. Seats
sit clockwise in seat order; seat ``i`` plays the faction ``state["fac"][i]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from core.contract import Event, Result
from rules.kit import (
    Events,
    Options,
    check,
    clone,
    copy_by_shape,
    load_or_refuse,
    maps,
    result_of_parts,
    rng,
    rows,
    shown_scores,
)

from .data import (
    ALIEN,
    ARTIFACTS,
    BONUS,
    CARD_IDS,
    CARDS_PER_ROUND,
    COSTS,
    DATA,
    FACTIONS,
    GAME_ID,
    ORES,
    PER_TYPE,
    PIECES,
    PLANET_COUNTS,
    RES,
    SLOTS,
    SOL,
    STARS,
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
        b = p["b"]
        if b is not None and b[0] == seat:
            out[b[1]] += 1
        if p["tf"] == seat:
            out["tf"] += 1
    return out


def all_pieces(s: S) -> list[dict[str, int]]:
    """``pieces`` of every seat, in one pass over the planets."""
    out = [{"c": 0, "f": 0, "tf": 0, "ship": len(s["ships"][i])} for i in range(s["n"])]
    for p in s["planets"]:
        b = p["b"]
        if b is not None:
            out[b[0]][b[1]] += 1
        tf = p["tf"]
        if tf is not None:
            out[tf]["tf"] += 1
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


def fmt_cards(cards: Mapping[str, int]) -> str:
    """A compact, language-neutral form of a bundle: ``2W+1X``."""
    return "+".join(f"{k}{r}" for r in RES if (k := cards.get(r, 0)))


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
    return shown_scores(s, result_of, vp_total)


# --------------------------------------------------------------------------- copy


#: How each key of a state is copied (its known shape: rows of scalars, flat maps); see
#: ``rules.kit.copy_by_shape``. The planets' list is new but its dicts are shared: see
#: :func:`copy_state`.
_COPY: dict[str, Callable[[Any], Any]] = {
    "fac": list.copy,
    "slots": rows,
    "hand": rows,
    "used_sc": rows,
    "res": maps,
    "bank": dict.copy,
    "planets": list.copy,
    "ships": rows,
    "known": rows,
    "arts": rows,
    "adeck": list.copy,
    "vp": maps,
    "need": list.copy,
    "armed": rows,
}


def copy_state(s: S) -> S:
    """The copy ``apply`` works on: equal to ``s``, sharing no container with it but the
    planets' dicts (43 of them, which few moves change). Those are copied on write: the
    engine changes a planet only through :func:`own_planet`."""
    return copy_by_shape(s, _COPY)


def own_planet(s: S, pid: int) -> dict[str, Any]:
    """Planet ``pid`` of ``s`` made ``s``'s own (a copy that ``apply``'s input does not
    share), to be changed."""
    p = s["planets"][pid] = s["planets"][pid].copy()
    if p["b"] is not None:
        p["b"] = p["b"][:]
    return p


# --------------------------------------------------------------------------- persistence


def dump_state(s: S) -> S:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> S:
    return load_or_refuse(data, "ad_astra", _validate)


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
