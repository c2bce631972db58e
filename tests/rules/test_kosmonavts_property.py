"""Seeded random play-outs of Kosmonavts checking the engine's invariants.

1,000 complete games: both rule sets, 2-4 players, both planet set-ups. Every move picks one
pending decision at random and answers it either uniformly at random or with ``bot_choice``
(a pilot, so that games reach their natural end); the mix varies per game, and every tenth
game is fully uniform (it ends at the round limit). Deterministic: game ``g`` uses seed
``g``. Cheap invariants run after every move; the costly ones (secrecy of orders and
missions, dump/load) on every move of every 20th game and at round ends otherwise; every
game is replayed from its seed at the end.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from core.contract import check_option_id
from rules.kosmonavts import GAME, engine
from rules.kosmonavts.board import (
    DATA,
    MARKERS_ADVANCED,
    MARKERS_BASIC,
    NON_EARTH,
    SUN,
    on_board,
)
from rules.kosmonavts.engine import body_pos

GAMES = 1000
CHUNKS = 20
STRINGS = json.loads((DATA / "strings.json").read_text(encoding="utf-8"))["en"]
TIMES: list[float] = []
#: every body's full stack of markers, sorted, by rule set
FULL_STACKS = {
    "basic": {b: sorted(MARKERS_BASIC) for b in NON_EARTH},
    "advanced": {b: sorted(MARKERS_ADVANCED[b]) for b in NON_EARTH},
}


def _config(g: int) -> tuple[int, dict[str, str], float]:
    n = 2 + g % 3
    opts = {
        "rules": ("basic", "advanced")[(g // 3) % 2],
        "planets": "players" if g % 7 == 3 else "random",
    }
    eps = 1.0 if g % 10 == 9 else (0.0, 0.05, 0.2, 0.5)[(g // 6) % 4]
    return n, opts, eps


def _scrub(s: dict[str, Any], keep: int | None) -> dict[str, Any]:
    """The same public situation with every other seat's secrets changed: unconfirmed order
    contents erased, missions replaced. (Only the parts it changes are copied: states are
    immutable values, and everything changed is replaced, never changed in place.)"""
    t = dict(s)
    t["missions"] = list(s["missions"])
    if s["orders"] is not None:
        t["orders"] = [dict(o) for o in s["orders"]]
    if s["dealt"] is not None:
        t["dealt"] = list(s["dealt"])
        t["choice"] = [dict(c) for c in s["choice"]]
    for seat in range(t["n"]):
        if seat == keep:
            continue
        if t["orders"] is not None:
            o = t["orders"][seat]
            o["steps"], o["picks"] = [], 0
            if o["done"]:
                o["final"] = "evac"
        if not t["over"]:  # final scores count the missions, revealed at the end
            t["missions"][seat] = ["m1.neptune"]
        if t["dealt"] is not None:
            t["dealt"][seat] = ["m2.mars"] * 4
            t["choice"][seat]["keep"] = []
            t["choice"][seat]["picks"] = 0
    return t


#: ``on_board`` of a hex, remembered (a pure function of the hex; ships visit few hexes)
ON_BOARD: dict[tuple[int, int], bool] = {}


def _check_state(s: dict[str, Any]) -> None:
    """(Run after every move of every game: written for speed, the same checks as plainly
    written ones.)"""
    n = s["n"]
    ships = s["ships"]
    tank, max_hyper, max_shields = engine.TANK, engine.MAX_HYPER, engine.MAX_SHIELDS
    flying = s["phase"] != "setup"
    cubes_wait = s["phase"] in ("event", "orders")
    held: dict[str, list[int]] = {b: [] for b in NON_EARTH}
    earth_markers = 0
    for ship in ships:
        fuel, hyper = ship["fuel"], ship["hyper"]
        assert fuel >= 0 and hyper >= 0
        assert fuel + hyper <= tank
        assert hyper <= max_hyper
        assert 0 <= ship["shields"] <= max_shields
        r = ship["rose"]
        assert min(r) >= 0 and not ((r[0] and r[3]) or (r[1] and r[4]) or (r[2] and r[5]))
        if flying:
            p = (ship["pos"][0], ship["pos"][1])
            board = ON_BOARD.get(p)
            if board is None:
                board = ON_BOARD[p] = on_board(p)
            assert board and p != SUN
            if ship["landed"] is not None:
                assert p == body_pos(s, ship["landed"])
                # empty rose, except solar-wind cubes waiting in phases 1-2 (R4)
                assert cubes_wait or r == [0, 0, 0, 0, 0, 0]
        for b, marker in ship["markers"].items():
            if b in held:
                held[b].append(marker)
        if ship["earth"]:
            earth_markers += 1
    full = FULL_STACKS[s["rules"]]
    stacks, removed = s["stacks"], s["removed"]
    for b, mine in held.items():  # markers conserved
        assert sorted(mine + stacks.get(b, [])) == ([] if b in removed else full[b])
    assert len(s["earth_stack"]) + earth_markers == 4
    assert len(s["deck"]) + len(s["face_up"]) + len(s["discard"]) + bool(s["active"]) == 30
    assert n == len(ships) == len(s["missions"])


def _check_views(s: dict[str, Any], seats: range | tuple[int, ...]) -> None:
    pub = GAME.view(s, None)
    if s["over"]:  # the end reveals the missions on purpose: everything else stays hidden
        assert all(key == "kosmonavts.reveal.mission" for key, _ in pub.pop("reveal"))
    text = json.dumps(pub)
    assert "private" not in pub and "m1." not in text and "m2." not in text
    scrubbed = GAME.view(_scrub(s, None), None)
    scrubbed.pop("reveal", None)
    assert pub == scrubbed
    for seat in seats:
        mine = GAME.view(s, seat)
        assert mine["private"]["seat"] == seat
        assert mine == GAME.view(_scrub(s, seat), seat)
    dumped = GAME.dump(s)
    data = json.loads(json.dumps(dumped))
    assert GAME.dump(GAME.load(data)) == dumped


def _play(g: int, keys: set[str]) -> None:
    n, opts, eps = _config(g)
    rng = random.Random(g)
    s = GAME.new(n, opts, g)
    log: list[tuple[int, str]] = []
    deep = g % 20 == 0
    last_round = -1
    t0 = time.perf_counter()
    while True:
        decisions = GAME.pending(s)
        assert bool(decisions) != s["over"]
        if not decisions:
            break
        for d in decisions:
            keys.add(d.prompt)
            assert d.options and d.private == (s["phase"] in ("orders", "missions"))
            for o in d.options:
                if o.label not in keys:
                    assert check_option_id(o.id), o.id
                    keys.add(o.label)
        d = decisions[rng.randrange(len(decisions))]
        if rng.random() < eps:
            choice = d.options[rng.randrange(len(d.options))].id
        else:
            choice = GAME.bot_choice(s, d.seat, rng)
        phase = s["phase"]
        s2, events = GAME.apply(s, d.seat, choice)
        log.append((d.seat, choice))
        for e in events:
            keys.add(e.code)
            assert e.private_to is None
        if phase == "orders" and s2["phase"] == "orders":
            # nothing about an order is told before every order is in
            assert all(e.code == "kosmonavts.event.order_confirmed" for e in events)
        s = s2
        _check_state(s)
        if s["round"] != last_round:
            _check_views(s, range(n))
            last_round = s["round"]
        elif deep:
            _check_views(s, (d.seat,))
    TIMES.append(time.perf_counter() - t0)
    res = GAME.result(s)
    assert res is not None and len(res.scores) == n
    for seat in range(n):
        assert sum(res.breakdown[seat].values()) == res.scores[seat]
        assert set(res.breakdown[seat]) == {"markers", "earth", "mission1", "mission2"}
    assert GAME.view(s, None)["scores"] == list(res.scores)
    assert min(res.ranks) == 1
    if s["end"] == "return":
        assert any(sh["returned"] for sh in s["ships"])
    else:
        assert s["round"] == engine.ROUND_LIMIT
    # replay equals state
    r = GAME.new(n, opts, g)
    for seat, choice in log:
        r, _ = GAME.apply(r, seat, choice)
    assert GAME.dump(r) == GAME.dump(s)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk: int) -> None:
    keys: set[str] = set()
    per = GAMES // CHUNKS
    for g in range(chunk * per, (chunk + 1) * per):
        _play(g, keys)
    missing = sorted(k for k in keys if k not in STRINGS)
    assert not missing, missing[:10]
