"""MLEM core rules: the rulebook's own examples, the voyage flow, abilities, scoring, ends."""

from __future__ import annotations

import pytest

from core.contract import Game, IllegalMove, check_option_id
from rules.mlem import GAME, engine
from tests.rules.mlem_kit import (
    ScriptedDice,
    act,
    codes,
    explore_state,
    fresh,
    only_decision,
    options,
    place,
    refused,
)

# --------------------------------------------------------------------------- contract


def test_game_object_matches_the_contract():
    assert isinstance(GAME, Game)
    assert GAME.id == "mlem"
    assert GAME.name == "mlem.name"
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    assert [o.id for o in GAME.options] == ["ufo", "recon", "missions"]
    for spec in GAME.options:
        assert spec.choices == ("off", "on")
        assert spec.default == "off"
        assert spec.label == f"mlem.opt.{spec.id}"


@pytest.mark.parametrize("players", [1, 6, 0])
def test_player_count_is_checked(players):
    with pytest.raises(ValueError):
        GAME.new(players, {}, 1)


def test_bad_option_value_is_refused():
    with pytest.raises(ValueError):
        GAME.new(3, {"ufo": "maybe"}, 1)


def test_new_game_starts_with_launch_from_a_seeded_start_player():
    s = fresh(4, seed=7)
    v = GAME.view(s, None)
    assert v["phase"] == "mlem.phase.launch"
    assert v["round"] == 1
    assert v["rocket"]["space"] == 0 and v["rocket"]["crew"] == []
    d = only_decision(s)
    assert d.seat == v["start_seat"] == v["commander"]
    assert {o.id for o in d.options} == {f"board.{a}" for a in engine.ABILITIES}
    assert all(check_option_id(o.id) for o in d.options)
    assert fresh(4, seed=7) == s  # same seed, same set-up
    starts = {fresh(4, seed=k)["start"] for k in range(40)}
    assert starts == {0, 1, 2, 3}


def test_launch_goes_round_the_table_from_the_start_player(monkeypatch):
    ScriptedDice(monkeypatch, [1, 1, 2, 2, 4, 4])
    s = fresh(4, seed=3)
    start = s["start"]
    order = []
    for k in range(4):
        d = only_decision(s)
        assert d.seat == (start + k) % 4
        order.append(d.seat)
        s, ev = act(s, d.seat, "board.shifter" if k else "board.booster")
        assert codes(ev)[0] == ("board.shifter" if k else "board.booster")
    crew = GAME.view(s, None)["rocket"]["crew"]
    assert [c["seat"] for c in crew] == order
    assert crew[0] == {"seat": start, "astronaut": "booster", "used": False}
    assert s["phase"] == "explore" and s["roll"] == [1, 1, 2, 2, 4, 4]
    assert "shifter" not in s["board"][(start + 1) % 4]


def test_wrong_seat_and_unoffered_choices_are_refused():
    s = fresh(3, seed=2)
    seat = only_decision(s).seat
    assert refused(s, (seat + 1) % 3, "board.booster") == "mlem.error.not_your_turn"
    assert refused(s, seat, "board.nothing") == "mlem.error.not_offered"
    assert refused(s, seat, "go.1") == "mlem.error.not_offered"
    before = GAME.dump(s)
    with pytest.raises(IllegalMove):
        GAME.apply(s, seat, "stay")
    assert GAME.dump(s) == before  # input untouched


# --------------------------------------------------------------------------- exploration


def test_rulebook_exploration_example_six_dice(monkeypatch):
    """Rulebook: 6 dice make 4 groups; only the afterburner and the 1s fit the space; using
    both moves 1x1 + 2x1 = 3 spaces; either group alone is also allowed."""
    ScriptedDice(monkeypatch, ["A", "A", 1, 2])
    roll = ["A", 1, 1, 3, 4, 4]
    s = explore_state([(0, "shifter"), (1, "moon_doubler"), (2, "planet_doubler")], roll=roll)
    assert len(set(roll)) == 4
    v = GAME.view(s, None)
    assert v["dice"]["usable"] == [True, True, True, False, False, False]
    d = only_decision(s)
    assert d.seat == 0 and d.prompt == "mlem.prompt.explore"
    steps = {o.id: o.args["steps"] for o in d.options}
    assert steps == {"go.A": 1, "go.1": 2, "go.A+1": 3}
    s, ev = act(s, 0, "go.A+1")
    assert s["space"] == 3
    # the two 1s are discarded, the afterburner comes back: 4 dice rolled next
    assert s["pool"] == 4 and s["disc"] == 2
    assert codes(ev)[:3] == ["move", "discard", "roll"]


def test_rulebook_discard_example_afterburners_never_discarded(monkeypatch):
    """Rulebook: two afterburner dice and one 1 were used; only the 1 is discarded."""
    ScriptedDice(monkeypatch, ["A", "A", 3, 3, 3])
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, roll=["A", "A", 1, 3, 3, 4])
    s, _ = act(s, 0, "go.A+1")
    assert s["space"] == 3
    assert (s["pool"], s["disc"]) == (5, 1)


def test_whole_group_must_be_used_and_movement_is_the_sum():
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=12, roll=[2, 2, 4, "A"])
    steps = {o.id: o.args["steps"] for o in only_decision(s).options}
    # space 12 accepts A (worth 2), 2 and 4
    assert steps == {
        "go.A": 2,
        "go.2": 4,
        "go.4": 4,
        "go.A+2": 6,
        "go.A+4": 6,
        "go.2+4": 8,
        "go.A+2+4": 10,
    }


def test_afterburner_value_is_the_current_space(monkeypatch):
    ScriptedDice(monkeypatch, [3])
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=9, roll=["A", "A", 1])
    assert {o.id: o.args["steps"] for o in only_decision(s).options} == {"go.A": 6}
    s, _ = act(s, 0, "go.A")
    assert s["space"] == 15


def test_at_least_one_die_is_always_kept(monkeypatch):
    ScriptedDice(monkeypatch, [4])
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=0, roll=[1, 1])
    s, ev = act(s, 0, "go.1")
    assert (s["pool"], s["disc"]) == (1, 5)
    assert "take_back" in codes(ev)


def test_crash_when_nothing_fits(monkeypatch):
    """Rulebook crash example: no rolled face matches the space."""
    dice = ScriptedDice(monkeypatch, [4, 4, 1, 1, 2])
    s = explore_state(
        [(0, "shifter"), (1, "moon_doubler"), (2, "booster")], space=0, roll=[1, 2, 3, 3, 4, 4]
    )
    s, ev = act(s, 0, "go.1")  # to space 1, which accepts only the afterburner and 3
    assert not dice.rolls
    assert "crash" in codes(ev)
    assert s["disasters"] == 1
    assert s["phase"] == "launch"  # next voyage
    assert s["start"] == 1  # the rocket passes to the next seat
    assert s["voyage"] == 2
    assert all(len(b) == 8 for b in s["board"])  # everyone went home
    crash = next(e for e in ev if e.code == "mlem.event.crash")
    assert crash.args == {"seat": 0, "disasters": 1, "space": 1}


def test_no_landing_phase_on_spaces_0_to_5(monkeypatch):
    ScriptedDice(monkeypatch, ["A", 3])
    s = explore_state(
        [(0, "moon_doubler"), (1, "planet_doubler")], n=2, space=0, roll=[2, 2, 3, 3]
    )
    s, _ = act(s, 0, "go.2")
    assert s["space"] == 4 and s["phase"] == "explore"
    assert only_decision(s).seat == 0


def test_moving_past_25_reaches_deep_space(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state(
        [(0, "shifter"), (1, "deep_doubler"), (2, "planet_doubler")],
        space=24,
        roll=["A", "A"],
    )
    s, ev = act(s, 0, "go.A")
    assert codes(ev)[:4] == ["move", "land_comet", "land_galaxy", "land_galaxy"]
    assert s["deep"] == {
        "comet": [[0, "shifter"]],
        "galaxy": [[1, "deep_doubler"], [2, "planet_doubler"]],
    }
    assert s["dpts"] == [7, 10, 5]
    assert GAME.view(s, None)["scores"] == [7, 10, 5]
    assert s["phase"] == "launch" and s["voyage"] == 2


# --------------------------------------------------------------------------- landing


def _to_space_6(monkeypatch, crew, n=3):
    ScriptedDice(monkeypatch)
    s = explore_state(crew, n=n, space=5, roll=[1])
    return act(s, crew[0][0], "go.1")


def test_landing_in_rocket_order_and_moons_fill_from_the_farthest(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "saboteur"), (1, "planet_doubler"), (2, "satellite")])
    d = only_decision(s)
    assert d.seat == 0 and d.prompt == "mlem.prompt.land_moon"
    assert [o.id for o in d.options] == ["land", "stay"]
    assert d.option("land").args["points"] == 2  # M1 = [1, 2]: the 2-moon first
    s, ev = act(s, 0, "land")
    assert s["moons"]["M1"] == [None, [0, "saboteur"]]
    assert GAME.view(s, None)["scores"] == [2, 0, 0]  # moons score at once
    assert "commander" in codes(ev)
    assert only_decision(s).seat == 1
    s, _ = act(s, 1, "land")
    assert s["moons"]["M1"] == [[1, "planet_doubler"], [0, "saboteur"]]
    # moons full: seat 2 cannot land, so it is not asked; exploration goes on with seat 2
    assert s["phase"] == "explore"
    assert only_decision(s).seat == 2
    assert GAME.view(s, None)["commander"] == 2


def test_staying_keeps_the_order(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "shifter"), (1, "planet_doubler"), (2, "satellite")])
    s, ev = act(s, 0, "stay")
    assert codes(ev) == ["stay"]
    s, _ = act(s, 1, "stay")
    s, _ = act(s, 2, "stay")
    assert s["phase"] == "explore" and only_decision(s).seat == 0


def test_commander_change_hands_over_the_dice(monkeypatch):
    dice = ScriptedDice(monkeypatch)
    s = explore_state(
        [(0, "shifter"), (1, "planet_doubler"), (2, "satellite")], space=5, roll=[1, 1, 4, 4, 4]
    )
    s, _ = act(s, 0, "go.1")  # 2 dice discarded -> 3 left, space 7 (planet P1)
    assert (s["space"], s["pool"]) == (7, 3)
    dice.add([3, 3, 3])
    s, ev = act(s, 0, "land")
    assert codes(ev) == ["land_planet.P1", "commander"]
    assert ev[-1].args == {"seat": 1, "pool": 3}
    s, _ = act(s, 1, "stay")
    s, ev = act(s, 2, "stay")
    roll = next(e for e in ev if e.code == "mlem.event.roll")
    assert roll.seat == 1 and roll.args["faces"] == [3, 3, 3]
    v = GAME.view(s, None)
    assert v["commander"] == 1 and v["dice"]["pool"] == 3
    assert v["rocket"]["crew"][0]["seat"] == 1
    assert v["start_seat"] == 0  # the voyage still belongs to its starting player


def test_planet_rows_in_arrival_order(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "shifter"), (1, "planet_doubler"), (2, "satellite")])
    s = engine.clone(s)
    place(s, 2, "booster", "P2")
    place(s, 0, "booster", "P2")
    place(s, 2, "moon_doubler", "P2")
    place(s, 1, "booster", "P2")
    assert GAME.view(s, None)["planets"]["P2"] == [[2, 2], [0, 1], [1, 1]]


def test_rulebook_planet_scoring_example_5_3_2():
    """Rulebook: blue has most astronauts (5); yellow, red and green have one each; yellow
    arrived first so takes 3; the others take 2 each. P2 is the 5/3/2 planet."""
    blue, yellow, red, green = 0, 1, 2, 3
    s = engine.clone(fresh(4))
    place(s, yellow, "booster", "P2")
    place(s, blue, "booster", "P2")
    place(s, red, "booster", "P2")
    place(s, blue, "shifter", "P2")
    place(s, green, "booster", "P2")
    assert engine.planet_awards(s, "P2") == [(blue, 5), (yellow, 3), (red, 2), (green, 2)]
    parts = engine.breakdown_of(s)
    assert [p["planets"] for p in parts] == [5, 3, 2, 2]


def test_planet_tie_goes_to_the_earlier_arrival():
    s = engine.clone(fresh(3))
    place(s, 2, "booster", "P3")
    place(s, 1, "booster", "P3")
    place(s, 1, "shifter", "P3")
    place(s, 2, "shifter", "P3")
    place(s, 0, "shifter", "P3")
    # seats 2 and 1 both have 2; seat 2 landed first
    assert engine.planet_awards(s, "P3") == [(2, 7), (1, 4), (0, 2)]


def test_planet_points_only_at_game_end():
    s = engine.clone(fresh(2))
    place(s, 0, "booster", "P5")
    assert GAME.view(s, None)["scores"] == [0, 0]
    s["phase"] = "over"
    assert GAME.view(s, None)["scores"] == [11, 0]
    assert GAME.result(s).breakdown[0]["planets"] == 11


# --------------------------------------------------------------------------- objectives


def test_objective_four_moons(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "shifter"), (1, "planet_doubler")], n=2)
    s = engine.clone(s)
    place(s, 0, "booster", "M3", 2)
    place(s, 0, "moon_doubler", "M4", 1)
    place(s, 0, "satellite", "M9", 2)
    s, ev = act(s, 0, "land")
    assert "objective.four_moons" in codes(ev)
    assert s["obj"]["four_moons"] == 0
    assert GAME.view(s, None)["objectives"]["four_moons"] == 0
    assert GAME.view(s, None)["scores"][0] == 2 + 5  # placed by hand: only the new moon


def test_objectives_planets_and_deep_space(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(1, "shifter"), (0, "booster"), (2, "saboteur")], space=25, roll=["A"])
    for p in ("P1", "P2", "P3"):
        place(s, 0, {"P1": "satellite", "P2": "parachute", "P3": "moon_doubler"}[p], p)
    place(s, 0, "planet_doubler", "P1")
    place(s, 1, "booster", "galaxy")
    place(s, 0, "deep_doubler", "galaxy")
    # seat 1 is commander, arrives first: it claims "two in deep space" before seat 0
    s, ev = act(s, 1, "go.A")
    assert s["obj"]["two_deep"] == 1
    assert s["obj"]["four_planets"] is None
    assert "objective.two_deep" in codes(ev)
    s2 = engine.clone(s)
    place(s2, 0, "shifter", "P1")
    engine._check_objectives(s2, [], 0)
    assert s2["obj"]["three_on_planet"] == 0
    place(s2, 0, "saboteur", "P4")
    engine._check_objectives(s2, [], 0)
    assert s2["obj"]["four_planets"] == 0


def test_objective_is_claimed_once(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(1, "shifter"), (0, "planet_doubler")], n=2)
    s = engine.clone(s)
    s["obj"]["four_moons"] = 0
    for g, i, a in (("M3", 2, "booster"), ("M4", 1, "moon_doubler"), ("M9", 2, "satellite")):
        place(s, 1, a, g, i)
    s, ev = act(s, 1, "land")
    assert s["obj"]["four_moons"] == 0
    assert not [c for c in codes(ev) if c.startswith("objective")]


# --------------------------------------------------------------------------- abilities


def _boarded(monkeypatch, first_pick: str, second_pick: str):
    """A two-player game once both have boarded (the first player first), the dice known."""
    ScriptedDice(monkeypatch, ["A", 1, 2, 2, 3, 4])
    s = fresh(2, seed=5)
    first = s["start"]
    s, _ = act(s, first, f"board.{first_pick}")
    return act(s, 1 - first, f"board.{second_pick}")


def test_satellite_starts_on_space_3(monkeypatch):
    s, ev = _boarded(monkeypatch, "satellite", "satellite")
    assert "satellite" in codes(ev)
    assert s["space"] == 3
    roll = next(e for e in ev if e.code == "mlem.event.roll")
    assert roll.args["space"] == 3


def test_without_satellite_start_on_0(monkeypatch):
    s, _ = _boarded(monkeypatch, "booster", "shifter")
    assert s["space"] == 0


def test_shifter_lands_one_space_either_way(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=12, roll=[2])
    s, _ = act(s, 0, "go.2")  # space 14: moons M5 [3, 4]; 13 -> M4 [3, 4]; 15 -> M6 [4, 5]
    d = only_decision(s)
    targets = {o.id: (o.label, dict(o.args)) for o in d.options}
    assert set(targets) == {"land", "land.down", "land.up", "stay"}
    assert targets["land.up"] == (
        "mlem.opt.shift_moon",
        {"body": "M6", "points": 5, "space": 15, "shift": "+1"},
    )
    assert targets["land.down"][1]["body"] == "M4"
    s, ev = act(s, 0, "land.up")
    assert codes(ev)[:2] == ["shift.up", "land_moon"]
    assert s["moons"]["M6"] == [None, [0, "shifter"]]
    assert s["mpts"][0] == 5


def test_shifter_plus_one_from_25_is_galaxy_5(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=23, roll=[2])
    s, _ = act(s, 0, "go.2")  # space 25
    d = only_decision(s)
    assert d.option("land.up").label == "mlem.opt.shift_deep"
    assert d.option("land.up").args["points"] == 5
    s, ev = act(s, 0, "land.up")
    assert s["deep"]["galaxy"] == [[0, "shifter"]] and s["deep"]["comet"] == []
    assert s["dpts"][0] == 5
    assert "land_galaxy" in codes(ev)


def test_shifter_cannot_reach_space_5_or_twice_the_same_planet(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "shifter"), (1, "moon_doubler")], n=2)
    assert set(options(s)) == {"land", "land.up", "stay"}  # 5 has nothing to land on
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "moon_doubler")], n=2, space=4, roll=[3])
    s, _ = act(s, 0, "go.3")  # space 7 = P1, and space 8 is P1 too
    assert set(options(s)) == {"land", "land.down", "stay"}


def test_parachute_lands_after_a_crash(monkeypatch):
    ScriptedDice(monkeypatch, [2, 2])
    s = explore_state(
        [(0, "parachute"), (1, "moon_doubler"), (2, "parachute")], space=4, roll=[3, 1, 1]
    )
    s, _ = act(s, 0, "go.3")  # space 7 (P1): everybody stays
    for seat in (0, 1, 2):
        s, _ = act(s, seat, "stay")
    # the roll [2, 2] does not fit space 7 (A, 3, 4): crash
    assert s["phase"] == "chute" and s["disasters"] == 1
    assert GAME.view(s, None)["commander"] is None  # the voyage is over; only jumps remain
    d = only_decision(s)
    assert d.seat == 0 and d.prompt.startswith("mlem.prompt.parachute_")
    assert [o.id for o in d.options] == ["chute.land", "chute.back"]
    assert s["board"][1] == list(engine.ABILITIES)  # non-parachutists went home
    s, ev = act(s, 0, "chute.land")
    assert codes(ev)[:2] == ["parachute", "land_planet.P1"]
    s, ev = act(s, 2, "chute.back")
    assert "chute_back" in codes(ev)
    assert s["planets"]["P1"] == [[0, "parachute"]]
    assert "parachute" in s["board"][2]
    assert s["phase"] == "launch" and s["voyage"] == 2


def test_parachute_without_a_free_moon_goes_home():
    s = explore_state([(0, "parachute"), (1, "moon_doubler")], n=2, space=6, roll=[1])
    place(s, 1, "booster", "M1", 0)
    place(s, 1, "shifter", "M1", 1)
    assert options(s) == ["crash"]
    s, ev = act(s, 0, "crash")
    assert "chute_none" in codes(ev)
    assert s["phase"] == "launch" and "parachute" in s["board"][0]


def test_parachute_on_a_moon_scores_it():
    s = explore_state([(1, "moon_doubler"), (0, "parachute")], n=2, space=9, roll=[4])
    s, _ev = act(s, 1, "crash")
    assert only_decision(s).option("chute.land").args["points"] == 3
    s, _ = act(s, 0, "chute.land")
    assert s["moons"]["M2"] == [None, [0, "parachute"]]
    assert s["mpts"] == [3, 0]


def test_moon_doubler_doubles_the_moon(monkeypatch):
    s, _ = _to_space_6(monkeypatch, [(0, "moon_doubler"), (1, "shifter")], n=2)
    assert only_decision(s).option("land").args["points"] == 4
    s, ev = act(s, 0, "land")
    assert s["mpts"][0] == 4
    assert ev[0].args["points"] == 4


def test_planet_doubler_doubles_the_award_once():
    s = engine.clone(fresh(2))
    place(s, 0, "planet_doubler", "P4")
    place(s, 0, "booster", "P4")
    place(s, 1, "booster", "P4")
    assert engine.planet_awards(s, "P4") == [(0, 18), (1, 5)]
    s2 = engine.clone(fresh(2))
    place(s2, 1, "booster", "P4")
    place(s2, 0, "planet_doubler", "P4")
    assert engine.planet_awards(s2, "P4") == [(1, 9), (0, 10)]


def test_deep_space_doubler_on_comet_is_14(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "deep_doubler"), (1, "shifter")], n=2, space=25, roll=["A"])
    s, _ = act(s, 0, "go.A")
    assert s["dpts"] == [14, 5]


def test_saboteur_costs_the_commander_a_die(monkeypatch):
    dice = ScriptedDice(monkeypatch)
    s = explore_state(
        [(0, "shifter"), (1, "saboteur"), (2, "booster")], space=5, roll=[1, 4, 4, 4]
    )
    s, _ = act(s, 0, "go.1")
    assert s["pool"] == 3
    s, _ = act(s, 0, "stay")
    dice.add([2, 2])
    s, ev = act(s, 1, "land")
    assert "saboteur" in codes(ev)
    sab = next(e for e in ev if e.code == "mlem.event.saboteur")
    assert sab.args == {"seat": 1, "commander_seat": 0, "pool": 2}
    assert (s["pool"], s["disc"]) == (2, 4)


def test_saboteur_never_takes_the_last_die(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=5, roll=[1])
    s, _ = act(s, 0, "go.1")
    s, _ = act(s, 0, "stay")
    s, ev = act(s, 1, "land")
    assert "saboteur_none" in codes(ev)
    assert s["pool"] == 1


def test_commanders_own_saboteur_discards_then_passes_command(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "saboteur"), (1, "shifter")], n=2, space=5, roll=[1, 4, 4])
    s, _ = act(s, 0, "go.1")
    s, ev = act(s, 0, "land")
    assert codes(ev)[:3] == ["land_moon", "saboteur", "commander"]
    assert ev[1].args["commander_seat"] == 0
    assert ev[2].args == {"seat": 1, "pool": 1}


def test_booster_is_a_die_of_value_1_once_per_voyage(monkeypatch):
    dice = ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "booster")], n=2, space=0, roll=[1, 3])
    steps = {o.id: o.args["steps"] for o in only_decision(s).options}
    assert steps == {"go.1": 1, "go.b1": 1, "go.1+b1": 2}
    assert only_decision(s).option("go.1+b1").args["dice"] == "1 🐱"
    dice.add([3, 3])
    s, ev = act(s, 0, "go.b1")
    assert codes(ev)[:2] == ["move", "booster"]
    assert s["space"] == 1 and (s["pool"], s["disc"]) == (2, 4)
    assert GAME.view(s, None)["rocket"]["crew"][1]["used"] is True
    assert GAME.view(s, None)["boards"][1]["boosters_used"] == 1
    # later in the same voyage, on a space showing a 1, the used booster is gone
    s = engine.clone(s)
    s["space"], s["roll"], s["pool"], s["disc"] = 8, [1], 1, 5
    assert set(options(s)) == {"go.1"}


def test_booster_needs_a_space_showing_1():
    s = explore_state([(0, "shifter"), (1, "booster")], n=2, space=1, roll=[3])
    assert options(s) == ["go.3"]


def test_several_boosters_in_one_phase_and_as_a_rescue():
    s = explore_state([(0, "booster"), (1, "booster"), (2, "shifter")], space=5, roll=[2, 3])
    d = only_decision(s)
    assert d.prompt == "mlem.prompt.rescue"
    assert [o.id for o in d.options] == ["go.b0", "go.b1", "go.b01", "crash"]
    # using one of two boosters is a choice: the label names the owner
    assert d.option("go.b1").label == "mlem.opt.go_b1"
    assert d.option("go.b1").args == {"steps": 1, "to": 6, "dice": "", "b1_seat": 1}
    assert d.option("go.b01").label == "mlem.opt.go"
    s, _ = act(s, 0, "go.b01")
    assert s["space"] == 7
    assert [c[2] for c in s["crew"]] == [1, 1, 0]
    assert (s["pool"], s["disc"]) == (2, 4)  # boosters are not dice: nothing discarded


# --------------------------------------------------------------------------- game end


def test_eleventh_disaster_ends_the_game_at_once():
    s = explore_state([(0, "parachute"), (1, "shifter")], n=2, space=9, roll=[4])
    s["disasters"] = 10
    s, ev = act(s, 0, "crash")
    assert s["phase"] == "over" and s["end"] == "disasters"
    assert GAME.pending(s) == []
    assert "game_over.disasters" in codes(ev)
    assert GAME.view(s, None)["disasters"] == 11
    assert GAME.result(s) is not None
    assert refused(s, 0, "chute.land") == "mlem.error.game_over"


def test_all_eight_placed_finishes_the_voyage_first(monkeypatch):
    dice = ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[1, 4, 4])
    for g, i, a in (
        ("M3", 0, "satellite"),
        ("M3", 1, "parachute"),
        ("M3", 2, "moon_doubler"),
        ("M4", 0, "planet_doubler"),
        ("M4", 1, "deep_doubler"),
        ("M5", 0, "saboteur"),
        ("M5", 1, "booster"),
    ):
        place(s, 0, a, g, i)
    s, _ = act(s, 0, "go.1")
    dice.add([3, 3])
    s, ev = act(s, 0, "land")
    assert "last_voyage" in codes(ev)
    assert s["final"] and s["phase"] == "land"
    s, ev = act(s, 1, "stay")
    assert s["phase"] == "explore"  # seat 1 goes on alone
    v = GAME.view(s, None)
    assert v["last_voyage"] and v["boards"][0] == {"left": [], "placed": 8, "boosters_used": 0}
    s, ev = act(s, 1, "go.3")  # space 12
    s, ev = act(s, 1, "land")
    assert s["phase"] == "over" and s["end"] == "placed"
    assert "game_over.placed" in codes(ev)


def test_result_shares_ties_and_breakdown_adds_up():
    s = engine.clone(fresh(3))
    s["mpts"] = [6, 6, 2]
    s["phase"] = "over"
    r = GAME.result(s)
    assert r.scores == (6, 6, 2)
    assert r.ranks == (1, 1, 3)
    assert r.winners == (0, 1)
    for total, parts in zip(r.scores, r.breakdown, strict=True):
        assert set(parts) == set(engine.PARTS)
        assert sum(parts.values()) == total


def test_result_is_none_while_playing():
    assert GAME.result(fresh(2)) is None


# --------------------------------------------------------------------------- persistence


def test_dump_load_round_trip_and_rejects_nonsense():
    s = fresh(3, seed=11, ufo="on", recon="on", missions="on")
    data = GAME.dump(s)
    assert data["schema"] == 1
    assert GAME.dump(GAME.load(data)) == data
    import json

    assert GAME.dump(GAME.load(json.loads(json.dumps(data)))) == data
    for bad in (
        {},
        {**data, "schema": 99},
        {**data, "n": 9},
        {**data, "pool": -1},
        {**data, "disasters": 12},
        {**data, "board": data["board"][:2]},
        {**data, "phase": "nap"},
    ):
        with pytest.raises(ValueError):
            GAME.load(bad)
    dup = GAME.dump(s)
    dup["board"][0].append("booster")
    with pytest.raises(ValueError):
        GAME.load(dup)


def test_apply_never_mutates_its_input(monkeypatch):
    ScriptedDice(monkeypatch)
    s = explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[1, 4])
    before = GAME.dump(s)
    act(s, 0, "go.1+4")
    assert GAME.dump(s) == before
