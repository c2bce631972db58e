"""Ad Astra: every button and select label fits Discord without being cut.

Over seeded random play-outs (3, 4 and 5 players, both lobby options, bots' and random
moves mixed so trades, artifacts and discards all come up), every option of every open
decision, in English and Spanish, with 32-character player names (Discord's longest display
name), is at most 80 characters (a button's limit; a select option allows 100)."""

from __future__ import annotations

import random

import pytest

from core.contract import IllegalMove, random_answer
from core.i18n import t
from rules.ad_astra import GAME

BUTTON = 80
NAMES = [f"{c * 31}{i}" for i, c in enumerate("ABCDE")]  # 32 characters each


@pytest.mark.parametrize("seed", range(6))
def test_no_label_is_cut(seed: int) -> None:
    rng = random.Random(seed)
    players = 3 + seed % 3
    options = {"trade_time": ("live", "days")[seed % 2], "artifacts": ("base", "all")[seed % 2]}
    state = GAME.new(players, options, seed)
    longest = 0
    checked: set[str] = set()
    for _ in range(6000):
        pending = GAME.pending(state)
        if not pending:
            break
        for d in pending:
            for o in d.options:
                for lang in ("en", "es"):
                    label = t(o.label, lang, NAMES, **dict(o.args))
                    assert len(label) <= BUTTON, f"{len(label)} > {BUTTON}: {label!r}"
                    longest = max(longest, len(label))
                checked.add(o.label)
        d = rng.choice(pending)
        try:
            if rng.random() < 0.7:
                answer = GAME.bot_choice(state, d.seat, rng)
            else:
                answer = random_answer(d, rng)
            state, _ = GAME.apply(state, d.seat, answer)
        except IllegalMove:  # a random pick the rules refuse (e.g. too few)
            state, _ = GAME.apply(state, d.seat, GAME.bot_choice(state, d.seat, rng))
    assert GAME.result(state) is not None, "the play-out did not finish"
    assert len(checked) > 40 and longest > 30
