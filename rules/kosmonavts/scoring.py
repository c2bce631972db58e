"""Kosmonavts: missions, the score breakdown, the end of the game and the result."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from core.contract import Event, Result
from rules.kit import ranks_of

from .board import MISSION_POINTS
from .common import _EV, _seat_order, marker_top_values

# ------------------------------------------------------------------------------- scoring


def _game_over(s: dict[str, Any], events: list[Event], reason: str) -> None:
    ships = s["ships"]
    if s["rules"] == "basic":
        early = [k for k in _seat_order(s) if ships[k]["returned"] in (1, 3)]
        winners = early or [k for k in _seat_order(s) if ships[k]["returned"] == 4]
    else:
        winners = [k for k in _seat_order(s) if ships[k]["returned"]]
    for seat in winners:
        value = s["earth_stack"].pop()
        ships[seat]["earth"] = value
        events.append(_EV("earth_marker", seat, value=value))
    s["over"] = True
    s["phase"] = "over"
    s["end"] = reason
    events.append(_EV("game_over_" + reason))
    for seat in range(s["n"]):
        for mid, pts in mission_results(s, seat):
            code = ("mission_done." if pts else "mission_failed.") + mid
            events.append(_EV(code, seat, reveals=True, points=pts))
    res = result(s)
    assert res is not None
    for seat in range(s["n"]):
        events.append(_EV("final_score", seat, score=res.scores[seat], rank=res.ranks[seat]))


def mission_results(s: Mapping[str, Any], seat: int) -> list[tuple[str, int]]:
    """[(mission id, points earned)] for a seat's kept missions, evaluated now (R19)."""
    out = []
    ship = s["ships"][seat]
    for mid in s["missions"][seat]:
        kind, body = mid.split(".")
        first, second = marker_top_values(s["rules"], body)
        held = ship["markers"].get(body)
        if kind == "m1":
            done = held == first
        else:
            done = held == second or s["landed_by"][body] == [seat]
        out.append((mid, MISSION_POINTS[kind] if done else 0))
    return out


def breakdown(s: Mapping[str, Any], seat: int, final: bool) -> dict[str, int]:
    ship = s["ships"][seat]
    parts = {"markers": sum(ship["markers"].values()), "earth": ship["earth"]}
    if final:
        res = mission_results(s, seat)
        parts["mission1"] = sum(p for m, p in res if m.startswith("m1."))
        parts["mission2"] = sum(p for m, p in res if m.startswith("m2."))
    return parts


def running_scores(s: Mapping[str, Any]) -> list[int]:
    return [sum(breakdown(s, k, bool(s["over"])).values()) for k in range(s["n"])]


def result(s: Mapping[str, Any]) -> Result | None:
    if not s["over"]:
        return None
    parts = [breakdown(s, k, True) for k in range(s["n"])]
    scores = tuple(sum(p.values()) for p in parts)

    def key(k: int) -> tuple[int, ...]:
        ship = s["ships"][k]
        ret = {0: 0, 4: 1, 1: 2, 3: 2}[ship["returned"]]
        fours = sum(1 for v in ship["markers"].values() if v == 4)
        if s["rules"] == "advanced":
            return (scores[k], ship["shields"], ret, fours)
        return (scores[k], ret, fours)

    keys = [key(k) for k in range(s["n"])]
    ranks = ranks_of(keys)
    return Result(
        scores=scores, ranks=ranks, breakdown=tuple(parts), tiebreak=tiebreak_key(s, keys)
    )


def tiebreak_key(s: Mapping[str, Any], keys: Sequence[tuple[int, ...]]) -> str:
    """The i18n key naming the tie-breaks (R20) that split players equal on points, the
    deepest one needed included; "" when no tie-break decided a place."""
    levels = (
        ["shields", "returned", "fours"] if s["rules"] == "advanced" else ["returned", "fours"]
    )
    deepest = 0
    for a, b in itertools.combinations(keys, 2):
        if a[0] != b[0] or a == b:
            continue
        deepest = max(deepest, next(i for i in range(1, len(a)) if a[i] != b[i]))
    return "kosmonavts.tiebreak." + "_".join(levels[:deepest]) if deepest else ""
