"""The end reveals what was hidden: a finished game's public view lists, under ``reveal``,
every piece of hidden information it kept, as lines that read in both languages."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.i18n import has, t
from host import registry

NAMES = ["Ana", "Bea", "Cal", "Dan", "Eva"]


def finish(game_id: str, players: int, options: dict[str, str], seed: int) -> dict:
    game = registry.get(game_id)
    rng = random.Random(seed)
    state = game.new(players, options, seed)
    for _ in range(5000):
        pending = game.pending(state)
        if not pending:
            return game.view(state, None)
        d = rng.choice(pending)
        rules: Any = game  # both games have a bot_choice
        state, _ = game.apply(state, d.seat, rules.bot_choice(state, d.seat, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game_id", "options", "per_seat"),
    [
        ("mlem", {"missions": "on", "ufo": "on", "recon": "on"}, "mlem.reveal.missions"),
        ("kosmonavts", {"rules": "advanced"}, "kosmonavts.reveal.mission"),
    ],
)
def test_every_seat_s_secrets_are_revealed(game_id: str, options: dict, per_seat: str) -> None:
    for seed in range(4):
        players = 2 + seed % 2
        view = finish(game_id, players, options, seed)
        assert view["over"]
        lines = view["reveal"]
        seats = {args["seat"] for key, args in lines if key == per_seat}
        assert seats == set(range(players))
        for key, args in lines:
            for lang in ("en", "es"):
                assert has(key, lang)
                text = t(key, lang, NAMES, **args)
                assert "{" not in text and NAMES[args["seat"]] in text
                assert "✓" in text or "✗" in text or key != per_seat


def test_nothing_hidden_nothing_revealed() -> None:
    view = finish("mlem", 2, {}, 1)
    assert view["reveal"] == []
    assert "reveal" not in registry.get("mlem").view(registry.get("mlem").new(2, {}, 1), None)
