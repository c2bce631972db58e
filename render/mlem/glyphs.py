"""MLEM pictures: the marks (rocket, UFO, astronaut, satellite, star, abilities, recon tiles,
dice faces, moon, planet, objective and mission icons)."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import kit
from render.kit import BG, FAINT, GOLD, INK, MUTED, RGB, font, text
from render.mlem.geometry import (
    BOARD_MIN,
    MOON_RGB,
    PANEL_MIN,
    PLANET_RGB,
    RECON_RGB,
    TRACK,
    UFO_RGB,
    _least,
    cell_box,
)

# ----------------------------------------------------------------------------- glyphs


def rocket(d: ImageDraw.ImageDraw, cx: float, top: float, h: float) -> None:
    """A small rocket, nose up, ``h`` pixels tall."""
    w = h * 0.46
    body = [
        (cx, top),
        (cx + w * 0.5, top + h * 0.32),
        (cx + w * 0.5, top + h * 0.78),
        (cx - w * 0.5, top + h * 0.78),
        (cx - w * 0.5, top + h * 0.32),
    ]
    fin_r = [
        (cx + w * 0.5, top + h * 0.5),
        (cx + w * 0.95, top + h * 0.86),
        (cx + w * 0.5, top + h * 0.8),
    ]
    fin_l = [(2 * cx - x, y) for x, y in fin_r]
    kit.flame(
        d,
        (cx - w * 0.32, top + h * 0.72, cx + w * 0.32, top + h * 1.08),
        fill=(255, 140, 40),
        core=(255, 230, 120),
    )
    d.polygon(fin_r, fill=(230, 60, 70), outline=(0, 0, 0))
    d.polygon(fin_l, fill=(230, 60, 70), outline=(0, 0, 0))
    d.polygon(body, fill=(246, 246, 250), outline=(0, 0, 0), width=2)
    nose = [(cx, top), (cx + w * 0.34, top + h * 0.22), (cx - w * 0.34, top + h * 0.22)]
    d.polygon(nose, fill=(230, 60, 70))
    wr = w * 0.2
    wy = top + h * 0.45
    d.ellipse((cx - wr, wy - wr, cx + wr, wy + wr), fill=(80, 170, 240), outline=(0, 0, 0))


def _rocket_sprite(length: int, direction: str) -> Image.Image:
    """A rocket on a transparent sprite, nose pointing ``direction`` (right, left, up)."""
    h = length
    spr = Image.new("RGBA", (round(h * 0.6) + 4, round(h * 1.12) + 4), (0, 0, 0, 0))
    rocket(ImageDraw.Draw(spr), spr.width / 2, 2, h)
    if direction == "right":
        spr = spr.rotate(-90, expand=True)
    elif direction == "left":
        spr = spr.rotate(90, expand=True)
    return spr


ROCKET_SPRITES = {k: _rocket_sprite(60, k) for k in ("right", "left", "up")}


@lru_cache(maxsize=16)
def _rocket_at(length: int, direction: str) -> Image.Image:
    return _rocket_sprite(length, direction)


def paste_center(img: Image.Image, spr: Image.Image, cx: float, cy: float) -> None:
    img.paste(spr, (round(cx - spr.width / 2), round(cy - spr.height / 2)), spr)


def ufo(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float) -> None:
    h = w * 0.36
    d.ellipse(
        (cx - w * 0.26, cy - h * 1.05, cx + w * 0.26, cy + h * 0.2),
        fill=(150, 240, 255),
        outline=(0, 0, 0),
        width=2,
    )
    d.ellipse(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), fill=UFO_RGB, outline=(0, 0, 0), width=2
    )
    for k in (-0.28, 0, 0.28):
        lx = cx + k * w
        d.ellipse((lx - 2.5, cy - 2.5, lx + 2.5, cy + 2.5), fill=(255, 250, 170))


def cat(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """An astro-cat head (the astronaut icon)."""
    ear = [
        (cx - r * 0.95, cy - r * 0.15),
        (cx - r * 0.8, cy - r * 1.15),
        (cx - r * 0.2, cy - r * 0.7),
    ]
    d.polygon(ear, fill=fill)
    d.polygon([(2 * cx - x, y) for x, y in ear], fill=fill)
    d.ellipse((cx - r, cy - r * 0.8, cx + r, cy + r * 0.9), fill=fill)
    e = r * 0.16
    for ex in (-0.38, 0.38):
        d.ellipse((cx + ex * r - e, cy - e, cx + ex * r + e, cy + e), fill=BG)


def satellite(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    pw, ph = s * 0.34, s * 0.22
    blue = (80, 150, 240)
    d.line((cx - s * 0.5, cy, cx + s * 0.5, cy), fill=(200, 200, 210), width=2)
    d.rectangle((cx - s * 0.5, cy - ph, cx - s * 0.5 + pw, cy + ph), fill=blue, outline=(0, 0, 0))
    d.rectangle((cx + s * 0.5 - pw, cy - ph, cx + s * 0.5, cy + ph), fill=blue, outline=(0, 0, 0))
    br = s * 0.16
    d.ellipse((cx - br, cy - br, cx + br, cy + br), fill=(230, 230, 235), outline=(0, 0, 0))


def star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = GOLD) -> None:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=(0, 0, 0))


def ability_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float, ability: str) -> None:
    """A small icon for an astronaut ability in the square (x, y, s)."""
    cx, cy = x + s / 2, y + s / 2
    f = font(max(PANEL_MIN, round(s * 0.42)))
    if ability == "satellite":
        satellite(d, cx, cy, s * 0.95)
    elif ability == "shifter":
        d.rounded_rectangle((x, y, x + s, y + s), radius=s * 0.2, fill=(86, 180, 233))
        text(d, (cx, cy), "±1", f, fill=kit.DARK, anchor="mm")
    elif ability == "parachute":
        d.pieslice(
            (x + s * 0.05, y + s * 0.05, x + s * 0.95, y + s * 0.85),
            180,
            360,
            fill=(240, 110, 90),
            outline=(0, 0, 0),
        )
        for px in (0.12, 0.5, 0.88):
            d.line((x + s * px, y + s * 0.45, cx, y + s * 0.88), fill=INK, width=1)
        d.ellipse((cx - s * 0.1, y + s * 0.78, cx + s * 0.1, y + s * 0.98), fill=INK)
    elif ability == "moon_doubler":
        d.ellipse((x + s * 0.05, y + s * 0.05, x + s * 0.95, y + s * 0.95), fill=MOON_RGB)
        text(d, (cx, cy), "×2", f, fill=kit.DARK, anchor="mm")
    elif ability == "planet_doubler":
        d.ellipse((x + s * 0.12, y + s * 0.12, x + s * 0.88, y + s * 0.88), fill=PLANET_RGB["P4"])
        d.arc((x - s * 0.05, y + s * 0.3, x + s * 1.05, y + s * 0.7), 0, 180, fill=INK, width=2)
        text(d, (cx, cy), "×2", f, fill=kit.DARK, anchor="mm")
    elif ability == "deep_doubler":
        star(d, cx, cy, s * 0.52, fill=(200, 170, 255))
        text(
            d,
            (cx, cy + s * 0.04),
            "×2",
            font(max(PANEL_MIN, round(s * 0.34))),
            fill=kit.DARK,
            anchor="mm",
        )
    elif ability == "saboteur":
        kit.die(d, (x + s * 0.08, y + s * 0.08), s * 0.84, 6, crossed=True)
    elif ability == "booster":
        kit.die(d, (x + s * 0.08, y + s * 0.08), s * 0.84, 1)
        board_text(
            d, (x + s * 0.95, y + s * 0.2), "+", font(max(PANEL_MIN, round(s * 0.5))), fill=GOLD
        )
    else:
        d.ellipse((x, y, x + s, y + s), outline=MUTED, width=2)


def board_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    f: kit.Font,
    anchor: str = "mm",
    outline: int = 2,
    fill: RGB = INK,
) -> None:
    """Text outlined in black, legible on any colour of the board."""
    text(d, xy, s, f, fill=fill, anchor=anchor, outline=outline, outline_fill=(0, 0, 0))


def recon_tile(
    d: ImageDraw.ImageDraw, x: float, y: float, s: float, tile: dict | None, plain: bool = False
) -> None:
    """A reconnaissance tile (or its empty slot) in the square (x, y, s); ``plain`` leaves
    out its text (a legend swatch, whose label says it)."""
    if not tile:
        d.rounded_rectangle((x, y, x + s, y + s), radius=6, outline=FAINT, width=2)
        return
    kind = str(tile.get("kind") or "")
    col = RECON_RGB.get(kind, MUTED)
    d.rounded_rectangle((x, y, x + s, y + s), radius=6, fill=col, outline=(0, 0, 0), width=2)
    cx, cy = x + s / 2, y + s / 2
    big = font(max(_least(d), round(s * 0.5)))
    if plain:
        if kind == "recover":
            kit.die(d, (x + s * 0.18, y + s * 0.18), s * 0.6, 1)
        elif kind == "wormhole":
            for k in range(3):
                rr = s * (0.38 - 0.11 * k)
                d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=kit.DARK, width=2)
        return
    if kind == "points":
        text(d, (cx, cy + 1), f"+{tile.get('value', '?')}", big, fill=kit.DARK, anchor="mm")
    elif kind == "recover":
        kit.die(d, (x + s * 0.18, y + s * 0.18), s * 0.5, 1)
        text(d, (x + s * 0.78, y + s * 0.74), "+", big, fill=kit.DARK, anchor="mm")
    elif kind == "wormhole":
        for k in range(3):
            rr = s * (0.38 - 0.11 * k)
            d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=kit.DARK, width=2)
        text(d, (cx, cy), "4", font(max(_least(d), round(s * 0.36))), fill=kit.DARK, anchor="mm")
    else:
        text(d, (cx, cy), "?", big, fill=kit.DARK, anchor="mm")


def _faces_row(d: ImageDraw.ImageDraw, i: int) -> None:
    info = TRACK[i]
    faces = info["faces"]
    x0, _, x1, y1 = cell_box(i)
    s = 27 if len(faces) >= 3 else 30
    gap = 3 if len(faces) >= 3 else 5
    total = len(faces) * s + (len(faces) - 1) * gap
    x = (x0 + x1) / 2 - total / 2
    for face in faces:
        kit.die(d, (x, y1 - s - 8), s, face)
        if face == "A":  # the afterburner's number, as big as any text on the picture
            text(
                d,
                (x + s / 2, y1 - 8 - s * 0.4),
                str(info.get("ab", "?")),
                font(BOARD_MIN),
                fill=(120, 20, 0),
                anchor="mm",
                outline=2,
                outline_fill=(255, 214, 150),
            )
        x += s + gap


def _moon_icon(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: float) -> None:
    x, y = xy
    d.ellipse((x, y, x + s, y + s), fill=MOON_RGB, outline=(0, 0, 0))


def _planet_icon(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: float) -> None:
    x, y = xy
    d.ellipse((x, y, x + s, y + s), fill=PLANET_RGB["P2"], outline=(0, 0, 0))


def _objective_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float, obj: str) -> None:
    if obj == "four_planets":
        cols = list(PLANET_RGB.values())
        for k in range(4):
            px, py = x + (k % 2) * s * 0.5, y + (k // 2) * s * 0.5
            d.ellipse((px + 1, py + 1, px + s * 0.5 - 1, py + s * 0.5 - 1), fill=cols[k])
    elif obj == "three_on_planet":
        d.ellipse((x, y, x + s, y + s), fill=PLANET_RGB["P3"], outline=(0, 0, 0))
        for k in range(3):
            cx = x + s * (0.25 + 0.25 * k)
            d.ellipse((cx - 3, y + s / 2 - 3, cx + 3, y + s / 2 + 3), fill=INK)
    elif obj == "four_moons":
        for k in range(4):
            px, py = x + (k % 2) * s * 0.5, y + (k // 2) * s * 0.5
            d.ellipse((px + 1, py + 1, px + s * 0.5 - 1, py + s * 0.5 - 1), fill=MOON_RGB)
    else:
        star(d, x + s * 0.3, y + s * 0.35, s * 0.3, fill=(200, 170, 255))
        star(d, x + s * 0.7, y + s * 0.68, s * 0.3, fill=(200, 170, 255))


def _mission_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.rounded_rectangle((x, y, x + s, y + s), radius=3, fill=(235, 225, 200), outline=(0, 0, 0))
    d.line((x + 3, y + s * 0.4, x + s - 3, y + s * 0.4), fill=(90, 80, 60), width=2)
    d.line((x + 3, y + s * 0.7, x + s - 5, y + s * 0.7), fill=(90, 80, 60), width=2)
