"""MLEM's table drawn by parts (issue 23): the header, the board's tokens, each panel and the
legend are drawn and mapped onto the palette alone and kept by what they show
(render/layers.py's ``PaletteCanvas``); the picture must be, pixel for pixel and byte for
byte, the whole table drawn at once and mapped (``_draw_table``, what the tests watching
the encodes still see), whatever the caches hold."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from render import kit, layers
from render.mlem import table
from rules.mlem import GAME
from tests.render.kit import NAMES, random_states

#: (players, options, seed): every variant, alone and together, and two to five players.
PLAYS = [
    (2, {}, 1),
    (3, {"ufo": "on"}, 2),
    (4, {"recon": "on"}, 3),
    (5, {"missions": "on"}, 4),
    (3, {"ufo": "on", "recon": "on", "missions": "on"}, 5),
]


def whole(view: dict, names: list[str], lang: str) -> bytes:
    """The table drawn whole and mapped at once, as PNG bytes."""
    return kit.png_of_mapped(
        layers.mapped(table._draw_table(kit.public(view), names, lang), table._PALETTE)
    )


@pytest.mark.parametrize(("players", "options", "seed"), PLAYS)
def test_the_table_by_parts_is_the_whole_table(players: int, options: dict, seed: int) -> None:
    layers.clear_all()
    states = random_states(GAME, players, seed, options)
    rng = random.Random(seed)
    # along the game, as a worker sees it (parts kept from earlier tables), and the end
    picked = [s for s in states if rng.random() < 30 / len(states)] + [states[-1]]
    names = NAMES[:players]
    for k, state in enumerate(picked):
        view = GAME.view(state, None)
        lang = ("es", "en")[k % 2]
        by_parts = table._mapped_table(kit.public(view), names, lang).out
        at_once = layers.mapped(table._draw_table(kit.public(view), names, lang), table._PALETTE)
        diff = ImageChops.difference(by_parts.convert("RGB"), at_once.convert("RGB"))
        assert diff.getbbox() is None, (k, diff.getbbox())
        assert table.render_table(view, names, lang) == whole(view, names, lang)
    hits = sum(cache.hits for cache in (table._HEADERS, table._PANELS, table._UNDERS))
    assert hits  # the parts kept were used


def test_a_test_watching_the_encodes_sees_the_whole_table() -> None:
    view = GAME.view(GAME.new(3, {}, 1), None)
    seen = []
    fixed = kit.to_png_palette

    def watching(img, palette, *args, **kw):  # type: ignore[no-untyped-def]
        seen.append(img.mode)
        return fixed(img, palette, *args, **kw)

    kit.to_png_palette = watching  # type: ignore[assignment]
    try:
        png = table.render_table(view, NAMES[:3], "en")
    finally:
        kit.to_png_palette = fixed  # type: ignore[assignment]
    assert seen == ["RGB"]
    assert png == table.render_table(view, NAMES[:3], "en")
