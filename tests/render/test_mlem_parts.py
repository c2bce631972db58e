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


def test_a_canvas_of_kept_parts_is_the_picture_drawn_whole() -> None:
    """Parts kept and reused, each drawn inside its box: each picture's pixels are the
    whole picture drawn and mapped at once, and its PNG (bands found by their parts, rows
    made only for the others) is the one written from the whole picture."""
    from PIL import ImageDraw

    from render import pngbands

    base = kit.star_field((300, 160), seed=3)
    palette = kit.palette_for(base, [p.rgb for p in kit.PALETTE])
    base_mapped = layers.mapped(base, palette)
    parts: layers.LayerCache[[], object] = layers.LayerCache(lambda: None, 6)
    bands, plain = pngbands.BandCache(), pngbands.BandCache()
    rng = random.Random(9)
    boxes = [(0, 0, 300, 40), (0, 40, 150, 160), (150, 40, 300, 100), (150, 100, 300, 160)]
    for _ in range(60):
        c = layers.PaletteCanvas(base, base_mapped, palette)
        whole = base.copy()
        for k, box in enumerate(boxes):
            seat = rng.randrange(2)  # (a few states of each part: parts reused)
            x, y = box[0] + 2 + 9 * rng.randrange(2), box[1] + 2 + 7 * rng.randrange(2)
            if rng.random() < 0.3:
                continue  # nothing drawn there this time

            def draw(
                img: object, seat: int = seat, x: int = x, y: int = y, box: tuple = box
            ) -> tuple:
                d = ImageDraw.Draw(img)  # type: ignore[arg-type]
                edge = (box[0], box[1], box[2] - 1, box[3] - 1)  # (Pillow's is inclusive)
                d.rectangle(edge, outline=kit.PALETTE[seat].rgb)
                kit.text(d, (x, y), str(seat), kit.font(14), fill=kit.PALETTE[seat].rgb)
                return box, None

            c.tile(parts, (k, seat, x, y), draw)
            draw(whole)
        whole = whole.crop((0, 0, 300, 160))
        at_once = layers.mapped(whole, palette)
        assert (
            ImageChops.difference(c.out.convert("RGB"), at_once.convert("RGB")).getbbox() is None
        )
        png = pngbands.encode(c.base_mapped, 3, bands, 8, parts=c.parts, rows=c.rows)
        assert png == pngbands.encode(at_once, 3, plain, 8)
    assert parts.hits and bands.hits
