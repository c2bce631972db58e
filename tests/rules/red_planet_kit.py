"""Shared helpers for the Mission: Red Planet rules tests (no tests here): a started game,
ships and docks set by hand, everyone's character chosen at once, offered ids and codes."""

from __future__ import annotations

from typing import Any

from rules.red_planet import GAME
from rules.red_planet.data import SHIPS

S = dict[str, Any]


def started(n: int = 3, seed: int = 1) -> S:
    """A game right after the missions were kept (everyone keeps the first one)."""
    s = GAME.new(n, {}, seed)
    for d in GAME.pending(s):
        s, _ = GAME.apply(s, d.seat, d.options[0].id)
    assert s["step"] == "choose"
    return s


def ship(ship_id: str, crew: list[int] | None = None, tok: str | None = None) -> dict[str, Any]:
    data = SHIPS[ship_id]
    return {
        "id": ship_id,
        "cap": data["cap"],
        "dest": data["dest"],
        "tok": tok,
        "crew": crew or [],
    }


def set_docks(s: S, docks: list[dict[str, Any] | None]) -> None:
    """Replace the launchpad, keeping every ship and astronaut accounted for."""
    for old in s["docks"]:
        if old is not None:
            s["deck"].append(old["id"])
            for c in old["crew"]:
                s["supply"][c] += 1
    used = {sh["id"] for sh in docks if sh is not None}
    s["deck"] = [x for x in s["deck"] if x not in used]
    for sh in docks:
        if sh is not None:
            for c in sh["crew"]:
                s["supply"][c] -= 1
    s["docks"] = docks


def put(s: S, zone: str, colour: int, k: int) -> None:
    s["astros"][zone][colour] += k
    s["supply"][colour] -= k


def choose_all(s: S, picks: dict[int, int]) -> tuple[S, list[Any]]:
    """Every seat chooses its character (``picks[seat]`` = number); returns the events."""
    events: list[Any] = []
    for seat, num in picks.items():
        if num not in s["hand"][seat]:
            s["hand"][seat].append(num)
        s, ev = GAME.apply(s, seat, f"c{num}")
        events += ev
    return s, events


def ids(s: S, seat: int | None = None) -> list[str]:
    ds = GAME.pending(s)
    d = ds[0] if seat is None else next(x for x in ds if x.seat == seat)
    return [o.id for o in d.options]


def prompt(s: S) -> str:
    return str(GAME.pending(s)[0].prompt).rsplit(".", 1)[1]


def codes(events: list[Any]) -> list[str]:
    return [e.code.removeprefix("red_planet.event.") for e in events]


# --------------------------------------------------------------------------- production ties
