"""Mission: Red Planet: the rulebook's own cases (helpers: tests/rules/red_planet_kit.py)."""

from __future__ import annotations

import pytest

from core.contract import IllegalMove
from rules.red_planet import GAME, engine
from rules.red_planet.data import RES_TYPES
from rules.red_planet.engine import astronaut_totals, distribute
from tests.rules import red_planet_kit as kit


def test_two_tied_on_three_tokens_take_one_each_and_one_stays() -> None:
    tokens = [{r: 0 for r in RES_TYPES} for _ in range(3)]
    pile = {"ice": 3, "syl": 0, "cel": 0}
    distribute([2, 2, 1], pile, tokens)
    assert [t["ice"] for t in tokens] == [1, 1, 0]
    assert pile["ice"] == 1


def test_three_tied_on_two_tokens_take_nothing_and_both_stay() -> None:
    tokens = [{r: 0 for r in RES_TYPES} for _ in range(3)]
    pile = {"ice": 0, "syl": 2, "cel": 0}
    distribute([1, 1, 1], pile, tokens)
    assert all(sum(t.values()) == 0 for t in tokens)
    assert pile["syl"] == 2


def test_a_sole_majority_takes_the_whole_pile_and_an_empty_zone_keeps_it() -> None:
    tokens = [{r: 0 for r in RES_TYPES} for _ in range(3)]
    pile = {"ice": 2, "syl": 1, "cel": 3}
    distribute([0, 3, 2], pile, tokens)
    assert tokens[1] == {"ice": 2, "syl": 1, "cel": 3} and sum(pile.values()) == 0
    pile = {"ice": 2, "syl": 0, "cel": 0}
    distribute([0, 0, 0], pile, tokens)
    assert pile["ice"] == 2


def test_production_through_the_engine_leaves_the_remainder_on_mars() -> None:
    s = kit.started(3)
    for z in s["res"]:
        s["res"][z] = ["ice", False]
    s["res"]["VM"] = ["ice", True]
    s["pile"]["VM"]["ice"] = 2  # with the 1 produced now: 3 tokens
    kit.put(s, "VM", 0, 2)
    kit.put(s, "VM", 1, 2)
    kit.put(s, "VM", 2, 1)
    kit.put(s, "VB", 2, 1)  # face down: produces nothing
    engine._production(s, 1, [])
    assert [s["tokens"][c]["ice"] for c in range(3)] == [1, 1, 0]
    assert s["pile"]["VM"]["ice"] == 1
    assert s["pile"]["VB"]["ice"] == 0


# --------------------------------------------------------------------------- the Saboteur


def test_saboteur_fills_the_only_docked_ship_then_must_destroy_it() -> None:
    s = kit.started(3)
    kit.set_docks(s, [kit.ship("s01", [1, 2]), None, None])  # s01: capacity 3
    s, _ = kit.choose_all(s, {0: 5, 1: 1, 2: 1})
    assert kit.prompt(s) == "place" and kit.ids(s) == ["d0"]
    s, ev = GAME.apply(s, 0, "d0")
    assert len(s["docks"][0]["crew"]) == 3 and "launch" not in kit.codes(ev)
    assert kit.prompt(s) == "destroy" and kit.ids(s) == ["d0"]
    s, ev = GAME.apply(s, 0, "d0")
    assert "destroy" in kit.codes(ev) and "launch" not in kit.codes(ev)
    assert s["memorial"] == [1, 1, 1]
    assert "s01" in s["discard"]
    assert astronaut_totals(s) == [22, 22, 22]


# --------------------------------------------------------------------------- the Travel Agent


def test_travel_agent_with_no_ship_with_room_for_three_skips_everything() -> None:
    s = kit.started(3)
    # s02 holds 4 (2 free), s05 holds 4 (1 free after 3 aboard), s08 holds 4 (2 free).
    kit.set_docks(
        s, [kit.ship("s02", [1, 2]), kit.ship("s05", [1, 2, 1]), kit.ship("s08", [2, 2])]
    )
    supply = s["supply"][0]
    s, ev = kit.choose_all(s, {0: 3, 1: 1, 2: 1})
    assert "travel_skipped" in kit.codes(ev)
    assert s["supply"][0] == supply
    assert all(0 not in sh["crew"] for sh in s["docks"] if sh)
    assert GAME.pending(s)[0].seat != 0


def test_travel_agent_puts_three_on_one_ship() -> None:
    s = kit.started(3)
    kit.set_docks(s, [kit.ship("s02", [1]), kit.ship("s05", [1, 2, 1]), kit.ship("s08", [2, 2])])
    s, _ = kit.choose_all(s, {0: 3, 1: 1, 2: 1})
    assert kit.prompt(s) == "place3" and kit.ids(s) == ["d0"]
    s, ev = GAME.apply(s, 0, "d0")
    # s02 (capacity 4) is now full and launched after the effect.
    assert s["launched"][0]["crew"] == [1, 0, 0, 0]
    assert "launch" in kit.codes(ev)


# --------------------------------------------------------------------------- bad input


def test_bad_choices_are_refused_and_change_nothing() -> None:
    s = kit.started(3)
    before = GAME.dump(s)
    for seat, choice in [(0, "c42"), (0, "d0"), (5, "c9"), (1, "")]:
        with pytest.raises(IllegalMove):
            GAME.apply(s, seat, choice)
    assert GAME.dump(s) == before
    s, _ = GAME.apply(s, 0, "c9")
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "c8")  # already chosen this round
