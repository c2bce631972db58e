"""Galaxy Trucker flight helpers (not wired into the game yet): the track, power, hazards."""

from __future__ import annotations

from fractions import Fraction

from rules.galaxy_trucker import flight as fl
from rules.galaxy_trucker.tiles import FRONT, LEFT, REAR, RIGHT
from tests.rules.galaxy_trucker_kit import CARDS, codes, flyer

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


# --------------------------------------------------------------------------- cards in play

import pytest  # noqa: E402

from core.contract import IllegalMove, apply_checked  # noqa: E402
from rules.galaxy_trucker import GAME, hazards  # noqa: E402
from rules.galaxy_trucker import adventure as adv  # noqa: E402
from rules.galaxy_trucker.tiles import cards as real_cards  # noqa: E402

BATT = 8  # battery 000U
BATT_B = 9  # the same
ENGINE_B = 74  # single engine 1000, like 73
RED_HOLD = 67  # red hold, 1 space, U00U
HOLD = 26  # normal hold, 2 spaces, U00U
CABIN = 47  # cabin 020U

TEST_CARDS = {
    "T-station": {
        "id": "T-station",
        "level": 1,
        "type": "abandoned_station",
        "crew_required": 2,
        "reward": {"goods": ["yellow", "green"]},
        "days_lost": 1,
    },
    "T-slavers": CARDS["T-slavers"],
    "T-smugglers": {
        "id": "T-smugglers",
        "level": 1,
        "type": "smugglers",
        "firepower": 9,
        "penalty": {"goods_lost": 2},
        "reward": {"goods": ["red"]},
        "days_lost": 1,
    },
    "T-small": CARDS["T-small"],
    "T-large": CARDS["T-large"],
    # Slavers no ship here outguns, who take three crew.
    "T-raid": {**CARDS["T-slavers"], "id": "T-raid", "firepower": 9, "penalty": {"crew_lost": 3}},
    "T-ship": CARDS["T-ship"],
}


@pytest.fixture
def flying(monkeypatch):
    """Make a two-seat game in flight with the given ships and deck (seat 0 leads)."""
    return flyer(monkeypatch, TEST_CARDS)


def test_flight_starts_on_the_start_spaces_with_a_card_of_the_level():
    s = GAME.new(3, {"rules": "2", "level": "II"}, 11)
    for seat in (2, 0, 1):
        s, events = GAME.apply(s, seat, "done")
    assert s["phase"] in ("flight", "over")
    first = next(e for e in events if ".card_" in e.code)
    assert real_cards()[first.args["card"]]["level"] == 2
    assert first.reveals


def test_open_space_asks_for_double_engines_and_moves(flying):
    s, _ = flying([{(8, 7): (ENGINE2, 0), (7, 8): (BATT, 0)}, {(8, 7): (ENGINE, 0)}], ["2E-I-05"])
    d = GAME.pending(s)
    assert [x.seat for x in d] == [0]
    powers = [(o.id, o.args["power"]) for o in d[0].options if o.id != "retire"]
    assert powers == [("pow.0", "0"), ("pow.1", "2")]
    assert d[0].options[-1].id == "retire"  # R26b: from the first card on
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "pow.0")
    s, _events = apply_checked(GAME, s, 0, "pow.1")
    assert s["flight"]["pos"] == [6, 3]  # 4 + 2 and 2 + 1
    assert s["players"][0]["batteries"] == {"7.8": 1}
    assert s["phase"] == "over"
    res = GAME.result(s)
    assert res.breakdown[0]["reward"] == 4 and res.breakdown[1]["reward"] == 3


def test_no_engine_power_in_open_space_retires(flying):
    s, events = flying([{(8, 7): (ENGINE, 0)}, {}], ["2E-I-05"])
    assert "retired" in codes(events)
    assert s["flight"]["retired"] == [1] and s["flight"]["pos"][1] is None
    res = GAME.result(s)
    assert res.breakdown[1]["reward"] == 0 and res.breakdown[1]["best_ship"] == 0


def test_planets_load_goods_and_lose_days_rearmost_first(flying):
    s, _ = flying(
        [{(7, 8): (RED_HOLD, 0), (7, 6): (HOLD, 2), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE2, 0)}],
        ["2E-I-13"],  # RR / RBB / Y, 2 days
    )
    d = GAME.pending(s)[0]
    assert d.seat == 0 and [o.id for o in d.options] == [
        "planet.0",
        "planet.1",
        "planet.2",
        "pass",
        "retire",
    ]
    s, _ = GAME.apply(s, 0, "planet.1")
    assert s["players"][0]["goods"] == {"7.8": ["red"], "7.6": ["blue", "blue"]}
    d = GAME.pending(s)[0]
    assert d.seat == 1 and "planet.1" not in [o.id for o in d.options]
    s, events = GAME.apply(s, 1, "planet.2")
    moves = [e for e in events if e.code.endswith((".move", ".move_back"))]
    assert [e.args["seat"] for e in moves] == [1, 0]
    assert s["flight"]["bank"]["red"] == 11
    res = GAME.result(s)
    assert res.breakdown[0]["goods"] == 6


def test_enemies_beaten_pay_the_reward_for_days(flying):
    s, _ = flying([{(6, 7): (CANNON, 0)}, {}], ["T-slavers"])
    d = GAME.pending(s)[0]
    assert d.seat == 0 and [o.id for o in d.options] == ["take", "pass", "retire"]
    s, events = GAME.apply(s, 0, "take")
    assert "credits_won" in codes(events) and s["flight"]["pos"][0] == 3
    assert s["players"][1]["crew"] == {"7.7": 2}  # the enemy stopped at seat 0
    assert GAME.result(s).breakdown[0]["cards"] == 5


def test_smugglers_take_goods_then_batteries(flying):
    _s, events = flying(
        [{(7, 8): (BATT, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["T-smugglers"]
    )
    lost = [e for e in events if e.code.endswith((".goods_lost", ".batteries_lost"))]
    assert [(e.args["seat"], e.args["goods"], e.args["batteries"]) for e in lost] == [(0, 0, 2)]
    assert "nothing_to_lose" in codes(events)


def test_small_meteor_bounces_or_destroys_and_a_split_ship_chooses(flying, monkeypatch):
    monkeypatch.setattr(hazards, "roll", lambda s: 7)
    # seat 0: a cannon's smooth front in column 7; seat 1: batteries either side of the cabin
    s, events = flying(
        [{(6, 7): (CANNON, 0)}, {(7, 8): (BATT, 0), (7, 6): (BATT_B, 2)}], ["T-small"]
    )
    assert "bounced" in codes(events) and "destroyed" in codes(events)
    d = GAME.pending(s)[0]
    assert d.seat == 1 and {o.id for o in d.options} == {"keep.7.6", "keep.7.8"}
    s, events = GAME.apply(s, 1, "keep.7.8")
    assert sorted(s["players"][1]["lost"]) == sorted([34, BATT_B])  # the green cabin, 34
    assert "retired" in codes(events)  # no humans left


def test_large_meteor_is_shot_down_by_a_cannon_in_its_column(flying, monkeypatch):
    monkeypatch.setattr(hazards, "roll", lambda s: 7)
    s, events = flying([{(6, 7): (CANNON, 0)}, {(8, 7): (ENGINE, 0)}], ["T-large"])
    assert "shot_down" in codes(events)
    assert s["players"][0]["lost"] == [] and len(s["players"][1]["lost"]) == 1


def test_abandoned_ship_first_to_accept(flying):
    s, _ = flying([{(8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE2, 0)}], ["T-ship"])
    s, _ = GAME.apply(s, 0, "pass")
    s, _events = GAME.apply(s, 1, "take")
    assert s["players"][1]["crew"] == {"7.7": 1} and s["players"][1]["won"] == 3


def test_stardust_and_epidemic(flying):
    s, events = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}],
        ["2E-II-05", "2E-I-04"],  # epidemic, then stardust
    )
    # the epidemic cost seat 0 crew: it may give up before the stardust (R26b)
    assert [(d.seat, [o.id for o in d.options]) for d in GAME.pending(s)] == [
        (0, ["go", "retire"])
    ]
    s, more = GAME.apply(s, 0, "go")
    events = [*events, *more]
    assert s["players"][0]["crew"] == {"7.7": 1, "7.8": 1}
    assert s["players"][1]["crew"] == {"7.7": 2}
    moved = [e.args["seat"] for e in events if e.code.endswith(".move_back")]
    assert moved == [1, 0]  # rearmost first


def test_end_table_half_price_for_retired_and_never_negative():
    s = GAME.new(2, {"rules": "2", "level": "I"}, 1)
    s["flight"] = {"pos": [5, None], "track": 18}
    s["order"] = [0, 1]
    s["players"][1]["goods"] = {"7.8": ["yellow", "blue"]}
    s["players"][0]["lost"] = list(range(1, 10))
    s["players"][0]["won"] = 2
    parts = adv.breakdown_of(s)
    assert parts[1] == {"reward": 0, "best_ship": 0, "cards": 0, "goods": 2, "lost": 0}
    assert sum(parts[0].values()) == 0 and parts[0]["reward"] == 4


def test_crew_losses_are_picked_cabin_by_cabin(flying):
    s, events = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["T-raid"]
    )
    # seat 1 has one cabin: it loses its 2 humans at once; seat 0 chooses
    assert [e.args for e in events if e.code.endswith(".crew_lost")] == [{"seat": 1, "count": 2}]
    d = GAME.pending(s)[0]
    assert d.seat == 0 and d.args == {"count": 3}
    assert {o.id: o.args["who"] for o in d.options} == {"crew.7.7": "👤👤", "crew.7.8": "👤👤"}
    s, events = GAME.apply(s, 0, "crew.7.8")
    assert not [e for e in events if e.code.endswith(".crew_lost")]  # said once, at the end
    d = GAME.pending(s)[0]
    assert d.args == {"count": 2} and {o.id: o.args["who"] for o in d.options} == {
        "crew.7.7": "👤👤",
        "crew.7.8": "👤",
    }
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "crew.9.9")
    s, events = GAME.apply(s, 0, "crew.7.8")  # the last one: only one cabin is left
    assert s["players"][0]["crew"] == {"7.7": 1, "7.8": 0}
    # one line for the whole loss ("loses 3 crew members"), not one per member
    lost = [e.args for e in events if e.code.endswith(".crew_lost")]
    assert lost == [{"seat": 0, "count": 3}]
    assert "retired" in codes(events)  # seat 1 has no humans left
    assert s["flight"]["retired"] == [1]


def test_r14_a_shield_stops_a_small_meteor_for_a_battery(flying, monkeypatch):
    monkeypatch.setattr(hazards, "roll", lambda s: 7)
    s, events = flying(
        [{(7, 8): (SHIELD, 0), (7, 6): (BATT, 2), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}],
        ["T-small"],
    )
    s, events = GAME.apply(s, 0, "def")  # R30: the player is asked
    assert "shielded" in codes(events)
    assert s["players"][0]["batteries"] == {"7.6": 1} and s["players"][0]["lost"] == []


def test_r16_goods_make_room_for_better_ones(flying):
    s, _ = flying([{(7, 8): (RED_HOLD, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], [])
    events: list = []
    adv.load_goods(s, 0, ["blue"], events)
    adv.load_goods(s, 0, ["yellow", "green"], events)  # one space: yellow replaces blue
    assert s["players"][0]["goods"] == {"7.8": ["yellow"]}
    assert s["flight"]["bank"]["blue"] == 14 and s["flight"]["bank"]["yellow"] == 16
    adv.load_goods(s, 0, ["red"], events)  # red only fits a red hold: this one
    assert s["players"][0]["goods"] == {"7.8": ["red"]}
    adv.lose_goods(s, 0, 1, events)
    assert s["players"][0]["goods"] == {"7.8": []}


def test_r21_combat_zone_lowest_loses_ties_against_the_leader(flying, monkeypatch):
    monkeypatch.setattr(hazards, "roll", lambda s: 7)
    _s, events = flying(
        [{(8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE2, 0)}],
        ["2E-I-16"],  # crew -> 3 days; engines -> 2 crew; firepower -> 2 rear shots
    )
    lines = [(e.code.rsplit(".", 1)[1], e.args["seat"]) for e in events if ".combat_" in e.code]
    assert lines[0] == ("combat_crew", 0)  # 2 against 2: the leader pays
    assert lines[1] == ("combat_engine_power", 1)  # a double engine without a battery: 0
    assert "retired" in codes(events)  # seat 1 lost both humans
    assert lines[2][0] == "combat_firepower"


def test_r21_sabotage_hits_the_smallest_crew(flying, monkeypatch):
    monkeypatch.setattr(hazards, "roll", lambda s: 7)
    _s, events = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["OE-III-09"]
    )
    destroyed = [e.args for e in events if e.code.endswith(".destroyed")]
    assert destroyed == [{"seat": 1, "row": 7, "col": 7, "tile": 34}]


def test_planet_buttons_say_what_the_holds_can_take(flying):
    """A player sees before landing that the ship has no hold for a planet's goods (a
    landing costs days even when nothing is loaded)."""
    s, _ = flying([{(8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["2E-I-13"])  # no hold
    d = GAME.pending(s)[0]
    labels = {o.id: o.label.rsplit(".", 1)[1] for o in d.options if o.id.startswith("planet.")}
    assert labels == {
        "planet.0": "planet_none",
        "planet.1": "planet_none",
        "planet.2": "planet_none",
    }
    # one red hold of 1 space: RR -> 1 of 2; RBB -> 1 of 3; Y -> 1 of 1
    s, _ = flying(
        [{(7, 8): (RED_HOLD, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["2E-I-13"]
    )
    d = GAME.pending(s)[0]
    got = {o.id: (o.label.rsplit(".", 1)[1], o.args["fit"]) for o in d.options if o.args}
    assert got == {
        "planet.0": ("planet_some", 1),
        "planet.1": ("planet_some", 1),
        "planet.2": ("planet", 1),
    }
    from core import i18n

    text = i18n.t(d.options[0].label, "en", **d.options[0].args)
    assert text == "Planet 1: 🟥🟥 (your holds take 1 of 2)"


def test_done_says_which_start_space_and_when_nothing_was_built():
    s = GAME.new(2, {"rules": "2", "level": "I"}, 3)
    done = next(o for o in GAME.pending(s)[0].options if o.id == "done")
    assert done.label == "galaxy_trucker.opt.done_empty" and done.args["space"] == 5
    from core import i18n

    assert i18n.t(done.label, "en", **done.args) == (
        "Done with only the starting cabin: start space 5"
    )


def test_a_station_says_when_the_holds_cannot_take_its_goods(flying):
    s, _ = flying([{(8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["T-station"])  # no hold
    d = GAME.pending(s)[0]
    assert [o.id for o in d.options][:2] == ["take", "pass"]
    assert d.options[0].label == "galaxy_trucker.opt.take_none"
    s, _ = flying(
        [{(7, 8): (RED_HOLD, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}], ["T-station"]
    )
    take = GAME.pending(s)[0].options[0]
    assert take.label == "galaxy_trucker.opt.take_some" and (take.args["fit"], take.args["n"]) == (
        1,
        2,
    )
