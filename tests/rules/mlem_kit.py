"""Shared helpers for the MLEM rules tests (no tests here).

States are plain dicts, so tests build the exact situation they need: :func:`explore_state`
puts a crew in the rocket on a given space with a given roll, and :class:`ScriptedDice`
replaces the dice so that later rolls are known in advance.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from core.contract import Event, IllegalMove, apply_checked
from rules.mlem import GAME, engine, voyage
from rules.mlem.board import ABILITIES, DICE


def fresh(n: int = 3, seed: int = 1, **variants: str) -> dict[str, Any]:
    return GAME.new(n, variants, seed)


def explore_state(
    crew: Iterable[tuple[int, str]],
    *,
    n: int = 3,
    space: int = 0,
    roll: list[Any] | None = None,
    pool: int | None = None,
    start: int | None = None,
    seed: int = 1,
    **variants: str,
) -> dict[str, Any]:
    """A state in the exploration phase: ``crew`` (seat, ability) top first, on ``space``,
    with ``roll`` showing (the pool is the roll's size unless given)."""
    s = GAME.new(n, variants, seed)
    s = engine.clone(s)
    if s["missions"] is not None:
        for seat in range(n):
            s["missions"]["kept"][seat] = s["missions"]["dealt"][seat][:3]
    crew = list(crew)
    s["phase"] = "explore"
    s["voyage"] = max(1, s["voyage"])
    s["crew"] = [[seat, ability, 0] for seat, ability in crew]
    s["board"] = [[a for a in ABILITIES if (seat, a) not in crew] for seat in range(n)]
    s["start"] = crew[0][0] if start is None else start
    s["space"] = space
    roll = list(roll or [1])
    s["roll"] = roll
    s["pool"] = len(roll) if pool is None else pool
    s["disc"] = DICE - s["pool"]
    s["queue"] = []
    return s


def place(s: dict[str, Any], seat: int, ability: str, where: str, idx: int | None = None) -> None:
    """Put an astronaut straight onto the mat (moon group + index, planet, comet/galaxy)."""
    s["board"][seat].remove(ability)
    if where in s["moons"]:
        s["moons"][where][idx] = [seat, ability]
    elif where in s["planets"]:
        s["planets"][where].append([seat, ability])
    else:
        s["deep"][where].append([seat, ability])
    s["placed"][seat] += 1


class ScriptedDice:
    """Replaces :func:`rules.mlem.voyage.draw_faces` with rolls given in advance."""

    def __init__(self, monkeypatch: Any, *rolls: list[Any]) -> None:
        self.rolls = [list(r) for r in rolls]
        monkeypatch.setattr(voyage, "draw_faces", self.draw)

    def add(self, *rolls: list[Any]) -> None:
        self.rolls.extend(list(r) for r in rolls)

    def draw(self, s: dict[str, Any], count: int) -> list[Any]:
        s["rc"] += 1
        if self.rolls:
            roll = self.rolls.pop(0)
            assert len(roll) == count, f"scripted roll {roll} but the pool is {count}"
            return roll
        return ["A"] * count if "A" in engine.ACCEPTS[s["space"]] else [2] * count


def act(s: dict[str, Any], seat: int, choice: str) -> tuple[dict[str, Any], list[Event]]:
    """Apply through the host's guard (the choice must be offered)."""
    return apply_checked(GAME, s, seat, choice)


def options(s: dict[str, Any], seat: int | None = None) -> list[str]:
    decs = GAME.pending(s)
    if seat is not None:
        decs = [d for d in decs if d.seat == seat]
    return [o.id for d in decs for o in d.options]


def only_decision(s: dict[str, Any]) -> Any:
    decs = GAME.pending(s)
    assert len(decs) == 1, decs
    return decs[0]


def codes(events: list[Event]) -> list[str]:
    return [e.code.removeprefix("mlem.event.") for e in events]


def random_game(
    seed: int, n: int, variants: dict[str, str], rng: random.Random | None = None
) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Play uniformly random options to the end; returns the final state and the choices."""
    rng = rng or random.Random(seed)
    s = GAME.new(n, variants, seed)
    moves: list[tuple[int, str]] = []
    while True:
        decs = GAME.pending(s)
        if not decs:
            return s, moves
        d = rng.choice(decs)
        choice = rng.choice(d.options).id
        s, _ = GAME.apply(s, d.seat, choice)
        moves.append((d.seat, choice))


def refused(s: dict[str, Any], seat: int, choice: str) -> str:
    try:
        GAME.apply(s, seat, choice)
    except IllegalMove as exc:
        return exc.code
    raise AssertionError(f"{choice!r} by seat {seat} was accepted")
