"""Shared helpers for the Galaxy Trucker rules tests (no tests here): a game put straight into
flight with hand-built ships and a chosen deck, and the short codes of events."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from rules.galaxy_trucker import GAME, engine, hazards
from rules.galaxy_trucker import adventure as adv
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.tiles import cards as real_cards

S = dict[str, Any]
#: Extra tiles of one seat's ship: cell -> (tile id, rotation).
Ship = Mapping[tuple[int, int], tuple[int, int]]


#: Test cards the flight tests share (each file adds its own): level 1, known effects.
CARDS: dict[str, dict[str, Any]] = {
    "T-ship": {
        "id": "T-ship",
        "level": 1,
        "type": "abandoned_ship",
        "crew_lost": 1,
        "reward": {"credits": 3},
        "days_lost": 1,
    },
    "T-slavers": {
        "id": "T-slavers",
        "level": 1,
        "type": "slavers",
        "firepower": 0,
        "penalty": {"crew_lost": 1},
        "reward": {"credits": 5},
        "days_lost": 1,
    },
    "T-small": {
        "id": "T-small",
        "level": 1,
        "type": "meteor_swarm",
        "meteors": [{"size": "small", "from": "front"}],
    },
    "T-large": {
        "id": "T-large",
        "level": 1,
        "type": "meteor_swarm",
        "meteors": [{"size": "large", "from": "front"}],
    },
}


def codes(events: list[Any]) -> list[str]:
    return [e.code.rsplit(".", 1)[1] for e in events]


def flyer(
    monkeypatch: pytest.MonkeyPatch, test_cards: Mapping[str, Any], *, line: int | None = None
) -> Callable[..., tuple[S, list[Any]]]:
    """``make(ships, deck, level="I", rules=engine.RULES, line=…, prep=None)``: a game of
    ``len(ships)`` seats in flight (seat 0 leads), each ship its starting cabin plus the
    tiles given, the flight deck ``deck`` (``test_cards`` join the real cards), every die
    roll ``line`` when given; ``rules=1`` is a game stored before the rulings R10b, R11b,
    R26b; ``prep(state)`` runs before the first card. Returns the state and the events of
    the first card."""
    merged = {**real_cards(), **test_cards}
    monkeypatch.setattr(adv, "cards", lambda: merged)

    def make(
        ships: list[Ship],
        deck: list[str],
        level: str = "I",
        rules: int = engine.RULES,
        line: int | None = line,
        prep: Callable[[S], None] | None = None,
    ) -> tuple[S, list[Any]]:
        if line is not None:
            monkeypatch.setattr(hazards, "roll", lambda s: line)
        s = GAME.new(len(ships), {"rules": "2", "level": level}, 5)
        if rules == 1:
            del s["rules"]  # a game stored before the rulings R10b, R11b, R26b
        for seat, extra in enumerate(ships):
            for cell, (tid, rot) in extra.items():
                s["facedown"].remove(tid)
                s["players"][seat]["ship"][sh.key(cell)] = [tid, rot]
        with monkeypatch.context() as m:
            m.setattr(adv, "advance", lambda s: [])
            for seat in range(len(ships)):
                s, _ = GAME.apply(s, seat, "done")
        assert s["phase"] == "flight", s["players"][0]["stage"]
        s["flight"]["deck"] = list(deck)
        if prep is not None:
            prep(s)
        events = adv.advance(s)
        return s, events

    return make


# -- the Trek and retirement tests' ships and deck (R23-R29, R26c)

ENGINE = 73  # single engine, 1000
ENGINE_B = 74  # the same
RED_HOLD = 67  # red hold, 1 space, U00U
HOLD = 26  # normal hold, 2 spaces, U00U
CANNON = 101  # single cannon, 0010

TEST_CARDS = {
    "T-ship": CARDS["T-ship"],
    "T-slavers": CARDS["T-slavers"],
}
STARDUST = "2E-I-04"
EPIDEMIC = "2E-II-05"
CABIN = 47  # cabin 020U: joined to the starting cabin from 7.8
OPEN_SPACE = "2E-I-05"
PLANETS = "2E-I-13"  # RR / RBB / Y, 2 days


def at_retire_question(seed: int) -> tuple[dict[str, Any], int]:
    """A 2-bot level II game played by the heuristic to the first flight question that
    also offers ``retire``: the state and the seat asked."""
    s = GAME.new(2, {"level": "II"}, seed)
    r = random.Random(seed)
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        if s["phase"] == "flight" and "retire" in [o.id for o in d.options]:
            return s, d.seat
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, r))
    raise AssertionError("no retire question")
