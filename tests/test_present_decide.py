"""The table's "to move" field says what is decided, with whose it is, and a legend line
explains the symbols the open decisions use (cogs/present.py, with a stand-in snapshot)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cogs import present
from core.contract import Decision, Option
from rules.mlem import GAME as MLEM


@dataclass
class Seat:
    name: str
    user_id: int | None
    dm_open: bool = True
    is_bot: bool = False


@dataclass
class Snap:
    decisions: list[Decision]
    seats: list[Seat] = field(
        default_factory=lambda: [Seat("Ana", 11), Seat("Bea", 12), Seat("Cal", 13, False)]
    )
    game: Any = MLEM

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def to_move(self) -> list[int]:
        return sorted({d.seat for d in self.decisions})

    def decisions_for(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]


GO = Option("go.A+b1", "mlem.opt.go_b1", {"steps": 3, "to": 5, "dice": "🔥 🔥 ", "b1_seat": 1})
ROLL = Decision(0, "mlem.prompt.explore", (GO,), {"space": 2, "dice": "🔥, 🔥, 3"})


def test_public_prompt_with_whose_it_is() -> None:
    text = present.to_move_text(Snap([ROLL]), "en")  # type: ignore[arg-type]
    assert text == "<@11>: Space 2, you rolled 🔥, 🔥, 3. How far does the rocket go?"


def test_same_question_for_several_seats_is_one_line_and_secrets_stay_secret() -> None:
    same = [Decision(seat, "mlem.prompt.launch", (), {"round": 2}) for seat in (0, 1)]
    secret = Decision(2, "mlem.prompt.mission", (), {"missions": "7/8, 9, 13, 22"}, True)
    text = present.to_move_text(Snap([*same, secret]), "es")  # type: ignore[arg-type]
    lines = text.splitlines()
    assert lines[0] == "<@11>, <@12>: Viaje 2: elige el astronauta que sube al cohete."
    assert lines[1].startswith("<@13> (elección secreta")
    assert "7/8" not in text


def test_legend_names_only_the_symbols_in_use() -> None:
    legend = present.legend_text(Snap([ROLL]), [ROLL], "en")  # type: ignore[arg-type]
    assert legend == (
        "→ the space the rocket reaches · 🔥 afterburner · 🐱 booster astronaut (a die showing 1)"
    )
    launch = Decision(0, "mlem.prompt.launch", (), {"round": 1})
    assert present.legend_text(Snap([launch]), [launch], "es") == ""  # type: ignore[arg-type]
