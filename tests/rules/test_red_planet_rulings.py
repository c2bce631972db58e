"""Mission: Red Planet: one test per ruling R1…R27 of ``rules/red_planet/__init__.py``."""

from __future__ import annotations

import random
from typing import Any

from rules.red_planet import GAME, engine
from rules.red_planet.data import PHOBOS, SHIPS
from tests.rules.red_planet_kit import (
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


def holding(s: S, seat: int, *cards: str) -> S:
    """Give ``seat`` these action cards (taken out of the event deck)."""
    s["actions"][seat] = list(cards)
    s["edeck"] = [x for x in s["edeck"] if x not in cards]
    return s


def answer(s: S, seat: int, *choices: str) -> tuple[S, list[Any]]:
    events: list[Any] = []
    for choice in choices:
        s, ev = GAME.apply(s, seat, choice)
        events += ev
    return s, events


def test_r22_action_cards_are_decided_inside_the_secret_choice() -> None:
    s = holding(started(3), 0, "A03", "A04", "A01")
    before = GAME.view(s, None)
    s, ev = GAME.apply(s, 0, "c9")
    assert ev == []  # nothing public yet: seat 0 is still choosing
    assert GAME.view(s, None) == before
    d = next(d for d in GAME.pending(s) if d.seat == 0)
    # One private question per card, in the order of their moments; Blocks of Ice is not
    # asked (it plays itself).
    assert d.private and d.prompt == "red_planet.prompt.commit.A04"
    assert [o.id for o in d.options] == ["play", "keep"]
    s, ev = GAME.apply(s, 0, "keep")
    assert ev == [] and GAME.view(s, None) == before
    assert GAME.pending(s)[0].prompt == "red_planet.prompt.commit.A03"
    s, ev = GAME.apply(s, 0, "play")
    assert codes(ev) == ["commit.A03", "chose"] and ev[0].private_to == 0
    assert ev[1].private_to is None
    public = GAME.view(s, None)
    assert public["chosen"][0] and 0 not in public["waiting"]
    assert GAME.view(s, 0)["private"]["committed"] == ["A03"]
    # The table counts face-down cards, never which kind they are.
    assert "action_count" not in public and "mission_count" not in public
    assert public["card_count"][0] == len(s["missions"][0]) + 3


def test_r22_reinforcements_is_revealed_with_the_character_then_placed_in_public() -> None:
    s = holding(started(3), 0, "A04")
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, ev = answer(s, 0, "play")
    assert "reveal.9" in codes(ev) and "action.A04" in codes(ev)
    assert codes(ev).index("reveal.9") < codes(ev).index("action.A04")
    assert "A04" not in s["actions"][0] and s["ediscard"][-1] == "A04"
    d = GAME.pending(s)[0]
    assert d.seat == 0 and not d.private and prompt(s) == "place"
    supply = s["supply"][0]
    for _ in range(3):  # 2 reinforcements, then the Recruiter's own astronaut
        s, _ = GAME.apply(s, 0, ids(s)[0])
    assert s["supply"][0] == supply - 3


def test_r22_emergency_launch_after_the_character_and_it_may_launch_nothing() -> None:
    s = holding(started(3), 0, "A02")
    set_docks(s, [ship("s02"), ship("s05"), ship("s08")])  # room for 4 each
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, _ = answer(s, 0, "play")
    s, ev = GAME.apply(s, 0, ids(s)[0])  # the Recruiter's astronaut
    assert "recruit" in codes(ev) and "action.A02" in codes(ev)
    d = GAME.pending(s)[0]
    assert d.seat == 0 and not d.private and prompt(s) == "act2" and "done" in ids(s)
    s, ev = GAME.apply(s, 0, "d0")
    assert "launch" in codes(ev) and [sh["id"] for sh in s["launched"]] == ["s02"]
    assert s["launched"][0]["crew"] == [0]  # not full: launched all the same
    # Declining at the moment: the card is spent all the same.
    s = holding(started(3), 0, "A02")
    set_docks(s, [ship("s02"), ship("s05"), ship("s08")])
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, _ = answer(s, 0, "play")
    s, _ = GAME.apply(s, 0, ids(s)[0])
    s, ev = GAME.apply(s, 0, "done")
    assert "unused.A02" in codes(ev) and not s["launched"] and "A02" in s["ediscard"]


def test_r22_course_correction_after_all_characters_clockwise_from_the_first() -> None:
    s = started(3)
    s["first"] = 1
    s["actions"][0] = ["A03"]
    s["edeck"] = [x for x in s["edeck"] if x != "A03"]
    set_docks(s, [ship("s01", [1, 2]), ship("s02"), ship("s03")])  # s01 holds 3
    s, _ = choose_all(s, {0: 9, 1: 2, 2: 1})
    s, _ = answer(s, 0, "play")
    s, _ = GAME.apply(s, 0, "d0")  # the Recruiter fills s01: it launches
    assert len(s["launched"]) == 1
    s, _ = finish_round_for_course(s)
    assert prompt(s) == "act3" and GAME.pending(s)[0].seat == 0
    assert not GAME.pending(s)[0].private and ids(s)[-1] == "done"
    cur = engine.dest_of(s["launched"][0])
    s, _ = GAME.apply(s, 0, "l0")
    target = next(z for z in ids(s))
    s, ev = GAME.apply(s, 0, target)
    assert "redirect" in codes(ev) and target != cur
    assert any(
        e.code.endswith(".land") and e.args["zone"] == engine.ZONE_NAMES[target] for e in ev
    )


def finish_round_for_course(s: S) -> tuple[S, list[Any]]:
    """Play the countdown with "stop" or the first option until Course Correction asks."""
    events: list[Any] = []
    while s["step"] == "resolve" and GAME.pending(s) and prompt(s) != "act3":
        d = GAME.pending(s)[0]
        options = [o.id for o in d.options]
        s, ev = GAME.apply(s, d.seat, "done" if "done" in options else options[0])
        events += ev
    return s, events


def test_r22_a_committed_card_with_no_effect_is_revealed_and_discarded() -> None:
    s = holding(started(3), 0, "A03")
    set_docks(s, [ship("s02"), ship("s05"), ship("s08")])  # room for 4 each: none launches
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, _ = answer(s, 0, "play")
    s, ev = finish_round(s)
    assert not any(e.code.endswith(".launch") for e in ev)
    assert codes(ev).index("action.A03") + 1 == codes(ev).index("void.A03")
    assert "A03" not in s["actions"][0] and "A03" in s["ediscard"]
    # Reinforcements with no astronaut left in supply: the same.
    s = holding(started(3), 0, "A04")
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s["memorial"][0] += s["supply"][0]
    s["supply"][0] = 0
    s, ev = answer(s, 0, "play")
    assert "action.A04" in codes(ev) and "void.A04" in codes(ev)
    assert "A04" in s["ediscard"] and GAME.pending(s)[0].seat != 0


def test_r22_a_declined_card_leaves_no_trace_and_is_asked_again() -> None:
    s = holding(started(3), 1, "A02")
    s, _ = choose_all(s, {0: 9, 1: 8, 2: 1})
    s, ev = answer(s, 1, "keep")
    s, more = finish_round(s)
    ev += more
    assert not any("A02" in e.code for e in ev)
    assert s["actions"][1] == ["A02"] and s["round"] == 2
    s, _ = GAME.apply(s, 1, "c7")
    assert next(d for d in GAME.pending(s) if d.seat == 1).prompt.endswith("commit.A02")


def test_r22_blocks_of_ice_plays_itself_at_the_next_production() -> None:
    s = holding(started(3), 0, "A01")
    s, _ = GAME.apply(s, 0, "c9")
    assert not any(d.seat == 0 for d in GAME.pending(s))  # never asked
    ice = s["tokens"][0]["ice"]
    events: list[Any] = []
    engine._production(s, 1, events)
    assert s["tokens"][0]["ice"] >= ice + 2 and "A01" not in s["actions"][0]
    assert "action.A01" in codes(events)


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


# --------------------------------------------------------------------------- R22: no leak

COMMIT = ".prompt.commit."


def _seen(s: S) -> tuple[Any, Any]:
    """What the table sees: the public view, and who the game waits for (and whether it is a
    private decision)."""
    view = GAME.view(s, None)
    if view["over"]:
        # The final reveal shows every mission held and scores them, the stand-in card too
        # (see below); so the final scores and reveal are left out here, and the final
        # scoring's events in the trace.
        hidden = ("missions", "result", "scores", "reveal")
        view = {k: v for k, v in view.items() if k not in hidden}
    return view, [(d.seat, d.private) for d in GAME.pending(s)]


def _traced(s: S, seed: int) -> tuple[list[Any], int]:
    """Play a whole game with a policy that reads only what the table sees and the options
    offered, declining every action card; return what the table saw after each move (with
    the public events) and how many private card questions were answered on the way. Each
    such answer must be invisible: while it is open, the table sees exactly what it saw
    before the move that raised it."""
    trace: list[Any] = []
    asked = 0
    k = 0
    before = _seen(s)
    while GAME.pending(s):
        rng = random.Random(f"{seed}:{k}")
        k += 1
        d = rng.choice(GAME.pending(s))
        assert COMMIT not in d.prompt
        s, events = GAME.apply(s, d.seat, rng.choice(d.options).id)
        while any(COMMIT in x.prompt for x in GAME.pending(s)):
            assert _seen(s) == before
            assert all(e.private_to is not None for e in events)
            q = next(x for x in GAME.pending(s) if COMMIT in x.prompt)
            s, more = GAME.apply(s, q.seat, "keep")
            events += more
            asked += 1
        before = _seen(s)
        public = [
            (e.code, {} if e.code.endswith(".game_over") else dict(e.args), e.seat)
            for e in events
            if e.private_to is None and ".final." not in e.code
        ]
        trace.append((before, public))
    return trace, asked


def test_r22_declining_an_action_card_leaves_no_public_trace() -> None:
    """Over many random games, a seat holding an action card it never plays is seen exactly
    like the same seat holding a mission in its place (the table counts face-down cards, so
    the stand-in keeps that count equal): same public view, same public events, and the
    game waits for the same seats, privately or not, at every step."""
    for i in range(30):
        n = 2 + i % 5
        seat = (i * 7) % n
        card = engine.COMMITTABLE[i % 3]
        games = []
        for holds_action in (True, False):
            s = started(n, seed=100 + i)
            mission = next(x for x in s["edeck"] if x.startswith("M"))
            s["edeck"] = [x for x in s["edeck"] if x not in (card, mission)]
            if holds_action:
                s["actions"][seat].append(card)
            else:
                s["missions"][seat].append(mission)
            games.append(_traced(s, seed=i))
        (with_card, asked), (without, _) = games
        assert asked >= 10  # asked at least once a round
        assert len(with_card) == len(without)
        for step, (a, b) in enumerate(zip(with_card, without, strict=True)):
            assert a == b, (i, step)


def test_r22_a_game_saved_before_r22_loads_and_plays_on() -> None:
    s = holding(started(3), 0, "A02")
    s, _ = choose_all(s, {0: 9, 1: 1, 2: 1})
    s, _ = answer(s, 0, "keep")
    old = GAME.dump(s)
    del old["ask"], old["commit"]
    old["task"]["steps"] = [["act4"] if st[0] == "card" else st for st in old["task"]["steps"]]
    s = GAME.load(old)
    assert s["commit"] == [[], [], []] and ["act4"] not in s["task"]["steps"]
    s, ev = finish_round(s)
    assert s["round"] == 2 and not any("A02" in e.code for e in ev)
