"""Galaxy Trucker flight helpers (not wired into the game yet): the track, power, hazards."""

from __future__ import annotations

from fractions import Fraction

from rules.galaxy_trucker import flight as fl
from rules.galaxy_trucker.tiles import FRONT, LEFT, REAR, RIGHT

START = 33
ENGINE = 73  # single, 1000
ENGINE2 = 92  # double, 1000
CANNON = 101  # single, 0010
CANNON2 = 126  # double, 0010
SHIELD = 149  # 01U1: protects printed top and right
STRUCT = 53  # UU01


def test_flight_order_and_moves_skip_occupied_spaces():
    pos = {0: 6, 1: 3, 2: 1, 3: 0}
    assert fl.flight_order(pos) == [0, 1, 2, 3]
    # seat 3 moves 3 days: spaces 1 and 3 hold rockets, so it counts 2, 4 and 5
    assert fl.move(pos, 3, 3, 24) == 5
    # seat 1 loses 2 days: counts 2, skips 1 and 0, counts the space behind the start
    assert fl.move(pos, 1, -2, 24) == -1
    assert fl.move(pos, 0, 1, 24) == 7


def test_moving_back_skips_rockets_too():
    pos = {0: 5, 1: 4, 2: 3}
    assert fl.move(pos, 0, -1, 18) == 2  # 4 and 3 are taken


def test_lapped_players():
    assert fl.lapped({0: 30, 1: 11, 2: 12}, 18) == [1]
    assert fl.lapped({0: 10, 1: 0}, 18) == []


def test_engine_power_with_doubles_and_the_brown_alien():
    ship = {(7, 7): (START, 0), (8, 6): (ENGINE, 0), (8, 7): (ENGINE2, 0), (7, 6): (STRUCT, 0)}
    assert fl.engine_power(ship, {}) == 1
    assert fl.engine_power(ship, {}, doubles=1) == 3
    assert fl.engine_power(ship, {}, doubles=5) == 3  # only one double engine
    assert fl.engine_power(ship, {"brown": (7, 6)}, doubles=1) == 5
    no_engine = {(7, 7): (START, 0), (7, 6): (STRUCT, 0)}
    assert fl.engine_power(no_engine, {"brown": (7, 6)}) == 0  # the alien needs power > 0


def test_firepower_front_counts_full_sideways_half():
    ship = {
        (7, 7): (START, 0),
        (6, 7): (CANNON, 0),  # front: 1
        (7, 8): (CANNON, 1),  # right: 1/2
        (7, 6): (CANNON2, 0),  # double front: 2 when powered
        (8, 7): (CANNON2, 2),  # double rear: 1 when powered
    }
    assert fl.firepower(ship, {}) == Fraction(3, 2)
    assert fl.firepower(ship, {}, doubles=1) == Fraction(7, 2)  # the best double first
    assert fl.firepower(ship, {}, doubles=2) == Fraction(9, 2)
    assert fl.firepower(ship, {"purple": (7, 7)}) == Fraction(7, 2)
    assert fl.double_count(ship, "cannon") == 2


def test_hazard_lines_and_first_hit():
    ship = {(6, 7): (STRUCT, 0), (7, 7): (START, 0), (8, 7): (ENGINE, 0), (7, 8): (STRUCT, 0)}
    assert fl.first_hit(ship, FRONT, 7) == (6, 7)
    assert fl.first_hit(ship, REAR, 7) == (8, 7)
    assert fl.first_hit(ship, LEFT, 7) == (7, 7)
    assert fl.first_hit(ship, RIGHT, 7) == (7, 8)
    assert fl.first_hit(ship, FRONT, 5) is None  # a miss


def test_shields_turn_with_the_tile():
    assert fl.shielded_sides({(7, 8): (SHIELD, 0)}) == {FRONT, RIGHT}
    assert fl.shielded_sides({(7, 8): (SHIELD, 1)}) == {RIGHT, REAR}
    assert fl.shielded_sides({(7, 8): (SHIELD, 3)}) == {LEFT, FRONT}


def test_small_meteor_bounces_off_smooth_sides():
    ship = {(7, 7): (ENGINE, 0)}  # 1000: single on the front only
    assert fl.exposed_towards(ship, (7, 7), FRONT)
    assert not fl.exposed_towards(ship, (7, 7), LEFT)


def test_cannons_against_large_meteors():
    ship = {(6, 7): (CANNON, 0), (7, 8): (CANNON, 1), (8, 8): (CANNON, 1)}
    assert fl.cannons_against_large(ship, FRONT, 7) == [(6, 7)]
    assert fl.cannons_against_large(ship, FRONT, 8) == []  # only the same column
    assert fl.cannons_against_large(ship, RIGHT, 9) == [(8, 8)]  # an adjacent row
    assert fl.cannons_against_large(ship, RIGHT, 7) == [(7, 8), (8, 8)]


def test_destroy_reports_the_parts():
    ship = {(7, 6): (STRUCT, 0), (7, 7): (START, 0), (7, 8): (STRUCT, 1)}
    rest, parts = fl.destroy(ship, (7, 7))
    assert (7, 7) not in rest and len(parts) == 2


def test_goods_value_and_half_price_rounded_up():
    goods = {(7, 7): ["red", "yellow"], (7, 8): ["blue"]}
    assert fl.goods_value(goods, retired=False) == 8
    assert fl.goods_value(goods, retired=True) == 4
    assert fl.goods_value({(7, 7): ["yellow"]}, retired=True) == 2
