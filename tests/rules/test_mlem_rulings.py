"""One test (at least) per ruling listed in the :mod:`rules.mlem` docstring (R1..R32)."""

from __future__ import annotations

import re
from pathlib import Path

import rules.mlem
from core.contract import IllegalMove, join_picks
from rules.mlem import GAME, engine
from tests.rules import mlem_kit as kit


def test_every_ruling_is_written_down_and_tested_here():
    doc = rules.mlem.__doc__
    written = {int(n) for n in re.findall(r"^R(\d+)\. ", doc, re.M)}
    assert written == set(range(1, 33))
    source = Path(__file__).read_text(encoding="utf-8")
    tested = {int(n) for n in re.findall(r"^def test_r(\d\d)_", source, re.M)}
    assert tested == written


def test_r01_satellite_space_3_even_with_two(monkeypatch):
    kit.ScriptedDice(monkeypatch, ["A", "A", "A", "A", "A", "A"])
    s = kit.fresh(3, seed=2)
    first = s["start"]
    s, _ = kit.act(s, first, "board.satellite")
    assert s["space"] == 0  # decided once everybody has boarded
    s, _ = kit.act(s, (first + 1) % 3, "board.satellite")
    s, _ = kit.act(s, (first + 2) % 3, "board.shifter")
    assert s["space"] == 3


def test_r02_no_passing_when_something_fits():
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=0, roll=[1, 3, 4])
    assert all(o.startswith("go.") for o in kit.options(s))


def test_r03_rescues_are_optional_and_bare_failures_crash_by_themselves(monkeypatch):
    s = kit.explore_state([(0, "booster"), (1, "shifter")], n=2, space=5, roll=[2])
    assert kit.options(s) == ["go.b0", "crash"]
    kit.ScriptedDice(monkeypatch, [2, 2, 2])
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=4, roll=["A", 3, 3])
    s, ev = kit.act(s, 0, "go.A")  # space 5 accepts 1 and 4 only; no rescue: crash at once
    assert kit.codes(ev)[1:3] == ["roll", "crash"]
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=[1], ufo="on")
    s["exp"]["tile"], s["exp"]["avail"] = "E1", True
    assert kit.options(s) == ["go.1", "reroll"]  # reroll allowed on a roll that fits


def test_r04_boosters_alone_several_and_the_commander_picks_which(monkeypatch):
    kit.ScriptedDice(monkeypatch, [3])
    s = kit.explore_state([(2, "booster"), (0, "shifter"), (1, "booster")], space=0, roll=[3])
    assert kit.options(s) == ["go.b1", "go.b2", "go.b12", "crash"]
    s2, ev = kit.act(s, 2, "go.b1")  # seat 1's booster (bottom seat), not the commander's own
    assert [c[2] for c in s2["crew"]] == [0, 0, 1]
    assert ev[1].args["owner_seat"] == 1
    later = engine.clone(s2) | {"space": 0, "roll": [1]}
    assert set(kit.options(later)) == {"go.1", "go.b2", "go.1+b2"}
    s = kit.explore_state([(2, "booster"), (0, "shifter"), (1, "booster")], space=0, roll=[1])
    assert set(kit.options(s)) == {
        "go.1",
        "go.b1",
        "go.b2",
        "go.b12",
        "go.1+b1",
        "go.1+b2",
        "go.1+b12",
    }


def test_r05_comet_goes_to_the_current_commander(monkeypatch):
    kit.ScriptedDice(monkeypatch, ["A"])
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[1, 4])
    s, _ = kit.act(s, 0, "go.1")  # space 6
    s, _ = kit.act(s, 0, "land")  # seat 1 commands now
    s, _ = kit.act(s, 1, "stay")
    s = engine.clone(s)
    s["space"], s["roll"] = 25, ["A"]
    s, _ = kit.act(s, 1, "go.A")
    assert s["deep"]["comet"] == [[1, "booster"]] and s["dpts"][1] == 7
    assert s["start"] == 1  # (next voyage) - seat 0 started the previous one


def test_r06_shifter_only_in_landing_and_counts_the_real_body(monkeypatch):
    s = kit.explore_state([(0, "shifter"), (1, "parachute")], n=2, space=6, roll=[1])
    s, _ = kit.act(s, 0, "crash")
    assert s["phase"] == "chute" and kit.only_decision(s).seat == 1  # the shifter went home
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=12, roll=[2], missions="on")
    s["missions"]["kept"][0] = ["15", "14", "13"]
    s, _ = kit.act(s, 0, "go.2")  # space 14
    s, _ = kit.act(s, 0, "land.up")  # lands on the moons of 15
    assert engine.missions_done(s, 0) == [("15", True), ("14", False), ("13", False)]


def test_r07_shifter_from_25_counts_as_deep_space(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=23, roll=[2])
    kit.place(s, 0, "satellite", "galaxy")
    s, _ = kit.act(s, 0, "go.2")
    s, ev = kit.act(s, 0, "land.up")
    assert "objective.two_deep" in kit.codes(ev)
    assert s["dpts"][0] == 5


def test_r08_parachutes_in_rocket_order_count_for_objectives():
    s = kit.explore_state([(1, "shifter"), (0, "parachute"), (2, "parachute")], space=9, roll=[4])
    for g, i, a in (("M3", 0, "booster"), ("M4", 0, "satellite"), ("M5", 0, "shifter")):
        kit.place(s, 0, a, g, i)
    s, _ = kit.act(s, 1, "crash")
    assert kit.only_decision(s).seat == 0
    s, ev = kit.act(s, 0, "chute.land")
    assert s["moons"]["M2"][1] == [0, "parachute"]  # the 3-moon
    assert "objective.four_moons" in kit.codes(ev)
    assert kit.only_decision(s).option("chute.land").args["points"] == 2  # seat 2: the 2-moon


def test_r09_saboteur_no_discard_in_deep_space(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=25, roll=["A", "A"])
    s, ev = kit.act(s, 0, "go.A")
    assert "saboteur" not in kit.codes(ev)


def test_r10_first_in_rocket_order_claims_an_objective(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(1, "shifter"), (0, "booster")], n=2, space=25, roll=["A"])
    kit.place(s, 0, "satellite", "galaxy")
    kit.place(s, 1, "satellite", "galaxy")
    s, ev = kit.act(s, 1, "go.A")
    assert s["obj"]["two_deep"] == 1
    assert [c for c in kit.codes(ev) if c.startswith("objective")] == ["objective.two_deep"]


def test_r11_planet_doubler_once_per_planet():
    s = engine.clone(kit.fresh(2))
    kit.place(s, 0, "planet_doubler", "P2")
    kit.place(s, 0, "booster", "P2")
    kit.place(s, 0, "shifter", "P2")
    assert engine.planet_awards(s, "P2") == [(0, 10)]


def test_r12_unused_tile_power_lost_at_voyage_end():
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=6, roll=[1], ufo="on")
    s["exp"]["tile"], s["exp"]["avail"] = "E3", True
    s["exp"]["deck"] = []
    s, _ = kit.act(s, 0, "crash")
    assert s["exp"]["tile"] is None and s["exp"]["avail"] is False


def test_r13_tile_revealed_before_boarding():
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=6, roll=[1], ufo="on")
    s["exp"]["deck"] = ["E12"]
    s, ev = kit.act(s, 0, "crash")
    assert kit.codes(ev)[-3:] == ["voyage", "expedition.extra", "ufo_move"]
    assert s["phase"] == "launch" and s["crew"] == []
    assert GAME.view(s, None)["expedition"]["tile"]["id"] == "E12"


def test_r14_ufo_floor_and_empty_stack(monkeypatch):
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=6, roll=[1], ufo="on")
    s["exp"]["deck"] = ["E14"]
    s["ufo"]["space"] = 2
    s, _ = kit.act(s, 0, "crash")
    assert s["ufo"]["space"] == 1
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[4], ufo="on")
    s["ufo"]["space"], s["ufo"]["tiles"] = 9, []
    s, ev = kit.act(s, 0, "go.4")
    assert "ufo_empty" in kit.codes(ev) and s["ufo"]["taken"] == [[], []]


def test_r15_ufo_in_deep_space_met_before_landing(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=25, roll=["A"], ufo="on")
    s["ufo"]["space"] = 26
    s, ev = kit.act(s, 0, "go.A")
    c = kit.codes(ev)
    assert c.index("ufo_encounter") < c.index("land_comet")
    assert s["ufo"]["taken"][0] == [5]


def test_r16_order_discard_recon_ufo_landing(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state(
        [(0, "shifter"), (1, "booster")], n=2, space=0, roll=[2, 2, 3], ufo="on", recon="on"
    )
    s["recon"]["slots"] = {"4": "wormhole", "8": None, "13": None, "17": None, "21": None}
    s["recon"]["stack"] = []
    s["ufo"]["space"] = 8
    s, ev = kit.act(s, 0, "go.2")
    assert kit.codes(ev)[:5] == ["move", "discard", "wormhole", "ufo_encounter", "ufo_tile"]
    assert s["phase"] == "land" and s["space"] == 8


def test_r17_recover_a_die_set_aside_by_the_tile(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state(
        [(0, "shifter"), (1, "booster")], n=2, space=1, roll=["A", "A", "A", 3], recon="on"
    )
    assert (s["pool"], s["disc"]) == (4, 2)  # e.g. a 4-dice expedition tile
    s["recon"]["slots"]["4"] = "recover"
    s, _ = kit.act(s, 0, "go.A")
    assert (s["pool"], s["disc"]) == (5, 1)


def test_r18_keep_only_with_number_dice():
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=["A", 1], ufo="on")
    s["exp"]["tile"], s["exp"]["avail"] = "E6", True
    assert kit.options(s) == ["go.A", "go.1", "go.1+k", "go.A+1", "go.A+1+k"]


def test_r19_extra_dice_all_or_nothing_and_combinable():
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=0, roll=[2], ufo="on")
    s["exp"]["tile"], s["exp"]["avail"] = "E12", True  # pictures 2, 2
    steps = {o.id: o.args["steps"] for o in kit.only_decision(s).options}
    assert steps == {"go.2": 2, "go.x": 4, "go.2+x": 6, "go.b1": 1, "go.b1+x": 5,
                     "go.2+b1": 3, "go.2+b1+x": 7}  # fmt: skip


def test_r20_recon_on_space_4_and_refill_does_not_trigger(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=3, roll=["A"], recon="on")
    s["recon"]["slots"]["4"] = "p1"
    s["recon"]["stack"] = ["p3"]
    s, ev = kit.act(s, 0, "go.A")
    assert kit.codes(ev)[1:4] == ["recon_points", "recon_points_value", "recon_reveal.points"]
    assert s["recon"]["taken"][0] == [1] and s["recon"]["slots"]["4"] == "p3"


def test_r21_parachute_landing_can_trigger_the_end():
    s = kit.explore_state([(1, "shifter"), (0, "parachute")], n=2, space=7, roll=[1])
    for a, p in (
        ("satellite", "P2"),
        ("shifter", "P2"),
        ("moon_doubler", "P3"),
        ("planet_doubler", "P3"),
        ("deep_doubler", "P4"),
        ("saboteur", "P4"),
        ("booster", "P5"),
    ):
        kit.place(s, 0, a, p)
    s, _ = kit.act(s, 1, "crash")
    s, ev = kit.act(s, 0, "chute.land")
    assert "last_voyage" in kit.codes(ev) and s["phase"] == "over" and s["end"] == "placed"


def test_r22_eleventh_crash_no_parachute():
    s = kit.explore_state([(0, "parachute"), (1, "shifter")], n=2, space=7, roll=[1])
    s["disasters"] = 10
    s, _ = kit.act(s, 0, "crash")
    assert s["phase"] == "over" and s["planets"]["P1"] == []
    assert "parachute" in s["board"][0]


def test_r23_start_player_rotates_whoever_commanded(monkeypatch):
    kit.ScriptedDice(monkeypatch, [2])
    s = kit.explore_state([(0, "shifter"), (1, "booster"), (2, "saboteur")], space=5, roll=[1, 4])
    s, _ = kit.act(s, 0, "go.1")
    s, _ = kit.act(s, 0, "land")  # seat 1 commands; then the roll [2] crashes on space 6
    s, _ = kit.act(s, 1, "land")
    assert s["phase"] == "launch" and s["start"] == 1 and s["voyage"] == 2
    assert kit.only_decision(s).seat == 1


def test_r24_recon_values_public_on_the_track_private_once_taken(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=3, roll=["A"], recon="on")
    s["recon"]["slots"]["4"] = "p3"
    assert GAME.view(s, None)["recon"]["slots"]["4"] == {"kind": "points", "value": 3}
    s, ev = kit.act(s, 0, "go.A")
    public = [e for e in ev if e.private_to is None]
    assert all("points" not in e.args for e in public if e.code.endswith("recon_points"))
    assert GAME.view(s, 1)["private"]["hidden_points"]["recon"] == 0
    assert GAME.view(s, 0)["private"]["hidden_points"]["recon"] == 3
    assert GAME.view(s, None)["scores"] == [0, 0]


def test_r25_ufo_values_private(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[4], ufo="on")
    s["ufo"]["space"] = 9
    s, ev = kit.act(s, 0, "go.4")
    assert [e.private_to for e in ev if e.code == "mlem.event.ufo_tile"] == [0]
    assert "private" not in GAME.view(s, None)
    assert GAME.view(s, 1)["private"]["ufo_tiles"] == []
    assert GAME.view(s, 0)["private"]["ufo_tiles"] == [5]


def test_r26_recover_wasted_and_wormhole_to_deep_space(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=19, roll=[1, 1], recon="on")
    s["recon"]["slots"]["21"] = "wormhole"
    s["recon"]["stack"] = []
    s = engine.clone(s)
    s["space"] = 21
    s["roll"] = ["A", "A"]  # 21 accepts A worth 3: 21 + 6 = 27 -> deep space
    s, ev = kit.act(s, 0, "go.A")
    assert s["deep"]["comet"] == [[0, "shifter"]]
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=18, roll=[3], recon="on")
    s["recon"]["slots"]["21"] = "wormhole"
    s, ev = kit.act(s, 0, "go.3")  # 21 -> wormhole -> 25
    assert "wormhole" in kit.codes(ev) and s["space"] == 25


def test_r27_missions_before_the_first_voyage_deep_space_never_counts():
    s = kit.fresh(2, missions="on")
    assert s["phase"] == "missions" and s["voyage"] == 0
    assert {d.seat for d in GAME.pending(s)} == {0, 1}
    s = engine.clone(s)
    s["missions"]["kept"] = [["24/25", "22/23", "23"], ["6", "9", "10"]]
    kit.place(s, 0, "booster", "comet")
    assert not any(done for _m, done in engine.missions_done(s, 0))


def test_r28_past_25_is_deep_space(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=22, roll=[1, 1, 2, 2])
    s, _ = kit.act(s, 0, "go.1+2")  # 22 + 6 = 28
    assert s["dpts"] == [7, 5]


def test_r29_nobody_is_asked_without_a_choice(monkeypatch):
    kit.ScriptedDice(monkeypatch, [3])
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=5, roll=[1, 4])
    kit.place(s, 0, "satellite", "M1", 0)
    kit.place(s, 1, "satellite", "M1", 1)
    s, _ev = kit.act(s, 0, "go.1")  # space 6, moons full: seat 0 may shift +1, seat 1 nothing
    assert kit.only_decision(s).seat == 0
    assert kit.options(s) == ["land.up", "stay"]
    s, _ = kit.act(s, 0, "stay")
    assert s["phase"] == "explore"  # seat 1 was not asked


def test_r30_ties_share_the_place():
    s = engine.clone(kit.fresh(4))
    s["mpts"] = [3, 5, 5, 3]
    s["phase"] = "over"
    assert GAME.result(s).ranks == (3, 1, 1, 3)


def test_r31_crash_returns_boosters_unflipped(monkeypatch):
    kit.ScriptedDice(monkeypatch, [3])
    s = kit.explore_state([(0, "shifter"), (1, "booster")], n=2, space=0, roll=[4])
    s, _ = kit.act(s, 0, "go.b1")  # space 1, then [3]? 1 accepts 3: no crash; force one
    s = engine.clone(s)
    s["roll"] = [4]
    s, _ = kit.act(s, 0, "crash")
    assert "booster" in s["board"][1]
    assert all(b["boosters_used"] == 0 for b in GAME.view(s, None)["boards"])


BOOSTED = [(0, "shifter"), (1, "booster"), (2, "booster")]


def test_r32_many_movements_pick_the_dice_in_steps(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state(BOOSTED, n=3, space=0, roll=["A", 1, 2, "A"])
    d = kit.only_decision(s)  # 3 groups and 2 boosters: 31 movements, so the dice are picked
    assert d.prompt == "mlem.prompt.explore_pick" and d.multi
    assert [o.id for o in d.options] == ["A", "1", "2", "b1", "b2"]
    assert (d.min_picks, d.max_picks) == (1, 5)
    assert d.option("A").args == {"dice": "🔥 🔥", "steps": 2}
    after, ev = kit.act(s, 0, join_picks(d, ["b1", "2", "A"]))
    assert after["space"] == 5 and "move" in kit.codes(ev)  # 2 afterburners + 2 + one booster
    assert after["crew"][1][2] == 1 and after["crew"][2][2] == 0  # Bea's booster only
    # the movement id of the one-list form still plays (old logs replay) and agrees
    same, _ = GAME.apply(s, 0, "go.A+2+b1")
    assert GAME.dump(same) == GAME.dump(after)
    one, _ = kit.act(s, 0, "1")  # a single pick is an answer too
    assert one["space"] == 1


def test_r32_keep_is_asked_after_the_dice_and_reroll_goes_alone(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state(BOOSTED, n=3, space=0, roll=["A", 1, 2], ufo="on")
    s["exp"]["tile"], s["exp"]["avail"] = "E6", True  # keep the dice
    d = kit.only_decision(s)
    assert d.multi and "k" not in [o.id for o in d.options]
    s2, ev = kit.act(s, 0, join_picks(d, ["1", "b2"]))
    assert not ev and s2["pick"] == "go.1+b2" and s2["space"] == 0
    keep = kit.only_decision(s2)
    assert keep.prompt == "mlem.prompt.keep" and not keep.multi
    assert [o.id for o in keep.options] == ["go.1+b2+k", "go.1+b2"]
    assert keep.args["to"] == 2
    kept, _ = kit.act(s2, 0, "go.1+b2+k")
    assert kept["pool"] == s["pool"] and kept["pick"] is None and kept["space"] == 2
    spent, _ = kit.act(s2, 0, "go.1+b2")
    assert spent["pool"] == s["pool"] - 1
    assert GAME.dump(GAME.load(GAME.dump(s2))) == GAME.dump(s2)
    # afterburners only: no number dice to keep, so no second question
    s3, _ = kit.act(s, 0, "A")
    assert s3["pick"] is None and s3["space"] == 1
    s["exp"]["tile"] = "E2"  # reroll
    d = kit.only_decision(s)
    assert d.options[-1].id == "reroll"
    try:
        GAME.apply(s, 0, join_picks(d, ["A", "reroll"]))
    except IllegalMove as err:
        assert err.code == "mlem.error.reroll_alone"
    else:
        raise AssertionError("a reroll mixed with dice was accepted")
