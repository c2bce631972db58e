"""Galaxy Trucker ship geometry: connector legality, the pre-launch check, parts, fix-it."""

from __future__ import annotations

import pytest

from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.tiles import REAR, facing, side, sides_now, tile

# Tiles used below (2nd edition ids; connectors top, right, bottom, left as printed).
START = 33  # UUUU
STRUCT_UU01 = 53  # structural U U 0 1
CABIN_1211 = 36
BATT_2121 = 4
ENGINE_1000 = 73  # single engine: single connector on top, exhaust at the bottom
CANNON_0010 = 101  # single cannon: barrel at the top, single connector at the bottom
BATT_000U = 8  # battery: only a universal connector on the left


#: Connector pairs (one side's, the other's) by how they meet: two smooth sides leave the
#: joint open; a universal connector joins any connector, and like joins like.
JOINTS = {
    "open": ["00"],
    "ok": ["11", "22", "UU", "U1", "2U"],
    "bad": ["12", "21", "10", "0U", "02"],
}


@pytest.mark.parametrize(
    ("a", "b", "expected"), [(p[0], p[1], kind) for kind, pairs in JOINTS.items() for p in pairs]
)
def test_connector_legality(a, b, expected):
    assert sh.joint(a, b) == expected
    assert sh.joint(b, a) == expected
    assert sh.joined(a, b) == (a != "0" and b != "0")


def test_rotation_turns_sides_clockwise():
    assert tile(STRUCT_UU01).sides == "UU01"
    assert sides_now(STRUCT_UU01, 0) == "UU01"
    assert sides_now(STRUCT_UU01, 1) == "1UU0"  # the left side now faces the front
    assert sides_now(STRUCT_UU01, 2) == "01UU"
    assert sides_now(STRUCT_UU01, 3) == "U01U"
    assert side(STRUCT_UU01, 1, 0) == "1"


def test_engine_and_cannon_facing():
    assert facing(ENGINE_1000, 0) == REAR
    assert facing(ENGINE_1000, 1) == 3  # turned clockwise: exhaust to the left
    assert facing(CANNON_0010, 0) == 0
    assert facing(CANNON_0010, 2) == REAR
    assert facing(BATT_2121, 0) is None


def test_a_legal_ship_has_no_problems():
    ship = {(7, 7): (START, 0), (8, 7): (ENGINE_1000, 0), (6, 7): (CANNON_0010, 0)}
    assert sh.problems(ship) == []
    assert sh.parts(ship) == [{(6, 7), (7, 7), (8, 7)}]
    assert sh.is_valid(ship)


def test_illegal_joint_single_against_double():
    # cabin 1211 below the battery 2121: battery bottom is 2, cabin top is 1
    ship = {(7, 7): (START, 0), (7, 8): (BATT_2121, 0), (8, 8): (CABIN_1211, 0)}
    assert ("joint", ((7, 8), (8, 8))) in sh.problems(ship)


def test_connector_against_smooth_side_is_illegal_and_does_not_join():
    # battery 000U to the right of the start cabin: its left U faces the cabin (legal);
    # a second one to its right puts U against the first one's smooth right side.
    ship = {(7, 7): (START, 0), (7, 8): (BATT_000U, 0), (7, 9): (BATT_000U, 0)}
    assert sh.problems(ship) == [("joint", ((7, 8), (7, 9)))]
    assert len(sh.parts(ship)) == 2


def test_engine_misplaced_and_blocked():
    turned = {(7, 7): (START, 0), (8, 7): (ENGINE_1000, 2)}  # exhaust to the front
    codes = [c for c, _ in sh.problems(turned)]
    assert "engine_dir" in codes and "engine_blocked" in codes  # it blows into the cabin
    behind = {(7, 7): (START, 0), (6, 7): (ENGINE_1000, 0)}  # start cabin behind exhaust
    # the start cabin sits behind the exhaust (and faces its smooth rear side)
    assert sorted(sh.problems(behind)) == [
        ("engine_blocked", ((6, 7), (7, 7))),
        ("joint", ((6, 7), (7, 7))),
    ]


def test_cannon_blocked():
    ship = {(7, 7): (START, 0), (8, 7): (CANNON_0010, 0)}  # barrel into the cabin
    assert sorted(sh.problems(ship)) == [
        ("cannon_blocked", ((8, 7), (7, 7))),
        ("joint", ((7, 7), (8, 7))),  # the smooth barrel side against the cabin
    ]


def test_fix_plan_removes_the_fewest_tiles():
    # start, a battery with a bad joint on the right, behind it a legal chain of 2
    ship = {
        (7, 7): (START, 0),
        (7, 8): (BATT_000U, 0),
        (7, 9): (BATT_000U, 0),
        (8, 7): (ENGINE_1000, 0),
    }
    keep = sh.fix_plan(ship, (7, 7))
    assert keep == {(7, 7), (7, 8), (8, 7)}
    fixed = {c: v for c, v in ship.items() if c in keep}
    assert sh.is_valid(fixed)


def test_keep_part_returns_the_lost_tiles():
    ship = {(7, 7): (START, 0), (7, 8): (BATT_000U, 0), (7, 9): (BATT_000U, 0)}
    kept, lost = sh.keep_part(ship, (7, 9))
    assert kept == {(7, 9): (BATT_000U, 0)}
    assert sorted(lost) == sorted([START, BATT_000U])


def test_exposed_connectors_count_holes_and_edges():
    assert sh.exposed({(7, 7): (START, 0)}) == 4
    ship = {(7, 7): (START, 0), (8, 7): (ENGINE_1000, 0)}
    assert sh.exposed(ship) == 3


def test_free_cells_are_next_to_the_ship_and_on_the_board():
    board = {(6, 7), (7, 6), (7, 7), (7, 8), (8, 7), (9, 9)}
    assert sh.free_cells({(7, 7): (START, 0)}, board) == [(6, 7), (7, 6), (7, 8), (8, 7)]


def test_fits_refuses_what_the_check_would_refuse():
    ship = {(7, 7): (START, 0)}
    assert sh.fits(ship, (8, 7), ENGINE_1000, 0)
    assert not sh.fits(ship, (6, 7), ENGINE_1000, 0)  # exhaust into the cabin
    assert sh.fits(ship, (6, 7), CANNON_0010, 0)
    assert not sh.fits(ship, (8, 7), CANNON_0010, 0)  # barrel into the cabin
    ship[(6, 7)] = (CANNON_0010, 0)
    assert not sh.fits(ship, (5, 7), STRUCT_UU01, 0)  # in front of the barrel
