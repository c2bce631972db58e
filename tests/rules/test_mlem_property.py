"""Seeded random play-outs of MLEM checking the engine's invariants.

2,000 complete games (random variants, 2-5 players), each move picked uniformly among all
options of all pending decisions (so simultaneous private decisions interleave freely).
Deterministic: game ``g`` uses seed ``g``; the games are shared out in ten chunks (tests), so
that the full run spreads them over the cores. The expensive checks (round-trips, replays,
secret-hiding) run on a fixed subset of steps and games so the whole file stays well under
a minute on the 2-core build machine.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from core.contract import IllegalMove
from rules.mlem import GAME, engine
from rules.mlem.board import DICE, DISASTERS, MISSIONS, OBJECTIVES
from tests.kit import assert_hides, play_out, replay

GAMES = 2000
#: the games are played in this many tests of GAMES / CHUNKS games each
CHUNKS = 10
PUBLIC_MISSION_KEYS = {"kept", "choosing"}
OPTION_ID = re.compile(r"[A-Za-z0-9_.+-]{1,40}")  # core.contract.check_option_id, compiled


def _variants(rng: random.Random) -> dict[str, str]:
    return {k: rng.choice(("off", "on")) for k in ("ufo", "recon", "missions")}


def _scramble_secrets(s: dict[str, Any], keep_seat: int | None) -> dict[str, Any]:
    """Same public situation, different secrets for every seat except ``keep_seat``. (Only
    the parts it changes are copied: states are immutable values, and everything changed is
    replaced, never changed in place.)"""
    t = dict(s)
    n = t["n"]
    if s["missions"] is not None:
        ms = s["missions"]
        t["missions"] = {**ms, "dealt": list(ms["dealt"]), "kept": list(ms["kept"])}
    for key in ("ufo", "recon"):
        if s[key] is not None:
            t[key] = {**s[key], "taken": list(s[key]["taken"])}
    if t["missions"] is not None:
        others = [m for m in MISSIONS if all(m not in d for d in t["missions"]["dealt"])]
        for seat in range(n):
            if seat == keep_seat:
                continue
            dealt = t["missions"]["dealt"][seat]
            kept = t["missions"]["kept"][seat]
            swap = dict(zip(dealt, reversed(dealt), strict=True))
            if others:
                swap[dealt[0]] = others[0]
            t["missions"]["dealt"][seat] = [swap.get(m, m) for m in dealt]
            if kept is not None:
                t["missions"]["kept"][seat] = [swap.get(m, m) for m in kept]
    for key in ("ufo", "recon"):
        if t[key] is not None:
            for seat in range(n):
                if seat != keep_seat:
                    t[key]["taken"][seat] = [v % 5 + 1 for v in t[key]["taken"][seat]]
    return t


def _check_step(s: dict[str, Any], decisions: list[Any], deep: bool, look: bool) -> None:
    """State and decision invariants; the public view too when ``look``; round-trips and
    secret-hiding (non-interference) when ``deep``."""
    n = s["n"]
    over = s["phase"] == "over"
    assert bool(decisions) != over, "pending() is empty exactly when the game is over"
    for d in decisions:
        assert 0 <= d.seat < n
        assert d.options, "every decision offers at least one option"
        ids = [o.id for o in d.options]
        assert len(ids) == len(set(ids))
        assert all(OPTION_ID.fullmatch(i) for i in ids), ids
        assert d.private == (s["phase"] == "missions")
    if len({d.seat for d in decisions}) != len(decisions):
        raise AssertionError("one decision per seat at a time")
    assert 0 <= s["disasters"] <= DISASTERS
    assert s["pool"] >= 0 and s["disc"] >= 0 and s["pool"] + s["disc"] == DICE
    if s["phase"] == "explore":
        assert s["pool"] >= 1 and len(s["roll"]) == s["pool"]
    for seat in range(n):
        on_board = len(s["board"][seat]) + sum(1 for c in s["crew"] if c[0] == seat)
        assert on_board + s["placed"][seat] == 8
    if not (deep or look):
        return
    v = GAME.view(s, None)
    assert "private" not in v
    assert v["waiting"] == sorted({d.seat for d in decisions})
    assert v["disasters"] == s["disasters"] and v["dice"]["pool"] >= 0
    if v["missions"] is not None and not over:
        assert set(v["missions"]) == PUBLIC_MISSION_KEYS
        assert all(isinstance(k, int) for k in v["missions"]["kept"])
    if not over:
        objectives = sum(OBJECTIVES[o] for o, holder in s["obj"].items() if holder is not None)
        assert sum(v["scores"]) == sum(s["mpts"]) + sum(s["dpts"]) + objectives
    if deep:
        for d in decisions:  # pending() and apply() agree on what is legal
            for o in d.options:
                GAME.apply(s, d.seat, o.id)
            with pytest.raises(IllegalMove):
                GAME.apply(s, d.seat, "go.9")
        json.dumps(v)
        data = GAME.dump(s)
        json_data = json.loads(json.dumps(data))
        assert GAME.dump(GAME.load(json_data)) == data
        if not over:
            # non-interference: other seats' secrets never change what a seat sees
            assert_hides(GAME, s, _scramble_secrets(s, None), None)
            for seat in range(n):
                assert_hides(GAME, s, _scramble_secrets(s, seat), seat)


def _play(seed: int, check_every: int) -> tuple[dict[str, Any], list[tuple[int, str]], dict]:
    rng = random.Random(seed)
    variants = _variants(rng)
    n = rng.randint(2, 5)
    s = GAME.new(n, variants, seed)
    moves: list[tuple[int, str]] = []
    step = 0
    while True:
        decisions = GAME.pending(s)
        deep = check_every > 0 and step % check_every == 0
        _check_step(s, decisions, deep, look=step % 4 == 0 or not decisions)
        if not decisions:
            break
        # uniform over every option of every pending decision
        seat, choice = rng.choice([(d.seat, o.id) for d in decisions for o in d.options])
        s, events = GAME.apply(s, seat, choice)
        for e in events:
            assert e.code.startswith("mlem.event.")
            assert e.private_to is None or 0 <= e.private_to < n
        moves.append((seat, choice))
        step += 1
        assert step < 2000, "a game must end quickly"
    return s, moves, {"n": n, "variants": variants}


def _check_end(s: dict[str, Any]) -> None:
    r = GAME.result(s)
    assert r is not None
    assert s["end"] in ("disasters", "placed")
    if s["end"] == "disasters":
        assert s["disasters"] == DISASTERS
    else:
        assert max(s["placed"]) == 8
    assert len(r.scores) == len(r.ranks) == len(r.breakdown) == s["n"]
    for total, parts in zip(r.scores, r.breakdown, strict=True):
        assert sum(parts.values()) == total
        assert set(parts) == set(engine.PARTS)
        assert all(p >= 0 for p in parts.values())
    best = max(r.scores)
    assert {i for i, sc in enumerate(r.scores) if sc == best} == set(r.winners)
    for i, sc in enumerate(r.scores):
        assert r.ranks[i] == 1 + sum(1 for o in r.scores if o > sc)
    assert GAME.view(s, None)["scores"] == list(r.scores)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    """Games ``chunk * GAMES / CHUNKS`` onwards (the chunks share the games out over the
    cores); every chunk sees all player counts and both endings."""
    ends = {"disasters": 0, "placed": 0}
    players = set()
    per = GAMES // CHUNKS
    for g in range(chunk * per, (chunk + 1) * per):
        deep_game = g % 40 == 0
        s, moves, info = _play(g, 1 if deep_game else 0)
        _check_end(s)
        ends[s["end"]] += 1
        players.add(info["n"])
        data = GAME.dump(s)
        assert GAME.dump(GAME.load(data)) == data
        if g % 5 == 0:
            # replay from the seed with the same choices: identical, bit for bit
            t = replay(GAME, info["n"], info["variants"], g, moves)
            assert GAME.dump(t) == data
            assert json.dumps(GAME.dump(t), sort_keys=True) == json.dumps(data, sort_keys=True)
    assert players == {2, 3, 4, 5}
    assert ends["disasters"] > 0 and ends["placed"] > 0


def test_bot_choice_plays_legal_moves():
    for g in range(150):
        s, moves = play_out(GAME, 2 + g % 4, _variants(random.Random(g)), g, bot_share=1.0)
        assert s["phase"] == "over" and moves
        _check_end(s)  # (apply refuses any option a decision does not offer)
