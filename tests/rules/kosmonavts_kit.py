"""Shared helpers for the Kosmonavts rules tests (no tests here).

States are plain dicts, so a test builds the situation it needs: :func:`fresh` gives the
orders phase of round 1 with every body parked on a known space (all planets on orbit index
0, on the east axis; the comet far away in the north-east), which leaves the west of the
board empty for flights. :func:`fly` puts a ship in space with a given rose.
"""

from __future__ import annotations

from typing import Any

from core.contract import Event, apply_checked
from rules.kit import clone
from rules.kosmonavts import GAME
from rules.kosmonavts.board import BODIES, DIR_IDS, ORBITS

QUIET = (-5, 0)  # ring 5, west: no body within 5 hexes when bodies are parked


def fresh(n: int = 2, rules: str = "basic", seed: int = 1, instructor: int = 0) -> dict:
    s = GAME.new(n, {"rules": rules, "planets": "random"}, seed)
    if rules == "advanced":
        for seat in range(n):
            for choice in ("keep.2", "keep.3", "confirm"):
                s, _ = apply_checked(GAME, s, seat, choice)
    assert s["phase"] == "orders" and s["round"] == 1
    s = clone(s)
    for b in BODIES:
        s["bodies"][b] = 0
    s["bodies"]["halley"] = 10
    s["instructor"] = instructor
    earth = ORBITS["earth"][0]
    for ship in s["ships"]:
        ship["pos"] = list(earth)
    return s


def rose(**units: int) -> list[int]:
    return [units.get(d, 0) for d in DIR_IDS]


def fly(s: dict, seat: int, pos: tuple[int, int] = QUIET, **fields: Any) -> dict:
    """Put ``seat``'s ship in flight at ``pos``; ``rose=`` and tank/shield fields optional."""
    ship = s["ships"][seat]
    ship["landed"] = None
    ship["pos"] = [pos[0], pos[1]]
    ship["rose"] = list(fields.pop("rose", [0] * 6))
    ship.update(fields)
    return s


def land_on(s: dict, seat: int, body: str) -> dict:
    ship = s["ships"][seat]
    p = ORBITS[body][s["bodies"][body]]
    ship["landed"] = body
    ship["last"] = body
    ship["pos"] = [p[0], p[1]]
    ship["rose"] = [0] * 6
    return s


def at(body: str, ahead: int = 0, s: dict | None = None) -> tuple[int, int]:
    idx = 0 if s is None else s["bodies"][body]
    orbit = ORBITS[body]
    return orbit[(idx + ahead) % len(orbit)]


def play(s: dict, seat: int, *choices: str) -> tuple[dict, list[Event]]:
    events: list[Event] = []
    for c in choices:
        s, ev = apply_checked(GAME, s, seat, c)
        events += ev
    return s, events


def orders(s: dict, plan: dict[int, tuple[str, ...]]) -> tuple[dict, list[Event]]:
    """Give every seat's whole order (steps then closing option); seats not in ``plan``
    confirm an empty order (or stay, when landed)."""
    events: list[Event] = []
    for seat in range(s["n"]):
        if not offered(s, seat):
            continue  # already confirmed
        choices = plan.get(seat)
        if choices is None:
            choices = ("stay",) if s["ships"][seat]["landed"] else ("confirm",)
        s, ev = play(s, seat, *choices)
        events += ev
    return s, events


def codes(events: list[Event]) -> list[str]:
    return [e.code.removeprefix("kosmonavts.event.") for e in events]


def to_event_phase(s: dict, card: str) -> dict:
    """Finish round 1 with empty orders and show ``card`` face up in round 2's event phase."""
    s, _ = orders(s, {})
    return to_event_phase_card(s, card)


def offered(s: dict, seat: int) -> list[str]:
    return [o.id for d in GAME.pending(s) if d.seat == seat for o in d.options]


def skip_event(s: dict) -> dict:
    """In an event phase, play a Thrust card (no answers needed) to reach the orders."""
    s = to_event_phase_card(s, "thrust-1")
    s, _ = play(s, s["instructor"], "event.thrust-1")
    assert s["phase"] == "orders"
    return s


def to_event_phase_card(s: dict, card: str) -> dict:
    assert s["phase"] == "event" and s["active"] is None
    s = clone(s)
    if card not in s["face_up"]:
        where = "deck" if card in s["deck"] else "discard"
        i = s[where].index(card)
        s[where][i] = s["face_up"][0]
        s["face_up"][0] = card
    return s


def both_landed(instructor: int) -> dict[str, Any]:
    """Two ships flown to the same body from either side (seat 0 a turn ahead), both landing
    on it: the moment they choose their markers (R12)."""
    s = fresh(n=2, instructor=instructor)
    fly(s, 0, (10, 0))
    fly(s, 1, (12, 0))
    s, _ = orders(s, {0: ("add.e", "confirm"), 1: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    s, _ = play(s, 1, "land")
    return s
