"""Pictographs in text: what tests/test_decision_symbols.py (prompts and option labels) and
tests/render/test_readable.py (drawn pictures) both look for."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

IGNORED = {"\ufe0f", "\u200d"}  # variation selector, zero-width joiner


def pictographs(text: str) -> set[str]:
    """The non-letter pictographs in ``text``: Unicode "other symbols" (emoji, ★, ✓, ⬆…)
    and arrows (→ ⇒ ↗ …: they stand for something in a game)."""
    return {
        c
        for c in text
        if c not in IGNORED
        and (
            unicodedata.category(c) == "So"
            or 0x2190 <= ord(c) <= 0x21FF
            or 0x1F000 <= ord(c) <= 0x1FAFF
        )
    }


def explained(symbols: Mapping[str, str]) -> set[str]:
    """Every pictograph a game's ``symbols`` legend explains."""
    return {c for sym in symbols for c in sym if c not in IGNORED}
