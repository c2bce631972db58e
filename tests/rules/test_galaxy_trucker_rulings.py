"""Galaxy Trucker rulings R1-R12 (see rules/galaxy_trucker/__init__.py); the flight's are in
test_galaxy_trucker_flight.py."""

from __future__ import annotations

import pytest

from core.contract import IllegalMove, apply_checked
from rules.galaxy_trucker import GAME, engine
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.building import HG_OUT

STRUCT_UU01 = 53
HOLD_U00U = 26
BATT_000U = 8
ENGINE_1000 = 73
CANNON_0010 = 101
CABIN_0_1_U_0 = 47  # cabin 020U: U on the left
LIFE_BROWN_000U = 139


def new(players=2, level="I", seed=1, hourglass="3m"):
    return GAME.new(players, {"level": level, "hourglass": hourglass}, seed)


def top(s, tid):
    """Put tile ``tid`` on top of the face-down stack (a test helper; tiles conserved)."""
    s["facedown"].remove(tid)
    s["facedown"].append(tid)
    return s


def play(s, seat, *choices):
    for c in choices:
        s, _ = apply_checked(GAME, s, seat, c)
    return s


def ids(s, seat):
    return [o.id for d in GAME.pending(s) if d.seat == seat for o in d.options]


def decision(s, seat):
    return next(d for d in GAME.pending(s) if d.seat == seat)


def test_r1_seats_have_their_starting_cabins_and_the_pool_is_full():
    s = new(3)
    assert [p["ship"]["7.7"][0] for p in s["players"]] == [33, 34, 52]
    assert len(s["facedown"]) == 152 and s["faceup"] == []
    assert sorted(engine.all_tiles(s)) == sorted([*engine.regular_tile_ids(), 33, 34, 52])


def test_r2_levels_and_hourglass_lengths():
    s = new(level="learning")
    assert s["hg"]["runs"] == 0 and decision(s, 0).timer is None
    s = new(level="II", hourglass="4h")
    t = decision(s, 0).timer
    assert t is not None and t.key == "hourglass.1" and t.seconds == 14400 and t.option == HG_OUT
    assert HG_OUT not in ids(s, 0)  # the clock's option, never a button (the host fires it)
    s, _ = apply_checked(GAME, s, 1, HG_OUT, timer=True)  # as the host does
    assert decision(s, 0).timer is None
    with pytest.raises(ValueError):
        GAME.new(2, {"level": "IV"}, 1)


def test_r3_hourglass_flips_and_last_run():
    s = new(level="I")  # 2 runs
    assert "flip" not in ids(s, 0)
    s, _ = GAME.apply(s, 1, HG_OUT)
    assert s["hg"]["out"] and decision(s, 0).timer is None
    # run 2 is the last one: only a finished player may flip onto it
    assert "flip" not in ids(s, 0) and "flip" not in ids(s, 1)
    s = play(s, 0, "done")
    assert "flip" in ids(s, 0)
    assert decision(s, 0).private is False and decision(s, 0).key == "flip.1"
    s = top(s, STRUCT_UU01)
    s = play(s, 1, "draw")  # seat 1 holds a tile when the sand runs out
    s = play(s, 0, "flip")
    assert s["hg"] == {"run": 2, "runs": 2, "out": False}
    assert decision(s, 1).timer.key == "hourglass.2"
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "flip")
    s, _events = GAME.apply(s, 1, HG_OUT)
    assert s["phase"] != "build"
    assert STRUCT_UU01 in s["faceup"]  # the tile in hand went back face up
    assert s["order"] == [0, 1]


def test_r3_builders_may_flip_onto_a_middle_run():
    s = new(level="II")  # 3 runs
    s, _ = GAME.apply(s, 0, HG_OUT)
    assert "flip" in ids(s, 1)
    s = play(s, 1, "flip")
    assert s["hg"]["run"] == 2 and not s["hg"]["out"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "flip")


def test_r3_every_builder_stops_in_seat_order_when_the_last_sand_runs_out():
    s = new(3, level="II")
    s = play(s, 2, "done")
    for _ in range(2):
        s, _ = GAME.apply(s, 0, HG_OUT)
        s = play(s, 2, "flip")
    s, events = GAME.apply(s, 1, HG_OUT)
    assert s["order"] == [2, 0, 1]
    assert any(e.code == "galaxy_trucker.event.build_over" for e in events)


def test_r4_drawn_tile_is_private_and_the_open_pool_goes_to_the_first_click():
    s = top(new(3), STRUCT_UU01)
    s, events = GAME.apply(s, 0, "draw")
    private = [e for e in events if e.private_to == 0]
    public = [e for e in events if e.private_to is None]
    assert private and private[0].args["tile"] == STRUCT_UU01 and private[0].reveals
    assert all("tile" not in e.args for e in public)
    assert GAME.view(s, None).get("private") is None
    assert GAME.view(s, 1)["private"].get("hand") is None
    assert GAME.view(s, 0)["private"]["hand"]["id"] == STRUCT_UU01
    s = play(s, 0, "return")
    key1 = decision(s, 1).key
    key2 = decision(s, 2).key
    assert f"take.{STRUCT_UU01}" in ids(s, 1) and f"take.{STRUCT_UU01}" in ids(s, 2)
    s = play(s, 1, f"take.{STRUCT_UU01}")
    # seat 2's question is the same (same key), only the taken tile's option is gone
    assert decision(s, 2).key == key2 and decision(s, 1).key != key1
    assert f"take.{STRUCT_UU01}" not in ids(s, 2)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 2, f"take.{STRUCT_UU01}")
    assert GAME.gone_reason(s, 2, f"take.{STRUCT_UU01}") == (
        "galaxy_trucker.gone.taken",
        {"by_seat": 1, "tile": STRUCT_UU01},
    )
    assert GAME.gone_reason(s, 2, "draw") is None


def test_r5_place_next_to_the_ship_on_the_grid():
    s = top(new(), STRUCT_UU01)
    s = play(s, 0, "draw")
    d = decision(s, 0)
    assert d.grid == (3, 3)  # cropped to the rows and columns of the free cells
    cells = {o.id: o.cell for o in d.options if o.id.startswith("place.")}
    assert cells == {
        "place.6.7": (0, 1),
        "place.7.6": (1, 0),
        "place.7.8": (1, 2),
        "place.8.7": (2, 1),
    }
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "place.5.7")  # not next to the ship
    s = play(s, 0, "rot", "rot", "place.6.7")  # connectors are not checked now
    assert s["players"][0]["ship"]["6.7"] == [STRUCT_UU01, 2]


def test_r6_last_tile_can_be_turned_or_lifted_until_the_next_tile():
    s = top(new(), STRUCT_UU01)
    s = play(s, 0, "draw", "place.7.8", "lrot")
    assert s["players"][0]["ship"]["7.8"] == [STRUCT_UU01, 1]
    s = play(s, 0, "lift")
    assert "7.8" not in s["players"][0]["ship"]
    assert s["players"][0]["hand"] == STRUCT_UU01 and s["players"][0]["rot"] == 1
    assert "return" in ids(s, 0)  # it came face down: it may still go to the pool
    s = play(s, 0, "place.8.7", "draw")
    assert "lrot" not in ids(s, 0) and "lift" not in ids(s, 0)


def test_reserve_holds_two_and_never_goes_back_to_the_pool():
    s = new()
    for _ in range(2):
        s = play(s, 0, "draw", "reserve")
    assert len(s["players"][0]["reserve"]) == 2
    s = play(s, 0, "draw")
    assert "reserve" not in ids(s, 0)
    s = play(s, 0, "return")
    tid = s["players"][0]["reserve"][0]
    s = play(s, 0, f"use.{tid}")
    assert "return" not in ids(s, 0) and "back" in ids(s, 0)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "return")
    s = play(s, 0, "back")
    assert tid in s["players"][0]["reserve"]


def test_r7_cards_after_a_tile_one_pile_at_a_time_and_done_with_empty_hands():
    s = new()
    assert "peek.0" not in ids(s, 0)
    s = top(s, STRUCT_UU01)
    s = play(s, 0, "draw")
    assert "done" not in ids(s, 0)
    s = play(s, 0, "place.7.8")
    assert {"peek.0", "peek.1", "peek.2"} <= set(ids(s, 0)) and "peek.3" not in ids(s, 0)
    s, _events = GAME.apply(s, 0, "peek.1")
    assert ids(s, 0) == ["unpeek"]
    assert "lrot" not in ids(play(s, 0, "unpeek"), 0)  # looking at cards fixes the last tile
    peek = GAME.view(s, 0)["private"]["peek"]
    assert peek["pile"] == 2 and len(peek["cards"]) == 2
    assert "peek" not in GAME.view(s, None).get("private", {})
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "draw")


def test_r8_done_takes_the_best_free_start_space():
    s = new(3, level="II")
    s, events = GAME.apply(s, 2, "done")
    assert events[0].args == {"seat": 2, "place": 1, "space": 7}
    s, events = GAME.apply(s, 0, "done")
    assert events[0].args["space"] == 4
    assert GAME.view(s, None)["order"] == [2, 0]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "draw")


def _launch(s):
    """Everyone finishes now."""
    for seat in range(s["n"]):
        if not s["players"][seat]["done"]:
            s = play(s, seat, "done")
    return s


def test_r10_split_ship_chooses_the_part_then_fixes():
    s = new()
    p = s["players"][0]
    for tid in (BATT_000U, ENGINE_1000):
        s["facedown"].remove(tid)
    p["ship"]["7.8"] = [BATT_000U, 0]  # legal: U faces the cabin
    p["ship"]["6.7"] = [ENGINE_1000, 0]  # exhaust into the cabin, smooth side to it
    s = _launch(s)
    assert s["phase"] == "prelaunch" and p is not s["players"][0]
    assert s["players"][0]["stage"] == "split"
    d = decision(s, 0)
    assert d.private and d.grid == (2, 2)
    assert {o.id for o in d.options} == {"keep.6.7", "keep.7.7", "keep.7.8", "fix"}
    s = play(s, 0, "keep.7.7")
    assert s["players"][0]["lost"] == [ENGINE_1000]
    assert s["players"][1]["stage"] == "ready"


def test_r10_removing_tiles_until_valid_and_reserves_are_lost():
    s = new()
    s = play(s, 0, "draw", "reserve")
    reserved = s["players"][0]["reserve"][0]
    for tid in (STRUCT_UU01, ENGINE_1000):
        s["facedown"].remove(tid)
    p = s["players"][0]
    p["ship"]["7.8"] = [STRUCT_UU01, 0]  # UU01: U faces front and right, single to the cabin
    p["ship"]["7.6"] = [ENGINE_1000, 1]  # turned: single to the cabin, exhaust to the left
    s = _launch(s)
    assert reserved in s["players"][0]["lost"]
    assert s["players"][0]["stage"] == "fix"
    d = decision(s, 0)
    danger = {o.id for o in d.options if o.style == "danger"}
    assert danger == {"rm.7.6"}
    codes = [code for code, _ in GAME.view(s, 0)["ships"][0]["problems"]]
    assert codes == ["engine_dir"]
    s = play(s, 0, "rm.7.6")
    assert s["players"][0]["stage"] == "ready"
    assert sorted(s["players"][0]["lost"]) == sorted([reserved, ENGINE_1000])


def test_r11_fix_it_for_me():
    s = new()
    p = s["players"][0]
    for tid in (BATT_000U, 9):
        s["facedown"].remove(tid)
    p["ship"]["7.8"] = [BATT_000U, 0]
    p["ship"]["7.9"] = [9, 0]  # U against the first battery's smooth side
    s = _launch(s)
    assert s["players"][0]["stage"] == "split"
    # everyone is ready as soon as the fix is done: the flight starts with that move
    s["piles"] = [["2E-I-04"]] * 4  # stardust only: nothing is destroyed
    s = play(s, 0, "fix")
    assert s["phase"] in ("flight", "over")
    assert sh.is_valid(sh.load(s["players"][0]["ship"]))
    assert s["players"][0]["lost"] == [9]


def _cabin_cut_off(s):
    """Seat 0: the starting cabin (7.7), then a hold (7.8, smooth side to the cabin: an
    illegal joint) and a structural module (7.9) joined to the hold: the larger part has no
    humans."""
    p = s["players"][0]
    for tid in (HOLD_U00U, STRUCT_UU01):
        s["facedown"].remove(tid)
    p["ship"]["7.8"] = [HOLD_U00U, 2]  # 0UU0: smooth to the cabin, U to the right
    p["ship"]["7.9"] = [STRUCT_UU01, 0]  # single on the left, to the hold's U
    return s


def test_r11b_fix_it_for_me_keeps_the_part_with_the_starting_cabin():
    s = _launch(_cabin_cut_off(new()))
    assert s["players"][0]["stage"] == "split"
    s["piles"] = [["2E-I-04"]] * 4  # stardust only: nothing is destroyed
    s = play(s, 0, "fix")
    ship = sh.load(s["players"][0]["ship"])
    assert set(ship) == {(7, 7)}  # the humans stay aboard, two tiles lost
    assert sorted(s["players"][0]["lost"]) == sorted([HOLD_U00U, STRUCT_UU01])
    # the largest part alone, as the first ruling kept it (games stored before R11b)
    old = sh.fix_plan(sh.load(_cabin_cut_off(new())["players"][0]["ship"]), (7, 7))
    assert old == {(7, 8), (7, 9)}


def test_r11b_absent_players_get_the_same_fix():
    s = _launch(_cabin_cut_off(new()))
    assert "fix" in GAME.skip_options and "fix" in ids(s, 0)


def test_r10b_only_a_tile_that_breaks_a_rule_may_be_removed():
    s = new()
    for tid in (STRUCT_UU01, ENGINE_1000):
        s["facedown"].remove(tid)
    p = s["players"][0]
    p["ship"]["7.8"] = [STRUCT_UU01, 0]  # legal
    p["ship"]["7.6"] = [ENGINE_1000, 1]  # exhaust to the left: must go
    s = _launch(s)
    assert s["players"][0]["stage"] == "fix"
    assert ids(s, 0) == ["rm.7.6", "fix"]  # the legal tiles are not offered
    before = GAME.dump(s)
    for cell in ("7.8", "7.7"):
        with pytest.raises(IllegalMove) as exc:
            GAME.apply(s, 0, f"rm.{cell}")  # a forged click on a legal tile
        assert exc.value.code == "galaxy_trucker.error.legal_tile"
    assert GAME.dump(s) == before
    s = play(s, 0, "rm.7.6")
    assert s["players"][0]["stage"] == "ready"


def test_r10b_rules_1_states_may_still_remove_any_tile():
    s = new()
    del s["rules"]
    for tid in (STRUCT_UU01, ENGINE_1000):
        s["facedown"].remove(tid)
    s["players"][0]["ship"]["7.8"] = [STRUCT_UU01, 0]
    s["players"][0]["ship"]["7.6"] = [ENGINE_1000, 1]
    s = _launch(s)
    assert "rm.7.8" in ids(s, 0)
    s = play(s, 0, "rm.7.8")
    assert s["players"][0]["stage"] == "fix"


def test_r12_aliens_next_to_life_support_and_not_in_the_learning_flight():
    for level, expect in (("I", True), ("learning", False)):
        s = new(level=level)
        p = s["players"][0]
        for tid in (CABIN_0_1_U_0, LIFE_BROWN_000U):
            s["facedown"].remove(tid)
        p["ship"]["7.6"] = [CABIN_0_1_U_0, 2]  # 020U turned twice: U on the right, 2 left
        p["ship"]["7.5"] = [LIFE_BROWN_000U, 2]  # 000U turned twice: U on the right
        s["piles"] = [["2E-I-04"]] * 4  # stardust only: nothing is destroyed
        s = _launch(s)
        if not expect:
            assert s["phase"] in ("flight", "over")
            assert all(v is None for v in s["players"][0]["aliens"].values())
            continue
        assert s["players"][0]["stage"] == "alien.brown"
        d = decision(s, 0)
        assert [o.id for o in d.options] == ["alien.brown.7.6", "noalien"]
        s = play(s, 0, "alien.brown.7.6")
        assert s["phase"] in ("flight", "over")
        q = s["players"][0]
        assert q["aliens"] == {"brown": "7.6"}
        assert q["crew"] == {"7.7": 2}


def test_r12_crew_and_batteries():
    s = new()
    p = s["players"][0]
    s["facedown"].remove(BATT_000U)
    p["ship"]["7.8"] = [BATT_000U, 0]
    s = _launch(s)
    q = s["players"][0]
    assert q["crew"] == {"7.7": 2} and q["batteries"] == {"7.8": 2}


def test_bad_input_is_refused_and_changes_nothing():
    s = new()
    before = GAME.dump(s)
    for seat, choice in [
        (0, "place.7.8"),
        (0, "nonsense"),
        (5, "draw"),
        (0, "take.x"),
        (0, "peek.3"),
        (0, "use.1"),
        (1, "unpeek"),
        (0, "rm.7.7"),
    ]:
        with pytest.raises(IllegalMove):
            GAME.apply(s, seat, choice)
    assert GAME.dump(s) == before


def test_dump_load_round_trip_and_refuses_lost_tiles():
    s = play(new(), 0, "draw")
    assert GAME.load(GAME.dump(s)) == s
    broken = GAME.dump(s)
    broken["facedown"].pop()
    with pytest.raises(ValueError):
        GAME.load(broken)


def test_states_stored_before_the_new_rulings_still_load():
    """A state without ``rules`` (stored before R10b, R11b, R26b) loads and keeps the first
    rulings; an unknown rules version is refused."""
    s = new()
    assert s["rules"] == engine.RULES == 2
    old = GAME.dump(s)
    del old["rules"]
    assert engine.rules_of(GAME.load(old)) == 1
    bad = {**GAME.dump(s), "rules": 9}
    with pytest.raises(ValueError):
        GAME.load(bad)
