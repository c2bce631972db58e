"""Galaxy Trucker's hooks for the search engine (:mod:`rules.search`).

Only the flight is searched: building is a long private sequence of moves (about 200 a
ship) whose worth shows only cards later, so building and pre-launch keep the building
heuristic of :mod:`rules.galaxy_trucker.bot` (:func:`prune` offers its move alone), while
every flight question — how many double engines or cannons to power, take or pass a
reward or an abandoned ship, which planet, defend against a hazard or let it hit, which
goods to carry, which crew leaves, which part of a broken ship to keep — is searched by
play-outs to the end of the flight; giving up too in the short flights (GIVE_UP), at the
other levels only when that locks the win (below).

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
  defend, load the automatic way, never retire), except that in a sampled world (marked
  :data:`SAMPLED`, never a real game's state) a ship gives up when that locks the win, as
  the searching levels do at the table (the easy level, which plays this policy on the
  real state, still never retires: R28).
* :func:`prune`: the heuristic's answer alone outside the flight; in flight every option
  (a hazard: ``def`` or ``hit``, which battery pays is the heuristic's business; a broken
  ship: one cell per part), except when giving up locks the win (:func:`locked_win`):
  every other ship is already out of the flight and the seat, leaving after this card,
  keeps more credits than any of them ended with — by LOCK_MARGIN beside a question of a
  card that may still cost the ship, by one between two cards or beside a card that can
  only add; beside a reward, an abandoned ship or station or a planet, what it leaves with
  counts what the best answer pays (:func:`after_card`: the credits, the goods the holds
  take at half price). Then ``retire`` alone: flying on could only lose the win (a meteor
  swarm that takes the ship apart, slavers that take the last humans). Play-outs that
  never retired missed it, and the search's reward (the win plus a little for the margin)
  found a sure win by one credit no better than flying on for a bigger one: such ships
  flew on and tied games at 0 credits (2026-11-27). Otherwise ``retire`` is searched only
  in the flights of GIVE_UP (the learning flight and level I, also as flights of the
  Trek): at level II the searched give-ups cost finished flights and credits — 4 hard
  bots, seeds 0-39, 122 of 160 ships finished with them (12 gave up), 135 without; mean
  credits a ship 11.5 with, 11.9 without — while at level I they win games: hard against
  normal (2 players) 60.5 % of 400 games with them, 56.7 % of the first 172 without
  (2026-11-27). At levels II and III (CREW_FLOOR) an abandoned ship that would leave fewer
  than the heuristic's KEEP_HUMANS humans aboard is passed, not searched: 4 hard bots,
  seeds 0-79, the search took 50 such ships where the heuristic passed, and 15 of those
  ships later left the flight (13 without humans, 6 of them to slavers, which take 4); with
  the rule 273 of 320 ships finished instead of 264 (the heuristic alone 275), for 0.4
  credit a ship less (2026-11-27).
* :func:`reward_bonus`: at the same levels a finished play-out whose ship is out of the
  flight loses OUT_COST of its reward. The win alone undervalues finishing in a 4-ship
  race (a ship with little chance to win loses little win share when slavers empty it);
  finishing pays the rank's reward and the goods at full price. 4 hard bots, seeds 0-79
  (with the purple alien first, :mod:`rules.galaxy_trucker.bot`): 280 of 320 finished
  with 0.3, 278 with 0.15, 274 without, mean credits the same (2026-11-27).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from core.contract import Decision
from rules.kit import clone
from rules.search import Budget

from . import bot
from . import flight as fl
from . import ship as sh
from .engine import pending_of
from .tiles import cards, data, level

#: Budgets per level. Easy: the heuristic with one answer in five at random (also while
#: building: it makes real mistakes). Normal: the heuristic, a few play-outs on flight
#: questions, one answer in fifty at random. Hard: play-outs to the end of the flight on
#: every flight question, no slips. A flight play-out costs ~5-20 ms (2-4 ships, level I-III):
#: 128 play-outs took 2.2 s a decision with 4 ships at level III, 48 about 1 s.
#: A slip is a uniformly random answer, and most of a game's answers are building moves:
#: one in twenty (normal until 2026-11-27) ended ships early ("done") or put tiles where
#: they fit badly, and normal won only 82 % of level I games against random play (100
#: games); without slips 93 %, but then hard beat it in only 52.5 %. One in fifty keeps the
#: levels apart. League figures: README, "The bots' league".
LEVELS = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=8, noise=0.02),
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


#: The key a sampled world carries (never a real game's state): in its play-outs a ship
#: gives up the flight when that locks the win, as the searching levels do at the table.
SAMPLED = "sampled"


def sample(s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A state ``seat`` cannot tell from ``s``: everything hidden from it redrawn."""
    w = clone(s)
    w[SAMPLED] = True
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
    if s.get(SAMPLED) and locked_win(s, seat) and _may_retire(s, seat):
        answer = "retire"  # (play-outs only: the heuristic itself never retires, R28)
    else:
        answer = bot.choose(s, seat, rng)
    _last[:] = [s, seat, answer]
    return answer


#: Beside a question of a card that may still cost tiles, crew or goods (an enemy, a combat
#: zone, a hazard), giving up locks the win only with at least this many credits more than
#: the best other ship; between two cards (``next``), or beside a question of a card that
#: can only add (:data:`SAFE_CARDS`, or taking a reward), one more is enough.
LOCK_MARGIN = 3
#: The levels whose flights the search weighs giving up (``retire``) in where it does not
#: lock the win (every level until 2026-11-27; see the module docstring).
GIVE_UP = ("learning", "I")
#: The levels whose slavers (firepower 7 and 8) take 4 and 5 crew: there the search never
#: takes an abandoned ship that leaves fewer than the heuristic's KEEP_HUMANS humans aboard
#: (see the module docstring).
CREW_FLOOR = ("II", "III")
#: Cards whose questions cost nothing a retired ship is paid for: open space (days only),
#: planets and abandoned stations (goods added), abandoned ships (crew for credits).
SAFE_CARDS = ("open_space", "planets", "abandoned_ship", "abandoned_station", "stardust")


def retired_value(s: dict[str, Any], seat: int) -> int:
    """The credits ``seat`` ends the flight with if it leaves now (R27: credits won on
    cards, goods at half price, lost tiles paid; never below 0)."""
    return _credits(s, seat)


def _credits(s: dict[str, Any], seat: int, won: int = 0, goods: int = 0) -> int:
    """What a retired ``seat`` would be paid with ``won`` more credits and ``goods`` more
    worth of goods aboard (R27: goods at half price, lost tiles paid; never below 0)."""
    p = s["players"][seat]
    worth = fl.goods_value({sh.unkey(k): v for k, v in p.get("goods", {}).items()}, False)
    lost = len(p["lost"]) * int(data()["lost_tile_penalty"])
    total = int(p.get("won", 0)) + won + (worth + goods + 1) // 2 - lost
    return max(0, total)


def after_card(s: dict[str, Any], seat: int) -> int:
    """What ``seat`` leaves with if it gives up beside this question and answers it the best
    way: a reward, an abandoned ship or station, a planet (nothing of them costs tiles, and
    a retired ship keeps what they pay). Other questions: what it has now."""
    f = s["flight"]
    kind = (f.get("ask") or {}).get("kind")
    now = retired_value(s, seat)
    if kind not in ("take", "reward", "planet") or not f.get("card"):
        return now
    card = cards()[f["card"]]
    if kind == "planet":
        free = f["ask"].get("free", [])
        gain = max((bot.load_gain(s, seat, card["planets"][i]) for i in free), default=0)
        return max(now, _credits(s, seat, goods=gain))
    reward = card.get("reward", {})
    gain = bot.load_gain(s, seat, list(reward.get("goods", [])))
    return max(now, _credits(s, seat, won=int(reward.get("credits", 0)), goods=gain))


def locked_win(s: dict[str, Any], seat: int) -> bool:
    """Does giving up now win the flight for sure? Every other ship is already out (its
    credits are settled) and ``seat`` leaving now keeps more than any of them. Single
    flights only (in the Trek the next flights still count)."""
    f = s.get("flight")
    if s.get("trek") is not None or f is None or f["pos"][seat] is None:
        return False
    others = [k for k in range(len(s["players"])) if k != seat]
    if any(f["pos"][k] is not None for k in others):
        return False
    kind = (f.get("ask") or {}).get("kind")
    card = cards()[f["card"]]["type"] if f.get("card") else None
    safe = kind in ("next", "reward", "planet") or card in SAFE_CARDS
    margin = 1 if safe else LOCK_MARGIN
    best = max((retired_value(s, k) for k in others), default=0)
    return after_card(s, seat) >= best + margin


def _may_retire(s: dict[str, Any], seat: int) -> bool:
    """Is ``retire`` among ``seat``'s options now (beside its question, or between cards)?"""
    f = s.get("flight")
    if s["phase"] != "flight" or f is None or (f.get("ask") or {}).get("seat") != seat:
        return False
    return any(o.id == "retire" for d in pending_of(s) if d.seat == seat for o in d.options)


#: At the levels of CREW_FLOOR, a finished play-out whose ship is out of the flight (no
#: humans, no engine power, lapped; or given up: at these levels the search gives up only
#: to lock the win, which :func:`prune` answers unsearched) loses this much of its reward
#: (a win is worth 1).
OUT_COST = 0.3


def reward_bonus(s: dict[str, Any], seat: int) -> float:
    """Beyond the win: less for a play-out whose ship ended out of the flight, at the levels
    of CREW_FLOOR (the rank's reward and half the goods lost)."""
    f = s.get("flight")
    if f is None or s["level"] not in CREW_FLOOR or seat not in f["retired"]:
        return 0.0
    return -OUT_COST


def _thins_crew(s: dict[str, Any], decision: Decision) -> bool:
    """Would taking this abandoned ship leave fewer than the heuristic's KEEP_HUMANS humans
    aboard (the slavers of levels II and III take 4 and 5)?"""
    card = cards()[s["flight"]["card"]]
    if card["type"] != "abandoned_ship":
        return False
    p = s["players"][decision.seat]
    return sum(p["crew"].values()) - int(card["crew_lost"]) < bot.KEEP_HUMANS


def prune(s: dict[str, Any], decision: Decision) -> list[str]:
    ids = [o.id for o in decision.options]
    if s["phase"] != "flight":
        return [rollout(s, decision.seat, random.Random(0))]
    if "retire" in ids and locked_win(s, decision.seat):
        return ["retire"]
    if s["level"] not in GIVE_UP:
        ids = [i for i in ids if i != "retire"]
    f = s["flight"]
    kind = (f.get("ask") or {}).get("kind")
    if kind == "take" and s["level"] in CREW_FLOOR and "pass" in ids and _thins_crew(s, decision):
        return ["pass"]
    if kind == "hazard":
        return [i for i in ids if i in ("def", "hit")] or ids
    if kind == "keep":  # one cell per part of the broken ship (any cell keeps its part)
        parts = sh.parts(sh.load(s["players"][decision.seat]["ship"]))
        firsts = {f"keep.{r}.{c}" for r, c in (min(part) for part in parts)}
        return [i for i in ids if i in firsts] or ids
    return ids
