"""The Galaxy Trucker heuristic keeps its humans (issue 20: most ships out of a level II
flight had lost their last humans): an alien leaves before the last humans, a broken ship
keeps a part that can still fly, a ship moving on batteries alone keeps some for the next
open space, and no abandoned ship is taken that leaves fewer than KEEP_HUMANS humans."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.galaxy_trucker import bot
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.tiles import FRONT, cards, regular_tile_ids, side, tile
from rules.kit import clone

from .galaxy_trucker_kit import at_retire_question


@cache
def _flying() -> tuple[dict[str, Any], int]:
    return at_retire_question(0)  # (played once: every test works on a clone)


def _asked(kind: str, **extra: Any) -> tuple[dict[str, Any], int]:
    s, seat = _flying()
    w = clone(s)
    w["flight"]["ask"] = {"seat": seat, "kind": kind, **extra}
    return w, seat


def _first(kind: str, double: bool | None = None, front: bool = False) -> int:
    """The first regular tile of ``kind`` (double or not), with a connector on its front
    side when ``front``."""
    return next(
        t
        for t in regular_tile_ids()
        if tile(t).type == kind
        and (double is None or tile(t).double == double)
        and (not front or side(t, 0, FRONT) != "0")
    )


def test_an_alien_leaves_before_the_last_humans() -> None:
    s, seat = _asked("crew", left=2)
    p = s["players"][seat]
    p["crew"] = {"7.7": 2, "6.7": 0}
    p["aliens"] = {"purple": "6.7", "brown": None}
    ids = ["crew.7.7", "crew.6.7"]
    assert bot._flight(s, seat, ids) == "crew.6.7"  # 2 humans, 2 to lose: the alien first
    s["flight"]["ask"]["left"] = 1
    assert bot._flight(s, seat, ids) == "crew.7.7"  # one human stays: the alien stays too
    p["crew"] = {"7.7": 2, "8.7": 2, "6.7": 0}
    s["flight"]["ask"]["left"] = 3
    assert bot._flight(s, seat, [*ids, "crew.8.7"]) == "crew.7.7"


def test_a_broken_ship_keeps_a_part_with_humans_and_an_engine() -> None:
    s, seat = _asked("keep")
    p = s["players"][seat]
    start = next(k for k, (t, _) in p["ship"].items() if tile(t).type == "starting_cabin")
    row, col = sh.unkey(start)
    cabin, engine = _first("cabin", front=False), _first("engine", double=False, front=True)
    assert side(cabin, 0, 2) != "0"  # (its rear joins the engine's front)
    p["ship"] = sh.dump(
        {
            (row, col): tuple(p["ship"][start]),
            (row, col + 2): (cabin, 0),
            (row + 1, col + 2): (engine, 0),
        }
    )
    assert len(sh.parts(sh.load(p["ship"]))) == 2
    p["aliens"] = {"purple": None, "brown": None}
    p["crew"] = {start: 2, sh.key((row, col + 2)): 1}
    ids = [f"keep.{row}.{col}", f"keep.{row}.{col + 2}"]
    # more crew in the starting cabin, but no engine there: the next open space ends it
    assert bot._flight(s, seat, ids) == f"keep.{row}.{col + 2}"
    p["crew"] = {start: 2, sh.key((row, col + 2)): 0}
    assert bot._flight(s, seat, ids) == f"keep.{row}.{col}"  # (no humans: out at once)


def test_a_ship_on_batteries_alone_powers_one_double_engine_in_open_space() -> None:
    s, seat = _asked("engines", most=2)
    f = s["flight"]
    f["card"] = next(c for c, v in sorted(cards().items()) if v["type"] == "open_space")
    p = s["players"][seat]
    p["aliens"] = {"purple": None, "brown": None}
    start = next(k for k, (t, _) in p["ship"].items() if tile(t).type == "starting_cabin")
    row, col = sh.unkey(start)
    doubles = [t for t in regular_tile_ids() if tile(t).type == "engine" and tile(t).double]
    ship = {(row, col): tuple(p["ship"][start])}
    ship |= {(row + 1, col + k): (t, 0) for k, t in enumerate(doubles[:2])}
    p["ship"] = sh.dump(ship)
    ids = ["pow.0", "pow.1", "pow.2"]
    assert bot._flight(s, seat, ids) == "pow.1"
    ship[(row + 1, col + 2)] = (_first("engine", double=False), 0)
    p["ship"] = sh.dump(ship)
    assert bot._flight(s, seat, ids) == "pow.2"  # a single engine moves it anyway: full power


def test_no_abandoned_ship_that_leaves_fewer_than_keep_humans() -> None:
    s, seat = _asked("take")
    s["flight"]["card"] = next(
        c for c, v in sorted(cards().items()) if v["type"] == "abandoned_ship"
    )
    lost = cards()[s["flight"]["card"]]["crew_lost"]
    p = s["players"][seat]
    p["crew"] = {"7.7": bot.KEEP_HUMANS + lost - 1}
    assert bot._flight(s, seat, ["take", "pass"]) == "pass"
    p["crew"] = {"7.7": bot.KEEP_HUMANS + lost}
    assert bot._flight(s, seat, ["take", "pass"]) == "take"
