"""Every symbol a decision shows is explained: over random play-outs of each registered
game, every prompt and option label (English and Spanish) uses no pictograph (emoji, ★, ✓,
arrows drawn as symbols…) that the game's ``symbols`` legend does not list."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from core.contract import Decision
from core.i18n import t
from host import registry
from tests.kit import every_decision
from tests.symbols import explained, pictographs

NAMES = ["Ana", "Bea", "Cal", "Dan", "Eva", "Fer"]


def test_pictographs_finds_emoji_and_symbols_not_letters() -> None:
    assert pictographs("→ 10 (+4): 🔥 2 2 🐱 Ana ✓ ★ ±×") == {"→", "🔥", "🐱", "✓", "★"}
    assert pictographs("Bajar a la luna de la casilla 10 (+3)") == set()


def texts(decision: Decision, lang: str) -> Iterator[tuple[str, str]]:
    yield decision.prompt, t(decision.prompt, lang, NAMES, **dict(decision.args))
    for o in decision.options:
        yield o.label, t(o.label, lang, NAMES, **dict(o.args))


def playouts(game_id: str) -> Iterator[Decision]:
    return (d for _, d in every_decision(registry.get(game_id), "symbols", games=12))


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_every_symbol_in_prompts_and_labels_is_in_the_legend(game_id: str) -> None:
    game = registry.get(game_id)
    symbols: Mapping[str, str] = getattr(game, "symbols", None) or {}
    for key in symbols.values():  # each meaning is written in both languages
        assert t(key, "en") != key and t(key, "es") != key, key
    known = explained(symbols)
    bad: dict[str, set[str]] = {}
    seen = 0
    for d in playouts(game_id):
        seen += 1
        for lang in ("en", "es"):
            for key, text in texts(d, lang):
                unknown = pictographs(text) - known
                if unknown:
                    bad.setdefault(key, set()).update(unknown)
    assert seen > 0
    assert not bad, f"{game_id}: symbols without a legend entry: {bad}"
