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

* :func:`evaluate` turns a position into the seat's chance to win: points as they stand plus
  a little for the cards and artifacts held.
* ``search_levels``: easy is the heuristic with slips; normal and hard search with play-outs
  cut at a depth where :func:`evaluate` judges the position.
"""

from __future__ import annotations

import math
import random
from typing import Any

from rules.search import Budget

from .data import CARD_IDS, RES
from .engine import hand_total, vp_total

S = dict[str, Any]

#: The levels (see the module docstring; figures in the README's league section).
LEVELS = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=8, depth=16, noise=0.05),
    "hard": Budget(playouts=32, depth=40),
}
#: scale (in points) of the logistic that turns a lead into a chance to win
LEAD_SCALE = 6.0
#: worth of one resource card / one artifact held, in points
CARD_WORTH = 0.35
ARTIFACT_WORTH = 2.0


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
