"""Public and private views of an Ad Astra state (fields listed in the package docstring)."""

from __future__ import annotations

from typing import Any

from rules.kit import result_view, view_head

from .data import ALIEN, RES
from .state import PHASE_KEYS, all_pieces, fmt_cards, hand_total, public_scores, result_of


def view_of(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    n = s["n"]
    over = s["step"] == "over"
    task = s["task"]
    trading = task is not None and task["k"] == "trade"
    planets = []
    face_down = 0
    for pid, p in enumerate(s["planets"]):
        up = p["up"]
        b = p["b"]
        if not up:
            face_down += 1
        planets.append(
            {
                "id": pid,
                "sys": p["sys"],
                "type": p["t"] if up else None,
                "building": list(b) if b is not None else None,
                "terraformed_by": p["tf"],
            }
        )
    v: dict[str, Any] = {
        **view_head(s, PHASE_KEYS, public_scores(s)),
        "factions": list(s["fac"]),
        "first": s["first"],
        "planner": s["planner"] if s["step"] == "plan" else None,
        # Card backs show the owner; faces only once revealed.
        "slots": [
            None if x is None else {"seat": x[0], "card": x[1] if x[2] else None}
            for x in s["slots"]
        ],
        "current_slot": s["cur"] + 1 if s["step"] == "act" else None,
        "planets": planets,
        "ships": [list(x) for x in s["ships"]],
        "pieces": all_pieces(s),
        "bank": dict(s["bank"]),
        "hand_count": [hand_total(s, i) for i in range(n)],
        # Hands are shown open while a Trade action is resolving (rulebook).
        "open_hands": [dict(h) for h in s["res"]] if trading else None,
        "action_cards": [len(h) for h in s["hand"]],
        "scoring_played": [list(x) for x in s["used_sc"]],
        "artifact_count": [len(a) for a in s["arts"]],
        "artifact_deck": len(s["adeck"]),
        "face_down": face_down,
        "ending": s["ending"],
        "task": _task_view(s),
        "discarding": [i for i in range(n) if s["need"][i] > 0] if s["step"] == "discard" else [],
    }
    if over:
        res = result_of(s)
        assert res is not None
        v["result"] = result_view(res)
        v["artifacts"] = [list(a) for a in s["arts"]]
        v["reveal"] = _reveal(s)
    if seat is not None:
        known = {
            str(pid): s["planets"][pid]["t"]
            for pid in s["known"][seat]
            if not s["planets"][pid]["up"]
        }
        v["private"] = {
            "seat": seat,
            "faction": s["fac"][seat],
            "action_hand": list(s["hand"][seat]),
            "planned": {
                str(i + 1): x[1]
                for i, x in enumerate(s["slots"])
                if x is not None and x[0] == seat
            },
            "picked": s["pick"] if s["step"] == "plan" and s["planner"] == seat else None,
            "resources": {r: s["res"][seat][r] for r in RES},
            "artifacts": list(s["arts"][seat]),
            # slot number -> the artifact this seat armed on it (secret until it acts)
            "armed": {str(x[0] + 1): x[2] for x in s.get("armed", []) if x[1] == seat},
            "known_planets": known,
        }
    return v


def _reveal(s: dict[str, Any]) -> list[list[Any]]:
    """Every secret the game kept, once it is over: the artifacts each player still held,
    the resource cards left in each hand, and the planets nobody uncovered."""
    out: list[list[Any]] = []
    for seat in range(s["n"]):  # one line each, so that the final message holds them all
        cards = fmt_cards(s["res"][seat])
        arts = "+".join(s["arts"][seat])
        key = "hand_arts" if cards and arts else "hand" if cards else "arts" if arts else "none"
        out.append([f"ad_astra.reveal.{key}", {"seat": seat, "cards": cards, "arts": arts}])
    hidden: dict[str, dict[str, int]] = {}  # system -> type -> planets still face down
    for p in s["planets"]:
        if not p["up"]:
            kinds = hidden.setdefault(p["sys"], {})
            kinds[p["t"]] = kinds.get(p["t"], 0) + 1
    for sys_, kinds in hidden.items():
        planets = "+".join(f"{k}{typ}" for typ in (*RES, ALIEN) if (k := kinds.get(typ, 0)))
        out.append(["ad_astra.reveal.hidden", {"sys": sys_, "planets": planets}])
    return out


def _task_view(s: dict[str, Any]) -> dict[str, Any] | None:
    t = s["task"]
    if t is None or s["step"] != "act":
        return None
    out: dict[str, Any] = {"kind": t["k"], "owner": t["o"], "card": t["card"]}
    if t["k"] == "move":
        out["systems"] = list(t["sys"])
        out["turn"] = t["q"][0][0] if t["q"] else None
    elif t["k"] == "build":
        out["turn"] = t["q"][0] if t["q"] else None
    elif t["k"] == "score":
        out["element"] = t["elem"]
    elif t["k"] == "trade":
        out["offers"] = [
            {k: o[k] for k in ("id", "frm", "to", "give", "want", "prop")} for o in t["offers"]
        ]
    return out
