"""MLEM advanced variants: UFO (expedition tiles), Reconnaissance and Secret missions."""

from __future__ import annotations

import json

import pytest

from rules.mlem import GAME, engine
from rules.mlem.board import EXPEDITION, MISSIONS, RECON_SLOTS, UFO_TILES
from tests.rules import mlem_kit as kit

# --------------------------------------------------------------------------- UFO


def test_ufo_setup_reveals_the_first_expedition_tile():
    s = kit.fresh(3, seed=4, ufo="on")
    tid = s["exp"]["tile"]
    tile = EXPEDITION[tid]
    v = GAME.view(s, None)
    assert v["expedition"]["tile"]["id"] == tid
    assert v["expedition"]["left"] == len(EXPEDITION) - 1
    assert v["expedition"]["ability_available"] is True
    assert v["dice"]["pool"] == tile["dice"]
    assert v["dice"]["discarded"] == 6 - tile["dice"]
    assert v["ufo"] == {"space": 26 - tile["ufo"], "tiles_left": 5, "taken": [0, 0, 0]}
    assert GAME.view(kit.fresh(3, seed=4), None)["ufo"] is None
    decks = {tuple(kit.fresh(3, seed=k, ufo="on")["exp"]["deck"]) for k in range(10)}
    assert len(decks) > 1  # shuffled by the seed


def _with_tile(tile: str, **kw):
    s = kit.explore_state(ufo="on", **kw)
    s["exp"]["tile"] = tile
    s["exp"]["avail"] = True
    s["ufo"]["space"] = 26
    return s


def test_reroll_tile_rerolls_all_dice_once(monkeypatch):
    dice = kit.ScriptedDice(monkeypatch, [1, 2, 4])
    s = _with_tile("E1", crew=[(0, "shifter"), (1, "booster")], n=2, space=0, roll=[1, 3, 4])
    assert kit.options(s)[-1] == "reroll"
    s, ev = kit.act(s, 0, "reroll")
    assert kit.codes(ev) == ["reroll", "roll"]
    assert ev[1].reveals
    assert s["roll"] == [1, 2, 4] and not dice.rolls
    assert "reroll" not in kit.options(s)
    assert GAME.view(s, None)["expedition"]["ability_available"] is False


def test_reroll_can_save_a_failing_roll_or_be_declined(monkeypatch):
    s = _with_tile("E2", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=5, roll=[2, 3])
    d = kit.only_decision(s)
    assert d.prompt == "mlem.prompt.rescue"
    assert [o.id for o in d.options] == ["reroll", "crash"]
    s2, ev = kit.act(s, 0, "crash")
    assert "crash" in kit.codes(ev) and s2["disasters"] == 1
    kit.ScriptedDice(monkeypatch, [3, 3])
    _, ev = kit.act(s, 0, "reroll")
    assert "crash" in kit.codes(ev)  # the new roll stands, even when it fails


def test_extra_dice_tile_uses_every_pictured_die_that_fits(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _with_tile("E7", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=[2, 4])
    steps = {o.id: o.args["steps"] for o in kit.only_decision(s).options}
    assert steps == {"go.2": 2, "go.x": 2, "go.2+x": 4}  # E7 pictures 1 + 1
    assert kit.only_decision(s).option("go.2+x").args["dice"] == "2 🛸1 🛸1"
    s, ev = kit.act(s, 0, "go.x")
    assert "tile_used.extra" in kit.codes(ev)
    assert (s["pool"], s["disc"]) == (2, 4)  # pictured dice are never discarded
    assert s["exp"]["avail"] is False


def test_extra_dice_tile_is_a_rescue_and_useless_where_nothing_fits():
    s = _with_tile("E9", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=1, roll=[2, 4])
    assert kit.options(s) == ["go.x", "crash"]  # E9 pictures a 3; space 1 accepts 3
    s = _with_tile("E9", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=[2, 4])
    assert kit.options(s) == ["go.2"]


def test_keep_dice_tile(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _with_tile("E5", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=["A", 1, 2])
    ids = kit.options(s)
    assert "go.A+k" not in ids  # afterburners are never discarded anyway
    assert {"go.1+k", "go.A+1+k", "go.1+2+k"} <= set(ids)
    s, ev = kit.act(s, 0, "go.1+2+k")
    assert "tile_used.keep" in kit.codes(ev) and "discard" not in kit.codes(ev)
    assert (s["pool"], s["disc"]) == (3, 3)
    assert s["exp"]["avail"] is False


def test_unused_tile_power_passes_to_the_next_commander(monkeypatch):
    kit.ScriptedDice(monkeypatch, [1, 3])
    s = _with_tile("E1", crew=[(0, "shifter"), (1, "saboteur")], n=2, space=5, roll=[1, 4, 4])
    s, _ = kit.act(s, 0, "go.1")
    s, _ = kit.act(s, 0, "land")
    s, _ = kit.act(s, 1, "stay")
    d = kit.only_decision(s)
    assert d.seat == 1 and "reroll" in [o.id for o in d.options]


def test_expedition_pile_exhausted_means_six_dice_and_no_power(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=[3], ufo="on")
    s["exp"]["deck"] = []
    s["ufo"]["space"] = 20
    s, ev = kit.act(s, 0, "crash")
    assert "expedition_none" in kit.codes(ev)
    v = GAME.view(s, None)
    assert v["expedition"] == {"tile": None, "left": 0, "ability_available": False}
    assert v["dice"]["pool"] == 6 and v["ufo"]["space"] == 20


def test_ufo_encounter_gives_the_commander_a_hidden_tile(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(1, "shifter"), (0, "saboteur")], n=2, space=5, roll=[4], ufo="on")
    s["ufo"]["space"] = 9
    s, ev = kit.act(s, 1, "go.4")
    assert kit.codes(ev)[:5] == ["move", "discard", "take_back", "ufo_encounter", "ufo_tile"]
    public, private = ev[3], ev[4]
    assert "points" not in public.args and public.private_to is None
    assert private.private_to == 1 and private.args["points"] == UFO_TILES[0]
    v = GAME.view(s, None)
    assert v["ufo"]["taken"] == [0, 1] and v["ufo"]["tiles_left"] == 4
    assert GAME.view(s, 1)["private"]["hidden_points"]["ufo"] == 5
    assert GAME.view(s, 0)["private"]["hidden_points"]["ufo"] == 0
    assert v["scores"] == [0, 0]  # hidden until the end
    s = engine.clone(s)
    s["phase"] = "over"
    assert GAME.result(s).breakdown[1]["ufo"] == 5


def test_passing_the_ufo_does_not_count(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = kit.explore_state([(1, "shifter"), (0, "saboteur")], n=2, space=5, roll=[4], ufo="on")
    s["ufo"]["space"] = 7
    s, ev = kit.act(s, 1, "go.4")
    assert "ufo_encounter" not in kit.codes(ev)


def test_ufo_moves_toward_earth_each_voyage():
    s = kit.explore_state([(0, "shifter"), (1, "saboteur")], n=2, space=0, roll=[3], ufo="on")
    s["exp"]["deck"] = ["E4", "E8"]  # both move the UFO 3 spaces
    s["ufo"]["space"] = 10
    s, ev = kit.act(s, 0, "crash")
    assert s["ufo"]["space"] == 7
    assert "ufo_move" in kit.codes(ev)
    assert s["pool"] == EXPEDITION["E4"]["dice"]


# --------------------------------------------------------------------------- recon


def test_recon_setup_fills_five_slots_face_up():
    s = kit.fresh(3, seed=9, recon="on")
    v = GAME.view(s, None)
    assert (
        set(v["recon"]["slots"]) == {str(sp) for sp in RECON_SLOTS} == {"4", "8", "13", "17", "21"}
    )
    assert all(t is not None for t in v["recon"]["slots"].values())
    assert v["recon"]["left"] == 15 and v["recon"]["taken"] == [0, 0, 0]
    for t in v["recon"]["slots"].values():
        assert t["kind"] in ("points", "recover", "wormhole")
        if t["kind"] == "points":
            assert t["value"] in (1, 2, 3)


def _recon(slots: dict[str, str | None], stack: list[str], **kw):
    s = kit.explore_state(recon="on", **kw)
    s["recon"]["slots"] = {str(sp): None for sp in RECON_SLOTS} | slots
    s["recon"]["stack"] = stack
    return s


def test_recon_points_tile_is_taken_face_down(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _recon(
        {"8": "p2"}, ["wormhole"], crew=[(0, "shifter"), (1, "booster")], n=2, space=6, roll=["A"]
    )
    s, ev = kit.act(s, 0, "go.A")  # space 8
    assert kit.codes(ev)[:4] == [
        "move",
        "recon_points",
        "recon_points_value",
        "recon_reveal.wormhole",
    ]
    assert "points" not in ev[1].args
    assert ev[2].private_to == 0 and ev[2].args["points"] == 2
    assert ev[3].reveals
    v = GAME.view(s, None)
    assert v["recon"]["slots"]["8"] == {"kind": "wormhole"}  # the new tile does not trigger
    assert v["recon"]["taken"] == [1, 0] and v["recon"]["left"] == 0
    assert s["space"] == 8 and s["phase"] == "land"
    assert GAME.view(s, 0)["private"]["hidden_points"]["recon"] == 2
    assert "hidden_points" not in json.dumps(v)


def test_recon_recover_after_discarding(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _recon(
        {"4": "recover"}, [], crew=[(0, "shifter"), (1, "booster")], n=2, space=0, roll=[2, 2]
    )
    s, ev = kit.act(s, 0, "go.2")
    # both 2s discarded -> take one back (minimum) -> recover one more
    assert kit.codes(ev)[:4] == ["move", "discard", "take_back", "recon_recover"]
    assert (s["pool"], s["disc"]) == (2, 4)
    assert s["recon"]["slots"]["4"] is None  # nothing left to refill


def test_recon_recover_with_all_dice_is_wasted(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _recon(
        {"4": "recover"},
        [],
        crew=[(0, "shifter"), (1, "booster")],
        n=2,
        space=1,
        roll=["A", "A", "A", 2, 2, 2],
    )
    s, ev = kit.act(s, 0, "go.A")
    assert "recon_recover_none" in kit.codes(ev)
    assert (s["pool"], s["disc"]) == (6, 0)
    assert s["recon"]["slots"]["4"] is None


def test_wormhole_chains_into_the_next_tile(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _recon(
        {"4": "wormhole", "8": "p3"},
        ["p1", "recover"],
        crew=[(0, "shifter"), (1, "booster")],
        n=2,
        space=3,
        roll=["A"],
    )
    s, ev = kit.act(s, 0, "go.A")
    assert kit.codes(ev)[:5] == [
        "move",
        "recon_reveal.points",
        "wormhole",
        "recon_points",
        "recon_points_value",
    ]
    assert s["space"] == 8
    assert s["recon"]["taken"][0] == [3]
    assert s["recon"]["slots"]["4"] == "p1" and s["recon"]["slots"]["8"] == "recover"


def test_wormhole_from_the_last_slot_and_no_tile(monkeypatch):
    kit.ScriptedDice(monkeypatch)
    s = _recon(
        {"21": "wormhole"}, [], crew=[(0, "shifter"), (1, "booster")], n=2, space=19, roll=[1, 1]
    )
    s, ev = kit.act(s, 0, "go.1")
    assert s["space"] == 25 and s["phase"] == "land"
    s = _recon(
        {"21": "wormhole"}, [], crew=[(0, "shifter"), (1, "booster")], n=2, space=20, roll=[2]
    )
    s, ev = kit.act(s, 0, "go.2")  # 22: no tile
    assert "wormhole" not in kit.codes(ev)


# --------------------------------------------------------------------------- missions


def test_missions_are_dealt_and_chosen_privately_and_simultaneously():
    s = kit.fresh(4, seed=3, missions="on")
    decs = GAME.pending(s)
    assert [d.seat for d in decs] == [0, 1, 2, 3]
    assert all(d.private and d.prompt == "mlem.prompt.mission" for d in decs)
    dealt = [m for d in decs for m in d.args["missions"].split(", ")]
    assert len(dealt) == 16 and len(set(dealt)) == 16 and set(dealt) <= set(MISSIONS)
    v = GAME.view(s, None)
    assert v["phase"] == "mlem.phase.launch" and v["step"] == "missions"
    assert v["missions"] == {"kept": [0, 0, 0, 0], "choosing": [0, 1, 2, 3]}
    text = json.dumps(v)
    for m in dealt:
        assert f'"{m}"' not in text
    mine = GAME.view(s, 2)["private"]
    assert mine["dealt"] == s["missions"]["dealt"][2] and mine["missions"] == []
    # seats answer in any order; the voyage starts once all have answered
    for seat in (3, 0, 2):
        drop = decs[seat].options[0].id
        s, ev = kit.act(s, seat, drop)
        assert ev[0].private_to is None and ev[1].private_to == seat
        assert kit.refused(s, seat, drop) == "mlem.error.not_your_turn"
    assert s["phase"] == "missions" and [d.seat for d in GAME.pending(s)] == [1]
    s, ev = kit.act(s, 1, decs[1].options[3].id)
    assert "missions_ready" in kit.codes(ev) and s["phase"] == "launch"
    assert GAME.view(s, None)["missions"] == {"kept": [3, 3, 3, 3], "choosing": []}
    kept = GAME.view(s, 1)["private"]["missions"]
    assert [k["id"] for k in kept] == s["missions"]["dealt"][1][:3]
    assert GAME.view(s, 1)["private"]["dealt"] == []


def test_five_players_get_all_twenty_missions():
    s = kit.fresh(5, seed=1, missions="on")
    assert sorted(m for d in s["missions"]["dealt"] for m in d) == sorted(MISSIONS)


def test_mission_option_ids_are_valid():
    s = kit.fresh(5, seed=1, missions="on")
    ids = [o.id for d in GAME.pending(s) for o in d.options]
    assert "drop.7-8" in ids or "drop.11-12" in ids or len(ids) == 20
    assert all(i.startswith("drop.") and "/" not in i for i in ids)


@pytest.mark.parametrize(("done", "points"), [(0, 0), (1, 2), (2, 5), (3, 10)])
def test_mission_scoring_2_5_10(done, points):
    s = engine.clone(kit.fresh(2, missions="on"))
    s["missions"]["kept"] = [["7/8", "15", "9/10"], ["6", "9", "10"]]
    bodies = [("P1", None, "booster"), ("M6", 0, "shifter"), ("M3", 0, "satellite")]
    for where, idx, ab in bodies[:done]:
        kit.place(s, 0, ab, where, idx)
    s["phase"] = "over"
    assert GAME.result(s).breakdown[0]["missions"] == points
    assert sum(d for _m, d in engine.missions_done(s, 0)) == done


def test_mission_targets():
    s = engine.clone(kit.fresh(2, missions="on"))
    s["missions"]["kept"] = [["7/8", "15", "9/10"], ["24/25", "22/23", "11/12"]]
    kit.place(s, 0, "booster", "M2", 1)  # space 9 moon group completes "9/10"
    kit.place(s, 1, "booster", "galaxy")  # deep space completes nothing
    kit.place(s, 1, "shifter", "P2")  # planet of 11/12
    assert engine.missions_done(s, 0) == [("7/8", False), ("15", False), ("9/10", True)]
    assert engine.missions_done(s, 1) == [("24/25", False), ("22/23", False), ("11/12", True)]
    assert GAME.view(s, 0)["private"]["missions"][2] == {"id": "9/10", "done": True}


def test_missions_revealed_only_at_the_end():
    s = engine.clone(kit.fresh(2, missions="on"))
    s["missions"]["kept"] = [["7/8", "15", "9/10"], ["6", "9", "10"]]
    assert "revealed" not in GAME.view(s, None)["missions"]
    s["phase"] = "over"
    rev = GAME.view(s, None)["missions"]["revealed"]
    assert [m["id"] for m in rev[1]] == ["6", "9", "10"]


def test_all_variants_together_play_to_the_end():
    from tests.rules.mlem_kit import random_game

    for seed in range(20):
        s, moves = random_game(seed, 2 + seed % 4, {"ufo": "on", "recon": "on", "missions": "on"})
        assert s["phase"] == "over"
        assert moves
