"""A tiny game for host tests: public turns plus a simultaneous secret pick.

Seats take turns adding 1 or 2 to a shared counter; every time the counter passes a
multiple of 4, every seat secretly picks "red" or "blue" (private, all at once), and
seats that picked the minority colour score a point. The game ends at 10.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, Option, OptionSpec, Result
from tests.toybase import ToyGame, best_wins


class Toy(ToyGame, game_id="toy", players=(2, 3)):
    options = (OptionSpec("fast", "toy.opt.fast", ("off", "on"), "off"),)

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        return {
            "schema": 1,
            "n": players,
            "turn": rng.randrange(players),
            "count": 0,
            "goal": 6 if options.get("fast") == "on" else 10,
            "secret": None,
            "scores": [0] * players,
            "round": 1,
        }

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["count"] >= s["goal"] and s["secret"] is None:
            return []
        if s["secret"] is not None:
            return [
                Decision(
                    seat,
                    "toy.prompt.pick",
                    (Option("red", "toy.opt.red"), Option("blue", "toy.opt.blue")),
                    private=True,
                )
                for seat in range(s["n"])
                if s["secret"][seat] is None
            ]
        return [
            Decision(
                s["turn"],
                "toy.prompt.add",
                (Option("add1", "toy.opt.add1"), Option("add2", "toy.opt.add2")),
            )
        ]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        self.check_offered(s, seat, choice, "toy.error.illegal")
        s = {**s, "scores": list(s["scores"])}
        if s["secret"] is not None:
            secret = list(s["secret"])
            secret[seat] = choice
            s["secret"] = secret
            events = [Event("picked", {"colour": choice}, seat=seat, private_to=seat)]
            if all(secret):
                reds = secret.count("red")
                minority = "red" if reds * 2 < len(secret) else "blue"
                for i, c in enumerate(secret):
                    if c == minority:
                        s["scores"][i] += 1
                s["secret"] = None
                events.append(Event("revealed", {"colours": ",".join(secret)}, reveals=True))
            return s, events
        before = s["count"]
        s["count"] += 1 if choice == "add1" else 2
        s["turn"] = (s["turn"] + 1) % s["n"]
        s["round"] += 1
        events = [Event("added", {"n": s["count"] - before}, seat=seat)]
        if before // 4 != s["count"] // 4 or s["count"] >= s["goal"]:
            s["secret"] = [None] * s["n"]
        return s, events

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v = {
            "round": s["round"],
            "phase": "toy.phase",
            "over": self.result(s) is not None,
            "scores": list(s["scores"]),
            "count": s["count"],
            "picking": s["secret"] is not None,
        }
        if seat is not None and s["secret"] is not None:
            v["private"] = {"my_pick": s["secret"][seat]}
        return v

    def result(self, s: dict[str, Any]) -> Result | None:
        if s["count"] < s["goal"] or s["secret"] is not None:
            return None
        return best_wins(s["scores"], "points")


GAME = Toy()
