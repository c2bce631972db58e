"""The ``GAME`` object: the contract's functions bound to the Kosmonavts engine."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, OptionSpec, Result
from rules.kit import EngineGame

from . import bot, engine, view
from . import search as _search


class Kosmonavts(EngineGame, game="kosmonavts", players=(2, 4), search=_search):
    """The contract's calls go to :mod:`.engine` and :mod:`.view` under their own names."""

    options: tuple[OptionSpec, ...] = (
        OptionSpec("rules", "kosmonavts.opt.rules", ("basic", "advanced"), "basic"),
        OptionSpec("planets", "kosmonavts.opt.planets", ("random", "players"), "random"),
    )
    #: Symbols in prompts and option labels, and what they mean (the table's legend).
    symbols: Mapping[str, str] = {
        **{a: "kosmonavts.legend.fuel" for a in ("→", "↗", "↖", "←", "↙", "↘")},
        **{a: "kosmonavts.legend.hyper" for a in ("⇒", "⇗", "⇖", "⇐", "⇙", "⇘")},
    }
    #: An absent player's move, when skipped: stay landed, keep drifting with the order
    #: as it stands, don't land, decline an optional event, take the highest marker left.
    skip_options: tuple[str, ...] = ("stay", "confirm", "noland", "skip", "accept")
    skip_options += tuple(f"marker.{v}" for v in range(6, 0, -1))

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return engine.new(players, options, seed)

    def pending(self, state: Mapping[str, Any]) -> list[Decision]:
        return engine.pending(state)

    def apply(
        self, state: Mapping[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        return engine.apply(state, seat, choice)

    def view(self, state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: Mapping[str, Any]) -> Result | None:
        return engine.result(state)

    def dump(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return engine.dump(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return engine.load(data)

    def bot_choice(self, state: Mapping[str, Any], seat: int, rng: random.Random) -> str:
        return bot.bot_choice(state, seat, rng)


GAME = Kosmonavts()
