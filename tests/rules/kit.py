"""What the rules tests of every game share (no tests here): a game's strings and the
placeholders of a string. Each game's helpers are in tests/rules/<game>_kit.py."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.contract import Decision
from rules import search

ROOT = Path(__file__).resolve().parents[2]


def strings(game_id: str) -> dict[str, dict[str, str]]:
    """data/<game_id>/strings.json: language -> key -> text."""
    path = ROOT / "data" / game_id / "strings.json"
    loaded: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def fields(text: str) -> set[str]:
    """The names of the placeholders in ``text`` ("{seat} took {n}" -> {"seat", "n"})."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def check_languages_match(table: dict[str, dict[str, str]], game_id: str) -> None:
    """English and Spanish have the same keys, all of the game's, each with the same
    placeholders and some text in both."""
    en, es = table["en"], table["es"]
    assert set(en) == set(es), set(en) ^ set(es)
    for key in en:
        assert key.startswith(f"{game_id}."), key
        assert en[key].strip() and es[key].strip(), key
        assert fields(en[key]) == fields(es[key]), key


def check_key(table: dict[str, dict[str, str]], key: str, args: dict[str, Any]) -> None:
    """``key`` has an English text whose placeholders ``args`` all fill."""
    assert key in table["en"], key
    need = fields(table["en"][key])
    assert need <= set(args), (key, need, args)


def count_playouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, ``counter[0]`` counts the search's play-outs (``rules.search.playout``
    calls); set it back to 0 to count afresh."""
    counter = [0]
    real = search.playout

    def counting(*args: Any, **kw: Any) -> float:
        counter[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(search, "playout", counting)
    return counter


def check_sample_keeps_what_the_seat_sees(game: Any, s: Any, seats: int, rng: Any) -> None:
    """For each seat, a state ``game.sample`` draws looks the same to that seat: its view
    and its own pending decisions."""
    for seat in range(seats):
        w = game.sample(s, seat, rng)
        assert game.view(w, seat) == game.view(s, seat)
        mine = [d for d in game.pending(s) if d.seat == seat]
        assert [d for d in game.pending(w) if d.seat == seat] == mine


def walk_keys(
    game: Any,
    s: Any,
    rng: random.Random,
    choose: Callable[[Any, Decision, random.Random], str],
    check: Callable[[str, dict[str, Any] | None], None],
) -> Any:
    """Play ``s`` to the end (a random pending decision each move, answered by
    ``choose(state, decision, rng)``), calling ``check(key, args)`` for every string key
    the game shows on the way: each prompt, option label and event with its arguments, and
    the phase of each public view (args None). Returns the final state."""
    while True:
        check(game.view(s, None)["phase"], None)
        pending = game.pending(s)
        if not pending:
            return s
        for d in pending:
            check(d.prompt, dict(d.args))
            for o in d.options:
                check(o.label, dict(o.args))
        d = rng.choice(pending)
        s, events = game.apply(s, d.seat, choose(s, d, rng))
        for e in events:
            check(e.code, dict(e.args))
