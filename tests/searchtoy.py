"""Tiny games for the search engine's tests (tests/rules/test_search.py).

:class:`Guess`: a card is dealt face down from a deck of three (two ``hi``, one ``lo``);
seat 0 guesses its kind and wins if right, else seat 1 wins. Seat 0 cannot see the card, so
the right bet is always ``hi``; a bot that peeked would say ``lo`` whenever the card is low.
``sample`` deals the card again, as a seat that cannot see it would imagine it.

:class:`Pick`: seat 0 picks one or two of three tiles worth 1, 3 and 2 points; seat 1 then
passes. Perfect information; the best answer is the multi-pick ``b,c``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Result, check_picks, split_picks
from tests.toybase import ToyGame

DECK = ("hi", "hi", "lo")


class Guess(ToyGame, game_id="guess", players=(2, 2)):
    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"schema": 1, "card": random.Random(seed).choice(DECK), "guess": None}

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["guess"] is not None:
            return []
        opts = (Option("hi", "guess.opt.hi"), Option("lo", "guess.opt.lo"))
        return [Decision(0, "guess.prompt", opts)]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        if seat != 0 or s["guess"] is not None or choice not in ("hi", "lo"):
            raise IllegalMove("guess.error")
        return {**s, "guess": choice}, []

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        over = s["guess"] is not None
        return {
            "round": 1,
            "phase": "guess",
            "scores": [0, 0],
            "over": over,
            "card": s["card"] if over or seat == 1 else None,
        }

    def result(self, s: dict[str, Any]) -> Result | None:
        if s["guess"] is None:
            return None
        win = 0 if s["guess"] == s["card"] else 1
        return Result(scores=(int(win == 0), int(win == 1)), ranks=(1 + win, 2 - win))

    def rollout(self, s: dict[str, Any], seat: int, rng: random.Random) -> str:
        return "lo"  # a poor heuristic: the search must overrule it


class SampledGuess(Guess):
    """Guess with its determinisation hook: the face-down card is dealt again."""

    def sample(self, s: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        if seat == 1:
            return dict(s)
        return {**s, "card": rng.choice(DECK)}


class PeekingGuess(Guess):
    """Guess that (wrongly) declares itself perfect-information: the engine may peek."""

    perfect_information = True


class Pick(ToyGame, game_id="pick", players=(2, 2)):
    perfect_information = True
    VALUES = {"a": 1, "b": 3, "c": 2}

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"schema": 1, "picked": None}

    def pending(self, s: dict[str, Any]) -> list[Decision]:
        if s["picked"] is not None:
            return []
        opts = tuple(Option(k, f"pick.opt.{k}") for k in self.VALUES)
        return [Decision(0, "pick.prompt", opts, min_picks=1, max_picks=2)]

    def apply(
        self, s: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        pend = self.pending(s)
        if seat != 0 or not pend:
            raise IllegalMove("pick.error")
        check_picks(pend[0], choice)
        return {**s, "picked": split_picks(choice)}, []

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"round": 1, "phase": "pick", "scores": [0, 0], "over": s["picked"] is not None}

    def result(self, s: dict[str, Any]) -> Result | None:
        if s["picked"] is None:
            return None
        mine = sum(self.VALUES[p] for p in s["picked"])
        return Result(scores=(mine, 4), ranks=(1 if mine >= 4 else 2, 1 if mine <= 4 else 2))
