"""Galaxy Trucker: the player's own choices against hazards and when loading goods
(rulings R14, R16 and R30-R34 of :mod:`rules.galaxy_trucker`), against hand-built ships."""

from __future__ import annotations

import random

import pytest

from core.contract import IllegalMove, apply_checked, join_picks
from core.i18n import t
from rules.galaxy_trucker import GAME
from rules.galaxy_trucker import adventure as adv
from tests.rules.galaxy_trucker_kit import CARDS, codes, flyer

START = 33  # starting cabin, UUUU
ENGINE = 73  # single engine 1000
ENGINE_B = 74  # the same
CANNON = 101  # single cannon 0010
CANNON2 = 126  # double cannon 0010
SHIELD = 149  # 01U1: covers the front and the right at rotation 0
SHIELD_B = 150  # 1011: the same cover
BATT = 8  # battery (2) 000U
BATT_B = 9  # the same
BATT_C = 10  # battery (2) 0U0U
HOLD = 26  # normal hold, 2 spaces, U00U
RED_HOLD = 67  # red hold, 1 space, U00U

TEST_CARDS = {
    "T-small": CARDS["T-small"],
    "T-large": CARDS["T-large"],
    "T-shots": {
        "id": "T-shots",
        "level": 1,
        "type": "meteor_swarm",
        "meteors": [{"size": "light", "from": "right"}, {"size": "heavy", "from": "front"}],
    },
    "T-planets": {
        "id": "T-planets",
        "level": 1,
        "type": "planets",
        "planets": [["red", "yellow", "green", "blue"], ["yellow", "green", "blue", "blue"]],
        "days_lost": 1,
    },
    "T-reds": {
        "id": "T-reds",
        "level": 1,
        "type": "planets",
        "planets": [["red", "red", "red"], ["blue", "blue", "blue", "blue"]],
        "days_lost": 1,
    },
    "T-station": {
        "id": "T-station",
        "level": 1,
        "type": "abandoned_station",
        "crew_required": 1,
        "reward": {"goods": ["red", "yellow"]},
        "days_lost": 1,
    },
}

#: Seat 0: a shield on the right (front and right covered), a battery either side of the
#: cabin's row; an engine. Hit in column 7 from the front, the starting cabin goes and the
#: ship breaks apart.
SHIELDED = {
    (7, 8): (SHIELD, 0),
    (7, 6): (BATT, 2),
    (8, 8): (BATT_B, 1),
    (8, 7): (ENGINE, 0),
}
#: Two holds: 2 normal spaces and 1 red one.
HOLDS = {(7, 6): (HOLD, 2), (7, 8): (RED_HOLD, 0), (8, 7): (ENGINE, 0)}
#: The same with other tiles, for seat 1.
HOLDS_B = {(7, 6): (21, 2), (7, 8): (63, 0), (8, 7): (ENGINE_B, 0)}


@pytest.fixture
def flying(monkeypatch):
    """A game in flight with the given ships and deck (seat 0 leads), every roll 7 unless
    told."""
    return flyer(monkeypatch, TEST_CARDS, line=7)


def refused(s, seat, choice):
    before = GAME.dump(s)
    with pytest.raises(IllegalMove) as exc:
        GAME.apply(s, seat, choice)
    assert GAME.dump(s) == before
    return exc.value


# --------------------------------------------------------------------------- R30 hazards


def test_r30_a_shield_that_could_stop_a_meteor_is_the_players_choice(flying):
    s, events = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    assert "destroyed" not in codes(events)  # seat 1 waits for seat 0 (flight order)
    (d,) = GAME.pending(s)
    assert d.seat == 0 and not d.private
    assert d.prompt == "galaxy_trucker.prompt.hazard_shield_col"
    assert d.args["line"] == 7 and (d.args["row"], d.args["col"]) == (7, 7)
    assert [o.id for o in d.options] == ["def", "def.8.8", "hit", "retire"]
    assert d.options[0].label.endswith("opt.def_shield_from")
    hit = d.options[2]
    assert hit.label.endswith("opt.hit_split")  # the starting cabin holds the ship together
    assert hit.args["part_key"] == "galaxy_trucker.tile.starting_cabin"
    text = t(d.prompt, "en", ["Ana", "Bea"], **dict(d.args))
    assert text.startswith("Small meteor from the front, column 7: it hits your tile at 7·7")
    es = t(hit.label, "es", ["Ana", "Bea"], **dict(hit.args))
    assert es == "Encajar el golpe: pierdes 7·7 (cabina inicial) y la nave se parte"
    s, events = apply_checked(GAME, s, 0, "def.8.8")  # the battery below the shield pays
    assert s["players"][0]["batteries"] == {"7.6": 2, "8.8": 1}
    assert s["players"][0]["lost"] == []
    assert codes(events)[:2] == ["shielded", "destroyed"]  # then seat 1 is hit
    assert [e.args["seat"] for e in events if e.code.endswith(".destroyed")] == [1]


def test_r30_def_pays_from_the_fullest_tile_and_hit_destroys(flying):
    s, _ = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    s["players"][0]["batteries"] = {"7.6": 1, "8.8": 2}
    s2, _ = GAME.apply(s, 0, "def")
    assert s2["players"][0]["batteries"] == {"7.6": 1, "8.8": 1}
    s3, events = GAME.apply(s, 0, "hit")
    assert s3["players"][0]["batteries"] == {"7.6": 1, "8.8": 2}
    assert [e.args["seat"] for e in events if e.code.endswith(".destroyed")] == [0, 1]
    assert GAME.pending(s3)[0].prompt == "galaxy_trucker.prompt.broken"


def test_r30_bad_answers_change_nothing(flying):
    s, _ = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    s["players"][0]["batteries"]["8.8"] = 0
    (d,) = GAME.pending(s)
    assert [o.id for o in d.options] == [
        "def",
        "hit",
        "retire",
    ]  # one charged tile: no tile to pick
    assert d.options[0].label.endswith("opt.def_shield")
    for bad in ("def.8.8", "def.9.9", "pow.0", "take", "keep.7.7"):
        refused(s, 0, bad)
    refused(s, 1, "hit")  # not seat 1's question


def test_r30_no_question_on_a_bounce_or_without_a_shield_on_that_side(flying):
    s, events = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"], line=6)
    # column 6: the battery's smooth front, a bounce for seat 0; a miss for seat 1
    assert "bounced" in codes(events) and GAME.pending(s) == []
    no_shield = {(7, 8): (SHIELD, 2), (7, 6): (BATT, 2), (8, 7): (ENGINE, 0)}  # rear, left
    s, events = flying([no_shield, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    assert [e.args["seat"] for e in events if e.code.endswith(".destroyed")] == [0, 1]


def test_r30_a_battery_left_is_needed(flying):
    def flat(s):
        s["players"][0]["batteries"] = {"7.6": 0, "8.8": 0}

    s, events = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"], prep=flat)
    assert [e.args["seat"] for e in events if e.code.endswith(".destroyed")] == [0, 1]
    assert all(d.prompt == "galaxy_trucker.prompt.broken" for d in GAME.pending(s))


def test_r30_light_shot_is_shielded_heavy_shot_never(flying):
    # row 8 from the right: seat 0's battery at 8.8 (a light shot needs no connector)
    s, events = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-shots"], line=8)
    (d,) = GAME.pending(s)
    assert d.prompt == "galaxy_trucker.prompt.hazard_shield_row" and d.args["col"] == 8
    s, events = GAME.apply(s, 0, "def")
    # seat 1's engine is destroyed by the light shot; the heavy shot (column 8) then
    # destroys seat 0's shield at 7.8 with nothing asked
    destroyed = [
        (e.args["seat"], e.args["row"], e.args["col"]) for e in events if ".destroyed" in e.code
    ]
    assert destroyed == [(1, 8, 7), (0, 7, 8)]


def test_r30_large_meteor_double_cannon_asked_single_cannon_free(flying):
    double = {(6, 7): (CANNON2, 0), (7, 6): (BATT, 2), (8, 7): (ENGINE, 0)}
    single = {(6, 7): (CANNON, 0), (8, 7): (ENGINE_B, 0)}
    s, events = flying([double, single], ["T-large"])
    assert "shot_down" not in codes(events)
    (d,) = GAME.pending(s)
    assert d.seat == 0 and d.prompt == "galaxy_trucker.prompt.hazard_cannon_col"
    assert [o.id for o in d.options] == ["def", "hit", "retire"]
    assert d.options[0].label.endswith("opt.def_cannon")
    assert d.options[1].args["part_key"] == "galaxy_trucker.tile.cannon2"
    s, events = GAME.apply(s, 0, "def")
    assert codes(events)[:2] == ["shot_down", "shot_down"]  # seat 1's single: free
    assert s["players"][0]["batteries"] == {"7.6": 1}


def test_r30_both_ships_asked_in_flight_order_with_one_roll(flying):
    shielded_b = {(7, 8): (SHIELD_B, 0), (7, 6): (BATT_C, 0), (8, 7): (ENGINE_B, 0)}
    s, events = flying([SHIELDED, shielded_b], ["T-small"])
    assert sum(1 for e in events if ".hazard_" in e.code) == 1
    assert [d.seat for d in GAME.pending(s)] == [0]
    s, _ = GAME.apply(s, 0, "hit")
    assert [d.seat for d in GAME.pending(s)] == [1]
    assert GAME.pending(s)[0].prompt == "galaxy_trucker.prompt.hazard_shield_col"
    s, events = GAME.apply(s, 1, "def")
    assert "shielded" in codes(events)
    # then seat 0 keeps a part of its broken ship
    assert GAME.pending(s)[0].prompt == "galaxy_trucker.prompt.broken"


# --------------------------------------------------------------------------- R31-R33 goods


def test_r31_more_goods_than_room_is_a_multi_pick_question(flying):
    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], ["T-planets"])
    s, _ = GAME.apply(s, 0, "planet.0")
    (d,) = GAME.pending(s)
    assert d.seat == 1  # the landings are chosen first (R33)
    s, _ = GAME.apply(s, 1, "pass")
    (d,) = GAME.pending(s)
    assert d.seat == 0 and d.prompt == "galaxy_trucker.prompt.goods"
    assert d.args == {"goods": "🟥🟨🟩🟦", "room": 3, "red": 1}
    assert [o.id for o in d.options] == ["auto", "n.0", "n.1", "n.2", "n.3"]
    assert d.options[0].alone and d.options[0].args["goods"] == "🟥🟨🟩"
    assert (d.min_picks, d.max_picks) == (1, 3)
    err = refused(s, 0, join_picks(d, ["n.0", "n.1", "n.2", "n.3"]))
    assert err.code == "galaxy_trucker.error.goods_dont_fit"
    refused(s, 0, "n.9")
    refused(s, 0, "n.0,n.0")
    s, events = apply_checked(GAME, s, 0, join_picks(d, ["n.0", "n.3"]))  # red and blue
    assert s["players"][0]["goods"] == {"7.8": ["red"], "7.6": ["blue"]}
    assert s["flight"]["bank"]["red"] == 11 and s["flight"]["bank"]["yellow"] == 17
    loaded = [e.args["goods"] for e in events if e.code.endswith(".goods_loaded")]
    assert loaded == ["🟥🟦"]


def test_r31_goods_aboard_can_be_dropped_for_new_ones(flying):
    def stock(s):
        adv.load_goods(s, 0, ["red", "blue", "blue"], [])
        assert s["players"][0]["goods"] == {"7.8": ["red"], "7.6": ["blue", "blue"]}

    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], ["T-station"], prep=stock)
    s, _ = GAME.apply(s, 0, "take")
    (d,) = GAME.pending(s)
    assert [o.id for o in d.options] == ["auto", "a.7.6.0", "a.7.6.1", "a.7.8.0", "n.0", "n.1"]
    assert d.options[1].args == {"good": "🟦", "row": 7, "col": 6}
    assert d.options[0].args["goods"] == "🟥🟨🟦"  # R16: one red space only
    err = refused(s, 0, join_picks(d, ["a.7.8.0", "n.0"]))  # two reds, one red space
    assert err.code == "galaxy_trucker.error.goods_dont_fit"
    s, events = GAME.apply(s, 0, join_picks(d, ["a.7.6.0", "a.7.8.0", "n.1"]))
    assert sorted(s["players"][0]["goods"]["7.6"]) == ["blue", "yellow"]
    assert s["players"][0]["goods"]["7.8"] == ["red"]
    assert "goods_dropped" in codes(events)
    assert s["flight"]["bank"] == {"red": 11, "yellow": 16, "green": 13, "blue": 13}


def test_r31_no_question_when_the_choice_is_not_real(flying):
    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], ["T-reds"])
    s, events = GAME.apply(s, 0, "planet.0")  # 3 reds, 1 red space: one red is all
    assert [e.args["goods"] for e in events if e.code.endswith(".goods_loaded")] == ["🟥"]
    assert s["players"][0]["goods"]["7.8"] == ["red"]
    assert "galaxy_trucker.prompt.goods" not in [d.prompt for d in GAME.pending(s)]
    s, _ = GAME.apply(s, 1, "planet.1")  # seat 1 has no hold: nothing to choose
    assert s["phase"] == "over"
    assert s["players"][1]["goods"] == {}


def test_r16_auto_moves_goods_between_holds_to_fit_a_red(flying):
    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], [])
    s["players"][0]["goods"] = {"7.8": ["yellow"]}
    s["flight"]["bank"]["yellow"] -= 1
    events: list = []
    adv.load_goods(s, 0, ["red"], events)  # the yellow moves to the normal hold
    assert s["players"][0]["goods"] == {"7.8": ["red"], "7.6": ["yellow"]}
    assert "goods_dropped" not in codes(events)


def test_r31_what_the_bank_lacks_is_no_choice(flying):
    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], ["T-planets"])
    s["flight"]["bank"]["red"] = 0  # R26: no red to load, so the other three fit
    s, events = GAME.apply(s, 0, "planet.0")
    assert [e.args["goods"] for e in events if e.code.endswith(".goods_loaded")] == ["🟨🟩🟦"]
    assert s["players"][0]["goods"] == {"7.6": ["yellow", "green"], "7.8": ["blue"]}
    assert GAME.pending(s)[0].seat == 1


def test_r33_a_waiting_load_keeps_the_order_and_its_own_answer(flying):
    s, _ = flying([HOLDS, HOLDS_B], ["T-planets"])
    s, _ = GAME.apply(s, 0, "planet.0")  # seat 0's load waits: seat 1 lands first
    s, events = GAME.apply(s, 1, "planet.1")
    assert "landed" not in codes(events)  # seat 1's landing waits behind seat 0's load
    (d,) = GAME.pending(s)
    assert d.seat == 0 and d.prompt == "galaxy_trucker.prompt.goods"
    s, events = GAME.apply(s, 0, "auto")
    assert codes(events)[:2] == ["goods_loaded", "landed"]
    moves = [e.args["seat"] for e in events if e.code.endswith(".move_back")]
    assert moves == [1, 0]  # days lost, the rearmost first
    (d,) = GAME.pending(s)  # seat 1's own load: also a choice, asked in its turn
    assert d.seat == 1 and d.args["goods"] == "🟨🟩🟦🟦"
    s, events = GAME.apply(s, 1, "auto")
    assert s["players"][1]["goods"] == {"7.6": ["yellow", "green"], "7.8": ["blue"]}
    assert s["phase"] == "over"


# --------------------------------------------------------------------------- R34 bots, skips


def test_r34_bots_and_absent_players_defend_and_load_automatically(flying):
    s, _ = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    assert GAME.bot_choice(s, 0, random.Random(1)) == "def"
    ids = [o.id for o in GAME.pending(s)[0].options]
    assert next(x for x in GAME.skip_options if x in ids) == "def"
    s, _ = flying([HOLDS, {(8, 7): (ENGINE_B, 0)}], ["T-planets"])
    s, _ = GAME.apply(s, 0, "planet.0")
    s, _ = GAME.apply(s, 1, "pass")
    assert GAME.bot_choice(s, 0, random.Random(1)) == "auto"
    ids = [o.id for o in GAME.pending(s)[0].options]
    assert next(x for x in GAME.skip_options if x in ids) == "auto"


def test_r14_powering_doubles_still_spends_the_fullest_tile(flying):
    s, _ = flying([SHIELDED, {(8, 7): (ENGINE_B, 0)}], ["T-small"])
    p = s["players"][0]
    p["batteries"] = {"7.6": 1, "8.8": 2}
    adv.drain(p, 2)  # 8.8 is the fullest, then a tie: the first key
    assert p["batteries"] == {"7.6": 0, "8.8": 1}
    assert adv.fullest({"batteries": {"7.6": 1, "10.8": 1}}) == "10.8"  # ties: first key


# --------------------------------------------------------------------------- random flights


def test_random_answers_to_the_new_questions_keep_goods_and_states_sound():
    """Bots build; in flight every question gets a random answer (random multi-picks
    included). A refused pick changes nothing; goods are conserved; every flight ends."""
    from core.contract import random_answer
    from rules.galaxy_trucker.tiles import data

    asked: set[str] = set()
    for g in range(6):
        r = random.Random(g)
        s = GAME.new(2 + g % 3, {"rules": "2", "level": ("I", "II", "III")[g % 3]}, g)
        for _ in range(4000):
            pending = GAME.pending(s)
            if not pending:
                break
            d = pending[0]
            if s["phase"] != "flight":
                s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, r))
                continue
            asked.add(d.prompt.rsplit(".", 1)[1])
            try:
                s, _ = GAME.apply(s, d.seat, random_answer(d, r))
            except IllegalMove as exc:
                assert exc.code == "galaxy_trucker.error.goods_dont_fit"
                s, _ = GAME.apply(s, d.seat, d.options[0].id)
            for colour, n in data()["goods_supply"].items():
                aboard = sum(gs.count(colour) for p in s["players"] for gs in p["goods"].values())
                assert s["flight"]["bank"][colour] + aboard == n
        assert s["phase"] == "over"
    # Which hazards come up depends on the seeds: the cannon question, goods and rows are
    # checked on hand-built ships above.
    assert any(a.startswith("hazard_") for a in asked)
