"""Helpers every renderer shares (render/kit.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import kit, mlem, pilcore
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


# --------------------------------------------------------------------------- six seats

# Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, on linear RGB.
_CVD = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protan": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deutan": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritan": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _lab(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """CIELAB of ``rgb`` as seen with ``vision`` (sRGB, D65)."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    lrgb = [lin(c) for c in rgb]
    m = _CVD[vision]
    r, g, b = (max(0.0, min(1.0, sum(m[i][j] * lrgb[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _six_seat_picture() -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """A toy table: the six seat tokens in a row, each in its own cell."""
    from PIL import ImageDraw

    cell = 80
    img = Image.new("RGB", (cell * 6, cell), kit.BG)
    d = ImageDraw.Draw(img)
    boxes = []
    for seat in range(6):
        kit.seat_token(d, (seat * cell + cell / 2, cell / 2), 26, seat)
        boxes.append((seat * cell, 0, (seat + 1) * cell, cell))
    return img, boxes


def test_six_seats_have_six_distinct_colours_and_shapes() -> None:
    img, boxes = _six_seat_picture()
    masks = []
    for seat, box in enumerate(boxes):
        tile = img.crop(box)
        counts = tile.getcolors(tile.width * tile.height) or []
        ink = [(n, c) for n, c in counts if c not in (kit.BG, kit.DARK, (0, 0, 0))]
        n, main = max(ink)
        assert main == kit.PALETTE[seat].rgb, (seat, main)  # the token is drawn in its colour
        assert n > 600  # ... big enough to see
        masks.append(
            {
                (x, y)
                for x in range(tile.width)
                for y in range(tile.height)
                if tile.getpixel((x, y)) == main
            }
        )
    assert len({kit.PALETTE[s].rgb for s in range(6)}) == 6
    # six distinct shapes: any two tokens' silhouettes differ by a good share of their area
    for a in range(6):
        for b in range(a + 1, 6):
            overlap = len(masks[a] & masks[b]) / len(masks[a] | masks[b])
            assert overlap < 0.85, (kit.PALETTE[a].shape, kit.PALETTE[b].shape, overlap)


def test_seat_colours_stay_apart_for_colour_blind_players() -> None:
    import math

    rgbs = [pc.rgb for pc in kit.PALETTE]
    for vision in _CVD:
        labs = [_lab(c, vision) for c in rgbs]
        bg = _lab(kit.BG, vision)
        for i in range(6):
            assert math.dist(labs[i], bg) > 45, (vision, kit.PALETTE[i].name)
            for j in range(i + 1, 6):
                gap = math.dist(labs[i], labs[j])
                # the five Okabe–Ito colours keep at least ΔE 11; the sixth keeps ΔE 35
                assert gap > (35 if j == 5 else 11), (vision, i, j, gap)


def test_seat_six_has_its_own_colour_name() -> None:
    from core import i18n

    assert kit.seat_color(5) == kit.PALETTE[5].rgb != kit.FAINT
    for lang in i18n.LANGS:
        names = {i18n.t(kit.color_key(s), lang) for s in range(6)}
        assert len(names) == 6 and not any(n.startswith("render.") for n in names)


def test_pictures_compare_by_their_pixels_not_their_bytes() -> None:
    from tests.render.kit import assert_same_pictures, same_pixels

    def png(img: Image.Image, level: int) -> bytes:
        out = io.BytesIO()
        img.save(out, format="PNG", compress_level=level)
        return out.getvalue()

    img = Image.new("RGB", (40, 30), (10, 20, 30))
    fast, small = png(img, 1), png(img, 9)
    assert fast != small and same_pixels(fast, small) and same_pixels(None, None)
    assert not same_pixels(fast, None) and not same_pixels(None, small)
    img.putpixel((3, 4), (11, 20, 30))
    assert not same_pixels(fast, png(img, 1))
    assert not same_pixels(fast, png(Image.new("RGB", (30, 40), (10, 20, 30)), 1))
    assert_same_pictures([fast, None], [small, None])
    with pytest.raises(AssertionError, match=r"\[1\]"):
        assert_same_pictures([fast, fast], [small, png(img, 1)])


# --------------------------------------------------------------------------- shapes


@pytest.mark.parametrize("mode", ["RGB", "P", "L"])
def test_the_kits_rounded_rectangle_is_pillows(mode: str) -> None:
    """``pilcore.rounded_rectangle`` (Pillow's drawing calls without its Python steps, issue
    23) paints every pixel Pillow's own ``rounded_rectangle`` paints, on random boxes:
    fractional corners, radii from none to round, widths 0 to 6, fill and outline each
    present or not (and the same colour), on a noisy background; what it leaves to Pillow
    (upside down, round enough to be an ellipse, square) it says so."""
    import random

    from PIL import ImageDraw

    rng = random.Random(23)
    noise = Image.effect_noise((90, 70), 60).convert(mode if mode != "P" else "L")
    if mode == "P":
        noise = noise.convert("RGB").quantize(64)
    colours: list = [None, (250, 200, 30), (10, 20, 30), "#8040c0"]
    if mode == "L":
        colours = [None, 250, 10, 128]
    left_to_pillow = drawn = 0
    for _ in range(3000):
        x0, y0 = rng.uniform(-5, 80), rng.uniform(-5, 60)
        x1, y1 = x0 + rng.choice([0, 0.4, 1, 2, 3, rng.uniform(0, 40)]), y0 + rng.uniform(0, 30)
        if rng.random() < 0.03:
            x1, x0 = x0, x1  # upside down
        radius = rng.choice([0, 0.3, 2, 5, 10.5, 40, rng.uniform(0, 25)])
        fill, outline = rng.choice(colours), rng.choice(colours)
        if rng.random() < 0.1:
            outline = fill
        width = rng.choice([0, 1, 2, 3, 5, 6])
        xy = (x0, y0, x1, y1) if rng.random() < 0.7 else [(x0, y0), (x1, y1)]
        ours, pillows = noise.copy(), noise.copy()
        try:
            done = pilcore.rounded_rectangle(
                ImageDraw.Draw(ours), xy, radius, fill, outline, width
            )
        except ValueError as err:  # (a box too thin for its outline: Pillow's error too)
            with pytest.raises(ValueError, match=str(err)):
                ImageDraw.Draw(pillows).rounded_rectangle(xy, radius, fill, outline, width)
            assert ours.tobytes() == pillows.tobytes(), (xy, radius, fill, outline, width)
            continue
        if done:
            drawn += 1
            ImageDraw.Draw(pillows).rounded_rectangle(xy, radius, fill, outline, width)
            assert ours.tobytes() == pillows.tobytes(), (xy, radius, fill, outline, width)
        else:
            left_to_pillow += 1
            assert ours.tobytes() == noise.tobytes()
    assert drawn > 1500 and left_to_pillow > 50


@pytest.mark.parametrize("mode", ["RGB", "P", "L"])
def test_the_kits_wide_polygon_is_pillows(mode: str) -> None:
    """``pilcore.polygon`` (Pillow's calls for an outline wider than a pixel, its blank mask
    kept per picture size instead of made afresh, issue 23) paints every pixel Pillow's own
    ``polygon`` paints, one polygon after another on pictures of two sizes (the kept masks
    blank again after each): random points, fractional, some off the picture, as pairs or
    in turn; widths 2 to 7, fill and outline each present or not (and the same colour); what
    it leaves to Pillow (a thin outline, no outline, a mask in use) it says so."""
    import random

    from PIL import ImageDraw

    rng = random.Random(29)
    noises = []
    for size in ((90, 70), (41, 57)):
        noise = Image.effect_noise(size, 60).convert(mode if mode != "P" else "L")
        if mode == "P":
            noise = noise.convert("RGB").quantize(64)
        noises.append(noise)
    colours: list = [None, (250, 200, 30), (10, 20, 30), "#8040c0"]
    if mode == "L":
        colours = [None, 250, 10, 128]
    left_to_pillow = drawn = 0
    ours = [n.copy() for n in noises]
    pillows = [n.copy() for n in noises]
    for _ in range(1500):
        k = rng.randrange(2)
        w, h = noises[k].size
        pts = [(rng.uniform(-8, w + 8), rng.uniform(-8, h + 8)) for _ in range(rng.randint(3, 8))]
        xy: list = pts if rng.random() < 0.6 else [v for p in pts for v in p]
        fill, outline = rng.choice(colours), rng.choice(colours)
        if rng.random() < 0.1:
            outline = fill
        width = rng.choice([0, 1, 2, 3, 5, 7])
        if pilcore.polygon(ImageDraw.Draw(ours[k]), xy, fill, outline, width):
            drawn += 1
        else:
            left_to_pillow += 1
            ImageDraw.Draw(ours[k]).polygon(xy, fill, outline, width)
        ImageDraw.Draw(pillows[k]).polygon(xy, fill, outline, width)
        assert ours[k].tobytes() == pillows[k].tobytes(), (xy, fill, outline, width)
    assert drawn > 500 and left_to_pillow > 300
    assert all(not any(m[0].getdata()) and not m[2] for m in pilcore._MASKS.values())
    taken = pilcore._take_mask(noises[0].size)  # (in use by another thread)
    assert taken is not None
    try:
        before = ours[0].tobytes()
        assert not pilcore.polygon(
            ImageDraw.Draw(ours[0]), [(1, 1), (30, 5), (9, 40)], None, "red", 3
        )
        assert ours[0].tobytes() == before
    finally:
        taken[2] = False
