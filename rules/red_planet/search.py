"""Mission: Red Planet's hooks for the search engine (:mod:`rules.search`).

* :func:`sample` redraws everything ``seat`` cannot see, from pools whose contents the seat
  can work out (each pool is sorted before it is shuffled, so two states that differ only in
  hidden things give the same worlds for the same ``rng``):

  - the stored seed of future randomness (and with it the neutral's reshuffles);
  - at set-up, the missions dealt to the other players (from the missions the seat does not
    hold), or the one each of them kept;
  - afterwards, the other players' face-down cards (only how many each holds is public: at
    least one mission, the rest missions or action cards), the face-down discoveries the seat
    has not looked at, the event deck's order and the neutral's unused event pile;
  - the face-down resource tokens (and the spare one) and the ship deck's order;
  - the secret choices not yet revealed: an other player's character (from its hand; during
    the countdown only the numbers still to be called), the action cards it committed, and
    the neutral's hidden character and deck order. A choice already made is redrawn as the
    heuristic bot would make it; one still being made starts again.

* :func:`prune` searches only the few characters the heuristic rates best.
* :func:`rollout` is the heuristic bot; :func:`to_move` says who moves without building the
  options.
* :func:`evaluate` turns a position into the seat's chance to win: points as they stand
  (tokens, missions met now, Ice Monopoly, face-up discoveries) plus each zone's pile and
  the productions still to come, shared by the projected majority there.
* ``search_levels``: easy is the heuristic with slips; normal a few play-outs cut after one
  round and judged by :func:`evaluate`; hard more play-outs to the end of the game (a whole
  2-player game is 70-80 moves, ~17 ms), cut at 120 moves (so only in games of many
  players, whose play-outs are longest: the slowest decision stays well under 2 s).
"""

from __future__ import annotations

import math
import random
from typing import Any

from core.contract import Decision
from rules.search import Budget

from .bot import Bot
from .bot import choose as bot_choose
from .data import (
    CHAR_NUMS,
    COURSE_CORRECTION,
    DISCOVERIES,
    MISSIONS,
    PRODUCTION,
    RES_COUNT,
    RES_VALUE,
    ZONES,
)
from .engine import COMMITTABLE, breakdown_of, chose_done, dest_of
from .view import view_of

S = dict[str, Any]

#: The levels (see the module docstring; figures in the README's league section).
LEVELS = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=8, depth=14, noise=0.02),
    "hard": Budget(playouts=32, depth=120),
}
#: characters searched per secret choice (the heuristic's best ones)
CHARACTERS_SEARCHED = 4
#: scale (in points) of the logistic that turns a lead into a chance to win
LEAD_SCALE = 8.0


def sample(s: S, seat: int, rng: random.Random) -> S:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    from rules.kit import clone

    w = clone(s)
    w["seed"] = rng.getrandbits(48)
    w["rc"] = 0
    deck = sorted(w["deck"])
    rng.shuffle(deck)
    w["deck"] = deck
    _resources(w, rng)
    if w["step"] == "missions":
        _missions(w, seat, rng)
        return w
    if w["step"] in ("choose", "resolve"):
        _events(w, seat, rng)
        _choices(w, seat, rng)
    return w


def _resources(w: S, rng: random.Random) -> None:
    down = [z for z in ZONES if not w["res"][z][1]]
    pool = sorted([w["res"][z][0] for z in down] + [w["spare"]])
    rng.shuffle(pool)
    for z in down:
        w["res"][z][0] = pool.pop()
    w["spare"] = pool.pop()


def _missions(w: S, seat: int, rng: random.Random) -> None:
    """Set-up: the other players' dealt (or kept) missions, from the ones the seat lacks."""
    mine = set(w["dealt"][seat]) | set(w["missions"][seat])
    pool = sorted(m for m in MISSIONS if m not in mine)
    rng.shuffle(pool)
    for k in range(w["n"]):
        if k == seat:
            continue
        if w["dealt"][k]:
            w["dealt"][k] = [pool.pop(), pool.pop()]
        else:
            w["missions"][k] = [pool.pop()]
    w["edeck"] = pool


def _events(w: S, seat: int, rng: random.Random) -> None:
    """The other players' face-down cards, unseen discoveries, the event deck and pile."""
    others = [k for k in range(w["n"]) if k != seat]
    hidden_disc = [z for z in sorted(w["disc"]) if not w["disc"][z]["up"]]
    hidden_disc = [z for z in hidden_disc if seat not in w["disc"][z]["known"]]
    pool = list(w["edeck"]) + list(w["nevents"])
    for k in others:
        pool += w["missions"][k] + w["actions"][k]
    pool += [w["disc"][z]["id"] for z in hidden_disc]
    pool.sort()
    rng.shuffle(pool)
    discs = [c for c in pool if c in DISCOVERIES]
    for z in hidden_disc:
        card = discs.pop()
        pool.remove(card)
        w["disc"][z]["id"] = card
    for k in others:
        count = len(w["missions"][k]) + len(w["actions"][k])
        held: list[str] = []
        if count:
            kept = next(c for c in pool if c in MISSIONS)  # the one kept at set-up
            pool.remove(kept)
            held.append(kept)
        cards = [c for c in pool if c not in DISCOVERIES][: count - len(held)]
        for c in cards:
            pool.remove(c)
        held += cards
        w["missions"][k] = [c for c in held if c in MISSIONS]
        w["actions"][k] = [c for c in held if c not in MISSIONS]
    k = len(w["nevents"])
    w["nevents"], w["edeck"] = pool[:k], pool[k:]


def _positions(w: S) -> dict[int, int]:
    """Each colour's place on a shared number: clockwise from the first player, the
    neutral after the humans (as the engine orders the countdown)."""
    nc, nt = w["nc"], w["neutral"]
    order = [(w["first"] + k) % nc for k in range(nc)]
    humans = [c for c in order if c != nt]
    if nt is not None:
        humans.append(nt)
    return {c: i for i, c in enumerate(humans)}


def _bot(w: S, k: int, rng: random.Random) -> Bot:
    return Bot(view_of(w, k), k, rng)


def _commit(w: S, k: int, cards: tuple[str, ...], rng: random.Random) -> None:
    bot = _bot(w, k, rng)
    w["commit"][k] = [a for a in cards if a in w["actions"][k] and bot.on_commit(a) == "play"]


def _choices(w: S, seat: int, rng: random.Random) -> None:
    """The secret choices not yet revealed, redrawn (see the module docstring)."""
    nt = w["neutral"]
    revealed = {(c, num) for c, num in w["done"]}
    if w["step"] == "choose":
        for k in range(w["n"]):
            if k == seat:
                continue
            w["ask"][k] = []
            w["commit"][k] = []
            if not chose_done(w, k):
                w["chosen"][k] = None
                continue
            w["chosen"][k] = None
            ids = [f"c{x}" for x in sorted(w["hand"][k], reverse=True)]
            w["chosen"][k] = int(_bot(w, k, rng).on_choose(ids, None)[1:])  # type: ignore[arg-type]
            _commit(w, k, COMMITTABLE, rng)
        if nt is not None and w["chosen"][nt] is not None:
            pool = sorted([*w["hand"][nt], w["chosen"][nt]])
            rng.shuffle(pool)
            w["chosen"][nt] = pool.pop(0)
            w["hand"][nt] = pool
        return
    # The countdown: the characters still to be called, the commitments still secret.
    task = w["task"]
    pos = _positions(w)
    rank = {num: i for i, num in enumerate(CHAR_NUMS)}
    if w["course"]:
        for k in range(w["n"]):
            if k != seat and k != task["c"]:
                w["commit"][k] = []
                if pos[k] > pos[task["c"]]:
                    _commit(w, k, (COURSE_CORRECTION,), rng)
        nc = w["nc"]
        clockwise = [(w["first"] + i) % nc for i in range(nc)]
        after = clockwise[clockwise.index(task["c"]) + 1 :] if task["c"] in clockwise else []
        w["order"] = [[c, 0] for c in after if c < w["n"] and COURSE_CORRECTION in w["commit"][c]]
        return
    now = (rank[task["num"]], pos[task["c"]])
    for k in range(w["nc"]):
        if k == seat or k == task["c"]:
            continue
        if (k, w["chosen"][k]) in revealed:
            if k < w["n"]:  # resolved already: only a Course Correction can still wait
                _commit(w, k, (COURSE_CORRECTION,), rng)
            continue
        if k == nt:
            pool = sorted([*w["hand"][nt], w["chosen"][nt]])
        else:
            pool = sorted(w["hand"][k])
        allowed = [x for x in pool if (rank[x], pos[k]) > now]
        if not allowed:  # cannot happen in a real state: keep the choice as it is
            continue
        if k == nt:
            rng.shuffle(allowed)
            pick = allowed[0]
            pool.remove(pick)
            rng.shuffle(pool)
            w["chosen"][nt], w["hand"][nt] = pick, pool
            continue
        w["chosen"][k] = None
        ids = [f"c{x}" for x in sorted(allowed, reverse=True)]
        w["chosen"][k] = int(_bot(w, k, rng).on_choose(ids, None)[1:])  # type: ignore[arg-type]
        _commit(w, k, COMMITTABLE, rng)
    entries = [
        [c, w["chosen"][c]]
        for c in range(w["nc"])
        if c != task["c"] and w["chosen"][c] is not None and (c, w["chosen"][c]) not in revealed
    ]
    entries.sort(key=lambda e: (rank[e[1]], pos[e[0]]))
    w["order"] = entries


def to_move(s: S) -> list[int]:
    """The seats of ``pending`` without building their options (play-outs need only who)."""
    step = s["step"]
    if step == "missions":
        return [k for k in range(s["n"]) if s["dealt"][k]]
    if step == "choose":
        return [k for k in range(s["n"]) if not chose_done(s, k)]
    task = s["task"]
    if step == "resolve" and task is not None and task["steps"]:
        return [task["c"]]
    return []


def prune(s: S, decision: Decision) -> list[str]:
    """The answers worth searching: for the character, the few the heuristic rates best
    (from the seat's own view), so the play-outs are not spread over nine cards."""
    ids = [o.id for o in decision.options]
    if not decision.prompt.endswith(".choose") or len(ids) <= CHARACTERS_SEARCHED:
        return ids
    values = Bot(view_of(s, decision.seat), decision.seat, random.Random(0)).char_values(ids)
    return sorted(ids, key=lambda oid: -values[oid])[:CHARACTERS_SEARCHED]


def rollout(s: S, seat: int, rng: random.Random) -> str:
    """The play-out policy: the heuristic bot (without the host's turn check)."""
    return bot_choose(s, seat, rng)


def evaluate(s: S, seat: int) -> float:
    """The seat's chance to win from here (see the module docstring)."""
    n, nc = s["n"], s["nc"]
    parts = breakdown_of(s)
    est = [float(sum(p.values())) for p in parts] + [0.0] * (nc - n)
    if s["step"] != "over":
        rnd = s["round"]
        left = sum(k for r, k in PRODUCTION.items() if r >= rnd)
        unseen = [r for r in RES_COUNT for _ in range(RES_COUNT[r])]
        mean = sum(RES_VALUE[r] for r in unseen) / len(unseen)
        proj = {z: [float(k) for k in s["astros"][z]] for z in ZONES}
        for sh in s["launched"]:
            dest = dest_of(sh)
            if dest is not None:
                for c in sh["crew"]:
                    proj[dest][c] += 1.0
        for sh in s["docks"]:
            dest = dest_of(sh) if sh is not None else None
            if dest is not None:
                for c in sh["crew"]:
                    proj[dest][c] += 0.5
        for z in ZONES:
            r, up = s["res"][z]
            per = RES_VALUE[r] if up else mean
            value = per * left + sum(RES_VALUE[t] * k for t, k in s["pile"][z].items())
            counts = proj[z]
            top = max(counts)
            if top <= 0:
                continue
            leaders = [c for c in range(nc) if counts[c] >= top - 0.25]
            for c in leaders:
                est[c] += value / len(leaders)
    mine = est[seat]
    best = max(est[k] for k in range(n) if k != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / LEAD_SCALE))
