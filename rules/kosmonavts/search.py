"""Kosmonavts' hooks for the search engine (:mod:`rules.search`).

* :func:`sample` redraws what ``seat`` cannot see: future randomness (a fresh seed, hence
  also the other bot seats' temperaments), the order of the event deck, the other seats'
  missions (dealt again from the cards ``seat`` does not hold; in the advanced game their
  dealt cards and which two they keep), and the other seats' secret orders: an order still
  being composed starts again, an order already given becomes the one the pilot heuristic
  would give (a plausible order; the seat only knows that one was given).
* :func:`prune` keeps, while an order is composed, the next steps of a few candidate plans —
  the pilot's own plan and the plan aimed at each body worth a marker — so the search
  compares routes rather than single cubes (:func:`routes`: each plan with the body it flies
  to); :func:`rollout` continues whichever candidate plan the order so far follows, so a
  route chosen cube by cube is flown as planned. In a sampled world the other seats fly the
  pilot's plan (their orders started afresh). With :data:`COMMIT` (off: it did not help, see
  there) the searching seat would also keep to its route's body in the later rounds of a
  play-out.
* :func:`evaluate` turns a position into the seat's chance to win: markers, Earth markers,
  missions done as things stand, and how much nearer to the next marker it is.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision
from rules.search import Budget

from . import bot
from .board import BODIES, EARTH, M1_BODIES, M2_ALPHA, M2_BETA, dist
from .engine import body_pos, can_get_marker, mission_results, return_ready, running_scores

#: Normal: a few short play-outs judged by :func:`evaluate`. Hard: 32 play-outs to the end of
#: the game (a whole game is ~150 moves, ~8 ms), so a route is judged by how the race really
#: ends rather than by a guess after one round; mean ~130 ms, worst ~0.7 s a decision (CPU
#: time on a busy machine). 2026-11-26, against today's bot: 32 play-outs 85.3 % [75.0, 91.8] over
#: the first 68 games of the league line (a 400-game run is still to do), where 16
#: play-outs had 74.2 % over 400 games (and, of the first 26 games both played, 32 won 5
#: that 16 lost, 16 won 2 that 32 lost).
#: Before, against today's bot, 400 games each (2026-11-24): hard cut at 12 moves 61.8 %
#: (69.5 % before the sampled worlds dealt the other seats' missions correctly: the guessed
#: missions mostly add noise to a cut-off evaluation), cut at 12 moves with 32 play-outs and
#: the others' missions left out of ``evaluate`` 71.9 %, to the end 74.2 %. Earlier, on the
#: first ~120 games, cut at 12 moves: 24 or 64 play-outs no better than 16; near-ties not
#: given to the pilot's plan (tolerance 0) 46 %, a wider tolerance (0.06) 65 %: the pilot's
#: plan is the default a route must clearly beat.
LEVELS = {
    "normal": Budget(playouts=4, depth=8),
    "hard": Budget(playouts=32, depth=None),
}
#: scale (in points) of the logistic that turns a lead into a chance to win
LEAD_SCALE = 4.0
#: worth of a marker still to get, in points, shrinking with the distance to its body
MARKER_HOPE = 1.5
#: Whether the searching seat of a play-out keeps flying to the body of the route it took
#: in the rounds after (until it lands there), rather than the pilot's choice of the moment
#: (:func:`rollout`). Tried 2026-11-26: hard against today's bot 70.0 % over the first 60
#: games of the league (74.2 % over 400 without), and of the first 12 games played by both,
#: two lost that the search without it won, none the other way: off.
COMMIT = False


def routes(s: Mapping[str, Any], seat: int) -> list[tuple[str | None, tuple[str, ...]]]:
    """Candidate orders for ``seat`` this round, each with the body it flies to (None: no
    single body): the pilot's plan first, then one plan per body worth flying to, then
    staying landed (when landed). The pilot's plan takes the body of the per-body plan it
    equals."""
    temper = bot.temperament(s, seat)
    targets = bot._targets(s, seat, temper)
    own = bot.seat_plan(s, seat, targets)
    per_body = [(t[0], bot.seat_plan(s, seat, ((t[0], t[1], 0.0),))) for t in targets]
    own_goal = next((b for b, p in per_body if p == own), None)
    out: dict[tuple[str, ...], str | None] = {own: own_goal}
    for b, p in per_body:
        out.setdefault(p, b)
    if s["ships"][seat]["landed"] is not None:
        out.setdefault(("stay",), None)
    return [(g, p) for p, g in out.items()]


def plans(s: Mapping[str, Any], seat: int) -> list[tuple[str, ...]]:
    """The orders of :func:`routes`, without their bodies."""
    return [p for _g, p in routes(s, seat)]


def _followed(s: Mapping[str, Any], seat: int) -> list[tuple[str | None, tuple[str, ...]]]:
    done = s["orders"][seat]["steps"]
    return [
        (g, p) for g, p in routes(s, seat) if list(p[: len(done)]) == done and len(p) > len(done)
    ]


def prune(s: Mapping[str, Any], decision: Decision) -> list[str]:
    if s["phase"] != "orders" or s["touchdown"] is not None:
        return [o.id for o in decision.options]
    nxt = [p[len(s["orders"][decision.seat]["steps"])] for _g, p in _followed(s, decision.seat)]
    return list(dict.fromkeys(nxt))


def _goal(s: Mapping[str, Any], seat: int) -> str | None:
    """The body the searching seat committed to in this play-out, while it is still worth
    flying to (None: none, or the ship must refuel anywhere first)."""
    g = s.get("search_goal")
    if not g or g[0] != seat:
        return None
    body = str(g[1])
    ship = s["ships"][seat]
    if ship["landed"] is None and ship["fuel"] + 2 * ship["hyper"] < 3:
        return None
    if body == EARTH:
        return body if return_ready(s, seat) else None
    if return_ready(s, seat) or not can_get_marker(s, seat, body):
        return None
    return body


def _step(plan: tuple[str, ...], done: list[str], offered: set[str]) -> str | None:
    if list(plan[: len(done)]) != done or len(plan) <= len(done):
        return None
    step = plan[len(done)]
    return step if step in offered else None


def rollout(s: Mapping[str, Any], seat: int, rng: random.Random) -> str:
    """The play-out policy: the pilot's, except that an order being composed carries on
    with the candidate route it follows, and in a sampled world (never the real state) the
    searching seat then keeps flying to that route's body in the rounds after, until it lands
    there (``search_goal``): a route is judged as a route, not as one round's detour."""
    searcher = (s.get("search_temper") or [None])[0]
    if searcher is not None and searcher != seat:
        # another seat in a sampled world: its order started afresh (see :func:`sample`),
        # so it flies the pilot's own plan
        return bot.bot_choice(s, seat, rng)
    if s["phase"] == "orders" and s["touchdown"] is None and not s["orders"][seat]["done"]:
        done = s["orders"][seat]["steps"]
        offered = {o.id for o in bot.seat_options(s, seat)}
        mine = searcher == seat
        body = _goal(s, seat) if mine else None
        if body is not None:
            plan = bot.seat_plan(s, seat, ((body, s["bodies"][body], 0.0),))
            step = _step(plan, done, offered)
            if step is not None:
                return step
            if "undo" in offered and done:
                return "undo"
        elif done:
            for g, p in _followed(s, seat):
                step = _step(p, done, offered)
                if step is not None:
                    if mine and COMMIT and len(done) + 1 == len(p) and isinstance(s, dict):
                        s["search_goal"] = [seat, g] if g is not None else None
                    return step
    return bot.bot_choice(s, seat, rng)


def _redeal_missions(w: dict[str, Any], seat: int, rng: random.Random) -> None:
    n = w["n"]
    others = [k for k in range(n) if k != seat]
    if w["dealt"] is None:  # basic: [m1, m2 alpha, m2 beta] each
        # The seat's own cards are out of the decks (a body may be on a Mission 1 card and
        # on a Mission 2 card: only the card the seat holds is out).
        mine_m1 = {m.split(".")[1] for m in w["missions"][seat] if m.startswith("m1.")}
        mine_m2 = {m.split(".")[1] for m in w["missions"][seat] if m.startswith("m2.")}
        alpha = [b for b in M2_ALPHA if b not in mine_m2]
        beta = [b for b in M2_BETA if b not in mine_m2]
        m1 = [b for b in M1_BODIES if b not in mine_m1]
        rng.shuffle(alpha)
        rng.shuffle(beta)
        rng.shuffle(m1)
        for k in others:
            if not w["missions"][k]:
                continue
            a, b = alpha.pop(), beta.pop()
            c = next((x for x in m1 if x not in (a, b)), m1[0])
            m1.remove(c)
            w["missions"][k] = ["m1." + c, "m2." + a, "m2." + b]
        return
    removed = set(w["removed"])
    mine_dealt = set(w["dealt"][seat])
    m1 = [b for b in M1_BODIES if b not in removed and "m1." + b not in mine_dealt]
    m2 = [b for b in (*M2_ALPHA, *M2_BETA) if b not in removed and "m2." + b not in mine_dealt]
    rng.shuffle(m1)
    rng.shuffle(m2)
    for k in others:
        if len(m1) < 2 or len(m2) < 2:
            return
        dealt = ["m1." + m1.pop(), "m1." + m1.pop(), "m2." + m2.pop(), "m2." + m2.pop()]
        w["dealt"][k] = dealt
        ch = w["choice"][k] if w["choice"] is not None else None
        if ch is not None and not ch["done"]:
            ch["keep"] = []
            ch["picks"] = 0
        elif w["missions"][k]:
            keep = sorted(rng.sample(range(4), 2))
            if ch is not None:
                ch["keep"] = keep
            w["missions"][k] = [dealt[i] for i in keep]


def sample(s: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    from rules.kit import clone

    w = clone(dict(s))
    own = s.get("search_temper")
    if own is None or own[0] != seat:
        own = [seat, int(s["seed"])]
    w["search_temper"] = own  # the seat's own temperament survives the new seed
    w["seed"] = rng.getrandbits(48)
    w["rng"] = 0
    rng.shuffle(w["deck"])
    _redeal_missions(w, seat, rng)
    orders = w["orders"]
    if w["phase"] == "orders" and orders is not None:
        for k in range(w["n"]):
            if k == seat:
                continue
            o = orders[k]
            if not o["done"]:
                o["steps"], o["picks"], o["final"] = [], 0, None
                continue
            plan = bot.seat_plan(w, k)
            o["steps"], o["picks"], o["final"] = list(plan[:-1]), len(plan) - 1, plan[-1]
    return w


def evaluate(s: Mapping[str, Any], seat: int) -> float:
    """The seat's chance to win from here (see the module docstring)."""
    n = s["n"]
    base = running_scores(s)
    est = []
    for k in range(n):
        value = float(base[k])
        if not s["over"]:
            value += sum(p for _m, p in mission_results(s, k))
            ship = s["ships"][k]
            pos = (ship["pos"][0], ship["pos"][1]) if ship["pos"] is not None else None
            goals = (
                [EARTH] if return_ready(s, k) else [b for b in BODIES if can_get_marker(s, k, b)]
            )
            near = [
                dist((p[0] - pos[0], p[1] - pos[1]))
                for b in goals
                if pos and (p := body_pos(s, b))
            ]
            if near:
                value += MARKER_HOPE / (1.0 + min(near) / 4.0)
            value += 0.1 * (ship["fuel"] + 2 * ship["hyper"]) + 0.3 * ship["shields"]
        est.append(value)
    lead = est[seat] - max(est[k] for k in range(n) if k != seat)
    return 1.0 / (1.0 + math.exp(-lead / LEAD_SCALE))
