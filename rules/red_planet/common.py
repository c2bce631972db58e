"""Mission: Red Planet: the constants and small helpers every part of the engine shares
(ships, places, labels, the events that name a player). See rules.red_planet for the rulings."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from core.contract import Event, Option
from rules.kit import Events, Options

from .data import (
    COURSE_CORRECTION,
    EMERGENCY_LAUNCH,
    GAME_ID,
    REINFORCEMENTS,
    RES_VALUE,
    SHIPS,
    ZONE_NAMES,
    ZONES,
)

#: The action cards a holder decides on during the secret choice, in the order of their
#: moments (Blocks of Ice plays itself at the next production).
COMMITTABLE = (REINFORCEMENTS, EMERGENCY_LAUNCH, COURSE_CORRECTION)
STEPS = ("missions", "choose", "resolve", "over")
PHASE_KEYS = {
    "missions": "red_planet.phase.missions",
    "choose": "red_planet.phase.choose",
    "resolve": "red_planet.phase.resolve",
    "over": "red_planet.phase.over",
}
PREFIX = "red_planet."

_ev = Events(GAME_ID)
_opt = Options(GAME_ID)

S = dict[str, Any]


def _ship(ship_id: str) -> dict[str, Any]:
    data = SHIPS[ship_id]
    return {"id": ship_id, "cap": data["cap"], "dest": data["dest"], "tok": None, "crew": []}


def dest_of(ship: Mapping[str, Any]) -> str | None:
    tok: str | None = ship["tok"]
    return tok if tok is not None else ship["dest"]


def _dock_opt(s: S, i: int, label: str = "opt.dock") -> Option:
    ship = s["docks"][i]
    return _dock_option(i, label, dest_of(ship), len(ship["crew"]), ship["cap"])


@cache
def _dock_option(i: int, label: str, dest: str | None, crew: int, cap: int) -> Option:
    return _opt(
        f"d{i}",
        label,
        dock=i + 1,
        zone=ZONE_NAMES[dest] if dest else "?",
        crew=crew,
        cap=cap,
    )


def _room(ship: Mapping[str, Any]) -> int:
    return int(ship["cap"]) - len(ship["crew"])


def _places(s: S) -> list[tuple[str, list[int]]]:
    """Every place astronauts can be targeted (docked ships, launched ships, zones), as
    (reference, per-colour counts)."""
    out: list[tuple[str, list[int]]] = []
    nc = s["nc"]
    for ref, sh in _ships(s):
        counts = [0] * nc
        for col in sh["crew"]:
            counts[col] += 1
        out.append((ref, counts))
    out += [(z, s["astros"][z]) for z in ZONES]
    return out


def _ships(s: S) -> list[tuple[str, dict[str, Any]]]:
    out = [(f"d{i}", sh) for i, sh in enumerate(s["docks"]) if sh is not None]
    out += [(f"l{j}", sh) for j, sh in enumerate(s["launched"])]
    return out


def _ship_ref(s: S, ref: str) -> dict[str, Any]:
    idx = int(ref[1:])
    sh: dict[str, Any] = s["docks"][idx] if ref[0] == "d" else s["launched"][idx]
    return sh


def _ship_label(s: S, ref: str) -> str:
    """A short public name for a ship: 🚀2 is the ship in dock 2, 🛸1 the first launched."""
    return ("🚀" if ref[0] == "d" else "🛸") + str(int(ref[1:]) + 1)


def _pilot_zones(s: S, sh: Mapping[str, Any]) -> list[str]:
    cur = dest_of(sh)
    return [z for z in ZONES if s["dtok"][z] > 0 and z != cur]


def _target_label(s: S, o: int) -> str:
    return "opt.target_n" if o == s["neutral"] else "opt.target"


def _target_args(s: S, where: str, o: int) -> dict[str, Any]:
    place: str | dict[str, str]
    if where in ZONE_NAMES:
        place = ZONE_NAMES[where]
    else:
        place = _ship_label(s, where)
    if o == s["neutral"]:
        return {"place": place}
    return {"place": place, "victim_seat": o}


def _who(code: str, c: int, s: S, reveals: bool = False, **args: Any) -> Event:
    """An event whose actor is colour ``c`` (the neutral has its own wording)."""
    if c == s["neutral"]:
        return _ev("n_" + code, reveals=reveals, **args)
    return _ev(code, c, reveals=reveals, **args)


def _launch(s: S, i: int, ev: list[Event]) -> None:
    sh = s["docks"][i]
    s["docks"][i] = None
    s["launched"].append(sh)
    dest = dest_of(sh)
    ev.append(
        _ev("launch", dock=i + 1, zone=ZONE_NAMES[dest] if dest else "?", crew=len(sh["crew"]))
    )


def _arrive(s: S, z: str, c: int, k: int, ev: list[Event]) -> None:
    s["astros"][z][c] += k
    if k > 0 and not s["res"][z][1]:
        s["res"][z][1] = True
        ev.append(_ev(f"resource.{s['res'][z][0]}", zone=ZONE_NAMES[z], reveals=True))


def _place_on(s: S, c: int, i: int, k: int, ev: list[Event]) -> None:
    sh = s["docks"][i]
    was_empty = not sh["crew"]
    sh["crew"] += [c] * k
    s["supply"][c] -= k
    s["task"]["last"] = i
    ev.append(_who("place", c, s, dock=i + 1, count=k))
    if was_empty and dest_of(sh) is None:
        s["task"]["steps"].insert(0, ["dest", i])


def _victim(code: str, c: int, o: int, s: S, place: Any) -> Event:
    if o == s["neutral"]:
        return _who(code + "_vn", c, s, place=place)
    return _who(code, c, s, place=place, victim_seat=o)


def _discard_ship(s: S, sh: Mapping[str, Any]) -> None:
    if sh["tok"] is not None:
        s["dtok"][sh["tok"]] += 1
    s["discard"].append(sh["id"])


# --------------------------------------------------------------------------- the leader (R26)


def _leader(s: S) -> int:
    """The human player leading on point-token value (lowest seat on a tie)."""
    vals = [_token_value(s, seat) for seat in range(s["n"])]
    return vals.index(max(vals))


def _token_value(s: S, c: int) -> int:
    return sum(RES_VALUE[r] * k for r, k in s["tokens"][c].items())
