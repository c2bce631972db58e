"""A toy game with a shared pool: every seat picks a tile at once, from the same pool.

Each round, every seat picks one tile from what is left (all seats at the same time, one
decision per seat with a stable ``key``), so a seat's options shrink while it is thinking.
A tile scores its number. Two rounds, then the game is over. ``gone_reason`` says who took
a tile a seat clicked too late. ``private=True`` makes the picks secret (DM / My hand);
otherwise they are public decisions on the table (several seats at once, up to six).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, Option, Result
from tests.toybase import ToyGame, best_wins

ROUNDS = 2


class Pool(ToyGame, players=(2, 6)):
    name = "pool.name"  # the id is the instance's

    def __init__(self, game_id: str = "pool", *, private: bool = True, extra: int = 2) -> None:
        self.id = game_id
        self.private = private
        self.extra = extra  # tiles beyond what the seats can take

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        tiles = players * ROUNDS + self.extra
        return {
            "schema": 1,
            "n": players,
            "round": 1,
            "pool": [f"t{i}" for i in range(1, tiles + 1)],
            "taken": {},
            "picked": [None] * players,
            "scores": [0] * players,
        }

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["round"] > ROUNDS:
            return []
        options = tuple(Option(t, "pool.tile", {"n": int(t[1:])}) for t in s["pool"])
        return [
            Decision(
                seat,
                "pool.prompt",
                options,
                {"round": s["round"]},
                private=self.private,
                key=f"pick.{s['round']}",
            )
            for seat in range(s["n"])
            if s["picked"][seat] is None
        ]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        self.check_offered(s, seat, choice, "pool.error.illegal")
        s = {
            **s,
            "pool": [t for t in s["pool"] if t != choice],
            "taken": {**s["taken"], choice: seat},
            "picked": list(s["picked"]),
            "scores": list(s["scores"]),
        }
        s["picked"][seat] = choice
        s["scores"][seat] += int(choice[1:])
        hidden = seat if self.private else None
        events = [Event("took", {"n": int(choice[1:])}, seat=seat, private_to=hidden)]
        if all(p is not None for p in s["picked"]):
            s["round"] += 1
            s["picked"] = [None] * s["n"]
            events.append(Event("round_over", {}, reveals=True))
        return s, events

    def gone_reason(self, s: dict[str, Any], seat: int, option_id: str) -> Any:
        taker = s["taken"].get(option_id)
        if taker is None or taker == seat:
            return None
        return "pool.gone", {"n": int(option_id[1:]), "taker_seat": taker}

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        over = s["round"] > ROUNDS
        v: dict[str, Any] = {
            "round": min(s["round"], ROUNDS),
            "phase": "pool.phase",
            "over": over,
            "scores": list(s["scores"]) if over or not self.private else [0] * s["n"],
            "left": len(s["pool"]),
        }
        if seat is not None:
            v["private"] = {"score": s["scores"][seat]}
        return v

    def result(self, s: dict[str, Any]) -> Result | None:
        if s["round"] <= ROUNDS:
            return None
        return best_wins(s["scores"], "tiles")


STRINGS = {
    "en": {
        "pool.name": "Tile pool",
        "pool.prompt": "Round {round}: take a tile",
        "pool.tile": "Tile {n}",
        "pool.phase": "Taking tiles",
        "pool.gone": "Too slow: tile {n} was just taken by {taker_seat}. Pick another one.",
        "pool.event.took": "{seat} took tile {n}.",
        "pool.event.round_over": "Everyone has taken a tile.",
        "pool.score.tiles": "Tiles",
        "pool.error.illegal": "You cannot take that tile.",
    },
    "es": {
        "pool.name": "Montón de fichas",
        "pool.prompt": "Ronda {round}: coge una ficha",
        "pool.tile": "Ficha {n}",
        "pool.phase": "Cogiendo fichas",
        "pool.gone": "Demasiado lento: {taker_seat} se acaba de llevar la ficha {n}. Elige otra.",
        "pool.event.took": "{seat} ha cogido la ficha {n}.",
        "pool.event.round_over": "Todo el mundo ha cogido una ficha.",
        "pool.score.tiles": "Fichas",
        "pool.error.illegal": "No puedes coger esa ficha.",
    },
}

GAME = Pool()
