"""Shared helpers for the Ad Astra rules tests (no tests here): a game with a chosen map,
moves checked to be offered, hands set by hand, the board's actions started directly."""

from __future__ import annotations

from typing import Any

from core.contract import Event
from rules.ad_astra import GAME, engine
from rules.ad_astra.data import PER_TYPE, RES, SOL

S = dict[str, Any]

#: Face-down planets per star (the first ones are those the example lands on).
LAYOUT = {
    "SR": ["E", "Z", "Y", "F", "W"],
    "LY": ["X", "E", "A", "Y", "Z"],
    "TY": ["W", "F", "Y", "Z", "X"],
    "SY": ["W", "F", "E", "X", "Y"],
    "LR": ["Z", "A", "E", "W", "F"],
    "TR": ["X", "Y", "Z", "E", "A"],
    "NR": ["W", "F", "E", "A", "X"],
    "NY": ["Y", "Z", "E", "A"],
}
HOMES = ["F", "W", "E", "X"]  # Red food, Yellow water, Green energy, Blue xanthium


def planet(s: S, sys_: str, index: int) -> int:
    """Id of the ``index``-th planet of system ``sys_``."""
    return [pid for pid, p in enumerate(s["planets"]) if p["sys"] == sys_][index]


def layout(
    n: int = 4,
    homes: list[str] | None = None,
    systems: dict[str, list[str]] | None = None,
    first: int = 0,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> S:
    """A fresh game with a chosen map (homes at SOL, then the stars in the given order)."""
    s = GAME.new(n, options or {}, seed)
    homes = homes if homes is not None else HOMES[:n]
    systems = systems if systems is not None else LAYOUT
    planets = [
        {"sys": SOL, "t": t, "up": True, "b": [i, "f"], "tf": None} for i, t in enumerate(homes)
    ]
    for sys_, types in systems.items():
        planets += [{"sys": sys_, "t": t, "up": False, "b": None, "tf": None} for t in types]
    s["planets"] = planets
    s["first"] = s["planner"] = first
    return s


def play(s: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    """Apply ``choice`` after checking it is offered to ``seat`` right now."""
    offered = {o.id for d in GAME.pending(s) if d.seat == seat for o in d.options}
    picks = set(choice.split(","))
    assert picks <= offered, (seat, choice, sorted(offered))
    return GAME.apply(s, seat, choice)


def build(s: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    """Build ``choice``; when it asks which ore pays the "any ore", answer as ruling 14 did
    (the ore held most, X, Y, Z order on a tie)."""
    s, ev = play(s, seat, choice)
    mine = [d for d in GAME.pending(s) if d.seat == seat]
    if mine and mine[0].prompt.endswith("pay_ore"):
        ores = [o.id for o in mine[0].options if o.id.startswith("ore.")]
        held = s["res"][seat]
        best = max(ores, key=lambda o: (held[o[4:]], -"XYZ".index(o[4:])))
        s, ev = play(s, seat, best)
    return s, ev


def place(s: S, seat: int, card: str, slot: int) -> S:
    s, _ = play(s, seat, f"c.{card}")
    s, _ = play(s, seat, f"s.{slot}")
    return s


def hand(s: S, seat: int) -> dict[str, int]:
    return {r: k for r, k in s["res"][seat].items() if k}


def conserved(s: S) -> bool:
    return all(s["bank"][r] + sum(h[r] for h in s["res"]) == PER_TYPE for r in RES)


def actions(s: S, *entries: tuple[int, str]) -> tuple[S, list[Event]]:
    """Skip planning: put these (seat, card) on the board in this order and start acting."""
    for seat, card in entries:
        s["hand"][seat].remove(card)
    s["slots"] = [[seat, card, False] for seat, card in entries]
    s["placed"] = len(entries)
    ev: list[Event] = []
    engine._advance(s, ev)
    return s, ev


def give(s: S, seat: int, **cards: int) -> None:
    """Set ``seat``'s hand (types not named: 0), keeping the bank's totals right."""
    for r in s["res"][seat]:
        s["bank"][r] += s["res"][seat][r] - cards.get(r, 0)
        s["res"][seat][r] = cards.get(r, 0)


def ids(s: S, seat: int) -> set[str]:
    return {o.id for d in GAME.pending(s) if d.seat == seat for o in d.options}


def codes(events: list[Event]) -> list[str]:
    return [e.code.rsplit(".", 1)[1] for e in events]


def top(s: S) -> int:
    return GAME.pending(s)[0].seat


def trade_start(options: dict[str, str] | None = None) -> S:
    s = layout(n=3, first=0, homes=["W", "F", "E"], options=options)
    give(s, 0, W=3, X=1)
    give(s, 1, F=2, E=1)
    give(s, 2, Z=2)
    s, _ = actions(s, (0, "t"))
    return s
