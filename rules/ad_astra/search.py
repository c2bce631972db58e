"""Ad Astra's hooks for the search engine (:mod:`rules.search`).

* :func:`sample` redraws everything ``seat`` cannot see, from pools whose contents the seat
  can work out (each pool is sorted before it is shuffled, so two states that differ only in
  hidden things give the same worlds for the same ``rng``):

  - the stored seed of future randomness;
  - the face-down planets the seat has not looked at (from the planet tiles neither face up
    nor known to it);
  - the artifact deck's order and the other players' artifacts (only how many each holds is
    public); artifacts they armed in secret are forgotten (an armed artifact acts only when
    its slot is revealed);
  - the other players' face-down planning cards and action hands (each player's cards in
    hand and face down on the slots are, together, known to all: one of each type minus the
    scoring cards played face up);
  - the other players' resource cards, except while a Trade action shows every hand (only
    how many each holds is public, and the bank).

* :func:`prune` keeps the few cards, slots, moves, builds and landings the heuristic rates
  best, and leaves ``back`` out (and new offers, after a few in one trade window): answers
  that only reopen a question could loop for ever.
* :func:`evaluate` turns a position into the seat's chance to win: points as they stand plus
  a little for the cards and artifacts held.
* ``search_levels``: easy is the heuristic with one answer in five at random, normal the
  heuristic without slips, hard a search whose play-outs are cut after about a round and
  judged by :func:`evaluate`; it leaves the heuristic's answer only for one clearly better
  (tolerance 0.08: a short search over a few play-outs is noisy, and a noisy search that
  overrides the heuristic on small differences played worse than the heuristic itself:
  8 play-outs with the default tolerance won 10-41 % of 3-player games against two easy
  bots, where the plain heuristic wins 49 %).
"""

from __future__ import annotations

import math
import random
from typing import Any

from core.contract import Decision
from rules.search import Budget

from . import bot
from .data import CARD_IDS, RES, card_kind
from .engine import hand_total, vp_total

S = dict[str, Any]

#: The levels (see the module docstring; figures in the README's league section).
LEVELS = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=0),
    "hard": Budget(playouts=24, depth=60, tolerance=0.08),
}
#: scale (in points) of the logistic that turns a lead into a chance to win
LEAD_SCALE = 6.0
#: worth of one resource card / one artifact held, in points
CARD_WORTH = 0.35
ARTIFACT_WORTH = 2.0
#: answers searched per decision that the heuristic rates (its best ones), besides the
#: answers it does not rate (pass, done, artifacts ...)
KEEP = 4
#: composes in one trade window after which the search offers and proposes no more
COMPOSE_CAP = 3


def sample(s: S, seat: int, rng: random.Random) -> S:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    from rules.kit import clone

    w = clone(s)
    n = w["n"]
    others = [k for k in range(n) if k != seat]
    w["seed"] = rng.getrandbits(48)
    w["rc"] = 0
    # Face-down planets the seat has not looked at.
    mine = set(w["known"][seat])
    down = [pid for pid, p in enumerate(w["planets"]) if not p["up"] and pid not in mine]
    tiles = sorted(w["planets"][pid]["t"] for pid in down)
    rng.shuffle(tiles)
    for pid, t in zip(down, tiles, strict=True):
        w["planets"][pid]["t"] = t
    # The artifact deck and the other players' artifacts.
    arts = sorted([*w["adeck"], *(a for k in others for a in w["arts"][k])])
    rng.shuffle(arts)
    for k in others:
        count = len(w["arts"][k])
        w["arts"][k], arts = arts[:count], arts[count:]
    w["adeck"] = arts
    w["armed"] = [x for x in w.get("armed", []) if x[1] == seat]
    # The other players' action hands and face-down planning cards.
    for k in others:
        hidden = [i for i, x in enumerate(w["slots"]) if x is not None and x[0] == k and not x[2]]
        cards = sorted([*w["hand"][k], *(w["slots"][i][1] for i in hidden)])
        rng.shuffle(cards)
        for i in hidden:
            w["slots"][i][1] = cards.pop()
        w["hand"][k] = [c for c in CARD_IDS if c in cards]
    # The other players' resource cards (open while a Trade action resolves).
    task = w["task"]
    if not (task is not None and w["step"] == "act" and task["k"] == "trade"):
        pool = sorted(r for k in others for r in RES for _ in range(w["res"][k][r]))
        rng.shuffle(pool)
        for k in others:
            count = hand_total(w, k)
            got, pool = pool[:count], pool[count:]
            w["res"][k] = {r: got.count(r) for r in RES}
    return w


class _Flat(random.Random):
    """A generator without noise: the heuristic's own ratings, for :func:`prune`."""

    def uniform(self, a: float, b: float) -> float:
        return (a + b) / 2

    def random(self) -> float:
        return 0.5


def _rate_cards(s: S, seat: int, d: Decision) -> dict[str, float]:
    return {
        o.id: bot._card_value(s, seat, o.id[2:], _Flat()) for o in d.options if o.id[:2] == "c."
    }


def _rate_slots(s: S, seat: int, d: Decision) -> dict[str, float]:
    kind = card_kind(s["pick"])
    target = {"prod": 0.15, "move": 0.3, "trade": 0.45, "build": 0.65, "score": 1.0}[kind]
    target *= len(s["slots"])
    return {o.id: -abs(int(o.id[2:]) - target) for o in d.options if o.id[:2] == "s."}


def _rate_moves(s: S, seat: int, d: Decision) -> dict[str, float]:
    out = {}
    for o in d.options:
        if o.id.startswith("mv.") and o.args["dest"] != "deep":
            loc = s["ships"][seat][o.args["ship"]]
            best = bot._best_landing(s, seat, o.args["dest"], loc)
            out[o.id] = best - 0.6 * o.args["cost"]
    return out


def _rate_builds(s: S, seat: int, d: Decision) -> dict[str, float]:
    heads = ("col", "fac", "ter", "ship")
    return {
        o.id: bot._build_value(s, seat, o.id) for o in d.options if o.id.split(".")[0] in heads
    }


def _rate_landings(s: S, seat: int, d: Decision) -> dict[str, float]:
    known = set(s["known"][seat])
    return {o.id: bot._landing_value(s, seat, int(o.id[2:]), known) for o in d.options}


_RATINGS = {
    "plan_card": _rate_cards,
    "plan_slot": _rate_slots,
    "move": _rate_moves,
    "move_rest": _rate_moves,
    "build": _rate_builds,
    "build_owner": _rate_builds,
    "land": _rate_landings,
}


def prune(s: S, decision: Decision) -> list[str]:
    """The answers worth searching: never ``back`` (which only reopens the same question, so
    a search that found nothing better could go back and forth for ever), only the few
    cards, slots, moves, builds and landings the heuristic rates best (from what the seat
    sees), and no new offer or proposal once a few were composed in this trade window."""
    ids = [o.id for o in decision.options]
    kept = [i for i in ids if i != "back"]
    kind = decision.prompt.rsplit(".", 1)[-1]
    rate = _RATINGS.get(kind)
    if rate is not None:
        values = rate(s, decision.seat, decision)
        rated = sorted((i for i in kept if i in values), key=lambda i: -values[i])
        kept = rated[:KEEP] + [i for i in kept if i not in values]
    task = s["task"]
    if task is not None and task["k"] == "trade" and task["ncomp"] >= COMPOSE_CAP:
        # A compose can be cancelled: after a few, no new ones (else offer, cancel, ...).
        kept = [i for i in kept if not i.startswith(("offer.", "prop"))]
    return kept or ids


def evaluate(s: S, seat: int) -> float:
    """The seat's chance to win from here (see the module docstring)."""
    n = s["n"]
    est = [
        vp_total(s, k)
        + (0.0 if s["step"] == "over" else CARD_WORTH * hand_total(s, k))
        + (0.0 if s["step"] == "over" else ARTIFACT_WORTH * len(s["arts"][k]))
        for k in range(n)
    ]
    lead = est[seat] - max(est[k] for k in range(n) if k != seat)
    return 1.0 / (1.0 + math.exp(-lead / LEAD_SCALE))
