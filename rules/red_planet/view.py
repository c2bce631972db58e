"""Public and private views of a Mission: Red Planet state (schema in the package docstring)."""

from __future__ import annotations

from typing import Any

from rules.kit import result_view, view_head

from .data import OUTER, ZONES
from .engine import PHASE_KEYS, chose_done, dest_of, mission_done, public_scores, result_of


def _ship_view(sh: dict[str, Any] | None) -> dict[str, Any] | None:
    if sh is None:
        return None
    return {
        "id": sh["id"],
        "cap": sh["cap"],
        "printed": sh["dest"],
        "token": sh["tok"],
        "dest": dest_of(sh),
        "crew": list(sh["crew"]),
    }


def view_of(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    n, nc = s["n"], s["nc"]
    over = s["step"] == "over"
    task = s["task"]
    v: dict[str, Any] = {
        **view_head(s, PHASE_KEYS, public_scores(s)),
        "colours": nc,
        "neutral": s["neutral"],
        "first": s["first"],
        "docks": [_ship_view(sh) for sh in s["docks"]],
        "launched": [_ship_view(sh) for sh in s["launched"]],
        "ship_deck": len(s["deck"]),
        "ship_discard": list(s["discard"]),
        "zones": {
            z: {
                "astronauts": list(s["astros"][z]),
                "resource": s["res"][z][0] if s["res"][z][1] else None,
                "pile": dict(s["pile"][z]),
                "discovery": _disc_public(s, z),
            }
            for z in ZONES
        },
        "supply": list(s["supply"]),
        "memorial": list(s["memorial"]),
        "dest_tokens": dict(s["dtok"]),
        "tokens": [dict(t) for t in s["tokens"]],
        # Played characters are face up; the hand is the rest, minus the hidden choice.
        "played": [list(p) for p in s["played"]],
        "hand_size": [len(s["hand"][c]) if c != s["neutral"] else 0 for c in range(nc)],
        # Who has finished the secret choice (character and action cards), never what.
        "chosen": [chose_done(s, c) and [c, s["chosen"][c]] not in s["done"] for c in range(nc)],
        "revealed": [list(x) for x in s["done"]],
        "resolving": [task["c"], task["num"]] if task is not None else None,
        # Missions and action cards lie face down alike: only their number is public.
        "card_count": [len(m) + len(a) for m, a in zip(s["missions"], s["actions"], strict=True)],
        "choosing_mission": [bool(d) for d in s["dealt"]],
        "event_deck": len(s["edeck"]),
        "event_discard": list(s["ediscard"]),
        "waiting": sorted({seat_ for seat_ in range(n) if _is_waiting(s, seat_)}),
    }
    if over:
        res = result_of(s)
        assert res is not None
        v["result"] = result_view(res)
        v["missions"] = [
            [{"id": m, "points": mission_done(s, i, m)} for m in s["missions"][i]]
            for i in range(n)
        ]
        v["reveal"] = _reveal(s)
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r}")
        v["private"] = {
            "hand": sorted(s["hand"][seat], reverse=True),
            "chosen": s["chosen"][seat],
            "missions": [
                {"id": m, "points": mission_done(s, seat, m)} for m in s["missions"][seat]
            ],
            "actions": list(s["actions"][seat]),
            "committed": list(s["commit"][seat]),
            "dealt": list(s["dealt"][seat]),
            "discoveries": {
                z: d["id"] for z, d in s["disc"].items() if seat in d["known"] and not d["up"]
            },
        }
    return v


def _reveal(s: dict[str, Any]) -> list[list[Any]]:
    """What stayed hidden until the end: every mission held, met ✓ or not ✗, with its
    points, and the action cards never played."""
    out: list[list[Any]] = []
    for i in range(s["n"]):
        for m in s["missions"][i]:
            pts = mission_done(s, i, m)
            key = "red_planet.reveal.met" if pts else "red_planet.reveal.missed"
            out.append([key, {"seat": i, "mission_key": f"red_planet.card.{m}", "points": pts}])
        for a in s["actions"][i]:
            out.append(
                ["red_planet.reveal.action", {"seat": i, "card_key": f"red_planet.card.{a}"}]
            )
    return out


def _disc_public(s: dict[str, Any], z: str) -> str | None:
    """None (no card), "hidden" (face down) or the card id once revealed."""
    if z not in OUTER:
        return None
    d = s["disc"].get(z)
    if d is None:
        return None
    return str(d["id"]) if d["up"] else "hidden"


def _is_waiting(s: dict[str, Any], seat: int) -> bool:
    step = s["step"]
    if step == "missions":
        return bool(s["dealt"][seat])
    if step == "choose":
        return not chose_done(s, seat)
    if step == "resolve":
        task = s["task"]
        return task is not None and task["c"] == seat
    return False
