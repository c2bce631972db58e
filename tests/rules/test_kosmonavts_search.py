"""Kosmonavts' search hooks: candidate routes carry their body; with ``COMMIT`` (tried, off:
see rules/kosmonavts/search.py) the searching seat of a sampled world keeps to the body of
the route it chose in the rounds after, never in the real state; the engine's ``defend``
(Kosmonavts hard) keeps the game's own pick through every halving round."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules.search as search
from rules.kosmonavts import GAME as KOSMO
from rules.kosmonavts import search as ksearch
from rules.kosmonavts.board import BODIES
from rules.search import Budget


def _orders(seed: int, rounds: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    s = KOSMO.new(2, {}, seed)
    while not (s["phase"] == "orders" and s["round"] >= rounds):
        d = KOSMO.pending(s)[0]
        s, _ = KOSMO.apply(s, d.seat, KOSMO.bot_choice(s, d.seat, rng))
    return s


def test_routes_name_their_body_and_the_pilots_plan_comes_first() -> None:
    for seed in range(4):
        s = _orders(seed)
        for seat in (0, 1):
            routes = ksearch.routes(s, seat)
            assert routes[0][1] == ksearch.plans(s, seat)[0]
            assert all(g is None or g in BODIES for g, _p in routes)
            assert len({p for _g, p in routes}) == len(routes)


def _fly_route(w: dict[str, Any], seat: int, goal: str, plan: tuple[str, ...]) -> dict[str, Any]:
    """Apply the route's first step as the search does, then let the play-out policy finish
    the order."""
    w, _ = KOSMO.apply(w, seat, plan[0])
    while not w["orders"][seat]["done"]:
        w, _ = KOSMO.apply(w, seat, KOSMO.rollout(w, seat, random.Random(0)))
    return w


def test_a_sampled_world_keeps_the_chosen_route_s_body(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ksearch, "COMMIT", True)
    found = 0
    for seed in range(8):
        s = _orders(seed)
        seat = 0
        routes = [(g, p) for g, p in ksearch.routes(s, seat) if g is not None and len(p) > 2]
        if not routes:
            continue
        goal, plan = routes[-1]
        w = _fly_route(KOSMO.sample(s, seat, random.Random(seed)), seat, goal, plan)
        # the order goes on with the first route that starts with that step: its body
        flown = next(g for g, p in ksearch.routes(s, seat) if p[0] == plan[0])
        if flown is None:
            continue
        goal = flown
        assert w.get("search_goal") == [seat, goal]
        assert ksearch._goal(w, seat) in (goal, None)
        found += 1
        # the next round, while the body is still worth flying to, its plan is flown
        r = w["round"]
        while not (w["phase"] == "orders" and w["round"] > r) and KOSMO.pending(w):
            d = KOSMO.pending(w)[0]
            w, _ = KOSMO.apply(w, d.seat, KOSMO.rollout(w, d.seat, random.Random(1)))
        if KOSMO.pending(w) and ksearch._goal(w, seat) == goal:
            want = ksearch.bot.seat_plan(w, seat, ((goal, w["bodies"][goal], 0.0),))
            assert KOSMO.rollout(w, seat, random.Random(2)) == want[0]
    assert found >= 3


def test_the_real_state_is_never_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ksearch, "COMMIT", True)
    s = _orders(5)
    for g, p in ksearch.routes(s, 0):
        if len(p) < 2:
            continue
        s2, _ = KOSMO.apply(s, 0, p[0])
        while not s2["orders"][0]["done"]:
            s2, _ = KOSMO.apply(s2, 0, KOSMO.rollout(s2, 0, random.Random(0)))
            assert "search_goal" not in s2
        assert g is None or "search_goal" not in s2


def test_the_other_seats_fly_the_pilots_plan_in_a_sampled_world() -> None:
    s = _orders(2)
    w = KOSMO.sample(s, 0, random.Random(4))
    rng = random.Random(9)
    assert KOSMO.rollout(w, 1, rng) == KOSMO.bot_choice(w, 1, random.Random(9))


class _Flat:
    """Seat 0 picks one of eight letters; nothing hidden (the play-outs are faked)."""

    perfect_information = True

    def apply(self, s: dict[str, Any], seat: int, choice: str) -> tuple[dict[str, Any], list]:
        return {"pick": choice}, []


@pytest.mark.parametrize("defend", [False, True])
def test_a_defended_first_answer_survives_an_unlucky_first_play_out(
    defend: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's own pick (first) loses its first play-out, then wins every other one;
    the rest always score 0.4. Undefended it is halved away after one play-out; defended it
    stays, and its later play-outs show it clearly best."""
    calls: dict[str, int] = {}

    def fake(game: Any, s: dict[str, Any], seat: int, rng: Any, depth: Any) -> float:
        calls[s["pick"]] = calls.get(s["pick"], 0) + 1
        if s["pick"] == "a":
            return 0.0 if calls["a"] == 1 else 1.0
        return 0.4

    monkeypatch.setattr(search, "playout", fake)
    budget = Budget(playouts=16, defend=defend)
    letters = list("abcdefgh")
    best, _means = search.search(_Flat(), {"pick": None}, 0, letters, budget, random.Random(0))
    assert sum(calls.values()) <= budget.playouts
    assert (best == "a") is defend
