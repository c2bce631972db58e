"""Public and private views of a Kosmonavts state (schema in the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import BODIES, DIR_IDS, EARTH, ORBITS, RADIUS, find_path, velocity
from .board import end_hex as _end_hex
from .engine import (
    CARDS,
    MISSION_POINTS,
    ROUND_LIMIT,
    STEP_CAP,
    P,
    _body_at,
    body_next_pos,
    body_pos,
    compose,
    flight_hazard,
    has_options,
    marker_choices,
    mission_results,
    running_scores,
)

PHASE_KEYS = {
    "setup": P + "phase.setup",
    "missions": P + "phase.missions",
    "event": P + "phase.event",
    "orders": P + "phase.orders",
    "flight": P + "phase.flight",
    "planets": P + "phase.planets",
    "over": P + "phase.over",
}


def _hex(p: Any) -> list[int] | None:
    return None if p is None else [p[0], p[1]]


def _step(s: Mapping[str, Any]) -> str | None:
    ph = s["phase"]
    if s["touchdown"] is not None:
        return P + "step.marker"
    if ph == "setup":
        return P + ("step.place_space" if s["setup"]["picked"] else "step.place_body")
    if ph == "event":
        return P + ("step.choose_event" if s["active"] is None else "step.respond")
    if ph in ("flight", "planets") and s["landing"] is not None:
        return P + "step.landing"
    return None


def public_view(s: Mapping[str, Any]) -> dict[str, Any]:
    n = s["n"]
    in_setup = s["phase"] in ("setup", "missions")
    bodies = {}
    for b in BODIES:
        stack = s["stacks"].get(b, [])
        bodies[b] = {
            "kind": "comet" if b == "halley" else "planet",
            "pos": _hex(body_pos(s, b)),
            "index": s["bodies"][b],
            "spaces": len(ORBITS[b]),
            "next": _hex(body_next_pos(s, b)),
            "markers": list(reversed(s["earth_stack"] if b == EARTH else stack)),
            "removed": b in s["removed"],
            "landed_by": list(s["landed_by"][b]),
        }
    ships = []
    for seat, ship in enumerate(s["ships"]):
        rose = ship["rose"]
        ships.append(
            {
                "seat": seat,
                "pos": None if s["phase"] == "setup" else _hex(ship["pos"]),
                "landed": ship["landed"],
                "last_visited": ship["last"],
                "rose": {d: rose[i] for i, d in enumerate(DIR_IDS)},
                "velocity": list(velocity(rose)),
                "tank": ship["fuel"] + ship["hyper"],
                "fuel": ship["fuel"],
                "hyper": ship["hyper"],
                "shields": ship["shields"],
                "markers": dict(ship["markers"]),
                "earth_marker": ship["earth"],
                "returned": ship["returned"],
                "evacuated": ship["evac"],
                "cube_limit": s["limits"][seat],
            }
        )
    waiting = [k for k in range(n) if has_options(s, k)]
    v: dict[str, Any] = {
        "game": "kosmonavts",
        "rules": s["rules"],
        "players": n,
        "round": None if in_setup else s["round"],
        "round_limit": ROUND_LIMIT,
        "phase": PHASE_KEYS[s["phase"]],
        "step": _step(s),
        "over": bool(s["over"]),
        "end": s["end"],
        "scores": running_scores(s),
        "instructor": s["instructor"],
        "waiting": waiting,
        "board": {"radius": RADIUS, "sun": [0, 0]},
        "bodies": bodies,
        "ships": ships,
        "events": {
            "face_up": list(s["face_up"]),
            "active": s["active"],
            "active_kind": CARDS[s["active"]]["kind"] if s["active"] else None,
            "deck": len(s["deck"]),
            "discard": len(s["discard"]),
        },
        "confirmed": None,
        "setup": None,
        "missions_chosen": None,
        "responses": None,
        "landing": None,
        "marker_pick": None,
    }
    if s["over"]:  # the secret missions, held and met (✓) or not (✗)
        v["reveal"] = [
            [
                P + "reveal.mission",
                {
                    "seat": k,
                    "kind_key": P + "reveal." + mid.split(".")[0],
                    "body_key": P + "body." + mid.split(".")[1],
                    "mark": "✓" if pts else "✗",
                    "points": pts,
                },
            ]
            for k in range(n)
            for mid, pts in mission_results(s, k)
        ]
    if s["phase"] == "orders":
        v["confirmed"] = [bool(o["done"]) for o in s["orders"]]
    if s["phase"] == "setup":
        st = s["setup"]
        v["setup"] = {
            "turn": st["turn"],
            "picked": st["picked"],
            "hands": None if st["hands"] is None else [list(h) for h in st["hands"]],
        }
    if s["phase"] == "missions":
        v["missions_chosen"] = [bool(c["done"]) for c in s["choice"]]
    if s["respond"] is not None:
        r = s["respond"]
        v["responses"] = {
            "asked": list(r["asked"]),
            "answered": [a is not None for a in r["answers"]],
        }
    if s["landing"] is not None:
        ld = s["landing"]
        v["landing"] = {
            "phase": ld["phase"],
            "bodies": list(ld["body"]),
            "answered": [a is not None for a in ld["answers"]],
        }
    if s["touchdown"] is not None:
        td = s["touchdown"]
        seat, body = td["queue"][0]
        v["marker_pick"] = {
            "seat": seat,
            "body": body,
            "phase": td["phase"],
            "values": marker_choices(s, seat, body),
            "next": [k for k, _ in td["queue"][1:]],
        }
    return v


def preview(s: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """Where the order being composed would take the ship (phase 3, then phase 4)."""
    ship = s["ships"][seat]
    o = s["orders"][seat]
    c = compose(ship, o["steps"])
    start = (ship["pos"][0], ship["pos"][1])
    staying = ship["landed"] is not None and c["cubes"] == 0
    if staying or o["final"] in ("stay", "stayfull", "evac"):
        evac = o["final"] == "evac"
        return {
            "action": "evac" if evac else "stay",
            "end_hex": _hex(body_pos(s, ship["last"])) if evac else _hex(start),
            "path": [_hex(start)],
            "danger": "none",
            "lands_on": None,
            "phase4_body": None,
            "velocity": [0, 0],
            "fuel_after": c["fuel"] + c["hyper"],
            "fuel": c["fuel"],
            "hyper": c["hyper"],
            "shields_after": c["shields"],
        }
    rose = c["rose"]
    end = _end_hex(start, rose)
    danger = flight_hazard(start, rose)
    path = find_path(start, rose) if danger not in ("sun", "off_board") else None
    if path is None:
        path = [start, end]
    if danger == "danger_sector" and c["shields"] == 0:
        danger = "danger_no_shield"
    lands_on = _body_at(s, end) if danger in ("none", "danger_sector") else None
    phase4 = None
    if danger == "none":
        for b in BODIES:
            if body_next_pos(s, b) == end:
                phase4 = b
    return {
        "action": "fly",
        "end_hex": _hex(end),
        "path": [_hex(p) for p in path],
        "danger": danger,
        "lands_on": lands_on,
        "phase4_body": phase4,
        "velocity": list(velocity(rose)),
        "fuel_after": c["fuel"] + c["hyper"],
        "fuel": c["fuel"],
        "hyper": c["hyper"],
        "shields_after": c["shields"],
    }


def private_part(s: Mapping[str, Any], seat: int) -> dict[str, Any]:
    mids = s["missions"][seat]
    met = dict(mission_results(s, seat))
    priv: dict[str, Any] = {
        "seat": seat,
        "missions": [_mission(s, seat, m, met) for m in mids],
        "dealt": None,
        "kept": None,
        "order": None,
        "converted": None,
        "final": None,
        "picks_left": None,
        "preview": None,
    }
    if s["phase"] == "missions":
        priv["dealt"] = [_mission(s, seat, m, met) for m in s["dealt"][seat]]
        priv["kept"] = list(s["choice"][seat]["keep"])
    elif s["phase"] == "setup" and s["dealt"] is not None:
        priv["dealt"] = [_mission(s, seat, m, met) for m in s["dealt"][seat]]
    if s["phase"] == "orders":
        o = s["orders"][seat]
        priv["order"] = [
            {"dir": st.split(".")[1], "hyper": st.startswith("addh.")}
            for st in o["steps"]
            if st != "convert"
        ]
        priv["converted"] = "convert" in o["steps"]
        priv["final"] = o["final"]
        priv["picks_left"] = max(0, STEP_CAP - o["picks"])
        priv["preview"] = preview(s, seat)
    return priv


def _mission(s: Mapping[str, Any], seat: int, mid: str, met: Mapping[str, int]) -> dict[str, Any]:
    """A mission card as the seat sees it; ``met``: ``dict(mission_results(s, seat))``."""
    kind, body = mid.split(".")
    pts = met.get(mid)
    done = None if pts is None else bool(pts)
    return {
        "id": mid,
        "kind": kind,
        "body": body,
        "name": P + "mission." + mid,
        "points": MISSION_POINTS[kind],
        "done_now": done,
    }


def view(s: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    v = public_view(s)
    if seat is not None and 0 <= seat < s["n"]:
        v["private"] = private_part(s, seat)
    return v
