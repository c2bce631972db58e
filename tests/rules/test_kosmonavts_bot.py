"""The Kosmonavts bot: seats vary from game to game and seat to seat, stay reproducible
from the game's seed, beat uniformly random play and answer the marker choice sensibly."""

from __future__ import annotations

import random

from core.contract import Event
from rules.kosmonavts import GAME
from rules.kosmonavts.bot import temperament
from tests.rules.kosmonavts_kit import both_landed, fly, fresh, offered, orders, play


def _host_rng(seed: int, version: int, seat: int) -> random.Random:
    """The generator host/play.py ``bot_pick`` hands a bot seat."""
    return random.Random(f"{seed}:bot:{version}:{seat}")


def _route(events: list[Event], routes: dict[int, list[str]]) -> None:
    """A ship's route: the bodies it lands on, in order (with or without a marker)."""
    for e in events:
        parts = e.code.split(".")
        if parts[2] in ("landed", "visited") and e.seat is not None:
            routes[e.seat].append(parts[3])


def _play(
    seed: int, n: int, rules: str, bots: list[bool]
) -> tuple[dict, dict[int, list[str]], list[tuple[int, str]]]:
    s = GAME.new(n, {"rules": rules, "planets": "random"}, seed)
    other = random.Random(seed)
    routes: dict[int, list[str]] = {k: [] for k in range(n)}
    log: list[tuple[int, str]] = []
    while decisions := GAME.pending(s):
        d = decisions[0]
        if bots[d.seat]:
            choice = GAME.bot_choice(s, d.seat, _host_rng(seed, len(log), d.seat))
        else:
            choice = other.choice(d.options).id
        s, events = GAME.apply(s, d.seat, choice)
        log.append((d.seat, choice))
        _route(events, routes)
    return s, routes, log


def test_two_bot_seats_take_different_routes_in_most_games() -> None:
    for rules in ("basic", "advanced"):
        differ = 0
        for seed in range(40):
            s, routes, _ = _play(seed, 2, rules, [True, True])
            assert s["over"] and s["end"] == "return"
            differ += routes[0] != routes[1]
        assert differ >= 30, (rules, differ)


def test_bot_games_replay_from_the_seed() -> None:
    for seed, rules in ((3, "basic"), (4, "advanced")):
        s, routes, log = _play(seed, 3, rules, [True, True, True])
        again, routes2, log2 = _play(seed, 3, rules, [True, True, True])
        assert log2 == log and routes2 == routes and GAME.dump(again) == GAME.dump(s)
        r = GAME.new(3, {"rules": rules, "planets": "random"}, seed)
        for seat, choice in log:
            r, _ = GAME.apply(r, seat, choice)
        assert GAME.dump(r) == GAME.dump(s)


def test_temperament_depends_on_the_seed_and_the_seat_only() -> None:
    a = GAME.new(2, {}, 11)
    b, _, _ = _play(11, 2, "basic", [True, True])
    assert temperament(a, 0) == temperament(b, 0) != temperament(a, 1)
    assert temperament(a, 0) != temperament(GAME.new(2, {}, 12), 0)


def test_the_bot_beats_uniform_random_play() -> None:
    for rules in ("basic", "advanced"):
        wins = 0
        for seed in range(20):
            s, _, _ = _play(seed, 2, rules, [seed % 2 == 0, seed % 2 == 1])
            res = GAME.result(s)
            assert res is not None
            bot = seed % 2
            wins += res.ranks[bot] == 1 and res.ranks[1 - bot] == 2
        assert wins >= 19, (rules, wins)


def test_the_bot_picks_the_marker_its_missions_ask_for() -> None:  # R12
    def landing_together(m2: bool) -> dict:
        s = fresh(n=2, instructor=0)
        fly(s, 0, (10, 0))
        fly(s, 1, (12, 0))
        s["missions"][0] = ["m1.mars", "m2.saturn" if m2 else "m2.venus", "m2.jupiter"]
        s, _ = orders(s, {0: ("add.e", "confirm"), 1: ("add.w", "confirm")})
        s, _ = play(s, 0, "land")
        s, _ = play(s, 1, "land")
        assert offered(s, 0) == ["marker.4", "marker.3", "marker.2", "marker.1"]
        return s

    # Mission 2 on Saturn: the second marker (3 VP + 4 VP) beats the top one (4 VP)
    assert GAME.bot_choice(landing_together(True), 0, random.Random(0)) == "marker.3"
    assert GAME.bot_choice(landing_together(False), 0, random.Random(0)) == "marker.4"


def test_skipping_a_marker_choice_takes_the_highest_left() -> None:  # R12
    s = both_landed(instructor=0)
    s, _ = play(s, 0, "marker.4")
    ids = offered(s, 1)
    assert ids == ["marker.3", "marker.2", "marker.1"]
    assert next(o for o in GAME.skip_options if o in ids) == "marker.3"
