"""States are immutable values: the engines that share parts of a state with the state it
came from (Ad Astra's planets, Red Planet's copy by shapes, Kosmonavts' orders and answers,
MLEM's boarding) must never change an earlier state of the game. Each seeded game below
keeps every state with a snapshot taken when it was made, plays on to the end (random
answers and the game's heuristic bot, with views asked along the way) and then checks that
no kept state differs from its snapshot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core.contract import IllegalMove, random_answer
from rules.ad_astra import GAME as AD_ASTRA
from rules.kosmonavts import GAME as KOSMONAVTS
from rules.mlem import GAME as MLEM
from rules.red_planet import GAME as RED_PLANET

CASES: dict[str, tuple[Any, int, dict[str, str]]] = {
    "ad_astra": (AD_ASTRA, 4, {"artifacts": "all", "trade_time": "live"}),
    "red_planet": (RED_PLANET, 3, {}),
    "kosmonavts": (KOSMONAVTS, 3, {}),
    "mlem": (MLEM, 3, {}),
}


def snapshot(s: Any) -> str:
    return json.dumps(s)


@pytest.mark.parametrize("game_id", sorted(CASES))
@pytest.mark.parametrize("seed", [1, 2])
def test_no_earlier_state_changes_along_a_game(game_id: str, seed: int) -> None:
    game, n, options = CASES[game_id]
    rng = random.Random(seed)
    s = game.new(n, options, 100 + seed)
    kept: list[tuple[Any, str]] = []
    for _ in range(20_000):
        kept.append((s, snapshot(s)))
        pending = game.pending(s)
        if not pending:
            break
        dec = rng.choice(pending)
        game.view(s, None)
        game.view(s, dec.seat)
        if rng.random() < 0.5:
            choice = game.bot_choice(s, dec.seat, rng)
        else:
            choice = random_answer(dec, rng)
        try:
            s, _ = game.apply(s, dec.seat, choice)
        except IllegalMove:
            continue
    assert not game.pending(s), "the game did not finish"
    changed = [i for i, (st, snap) in enumerate(kept) if snapshot(st) != snap]
    assert not changed, f"states {changed[:5]} of {len(kept)} changed after they were made"
