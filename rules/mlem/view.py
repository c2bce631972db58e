"""MLEM — the public and private views of a state, and what is revealed at the end."""

from __future__ import annotations

from typing import Any

from rules.kit import result_view

from .board import (
    ACCEPTS,
    AFTERBURNER,
    DISASTERS,
    EXPEDITION,
    MISSION_POINTS,
    MOON_ORDER,
    PLANET_ORDER,
)
from .state import (
    PHASE_KEY,
    RECON_POINTS,
    _commander,
    missions_done,
    planet_rows,
    public_scores,
    result_of,
)
from .turn import _waiting

# --------------------------------------------------------------------------- views


def view_of(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    n = s["n"]
    phase = s["phase"]
    over = phase == "over"
    space = s["space"]
    ok = ACCEPTS.get(space, frozenset())
    pool = s["pool"]
    booster_used = [0] * n
    for c in s["crew"]:
        if c[1] == "booster" and c[2]:
            booster_used[c[0]] += 1
    v: dict[str, Any] = {
        "game": "mlem",
        "round": s["voyage"],
        "phase": PHASE_KEY[phase],
        "step": phase,
        "over": over,
        "end": s["end"],
        "players": n,
        "scores": public_scores(s),
        "start_seat": s["start"],
        "commander": None if phase == "chute" else _commander(s),
        "rocket": {
            "space": space,
            "crew": [{"seat": c[0], "astronaut": c[1], "used": bool(c[2])} for c in s["crew"]],
        },
        "dice": {
            "pool": pool,
            "discarded": s["disc"],
            "roll": list(s["roll"]),
            "usable": [f in ok for f in s["roll"]],
        },
        "space_info": {"faces": sorted(ok, key=str), "afterburner": AFTERBURNER.get(space)},
        "moons": {m: [a[0] if a else None for a in s["moons"][m]] for m in MOON_ORDER},
        "moon_astronauts": {
            m: [{"seat": a[0], "astronaut": a[1]} if a else None for a in s["moons"][m]]
            for m in MOON_ORDER
        },
        "planets": {p: planet_rows(s, p) for p in PLANET_ORDER},
        "planet_astronauts": {
            p: [{"seat": a[0], "astronaut": a[1]} for a in s["planets"][p]] for p in PLANET_ORDER
        },
        "deep_space": {w: [a[0] for a in s["deep"][w]] for w in ("comet", "galaxy")},
        "deep_astronauts": {
            w: [{"seat": a[0], "astronaut": a[1]} for a in s["deep"][w]]
            for w in ("comet", "galaxy")
        },
        "disasters": s["disasters"],
        "disaster_limit": DISASTERS,
        "boards": [
            {
                "left": list(s["board"][i]),
                "placed": s["placed"][i],
                "boosters_used": booster_used[i],
            }
            for i in range(n)
        ],
        "objectives": dict(s["obj"]),
        "last_voyage": s["final"],
        "waiting": _waiting(s),
        "ufo": None,
        "expedition": None,
        "recon": None,
        "missions": None,
    }
    ufo = s["ufo"]
    if ufo is not None:
        v["ufo"] = {
            "space": ufo["space"],
            "tiles_left": len(ufo["tiles"]),
            "taken": [len(t) for t in ufo["taken"]],
        }
        exp = s["exp"]
        tile = None
        if exp["tile"] is not None:
            tile = dict(EXPEDITION[exp["tile"]])
            if "extra" in tile:
                tile["extra"] = list(tile["extra"])
        v["expedition"] = {
            "tile": tile,
            "left": len(exp["deck"]),
            "ability_available": bool(exp["avail"] and exp["tile"] is not None),
        }
    recon = s["recon"]
    if recon is not None:
        slots: dict[str, Any] = {}
        for key, tile in recon["slots"].items():
            if tile is None:
                slots[key] = None
            elif tile in RECON_POINTS:
                slots[key] = {"kind": "points", "value": RECON_POINTS[tile]}
            else:
                slots[key] = {"kind": tile}
        v["recon"] = {
            "slots": slots,
            "left": len(recon["stack"]),
            "taken": [len(t) for t in recon["taken"]],
        }
    ms = s["missions"]
    if ms is not None:
        v["missions"] = {
            "kept": [len(k) if k is not None else 0 for k in ms["kept"]],
            "choosing": [i for i in range(n) if ms["kept"][i] is None],
        }
        if over:
            v["missions"]["revealed"] = [
                [{"id": m, "done": d} for m, d in missions_done(s, i)] for i in range(n)
            ]
    if over:
        v["reveal"] = reveal_of(s)
        res = result_of(s)
        assert res is not None
        v["result"] = result_view(res)
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r}")
        priv: dict[str, Any] = {
            "missions": [{"id": m, "done": d} for m, d in missions_done(s, seat)],
            "dealt": [],
            "hidden_points": {
                "ufo": sum(ufo["taken"][seat]) if ufo is not None else 0,
                "recon": sum(recon["taken"][seat]) if recon is not None else 0,
            },
            "ufo_tiles": list(ufo["taken"][seat]) if ufo is not None else [],
            "recon_tiles": list(recon["taken"][seat]) if recon is not None else [],
        }
        if ms is not None and ms["kept"][seat] is None:
            priv["dealt"] = list(ms["dealt"][seat])
        v["private"] = priv
    return v


def reveal_of(s: dict[str, Any]) -> list[list[Any]]:
    """What was hidden, as ``[i18n key, args]`` lines for the end of the game: each seat's
    secret missions (kept, and met ✓ or not ✗), its face-down UFO tiles and its taken
    reconnaissance points tiles."""
    out: list[list[Any]] = []
    ms, ufo, recon = s["missions"], s["ufo"], s["recon"]
    for seat in range(s["n"]):
        if ms is not None and ms["kept"][seat] is not None:
            done = missions_done(s, seat)
            met = sum(1 for _m, ok in done if ok)
            marks = ", ".join(f"{m} {'✓' if ok else '✗'}" for m, ok in done)
            out.append(
                [
                    "mlem.reveal.missions",
                    {"seat": seat, "missions": marks, "met": met, "points": MISSION_POINTS[met]},
                ]
            )
        for kind, variant in (("ufo", ufo), ("recon", recon)):
            if variant is not None and variant["taken"][seat]:
                tiles = variant["taken"][seat]
                shown = ", ".join(str(v) for v in tiles)
                args = {"seat": seat, "n": len(tiles), "tiles": shown, "points": sum(tiles)}
                out.append([f"mlem.reveal.{kind}", args])
    return out
