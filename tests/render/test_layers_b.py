"""Boxes drawn once and pasted afterwards (render.regions, issue 23) in Ad Astra and Galaxy
Trucker: a run of consecutive pictures drawn warm (each box pasted when its state comes
again) is pixel for pixel the same run drawn cold (every cache emptied before each picture),
and no box draws outside itself (``regions.CHECK``). Galaxy Trucker's flight tables come
from bot-built ships (random builders leave them nearly empty)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from core.contract import random_answer
from host import registry
from render import layers, regions
from rules.galaxy_trucker import GAME as GT
from tests.render.kit import assert_same_pictures


@cache
def gt_flight(players: int, level: str, seed: int) -> list[tuple[dict, dict, list[str]]]:
    """Every other table of a bot-built flight (and the pre-launch before it). Cached: a
    flight is built once per run (the pictures never change the views)."""
    s = GT.new(players, {"rules": "2", "level": level}, seed)
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    out = []
    step = 0
    while GT.pending(s):
        if s["phase"] != "build" and step % 2 == 0:
            out.append((GT.view(s, None), GT.view(s, step % players), names))
        d = rng.choice(GT.pending(s))
        s, _ = GT.apply(s, d.seat, GT.bot_choice(s, d.seat, rng))
        step += 1
    return out[:14]


def played(game_id: str, players: int, seed: int, every: int) -> list[tuple[dict, dict, list]]:
    """Consecutive pictures of a seeded random game (one every ``every`` moves)."""
    game = registry.get(game_id)
    s = game.new(players, {o.id: o.default for o in game.options}, seed)
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    out = []
    for step in range(400):
        pending = game.pending(s)
        if step % every == 0 or not pending:
            out.append((game.view(s, None), game.view(s, step % players), names))
        if not pending or len(out) >= 12:
            break
        d = rng.choice(pending)
        s, _ = game.apply(s, d.seat, random_answer(d, rng))
    return out


def run(
    game_id: str, views: list[tuple[dict, dict, list[str]]], lang: str, cold: bool
) -> list[bytes | None]:
    """The PNGs of ``views`` (table, private, table, ...), compared by
    :func:`tests.render.kit.assert_same_pictures` (their pixels, in RGB)."""
    render = registry.renderer(game_id)
    out: list[bytes | None] = []
    for pub, me, names in views:
        if cold:
            layers.clear_all()
        out.append(render.render_table(pub, names, lang))
        out.append(render.render_private(me, names, lang))
    return out


CASES = [
    ("galaxy_trucker", lambda: gt_flight(3, "I", 43)),
    ("galaxy_trucker", lambda: gt_flight(4, "II", 47)),
    ("galaxy_trucker", lambda: gt_flight(2, "III", 45)),
    ("galaxy_trucker", lambda: played("galaxy_trucker", 4, 3, 1)),
    ("ad_astra", lambda: played("ad_astra", 3, 1, 3)),
    ("ad_astra", lambda: played("ad_astra", 5, 2, 3)),
]


@pytest.mark.parametrize(("game_id", "views"), CASES)
def test_warm_run_is_the_cold_run(
    game_id: str, views: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(regions, "CHECK", True)  # a box drawing outside itself fails
    sample = views()
    assert len(sample) >= 8
    for lang in ("es", "en"):
        cold = run(game_id, sample, lang, cold=True)
        layers.clear_all()
        warm = run(game_id, sample, lang, cold=False)
        again = run(game_id, sample, lang, cold=False)  # every box pasted
        assert_same_pictures(warm, cold, "RGB")
        assert_same_pictures(again, cold, "RGB")


def test_boxes_are_pasted_when_their_state_comes_again() -> None:
    """The flight table's ships come from the cache when nothing aboard changed."""
    from render.galaxy_trucker import flight

    sample = gt_flight(4, "II", 47)
    layers.clear_all()
    run("galaxy_trucker", sample, "en", cold=False)
    assert flight._SHIPS.hits > 0 and flight._TRACKS.hits > 0
    assert 0 < layers.memory_bytes() < 80 * 2**20
