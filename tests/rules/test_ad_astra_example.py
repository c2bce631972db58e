"""Ad Astra: the rulebook's worked example of round 1 (4 players) replayed move by move.

Seats sit clockwise Red 0, Yellow 1, Green 2, Blue 3; Blue is first player. The example
ends with Red 6, Blue 4, Green 4 and Yellow 2.
"""

from __future__ import annotations

from rules.ad_astra import GAME
from tests.rules.ad_astra_kit import S, build, conserved, hand, layout, place, planet, play

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3


def example_start() -> S:
    s = layout(first=BLUE)
    assert len(s["planets"]) == 43
    s["adeck"] = ["tropaeum", "machina", "ianua"]  # Green draws the Star Gate
    return s


def test_worked_example_round_one() -> None:
    s = example_start()
    # Planning: Blue, Red, Yellow, Green, three times; each card and the slot it goes to.
    cards = ["s1", "p1", "m0", "p0", "p0", "m0", "b", "t", "b", "p0", "p0", "b"]
    slots = [12, 1, 2, 3, 4, 5, 11, 6, 7, 10, 8, 9]
    for seat, card, slot in zip([BLUE, RED, YELLOW, GREEN] * 3, cards, slots, strict=True):
        assert GAME.pending(s)[0].seat == seat
        s = place(s, seat, card, slot)
    assert s["step"] == "act"
    # 1) Red produces food: 2 for his factory.
    s, _ = play(s, RED, "r.F")
    assert hand(s, RED)["F"] == 3
    # 2) Yellow's movement card (small red / large yellow).
    s, _ = play(s, YELLOW, "mv.0.SR")
    s, ev = play(s, YELLOW, f"l.{planet(s, 'SR', 0)}")
    s, _ = play(s, GREEN, "mv.0.LY")
    s, _ = play(s, GREEN, f"l.{planet(s, 'LY', 0)}")
    s, _ = play(s, BLUE, "mv.0.LY")
    s, _ = play(s, BLUE, f"l.{planet(s, 'LY', 1)}")
    s, _ = play(s, RED, "pass")
    # 3) Green produces energy: 2 for him, 1 each for Blue's and Yellow's ships.
    s, _ = play(s, GREEN, "r.E")
    assert [s["res"][i]["E"] for i in range(4)] == [1, 2, 3, 2]
    # 4) Blue produces xanthium: 2 for him, 1 for Green's ship.
    s, _ = play(s, BLUE, "r.X")
    assert s["res"][BLUE]["X"] == 3 and s["res"][GREEN]["X"] == 2
    # 5) Red's movement card (twin yellow / large yellow).
    s, _ = play(s, RED, "mv.0.TY")
    s, _ = play(s, RED, f"l.{planet(s, 'TY', 0)}")
    s, _ = play(s, YELLOW, "pass")
    s, _ = play(s, GREEN, "mv.0.LY")  # within the system: 1 energy
    s, ev = play(s, GREEN, f"l.{planet(s, 'LY', 2)}")
    assert s["arts"][GREEN] == ["ianua"]
    assert any(e.code == "ad_astra.event.artifact" for e in ev)
    assert s["res"][GREEN]["E"] == 2
    s, _ = play(s, BLUE, "pass")
    # 6) Green trades 2 energy to the bank for 1 food.
    s, _ = play(s, GREEN, "bank.E")
    s, _ = play(s, GREEN, "get.F")
    s, _ = play(s, GREEN, "done")
    assert hand(s, GREEN) == {"W": 1, "F": 2, "X": 2, "Y": 1, "Z": 1}
    # 7) Blue builds a ship and a colony; Red, Yellow colonies; Green a ship.
    s, _ = build(s, BLUE, "ship")
    s, _ = build(s, BLUE, f"col.{planet(s, 'LY', 1)}")
    assert hand(s, BLUE) == {"E": 2}  # nothing more to build: his turn ends by itself
    s, _ = build(s, RED, f"col.{planet(s, 'TY', 0)}")
    s, _ = build(s, YELLOW, f"col.{planet(s, 'SR', 0)}")
    s, _ = build(s, GREEN, "ship")
    assert hand(s, GREEN) == {"W": 1, "F": 2}
    # 8) Yellow produces water: 2 for his factory, 2 for Red's ship and colony.
    s, _ = play(s, YELLOW, "r.W")
    assert hand(s, RED) == {"W": 2, "F": 2, "E": 1, "Y": 1, "Z": 1}
    # 9) Green's build: only Red can build; he terraforms his home planet (+4).
    assert GAME.pending(s)[0].seat == RED
    s, _ = play(s, RED, "ter.0")
    # 10) Red produces water: 2 for him, 2 for Yellow's factory.
    s, _ = play(s, RED, "r.W")
    assert hand(s, YELLOW)["W"] == 4
    # 11) Yellow's build: nobody can build anything, so it passes by itself.
    # 12) Blue's scoring card: starships; no sole leader, no bonus.
    d = GAME.pending(s)[0]
    assert d.seat == BLUE and {o.id for o in d.options} == {"sc.colfac", "sc.ships"}
    s, ev = play(s, BLUE, "sc.ships")
    assert any(e.code == "ad_astra.event.no_bonus" for e in ev)
    assert GAME.view(s, None)["scores"] == [6, 2, 4, 4]
    # Round 2 begins: Blue is still first player and his scoring card stays out.
    assert s["round"] == 2 and s["step"] == "plan" and s["first"] == BLUE
    assert s["used_sc"][BLUE] == ["s1"] and "s1" not in s["hand"][BLUE]
    assert all(len(s["hand"][i]) == 11 for i in (RED, YELLOW, GREEN))
    assert conserved(s)
