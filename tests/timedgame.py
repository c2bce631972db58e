"""A tiny timed game for the timer tests (core.contract.Timer).

Seats take turns adding 1 or 2 to a shared counter, or passing; each turn runs out after
the lobby's "speed" (live: 120 s, days: 12 h) and then passes. After every third turn all
seats guess in secret whether the counter is odd ("odd") or even ("even"); a right guess
scores a point. Guesses run out too: with the "clock" option on "seat" each seat has its
own timer and guesses "even" when it runs out; on "phase" one timer is shared by the whole
phase (a phase timer): when it runs out, the first seat still guessing "closes" the phase
and those who did not guess score nothing. The game ends when the counter reaches 8.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, Option, OptionSpec, Result, Timer
from tests.toybase import ToyGame, best_wins

SPEED = {"live": 120.0, "days": 12 * 3600.0}
GOAL = 8


class Timed(ToyGame, game_id="timed", players=(2, 3)):
    options: tuple[OptionSpec, ...] = (
        OptionSpec("speed", "timed.opt.speed", ("live", "days"), "live"),
        OptionSpec("clock", "timed.opt.clock", ("seat", "phase"), "seat"),
    )

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {
            "schema": 1,
            "n": players,
            "turn": seed % players,
            "moves": 0,
            "count": 0,
            "guess": None,
            "scores": [0] * players,
            "round": 1,
            # The duration comes from the lobby option, through the state (never a clock).
            "seconds": SPEED[options.get("speed", "live")],
            "phase_clock": options.get("clock") == "phase",
        }

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["guess"] is not None:
            out = []
            for seat in range(s["n"]):
                if s["guess"][seat] is not None:
                    continue
                options = [Option("odd", "timed.opt.odd"), Option("even", "timed.opt.even")]
                if s["phase_clock"]:
                    options.append(Option("close", "timed.opt.close"))
                    timer = Timer(f"guess.{s['round']}", s["seconds"], "close")
                else:
                    timer = Timer(f"guess.{s['round']}.{seat}", s["seconds"], "even")
                out.append(
                    Decision(seat, "timed.prompt.guess", tuple(options), private=True, timer=timer)
                )
            return out
        if s["count"] >= GOAL:
            return []
        return [
            Decision(
                s["turn"],
                "timed.prompt.add",
                (
                    Option("add1", "timed.opt.add1"),
                    Option("add2", "timed.opt.add2"),
                    Option("pass", "timed.opt.pass"),
                ),
                key=f"turn.{s['moves']}",
                timer=Timer(f"turn.{s['moves']}", s["seconds"], "pass"),
            )
        ]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        self.check_offered(s, seat, choice, "timed.error.illegal")
        s = {**s, "scores": list(s["scores"])}
        if s["guess"] is not None:
            guess = list(s["guess"])
            events = []
            if choice == "close":
                guess = [g or "-" for g in guess]
                events.append(Event("closed", seat=seat))
            else:
                guess[seat] = choice
                events.append(Event("guessed", seat=seat, private_to=seat))
            s["guess"] = guess
            if all(guess):
                right = "odd" if s["count"] % 2 else "even"
                for i, g in enumerate(guess):
                    if g == right:
                        s["scores"][i] += 1
                s["guess"] = None
                s["round"] += 1
                events.append(Event("revealed", {"guesses": ",".join(guess)}, reveals=True))
            return s, events
        step = {"add1": 1, "add2": 2, "pass": 0}[choice]
        s["count"] += step
        s["moves"] += 1
        s["turn"] = (s["turn"] + 1) % s["n"]
        events = [Event("added", {"n": step}, seat=seat)]
        if s["moves"] % 3 == 0 or s["count"] >= GOAL:
            s["guess"] = [None] * s["n"]
        return s, events

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "round": s["round"],
            "phase": "timed.phase",
            "over": self.result(s) is not None,
            "scores": list(s["scores"]),
            "count": s["count"],
        }
        if seat is not None and s["guess"] is not None:
            v["private"] = {"my_guess": s["guess"][seat]}
        return v

    def result(self, s: dict[str, Any]) -> Result | None:
        if s["count"] < GOAL or s["guess"] is not None:
            return None
        return best_wins(s["scores"], "points")


GAME = Timed()
