"""A toy game for the generic UI's layouts: a multi-pick decision, a large grid and a
game-provided panel, one after the other, seat by seat (public decisions on the table).

1. ``crew``: pick 2 to 3 of six crew members (one multi-pick answer, ids joined by ",").
2. ``place``: put your ship on a 7 x 7 map (a ``grid`` hint larger than a message holds,
   so the UI pages it); "stay home" has no cell and goes below the grid.
3. ``hull``: pick a hull shape, laid out by the game's own ``panel`` hook (rows with gaps).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Result, split_picks
from tests.toybase import ToyGame, best_wins

CREW = ("ana", "bo", "cy", "di", "ed", "flo")
SIZE = 7
HULLS = ("a", "b", "c", "d")
PHASES = ("crew", "place", "hull")


class Layout(ToyGame, game_id="layout", players=(1, 4)):
    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"schema": 1, "n": players, "step": 0, "crew": {}, "ships": {}, "hulls": {}}

    def _turn(self, s: dict[str, Any]) -> tuple[str, int] | None:
        phase, seat = divmod(s["step"], s["n"])
        return None if phase >= len(PHASES) else (PHASES[phase], seat)

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        turn = self._turn(s)
        if turn is None:
            return []
        phase, seat = turn
        if phase == "crew":
            opts = tuple(Option(c, f"layout.crew.{c}") for c in CREW)
            return [Decision(seat, "layout.prompt.crew", opts, min_picks=2, max_picks=3)]
        if phase == "place":
            used = set(s["ships"].values())
            cells = tuple(
                Option(f"c{r}.{c}", "layout.cell", {"r": r + 1, "c": c + 1}, cell=(r, c))
                for r in range(SIZE)
                for c in range(SIZE)
                if f"c{r}.{c}" not in used
            )
            home = Option("home", "layout.home", style="danger")
            return [Decision(seat, "layout.prompt.place", (*cells, home), grid=(SIZE, SIZE))]
        opts = tuple(Option(h, f"layout.hull.{h}") for h in HULLS)
        return [Decision(seat, "layout.prompt.hull", opts)]

    def panel(self, s: dict[str, Any], decision: Decision) -> Any:
        """The hull picker as the game wants it: a diamond with gaps."""
        if decision.prompt != "layout.prompt.hull":
            return None
        return [[None, "a", None], ["b", None, "c"], [None, "d", None]]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        turn = self._turn(s)
        if turn is None or turn[1] != seat:
            raise IllegalMove("layout.error.illegal")
        phase = turn[0]
        s = {**s, "crew": dict(s["crew"]), "ships": dict(s["ships"]), "hulls": dict(s["hulls"])}
        if phase == "crew":
            picks = split_picks(choice)
            if not 2 <= len(picks) <= 3 or any(p not in CREW for p in picks):
                raise IllegalMove("layout.error.illegal")
            s["crew"][str(seat)] = picks
            event = Event("crew", {"n": len(picks)}, seat=seat)
        elif phase == "place":
            if not any(o.id == choice for o in self.pending(s)[0].options):
                raise IllegalMove("layout.error.illegal")
            s["ships"][str(seat)] = choice
            event = Event("placed", {}, seat=seat)
        else:
            if choice not in HULLS:
                raise IllegalMove("layout.error.illegal")
            s["hulls"][str(seat)] = choice
            event = Event("hull", {}, seat=seat)
        s["step"] += 1
        return s, [event]

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        over = self._turn(s) is None
        return {
            "round": 1,
            "phase": "layout.phase",
            "over": over,
            "scores": [len(s["crew"].get(str(i), [])) for i in range(s["n"])],
        }

    def result(self, s: dict[str, Any]) -> Result | None:
        if self._turn(s) is not None:
            return None
        scores = tuple(len(s["crew"].get(str(i), [])) for i in range(s["n"]))
        return best_wins(scores, "crew")


STRINGS = {
    "en": {
        "layout.name": "Layouts",
        "layout.phase": "Getting ready",
        "layout.prompt.crew": "Pick 2 or 3 crew members",
        "layout.prompt.place": "Where does your ship start?",
        "layout.prompt.hull": "Pick a hull",
        "layout.cell": "{r}-{c}",
        "layout.home": "Stay home",
        "layout.event.crew": "{seat} hired {n} crew members.",
        "layout.event.placed": "{seat} placed a ship.",
        "layout.event.hull": "{seat} picked a hull.",
        "layout.score.crew": "Crew",
        "layout.error.illegal": "You cannot do that now.",
        **{f"layout.crew.{c}": c.title() for c in CREW},
        **{f"layout.hull.{h}": f"Hull {h.upper()}" for h in HULLS},
    },
    "es": {
        "layout.name": "Disposiciones",
        "layout.phase": "Preparativos",
        "layout.prompt.crew": "Elige 2 o 3 tripulantes",
        "layout.prompt.place": "¿Dónde empieza tu nave?",
        "layout.prompt.hull": "Elige un casco",
        "layout.cell": "{r}-{c}",
        "layout.home": "Quedarte en casa",
        "layout.event.crew": "{seat} ha contratado {n} tripulantes.",
        "layout.event.placed": "{seat} ha colocado una nave.",
        "layout.event.hull": "{seat} ha elegido un casco.",
        "layout.score.crew": "Tripulación",
        "layout.error.illegal": "Ahora no puedes hacer eso.",
        **{f"layout.crew.{c}": c.title() for c in CREW},
        **{f"layout.hull.{h}": f"Casco {h.upper()}" for h in HULLS},
    },
}

GAME = Layout()
