"""Mission: Red Planet (Bauza & Faidutti, FFG 2nd edition 2015) — the pure rules engine, 2–6.

RULINGS_PLACEHOLDER
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, OptionSpec, Result

from . import engine
from .bot import choose as _bot_choose
from .view import view_of

__all__ = ["GAME", "RedPlanetGame"]


class RedPlanetGame:
    """The Mission: Red Planet game object registered with the host (see core.contract)."""

    id = "red_planet"
    name = "red_planet.name"
    min_players = 2
    max_players = 6
    options: tuple[OptionSpec, ...] = ()
    #: An absent player's move, when skipped: keep the action card, stop moving.
    skip_options = ("keep", "done")

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return engine.new_state(players, options, seed)

    def pending(self, state: dict[str, Any]) -> list[Decision]:
        return engine.pending_of(state)

    def apply(
        self, state: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        return engine.apply_move(state, seat, choice)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view_of(state, seat)

    def result(self, state: dict[str, Any]) -> Result | None:
        return engine.result_of(state)

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return engine.dump_state(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return engine.load_state(data)

    def bot_choice(self, state: dict[str, Any], seat: int, rng: random.Random) -> str:
        """A sensible pick for a bot seat, from what that seat may see."""
        if not any(d.seat == seat for d in engine.pending_of(state)):
            raise IllegalMove("red_planet.error.not_your_turn")
        return _bot_choose(state, seat, rng)


GAME = RedPlanetGame()
