"""Mission: Red Planet: one test per ruling R1…R27 of ``rules/red_planet/__init__.py``."""

from __future__ import annotations

import random
from typing import Any

from rules.red_planet import GAME, engine
from rules.red_planet.data import PHOBOS, SHIPS
from tests.rules.test_red_planet_rules import (
    choose_all,
    codes,
    ids,
    prompt,
    put,
    set_docks,
    ship,
    started,
)

S = dict[str, Any]
UNKNOWN = [sid for sid, sh in SHIPS.items() if sh["dest"] is None]


def finish_round(s: S) -> tuple[S, list[Any]]:
    """Answer every countdown decision with "stop"/"keep" or the first option."""
    events: list[Any] = []
    while s["step"] == "resolve" and GAME.pending(s):
        d = GAME.pending(s)[0]
        options = [o.id for o in d.options]
        choice = next((x for x in ("done", "keep") if x in options), options[0])
        s, ev = GAME.apply(s, d.seat, choice)
        events += ev
    return s, events


def test_r1_one_dock_per_colour_and_at_least_three() -> None:
    assert len(GAME.new(2, {}, 1)["docks"]) == 3 and GAME.new(2, {}, 1)["nc"] == 3
    for n in range(3, 7):
        assert len(GAME.new(n, {}, 1)["docks"]) == n


def test_r2_setup_ships_have_destinations_and_phobos_is_covered() -> None:
    for seed in range(40):
        s = GAME.new(4, {}, seed)
        assert all(sh["dest"] is not None for sh in s["docks"])
        if any(sh["dest"] == PHOBOS for sh in s["docks"]):
            assert all(sh["tok"] is None for sh in s["docks"])
        else:
            assert s["docks"][-1]["tok"] == PHOBOS and s["dtok"][PHOBOS] == 1


def test_r3_one_starting_astronaut_each_leftmost_human_starts() -> None:
    for seed in range(30):
        for n in (2, 4):
            s = GAME.new(n, {}, seed)
            owners = [sh["crew"][0] for sh in s["docks"]]
            assert sorted(owners) == list(range(s["nc"]))
            assert s["first"] == next(c for c in owners if c != s["neutral"])


def test_r4_missions_dealt_two_keep_one_then_event_deck() -> None:
    s = GAME.new(3, {}, 3)
    ds = GAME.pending(s)
    assert len(ds) == 3 and all(d.private and len(d.options) == 2 for d in ds)
    s = started(3, 3)
    assert [len(m) for m in s["missions"]] == [1, 1, 1]
    assert len(s["edeck"]) == 30 - 3 and len(set(s["edeck"])) == 27


def test_r5_choices_are_secret_until_called() -> None:
    s = started(3)
    s, ev = GAME.apply(s, 0, "c7")
    public = GAME.view(s, None)
    assert public["chosen"] == [True, False, False] and public["revealed"] == []
    assert GAME.view(s, 1)["private"]["chosen"] is None
    assert GAME.view(s, 0)["private"]["chosen"] == 7
    assert all(e.private_to is None and "7" not in str(e.args) for e in ev)
    assert GAME.pending(s)[0].private


def test_r6_countdown_order_clockwise_and_neutral_last() -> None:
    s = started(3)
    s["first"] = 1
    s, _ = choose_all(s, {0: 9, 1: 9, 2: 9})
    assert s["task"]["c"] == 1 and s["order"] == [[2, 9], [0, 9]]
    s = started(2)
    s["first"] = 1
    neutral = s["neutral"]
    s["hand"][neutral].append(s["chosen"][neutral])
    if 9 in s["hand"][neutral]:
        s["hand"][neutral].remove(9)
    s["chosen"][neutral] = 9
    s, _ = choose_all(s, {0: 9, 1: 9})
    assert s["task"]["c"] == 1 and s["order"][:2] == [[0, 9], [neutral, 9]]


def test_r7_scientist_may_share_a_ship_secret_agent_may_not() -> None:
    s = started(3)
    set_docks(s, [ship("s03"), ship("s06"), ship("s09")])
    s, _ = choose_all(s, {0: 7, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d0")
    assert prompt(s) == "place" and "d0" in ids(s)
    s = started(3)
    set_docks(s, [ship("s03"), ship("s06"), ship("s09")])
    s, _ = choose_all(s, {0: 6, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d0")
    assert prompt(s) == "place" and ids(s) == ["d1", "d2"]
    s = started(3)
    s["supply"][0] = 0
    s["memorial"][0] += 21
    s, ev = choose_all(s, {0: 7, 1: 1, 2: 1})
    assert "place" not in [c for c, e in zip(codes(ev), ev, strict=True) if e.seat == 0]


def test_r8_first_astronaut_on_an_unknown_ship_picks_its_destination() -> None:
    s = started(3)
    set_docks(s, [ship(UNKNOWN[-1]), ship("s06"), ship("s09")])
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d0")
    assert prompt(s) == "dest" and "VB" in ids(s)
    s, _ = GAME.apply(s, 0, "VB")
    assert s["docks"][0]["tok"] == "VB" and s["dtok"]["VB"] == 1


def test_r9_full_ships_launch_after_the_effect_agent_launches_a_non_full_one() -> None:
    s = started(3)
    set_docks(s, [ship("s01", [1, 2]), ship("s04", [1]), ship("s07")])  # capacity 3 each
    s, _ = choose_all(s, {0: 6, 1: 1, 2: 1})
    s, ev = GAME.apply(s, 0, "d0")  # fills s01: it stays until the effect ends
    assert "launch" not in codes(ev) and s["docks"][0] is not None
    s, _ = GAME.apply(s, 0, "d1")
    assert prompt(s) == "launch" and ids(s) == ["d1", "d2"]
    s, ev = GAME.apply(s, 0, "d2")  # the empty one
    assert [sh["id"] for sh in s["launched"]][:2] == ["s07", "s01"]


def test_r10_travel_agent_needs_three_in_supply_too() -> None:
    s = started(3)
    set_docks(s, [ship("s03"), ship("s06"), ship("s09")])
    s["memorial"][0] += s["supply"][0] - 2
    s["supply"][0] = 2
    s, ev = choose_all(s, {0: 3, 1: 1, 2: 1})
    assert "travel_skipped" in codes(ev) and s["supply"][0] == 2


def test_r11_explorer_moves_up_to_three_adjacent_never_phobos() -> None:
    s = started(3)
    put(s, "VB", 0, 1)
    put(s, PHOBOS, 0, 1)
    s, _ = choose_all(s, {0: 8, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, ids(s)[0])
    assert prompt(s) == "move"
    assert {"mv.VB.AT", "mv.VB.TH", "mv.VB.VM", "done"} == set(ids(s))
    s, _ = GAME.apply(s, 0, "mv.VB.AT")
    s, _ = GAME.apply(s, 0, "mv.AT.SM")
    s, _ = GAME.apply(s, 0, "mv.SM.MT")
    assert s["astros"]["MT"][0] == 1 and s["res"]["MT"][1]
    assert GAME.pending(s)[0].seat != 0


def test_r12_scientist_draws_or_peeks_and_a_discovery_with_no_room_is_discarded() -> None:
    s = started(3)
    s["edeck"] = []
    s, _ = choose_all(s, {0: 7, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, ids(s)[0])
    s, ev = GAME.apply(s, 0, ids(s)[0])
    assert not GAME.pending(s) or GAME.pending(s)[0].seat != 0  # nothing to draw or see
    s = started(3)
    for i, z in enumerate(engine.OUTER):
        s["disc"][z] = {"id": f"D{i + 1:02d}", "known": [1], "up": False}
    s["edeck"] = ["D09", *[x for x in s["edeck"] if not x.startswith("D")]]
    s, _ = choose_all(s, {0: 7, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, ids(s)[0])
    s, _ = GAME.apply(s, 0, ids(s)[0])
    s, ev = GAME.apply(s, 0, "draw")
    assert "D09" in s["ediscard"] and prompt(s) == "peek"
    s, ev = GAME.apply(s, 0, "peek.VB")
    assert [e.private_to for e in ev if "peeked" in e.code] == [0]
    assert GAME.view(s, 0)["private"]["discoveries"]["VB"] == "D01"
    assert "D01" not in str(GAME.view(s, None))


def test_r13_saboteur_returns_the_destination_token() -> None:
    s = started(3)
    set_docks(s, [ship("s01", [1], tok="VB"), ship("s04"), ship("s07")])
    s["dtok"]["VB"] -= 1
    s, _ = choose_all(s, {0: 5, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d1")
    s, _ = GAME.apply(s, 0, "d0")
    assert s["dtok"]["VB"] == 2 and s["memorial"][1] == 1


def test_r14_femme_fatale_replaces_only_where_present() -> None:
    s = started(3)
    set_docks(s, [ship("s03", [1]), ship("s06", [2]), ship("s09")])
    put(s, "VM", 0, 1)
    put(s, "VM", 1, 2)
    put(s, "SM", 2, 1)
    s, _ = choose_all(s, {0: 4, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d0")
    assert prompt(s) == "ff"
    assert set(ids(s)) == {"ff.d0.1", "ff.VM.1"}
    s, _ = GAME.apply(s, 0, "ff.VM.1")
    assert s["astros"]["VM"][:2] == [2, 1] and s["memorial"][1] == 1


def test_r15_soldier_kills_then_drops_from_phobos() -> None:
    s = started(3)
    put(s, "VM", 0, 1)
    put(s, "VM", 2, 1)
    put(s, PHOBOS, 0, 2)
    s, _ = choose_all(s, {0: 2, 1: 9, 2: 9})
    s, _ = finish_round_for(s, 0, stop_at="kill")
    assert ids(s) == ["kill.VM.2"]
    s, _ = GAME.apply(s, 0, "kill.VM.2")
    assert prompt(s) == "drop"
    s, _ = GAME.apply(s, 0, "drop.HP")
    assert s["astros"]["HP"][0] == 1 and s["astros"][PHOBOS][0] == 1
    s, ev = GAME.apply(s, 0, "drop.HP")
    # Phobos is empty now: no more drops (ships may land there at the end of the round).
    assert codes(ev)[0] == "drop" and s["astros"]["HP"][0] >= 2
    assert not GAME.pending(s) or prompt(s) != "drop"


def finish_round_for(s: S, seat: int, stop_at: str) -> tuple[S, list[Any]]:
    """Play first options until ``seat`` faces the ``stop_at`` prompt."""
    events: list[Any] = []
    while not (GAME.pending(s)[0].seat == seat and prompt(s) == stop_at):
        d = GAME.pending(s)[0]
        s, ev = GAME.apply(s, d.seat, d.options[0].id)
        events += ev
    return s, events


def test_r16_pilot_reroutes_launched_ships_not_to_their_own_destination() -> None:
    s = started(3)
    set_docks(s, [ship("s01", [1, 2]), ship("s04"), ship("s07")])
    s, _ = choose_all(s, {0: 1, 1: 9, 2: 9})
    s, _ = finish_round_for(s, 0, stop_at="pilot")
    launched = [f"l{j}" for j in range(len(s["launched"]))]
    assert launched and set(launched) <= set(ids(s))
    s, _ = GAME.apply(s, 0, "l0")
    cur = engine.dest_of(s["launched"][0])
    assert cur not in ids(s)
    target = "PH" if cur != "PH" else "VM"
    tokens = s["dtok"][target]
    s, ev = GAME.apply(s, 0, target)
    zone = engine.ZONE_NAMES[target]
    assert "redirect" in codes(ev)
    assert any(e.code.endswith(".land") and e.args["zone"] == zone for e in ev)
    assert s["dtok"][target] == tokens  # landed: the token is back


def test_r17_landing_reveals_resources_and_scraps_empty_unknown_ships() -> None:
    s = started(3)
    set_docks(s, [ship(UNKNOWN[0]), ship("s04", [1, 2]), ship("s07")])
    s["res"]["VB"][1] = False
    s, _ = choose_all(s, {0: 6, 1: 1, 2: 1})
    s, _ = GAME.apply(s, 0, "d1")  # fills s04 (Vastitas Borealis)
    s, _ = GAME.apply(s, 0, "d2")
    s, _ = GAME.apply(s, 0, "d0")  # the empty unknown ship
    s, ev = finish_round(s)
    assert "land_empty" in codes(ev) and s["res"]["VB"][1]
    assert any(c.startswith("resource.") for c in codes(ev))
    assert s["astros"]["VB"][0] >= 1


def test_r18_docks_refill_from_a_reshuffled_discard() -> None:
    s = started(3)
    s["discard"] = list(s["deck"])
    s["deck"] = []
    set_docks(s, [ship("s01", [1, 2]), ship("s04"), ship("s07")])
    s["discard"] += s["deck"]
    s["deck"] = []
    s, _ = choose_all(s, {0: 9, 1: 9, 2: 9})
    s, ev = finish_round(s)
    assert "reshuffle" in codes(ev) and all(sh is not None for sh in s["docks"])


def test_r19_last_to_resolve_becomes_first_player() -> None:
    s = started(3)
    s["first"] = 0
    s, _ = choose_all(s, {0: 1, 1: 9, 2: 1})
    s, _ = finish_round(s)
    assert s["first"] == 2 and s["round"] == 2


def test_r20_ties_share_each_type_and_leftovers_wait() -> None:
    tokens = [{"ice": 0, "syl": 0, "cel": 0} for _ in range(2)]
    pile = {"ice": 1, "syl": 0, "cel": 3}
    engine.distribute([2, 2], pile, tokens)
    assert tokens == [{"ice": 0, "syl": 0, "cel": 1}] * 2 and pile == {
        "ice": 1,
        "syl": 0,
        "cel": 1,
    }


def test_r21_discoveries_revealed_before_the_last_production() -> None:
    s = started(3)
    s["round"] = 10
    s["res"]["VB"] = ["cel", True]
    put(s, "VB", 0, 3)
    s["disc"]["VB"] = {"id": "D02", "known": [1], "up": False}  # Frozen Sea
    s, _ = choose_all(s, {0: 9, 1: 9, 2: 9})
    s, ev = finish_round(s)
    assert s["step"] == "over" and s["res"]["VB"] == ["ice", True]
    assert s["tokens"][0]["ice"] >= 3 and codes(ev).index("discovery.D02") < codes(ev).index(
        "production"
    )


def test_r22_action_cards_are_private_offers_blocks_of_ice_plays_itself() -> None:
    s = started(3)
    s["actions"][0] = ["A04", "A01"]
    s["edeck"] = [x for x in s["edeck"] if x not in ("A04", "A01")]
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    d = GAME.pending(s)[0]
    assert d.seat == 0 and d.private and prompt(s) == "act4"
    s, _ = GAME.apply(s, 0, "use")
    supply = s["supply"][0]
    for _ in range(3):
        s, _ = GAME.apply(s, 0, ids(s)[0])
    assert s["supply"][0] == supply - 3
    ice = s["tokens"][0]["ice"]
    s["round"] = 5
    engine._production(s, 1, [])
    assert s["tokens"][0]["ice"] >= ice + 2 and "A01" not in s["actions"][0]


def test_r23_most_needs_a_strict_sole_maximum() -> None:
    s = started(3)
    put(s, PHOBOS, 0, 2)
    put(s, PHOBOS, 1, 2)
    assert engine.mission_done(s, 0, "M05") == 0
    put(s, PHOBOS, 0, 1)
    assert engine.mission_done(s, 0, "M05") == 6
    s = started(2)
    put(s, "VM", 0, 1)
    put(s, "VM", s["neutral"], 1)
    assert engine.mission_done(s, 0, "M06") == 0


def test_r24_ice_monopoly_split_rounded_down_players_only() -> None:
    s = started(3)
    s["step"] = "over"
    s["tokens"][0]["ice"] = 4
    s["tokens"][1]["ice"] = 4
    parts = engine.breakdown_of(s)
    assert [p["ice_monopoly"] for p in parts] == [4, 4, 0]
    s["tokens"][0]["ice"] = s["tokens"][1]["ice"] = 0
    assert [p["ice_monopoly"] for p in engine.breakdown_of(s)] == [0, 0, 0]
    s = started(2)
    s["tokens"][s["neutral"]]["ice"] = 9
    s["tokens"][1]["ice"] = 1
    assert [p["ice_monopoly"] for p in engine.breakdown_of(s)] == [0, 9]


def test_r25_ties_broken_by_token_count_then_shared() -> None:
    s = started(3)
    s["step"] = "over"
    s["missions"] = [[], [], []]
    s["tokens"] = [
        {"ice": 3, "syl": 0, "cel": 0},
        {"ice": 0, "syl": 0, "cel": 1},
        {"ice": 0, "syl": 0, "cel": 1},
    ]
    for z in s["astros"]:
        s["astros"][z] = [0, 0, 0]
    s["supply"] = [22, 22, 22]
    s["docks"] = [None, None, None]
    res = GAME.result(s)
    assert res is not None
    # 3 ice + 9 monopoly beats the others; seats 1 and 2 tie on 3 with one token each.
    assert res.ranks == (1, 2, 2)


def test_r26_two_players_with_a_neutral_colour() -> None:
    s = GAME.new(2, {}, 11)
    neutral = s["neutral"]
    assert neutral == 2 and sorted(s["hand"][neutral]) == list(range(1, 10))
    rng = random.Random(3)
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        assert d.seat in (0, 1)
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
        assert s["first"] in (0, 1)
    res = GAME.result(s)
    assert res is not None and len(res.scores) == 2
    assert sum(s["astros"][z][neutral] for z in s["astros"]) > 0
    # The neutral picks the docked ship closest to full, leftmost on a tie.
    s = started(2)
    set_docks(s, [ship("s03"), ship("s01", [0]), ship("s02", [0, 1])])
    ranked = engine._neutral_pick(
        s, neutral, ["place", 0], [engine._dock_opt(s, i) for i in range(3)]
    )
    assert ranked == "d1"


def test_r27_killed_astronauts_never_come_back() -> None:
    rng = random.Random(5)
    s = GAME.new(4, {}, 5)
    memorial = list(s["memorial"])
    while GAME.pending(s):
        d = rng.choice(GAME.pending(s))
        s, _ = GAME.apply(s, d.seat, rng.choice(d.options).id)
        assert all(a >= b for a, b in zip(s["memorial"], memorial, strict=True))
        memorial = list(s["memorial"])
        assert engine.astronaut_totals(s) == [22] * 4
