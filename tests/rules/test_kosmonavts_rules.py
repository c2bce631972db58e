"""Kosmonavts rules: the rulebook's examples and every ruling (R-numbers refer to the
docstring of rules/kosmonavts/__init__.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core.contract import IllegalMove, Result, apply_checked
from rules.kit import clone
from rules.kosmonavts import GAME, engine
from rules.kosmonavts.board import (
    BODIES,
    CARD_IDS,
    DIR_IDS,
    M2_ALPHA,
    M2_BETA,
    NON_EARTH,
    ORBITS,
    find_path,
    flight_hazard,
    zone,
)
from rules.kosmonavts.engine import ROUND_LIMIT, STEP_CAP, compose
from tests.rules.kosmonavts_kit import (
    at,
    both_landed,
    codes,
    fly,
    fresh,
    offered,
    orders,
    play,
    rose,
    skip_event,
    to_event_phase,
)

FAR = (-12, 6)  # ring 12, west: nothing near when the bodies are parked


def pos(s: dict, seat: int) -> tuple[int, int]:
    return tuple(s["ships"][seat]["pos"])


# ------------------------------------------------------------------ movement (rulebook)


def test_one_yellow_cube_moves_one_hex() -> None:  # "Ejemplo 1"
    s = fly(fresh(), 0, FAR)
    s, _ = orders(s, {0: ("add.w", "confirm")})
    assert pos(s, 0) == (-13, 6)


def test_same_direction_cubes_add_up() -> None:  # "Ejemplo 2" and Fig. 2
    s = fly(fresh(), 0, FAR)
    s, _ = orders(s, {0: ("add.w", "add.w", "confirm")})
    assert pos(s, 0) == (-14, 6)
    # Fig. 2: three cubes already on the rose, two more added: five hexes
    s = fly(fresh(), 0, (-10, 5), rose=rose(w=3))
    s, _ = orders(s, {0: ("add.w", "add.w", "confirm")})
    assert pos(s, 0) == (-15, 5)
    assert s["ships"][0]["rose"] == rose(w=5)


def test_cubes_stay_on_the_rose_after_flying() -> None:  # "Retención de cubos"
    s = fly(fresh(), 0, FAR)
    s, _ = orders(s, {0: ("add.nw", "confirm")})
    s, _ = orders(skip_event(s), {})
    assert pos(s, 0) == (-12, 4)


def test_order_of_steps_does_not_matter() -> None:  # "Ejemplo 3" and "Ejemplo 5"
    a = compose({"fuel": 9, "hyper": 1, "shields": 3, "rose": rose(se=1)}, ["add.w", "addh.nw"])
    b = compose({"fuel": 9, "hyper": 1, "shields": 3, "rose": rose(se=1)}, ["addh.nw", "add.w"])
    assert a == b
    s = fly(fly(fresh(), 0, FAR), 1, FAR)
    s, _ = orders(
        s, {0: ("add.w", "add.sw", "add.w", "confirm"), 1: ("add.sw", "add.w", "add.w", "confirm")}
    )
    assert pos(s, 0) == pos(s, 1) == (-15, 7)


def test_hyperfuel_cube_moves_two_hexes() -> None:  # "Ejemplo 4"
    s = fly(fresh(), 0, FAR)
    s, _ = orders(s, {0: ("addh.w", "confirm")})
    assert pos(s, 0) == (-14, 6)
    assert s["ships"][0]["hyper"] == 0


def test_fig3_slow_down_and_turn() -> None:
    # two cubes down-right; one yellow up-left brakes one of them, one red goes down-left
    s = fly(fresh(), 0, FAR, rose=rose(se=2))
    s, _ = orders(s, {0: ("add.nw", "addh.sw", "confirm")})
    assert s["ships"][0]["rose"] == rose(se=1, sw=2)
    assert pos(s, 0) == (-14, 9)


def test_fig4_one_yellow_against_a_red_leaves_one_in_the_red_direction() -> None:
    s = fly(fresh(), 0, FAR, rose=rose(w=2))  # a red cube pointing west
    s, _ = orders(s, {0: ("add.e", "confirm")})
    assert s["ships"][0]["rose"] == rose(w=1)
    assert pos(s, 0) == (-13, 6)


def test_opposite_cubes_cancel_and_the_limit_counts_cubes() -> None:  # R3
    c = compose({"fuel": 5, "hyper": 2, "shields": 3, "rose": rose(e=1)}, ["addh.w"])
    assert c["rose"] == rose(w=1) and c["cubes"] == 1
    s = fly(fresh(), 0, FAR, fuel=8, hyper=2)
    s, _ = play(s, 0, "addh.w", "addh.w", "add.e")
    assert not any(o.startswith("add") for o in offered(s, 0))
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "add.w")
    assert err.value.code == "kosmonavts.error.cube_limit"


def test_the_sun_cannot_be_crossed_in_a_straight_line() -> None:  # R8
    s = fly(fresh(), 0, (-3, 0), rose=rose(e=3))
    s, ev = orders(s, {0: ("add.e", "confirm")})
    assert "evac_sun" in codes(ev) and "evacuated.earth" in codes(ev)
    assert s["ships"][0]["landed"] == "earth" and s["ships"][0]["rose"] == [0] * 6
    assert pos(s, 0) == at("earth", 1)  # evacuated, then carried by Earth in phase 4


def test_going_round_the_sun_is_allowed() -> None:  # R8: two directions
    r = rose(e=3, ne=1)
    assert flight_hazard((-3, 0), r) == "danger_sector"  # ends next to the Sun
    path = find_path((-3, 0), r)
    assert path is not None and (0, 0) not in path and path[-1] == (1, -1)
    s = fly(fresh(), 0, (-3, 0), rose=rose(e=3, ne=1))
    s, ev = orders(s, {0: ("confirm",)})
    assert "evac_sun" not in codes(ev) and "danger" in codes(ev)
    assert pos(s, 0) == (1, -1) and s["ships"][0]["shields"] == 2


def test_ending_on_the_sun_is_an_emergency() -> None:
    assert flight_hazard((-2, 0), rose(e=2)) == "sun"
    s = fly(fresh(), 0, (-2, 1), rose=rose(ne=1))
    s, ev = orders(s, {0: ("add.e", "confirm")})  # (-2,1) + NE + E = (0,0)
    assert "evac_sun" in codes(ev)


def test_every_two_direction_move_has_a_safe_order() -> None:  # R7/R8 on the hex disc
    rng = random.Random(5)
    for _ in range(3000):
        start = (rng.randint(-17, 17), rng.randint(-17, 17))
        if zone(start) in ("sun", "off_board"):
            continue
        r = [0] * 6
        for d in rng.sample(range(6), rng.randint(1, 3)):
            if r[(d + 3) % 6] == 0:
                r[d] = rng.randint(1, 9)
        hazard = flight_hazard(start, r)
        assert (find_path(start, r) is not None) == (hazard not in ("sun", "off_board"))


# ----------------------------------------------------------------- danger and evacuation


def test_ending_in_the_belt_costs_a_shield_passing_through_is_free() -> None:  # R9
    s = fly(fresh(), 0, (-6, 0))
    s, ev = orders(s, {0: ("add.w", "add.w", "add.w", "confirm")})
    assert pos(s, 0) == (-9, 0) and s["ships"][0]["shields"] == 3
    s = fly(fresh(), 0, (-6, 0))
    s, ev = orders(s, {0: ("add.w", "confirm")})
    assert pos(s, 0) == (-7, 0) and s["ships"][0]["shields"] == 2
    assert "danger" in codes(ev)


def test_drifting_in_a_danger_sector_costs_a_shield_every_round() -> None:  # R9
    s = fly(fresh(), 0, (-7, 0), shields=2)
    s, ev = orders(s, {0: ("confirm",)})
    assert s["ships"][0]["shields"] == 1 and "danger" in codes(ev)


def test_danger_without_shield_means_evacuation_to_last_visited_body() -> None:  # R10
    s = fly(fresh(), 0, (-6, 0), shields=0, last="saturn")
    s["landed_by"]["saturn"] = [0]
    s, ev = orders(s, {0: ("add.w", "confirm")})
    assert codes(ev).count("evac_shield") == 1 and "evacuated.saturn" in codes(ev)
    ship = s["ships"][0]
    assert ship["landed"] == "saturn" and pos(s, 0) == at("saturn", 1)  # carried in phase 4
    assert ship["markers"] == {} and s["landed_by"]["saturn"] == [0]  # not a landing


def test_flying_off_the_board_is_an_emergency() -> None:  # R7
    s = fly(fresh(), 0, (-16, 8), rose=rose(w=1))
    s, ev = orders(s, {0: ("add.w", "confirm")})
    assert "evac_off_board" in codes(ev) and s["ships"][0]["landed"] == "earth"


def test_evacuation_on_request() -> None:  # R10
    s = fly(fresh(), 0, FAR, rose=rose(w=4), fuel=2)
    assert "evac" in offered(s, 0)
    s, _ = play(s, 0, "add.e")
    assert "evac" not in offered(s, 0)  # only without cubes
    s, _ = play(s, 0, "undo", "evac")
    s, ev = orders(s, {})
    assert "evac_request" in codes(ev)
    ship = s["ships"][0]
    assert ship["landed"] == "earth" and ship["rose"] == [0] * 6 and ship["fuel"] == 2
    # next round it is a normal landed ship that may stay and refuel
    assert "stay" in offered(skip_event(s), 0)


def test_evacuated_ship_neither_flies_nor_refuels_that_round() -> None:  # R10
    s = fly(fresh(), 0, (-6, 0), shields=0, fuel=1)
    s, ev = orders(s, {0: ("add.w", "confirm")})
    assert s["ships"][0]["fuel"] == 0 and s["ships"][0]["landed"] == "earth"
    assert not any(e.code.startswith("kosmonavts.event.refuel") and e.seat == 0 for e in ev)
    assert "stay" not in offered(s, 0)  # the round is over; it was never offered


# --------------------------------------------------------------------- landing markers


def test_landing_is_optional_and_empties_the_rose() -> None:  # R11
    s = fly(fresh(), 0, (10, 0))
    s, _ = orders(s, {0: ("add.e", "confirm")})
    assert s["landing"] is not None and offered(s, 0) == ["land", "noland"]
    declined, _ = play(s, 0, "noland")
    assert declined["ships"][0]["landed"] is None and declined["ships"][0]["rose"] == rose(e=1)
    s, _ = play(s, 0, "land")
    ship = s["ships"][0]
    assert ship["landed"] == "saturn" and ship["rose"] == [0] * 6 and ship["last"] == "saturn"
    assert ship["markers"] == {"saturn": 4} and s["stacks"]["saturn"] == [1, 2, 3]
    assert pos(s, 0) == at("saturn", 1)  # carried in phase 4


def test_passing_over_a_planet_gives_no_landing() -> None:
    s = fly(fresh(), 0, (10, 0))
    s, _ = orders(s, {0: ("add.e", "add.e", "confirm")})
    assert pos(s, 0) == (12, 0) and s["landing"] is None and s["phase"] == "event"


def test_simultaneous_landers_choose_markers_from_the_instructor_clockwise() -> None:  # R12
    for instructor, first, second in ((2, 2, 0), (1, 2, 0), (0, 0, 2)):
        s = fresh(n=3, instructor=instructor)
        fly(s, 0, (10, 0))
        fly(s, 2, (12, 0))
        s, _ = orders(s, {0: ("add.e", "confirm"), 2: ("add.w", "confirm")})
        s, _ = play(s, 0, "land")  # seat 0 answers first: answering order does not matter
        s, _ = play(s, 2, "land")
        # the first in landing order chooses among every marker left, publicly
        decisions = GAME.pending(s)
        assert [d.seat for d in decisions] == [first] and not decisions[0].private
        assert decisions[0].prompt == "kosmonavts.prompt.marker.saturn"
        assert offered(s, first) == ["marker.4", "marker.3", "marker.2", "marker.1"]
        assert GAME.view(s, None)["marker_pick"] == {
            "seat": first,
            "body": "saturn",
            "phase": 3,
            "values": [4, 3, 2, 1],
            "next": [second],
        }
        assert GAME.view(s, None)["step"] == "kosmonavts.step.marker"
        s, ev = play(s, first, "marker.3")  # e.g. for a Mission 2 on Saturn
        assert codes(ev) == ["landed.saturn"] and ev[0].args["value"] == 3
        assert offered(s, second) == ["marker.4", "marker.2", "marker.1"]
        with pytest.raises(IllegalMove):
            GAME.apply(s, second, "marker.3")  # taken
        s, _ = play(s, second, "marker.4")
        got = {k: s["ships"][k]["markers"]["saturn"] for k in (first, second)}
        assert got == {first: 3, second: 4}, instructor
        assert s["stacks"]["saturn"] == [1, 2] and s["phase"] == "event"
        assert GAME.view(s, None)["marker_pick"] is None


def test_a_lone_lander_takes_the_top_marker_without_choosing() -> None:  # R12
    s = fresh(n=3)
    fly(s, 0, (10, 0))
    fly(s, 2, (12, 0), markers={"saturn": 4})
    s["stacks"]["saturn"] = [1, 2, 3]
    s, _ = orders(s, {0: ("add.e", "confirm"), 2: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    s, ev = play(s, 2, "land")  # seat 2 already holds a Saturn marker: seat 0 lands alone
    assert s["ships"][0]["markers"]["saturn"] == 3 and s["phase"] == "event"
    assert "visited.saturn" in codes(ev) and "landed.saturn" in codes(ev)


def test_the_last_marker_value_left_is_taken_without_choosing() -> None:  # R12
    s = fresh(n=3, instructor=0)
    fly(s, 0, (10, 0))
    fly(s, 1, (12, 0))
    s["stacks"]["saturn"] = [2, 2]
    s, _ = orders(s, {0: ("add.e", "confirm"), 1: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    s, _ = play(s, 1, "land")
    assert s["phase"] == "event" and s["stacks"]["saturn"] == []
    assert [s["ships"][k]["markers"]["saturn"] for k in (0, 1)] == [2, 2]


def test_a_marker_choice_survives_dump_and_load() -> None:  # R12
    s = both_landed(instructor=1)
    t = GAME.load(GAME.dump(s))
    assert t == s and offered(t, 1) == ["marker.4", "marker.3", "marker.2", "marker.1"]
    bad = GAME.dump(s)
    bad["touchdown"]["queue"] = []
    with pytest.raises(ValueError):
        GAME.load(bad)


def test_a_second_landing_on_the_same_body_takes_no_marker() -> None:
    s = fly(fresh(), 0, (10, 0), markers={"saturn": 2})
    s["stacks"]["saturn"] = [1, 3, 4]
    s, _ = orders(s, {0: ("add.e", "confirm")})
    s, ev = play(s, 0, "land")
    assert s["ships"][0]["markers"] == {"saturn": 2} and s["stacks"]["saturn"] == [1, 3, 4]
    assert "visited.saturn" in codes(ev)


def test_phase4_landers_rank_after_phase3_landers() -> None:  # R12, "llegaron después"
    s = fresh(instructor=1)
    fly(s, 0, (10, 0))
    fly(s, 1, at("saturn", 1))  # Saturn will stop on this ship in phase 4
    s, _ = orders(s, {0: ("add.e", "confirm")})
    s, _ = play(s, 0, "land")
    assert s["landing"]["phase"] == 4 and s["landing"]["body"] == [None, "saturn"]
    s, _ = play(s, 1, "land")
    assert s["ships"][0]["markers"] == {"saturn": 4}
    assert s["ships"][1]["markers"] == {"saturn": 3}


def test_a_body_passing_over_a_ship_does_not_let_it_land() -> None:
    s = fly(fresh(), 0, (10, 1))  # between Saturn's space 0 and space 1
    s, _ = orders(s, {})
    assert s["landing"] is None and s["ships"][0]["landed"] is None


def test_a_ship_that_did_not_move_may_land_where_it_is() -> None:  # R11
    s = fly(fresh(), 0, at("saturn"))
    s, _ = orders(s, {})
    assert s["landing"] == {"phase": 3, "body": ["saturn", None], "answers": [None, None]}


def test_earth_gives_no_marker_during_the_game() -> None:
    s = fly(fresh(), 0, (5, 0))
    s, _ = orders(s, {0: ("add.w", "confirm")})
    s, ev = play(s, 0, "land")
    assert "visited.earth" in codes(ev) and s["ships"][0]["earth"] == 0 and not s["over"]


def test_advanced_markers_two_per_body_third_lander_gets_none() -> None:
    s = fresh(n=3, rules="advanced", instructor=0)
    for seat, p in ((0, (10, 0)), (1, (12, 0)), (2, (10, 1))):
        fly(s, seat, p)
    s, _ = orders(s, {0: ("add.e", "confirm"), 1: ("add.w", "confirm"), 2: ("add.ne", "confirm")})
    for seat in range(3):
        s, _ = play(s, seat, "land")
    if "saturn" not in s["removed"]:
        assert offered(s, 0) == ["marker.3", "marker.2"]
        s, _ = play(s, 0, "marker.2")
        # one marker left for seat 1: no choice; seat 2 gets none
    got = [s["ships"][k]["markers"].get("saturn") for k in range(3)]
    if "saturn" in s["removed"]:
        assert got == [None, None, None]
    else:
        assert got == [2, 3, None]
    assert s["landed_by"]["saturn"] == [0, 1, 2]


def test_removed_bodies_can_be_landed_on_but_give_nothing() -> None:  # R23
    s = fresh(n=2, rules="advanced")
    assert len(s["removed"]) == 3
    body = s["removed"][0]
    assert body not in s["stacks"]
    assert all(body not in m for ms in s["dealt"] for m in ms)
    fly(s, 0, at(body, 0, s))
    s, _ = orders(s, {})
    s, ev = play(s, 0, "land")
    assert f"visited.{body}" in codes(ev) and s["ships"][0]["last"] == body


# ---------------------------------------------------------------------------- events


def test_round_one_has_no_event_phase_then_the_instructor_picks() -> None:
    s = GAME.new(3, {}, 4)
    assert s["round"] == 1 and s["phase"] == "orders"
    s = to_event_phase(fresh(n=3), "thrust-1")
    assert s["round"] == 2
    (d,) = GAME.pending(s)
    assert d.seat == s["instructor"] and len(d.options) == 3


def _choose(s: dict, card: str) -> tuple[dict, list]:
    return play(s, s["instructor"], f"event.{card}")


def test_solar_wind_flying_ship_gets_cubes_or_pays_a_shield() -> None:  # R4
    s = to_event_phase(fresh(), "wind2-w")
    fly(s, 0, FAR, rose=rose(e=1))
    s, _ = _choose(s, "wind2-w")
    assert offered(s, 0) == ["accept", "shield"] and offered(s, 1) == ["accept", "shield"]
    s, _ = play(s, 0, "accept")
    s, _ = play(s, 1, "shield")
    assert s["ships"][0]["rose"] == rose(w=1)  # 2 west against 1 east
    assert s["ships"][1]["shields"] == 2 and s["ships"][1]["rose"] == [0] * 6
    assert s["phase"] == "orders"


def test_solar_wind_without_shields_is_automatic() -> None:
    s = to_event_phase(fresh(), "wind1-e")
    fly(s, 0, FAR, shields=0)
    s["ships"][1]["shields"] = 0
    s, _ = _choose(s, "wind1-e")
    assert s["phase"] == "orders" and s["ships"][0]["rose"] == rose(e=1)


def test_solar_wind_is_avoided_by_staying_landed() -> None:  # R4
    s = to_event_phase(fresh(), "wind2-se")
    s, _ = _choose(s, "wind2-se")
    s, _ = play(s, 0, "accept")
    s, _ = play(s, 1, "accept")
    assert s["ships"][0]["landed"] == "earth" and s["ships"][0]["rose"] == rose(se=2)
    before = pos(s, 0)
    s, ev = orders(s, {0: ("stay",), 1: ("add.nw", "confirm")})
    assert s["ships"][0]["rose"] == [0] * 6 and s["ships"][0]["landed"] == "earth"
    assert before != pos(s, 0) == at("earth", 2)  # only carried by Earth
    # seat 1 took off: the waiting wind counts (2 SE + 1 NW = 1 SE)
    assert s["ships"][1]["rose"] == rose(se=1) and s["ships"][1]["landed"] is None
    assert "takeoff.earth" in codes(ev)


def test_refuel_card_is_automatic_and_respects_the_caps() -> None:  # R14
    s = to_event_phase(fresh(n=3), "refuel-2")
    ships = s["ships"]
    ships[0].update(fuel=5, hyper=1)
    ships[1].update(fuel=6, hyper=4)
    ships[2].update(fuel=9, hyper=1)
    s, ev = _choose(s, "refuel-2")
    assert s["phase"] == "orders"
    got = [(sh["fuel"], sh["hyper"]) for sh in s["ships"]]
    assert got == [(5, 2), (6, 4), (8, 2)]
    assert {"hyper_added", "hyper_full", "hyper_swapped"} <= set(codes(ev))


def test_energy_conversion_is_pay_to_use() -> None:  # R14
    s = to_event_phase(fresh(n=3), "energy-1")
    s["ships"][0].update(fuel=3, hyper=1)
    s["ships"][1].update(fuel=7, hyper=1)
    s["ships"][2].update(shields=0)
    s, _ = _choose(s, "energy-1")
    assert offered(s, 2) == []  # no shield: ignores the card
    s, _ = play(s, 0, "pay")
    s, _ = play(s, 1, "pay")
    assert [(sh["fuel"], sh["shields"]) for sh in s["ships"][:2]] == [(8, 2), (9, 2)]


def test_gravity_pulls_to_the_nearest_body_within_two() -> None:  # R13
    s = to_event_phase(fresh(n=4), "gravity-1")
    s["instructor"] = 0
    neptune, uranus = at("neptune", 0, s), at("uranus", 0, s)
    fly(s, 0, (neptune[0] + 2, neptune[1] - 1))  # 2 from Neptune, 4 from Uranus
    fly(s, 1, ((neptune[0] + uranus[0]) // 2, neptune[1]))  # 1 from both
    fly(s, 2, (neptune[0] + 2, neptune[1] - 1), shields=0)
    fly(s, 3, (neptune[0] + 3, neptune[1] - 1))  # 3 away: not affected
    s, _ = _choose(s, "gravity-1")
    assert offered(s, 0) == ["pull.neptune", "shield"]
    assert offered(s, 1) == ["pull.uranus", "pull.neptune", "shield"]
    assert offered(s, 2) == [] and offered(s, 3) == []
    s, _ = play(s, 0, "pull.neptune")
    s, _ = play(s, 1, "shield")
    # seats 0 and 2 land on Neptune together in phase 1: they choose markers in order (R12)
    assert [d.seat for d in GAME.pending(s)] == [0] and s["phase"] == "event"
    s, _ = play(s, 0, "marker.4")
    assert offered(s, 2) == ["marker.3", "marker.2", "marker.1"]
    s, _ = play(s, 2, "marker.3")
    assert s["phase"] == "orders"
    assert s["ships"][0]["landed"] == "neptune" and s["ships"][0]["markers"] == {"neptune": 4}
    assert s["ships"][2]["landed"] == "neptune" and s["ships"][2]["markers"] == {"neptune": 3}
    assert s["ships"][1]["landed"] is None and s["ships"][1]["shields"] == 2
    assert s["ships"][3]["landed"] is None


def test_a_ship_pulled_down_by_gravity_may_not_refuel_this_round() -> None:  # R13, R15
    s = to_event_phase(fresh(n=2, rules="advanced"), "gravity-1")
    neptune = at("neptune", 0, s)
    fly(s, 0, (neptune[0] + 2, neptune[1] - 1), fuel=2, hyper=1, shields=0)
    s, ev = _choose(s, "gravity-1")
    assert "pulled.neptune" in codes(ev) and s["pulled"] == [True, False]
    # it may stay landed, but that is no refuel; no full refuel either
    assert "stay" in offered(s, 0) and "stayfull" not in offered(s, 0)
    d = next(d for d in GAME.pending(s) if d.seat == 0)
    assert d.prompt == "kosmonavts.prompt.order_pulled"
    stay = d.option("stay")
    assert stay is not None and stay.label == "kosmonavts.opt.stay_pulled"
    s["ships"][0]["shields"] = 1
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "stayfull")
    assert err.value.code == "kosmonavts.error.pulled_no_refuel"
    s, ev = orders(s, {0: ("stay",), 1: ("stay",)})
    assert "order_stay_pulled" in codes(ev) and "refuel_quick" in codes(ev)  # seat 1 refuels
    assert (s["ships"][0]["fuel"], s["ships"][0]["hyper"]) == (2, 1)
    assert s["ships"][0]["landed"] == "neptune"
    # next round it was landed before the round: it may refuel
    s = skip_event(s)
    assert s["pulled"] == [False, False] and "stayfull" in offered(s, 0)
    s, _ = orders(s, {0: ("stay",), 1: ("stay",)})
    assert s["ships"][0]["fuel"] == 7


def test_gravity_spares_landed_ships_and_pulls_a_ship_on_the_hex() -> None:  # R13
    s = to_event_phase(fresh(), "gravity-2")
    fly(s, 0, at("jupiter", 0, s), shields=0)  # distance 0, declined landing earlier
    s, ev = _choose(s, "gravity-2")
    assert s["ships"][0]["landed"] == "jupiter" and s["ships"][1]["landed"] == "earth"
    assert "pulled.jupiter" in codes(ev)


def test_thrust_allows_four_cubes() -> None:
    s = to_event_phase(fresh(), "thrust-3")
    fly(s, 0, FAR)
    s, _ = _choose(s, "thrust-3")
    s, _ = play(s, 0, "add.w", "add.w", "add.w", "add.w")
    assert "add.w" not in offered(s, 0)
    s, _ = play(s, 0, "confirm")
    s, _ = play(s, 1, "stay")
    assert pos(s, 0) == (-16, 6)


def test_asteroids_take_yellow_fuel_only_unless_a_shield_is_paid() -> None:  # R14
    s = to_event_phase(fresh(n=3), "asteroids-1")
    s["ships"][0].update(fuel=7, hyper=2)
    s["ships"][1].update(fuel=3, hyper=2)
    s["ships"][2].update(fuel=7, hyper=2)
    s, _ = _choose(s, "asteroids-1")
    s, _ = play(s, 0, "accept")
    s, _ = play(s, 1, "accept")
    s, _ = play(s, 2, "shield")
    got = [(sh["fuel"], sh["hyper"], sh["shields"]) for sh in s["ships"]]
    assert got == [(2, 2, 3), (0, 2, 3), (7, 2, 2)]


def test_solar_flares_forbid_cubes_unless_a_shield_is_paid() -> None:  # R14, R5
    s = to_event_phase(fresh(), "flares-1")
    fly(s, 0, FAR)
    fly(s, 1, FAR)
    s, _ = _choose(s, "flares-1")
    s, _ = play(s, 0, "accept")
    s, _ = play(s, 1, "shield")
    assert not any(o.startswith("add") for o in offered(s, 0))
    assert "convert" in offered(s, 0)  # conversion is still allowed
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "add.w")
    assert err.value.code == "kosmonavts.error.flares"
    assert "add.w" in offered(s, 1)


def test_event_card_is_discarded_replaced_and_the_deck_reshuffled() -> None:  # R30
    s = to_event_phase(fresh(), "thrust-1")
    s["discard"] += s["deck"]
    s["deck"] = []
    s, ev = _choose(s, "thrust-1")
    assert "reshuffled" in codes(ev) and "card_drawn" in codes(ev)
    assert len(s["face_up"]) == 3 and len(s["discard"]) == 0
    assert sorted(s["deck"] + s["face_up"]) == sorted(CARD_IDS)


# ---------------------------------------------------------------------------- orders


def test_orders_are_secret_until_resolution() -> None:  # R22
    s = fly(fresh(), 0, FAR)
    public0, other0 = GAME.view(s, None), GAME.view(s, 1)
    s2, ev = play(s, 0, "add.w", "addh.nw", "convert")
    assert ev == []  # composing emits nothing
    assert GAME.view(s2, None) == public0 and GAME.view(s2, 1) == other0
    mine = GAME.view(s2, 0)["private"]
    assert mine["order"] == [{"dir": "w", "hyper": False}, {"dir": "nw", "hyper": True}]
    assert mine["converted"] is True
    assert mine["preview"]["end_hex"] == [-13, 4] and mine["preview"]["fuel_after"] == 10
    s3, ev = play(s2, 0, "confirm")
    assert [e.code for e in ev] == ["kosmonavts.event.order_confirmed"]
    pub = GAME.view(s3, None)
    assert pub["confirmed"] == [True, False]
    assert pub["ships"] == public0["ships"]
    text = json.dumps(pub)
    assert "private" not in pub and '"order"' not in text and "preview" not in text


def test_shield_conversion_once_per_round_excess_lost() -> None:  # R5
    s = fly(fresh(), 0, FAR, fuel=7, hyper=2)
    s, _ = play(s, 0, "convert")
    assert "convert" not in offered(s, 0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "convert")
    assert err.value.code == "kosmonavts.error.already_converted"
    s, _ = orders(s, {0: ("confirm",)})
    assert (s["ships"][0]["fuel"], s["ships"][0]["shields"]) == (8, 2)  # one cube lost
    s = fly(fresh(), 0, FAR, fuel=0, hyper=0)
    s, _ = orders(s, {0: ("convert", "add.w", "add.w", "confirm")})
    assert pos(s, 0) == (-14, 6) and s["ships"][0]["fuel"] == 0


def test_step_cap_ends_composition() -> None:  # R27
    s = fly(fresh(), 0, FAR)
    for _ in range(STEP_CAP // 2):
        s, _ = play(s, 0, "add.w", "undo")
    assert offered(s, 0) == ["confirm", "evac"]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "add.w")
    assert err.value.code == "kosmonavts.error.step_limit"


def test_landed_ship_stays_or_takes_off() -> None:  # R15, R28
    s = fresh()
    assert offered(s, 0)[-1] == "stay" and "confirm" not in offered(s, 0)
    assert "evac" not in offered(s, 0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "confirm")
    assert err.value.code == "kosmonavts.error.must_stay"
    s, _ = play(s, 0, "add.w")
    assert "stay" not in offered(s, 0) and "confirm" in offered(s, 0)


def test_confirmed_orders_are_final() -> None:  # R27
    s = fly(fresh(), 0, FAR)
    s, events = GAME.apply(s, 0, "confirm")
    # the host must not offer to take a given order back (nor the last one, which discloses
    # every order)
    assert [e.reveals for e in events if e.code.endswith(".order_confirmed")] == [True]
    _, events = GAME.apply(s, 1, "stay")
    assert any(e.reveals for e in events)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "add.w")
    assert err.value.code == "kosmonavts.error.not_your_turn"


def test_preview_reports_danger_landing_and_phase4_body() -> None:
    s = fly(fresh(), 0, (10, 0), shields=0)
    s, _ = play(s, 0, "add.e")
    p = GAME.view(s, 0)["private"]["preview"]
    assert p["lands_on"] == "saturn" and p["end_hex"] == [11, 0] and p["danger"] == "none"
    s, _ = play(s, 0, "undo", "add.w", "add.w", "add.w")
    p = GAME.view(s, 0)["private"]["preview"]
    assert p["end_hex"] == [7, 0] and p["danger"] == "danger_no_shield"
    s = fly(fresh(), 0, (8, 2))
    s, _ = play(s, 0, "add.e")
    p = GAME.view(s, 0)["private"]["preview"]
    assert p["phase4_body"] == "saturn" and p["path"] == [[8, 2], [9, 2]]
    s = fly(fresh(), 0, (-3, 0), rose=rose(e=3))
    s, _ = play(s, 0, "add.e")
    assert GAME.view(s, 0)["private"]["preview"]["danger"] == "sun"


# ---------------------------------------------------------------------------- refuel


@pytest.mark.parametrize(
    ("fuel", "hyper", "after"),
    [((3, 1, (8, 2))), ((9, 1, (8, 2))), ((2, 4, (6, 4))), ((0, 0, (9, 1)))],
)
def test_basic_refuel(fuel: int, hyper: int, after: tuple[int, int]) -> None:  # R15
    s = fresh()
    s["ships"][0].update(fuel=fuel, hyper=hyper)
    s, _ = orders(s, {0: ("stay",)})
    assert (s["ships"][0]["fuel"], s["ships"][0]["hyper"]) == after
    assert s["ships"][0]["shields"] == 3


def test_advanced_quick_and_full_refuel() -> None:  # R15
    s = fresh(rules="advanced")
    s["ships"][0].update(fuel=2, hyper=1)
    s["ships"][1].update(fuel=2, hyper=1)
    assert "stayfull" in offered(s, 0)
    s, _ = orders(s, {0: ("stay",), 1: ("stayfull",)})
    assert (s["ships"][0]["fuel"], s["ships"][0]["hyper"], s["ships"][0]["shields"]) == (7, 1, 3)
    assert (s["ships"][1]["fuel"], s["ships"][1]["hyper"], s["ships"][1]["shields"]) == (8, 2, 2)


def test_full_refuel_is_advanced_only_and_needs_a_shield() -> None:
    s = fresh()
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "stayfull")
    assert err.value.code == "kosmonavts.error.basic_refuel"
    s = fresh(rules="advanced")
    s["ships"][0]["shields"] = 0
    assert "stayfull" not in offered(s, 0)


# ------------------------------------------------------------------------ end of game


def _holding(s: dict, seat: int, bodies: list[str]) -> None:
    for b in bodies:
        s["ships"][seat]["markers"][b] = s["stacks"][b].pop()
        s["landed_by"][b].append(seat)


def test_basic_return_ends_the_game_phase3_earth_markers() -> None:  # R17
    s = fresh(n=3, instructor=0)
    _holding(s, 0, list(NON_EARTH[:7]))
    _holding(s, 1, list(NON_EARTH[1:]))
    fly(s, 0, (5, 0))  # one hex east of Earth's space 0
    fly(s, 1, at("earth", 1))  # Earth stops on it in phase 4
    s, _ = orders(s, {0: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    assert s["ships"][0]["returned"] == 3 and not s["over"]
    s, _ = play(s, 1, "land")
    assert s["over"] and s["end"] == "return" and GAME.pending(s) == []
    assert s["ships"][1]["returned"] == 4
    assert [sh["earth"] for sh in s["ships"]] == [2, 0, 0]
    res = GAME.result(s)
    assert res is not None
    assert all(sum(b.values()) == sc for b, sc in zip(res.breakdown, res.scores, strict=True))


def test_basic_phase4_returners_score_earth_only_without_phase3_returners() -> None:  # R17
    s = fresh(n=2)
    _holding(s, 1, list(NON_EARTH[1:]))
    fly(s, 1, at("earth", 1))
    s, _ = orders(s, {})
    s, _ = play(s, 1, "land")
    assert s["over"] and [sh["earth"] for sh in s["ships"]] == [0, 2]


def test_gravity_return_counts_as_phase3() -> None:  # R13, R17
    s = to_event_phase(fresh(n=2), "gravity-3")
    _holding(s, 0, list(NON_EARTH[:7]))
    earth = at("earth", 0, s)
    fly(s, 0, (earth[0], earth[1] + 1), shields=0)  # 1 from Earth, 2+ from the others
    s, _ = _choose(s, "gravity-3")
    assert s["ships"][0]["returned"] == 1
    s, _ = orders(s, {0: ("stay",)})
    assert s["over"] and s["ships"][0]["earth"] == 2


def test_being_parked_on_earth_is_not_a_return() -> None:  # R17
    s = fresh()
    _holding(s, 0, list(NON_EARTH[:7]))
    s, _ = orders(s, {})
    assert not s["over"] and s["ships"][0]["returned"] == 0


def test_basic_needs_seven_bodies() -> None:
    s = fresh()
    _holding(s, 0, list(NON_EARTH[:6]))
    fly(s, 0, (5, 0))
    s, _ = orders(s, {0: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    assert not s["over"]


def test_advanced_return_with_four_markers_every_returner_scores() -> None:  # R18
    s = fresh(n=4, rules="advanced")
    kept = [b for b in NON_EARTH if b in s["stacks"]]
    _holding(s, 0, kept[:4])
    _holding(s, 1, kept[:4])
    fly(s, 0, (5, 0))
    fly(s, 1, at("earth", 1))
    s, _ = orders(s, {0: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    s, _ = play(s, 1, "land")
    assert s["over"] and [sh["earth"] for sh in s["ships"]] == [2, 2, 0, 0]


def test_advanced_return_when_no_marker_can_be_obtained() -> None:  # R18
    s = fresh(n=3, rules="advanced")
    kept = [b for b in NON_EARTH if b in s["stacks"]]
    _holding(s, 0, kept[:2])
    for b in kept[2:]:
        _holding(s, 1, [b])
        _holding(s, 2, [b])
    assert engine.return_ready(s, 0)
    assert not engine.return_ready(engine.new(3, {"rules": "advanced"}, 1), 0)
    fly(s, 0, (5, 0))
    s, _ = orders(s, {0: ("add.w", "confirm")})
    s, _ = play(s, 0, "land")
    assert s["over"]


def test_round_limit_ends_the_game() -> None:  # R24
    s = fly(fresh(), 0, FAR)
    s["round"] = ROUND_LIMIT
    s, ev = orders(s, {})
    assert s["over"] and s["end"] == "limit" and "game_over_limit" in codes(ev)
    assert GAME.result(s) is not None


# ---------------------------------------------------------------------------- scoring


def _final(s: dict) -> dict:
    s = clone(s)
    s["over"], s["phase"] = True, "over"
    return s


def _result(s: dict) -> Result:
    res = GAME.result(_final(s))
    assert res is not None
    return res


def test_missions_first_second_and_only() -> None:  # R19
    s = fresh(n=3)
    s["missions"] = [
        ["m1.mars", "m2.saturn", "m2.venus"],
        ["m1.saturn", "m2.mars", "m2.uranus"],
        ["m1.venus", "m2.jupiter", "m2.halley"],
    ]
    for seat, body in ((0, "mars"), (1, "mars"), (1, "saturn"), (0, "saturn"), (0, "venus")):
        _holding(s, seat, [body])
    s["landed_by"]["uranus"] = [1]  # landed there without a marker? only lander anyway
    res = _result(s)
    assert res.breakdown[0] == {"markers": 4 + 3 + 4, "earth": 0, "mission1": 2, "mission2": 8}
    assert res.breakdown[1] == {"markers": 3 + 4, "earth": 0, "mission1": 2, "mission2": 8}
    assert res.breakdown[2]["mission1"] == 0 and res.breakdown[2]["mission2"] == 0


def test_tie_breaks_basic() -> None:  # R20
    s = fresh(n=4)
    s["missions"] = [[], [], [], []]
    _holding(s, 0, ["mars"])  # 4
    _holding(s, 1, ["jupiter"])  # 4
    _holding(s, 2, ["saturn"])  # 4
    _holding(s, 3, ["mercury"])  # 4
    s["ships"][0]["returned"] = 4
    s["ships"][1]["returned"] = 3
    s["ships"][2]["returned"] = 3
    assert _result(s).ranks == (3, 1, 1, 4)
    # same VP and return phase: the one with more value-4 markers wins
    s["ships"][2]["markers"] = {"saturn": 4}
    s["ships"][1]["markers"] = {"jupiter": 2, "venus": 2}
    s["stacks"]["jupiter"] = [1, 3, 4]
    s["stacks"]["venus"] = [1, 3, 4]
    assert _result(s).ranks[1:3] == (2, 1)


def test_tie_breaks_advanced_shields_first() -> None:  # R20
    s = fresh(n=2, rules="advanced")
    s["missions"] = [[], []]
    s["ships"][0]["shields"] = 1
    s["ships"][1]["shields"] = 2
    s["ships"][0]["returned"] = 3
    assert _result(s).ranks == (2, 1)
    s["ships"][1]["shields"] = 1
    assert _result(s).ranks == (1, 2)
    s["ships"][0]["returned"] = 0
    assert _result(s).ranks == (1, 1)  # shared


def test_running_scores_show_markers_only() -> None:
    s = fresh()
    _holding(s, 0, ["mars", "venus"])
    assert GAME.view(s, None)["scores"] == [8, 0]


# ---------------------------------------------------------------------------- set-up


def test_basic_missions_one_alpha_one_beta_and_a_different_m1() -> None:
    for seed in range(150):
        s = GAME.new(4, {}, seed)
        m1s = []
        for ms in s["missions"]:
            m1, a, b = (m.split(".")[1] for m in ms)
            assert a in M2_ALPHA and b in M2_BETA and m1 not in (a, b)
            m1s.append(m1)
        assert len(set(m1s)) == 4


class _Rigged(random.Random):
    """Shuffles into a fixed order, one list per call (the Mission 1 redraw worst case)."""

    def __init__(self, orders_: list[list[str]]) -> None:
        super().__init__(0)
        self.orders_ = orders_

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        if self.orders_:
            want = self.orders_.pop(0)
            assert sorted(want) == sorted(x)
            x[:] = want
        else:
            super().shuffle(x)


def test_mission1_deck_runs_out_and_is_reshuffled() -> None:  # R25
    a = list(reversed(M2_ALPHA))  # popped from the end: seat k gets M2_ALPHA[k]
    b = list(reversed(M2_BETA))
    A, B = M2_ALPHA, M2_BETA
    draws = [A[0], B[0], A[3], A[1], B[1], B[3], A[2], B[2]]
    s: dict[str, Any] = {
        "n": 4,
        "rules": "basic",
        "missions": [[] for _ in range(4)],
        "removed": [],
    }
    engine._deal_missions(s, _Rigged([a, b, list(reversed(draws))]))
    assert s["missions"][0] == [f"m1.{A[3]}", f"m2.{A[0]}", f"m2.{B[0]}"]
    assert s["missions"][1] == [f"m1.{B[3]}", f"m2.{A[1]}", f"m2.{B[1]}"]
    for seat in (2, 3):
        m1, x, y = (m.split(".")[1] for m in s["missions"][seat])
        assert m1 not in (x, y)


@pytest.mark.parametrize(("n", "removed"), [(2, 3), (3, 2), (4, 0)])
def test_advanced_setup(n: int, removed: int) -> None:
    s = GAME.new(n, {"rules": "advanced"}, 11)
    assert s["phase"] == "missions" and len(s["removed"]) == removed
    assert s["ships"][0]["fuel"] == 8 and s["ships"][0]["hyper"] == 2
    for dealt in s["dealt"]:
        assert [m[:2] for m in dealt] == ["m1", "m1", "m2", "m2"]
        assert all(m.split(".")[1] not in s["removed"] for m in dealt)
    for b in NON_EARTH:
        assert (b in s["stacks"]) == (b not in s["removed"])
    assert s["stacks"].get("uranus", [3, 4]) == [3, 4]


def test_advanced_mission_choice_is_private() -> None:  # R26
    s = GAME.new(3, {"rules": "advanced"}, 3)
    assert {d.seat for d in GAME.pending(s)} == {0, 1, 2}
    assert all(d.private for d in GAME.pending(s))
    s, _ = play(s, 0, "keep.1")
    assert "undo" in offered(s, 0) and "confirm" not in offered(s, 0)
    s, _ = play(s, 0, "keep.3")
    assert offered(s, 0) == ["undo", "confirm"]
    s, ev = play(s, 0, "confirm")
    pub = json.dumps(GAME.view(s, None))
    assert "m1." not in pub and "m2." not in pub
    assert GAME.view(s, None)["missions_chosen"] == [True, False, False]
    assert [m["id"] for m in GAME.view(s, 0)["private"]["missions"]] == [
        s["dealt"][0][1],
        s["dealt"][0][3],
    ]
    assert "m1." not in json.dumps([e.args for e in ev])


def test_mission_choice_step_cap() -> None:
    s = GAME.new(2, {"rules": "advanced"}, 3)
    for _ in range(4):
        s, _ = play(s, 0, "keep.0", "undo")
    assert offered(s, 0) == ["confirm"]


def test_players_place_the_planets_in_turn_basic() -> None:  # R1
    s = GAME.new(3, {"planets": "players"}, 8)
    first = s["instructor"]
    hands = s["setup"]["hands"]
    assert sorted(b for h in hands for b in h) == sorted(BODIES)
    assert len(hands[first]) == 3
    turns = []
    while s["phase"] == "setup":
        (d,) = GAME.pending(s)
        turns.append(d.seat)
        choice = d.options[-1].id
        s, _ = apply_checked(GAME, s, d.seat, choice)
    assert s["phase"] == "orders" and all(v is not None for v in s["bodies"].values())
    assert turns[0] == first and len(turns) == 9 + 6  # 3 seats hold a single token at the end
    earth = ORBITS["earth"][s["bodies"]["earth"]]
    assert all(tuple(sh["pos"]) == earth for sh in s["ships"])


def test_players_place_the_planets_advanced_earth_first() -> None:  # R1
    s = GAME.new(2, {"planets": "players", "rules": "advanced"}, 8)
    (d,) = GAME.pending(s)
    assert d.seat == s["instructor"] and d.prompt == "kosmonavts.prompt.place.earth"
    assert len(d.options) == len(ORBITS["earth"])
    s, ev = apply_checked(GAME, s, d.seat, "space.3")
    assert s["bodies"]["earth"] == 3 and "placed.earth" in codes(ev)
    (d,) = GAME.pending(s)
    assert d.seat == (s["instructor"] + 1) % 2 and d.prompt == "kosmonavts.prompt.place_body"
    assert len(d.options) == 8


def test_random_placement_places_everything() -> None:
    s = GAME.new(2, {"planets": "random"}, 8)
    assert all(v is not None for v in s["bodies"].values())
    assert s["ships"][0]["landed"] == "earth" and s["ships"][0]["last"] == "earth"


# ------------------------------------------------------------------- contract details


def test_apply_does_not_change_its_input_and_is_deterministic() -> None:
    s = fly(fresh(), 0, FAR)
    before = GAME.dump(s)
    a, _ = GAME.apply(s, 0, "add.w")
    b, _ = GAME.apply(s, 0, "add.w")
    assert GAME.dump(s) == before and GAME.dump(a) == GAME.dump(b)
    assert GAME.new(3, {}, 42) == GAME.new(3, {}, 42) != GAME.new(3, {}, 43)


def test_load_round_trip_and_rejects_bad_data() -> None:
    s = GAME.new(3, {"rules": "advanced"}, 5)
    assert GAME.load(json.loads(json.dumps(GAME.dump(s)))) == s
    for breaker in (
        lambda d: d.update(schema=99),
        lambda d: d["ships"][0].update(fuel=11),
        lambda d: d["ships"][0].update(shields=4),
        lambda d: d["deck"].pop(),
        lambda d: d["ships"][0]["markers"].update(mars=4),
        lambda d: d.pop("ships"),
    ):
        bad = GAME.dump(s)
        breaker(bad)
        with pytest.raises(ValueError):
            GAME.load(bad)


def test_refusals_carry_codes() -> None:
    s = fly(fresh(), 0, FAR, fuel=0, hyper=0)
    for choice, code in (
        ("add.w", "no_fuel"),
        ("addh.w", "no_hyper"),
        ("undo", "nothing_to_undo"),
        ("stay", "not_landed"),
        ("bogus", "not_offered"),
    ):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(s, 0, choice)
        assert err.value.code == f"kosmonavts.error.{code}"
    s, _ = play(s, 0, "confirm")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(s, 0, "confirm")
    assert err.value.code == "kosmonavts.error.not_your_turn"


def test_directions_match_the_board_data() -> None:
    assert DIR_IDS == ("e", "ne", "nw", "w", "sw", "se")
    assert engine.clone is clone  # the kit's, no private copy


# ------------------------------------------------------------------ remaining rulings


def test_supply_is_unlimited() -> None:  # R16
    s = to_event_phase(fresh(n=4), "wind2-e")
    for seat in range(4):
        fly(s, seat, FAR, rose=rose(w=0, e=20), fuel=6, hyper=4, shields=0)
    s, _ = _choose(s, "wind2-e")  # 4 x (20 + 2) yellow units + full tanks: more than 48 cubes
    assert all(sh["rose"] == rose(e=22) for sh in s["ships"])


def test_basic_uses_four_markers_per_body_for_any_player_count() -> None:  # R21
    for n in (2, 3, 4):
        s = GAME.new(n, {"rules": "basic"}, n)
        assert s["removed"] == [] and all(s["stacks"][b] == [1, 2, 3, 4] for b in NON_EARTH)


def test_advanced_missions_are_known_while_placing_planets() -> None:  # R26
    s = GAME.new(2, {"rules": "advanced", "planets": "players"}, 2)
    assert s["phase"] == "setup"
    dealt = GAME.view(s, 1)["private"]["dealt"]
    assert [m["id"] for m in dealt] == s["dealt"][1]
    assert "m1." not in json.dumps(GAME.view(s, None))


def test_take_off_even_when_the_cubes_cancel_the_waiting_wind() -> None:  # R28, R11
    s = to_event_phase(fresh(), "wind1-se")
    s, _ = _choose(s, "wind1-se")
    s, _ = play(s, 0, "accept")
    s, _ = play(s, 1, "shield")
    s, ev = orders(s, {0: ("add.nw", "confirm")})
    assert "takeoff.earth" in codes(ev)
    assert s["landing"] == {"phase": 3, "body": ["earth", None], "answers": [None, None]}
    s, _ = play(s, 0, "land")
    assert s["ships"][0]["landed"] == "earth"


def test_instructor_passes_to_the_next_seat() -> None:  # R29
    s = fresh(n=3, instructor=2)
    s, ev = orders(s, {})
    assert s["instructor"] == 0 and s["round"] == 2
    assert ev[-1].args == {"round": 2, "instructor_seat": 0}


def test_the_random_stream_is_unchanged_by_the_kit() -> None:
    # saved games replay bit for bit: act k draws from random.Random(f"{seed}:{k}"), k from 1
    for seed in range(5):
        s = GAME.new(3, {}, seed)
        assert s["rng"] == 1 and s["instructor"] == random.Random(f"{seed}:1").randrange(3)


def test_a_stored_touchdown_may_go_on_only_where_the_engine_can() -> None:
    from rules.kosmonavts import common

    assert tuple(engine._AFTER_LANDING) == common.LANDING_NEXT
