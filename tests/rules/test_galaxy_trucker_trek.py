"""Galaxy Trucker: the Intergalactic Trek (three flights in a row) and voluntary retirement,
one test (or more) per ruling R23-R29 of ``rules/galaxy_trucker/__init__.py``."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import i18n
from core.contract import IllegalMove, apply_checked
from rules.galaxy_trucker import GAME, engine
from rules.galaxy_trucker import adventure as adv
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.tiles import level, regular_tile_ids, start_cell
from tests.rules.galaxy_trucker_kit import (
    CABIN,
    CANNON,
    ENGINE,
    ENGINE_B,
    EPIDEMIC,
    HOLD,
    OPEN_SPACE,
    PLANETS,
    RED_HOLD,
    STARDUST,
    TEST_CARDS,
    codes,
    flyer,
)


def answer(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    """What a quick test player picks: the engine's bot."""
    return GAME.bot_choice(s, seat, rng)


def to_end_of_flight(
    s: dict[str, Any], rng: random.Random, k: int | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """Everyone finishes building at once (starting cabins only), then plays the flight with
    the bot's answers until flight ``k`` (of the Trek; default: the current one) is over;
    returns the events of the move that ended it."""
    if k is None:
        k = s["trek"]["flight"] if "trek" in s else 0
    events: list[Any] = []
    if "trek" in s and s["trek"]["flight"] != k:
        return s, events
    for seat in range(s["n"]):
        if s["phase"] == "build" and not s["players"][seat]["done"]:
            s, events = GAME.apply(s, seat, "done")
    for _ in range(500):
        ds = GAME.pending(s)
        if not ds or ("trek" in s and s["trek"]["flight"] != k):
            return s, events
        d = ds[0]
        s, events = apply_checked(cast(Any, GAME), s, d.seat, answer(s, d.seat, rng))
    raise AssertionError("the flight did not end")


@pytest.fixture
def flying(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A two-seat game in flight with the given ships and deck (seat 0 leads)."""
    return flyer(monkeypatch, TEST_CARDS)


def option_ids(s: dict[str, Any], seat: int) -> list[str]:
    return [o.id for d in GAME.pending(s) if d.seat == seat for o in d.options]


# --------------------------------------------------------------------------- R23


def test_r23_the_trek_is_three_flights_at_levels_one_two_three_started_afresh():
    assert "trek" in next(o.choices for o in GAME.options if o.id == "level")
    s = GAME.new(2, {"rules": "2", "level": "trek", "hourglass": "90s"}, 3)
    assert s["level"] == "I" and s["trek"] == {"flight": 1, "banked": [0, 0], "flights": []}
    assert s["hg"] == {"run": 1, "runs": level("I")["hourglass_runs"], "out": False}
    rng = random.Random(1)
    for k, lv in enumerate(("I", "II", "III"), start=1):
        assert s["trek"]["flight"] == k and s["level"] == lv and s["phase"] == "build"
        info = level(lv)
        # a fresh flight: every tile face down, new card piles, the hourglass of the level,
        # each ship only its starting cabin on this level's board
        assert sorted(s["facedown"]) == sorted(regular_tile_ids()) and not s["faceup"]
        assert s["hg"] == {"run": 1, "runs": info["hourglass_runs"], "out": False}
        fresh = GAME.new(2, {"rules": "2", "level": lv}, 1)["piles"]
        assert [len(p) for p in s["piles"]] == [len(p) for p in fresh]
        assert s["order"] == [] and "flight" not in s
        for p in s["players"]:
            assert list(p["ship"]) == [sh.key(start_cell(info["board"]))]
            assert p["lost"] == [] and p["reserve"] == [] and not p["done"]
        GAME.load(GAME.dump(s))  # a valid state at every step
        done: list[Any] = []
        for seat in (1, 0):
            s, events = GAME.apply(s, seat, "done")
            done += events
        assert s["phase"] in ("flight", "build", "over")
        if s["phase"] == "flight" and s["trek"]["flight"] == k:
            # rockets on this level's start spaces, in finishing order
            assert s["flight"]["pos"][1] == info["start_spaces"][0]
            assert s["flight"]["pos"][0] == info["start_spaces"][1]
        s, events = to_end_of_flight(s, rng, k)
        assert "trek_flight_over" in codes(done + events)
    assert s["phase"] == "over" and len(s["trek"]["flights"]) == 3
    assert GAME.pending(s) == [] and GAME.result(s) is not None
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "done")


def test_r23_single_flights_are_unchanged_by_the_trek():
    s = GAME.new(2, {"rules": "2", "level": "II"}, 8)
    assert "trek" not in s and s["level"] == "II"
    assert "trek" not in GAME.view(s, None)
    with pytest.raises(ValueError):
        GAME.new(2, {"rules": "2", "level": "IV"}, 8)


# --------------------------------------------------------------------------- R24


def test_r24_each_flight_adds_to_the_running_total_and_losses_come_out_of_it():
    s = GAME.new(2, {"rules": "2", "level": "trek"}, 4)
    s["trek"]["banked"] = [3, 0]
    s["phase"] = "over"
    # seat 0 lost 5 tiles this flight; seat 1 lost 2; nobody flew (no rewards)
    pool = list(s["facedown"])
    s["players"][0]["lost"] = pool[:5]
    s["players"][1]["lost"] = pool[5:7]
    table = engine.flight_table(s)
    # seat 0 pays 3 of its 5 (what it holds), seat 1 pays nothing (it holds nothing)
    assert sum(table[0].values()) == -3 and sum(table[1].values()) == 0
    events = engine._end_of_trek_flight(s, [])
    assert s["trek"]["flights"] == [[-3, 0]] and s["trek"]["banked"] == [0, 0]
    assert [e.args["total"] for e in events if e.code.endswith(".trek_credits")] == [0, 0]
    assert s["trek"]["flight"] == 2 and s["phase"] == "build"


def test_r24_the_final_result_is_the_totals_broken_down_by_flight():
    rng = random.Random(7)
    s = GAME.new(2, {"rules": "2", "level": "trek"}, 7)
    for _ in range(3):
        s, _ = to_end_of_flight(s, rng)
    res = GAME.result(s)
    assert res is not None
    for seat in range(2):
        b = res.breakdown[seat]
        assert list(b) == ["flight_1", "flight_2", "flight_3"]
        assert sum(b.values()) == res.scores[seat] == s["trek"]["banked"][seat]
        assert res.scores[seat] >= 0
        assert [s["trek"]["flights"][k][seat] for k in range(3)] == list(b.values())
    best = max(res.scores)
    assert [r == 1 for r in res.ranks] == [sc == best for sc in res.scores]


def test_r24_a_single_flight_keeps_its_own_table():
    s = GAME.new(2, {"rules": "2", "level": "I"}, 4)
    s["phase"] = "over"
    assert engine.flight_table(s) == adv.breakdown_of(s)


# --------------------------------------------------------------------------- R25


def test_r25_every_flight_of_the_trek_has_its_own_keys_and_hourglass():
    single = GAME.new(2, {"rules": "2", "level": "II", "hourglass": "90s"}, 2)
    d = GAME.pending(single)[0]
    assert d.key == "build.0.0" and d.timer is not None and d.timer.key == "hourglass.1"
    s = GAME.new(2, {"rules": "2", "level": "trek", "hourglass": "90s"}, 2)
    d = GAME.pending(s)[0]
    assert d.key == "t1.build.0.0" and d.timer is not None and d.timer.key == "t1.hourglass.1"
    assert d.timer.option == "hg.out"
    s, _ = to_end_of_flight(s, random.Random(2))
    d = GAME.pending(s)[0]
    assert d.key == "t2.build.0.0" and d.timer is not None and d.timer.key == "t2.hourglass.1"
    # the sand runs out: the timer's expiry is accepted as in a single flight
    s, events = apply_checked(GAME, s, 0, "hg.out", timer=True)
    assert "hg_out" in codes(events)


# --------------------------------------------------------------------------- R26


def test_r26_rules_1_retire_is_offered_beside_the_questions_from_the_second_card(flying):
    """A game stored under the first ruling keeps it (it replays bit for bit)."""
    ships = [{(8, 7): (ENGINE, 0), (7, 8): (RED_HOLD, 0)}, {(8, 7): (ENGINE_B, 0)}]
    s, _ = flying(ships, [PLANETS], rules=1)
    assert option_ids(s, 0) == ["planet.0", "planet.1", "planet.2", "pass"]  # first card
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "retire")
    s, _ = flying(
        [{(8, 7): (ENGINE, 0), (7, 8): (RED_HOLD, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [STARDUST, PLANETS, OPEN_SPACE],
        rules=1,
    )
    assert s["flight"]["cards_done"] == 1
    assert option_ids(s, 0) == ["planet.0", "planet.1", "planet.2", "pass", "retire"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "retire")  # not asked: not now
    before = GAME.pending(s)[0]
    s, events = apply_checked(GAME, s, 0, "retire")
    assert codes(events) == ["will_retire"] and events[0].private_to is None
    # the same question is still open (a new key), without "retire"; the ship still flies
    after = GAME.pending(s)[0]
    assert after.seat == 0 and after.key != before.key and after.prompt == before.prompt
    assert option_ids(s, 0) == ["planet.0", "planet.1", "planet.2", "pass"]
    assert s["flight"]["pos"][0] is not None
    assert GAME.view(s, None)["flight"]["retiring"] == [0]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "retire")  # once
    s, events = GAME.apply(s, 0, "planet.0")
    s, events = GAME.apply(s, 1, "pass")
    # the card is over: seat 0 leaves before the next card is revealed
    c = codes(events)
    assert c.index("retired") < c.index("card_open_space")
    assert s["flight"]["retired"] == [0] and s["flight"]["pos"][0] is None
    assert GAME.view(s, None)["flight"]["retiring"] == []


def test_r26b_retire_is_offered_beside_every_question_from_the_first_card(flying):
    ships = [{(8, 7): (ENGINE, 0), (7, 8): (RED_HOLD, 0)}, {(8, 7): (ENGINE_B, 0)}]
    s, _ = flying(ships, [PLANETS])
    assert option_ids(s, 0) == ["planet.0", "planet.1", "planet.2", "pass", "retire"]
    s, events = apply_checked(GAME, s, 0, "retire")
    assert codes(events) == ["will_retire"]
    s, _ = GAME.apply(s, 0, "pass")
    s, _ = GAME.apply(s, 1, "pass")
    assert s["phase"] == "over" and s["flight"]["retired"] == [0]


def test_r26b_a_ship_the_card_hurt_may_give_up_before_the_next_card(flying):
    # seat 0: two joined cabins (the epidemic takes one human from each); seat 1 alone
    s, events = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [EPIDEMIC, STARDUST, OPEN_SPACE],
    )
    assert "card_stardust" not in codes(events)  # not revealed yet
    (d,) = GAME.pending(s)
    assert d.seat == 0 and [o.id for o in d.options] == ["go", "retire"]
    assert d.args["crew"] == 2 and d.args["tiles"] == 0 and not d.private
    # not hurt: seat 1 is asked nothing (it may still give up unasked, R26c)
    assert [d.seat for d in GAME.pending(s)] == [0]
    before = s
    s, events = apply_checked(GAME, s, 0, "retire")
    c = codes(events)
    assert c.index("gave_up") < c.index("card_stardust")  # out before the next card
    assert s["flight"]["retired"] == [0] and s["flight"]["pos"][0] is None
    res = GAME.result(s)
    assert res is not None and res.breakdown[0]["reward"] == 0
    # flying on instead: the next card is revealed at once
    s2, events = apply_checked(GAME, before, 0, "go")
    assert "card_stardust" in codes(events) and s2["flight"]["pos"][0] is not None


def test_r26b_no_window_for_a_ship_the_card_did_not_hurt(flying):
    _s, events = flying(
        [{(8, 7): (ENGINE, 0), (7, 8): (RED_HOLD, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [STARDUST, OPEN_SPACE],
    )
    assert "card_open_space" in codes(events)  # stardust costs days, not the ship


def test_r26b_bots_and_absent_players_fly_on(flying):
    s, _ = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [EPIDEMIC, STARDUST],
    )
    assert engine.asked(s, 0) == "next"
    assert GAME.bot_choice(s, 0, random.Random(1)) == "go"
    assert "go" in GAME.skip_options and "retire" not in GAME.skip_options


def test_r26b_rules_1_states_open_no_window(flying):
    s, events = flying(
        [{(7, 8): (CABIN, 0), (8, 7): (ENGINE, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [EPIDEMIC, STARDUST],
        rules=1,
    )
    assert "card_stardust" in codes(events) and s["phase"] == "over"


def test_r26_retiring_during_the_last_card_counts(flying):
    s, _ = flying(
        [{(8, 7): (ENGINE, 0), (6, 7): (CANNON, 0)}, {(8, 7): (ENGINE_B, 0)}],
        [STARDUST, "T-slavers"],
    )
    assert "retire" in option_ids(s, 0)
    s, _ = GAME.apply(s, 0, "retire")
    s, _ = GAME.apply(s, 0, "pass")
    assert s["phase"] == "over" and s["flight"]["retired"] == [0]
    res = GAME.result(s)
    assert res is not None and res.breakdown[0]["reward"] == 0


# --------------------------------------------------------------------------- R27


def test_r27_a_retired_ship_keeps_card_credits_and_sells_goods_at_half(flying):
    s, _ = flying(
        [
            {(8, 7): (ENGINE, 0), (7, 8): (RED_HOLD, 0), (7, 6): (HOLD, 2)},
            {(8, 7): (ENGINE_B, 0)},
        ],
        [STARDUST, PLANETS, "T-ship"],
    )
    s, _ = GAME.apply(s, 0, "planet.1")  # red + 2 blue: 6 credits at full price
    s, _ = GAME.apply(s, 1, "pass")
    assert s["flight"]["card"] == "T-ship"
    # seat 0 landed and lost 2 days: seat 1 leads now, and passes; seat 0 gives up and
    # takes the abandoned ship (1 crew for 3 credits) before leaving
    assert [d.seat for d in GAME.pending(s)] == [1]
    s, _ = GAME.apply(s, 1, "pass")
    s, _ = GAME.apply(s, 0, "retire")
    s, _ = GAME.apply(s, 0, "take")
    assert s["phase"] == "over" and s["flight"]["retired"] == [0]
    b = GAME.result(s).breakdown
    assert b[0] == {"reward": 0, "best_ship": 0, "cards": 3, "goods": 3, "lost": 0}  # 6 / 2
    assert b[1]["reward"] == level("I")["rewards"][0]


# --------------------------------------------------------------------------- R28


def test_r28_bots_never_retire_of_their_own_will():
    offered = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new(2, {"rules": "2", "level": "I"}, seed)
        for _ in range(3000):
            ds = GAME.pending(s)
            if not ds:
                break
            d = ds[0]
            ids = [o.id for o in d.options]
            choice = GAME.bot_choice(s, d.seat, rng)
            if s["phase"] == "build" and len(s["players"][d.seat]["ship"]) >= 8 and "done" in ids:
                choice = "done"  # small ships: a quick test
            if "retire" in ids:
                offered += 1
                assert choice != "retire"
            s, _ = apply_checked(GAME, s, d.seat, choice)
        assert s["phase"] == "over"
    assert offered > 0


# --------------------------------------------------------------------------- R29


def test_r29_the_view_and_the_trail_say_which_flight_and_the_running_credits():
    s = GAME.new(2, {"rules": "2", "level": "trek"}, 9)
    v = GAME.view(s, None)
    assert v["phase"] == "galaxy_trucker.phase.trek1.build"
    assert v["trek"] == {
        "flight": 1,
        "flights": 3,
        "levels": ["I", "II", "III"],
        "banked": [0, 0],
        "history": [],
    }
    s, events = to_end_of_flight(s, random.Random(9))
    c = codes(events)
    assert "credits" not in c  # the Trek's own lines instead
    assert c[-1] == "trek_next" and events[-1].args == {"flight": 2, "flights": 3, "level": "II"}
    lines = [e for e in events if e.code.endswith(".trek_credits")]
    assert [e.args["seat"] for e in lines] == [0, 1]
    assert [e.args["total"] for e in lines] == s["trek"]["banked"]
    v = GAME.view(s, None)
    assert v["phase"] == "galaxy_trucker.phase.trek2.build"
    assert v["scores"] == s["trek"]["banked"] == v["trek"]["banked"]
    assert v["trek"]["history"] == [s["trek"]["banked"]]
    for lang in i18n.LANGS:
        for k in (1, 2, 3):
            for phase in ("build", "prelaunch", "flight"):
                assert i18n.has(f"galaxy_trucker.phase.trek{k}.{phase}", lang)
            assert i18n.has(f"galaxy_trucker.score.flight_{k}", lang)
        assert i18n.has("galaxy_trucker.phase.trek3.over", lang)
        text = i18n.t("galaxy_trucker.event.trek_credits", lang, seat="Ana", credits=4, total=9)
        assert "4" in text and "9" in text
        assert i18n.has("galaxy_trucker.opt.level.trek", lang)


# --------------------------------------------------------------------------- play-outs


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_trek_playouts_keep_the_contract(seed, players):
    """Random Treks (random answers, retirements included, the sand running out now and
    then) end after three flights; tiles are conserved, every state loads back, credits add
    up and never go below 0, and the same choices replay the same Trek."""
    options = {"rules": "2", "level": "trek", "hourglass": "90s"}
    s = GAME.new(players, options, seed)
    tiles = sorted(engine.all_tiles(s))
    r = random.Random(seed)
    moves = []
    for step in range(20000):
        if step % 20 == 0 or s["phase"] != "build":
            assert sorted(engine.all_tiles(s)) == tiles
            assert GAME.load(json.loads(json.dumps(GAME.dump(s)))) == s
            json.dumps(GAME.view(s, None))
        ds = GAME.pending(s)
        if not ds:
            break
        d = r.choice(ds)
        ids = [o.id for o in d.options]
        if d.timer and r.random() < 0.02:
            choice = d.timer.option
        elif s["phase"] == "build" and len(s["players"][d.seat]["ship"]) >= 8 and "done" in ids:
            choice = "done"  # small ships keep it quick
        elif s["phase"] == "build" or r.random() < 0.5:
            choice = GAME.bot_choice(s, d.seat, r)
        else:
            choice = r.choice(ids)
        try:
            s, _ = GAME.apply(s, d.seat, choice)
        except IllegalMove as exc:  # a goods pick that does not fit (R31) changes nothing
            assert exc.code == "galaxy_trucker.error.goods_dont_fit"
            choice = GAME.bot_choice(s, d.seat, r)
            s, _ = GAME.apply(s, d.seat, choice)
        moves.append((d.seat, choice))
        assert all(x >= 0 for x in s["trek"]["banked"])
    assert s["phase"] == "over" and len(s["trek"]["flights"]) == 3
    res = GAME.result(s)
    assert res is not None and list(res.scores) == s["trek"]["banked"]
    assert all(sum(b.values()) == sc >= 0 for b, sc in zip(res.breakdown, res.scores, strict=True))
    again = GAME.new(players, options, seed)
    for seat, c in moves:
        again, _ = GAME.apply(again, seat, c)
    assert GAME.dump(again) == GAME.dump(s)


def test_the_trek_table_renders_each_flight():
    from render.galaxy_trucker import render_table

    s = GAME.new(3, {"rules": "2", "level": "trek"}, 12)
    rng = random.Random(12)
    for _ in range(3):
        for lang in ("en", "es"):
            png = render_table(GAME.view(s, None), ["Ana", "Ben", "Cal"], lang)
            assert png.startswith(b"\x89PNG") and len(png) < 400_000
        s, _ = to_end_of_flight(s, rng)
    png = render_table(GAME.view(s, None), ["Ana", "Ben", "Cal"], "en")
    assert png.startswith(b"\x89PNG")
