"""Helpers every renderer shares (render/kit.py)."""

from __future__ import annotations

import io

from PIL import Image

from render import kit, mlem
from tests.render import fixtures_mlem as F


def test_player_names_lose_what_the_fonts_cannot_draw() -> None:
    assert kit.player_name(["Ana 🚀✨", "🛸"], 0, "en") == "Ana"
    assert kit.player_name(["Ana 🚀✨", "🛸"], 1, "es") != "🛸"  # falls back to "Player 2"
    assert kit.player_name([], 3, "en").endswith("4")
    assert kit.is_seat(0, 2) and not kit.is_seat(True, 2) and not kit.is_seat(2, 2)
    assert kit.lang_or_default("fr") == "en" and kit.lang_or_default("es") == "es"


def test_both_games_draw_emoji_names() -> None:
    view, names = F.five_all_variants()
    fancy = [f"{n} 🚀" for n in names]
    assert mlem.render_table(view, fancy, "en") == mlem.render_table(view, names, "en")
    png = mlem.render_table(view, fancy, "es")
    assert Image.open(io.BytesIO(png)).format == "PNG"
