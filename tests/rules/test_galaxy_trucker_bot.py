"""The Galaxy Trucker bot's ships, measured over seeded bot-only level II games (engine
only): legal as built, sensible (engines at the back facing back, cannons at the front),
few tiles left face up, a bounded amount of work per building step, and how many of them
finish the flight. Figures measured when this was written are in the comments (20 games,
80 seat-games); the bounds leave room for small changes of the bot, not for a worse one."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules import search
from rules.galaxy_trucker import GAME, bot
from rules.galaxy_trucker import search as gt_search
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.tiles import FRONT, REAR, board_cells, cards, facing, start_cell, tile
from rules.kit import clone
from rules.search import Budget, bot_for, choose

from .galaxy_trucker_kit import at_retire_question

GAMES = 20
#: Pre-launch events of a ship that needs fixing.
FIXES = {"split", "problems", "fixed", "removed", "kept"}


@dataclass
class Run:
    """What one bot-only game showed."""

    faceup: int = 0  # open pool when building ended
    ships: list[sh.Ship] = field(default_factory=list)  # as building ended
    prelaunch_fixes: int = 0  # pre-launch problems, split ships and removals
    retired: int = 0
    seats: int = 0
    max_evals: int = 0  # placement evaluations in one building step
    max_steps: int = 0  # building moves of one bot
    final: dict[str, Any] = field(default_factory=dict)


def play(seed: int, host_order: bool = False, build_only: bool = False) -> Run:
    """A 4-bot level II game: seats move in a seeded random order (simultaneous building),
    or, like the host, the first waiting seat until it is done (``host_order``); played to
    the end, or only until building is over (``build_only``)."""
    run = Run(seats=4)
    calls = [0]
    real = bot.placement_score

    def counting(*args: Any) -> float | None:
        calls[0] += 1
        return real(*args)

    s = GAME.new(4, {"rules": "2", "level": "II"}, seed)
    r = random.Random(seed)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bot, "placement_score", counting)
        while pending := GAME.pending(s):
            d = pending[0] if host_order else r.choice(pending)
            building = s["phase"] == "build"
            calls[0] = 0
            choice = GAME.bot_choice(s, d.seat, r)
            if building:
                run.max_evals = max(run.max_evals, calls[0])
            before, ships = s["phase"], [p["ship"] for p in s["players"]]
            s, events = GAME.apply(s, d.seat, choice)
            if before == "build" and s["phase"] != "build":
                run.faceup = len(s["faceup"])
                run.max_steps = max(p["step"] for p in s["players"])
                # (the last "done" changes no ship; a launch may already have hit some)
                run.ships = [sh.load(ship) for ship in ships]
            if before in ("build", "prelaunch"):
                run.prelaunch_fixes += sum(e.code.split(".")[-1] in FIXES for e in events)
            if build_only and s["phase"] != "build":
                break
    run.retired = len(s["flight"]["retired"]) if s.get("flight") else 0
    run.final = s
    return run


@pytest.fixture(scope="module")
def runs() -> Iterator[list[Run]]:
    yield [play(seed) for seed in range(GAMES)]


def test_ships_are_legal_as_built_and_prelaunch_removes_nothing(runs: list[Run]) -> None:
    for run in runs:
        assert len(run.ships) == 4
        for ship in run.ships:
            assert sh.is_valid(ship)
        assert run.prelaunch_fixes == 0  # measured: none in any game


def test_few_tiles_are_left_face_up(runs: list[Run]) -> None:
    faceup = [run.faceup for run in runs]
    # measured: mean 30.2, max 44 (28.5 before the bot kept cells open for later tiles,
    # 2026-11-27: each of 4 builders returns about 8 of the tiles it looked at; the
    # previous bot left 85 and more)
    assert max(faceup) <= 50
    assert statistics.fmean(faceup) <= 32


def test_ships_are_sensible(runs: list[Run]) -> None:
    board = board_cells("II")
    start_row = start_cell("II")[0]
    sizes: list[int] = []
    front_share: list[float] = []
    having: Counter[str] = Counter()
    for run in runs:
        for ship in run.ships:
            sizes.append(len(ship))
            engines = [(c, t, r) for c, (t, r) in ship.items() if tile(t).type == "engine"]
            cannons = [(c, t, r) for c, (t, r) in ship.items() if tile(t).type == "cannon"]
            having.update({tile(t).type for t, _ in ship.values()})
            assert engines  # always a single engine: never 0 engine power in open space
            assert any(not tile(t).double for _, t, _ in engines)
            for cell, t, r in engines:
                assert facing(t, r) == REAR and sh.neighbour(cell, REAR) not in ship
            edge = [c for c, t, r in engines if sh.neighbour(c, REAR) not in board]
            assert len(edge) >= len(engines) / 2  # measured: 96 % out over the edge
            if not cannons:
                continue
            rows = [c[0] for c, _, _ in engines]
            assert statistics.fmean(rows) >= start_row  # engines in the back half
            assert statistics.fmean(c[0] for c, _, _ in cannons) < statistics.fmean(rows)
            front_share.append(sum(facing(t, r) == FRONT for _, t, r in cannons) / len(cannons))
    # A few ships walled in early miss something. Measured: of 80 ships, 79 with cannons,
    # 73 with batteries, 71 with a cabin besides the starting one (2.8 on average); 21 tiles
    # on the 27 cells; 75 % of the cannons facing the front.
    n = len(sizes)
    assert having["cannon"] >= 0.9 * n
    assert having["battery"] >= 0.85 * n
    assert having["cabin"] >= 0.8 * n
    assert statistics.fmean(sizes) >= 19
    assert statistics.fmean(front_share) >= 0.65


def test_building_work_is_bounded(runs: list[Run]) -> None:
    # Each step weighs at most the hand, the reserve and the open pool, 4 turns per free
    # cell: measured at most 924 evaluations in a step (median step 0.6 ms, max ~15 ms).
    assert max(run.max_evals for run in runs) <= 3000
    assert max(run.max_steps for run in runs) <= bot.MAX_STEPS


def test_most_ships_finish_the_flight(runs: list[Run]) -> None:
    seats = sum(run.seats for run in runs)
    finished = seats - sum(run.retired for run in runs)
    # measured: 61 of 80 seat-games (76 %; 77 % over 80 games); the goal is 80 %
    assert finished / seats >= 0.7


def test_host_order_builds_the_same_way() -> None:
    """The host lets a bot build its whole ship before the next one starts (only the
    building is played: the flight is the same code either way)."""
    for seed in range(3):
        run = play(seed, host_order=True, build_only=True)
        assert run.faceup <= 45  # measured: see test_few_tiles_are_left_face_up
        assert len(run.ships) == 4
        for ship in run.ships:
            assert sh.is_valid(ship)


# --------------------------------------------------------------------------- the search


def with_deck(s: dict[str, Any], types: tuple[str, ...]) -> dict[str, Any]:
    """``s`` with the cards still in the adventure deck (hidden) replaced by unrevealed
    cards of ``types`` (the piles follow)."""
    w = clone(s)
    f = w["flight"]
    dealt = {c for pile in w["piles"] for c in pile}
    free = [c for c, v in sorted(cards().items()) if v["type"] in types and c not in dealt]
    new = []
    for i, old in enumerate(f["deck"]):  # (as many of each level as before: that is known)
        same = [c for c in free if cards()[c]["level"] == cards()[old]["level"]]
        new.append(same[i % len(same)])  # (a card may come twice: a made-up deck)
    swap = dict(zip(f["deck"], new, strict=True))
    f["deck"] = new
    w["piles"] = [[swap.get(c, c) for c in pile] for pile in w["piles"]]
    return w


GOOD = ("planets", "abandoned_station", "stardust")
BAD = ("meteor_swarm", "pirates", "combat_zone")


def test_a_peek_at_the_deck_would_change_the_choice_the_search_does_not_peek() -> None:
    s, seat = at_retire_question(0)
    good, bad = with_deck(s, GOOD), with_deck(s, BAD)
    budget = Budget(playouts=16)

    def peek(state: dict[str, Any], _seat: int, rng: random.Random) -> dict[str, Any]:
        return {**clone(state), "seed": rng.getrandbits(48), "rc": 0}

    # With giving up weighed (at level II, as here, the levels weigh it only to lock the win
    # since 2026-11-27: GIVE_UP; what is tested here is the sampling, the same either way), a
    # search that could see the deck would take the abandoned station before good cards and
    # retire before bad ones (without OUT_COST, which since 2026-11-27 counts a retired ship
    # as out at level II: there no search retires before bad cards either) ...
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gt_search, "GIVE_UP", ("II",))
        mp.setattr(gt_search, "OUT_COST", 0.0)
        with pytest.MonkeyPatch.context() as peeking:
            peeking.setattr(type(GAME), "sample", staticmethod(peek))
            assert choose(GAME, good, seat, random.Random(1), budget) == "take"
            assert choose(GAME, bad, seat, random.Random(1), budget) == "retire"
        # ... the real one sees the same in both and answers the same.
        assert choose(GAME, good, seat, random.Random(1), budget) == choose(
            GAME, bad, seat, random.Random(1), budget
        )
    for k in range(3):
        assert gt_search.sample(good, seat, random.Random(k)) == gt_search.sample(
            bad, seat, random.Random(k)
        )


def test_sampled_building_worlds_ignore_what_others_drew_and_the_pool_order() -> None:
    s = GAME.new(3, {"level": "II"}, 5)
    s, _ = GAME.apply(s, 1, "draw")  # seat 1 holds a tile drawn face down
    s, _ = GAME.apply(s, 2, "draw")
    other = clone(s)
    held = other["players"][1]["hand"]
    other["players"][1]["hand"] = other["facedown"][0]
    other["facedown"][0] = held
    other["facedown"].reverse()
    other["piles"] = [list(reversed(p)) for p in other["piles"]]
    for k in range(3):
        a = gt_search.sample(s, 0, random.Random(k))
        assert a == gt_search.sample(other, 0, random.Random(k))
        assert sorted(GAME.engine.all_tiles(a)) == sorted(GAME.engine.all_tiles(s))
    # what the seat itself holds stays
    s, _ = GAME.apply(s, 0, "draw")
    assert (
        gt_search.sample(s, 0, random.Random(1))["players"][0]["hand"] == (s["players"][0]["hand"])
    )


def test_a_flight_world_keeps_the_deck_size_and_levels() -> None:
    s, seat = at_retire_question(3)
    w = gt_search.sample(s, seat, random.Random(2))
    old, new = s["flight"]["deck"], w["flight"]["deck"]
    assert len(new) == len(old) and len(set(new)) == len(new)
    assert sorted(cards()[c]["level"] for c in new) == sorted(cards()[c]["level"] for c in old)
    revealed = {c for pile in s["piles"] for c in pile} - set(old)
    assert not revealed & set(new)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_same_seed_gives_the_same_move(level: str) -> None:
    s, seat = at_retire_question(0)
    bot_choice = bot_for(GAME, level)
    picks = {bot_choice(s, seat, random.Random(11)) for _ in range(2)}
    assert len(picks) == 1


def test_an_unknown_flight_question_never_retires() -> None:
    s, seat = at_retire_question(0)
    s = clone(s)
    s["flight"]["ask"] = {"seat": seat, "kind": "next_card"}
    assert bot._flight(s, seat, ["retire", "go_on"]) == "go_on"


def test_a_searching_bot_flies_the_whole_trek() -> None:
    s = GAME.new(2, {"level": "trek"}, 4)
    bots = [bot_for(GAME, Budget(playouts=4)), GAME.bot_choice]
    rngs = [random.Random(0), random.Random(1)]
    flights = set()
    while GAME.pending(s):
        seat = GAME.pending(s)[0].seat
        flights.add(s["trek"]["flight"])
        s, _ = GAME.apply(s, seat, bots[seat](s, seat, rngs[seat]))
    assert flights == {1, 2, 3} and len(s["trek"]["flights"]) == 3
    assert GAME.result(s) is not None


def test_the_search_retires_when_that_locks_the_win() -> None:
    s, seat = at_retire_question(0)
    other = 1 - seat
    d = next(d for d in GAME.pending(s) if d.seat == seat)
    assert "retire" in [o.id for o in d.options]
    w = clone(s)
    w["flight"]["pos"][other] = None  # the other ship is out of the flight ...
    w["flight"]["retired"].append(other)
    for k in (seat, other):
        w["players"][k].update(lost=[], goods={})
    w["players"][other]["won"] = 2
    w["players"][seat]["won"] = 5  # ... and leaving now keeps 5, at least 2 + 3
    assert gt_search.retired_value(w, seat) == 5
    assert gt_search.locked_win(w, seat)
    assert gt_search.prune(w, d) == ["retire"]
    assert bot_for(GAME, "hard")(w, seat, random.Random(0)) == "retire"
    assert bot.choose(w, seat, random.Random(0)) != "retire"  # the heuristic never (R28)
    # Not locked: a margin too small beside a question of a card that may still cost the
    # ship (an enemy), another ship still flying, the Trek.
    close = clone(w)
    close["players"][other]["won"] = 3
    risky = clone(close)
    risky["flight"]["card"] = next(c for c, v in cards().items() if v["type"] == "pirates")
    risky["flight"]["ask"] = {"seat": seat, "kind": "cannons", "most": 1}
    assert not gt_search.locked_win(risky, seat)
    # Beside a question of a card that can only add (here an abandoned station: goods for
    # crew, nothing lost), one credit more is enough.
    assert cards()[close["flight"]["card"]]["type"] in gt_search.SAFE_CARDS
    assert gt_search.locked_win(close, seat)
    # (What it leaves with counts what the station would load before it leaves.)
    tied = clone(w)
    tied["players"][other]["won"] = gt_search.after_card(w, seat)
    assert gt_search.after_card(w, seat) >= 5
    assert not gt_search.locked_win(tied, seat)
    flying = clone(w)
    flying["flight"]["pos"][other] = s["flight"]["pos"][other]
    assert not gt_search.locked_win(flying, seat)
    # Not locked, giving up is weighed only in the learning flight and at level I (GIVE_UP:
    # at level II the search's give-ups cost finished flights and credits, 2026-11-27)
    assert "retire" not in gt_search.prune(flying, d) and len(gt_search.prune(flying, d)) > 1
    short = clone(flying)
    short["level"] = "I"
    assert "retire" in gt_search.prune(short, d)
    trek = clone(w)
    trek["trek"] = {"flight": 1}
    assert not gt_search.locked_win(trek, seat)
    # Between two cards (the card resolved) one credit more is enough.
    window = clone(risky)
    window["flight"]["ask"] = {"seat": seat, "kind": "next"}
    assert gt_search.locked_win(window, seat)


def test_a_reward_that_pays_more_than_the_lost_tiles_locks_the_win() -> None:
    """Alone in the flight with nothing to sell (lost tiles ate it all), a ship offered an
    abandoned ship's credits gives up beside the question and takes them (2026-11-27: the
    searches let such ships fly on and tie at 0 credits)."""
    s, seat = at_retire_question(0)
    other = 1 - seat
    w = clone(s)
    f = w["flight"]
    f["pos"][other] = None
    f["retired"].append(other)
    f["card"] = next(c for c, v in cards().items() if v["type"] == "abandoned_ship")
    f["ask"] = {"seat": seat, "kind": "take"}
    credits = cards()[f["card"]]["reward"]["credits"]
    for k in (seat, other):
        w["players"][k].update(won=0, goods={}, lost=[])
    w["players"][seat]["lost"] = list(range(credits - 1))  # paid out of the reward
    d = next(d for d in GAME.pending(w) if d.seat == seat)
    assert {"take", "pass", "retire"} <= {o.id for o in d.options}
    assert gt_search.retired_value(w, seat) == 0 and gt_search.after_card(w, seat) == 1
    assert gt_search.prune(w, d) == ["retire"]
    w["players"][seat]["lost"].append(0)  # one more lost tile: the reward leaves 0, a tie
    assert not gt_search.locked_win(w, seat)


def test_the_heuristic_lands_where_its_holds_take_the_goods() -> None:
    s, seat = at_retire_question(0)
    w = clone(s)
    w["players"][seat]["goods"] = {}
    ship = sh.load(w["players"][seat]["ship"])
    holds = [tile(t) for t, _ in ship.values() if tile(t).type == "cargo_hold"]
    red = sum(h.capacity for h in holds if h.red)
    room = sum(h.capacity for h in holds)
    assert bot.load_gain(w, seat, ["red"]) == (4 if red else 0)
    assert bot.load_gain(w, seat, ["blue"] * (room + 2)) == room


def test_at_level_ii_the_search_never_thins_the_crew_below_the_heuristics_floor() -> None:
    """At levels II and III (slavers take 4 and 5 crew) an abandoned ship that would leave
    fewer than KEEP_HUMANS humans aboard is passed, as the heuristic does (2026-11-27: such
    takes were the searches' most common departure from the heuristic on the ships that
    lost their humans); with more humans, or at level I, both answers are searched."""
    s, seat = at_retire_question(0)
    w = clone(s)
    f = w["flight"]
    card = next(c for c, v in cards().items() if v["type"] == "abandoned_ship")
    f["card"], f["ask"] = card, {"seat": seat, "kind": "take"}
    p = w["players"][seat]
    cells = sorted(p["crew"])
    thin = bot.KEEP_HUMANS + cards()[card]["crew_lost"] - 1
    p["crew"] = {k: 0 for k in cells}
    for i in range(thin):
        p["crew"][cells[i % len(cells)]] += 1
    d = next(d for d in GAME.pending(w) if d.seat == seat)
    assert {"take", "pass"} <= {o.id for o in d.options}
    assert bot.choose(w, seat, random.Random(0)) == "pass"
    assert gt_search.prune(w, d) == ["pass"]
    assert bot_for(GAME, "hard")(w, seat, random.Random(0)) == "pass"
    level_i = clone(w)
    level_i["level"] = "I"
    assert {"take", "pass"} <= set(gt_search.prune(level_i, d))
    p["crew"][cells[0]] += 1  # one more human: the floor is kept either way
    assert {"take", "pass"} <= set(gt_search.prune(w, d))


def test_at_level_ii_a_playout_whose_ship_is_out_is_worth_less() -> None:
    """The search's reward of a finished play-out: OUT_COST less when the seat's ship left
    the flight, at levels II and III only (the win alone undervalues finishing)."""
    s = GAME.new(2, {"level": "II", "rules": "2"}, 3)
    r = random.Random(3)
    while GAME.pending(s):
        d = GAME.pending(s)[0]
        s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, r))
    f = s["flight"]
    for seat in range(2):
        assert gt_search.reward_bonus(s, seat) == 0.0 or seat in f["retired"]
    out = clone(s)
    out["flight"]["retired"] = [0]
    assert gt_search.reward_bonus(out, 0) == -gt_search.OUT_COST < 0
    assert gt_search.reward_bonus(out, 1) == 0.0
    assert search.reward(GAME, out, 0) == search.reward(GAME, s, 0) - gt_search.OUT_COST
    level_i = clone(out)
    level_i["level"] = "I"
    assert gt_search.reward_bonus(level_i, 0) == 0.0
