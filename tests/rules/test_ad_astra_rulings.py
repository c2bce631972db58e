"""Ad Astra: one test per ruling R1…R24 of ``rules/ad_astra/__init__.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.contract import Event, IllegalMove
from core.i18n import t
from rules.ad_astra import GAME, engine
from rules.ad_astra.data import PLANET_COUNTS, SOL, STARS
from tests.rules.ad_astra_kit import (
    S,
    actions,
    build,
    codes,
    conserved,
    give,
    hand,
    ids,
    layout,
    planet,
    play,
    top,
    trade_start,
)

# ----------------------------------------------------------------------------- R1


@pytest.mark.parametrize(("n", "slots", "each"), [(3, 12, 4), (4, 12, 3), (5, 15, 3)])
def test_r1_slots_and_cards_per_player(n: int, slots: int, each: int) -> None:
    s = GAME.new(n, {}, 4)
    assert len(s["slots"]) == slots
    first = s["first"]
    order = []
    while s["step"] == "plan":
        seat = top(s)
        order.append(seat)
        card = sorted(ids(s, seat))[0]
        s, _ = play(s, seat, card)
        free = sorted((o for o in ids(s, seat) if o.startswith("s.")), key=lambda x: -int(x[2:]))
        s, _ = play(s, seat, free[0])  # any free slot: fill from the back
    assert order == [(first + i) % n for i in range(slots)]
    assert all(order.count(seat) == each for seat in range(n))


# ----------------------------------------------------------------------------- R2


def test_r2_set_up() -> None:
    firsts = set()
    for seed in range(40):
        n = 3 + seed % 3
        s = GAME.new(n, {}, seed)
        firsts.add(s["first"])
        sol = [p for p in s["planets"] if p["sys"] == SOL]
        assert len(sol) == n and all(p["up"] and p["t"] != "A" for p in sol)
        assert [p["b"] for p in sol] == [[i, "f"] for i in range(n)]
        sizes = [sum(1 for p in s["planets"] if p["sys"] == x) for x in STARS]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 43 - n
        assert all(not p["up"] for p in s["planets"] if p["sys"] != SOL)
        types = [p["t"] for p in s["planets"]]
        assert {t: types.count(t) for t in PLANET_COUNTS} == PLANET_COUNTS
        assert s["ships"] == [[-1]] * n and all(sum(h.values()) == 6 for h in s["res"])
    assert firsts == {0, 1, 2, 3, 4}


# ----------------------------------------------------------------------------- R3


def test_r3_production_shares_and_short_bank() -> None:
    s = layout(n=3, homes=["W", "F", "E"])
    pid = planet(s, "TY", 0)  # a water planet
    s["planets"][pid].update(up=True, b=[1, "c"])
    s["ships"][1] = [pid]
    give(s, 2)
    s["bank"]["W"] = 3
    s, _ = actions(s, (2, "p0"))  # green W/E, owned by seat 2, with a short bank
    s, ev = play(s, 2, "r.W")
    # clockwise from the owner: seat 2 gets nothing, seat 0 takes 2, seat 1 what is left
    assert s["res"][0]["W"] == 1 + 2 and s["res"][1]["W"] == 1 + 1 and s["bank"]["W"] == 0
    gains = [
        (e.args["seat"], e.args["count"], e.args["wanted"]) for e in ev if e.code.endswith("gain")
    ]
    assert gains == [(0, 2, 2), (1, 1, 2)]


# ----------------------------------------------------------------------------- R4


def test_r4_movement_order_and_energy_costs() -> None:
    s = layout(first=0)
    s["ships"][0] = [-1, planet(s, "LY", 0), planet(s, "SR", 0)]
    for pid in (planet(s, "LY", 0), planet(s, "SR", 0)):
        s["planets"][pid]["up"] = True
    give(s, 0, E=9)
    s, _ = actions(s, (0, "m0"))  # red TY/LY
    opts = {
        o.id: o.args["cost"] for d in GAME.pending(s) for o in d.options if o.id.startswith("mv.")
    }
    assert opts["mv.0.TY"] == 0 and opts["mv.0.LY"] == 0  # from deep space: free
    assert opts["mv.1.LY"] == 1 and opts["mv.1.TY"] == 2 and opts["mv.1.deep"] == 1
    assert opts["mv.2.TY"] == 2 and opts["mv.2.LY"] == 2
    assert not any(k.endswith(SOL) for k in opts)
    s, _ = play(s, 0, "mv.1.LY")
    s, _ = play(s, 0, f"l.{planet(s, 'LY', 3)}")
    assert s["res"][0]["E"] == 8
    # then each other player once, clockwise
    assert top(s) == 1
    s, _ = play(s, 1, "pass")
    s, _ = play(s, 2, "pass")
    s, _ = play(s, 3, "pass")
    # then the owner's other ships, once each (ship 1 already moved)
    assert top(s) == 0 and not any(o.startswith("mv.1.") for o in ids(s, 0))
    s, _ = play(s, 0, "mv.2.deep")
    assert s["res"][0]["E"] == 7 and s["ships"][0][2] == -1
    assert not any(o.startswith("mv.2.") for o in ids(s, 0))
    s, _ = play(s, 0, "mv.0.TY")
    s, _ = play(s, 0, f"l.{planet(s, 'TY', 0)}")
    assert s["task"] is None or s["task"]["k"] != "move"


# ----------------------------------------------------------------------------- R5 / R6


def test_r5_a_move_needs_a_landing_and_the_peek_is_private() -> None:
    s = layout(first=0)
    for i in range(5):  # TY: every planet face up with a colony of seat 1
        pid = planet(s, "TY", i)
        s["planets"][pid].update(up=True, b=[1, "c"])
    s, _ = actions(s, (0, "m0"))
    assert "mv.0.TY" not in ids(s, 0) and "mv.0.LY" in ids(s, 0)
    s, ev = play(s, 0, "mv.0.LY")
    looked = next(e for e in ev if e.code.endswith("looked"))
    assert looked.private_to is None and looked.args["count"] == 5
    saw = next(e for e in ev if e.code.endswith("saw"))
    assert saw.private_to == 0 and len(saw.args["planets"].split("+")) == 5
    d = GAME.pending(s)[0]
    assert d.private and d.seat == 0 and all(o.id.startswith("l.") for o in d.options)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "pass")  # must land


def test_r5_no_landing_on_other_pawns_nor_where_the_ship_was() -> None:
    s = layout(first=0)
    a, b, c = planet(s, "LY", 0), planet(s, "LY", 1), planet(s, "LY", 2)
    s["planets"][a]["up"] = True
    s["planets"][b].update(up=True, tf=2)
    s["planets"][c]["up"] = True
    s["ships"][0] = [a]
    s["ships"][1] = [c]
    s, _ = actions(s, (0, "m0"))
    s, _ = play(s, 0, "mv.0.LY")
    landings = {o for o in ids(s, 0)}
    assert f"l.{a}" not in landings and f"l.{b}" not in landings and f"l.{c}" not in landings
    assert landings == {f"l.{planet(s, 'LY', i)}" for i in (3, 4)}


def test_r6_known_planets_stay_private_until_revealed() -> None:
    s = layout(first=0)
    s, _ = actions(s, (0, "m0"))
    s, _ = play(s, 0, "mv.0.LY")
    first = planet(s, "LY", 0)
    s, _ = play(s, 0, f"l.{first}")
    mine = GAME.view(s, 0)["private"]["known_planets"]
    assert set(mine) == {str(planet(s, "LY", i)) for i in range(1, 5)}
    assert mine[str(planet(s, "LY", 2))] == "A"
    assert GAME.view(s, 1)["private"]["known_planets"] == {}
    assert "known_planets" not in GAME.view(s, None)
    # seat 1 reveals one of them: it leaves seat 0's memory
    s, _ = play(s, 1, "mv.0.LY")
    s, _ = play(s, 1, f"l.{planet(s, 'LY', 1)}")
    assert str(planet(s, "LY", 1)) not in GAME.view(s, 0)["private"]["known_planets"]


# ----------------------------------------------------------------------------- R7


def test_r7_alien_artifact_only_on_first_reveal() -> None:
    s = layout(first=0)
    s["adeck"] = ["tropaeum", "ianua"]
    alien = planet(s, "LY", 2)
    s, _ = actions(s, (0, "m0"), (1, "m0"))
    s, _ = play(s, 0, "mv.0.LY")
    s, ev = play(s, 0, f"l.{alien}")
    assert s["arts"][0] == ["ianua"]
    public = [e for e in ev if e.code.endswith(".artifact")]
    assert public and public[0].private_to is None and "art" not in public[0].args
    assert any(e.code.endswith("artifact_is") and e.private_to == 0 for e in ev)
    # seat 0's ship leaves; later seat 2 lands on the face-up alien planet: nothing drawn
    s["ships"][0] = [-1]
    for seat in (1, 2, 3):
        s, _ = play(s, seat, "pass")
    s["task"] = None
    s["ships"][2] = [-1]
    ev2: list[Event] = []
    engine._advance(s, ev2)
    assert top(s) == 1  # yellow's movement SR/LY
    s, _ = play(s, 1, "pass")
    s, _ = play(s, 2, "mv.0.LY")
    s, ev = play(s, 2, f"l.{alien}")
    assert s["arts"][2] == [] and s["adeck"] == ["tropaeum"]


# ----------------------------------------------------------------------------- R8 / R9 / R14


def test_r8_owner_builds_many_others_one_and_piece_limits() -> None:
    s = layout(first=0)
    give(s, 0, X=4, Y=4, Z=4)
    give(s, 1, X=4, Y=4, Z=4)
    s["ships"][1] = [-1, -1, -1, -1]  # already at the limit
    give(s, 2, X=4, Y=4, Z=4)
    s, _ = actions(s, (0, "b"))
    s, _ = build(s, 0, "ship")
    s, _ = build(s, 0, "ship")
    s, _ = build(s, 0, "ship")
    assert len(s["ships"][0]) == 4 and "ship" not in ids(s, 0)  # 4 at most
    # seat 0 cannot build anything else: its turn ends; seat 1 is at the limit, skipped
    assert top(s) == 2
    s, _ = build(s, 2, "ship")
    assert len(s["ships"][2]) == 2 and top(s) != 2  # one item only


def test_r9_placement_and_immediate_points() -> None:
    s = layout(first=0)
    alien, food = planet(s, "LY", 2), planet(s, "TY", 1)
    for pid in (alien, food):
        s["planets"][pid]["up"] = True
    s["ships"][0] = [alien, food]
    give(s, 0, W=9, F=9, E=9, X=9)
    s, _ = actions(s, (0, "b"))
    assert f"ter.{alien}" not in ids(s, 0) and f"ter.{food}" in ids(s, 0)
    assert f"fac.{alien}" not in ids(s, 0)  # a factory needs your colony first
    s, _ = play(s, 0, f"col.{alien}")
    assert s["vp"][0]["build"] == 3
    assert f"col.{alien}" not in ids(s, 0)  # one colony or factory per planet
    s, _ = play(s, 0, f"fac.{alien}")
    assert s["vp"][0]["build"] == 9 and s["planets"][alien]["b"] == [0, "f"]
    assert engine.pieces(s, 0)["c"] == 0  # the colony came back
    s, _ = play(s, 0, f"ter.{food}")
    assert s["vp"][0]["build"] == 13 and f"ter.{food}" not in ids(s, 0)
    # the ship leaves; the terraformed planet still takes a colony
    s["ships"][0] = [alien, -1]
    assert f"col.{food}" in ids(s, 0)
    assert s["ships"][0][0] == alien  # a ship that colonised stays


def test_r14_any_ore_is_chosen_when_there_is_a_choice() -> None:
    s = layout(first=0)
    give(s, 0, W=1, F=1, X=1, Y=3, Z=2)
    s, _ = actions(s, (0, "b"))
    s, ev = play(s, 0, "ship")
    assert ev == [] and hand(s, 0) == {"W": 1, "F": 1, "X": 1, "Y": 3, "Z": 2}
    d = GAME.pending(s)[0]
    assert d.private and d.seat == 0 and ids(s, 0) == {"ore.Y", "ore.Z", "back"}
    with pytest.raises(IllegalMove):
        GAME.apply(s, 0, "ore.X")  # no xanthium left after the fixed part
    s, _ = play(s, 0, "back")
    assert "ship" in ids(s, 0) and hand(s, 0)["Y"] == 3
    s, _ = play(s, 0, "ship")
    s, ev = play(s, 0, "ore.Z")
    built = next(e for e in ev if e.code.endswith(("built", "built_ship")))
    assert built.args["cards"] == "1X+1Y+2Z"
    assert hand(s, 0) == {"W": 1, "F": 1, "Y": 2}
    # A bot pays as before: the ore held most (X, Y, Z order on a tie).
    s = layout(first=0)
    give(s, 0, W=1, F=1, X=1, Y=3, Z=2)
    s, _ = actions(s, (0, "b"))
    s, _ = play(s, 0, "ship")
    s, ev = play(s, 0, GAME.bot_choice(s, 0, random.Random(1)))
    built = next(e for e in ev if e.code.endswith(("built", "built_ship")))
    assert built.args["cards"] == "1X+2Y+1Z"
    # Only one ore possible: paid at once, no question.
    s = layout(first=0)
    give(s, 0, W=1, F=1, Y=2)
    s["ships"][0] = [planet(s, "SOL", 1)]
    s["planets"][planet(s, "SOL", 1)]["b"] = None
    s, _ = actions(s, (0, "b"))
    s, ev = play(s, 0, f"col.{planet(s, 'SOL', 1)}")
    assert "built" in codes(ev) and hand(s, 0) == {"Y": 1}


# ----------------------------------------------------------------------------- R10–R12


def test_r10_board_scoring_bonus_first_player_deep_ships_and_sol() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    s["ships"][2] = [-1, -1]
    s, ev = actions(s, (2, "s2"), (1, "s1"), (0, "s1"))
    assert s["first"] == 2 and "first_player" in codes(ev)
    s, ev = play(s, 2, "sc.systems")  # everyone: SOL only -> 1 each, a tie
    assert [v["scoring"] for v in s["vp"]] == [1, 1, 1] and "no_bonus" in codes(ev)
    s, ev = play(s, 1, "sc.ships")  # deep-space ships count: seat 2 leads alone
    assert [v["scoring"] for v in s["vp"]] == [3, 3, 5]
    assert [v["bonus"] for v in s["vp"]] == [0, 0, 3]
    assert s["first"] == 0  # the owner of the latest scoring card revealed


def test_r11_resource_scorings_from_the_owners_left() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    give(s, 0, W=3, F=1)
    give(s, 1, X=4)
    give(s, 2, W=1, F=1, E=1)
    s, _ = actions(s, (1, "s3"), (0, "s3"))
    s, _ = play(s, 1, "sc.same")
    # left of the owner first (seat 2 has no pair: skipped), the owner last
    assert top(s) == 0
    s, _ = play(s, 0, "t.W")
    assert ids(s, 0) == {"k.2", "k.3", "back"}
    s, _ = play(s, 0, "k.3")
    assert top(s) == 1
    s, _ = play(s, 1, "t.X")
    s, _ev = play(s, 1, "k.4")
    assert [v["scoring"] for v in s["vp"]] == [3, 4, 0] and s["vp"][1]["bonus"] == 3
    # different resources: one of each chosen type; first whether, then 2 or more types
    s, _ = play(s, 0, "sc.diff")
    assert top(s) == 2  # seat 1 has no cards left: skipped
    assert ids(s, 2) == {"diff", "none"}
    s, _ = play(s, 2, "diff")
    (d,) = [d for d in GAME.pending(s) if d.seat == 2]
    assert (d.min_picks, d.max_picks) == (2, 3)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 2, "d.W")
    s, _ = play(s, 2, "d.W,d.F,d.E")
    assert s["vp"][2]["scoring"] == 3 and conserved(s)


def test_r12_scoring_cards_come_back_after_all_three() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    s["used_sc"][0] = ["s1", "s2"]
    s["hand"][0] = [c for c in s["hand"][0] if c not in ("s1", "s2")]
    s["used_sc"][1] = ["s1"]
    s["hand"][1].remove("s1")
    s, _ = actions(s, (0, "s3"), (1, "s2"))
    s, _ = play(s, 0, "sc.same")
    while s["step"] == "act":
        d = GAME.pending(s)[0]
        s, _ = play(s, d.seat, "none" if "none" in ids(s, d.seat) else sorted(ids(s, d.seat))[0])
    assert s["round"] == 2
    assert sorted(s["hand"][0]) == sorted(engine.CARD_IDS) and s["used_sc"][0] == []
    assert s["used_sc"][1] == ["s1", "s2"] and "s2" not in s["hand"][1]


# ----------------------------------------------------------------------------- R13


def test_r13_hand_limit_discards_at_once_and_privately() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    give(s, 0, W=8, X=5)
    give(s, 2, F=11)
    s["arts"][1] = ["tropaeum"] * 3
    give(s, 1, E=10)
    s, _ = actions(s, (0, "t"))
    s, _ = play(s, 0, "done")
    assert s["step"] == "discard"
    seats = {d.seat for d in GAME.pending(s)}
    assert seats == {0, 2} and all(d.private for d in GAME.pending(s))
    d0 = next(d for d in GAME.pending(s) if d.seat == 0)
    assert d0.min_picks == d0.max_picks == 3
    s, ev = play(s, 2, "x.F.1")
    assert s["step"] == "discard" and hand(s, 2) == {"F": 10}
    s, ev = play(s, 0, "x.W.1,x.W.2,x.X.1")
    assert hand(s, 0) == {"W": 6, "X": 4} and s["round"] == 2
    assert any(e.code.endswith("discarded_cards") and e.private_to == 0 for e in ev)


# ----------------------------------------------------------------------------- R15–R20


def test_r15_hands_open_only_during_trade() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    assert GAME.view(s, None)["open_hands"] is None
    s = trade_start()
    assert GAME.view(s, None)["open_hands"][1] == {"W": 0, "F": 2, "E": 1, "X": 0, "Y": 0, "Z": 0}
    s, _ = play(s, 0, "done")
    assert GAME.view(s, None)["open_hands"] is None


def test_r16_offer_accept_refuse_and_lapse() -> None:
    s = trade_start({"trade_time": "live"})
    assert {"offer.1", "offer.2", "bank.W", "done"} <= ids(s, 0)
    s, _ = play(s, 0, "offer.1")
    d = GAME.pending(s)[0]
    assert d.multi and d.seat == 0 and d.timer is not None
    s, ev = play(s, 0, "g.W.1,g.W.2,w.F.1")
    assert "offer" in codes(ev) and ev[0].private_to is None
    offer = next(d for d in GAME.pending(s) if d.seat == 1)
    assert offer.timer is not None and offer.timer.seconds == 40  # its own, shorter time
    main = next(d for d in GAME.pending(s) if d.seat == 0)
    assert main.timer is not None and main.timer.seconds == 120
    assert offer.timer.option == "lapse.1" and offer.key == "offer.1"
    s, ev = play(s, 1, "acc.1")
    assert hand(s, 0) == {"W": 1, "F": 1, "X": 1} and hand(s, 1) == {"W": 2, "F": 1, "E": 1}
    s, _ = play(s, 0, "offer.2")
    s, _ = play(s, 0, "g.X.1,w.Z.1")
    s, ev = play(s, 2, "ref.2")
    assert "refused" in codes(ev) and hand(s, 2) == {"Z": 2}
    s, _ = play(s, 0, "offer.2")
    s, _ = play(s, 0, "g.X.1,w.Z.1")
    s, ev = play(s, 2, "lapse.3")  # what the host applies when the timer runs out
    assert "lapsed" in codes(ev) and hand(s, 2) == {"Z": 2}
    # the recipient cannot make offers; there is a cap on offers per window
    assert not any(o.startswith("offer.") for o in ids(s, 1))
    s["task"]["noff"] = engine.MAX_OFFERS
    assert not any(o.startswith("offer.") for o in ids(s, 0))


def test_r17_proposals_only_the_owner_accepts() -> None:
    s = trade_start()
    assert ids(s, 1) == {"prop", "pass"}
    s, _ = play(s, 1, "prop")
    s, ev = play(s, 1, "g.F.1,w.W.1")
    assert "proposal" in codes(ev)
    assert "prop" not in ids(s, 1)  # one open proposal at a time
    prop = next(d for d in GAME.pending(s) if d.prompt.endswith("proposal"))
    assert prop.seat == 0 and {o.id for o in prop.options} == {"acc.1", "ref.1"}
    with pytest.raises(IllegalMove):
        GAME.apply(s, 2, "acc.1")
    s, _ = play(s, 0, "acc.1")
    assert hand(s, 0)["F"] == 1 and hand(s, 1)["W"] == 1
    for _ in range(2):
        s, _ = play(s, 1, "prop")
        s, _ = play(s, 1, "g.E.1,w.W.1")
        s, _ = play(s, 0, f"ref.{s['task']['offers'][0]['id']}")
    assert "prop" not in ids(s, 1)  # three per window
    s, _ = play(s, 2, "pass")
    assert 2 not in {d.seat for d in GAME.pending(s)}


def test_r18_bank_two_for_one_owner_only() -> None:
    s = trade_start()
    assert "bank.X" not in ids(s, 0) and not any(o.startswith("bank.") for o in ids(s, 2))
    s, _ = play(s, 0, "bank.W")
    s, ev = play(s, 0, "get.Y")
    assert hand(s, 0) == {"W": 1, "X": 1, "Y": 1} and "bank_trade" in codes(ev)
    assert conserved(s)


def test_r19_accept_only_while_both_hold_the_cards() -> None:
    s = trade_start()
    s, _ = play(s, 0, "offer.1")
    s, _ = play(s, 0, "g.W.1,w.F.1,w.F.2")
    s, _ = play(s, 0, "offer.2")
    s, _ = play(s, 0, "g.W.1,g.W.2,g.W.3,w.Z.1")
    s, _ = play(s, 2, "acc.2")  # seat 0 has no water left
    assert "acc.1" not in ids(s, 1) and {"ref.1", "lapse.1"} <= ids(s, 1)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "acc.1")


def test_r20_done_or_time_closes_and_open_offers_lapse() -> None:
    s = trade_start({"trade_time": "days"})
    main = next(d for d in GAME.pending(s) if d.seat == 0)
    assert main.timer is not None and main.timer.option == "done"
    assert main.timer.seconds == 12 * 3600
    s, _ = play(s, 0, "offer.1")
    s, _ = play(s, 0, "g.W.1,w.F.1")
    offer = next(d for d in GAME.pending(s) if d.seat == 1)
    assert offer.timer is not None and offer.timer.seconds == 4 * 3600
    s, ev = play(s, 0, "done")
    assert "lapsed" in codes(ev) and "trade_closed" in codes(ev)
    assert s["task"] is None or s["task"]["k"] != "trade"


# ----------------------------------------------------------------------------- R21


def test_r21_end_at_fifty_after_the_round_and_shared_places() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    s["vp"][0]["scoring"] = 49
    s["vp"][1]["scoring"] = 52
    s, _ = actions(s, (0, "s1"), (1, "b"))
    s, _ = play(s, 0, "sc.colfac")  # 2 for each home factory, a tie
    assert s["step"] == "over"
    res = GAME.result(s)
    assert res is not None and res.scores == (51, 54, 2) and res.ranks == (2, 1, 3)
    t = layout(n=3, first=0, homes=["W", "F", "E"])
    t["vp"][0]["scoring"] = 10
    t["vp"][1]["scoring"] = 10
    t["ending"] = True
    t, _ = actions(t, (2, "b"))  # nobody can build: the round, and the game, end
    res = GAME.result(t)
    assert res is not None and res.ranks == (1, 1, 3)


def test_r21_last_planet_revealed_ends_after_the_round() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"])
    for p in s["planets"]:
        p["up"] = True
    last = planet(s, "LY", 0)
    s["planets"][last]["up"] = False
    s, _ = actions(s, (0, "m0"), (1, "b"))
    s, _ = play(s, 0, "mv.0.LY")
    s, ev = play(s, 0, f"l.{last}")
    assert "last_planet" in codes(ev) and s["step"] == "act"
    while s["step"] == "act":
        d = GAME.pending(s)[0]
        s, _ = play(s, d.seat, "pass" if "pass" in ids(s, d.seat) else "done")
    assert s["step"] == "over"


# ----------------------------------------------------------------------------- R22


def test_r22_warehouse_at_once() -> None:
    s = layout(first=0)
    s["adeck"] = ["repositorium"]
    s["bank"]["Z"] = 0
    s, _ = actions(s, (0, "m0"))
    s, _ = play(s, 0, "mv.0.LY")
    s, ev = play(s, 0, f"l.{planet(s, 'LY', 2)}")
    assert s["arts"][0] == [] and "warehouse" in codes(ev)
    assert hand(s, 0) == {"W": 2, "F": 2, "E": 2, "X": 2, "Y": 2, "Z": 1}


def test_r22_gate_propulsor_speculum_tropaeum() -> None:
    s = layout(first=0)
    s["arts"][0] = ["ianua", "tropaeum"]
    s["arts"][1] = ["propulsor"]
    s["arts"][2] = ["speculum"]
    s["ships"][1] = [-1, planet(s, "SR", 0)]
    s["planets"][planet(s, "SR", 0)]["up"] = True
    give(s, 1)
    s, _ = actions(s, (0, "m0"))
    s, _ = play(s, 0, "art.tropaeum")
    assert s["vp"][0]["artifact"] == 5
    s, _ = play(s, 0, "art.ianua")
    assert "mv.0.NR" in ids(s, 0)
    s, _ = play(s, 0, "mv.0.NR")
    s, _ = play(s, 0, f"l.{planet(s, 'NR', 0)}")
    assert s["res"][0]["E"] == 1
    s, _ = play(s, 1, "art.propulsor")  # no energy, but every move is free
    s, _ = play(s, 1, "mv.1.TY")
    s, _ = play(s, 1, f"l.{planet(s, 'TY', 0)}")
    assert top(s) == 1  # and all its ships, as if it owned the card
    s, _ = play(s, 1, "mv.0.LY")
    s, _ = play(s, 1, f"l.{planet(s, 'LY', 0)}")
    s, _ = play(s, 2, "art.speculum")
    s, ev = play(s, 2, "sp.NY,sp.SY")
    assert set(map(int, GAME.view(s, 2)["private"]["known_planets"])) >= {
        planet(s, "NY", 0),
        planet(s, "SY", 4),
    }
    assert all(not e.private_to or e.private_to == 2 for e in ev)


def test_r22_machina_cornu_arcanum() -> None:
    s = layout(n=3, first=0, homes=["W", "F", "E"], options={"artifacts": "all"})
    s["arts"][1] = ["machina"]
    s["arts"][0] = ["cornu", "arcanum"]
    give(s, 1)
    s, _ = actions(s, (0, "p0"), (0, "b"), (0, "s1"))
    s, _ = play(s, 0, "art.cornu")
    s, _ = play(s, 0, "r.W")
    assert s["res"][0]["W"] == 1 + 4  # factory 2, doubled
    assert top(s) == 1  # the owner has nothing to build; seat 1 holds Machina
    s, _ = play(s, 1, "art.machina")
    s, _ = play(s, 1, "ship")
    assert len(s["ships"][1]) == 2 and hand(s, 1) == {}
    s, _ = play(s, 0, "sc.colfac")
    s["vp"][0]["scoring"] = 60
    rng = random.Random(1)
    while s["step"] != "over":
        d = GAME.pending(s)[0]
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
    res = GAME.result(s)
    assert res is not None and res.breakdown[0]["arcanum"] == 7
    assert GAME.view(s, None)["scores"][0] == engine.vp_total(s, 0) + 7


def test_r22_commercium_swaps_up_to_three_cards_with_the_bank() -> None:
    s = layout(first=0)
    s["arts"][1] = ["commercium"]
    give(s, 0)
    give(s, 1, W=2, X=1)
    s, _ = actions(s, (0, "b"))
    assert top(s) == 1 and "art.commercium" in ids(s, 1)  # during its own step only
    s, ev = play(s, 1, "art.commercium")
    assert s["arts"][1] == [] and "art_used" in codes(ev)
    assert ids(s, 1) == {"sw.W", "sw.X", "stop"}
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "sg.F")  # first the card given
    s, _ = play(s, 1, "sw.W")
    assert "sg.W" not in ids(s, 1) and {"sg.F", "back"} <= ids(s, 1)
    s, _ = play(s, 1, "back")
    for g in ("W", "X", "W"):
        s, _ = play(s, 1, f"sw.{g}")
        s, ev = play(s, 1, "sg.F")
        assert "swapped" in codes(ev)
    assert hand(s, 1) == {"F": 3}  # three swaps, then the card is spent
    assert conserved(s)
    assert not any(o.startswith(("sw.", "sg.", "art.")) for o in ids(s, 1))
    # Stopping early is allowed; a bot uses it when one card is needed clearly more.
    s = layout(first=0)
    s["arts"][0] = ["commercium"]
    give(s, 0, W=5, E=1)
    s, _ = actions(s, (0, "m0"))
    assert "art.commercium" in ids(s, 0)
    s, _ = play(s, 0, "art.commercium")
    s, _ = play(s, 0, "stop")
    assert hand(s, 0) == {"W": 5, "E": 1} and "art.commercium" not in ids(s, 0)
    s = layout(first=0)
    s["arts"][0] = ["commercium"]
    give(s, 0, W=5, E=1)
    s, _ = actions(s, (0, "m0"))
    rng = random.Random(3)
    for _ in range(3):
        s, _ = GAME.apply(s, 0, GAME.bot_choice(s, 0, rng))
    assert s["res"][0]["W"] < 5 and s["arts"][0] == []


def armed_start(s: S, armed: list[list[Any]], *entries: tuple[int, str]) -> tuple[S, list[Event]]:
    """Like ``actions``, with these [slot index, seat, artifact] armed during planning."""
    for seat, card in entries:
        s["hand"][seat].remove(card)
    s["slots"] = [[seat, card, False] for seat, card in entries]
    s["placed"] = len(entries)
    s["armed"] = armed
    ev: list[Event] = []
    engine._advance(s, ev)
    return s, ev


def test_r22_sigillum_goes_back_when_it_cannot_act() -> None:
    s = layout(first=0)
    s["arts"][0] = ["sigillum"]
    s["arts"][1] = ["sigillum"]  # (two copies only to test both cases at once)
    s, ev = armed_start(s, [[0, 0, "sigillum"], [0, 1, "sigillum"]], (0, "m0"))
    assert codes(ev).count("armed_back") == 2 and "art_used" not in codes(ev)
    assert all(e.private_to is not None for e in ev if e.code.endswith("armed_back"))
    assert s["arts"][0] == ["sigillum"] and s["arts"][1] == ["sigillum"]
    assert GAME.pending(s)[0].seat == 0 and s["armed"] == []


def test_r22_sigillum_on_production_and_responsum_takes_the_card() -> None:
    s = layout(first=0, options={"artifacts": "all"})
    s["arts"][1] = ["sigillum"]
    s["arts"][2] = ["responsum"]
    s, ev = actions(s, (0, "p0"), (0, "m0"))
    # (armed by hand: planning is covered by test_r22_arming_is_secret_and_once)
    s["cur"] = -1
    s["task"] = None
    s["armed"] = [[0, 1, "sigillum"], [1, 2, "responsum"]]
    s["slots"][0][2] = s["slots"][1][2] = False
    ev = []
    engine._advance(s, ev)
    assert "art_used" in codes(ev)
    d = GAME.pending(s)[0]
    assert d.seat == 1 and d.prompt.endswith("produce")  # seat 1 picks seat 0's production
    assert "art.cornu" not in ids(s, 1) and s["arts"][1] == []
    s, _ = play(s, 1, "r.W")
    assert s["task"]["k"] == "move" and s["task"]["o"] == 2  # Responsum: seat 2 owns it
    assert s["task"]["q"][0] == [2, "one"] and s["task"]["q"][-1] == [2, "rest"]
    assert s["arts"][2] == [] and s["slots"][1][0] == 0  # the card still goes back to 0


def test_r22_responsum_and_sigillum_on_scoring() -> None:
    s = layout(first=0, options={"artifacts": "all"})
    s["arts"][2] = ["responsum"]
    s, _ = armed_start(s, [[0, 2, "responsum"]], (0, "s1"))
    assert s["first"] == 2 and GAME.pending(s)[0].seat == 2  # first player, and it picks
    s = layout(first=0)
    s["arts"][2] = ["sigillum"]
    s, _ = armed_start(s, [[0, 2, "sigillum"]], (1, "s1"))
    assert s["first"] == 1 and GAME.pending(s)[0].seat == 2  # it picks; 1 is first player
    elems = sorted(o for o in ids(s, 2) if o.startswith("sc."))
    s, _ = play(s, 2, elems[0])


def test_r22_arming_is_secret_and_once() -> None:
    s = layout(first=0, options={"artifacts": "all"})
    s["arts"][1] = ["responsum", "sigillum"]
    s, _ = play(s, 0, "c.p0")
    s, _ = play(s, 0, "s.1")
    assert {"arm.responsum", "arm.sigillum"} <= ids(s, 1)
    s, _ = play(s, 1, "arm.responsum")
    d = GAME.pending(s)[0]
    assert d.private and d.seat == 1 and "a.12" in ids(s, 1)
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, "a.99")
    s, _ = play(s, 1, "back")
    assert s["armed"] == [] and "arm.responsum" in ids(s, 1)
    s, _ = play(s, 1, "arm.responsum")
    s, ev = play(s, 1, "a.1")
    assert all(e.private_to == 1 for e in ev) and top(s) == 1  # still its turn to plan
    assert GAME.view(s, 1)["private"]["armed"] == {"1": "responsum"}
    assert GAME.view(s, 0)["private"]["armed"] == {}
    assert "armed" not in GAME.view(s, None)
    assert "arm.responsum" not in ids(s, 1) and "arm.sigillum" in ids(s, 1)  # once a round


def test_r16_a_stale_answer_is_explained() -> None:
    s = trade_start()
    s, _ = play(s, 0, "offer.1")
    s, _ = play(s, 0, "g.W.1,w.F.1")
    s, _ = play(s, 1, "ref.1")
    assert GAME.gone_reason(s, 1, "acc.1") == ("ad_astra.gone.deal", {})
    assert GAME.gone_reason(s, 1, "mv.0.LY") is None


# ----------------------------------------------------------------------------- R23 / R24


def test_r23_no_offer_of_a_resource_for_the_same_resource() -> None:
    s = trade_start({"rules": "2"})  # what a new lobby stores
    give(s, 0, W=3, X=1, Z=1)
    give(s, 1, W=1, F=2, E=1)
    before = [dict(h) for h in s["res"]]
    s, _ = play(s, 0, "offer.1")
    s, ev = play(s, 0, "g.W.1,w.W.1")
    assert codes(ev) == ["same_both"] and ev[0].args["res"] == "W"
    assert s["task"]["offers"] == [] and s["task"]["noff"] == 0  # nothing sent, none used
    assert [dict(h) for h in s["res"]] == before
    assert "offer.1" in ids(s, 0)  # the trader may compose a proper one
    s, ev = play(s, 0, "offer.1")
    s, ev = play(s, 0, "g.W.1,g.X.1,w.F.1")  # different types: sent
    assert codes(ev) == ["offer"]
    # a proposal to the trader follows the same rule
    s, _ = play(s, 2, "prop")
    s, ev = play(s, 2, "g.Z.1,w.Z.1")
    assert codes(ev) == ["same_both"] and not any(o["prop"] for o in s["task"]["offers"])


def test_r24_ships_at_one_place_are_one_button_named_by_that_place() -> None:
    s = layout(first=0)
    s["ships"][0] = [-1, -1, planet(s, "LY", 0)]
    s["planets"][planet(s, "LY", 0)]["up"] = True
    give(s, 0, E=9)
    s, _ = actions(s, (0, "m0"))  # red TY/LY
    d = GAME.pending(s)[0]
    moves = [o for o in d.options if o.id.startswith("mv.")]
    assert sorted(o.id for o in moves) == ["mv.0.LY", "mv.0.TY", "mv.2.LY", "mv.2.TY", "mv.2.deep"]
    shown = {o.id: t(o.label, "en", **dict(o.args)) for o in moves}
    pid = planet(s, "LY", 0)
    assert shown["mv.0.TY"] == "Ship in deep space → Twin Yellow (0 energy)"
    assert shown["mv.2.deep"] == f"Ship on planet {pid + 1} → deep space (1 energy)"
    # the other ship in deep space still moves when asked for (stored games replay)
    s, ev = GAME.apply(s, 0, "mv.1.TY")
    assert s["task"]["moved"][0] == [1] and codes(ev)[0] == "move_from_deep"


def test_planets_are_named_by_the_number_drawn_on_them() -> None:
    s = layout(first=0)
    pid = planet(s, "LY", 1)
    s["ships"][0] = [-1]
    give(s, 0, E=2)
    s, _ = actions(s, (0, "m0"))
    s, _ = play(s, 0, "mv.0.LY")
    land = GAME.pending(s)[0]
    opt = next(o for o in land.options if o.id == f"l.{pid}")
    assert opt.args["planet"] == pid + 1  # 1-based, as the table numbers them
    s, ev = play(s, 0, f"l.{pid}")
    assert next(e for e in ev if e.code.endswith(".land")).args["planet"] == pid + 1


def test_an_offer_is_answered_in_public() -> None:
    s = trade_start()
    s, _ = play(s, 0, "offer.1")
    s, _ = play(s, 0, "g.W.1,w.F.1")
    answer = next(d for d in GAME.pending(s) if d.seat == 1 and d.prompt.endswith("offer"))
    assert not answer.private  # the offer was made on the table: so is its answer


def test_the_end_reveals_every_secret() -> None:
    s = layout(first=0)
    s["arts"][1] = ["ianua"]
    give(s, 2, W=2, Z=1)
    give(s, 0)
    s["step"] = "over"
    v = GAME.view(s, None)
    keys = [k for k, _ in v["reveal"]]
    s["arts"][2] = ["cornu", "tropaeum"]
    give(s, 1)
    v = GAME.view(s, None)
    keys = [k for k, _ in v["reveal"]]
    assert keys[:3] == [
        "ad_astra.reveal.none",
        "ad_astra.reveal.arts",
        "ad_astra.reveal.hand_arts",
    ]
    line = t(v["reveal"][2][0], "en", ["Ana", "Ben", "Cal"], **v["reveal"][2][1])
    assert line == (
        "Cal still held 2 water + 1 zozodium; artifacts: Cornu Copiae + Tropaeum Antiquum."
    )
    assert "Stellarum Ianua" in t(v["reveal"][1][0], "es", ["A", "B", "C"], **v["reveal"][1][1])
    hidden = {p["sys"] for p in s["planets"] if not p["up"]}
    assert keys.count("ad_astra.reveal.hidden") == len(hidden) > 0  # one line per system
    counted = sum(
        int(part[:-1])
        for k, a in v["reveal"]
        if k.endswith("hidden")
        for part in a["planets"].split("+")
    )
    assert counted == sum(1 for p in s["planets"] if not p["up"])
    for key, args in v["reveal"]:
        for lang in ("en", "es"):
            assert t(key, lang, ["A", "B", "C", "D"], **args) != key
    res = GAME.result(s)
    assert res is not None and res.tiebreak == ""  # no tie-break in the rulebook: shared places


def test_a_build_button_shows_the_points_it_scores() -> None:
    s = layout(first=0)
    pid = planet(s, "LY", 0)
    s["planets"][pid].update(up=True, t="A")
    s["ships"][0] = [pid]
    give(s, 0, W=1, F=1, X=1)
    s, _ = actions(s, (0, "b"))
    opt = next(o for d in GAME.pending(s) for o in d.options if o.id == f"col.{pid}")
    assert opt.args["vp"] == 3
    assert (
        t(opt.label, "en", **dict(opt.args))
        == f"Colony on planet {pid + 1} (Large Yellow): +3 points"
    )
    s, ev = play(s, 0, f"col.{pid}")
    assert next(e for e in ev if e.code.endswith(".built")).args["vp"] == 3


def test_r23_a_game_stored_before_it_still_replays() -> None:
    """The host rebuilds a game from ``new(players, row.options, seed)`` and its log (undo,
    rollback, the replay audit): a lobby stored before R23 has no ``rules`` option, and its
    same-type offers are still sent, so its log replays to the stored state."""
    s = trade_start({})
    assert "rules" not in s  # as a state stored before R23
    give(s, 0, W=3, X=1, Z=1)
    give(s, 1, W=1, F=2, E=1)
    s, _ = play(s, 0, "offer.1")
    s, ev = play(s, 0, "g.W.1,w.W.1")
    assert codes(ev) == ["offer"]
    new = {o.id: o.default for o in GAME.options}
    assert GAME.new(3, new, 4)["rules"] == 2
    assert "rules" in GAME.unused_options(new)  # never listed nor switched in the lobby
