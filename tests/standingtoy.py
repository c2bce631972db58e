"""The toy game (tests/toygame.py) with standing decisions (the optional ``standing`` hook of
:class:`core.contract.Game`): options a seat may take at any time without being asked.

* ``resign`` (public): a seat still playing may resign at any time; it only marks the seat.
* ``hint`` (private): while the secret colours are picked, a seat may ask for a hint (a
  private event); it rides on the seat's private panel, never shown alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option
from tests.toygame import Toy


class StandingToy(Toy):
    id = "standing"
    name = "standing.name"

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {**super().new(players, options, seed), "resigned": [], "hints": [0] * players}

    def standing(self, s: dict[str, Any]) -> list[Decision]:
        if self.result(s) is not None:
            return []
        out = []
        for seat in range(s["n"]):
            if seat not in s["resigned"]:
                resign = Option("resign", "standing.opt.resign", style="danger")
                out.append(Decision(seat, "standing.prompt.resign", (resign,), key="resign"))
            if s["secret"] is not None:
                hint = Option("hint", "standing.opt.hint")
                out.append(
                    Decision(seat, "standing.prompt.hint", (hint,), private=True, key="hint")
                )
        return out

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        mine = {o.id for d in self.standing(s) if d.seat == seat for o in d.options}
        if choice == "resign" and "resign" in mine:
            return {**s, "resigned": [*s["resigned"], seat]}, [Event("resigned", seat=seat)]
        if choice == "hint" and "hint" in mine:
            hints = list(s["hints"])
            hints[seat] += 1
            return {**s, "hints": hints}, [Event("hinted", seat=seat, private_to=seat)]
        if choice in ("resign", "hint"):
            raise IllegalMove("toy.error.illegal")
        return super().apply(s, seat, choice)


GAME = StandingToy()
