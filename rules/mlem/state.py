"""MLEM — the state's constants and small helpers, the score (breakdown, result) and
persistence (dump, load, validation).

The state is a plain JSON-compatible ``dict`` (see :func:`rules.mlem.voyage.new_state` for its
keys). The rulings are listed in the package docstring (:mod:`rules.mlem`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Result
from rules.kit import Events, Options, clone, load_checked, result_of_parts

from .board import (
    ABILITIES,
    ABILITY_INDEX,
    DEEP,
    DICE,
    DICE_FACES,
    DISASTERS,
    EXPEDITION,
    MISSION_BODIES,
    MISSION_KEEP,
    MISSION_POINTS,
    MOON_ORDER,
    MOONS,
    OBJECTIVES,
    PLANET_ORDER,
    PLANETS,
    RECON_KINDS,
    RECON_SLOTS,
)

SCHEMA = 1
VARIANTS = ("ufo", "recon", "missions")
PHASES = ("missions", "launch", "explore", "land", "chute", "over")
#: Order in which dice groups are listed (afterburner first, then numbers).
GROUP_ORDER: tuple[Any, ...] = ("A", 1, 2, 3, 4)
PARTS = ("moons", "planets", "deep_space", "objectives", "ufo", "recon", "missions")
PHASE_KEY = {
    "missions": "mlem.phase.launch",
    "launch": "mlem.phase.launch",
    "explore": "mlem.phase.explore",
    "land": "mlem.phase.land",
    "chute": "mlem.phase.land",
    "over": "mlem.phase.over",
}
FACE_SYMBOL = {"A": "🔥", 1: "1", 2: "2", 3: "3", 4: "4"}
BOOSTER_SYMBOL = "🐱"
EXTRA_SYMBOL = "🛸"
KEEP_SYMBOL = "🔒"
RECON_POINTS = {"p1": 1, "p2": 2, "p3": 3}
#: Above this many movements (keep-dice variants aside), the commander picks the dice in
#: steps instead: a multi-pick of the dice groups, then, if it applies, whether to keep.
PICK_LIMIT = 12


# --------------------------------------------------------------------------- helpers


#: Event and option builders (``mlem.event.<code>``, ``mlem.<label>``).
EV = Events("mlem")
OPT = Options("mlem")


def _dice_text(faces: list[Any]) -> str:
    return ", ".join(FACE_SYMBOL[f] for f in faces)


def _commander(s: dict[str, Any]) -> int | None:
    crew = s["crew"]
    if crew:
        return crew[0][0]
    if s["phase"] == "launch":
        return s["start"]
    return None


def _return_to_board(s: dict[str, Any], seat: int, ability: str) -> None:
    left = s["board"][seat]
    left.append(ability)
    left.sort(key=ABILITY_INDEX.__getitem__)


# --------------------------------------------------------------------------- scoring


def planet_awards(s: dict[str, Any], planet: str) -> list[tuple[int, int]]:
    """(seat, points) for one planet, best first, arrival order breaking ties; the planet
    doubler is included."""
    rows: list[list[int]] = []
    index: dict[int, int] = {}
    doubled: set[int] = set()
    for seat, ability in s["planets"][planet]:
        if seat not in index:
            index[seat] = len(rows)
            rows.append([seat, 0])
        rows[index[seat]][1] += 1
        if ability == "planet_doubler":
            doubled.add(seat)
    ranked = sorted(rows, key=lambda r: -r[1])  # stable: arrival order breaks ties
    values = PLANETS[planet]
    out = []
    for place, (seat, _count) in enumerate(ranked):
        pts = values[min(place, 2)]
        out.append((seat, pts * 2 if seat in doubled else pts))
    return out


def planet_rows(s: dict[str, Any], planet: str) -> list[list[int]]:
    rows: list[list[int]] = []
    index: dict[int, int] = {}
    for seat, _ability in s["planets"][planet]:
        if seat not in index:
            index[seat] = len(rows)
            rows.append([seat, 0])
        rows[index[seat]][1] += 1
    return rows


def missions_done(s: dict[str, Any], seat: int) -> list[tuple[str, bool]]:
    ms = s["missions"]
    if ms is None or ms["kept"][seat] is None:
        return []
    bodies = {m for m in MOON_ORDER for a in s["moons"][m] if a and a[0] == seat}
    bodies.update(p for p in PLANET_ORDER if any(a[0] == seat for a in s["planets"][p]))
    return [(m, bool(MISSION_BODIES[m] & bodies)) for m in ms["kept"][seat]]


def breakdown_of(s: dict[str, Any]) -> list[dict[str, int]]:
    n = s["n"]
    out = [dict.fromkeys(PARTS, 0) for _ in range(n)]
    for seat in range(n):
        out[seat]["moons"] = s["mpts"][seat]
        out[seat]["deep_space"] = s["dpts"][seat]
    for obj, holder in s["obj"].items():
        if holder is not None:
            out[holder]["objectives"] += OBJECTIVES[obj]
    for p in PLANET_ORDER:
        for seat, pts in planet_awards(s, p):
            out[seat]["planets"] += pts
    if s["ufo"] is not None:
        for seat in range(n):
            out[seat]["ufo"] = sum(s["ufo"]["taken"][seat])
    if s["recon"] is not None:
        for seat in range(n):
            out[seat]["recon"] = sum(s["recon"]["taken"][seat])
    if s["missions"] is not None:
        for seat in range(n):
            done = sum(1 for _m, ok in missions_done(s, seat) if ok)
            out[seat]["missions"] = MISSION_POINTS[done]
    return out


def public_scores(s: dict[str, Any]) -> list[int]:
    if s["phase"] == "over":
        return [sum(b.values()) for b in breakdown_of(s)]
    scores = [s["mpts"][i] + s["dpts"][i] for i in range(s["n"])]
    for obj, holder in s["obj"].items():
        if holder is not None:
            scores[holder] += OBJECTIVES[obj]
    return scores


def result_of(s: dict[str, Any]) -> Result | None:
    if s["phase"] != "over":
        return None
    return result_of_parts(breakdown_of(s))


# --------------------------------------------------------------------------- persistence


_KEYS = {
    "schema": int,
    "n": int,
    "variants": dict,
    "seed": int,
    "rc": int,
    "phase": str,
    "voyage": int,
    "start": int,
    "space": int,
    "crew": list,
    "pool": int,
    "disc": int,
    "roll": list,
    "queue": list,
    "board": list,
    "placed": list,
    "moons": dict,
    "planets": dict,
    "deep": dict,
    "mpts": list,
    "dpts": list,
    "obj": dict,
    "disasters": int,
    "final": bool,
}


def dump_state(s: dict[str, Any]) -> dict[str, Any]:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> dict[str, Any]:
    return load_checked(data, "mlem", _validate)


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"impossible mlem state: {what}")


def _validate(s: dict[str, Any]) -> None:
    for key, typ in _KEYS.items():
        _check(key in s, f"missing {key}")
        _check(isinstance(s[key], typ) and not (typ is int and isinstance(s[key], bool)), key)
    _check(s["schema"] == SCHEMA, "unknown schema")
    n = s["n"]
    _check(2 <= n <= 5, "players")
    _check(s["phase"] in PHASES, "phase")
    pick = s.get("pick")
    _check(pick is None or (s["phase"] == "explore" and isinstance(pick, str)), "pick")
    _check(set(s["variants"]) == set(VARIANTS), "variants")
    _check(0 <= s["start"] < n, "start seat")
    _check(0 <= s["space"] <= DEEP, "space")
    _check(0 <= s["disasters"] <= DISASTERS, "disasters")
    _check(s["pool"] >= 0 and s["disc"] >= 0 and s["pool"] + s["disc"] == DICE, "dice")
    _check(all(f in DICE_FACES for f in s["roll"]), "roll")
    for name in ("board", "placed", "mpts", "dpts"):
        _check(len(s[name]) == n, name)
    _check(s["end"] in (None, "disasters", "placed"), "end")
    seen: list[set[str]] = [set() for _ in range(n)]

    def mark(seat: Any, ability: Any) -> None:
        _check(isinstance(seat, int) and 0 <= seat < n, "seat")
        _check(ability in ABILITY_INDEX and ability not in seen[seat], "astronaut")
        seen[seat].add(ability)

    for seat in range(n):
        for a in s["board"][seat]:
            mark(seat, a)
    for c in s["crew"]:
        _check(len(c) == 3, "crew entry")
        mark(c[0], c[1])
    _check(set(s["moons"]) == set(MOONS), "moons")
    for m, occ in s["moons"].items():
        _check(len(occ) == len(MOONS[m]), "moon count")
        for a in occ:
            if a is not None:
                mark(a[0], a[1])
    _check(set(s["planets"]) == set(PLANETS), "planets")
    for p in PLANET_ORDER:
        for a in s["planets"][p]:
            mark(a[0], a[1])
    _check(set(s["deep"]) == {"comet", "galaxy"}, "deep space")
    for w in ("comet", "galaxy"):
        for a in s["deep"][w]:
            mark(a[0], a[1])
    _check(all(len(x) == len(ABILITIES) for x in seen), "every astronaut exactly once")
    crew_ids = {(c[0], c[1]) for c in s["crew"]}
    _check(all((q[0], q[1]) in crew_ids for q in s["queue"]), "queue")
    _check(set(s["obj"]) == set(OBJECTIVES), "objectives")
    _check(all(v is None or 0 <= v < n for v in s["obj"].values()), "objective holder")
    if s["variants"]["ufo"]:
        ufo, exp = s["ufo"], s["exp"]
        _check(1 <= ufo["space"] <= DEEP and len(ufo["taken"]) == n, "ufo")
        _check(all(t in EXPEDITION for t in exp["deck"]), "expedition deck")
        _check(exp["tile"] is None or exp["tile"] in EXPEDITION, "expedition tile")
    else:
        _check(s["ufo"] is None and s["exp"] is None, "ufo off")
    if s["variants"]["recon"]:
        recon = s["recon"]
        _check(set(recon["slots"]) == {str(sp) for sp in RECON_SLOTS}, "recon slots")
        tiles = [t for t in recon["slots"].values() if t is not None] + recon["stack"]
        _check(all(t in RECON_KINDS for t in tiles) and len(recon["taken"]) == n, "recon")
    else:
        _check(s["recon"] is None, "recon off")
    if s["variants"]["missions"]:
        ms = s["missions"]
        _check(len(ms["dealt"]) == n and len(ms["kept"]) == n, "missions")
        for dealt, kept in zip(ms["dealt"], ms["kept"], strict=True):
            _check(all(m in MISSION_BODIES for m in dealt), "mission ids")
            _check(kept is None or (len(kept) == MISSION_KEEP and set(kept) <= set(dealt)), "kept")
    else:
        _check(s["missions"] is None, "missions off")
    if s["phase"] in ("land", "chute"):
        _check(bool(s["queue"]), "landing queue")
    if s["phase"] == "explore":
        _check(bool(s["crew"]) and len(s["roll"]) == s["pool"], "exploration")
