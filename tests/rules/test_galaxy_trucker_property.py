"""Galaxy Trucker property tests: random builds end legal or are repaired to legal, tiles are
conserved, random play-outs keep every promise of the contract, and the bot builds legal,
sensible ships quickly."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.contract import check_option_id
from rules.galaxy_trucker import GAME, engine
from rules.galaxy_trucker import ship as sh
from rules.galaxy_trucker.building import HG_OUT
from rules.galaxy_trucker.tiles import board_cells, regular_tile_ids, start_cell, tile

SETTINGS = settings(
    max_examples=500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def random_ship(seed: int, board: str, size: int) -> sh.Ship:
    """A ship built by the building rules (each tile next to the ship), turned at random."""
    r = random.Random(seed)
    cells = board_cells(board)
    ship: sh.Ship = {start_cell(board): (33, 0)}
    pool = regular_tile_ids()
    r.shuffle(pool)
    for _ in range(size):
        free = sh.free_cells(ship, cells)
        if not free:
            break
        ship[r.choice(free)] = (pool.pop(), r.randrange(4))
    return ship


def brute_best(ship: sh.Ship) -> int:
    """The largest valid one-piece subset, by trying them all (small ships only)."""
    cells = sorted(ship)
    for k in range(len(cells), 0, -1):
        for keep in itertools.combinations(cells, k):
            if sh.is_valid({c: ship[c] for c in keep}):
                return k
    return 0


@SETTINGS
@given(
    seed=st.integers(0, 10**9),
    board=st.sampled_from(["I", "II", "III"]),
    size=st.integers(0, 35),
)
def test_random_builds_are_repaired_to_legal(seed, board, size):
    ship = random_ship(seed, board, size)
    keep = sh.fix_plan(ship, start_cell(board))
    fixed = {c: v for c, v in ship.items() if c in keep}
    assert fixed and sh.is_valid(fixed)
    if sh.is_valid(ship):
        assert keep == set(ship)  # a legal ship is left alone
    if len(ship) <= 8:
        assert len(keep) == brute_best(ship)  # the fewest tiles lost


@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), size=st.integers(0, 26))
def test_manual_repair_ends_legal_with_tiles_conserved(seed, size):
    """Random removals and part choices through the engine always end in a valid ship."""
    s = GAME.new(2, {"level": "II"}, seed % 1000)
    ship = random_ship(seed, "II", size)
    p = s["players"][0]
    for tid, _ in ship.values():
        if tid != 33:
            s["facedown"].remove(tid)
    p["ship"] = sh.dump(ship)
    # seat 1 has a misplaced engine, so pre-launch waits for it while seat 0 repairs
    used = {tid for tid, _ in ship.values()}
    engine_tile = next(t for t in (73, 74, 75) if t not in used)
    s["facedown"].remove(engine_tile)
    s["players"][1]["ship"]["7.6"] = [engine_tile, 1]
    s = GAME.apply(s, 1, "done")[0]
    s = GAME.apply(s, 0, "done")[0]
    r = random.Random(seed)
    while s["players"][0]["stage"] != "ready":
        assert s["phase"] == "prelaunch"
        d = next(d for d in GAME.pending(s) if d.seat == 0)
        s, _ = GAME.apply(s, 0, r.choice([o.id for o in d.options if o.id != "fix"] or ["fix"]))
        assert sorted(engine.all_tiles(s)) == sorted(engine.all_tiles(GAME.new(2, {}, 0)))
    assert sh.is_valid(sh.load(s["players"][0]["ship"]))
    assert len(s["players"][0]["lost"]) == len(ship) - len(s["players"][0]["ship"])


def _check_state(s, expected_tiles):
    assert sorted(engine.all_tiles(s)) == expected_tiles
    for p in s["players"]:
        assert len(p["reserve"]) <= 2
    if "flight" in s:
        from rules.galaxy_trucker.tiles import data

        supply = data()["goods_supply"]
        for colour, n in supply.items():
            aboard = sum(
                gs.count(colour) for p in s["players"] for gs in p.get("goods", {}).values()
            )
            assert s["flight"]["bank"][colour] + aboard == n
    pending = GAME.pending(s)
    for d in pending:
        assert d.options, d
        for o in d.options:
            assert check_option_id(o.id), o.id
            if d.grid and o.cell is not None:
                assert 0 <= o.cell[0] < d.grid[0] and 0 <= o.cell[1] < d.grid[1]
        assert len({o.id for o in d.options}) == len(d.options)
    assert (pending == []) == (s["phase"] == "over")
    public = GAME.view(s, None)
    json.dumps(public)
    assert "private" not in public
    for seat in range(s["n"]):
        json.dumps(GAME.view(s, seat))
    assert GAME.load(json.loads(json.dumps(GAME.dump(s)))) == s


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    level=st.sampled_from(engine.LEVELS),
)
def test_random_playouts_keep_the_contract(seed, players, level):
    s = GAME.new(players, {"level": level, "hourglass": "90s"}, seed)
    expected = sorted(engine.all_tiles(s))
    r = random.Random(seed)
    moves = []
    for _ in range(3000):
        _check_state(s, expected)
        ds = GAME.pending(s)
        if not ds:
            break
        d = r.choice(ds)
        if d.timer and r.random() < 0.01:
            choice = d.timer.option
        elif r.random() < 0.5:
            choice = GAME.bot_choice(s, d.seat, r)
        else:
            choice = r.choice(d.options).id
        s, events = GAME.apply(s, d.seat, choice)
        moves.append((d.seat, choice))
        for e in events:
            assert e.private_to is None or e.private_to in range(players)
    else:  # finish with bots and the hourglass
        while GAME.pending(s):
            d = GAME.pending(s)[0]
            if d.timer:
                s, _ = GAME.apply(s, d.seat, HG_OUT)
                moves.append((d.seat, HG_OUT))
            else:
                c = GAME.bot_choice(s, d.seat, r)
                s, _ = GAME.apply(s, d.seat, c)
                moves.append((d.seat, c))
    res = GAME.result(s)
    assert res is not None and all(x >= 0 for x in res.scores)
    assert all(sum(b.values()) == sc for b, sc in zip(res.breakdown, res.scores, strict=True))
    for p in s["players"]:
        assert sh.is_valid(sh.load(p["ship"]))
    # the same seed and the same choices give the same game, bit for bit
    again = GAME.new(players, {"level": level, "hourglass": "90s"}, seed)
    for seat, c in moves:
        again, _ = GAME.apply(again, seat, c)
    assert GAME.dump(again) == GAME.dump(s)


def test_bot_builds_legal_sensible_ships_quickly():
    for seed, level in ((1, "I"), (2, "II"), (3, "III"), (4, "II")):
        s = GAME.new(4, {"level": level}, seed)
        r = random.Random(seed)
        # (the decision-time budget, 2 s, is measured by bench/gt_bot.py)
        while s["phase"] == "build":
            d = r.choice(GAME.pending(s))
            c = GAME.bot_choice(s, d.seat, r)
            s, _ = GAME.apply(s, d.seat, c)
        for p in s["players"]:
            ship = sh.load(p["ship"])
            assert sh.is_valid(ship)  # nothing to remove at pre-launch
            kinds = [tile(t).type for t, _ in ship.values()]
            assert len(ship) >= 8
            assert {"engine", "cannon"} <= set(kinds)
            assert {"cabin", "battery"} & set(kinds)
            start_row = start_cell("I")[0]  # row 7 on every board
            engines = [c[0] for c, (t, _) in ship.items() if tile(t).type == "engine"]
            cannons = [c[0] for c, (t, _) in ship.items() if tile(t).type == "cannon"]
            mean_engine = sum(engines) / len(engines)
            assert mean_engine >= start_row  # engines in the back half
            assert sum(cannons) / len(cannons) < mean_engine  # cannons ahead of them


def test_bot_games_fly_to_the_end_keeping_the_contract():
    for seed, level, players in ((5, "I", 4), (6, "II", 3), (7, "III", 2), (8, "learning", 4)):
        s = GAME.new(players, {"level": level}, seed)
        expected = sorted(engine.all_tiles(s))
        r = random.Random(seed)
        flight_moves = 0
        while GAME.pending(s):
            d = r.choice(GAME.pending(s))
            s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, r))
            if s["phase"] in ("flight", "over"):
                _check_state(s, expected)
                flight_moves += 1
        assert flight_moves > 0 and s["flight"]["cards_done"] > 0
        res = GAME.result(s)
        assert res is not None
        for b, sc in zip(res.breakdown, res.scores, strict=True):
            assert sum(b.values()) == sc >= 0
