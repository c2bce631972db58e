"""Galaxy Trucker's hooks for the search engine (:mod:`rules.search`).

Only the flight is searched: building is a long private sequence of moves (about 200 a
ship) whose worth shows only cards later, so building and pre-launch keep the building
heuristic of :mod:`rules.galaxy_trucker.bot` (:func:`prune` offers its move alone), while
every flight question — how many double engines or cannons to power, take or pass a
reward or an abandoned ship, which planet, defend against a hazard or let it hit, which
goods to carry, which crew leaves, which part of a broken ship to keep, and whether to
retire — is searched by play-outs to the end of the flight.

* :func:`sample` redraws what ``seat`` cannot see: the generator seed (every future roll
  of the dice), the cards still in the adventure deck (their order and which cards they
  are: drawn again from the cards of the same levels not revealed this flight, in the
  same number per level), and while building the face-down tile pool together with the
  tiles other builders drew face down and hold in hand, and the card piles other than the
  one the seat is looking at. (Which piles a seat looked at earlier is not kept in the
  state, so the sampled piles forget them: the search never knows more than the seat.)
  In the Trek, a world sampled during a flight ends with that flight: its play-outs are
  judged by the running credits once the flight is over (the next flights start afresh
  for everyone, with new ships), rather than by playing the building of the next flight.
* :func:`rollout` is the bot's own policy (building heuristic, full power, every reward,
  defend, load the automatic way, never retire).
* :func:`prune`: the heuristic's answer alone outside the flight; in flight every option
  (a hazard: ``def`` or ``hit``, which battery pays is the heuristic's business; a broken
  ship: one cell per part).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from core.contract import Decision
from rules.kit import clone
from rules.search import Budget

from . import bot
from . import ship as sh
from .tiles import cards, level

#: Budgets per level. Easy: the heuristic with one answer in five at random (also while
#: building: it makes real mistakes). Normal: the heuristic, a few play-outs on flight
#: questions, one answer in twenty at random. Hard: play-outs to the end of the flight on
#: every flight question, no slips. A flight play-out costs ~5-20 ms (2-4 ships, level I-III):
#: 128 play-outs took 2.2 s a decision with 4 ships at level III, 48 about 1 s.
#: League, 2 players, seats rotated (bench/league.py, 2026-11-26), level II: hard beats
#: random in 93.8 % [90.9, 95.7] (400 games; the heuristic alone 85.8 % of 60), normal in
#: 78.0 % [72.5, 82.8] (246 games); normal beats easy in 75.5 % [71.1, 79.5] (400 games).
#: Level I (the lobby's): hard beats random in 94.8 % [92.1, 96.5] (400 games). Nearly every
#: game not won is a tie at 0 credits (random play ends at 0). Slowest decision: 0.5 s with
#: 2 ships, 0.8 s with 4 at level II (CPU time); 4 hard bots finish 72 % of level II flights
#: (30 games; the heuristic 75 %: the search also retires to keep its credits).
LEVELS = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=8, noise=0.05),
    "hard": Budget(playouts=48),
}


# --------------------------------------------------------------------------- sample


@cache
def _groups() -> dict[str, tuple[str, ...]]:
    """The card ids of each dealing group (``learning``, ``1``, ``2``, ``3``), sorted."""
    out: dict[str, list[str]] = {}
    for cid, c in sorted(cards().items()):
        if c["level"] == 1 and c["learning_flight"]:
            out.setdefault("learning", []).append(cid)
        out.setdefault(str(c["level"]), []).append(cid)
    return {k: tuple(v) for k, v in out.items()}


def _group_of(spec: dict[str, int], cid: str) -> str:
    return "learning" if "learning" in spec else str(cards()[cid]["level"])


def _draw(counts: dict[str, int], seen: set[str], rng: random.Random) -> list[str]:
    """``counts[g]`` cards of each dealing group ``g``, drawn from the cards of that group
    that are not ``seen`` (in a random order)."""
    out: list[str] = []
    for g in sorted(counts):
        pool = [c for c in _groups()[g] if c not in seen]
        rng.shuffle(pool)
        out += pool[: counts[g]]
    rng.shuffle(out)
    return out


def sample(s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    w = clone(s)
    w["seed"] = rng.getrandbits(48)
    w["rc"] = 0
    spec = dict(level(w["level"])["piles"])
    f = w.get("flight")
    if w["phase"] == "build":
        _sample_build(w, seat, spec, rng)
    elif f is not None and w["phase"] == "flight":
        sizes = [len(pile) for pile in w["piles"]]
        seen = {c for pile in w["piles"] for c in pile} - set(f["deck"])
        counts: dict[str, int] = {}
        for c in f["deck"]:  # (how many of each level are left is known)
            counts[_group_of(spec, c)] = counts.get(_group_of(spec, c), 0) + 1
        f["deck"] = _draw(counts, seen, rng)
        every = sorted(seen) + sorted(f["deck"])  # (the piles are not used in flight)
        w["piles"] = [every[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    tr = w.get("trek")
    if tr is not None and w["phase"] in ("prelaunch", "flight"):
        tr["flight"] = 3  # the world ends with this flight (see the module docstring)
    return w


def _sample_build(w: dict[str, Any], seat: int, spec: dict[str, int], rng: random.Random) -> None:
    hidden = sorted(w["facedown"])
    holders = []
    for k, p in enumerate(w["players"]):
        if k != seat and p["hand"] is not None and p["src"] == "down":
            holders.append(k)
            hidden.append(p["hand"])
    hidden.sort()
    rng.shuffle(hidden)
    for k in holders:
        w["players"][k]["hand"] = hidden.pop()
    w["facedown"] = hidden
    mine = w["players"][seat]["peek"]
    known = set(w["piles"][mine]) if mine is not None else set()
    others = [i for i in range(len(w["piles"])) if i != mine]
    fresh = _draw({g: n * len(others) for g, n in spec.items()}, known, rng)
    for i in others:
        w["piles"][i] = sorted(fresh[: len(w["piles"][i])])
        del fresh[: len(w["piles"][i])]
        rng.shuffle(w["piles"][i])


# --------------------------------------------------------------------------- policy

#: The last heuristic answer (state, seat, answer): :func:`prune` and :func:`rollout` ask
#: for the same position in a row (the state is held, so its id cannot be reused).
_last: list[Any] = [None, -1, ""]


def rollout(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    if _last[0] is s and _last[1] == seat:
        return str(_last[2])
    answer = bot.choose(s, seat, rng)
    _last[:] = [s, seat, answer]
    return answer


def prune(s: dict[str, Any], decision: Decision) -> list[str]:
    ids = [o.id for o in decision.options]
    if s["phase"] != "flight":
        return [rollout(s, decision.seat, random.Random(0))]
    f = s["flight"]
    kind = (f.get("ask") or {}).get("kind")
    if kind == "hazard":
        return [i for i in ids if i in ("def", "hit")] or ids
    if kind == "keep":  # one cell per part of the broken ship (any cell keeps its part)
        parts = sh.parts(sh.load(s["players"][decision.seat]["ship"]))
        firsts = {f"keep.{r}.{c}" for r, c in (min(part) for part in parts)}
        return [i for i in ids if i in firsts] or ids
    return ids
