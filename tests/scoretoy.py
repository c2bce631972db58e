"""A toy game that ends at once with a long final word: up to six seats, each with a score
broken down into many long-named categories, eight secret missions revealed per seat (met ✓
or not ✗) and a tie-break, so the final message has more than one embed holds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Result
from tests.toybase import ToyGame

CATEGORIES = tuple(f"cat{i}" for i in range(10))
MISSIONS = 8

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "scoretoy.name": "Score toy",
        "scoretoy.prompt.end": "End the game now?",
        "scoretoy.opt.end": "End it",
        "scoretoy.event.ended": "{seat} ended the game.",
        "scoretoy.tiebreak": "the most secret missions met, then the fewest unused resources",
        "scoretoy.reveal.mission": (
            "{who}: mission {n} — land a long-named astronaut on the far side of a moon "
            "{mark} ({points} points)"
        ),
        **{
            f"scoretoy.score.{c}": f"category {c} with a long descriptive name" for c in CATEGORIES
        },
    },
    "es": {
        "scoretoy.name": "Juguete de puntos",
        "scoretoy.prompt.end": "¿Terminar la partida ya?",
        "scoretoy.opt.end": "Terminar",
        "scoretoy.event.ended": "{seat} terminó la partida.",
        "scoretoy.tiebreak": "más misiones secretas cumplidas y luego menos recursos sin usar",
        "scoretoy.reveal.mission": (
            "{who}: misión {n} — posar un astronauta de nombre largo en la cara oculta de "
            "una luna {mark} ({points} puntos)"
        ),
        **{
            f"scoretoy.score.{c}": f"categoría {c} con un nombre largo y descriptivo"
            for c in CATEGORIES
        },
    },
}


class ScoreToy(ToyGame, game_id="scoretoy", players=(2, 6)):
    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"schema": 1, "n": players, "over": False, "names": [], "round": 1}

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["over"]:
            return []
        return [Decision(0, "scoretoy.prompt.end", (Option("end", "scoretoy.opt.end"),))]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        if s["over"] or seat != 0 or choice != "end":
            raise IllegalMove("host.error.not_offered")
        return {**s, "over": True}, [Event("ended", {}, seat=seat)]

    @staticmethod
    def parts(seat: int) -> dict[str, int]:
        return {c: 10 + seat * 3 + i for i, c in enumerate(CATEGORIES)}

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"round": s["round"], "scores": self.scores(s)}
        if s["over"]:
            v["reveal"] = [
                [
                    "scoretoy.reveal.mission",
                    {
                        "who": f"Seat {p + 1}",
                        "n": k + 1,
                        "mark": "✓" if (p + k) % 2 else "✗",
                        "points": 2 + k,
                    },
                ]
                for p in range(s["n"])
                for k in range(MISSIONS)
            ]
        return v

    def scores(self, s: dict[str, Any]) -> list[int]:
        return [sum(self.parts(p).values()) for p in range(s["n"])]

    def result(self, s: dict[str, Any]) -> Result | None:
        if not s["over"]:
            return None
        scores = self.scores(s)
        order = sorted(range(s["n"]), key=lambda p: -scores[p])
        ranks = tuple(order.index(p) + 1 for p in range(s["n"]))
        return Result(
            tuple(scores),
            ranks,
            tuple(self.parts(p) for p in range(s["n"])),
            tiebreak="scoretoy.tiebreak",
        )


GAME = ScoreToy()
