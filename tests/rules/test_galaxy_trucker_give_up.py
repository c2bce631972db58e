"""Galaxy Trucker R26c: a ship may give up the flight unasked, at any time (a standing
decision, the ``standing`` hook of :class:`core.contract.Game`): during a card it leaves once
the card is resolved, between two cards at once, always before the next card is revealed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.contract import IllegalMove, apply_checked, join_picks
from core.i18n import t
from rules.galaxy_trucker import GAME, engine
from tests.rules import galaxy_trucker_kit as kit
from tests.symbols import explained, pictographs


@pytest.fixture
def flying(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A two-seat game in flight with the given ships and deck (seat 0 leads)."""
    return kit.flyer(monkeypatch, kit.TEST_CARDS)


SHIPS = [{(8, 7): (kit.ENGINE, 0), (7, 8): (kit.RED_HOLD, 0)}, {(8, 7): (kit.ENGINE_B, 0)}]


def standing(s: dict[str, Any]) -> dict[int, Any]:
    out = {d.seat: d for d in GAME.standing(s)}
    assert len(out) == len(GAME.standing(s))  # one per seat
    return out


def test_r26c_every_flying_ship_not_asked_may_give_up(flying):
    s, _ = flying(SHIPS, [kit.PLANETS, kit.STARDUST])
    assert [d.seat for d in GAME.pending(s)] == [0]  # seat 0 chooses a planet
    (d,) = standing(s).values()
    assert d.seat == 1 and not d.private and d.key == "give_up.1"
    assert [o.id for o in d.options] == ["retire"] and d.options[0].style == "danger"
    assert d.prompt == "galaxy_trucker.prompt.give_up"
    assert d.options[0].label == "galaxy_trucker.opt.give_up"
    # the ship being asked gives up beside its own question (R26b), not here
    assert "retire" in [o.id for o in GAME.pending(s)[0].options]
    assert not engine.can_give_up(s, 0)
    # a standing decision makes nobody "to move"
    assert engine.view_of(s, None)["waiting"] == [0]


def test_r26c_giving_up_during_a_card_takes_effect_once_it_is_resolved(flying):
    s, _ = flying(SHIPS, [kit.PLANETS, kit.STARDUST, kit.OPEN_SPACE])
    asked = GAME.pending(s)
    s, events = apply_checked(GAME, s, 1, "retire")
    assert kit.codes(events) == ["will_retire"] and events[0].private_to is None
    # the question open for seat 0 is the very same question (its buttons stay valid)
    assert GAME.pending(s) == asked
    assert s["flight"]["pos"][1] is not None and engine.view_of(s, None)["flight"]["retiring"] == [
        1
    ]
    assert standing(s) == {}  # taken: gone
    with pytest.raises(IllegalMove):
        apply_checked(GAME, s, 1, "retire")
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "retire")  # once
    # the card goes on: seat 1 still chooses its planet (without "retire"), then leaves
    s, _ = GAME.apply(s, 0, "pass")
    (d,) = GAME.pending(s)
    assert d.seat == 1 and "retire" not in [o.id for o in d.options]
    assert set(standing(s)) == {0}  # seat 0, no longer asked, may give up; seat 1 is leaving
    s, events = GAME.apply(s, 1, "planet.0")
    c = kit.codes(events)
    assert c.index("retired") < c.index("card_stardust")  # out before the next card
    assert s["flight"]["retired"] == [1] and s["flight"]["pos"][1] is None
    assert engine.view_of(s, None)["flight"]["retiring"] == []


def test_r26c_it_applies_when_another_ship_answers_any_question(flying):
    """Also while the ship asked answers a question that offers no "retire" (a crew loss)."""
    s, _ = flying(
        [{(7, 8): (kit.CABIN, 0), (8, 7): (kit.ENGINE, 0)}, {(8, 7): (kit.ENGINE_B, 0)}],
        [kit.EPIDEMIC, kit.STARDUST, kit.OPEN_SPACE],
    )
    assert engine.asked(s, 0) == "next"  # seat 0 was hurt: go or retire (R26b)
    assert set(standing(s)) == {1}


def test_r26c_between_two_cards_the_ship_leaves_at_once(flying):
    s, _ = flying(
        [{(7, 8): (kit.CABIN, 0), (8, 7): (kit.ENGINE, 0)}, {(8, 7): (kit.ENGINE_B, 0)}],
        [kit.EPIDEMIC, kit.STARDUST, kit.OPEN_SPACE],
    )
    (d,) = standing(s).values()
    assert d.seat == 1 and d.options[0].label == "galaxy_trucker.opt.give_up_now"
    assert d.prompt == "galaxy_trucker.prompt.give_up_now"
    asked = GAME.pending(s)
    s, events = apply_checked(GAME, s, 1, "retire")
    assert kit.codes(events) == ["gave_up"]
    assert s["flight"]["pos"][1] is None and s["flight"]["retired"] == [1]
    assert GAME.pending(s) == asked  # seat 0 is still asked, the same question
    s, events = apply_checked(GAME, s, 0, "go")
    assert "card_stardust" in kit.codes(events) and "retired" not in kit.codes(events)
    assert s["flight"]["retired"] == [1]
    res = GAME.result(s) if s["phase"] == "over" else None
    assert res is None or res.breakdown[1]["reward"] == 0


def test_r26c_none_in_building_pre_launch_rules_1_or_once_over(flying):
    s = GAME.new(2, {"rules": "2", "level": "I"}, 5)
    assert GAME.standing(s) == []  # building
    s1, _ = flying(SHIPS, [kit.STARDUST, kit.PLANETS], rules=1)
    assert engine.rules_of(s1) == 1 and GAME.standing(s1) == []
    with pytest.raises(IllegalMove):
        GAME.apply(s1, 1, "retire")  # a rules-1 game offers nothing of the kind
    s, _ = flying(SHIPS, [kit.PLANETS])
    s, _ = GAME.apply(s, 0, "pass")
    s, _ = GAME.apply(s, 1, "pass")
    assert s["phase"] == "over" and GAME.standing(s) == []


def test_r26c_in_the_trek_the_keys_carry_the_flight(flying):
    s, _ = flying(SHIPS, [kit.PLANETS, kit.STARDUST], level="trek")
    (d,) = standing(s).values()
    assert d.key == "t1.give_up.1"


def test_r26c_labels_fit_and_their_symbol_is_explained():
    known = explained(GAME.symbols)
    names = ["Anastasia", "Bartholomew"]
    for key in ("give_up", "give_up_now"):
        for lang in ("en", "es"):
            label = t(f"galaxy_trucker.opt.{key}", lang)
            prompt = t(f"galaxy_trucker.prompt.{key}", lang)
            assert (
                label != f"galaxy_trucker.opt.{key}" and prompt != f"galaxy_trucker.prompt.{key}"
            )
            assert not (pictographs(label) | pictographs(prompt)) - known
            assert len(f"{max(names, key=len)}: {label}") <= 80


@pytest.mark.parametrize("seed", range(6))
def test_r26c_random_flights_with_ships_giving_up_keep_the_contract(seed):
    """Random games (random answers, now and then a ship giving up unasked): nobody asked is
    ever offered the standing option, a ship given up never flies again, every game ends,
    and replaying the moves from the seed gives the same state."""
    rng = random.Random(f"give-up:{seed}")
    players = 2 + seed % 3
    options = {"rules": "2", "level": ("learning", "I", "II", "trek")[seed % 4]}
    s = GAME.new(players, options, seed)
    log: list[tuple[int, str]] = []
    gave_up: set[int] = set()
    for _ in range(3000):
        pending = GAME.pending(s)
        if not pending:
            break
        stand = GAME.standing(s)
        assert not {d.seat for d in stand} & {d.seat for d in pending}
        if s["phase"] == "flight":
            f = s["flight"]
            assert {d.seat for d in stand} <= {i for i, p in enumerate(f["pos"]) if p is not None}
            assert not {d.seat for d in stand} & gave_up
        if stand and rng.random() < 0.08:
            d = rng.choice(stand)
            seat, choice = d.seat, "retire"
            gave_up.add(seat)
        else:
            d = rng.choice(pending)
            seat = d.seat
            if d.multi:
                k = rng.randint(d.min_picks, min(d.max_picks, len(d.options)))
                choice = join_picks(d, [o.id for o in rng.sample(d.options, k)])
            else:
                choice = (
                    GAME.bot_choice(s, seat, rng)
                    if rng.random() < 0.7
                    else rng.choice(d.options).id
                )
        try:
            s, _ = apply_checked(GAME, s, seat, choice)
        except IllegalMove:
            choice = d.options[0].id
            s, _ = apply_checked(GAME, s, seat, choice)
        log.append((seat, choice))
        if "trek" in s and s["phase"] == "build":
            gave_up = set()  # a new flight of the Trek
    assert s["phase"] == "over"
    r = GAME.new(players, options, seed)
    for seat, choice in log:
        r, _ = GAME.apply(r, seat, choice)
    assert GAME.dump(r) == GAME.dump(s)
    assert GAME.dump(GAME.load(GAME.dump(s))) == GAME.dump(s)
