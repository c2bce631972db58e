"""Galaxy Trucker pictures: colours, sizes, the fixed PNG palette and small text helpers."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import BG, BG2, FAINT, GOLD, GREEN, INK, MUTED, PANEL_EDGE, RED, RGB

G = "galaxy_trucker"

# --------------------------------------------------------------------------- colours

KIND_FILL: dict[str, RGB] = {
    "cabin": (92, 120, 168),
    "starting_cabin": (92, 120, 168),
    "engine": (86, 92, 110),
    "engine2": (86, 92, 110),
    "cannon": (120, 84, 132),
    "cannon2": (120, 84, 132),
    "battery": (52, 128, 84),
    "shield": (46, 122, 140),
    "hold": (74, 104, 150),
    "red_hold": (150, 62, 62),
    "life_brown": (132, 96, 60),
    "life_purple": (122, 70, 160),
    "structural": (98, 102, 116),
}
TILE_EDGE: RGB = (30, 32, 44)
TUBE: RGB = (226, 228, 236)
SLOT: RGB = (34, 40, 74)
SLOT_EDGE: RGB = (62, 72, 120)
FLAME: RGB = (255, 150, 40)
BARREL: RGB = (236, 214, 250)
SHIELD_ARC: RGB = (120, 240, 255)
GOODS: dict[str, RGB] = {
    "red": (232, 64, 56),
    "yellow": (246, 214, 60),
    "green": (80, 200, 90),
    "blue": (70, 130, 240),
}
ALIEN: dict[str, RGB] = {"brown": (196, 140, 80), "purple": (190, 110, 255)}
HUMAN: RGB = (240, 236, 226)

W = 1200  # table width
PW = 760  # private picture width (portrait, for phones)
#: The smallest text on the table (6 px once Discord shows it 400 px wide).
MIN_FONT = 18
#: Room for two lines of what a ship carries under it (two-player tables).
STATS_BELOW = 2 * (MIN_FONT + 8) + 6


def _palette() -> Image.Image:
    """The fixed PNG palette: every colour drawn, kept exactly, plus the blends that
    anti-aliasing makes between them (a strip of gradients), so that a picture is mapped
    onto it quickly instead of being quantized afresh."""
    seats = [pc.rgb for pc in kit.PALETTE[:4]]
    fg = [
        INK, MUTED, FAINT, GOLD, GREEN, RED, TUBE, FLAME, BARREL, SHIELD_ARC, HUMAN,
        TILE_EDGE, SLOT_EDGE, PANEL_EDGE, kit.DARK, (200, 204, 214), (170, 174, 190),
        (60, 64, 80), (230, 190, 90), (60, 70, 120), (20, 20, 30),
        *GOODS.values(), *ALIEN.values(), *seats,
    ]  # fmt: skip
    bg = [
        BG, BG2, kit.PANEL, SLOT, *KIND_FILL.values(), *seats,
        *(kit.blend(c, BG2, 0.9) for c in seats),
        *(kit.blend(c, (40, 40, 60), 0.25) for c in seats),
    ]  # fmt: skip
    steps = 8
    base = Image.new("RGB", (steps, len(fg) * len(bg)))
    px = base.load()
    assert px is not None
    for j, (a, b) in enumerate((a, b) for a in fg for b in bg):
        for i in range(steps):
            px[i, j] = kit.blend(b, a, i / (steps - 1))
    return kit.palette_for(base, [*fg, *bg])


_PALETTE = _palette()


def _png(img: Image.Image) -> bytes:
    return kit.to_png_palette(img, _PALETTE)


_lang = kit.lang_or_default
_t = kit.texts(G)


def _cellkey(r: int, c: int) -> str:
    return f"{r}.{c}"


def _cells(raw: Any) -> set[tuple[int, int]]:
    out = set()
    if isinstance(raw, list):
        for c in raw:
            if isinstance(c, (list, tuple)) and len(c) == 2 and all(kit.is_int(x) for x in c):
                out.add((int(c[0]), int(c[1])))
    return out


@lru_cache(maxsize=4096)
def _sprite(s: str, size: int, style: str, fill: RGB) -> tuple[Image.Image, Image.Image, int, int]:
    """A short label drawn once: its colour, its mask, and its offset from the centre."""
    f = kit.font(size, style)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(s, anchor="mm"))
    mask = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2), 0)
    ImageDraw.Draw(mask).text((1 - x0, 1 - y0), s, font=f, fill=255, anchor="mm")
    return Image.new("RGB", mask.size, fill), mask, x0 - 1, y0 - 1


def _label(
    img: Image.Image, xy: tuple[float, float], s: str, size: int, fill: RGB, style: str = "bold"
) -> None:
    """A short, often repeated label (a number, a cell) centred on ``xy``, from a cache:
    much faster than drawing the text every time."""
    solid, mask, ox, oy = _sprite(s, size, style, fill)
    img.paste(solid, (round(xy[0]) + ox, round(xy[1]) + oy), mask)
