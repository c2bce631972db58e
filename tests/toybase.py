"""What the toy games of the tests (tests/toygame.py, timedgame.py, pooltoy.py, layouttoy.py,
scoretoy.py, searchtoy.py) share: the contract's fixed attributes, declared in one line
(``class Toy(ToyGame, game_id="toy", players=(2, 3))``; the name key is ``<id>.name``), a
state that is its own JSON form (schema 1), and best-score-wins results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.contract import Decision, IllegalMove, OptionSpec, Result
from rules.kit import named


class ToyGame:
    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()

    def __init_subclass__(
        cls, game_id: str | None = None, players: tuple[int, int] | None = None, **kw: Any
    ) -> None:
        super().__init_subclass__(**kw)
        named(cls, game_id, players)

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        raise NotImplementedError

    def check_offered(self, s: dict[str, Any], seat: int, choice: str, error: str) -> None:
        """Refuse (IllegalMove ``error``) a choice no open decision of ``seat`` offers."""
        if not any(d.seat == seat and d.option(choice) for d in self.pending(s)):
            raise IllegalMove(error)

    def dump(self, s: dict[str, Any]) -> dict[str, Any]:
        return s

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if data.get("schema") != 1:
            raise ValueError("bad schema")
        return dict(data)


def best_wins(scores: Sequence[int], detail: str) -> Result:
    """The final result: the best score ranks first (ties share it), everyone else second;
    each seat's score is also its one ``detail`` line."""
    best = max(scores)
    ranks = tuple(1 if x == best else 2 for x in scores)
    return Result(tuple(scores), ranks, tuple({detail: x} for x in scores))
