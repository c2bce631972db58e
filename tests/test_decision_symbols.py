"""Every symbol a decision shows is explained: over random play-outs of each registered
game, every prompt and option label (English and Spanish) uses no pictograph (emoji, ★, ✓,
arrows drawn as symbols…) that the game's ``symbols`` legend does not list."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

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


def texts(decision: Decision) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key, arguments) of the decision's prompt and of each option's label."""
    yield decision.prompt, dict(decision.args)
    for o in decision.options:
        yield o.label, dict(o.args)


def unknown_symbols(
    key: str, args: dict[str, Any], lang: str, known: set[str], memo: dict[Hashable, set[str]]
) -> set[str]:
    """The pictographs of the text ``key`` shows with ``args`` in ``lang`` that ``known``
    lacks; ``memo`` keeps them by (lang, key, arguments) when every argument is a string or
    an int (exactly: ``True`` and ``1`` are equal keys but format apart): the same prompts
    and labels come back thousands of times along the play-outs."""
    if not all(type(v) is str or type(v) is int for v in args.values()):
        return pictographs(t(key, lang, NAMES, **args)) - known
    mk = (lang, key, *args.items())
    found = memo.get(mk)
    if found is None:
        found = memo[mk] = pictographs(t(key, lang, NAMES, **args)) - known
    return found


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
    memo: dict[Hashable, set[str]] = {}
    for d in playouts(game_id):
        seen += 1
        for lang in ("en", "es"):
            for key, args in texts(d):
                unknown = unknown_symbols(key, args, lang, known, memo)
                if unknown:
                    bad.setdefault(key, set()).update(unknown)
    assert seen > 0
    assert not bad, f"{game_id}: symbols without a legend entry: {bad}"
