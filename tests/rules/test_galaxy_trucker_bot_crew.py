"""The Galaxy Trucker heuristic keeps its humans (issue 20: most ships out of a level II
flight had lost their last humans): an alien leaves before the last humans, a broken ship
keeps a part that can still fly, a ship moving on batteries alone keeps some for the next
open space, and no abandoned ship is taken that leaves fewer than KEEP_HUMANS humans."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from rules.galaxy_trucker import GAME, bot
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


def _alien_question(seed: int, seat: int, colour: str) -> tuple[dict[str, Any], list[str]]:
    """A 2-bot level II game played by the heuristic to ``seat``'s pre-launch question of
    the ``colour`` alien: the state and the options."""
    s = GAME.new(2, {"level": "II", "rules": "2"}, seed)
    r = random.Random(seed)
    while s["phase"] != "flight":
        d = GAME.pending(s)[0]
        if d.seat == seat and s["players"][seat]["stage"] == f"alien.{colour}":
            return s, [o.id for o in d.options]
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, r))
    raise AssertionError("no alien question")


def test_at_level_ii_the_purple_alien_comes_aboard_with_fewer_humans_left() -> None:
    """Level II slavers have firepower 7: the purple alien's +2 comes aboard when at least
    PURPLE_HUMANS humans stay (ALIEN_HUMANS for any other alien, and at level I)."""
    s, ids = _alien_question(0, 1, "purple")
    p = s["players"][1]
    cabins = sum(1 for t, _ in p["ship"].values() if tile(t).type in ("cabin", "starting_cabin"))
    left = 2 * (cabins - sum(1 for v in p["aliens"].values() if v) - 1)
    assert bot.PURPLE_HUMANS <= left < bot.ALIEN_HUMANS
    assert bot._prelaunch(s, 1, ids).startswith("alien.purple")
    level_i = clone(s)
    level_i["level"] = "I"
    assert bot._prelaunch(level_i, 1, ids) == "noalien"


def test_at_level_ii_no_brown_alien_takes_the_purple_ones_room() -> None:
    s, ids = _alien_question(1, 0, "brown")
    assert bot._prelaunch(s, 0, ids).startswith("alien.brown")  # room for both
    p = s["players"][0]
    crowded = clone(s)  # one cabin fewer: after the brown alien, no room for the purple
    cabins = [k for k, (t, _) in p["ship"].items() if tile(t).type == "cabin"]
    keep = {k for k, (t, _) in p["ship"].items() if tile(t).type == "life_support"}
    spare = [
        k
        for k in cabins
        if not any(sh.neighbour(sh.unkey(k), d) in {sh.unkey(x) for x in keep} for d in range(4))
    ]
    assert spare, "a cabin away from every life support"
    del crowded["players"][0]["ship"][spare[0]]
    assert bot._prelaunch(crowded, 0, ids) == "noalien"
    level_i = clone(crowded)
    level_i["level"] = "I"
    assert bot._prelaunch(level_i, 0, ids).startswith("alien.brown")
