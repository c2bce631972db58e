"""Board pictures for MLEM: Space Agency.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (never reads ``view["private"]``).
* :func:`render_private` — PNG bytes of one seat's secrets (missions, hidden points), or
  ``None`` when the view holds nothing private.

The static part of the table (sky, star track with its dice faces, moons, planets, deep
space, objective cards, legend) is drawn once per language and copied for every render;
only the pieces that change are drawn on the copy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeGuard

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import BG, FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from rules.mlem import board

TRACK = board.TRACK
LAST = board.LAST  # 25
DEEP = board.DEEP  # 26
NO_LANDING = board.NO_LANDING
SATELLITE = board.SATELLITE
MOONS = board.MOONS
PLANETS = board.PLANETS
PLANET_NAMES = board.PLANET_NAMES
COMET = board.COMET_POINTS
GALAXY = board.GALAXY_POINTS
DISASTER_MAX = board.DISASTERS
OBJECTIVES: tuple[str, ...] = tuple(board.OBJECTIVES)
OBJ_POINTS = board.OBJECTIVES
MISSION_POINTS = board.MISSION_POINTS
MOON_SPACE: dict[str, int] = {m: board.BODY_SPACE[m] for m in board.MOON_ORDER}
PLANET_SPACES = board.PLANET_SPACES

# ----------------------------------------------------------------------------- geometry

W, H = 1400, 884
HEADER_H = 64
TX0 = 26  # track left
COL_W = 105
CELL_W = 97
CELL = 100  # height of a space
DEEP_W = 142
BAND_H = 140
ROW_Y = (92, 360, 628)
COLS = 9
PX0, PX1 = 1030, 1388  # right panel

# The picture is seen ~400 px wide on a phone (and in a Discord embed on a desktop), in a box
# of about 4:3: the board is drawn as laid out above, then shrunk to BOARD_K, and the panels
# beside it and below it are drawn PANEL_K times bigger (sharp, through kit.ScaledDraw).
OUT_W, OUT_H = W, 1050
HEAD_K = 1.25  # the header, drawn bigger too
OUT_HEADER_H = round(HEADER_H * HEAD_K)
BOARD_X1 = 1014  # the board's right edge in its own layout
PANEL_K = 1.5
PANEL_X0 = OUT_W - 12 - round((PX1 - PX0) * PANEL_K)  # the side column in the picture
BOARD_K = (PANEL_X0 - 14) / BOARD_X1
BOARD_H = round((H - HEADER_H) * BOARD_K)
assert OUT_HEADER_H + BOARD_H + 230 <= OUT_H  # room below the board for the variants panel
# No text smaller than 6 px once the picture is shown 400 px wide: the smallest font on the
# picture, and the smallest in the units of the header, the board and the panels.
SMALLEST = math.ceil(OUT_W * 6 / 400)


def least(k: float) -> int:
    """The smallest font size, in the units of a drawer ``k`` times bigger, that shows
    SMALLEST px on the picture (fonts are scaled by ``k`` and rounded)."""
    return math.ceil(SMALLEST / k - 1e-9)


HEAD_MIN = least(HEAD_K)
BOARD_MIN = least(BOARD_K)
PANEL_MIN = least(PANEL_K)


def _least(d: ImageDraw.ImageDraw) -> int:
    return least(float(getattr(d, "k", 1.0)))


PLANET_RGB: dict[str, RGB] = {
    "P1": (222, 92, 104),
    "P2": (64, 172, 214),
    "P3": (178, 150, 200),
    "P4": (196, 134, 78),
    "P5": (112, 196, 96),
}
MOON_RGB: RGB = (200, 204, 226)
CELL_RGB: RGB = (36, 46, 96)
CELL_EARLY_RGB: RGB = (30, 34, 62)
CELL_EDGE: RGB = (92, 110, 180)
PATH_RGB: RGB = (58, 70, 128)
DEEP_RGB: RGB = (70, 36, 110)
UFO_RGB: RGB = (120, 230, 160)
RECON_RGB = {"points": (255, 204, 64), "recover": (90, 220, 120), "wormhole": (186, 120, 255)}
RED_SOFT: RGB = (230, 110, 110)
GREEN_SOFT: RGB = (120, 220, 140)
PHASE_RGB = {
    "launch": (86, 180, 233),
    "explore": (240, 160, 60),
    "land": (110, 200, 120),
    "over": (230, 90, 110),
}


def _rc(i: int) -> tuple[int, int]:
    """Row and column of track position ``i`` (0..26) on the serpentine."""
    r = min(i // COLS, 2)
    c = i - r * COLS
    if r == 1:
        c = COLS - 1 - c
    return r, c


def cell_box(i: int) -> tuple[int, int, int, int]:
    r, c = _rc(i)
    x0 = TX0 + c * COL_W
    y0 = ROW_Y[r]
    if i == DEEP:
        return (x0, y0, x0 + DEEP_W, y0 + CELL + BAND_H - 10)
    return (x0, y0, x0 + CELL_W, y0 + CELL)


def _center(i: int) -> tuple[float, float]:
    x0, y0, x1, _ = cell_box(i)
    return ((x0 + x1) / 2, y0 + CELL / 2)


def _moon_geometry() -> dict[str, list[tuple[float, float, float]]]:
    out: dict[str, list[tuple[float, float, float]]] = {}
    for mid, values in MOONS.items():
        s = MOON_SPACE.get(mid)
        if s is None:
            continue
        x0, _, x1, y1 = cell_box(s)
        n = len(values)
        d = 32 if n >= 3 else 38
        gap = 3 if n >= 3 else 6
        total = n * d + (n - 1) * gap
        cx0 = (x0 + x1) / 2 - total / 2 + d / 2
        cy = y1 + 22 + d / 2
        out[mid] = [(cx0 + k * (d + gap), cy, d / 2) for k in range(n)]
    return out


MOON_POS = _moon_geometry()


def _planet_geometry() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for pid, spaces in PLANET_SPACES.items():
        boxes = [cell_box(s) for s in spaces]
        x0 = min(b[0] for b in boxes)
        x1 = max(b[2] for b in boxes)
        y0 = max(b[3] for b in boxes) + 8
        r = 40
        out[pid] = {
            "region": (x0, y0, x1, y0 + BAND_H - 12),
            "center": (x0 + 6 + r, y0 + 28 + r),
            "r": r,
            "rows": (x0 + 2 * r + 22, y0 + 30),
        }
    return out


PLANET_GEO = _planet_geometry()


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
        text(
            d,
            (x + s * 0.95, y + s * 0.2),
            "+",
            font(max(PANEL_MIN, round(s * 0.5))),
            fill=GOLD,
            anchor="mm",
            outline=2,
            outline_fill=(0, 0, 0),
        )
    else:
        d.ellipse((x, y, x + s, y + s), outline=MUTED, width=2)


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


# ----------------------------------------------------------------------------- static base


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


def _planet_name(pid: str, lang: str) -> str:
    key = f"mlem.render.planet.{pid}"
    return i18n.t(key, lang) if i18n.has(key, lang) else PLANET_NAMES.get(pid, pid)


def _draw_path(d: ImageDraw.ImageDraw) -> None:
    pts = []
    for i in range(DEEP + 1):
        cx, cy = _center(i)
        pts.append((cx, cy))
        r, c = _rc(i)
        if i < DEEP and _rc(i + 1)[0] != r:  # turn of the snake, outside the track
            x0, _, x1, _ = cell_box(i)
            edge = x1 + 11 if c == COLS - 1 else x0 - 11
            ny = _center(i + 1)[1]
            pts += [(edge, cy), (edge, ny)]
    d.line(pts, fill=PATH_RGB, width=12, joint="curve")


def _build_base(lang: str) -> Image.Image:
    img = kit.star_field((W, H), seed=2075)
    d = ImageDraw.Draw(img)
    t = i18n.t

    # header strip
    kit.rounded_box(d, (8, 6, W - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    text(
        d,
        (24, HEADER_H / 2),
        t("mlem.render.title", lang),
        font(30),
        fill=GOLD,
        anchor="lm",
        shadow=2,
    )

    _draw_path(d)

    # star track
    for i in range(LAST + 1):
        x0, y0, x1, y1 = cell_box(i)
        fill = CELL_EARLY_RGB if i in NO_LANDING else CELL_RGB
        bodies = TRACK[i].get("bodies", [])
        if bodies and bodies[0] in PLANET_RGB:
            fill = kit.blend(fill, PLANET_RGB[bodies[0]], 0.22)
        kit.rounded_box(d, (x0, y0, x1, y1), radius=12, fill=fill, outline=CELL_EDGE, width=2)
        text(d, (x0 + 7, y0 + 2), str(i), font(32), fill=INK, shadow=2)
        if i == SATELLITE:
            satellite(d, x1 - 22, y0 + 20, 30)
        _faces_row(d, i)

    # deep space
    x0, y0, x1, y1 = cell_box(DEEP)
    kit.rounded_box(
        d, (x0, y0, x1, y1), radius=14, fill=DEEP_RGB, outline=(170, 130, 240), width=3
    )
    tf = font(BOARD_MIN, "cond")
    for j, line in enumerate(kit.wrap(t("mlem.render.deep_space", lang), tf, DEEP_W - 12, 2)):
        text(d, ((x0 + x1) / 2, y0 + 18 + 26 * j), line, tf, fill=INK, anchor="mm", shadow=2)
    lf = font(BOARD_MIN, "cond")
    for cy, value, key, col in (
        (y0 + 86, COMET, "mlem.render.comet", GOLD),
        (y0 + 152, GALAXY, "mlem.render.galaxy", (210, 190, 255)),
    ):
        vf = font(BOARD_MIN)  # the points, then the word (no room for the icon too)
        text(d, (x0 + 8, cy), str(value), vf, fill=col, anchor="lm", shadow=2)
        lx = x0 + 14 + vf.getlength(str(value))
        label, _ = kit.fit_font(t(key, lang), x1 - lx - 4, (BOARD_MIN,), "cond")
        text(d, (lx, cy + 1), label, lf, fill=INK, anchor="lm")

    # moons
    for mid, pos in MOON_POS.items():
        s = MOON_SPACE[mid]
        _, _, _, cy1 = cell_box(s)
        cx = _center(s)[0]
        d.line((cx, cy1, cx, pos[0][1]), fill=MOON_RGB, width=3)
        if len(pos) > 1:
            d.line((pos[0][0], pos[0][1], pos[-1][0], pos[-1][1]), fill=MOON_RGB, width=3)
        for (mx, my, r), value in zip(pos, MOONS[mid], strict=False):
            d.ellipse((mx - r, my - r, mx + r, my + r), fill=MOON_RGB, outline=(0, 0, 0), width=2)
            text(d, (mx, my + 1), str(value), font(BOARD_MIN), fill=kit.DARK, anchor="mm")

    # planets
    for pid, geo in PLANET_GEO.items():
        rx0, ry0, rx1, _ = geo["region"]
        cx, cy = geo["center"]
        r = geo["r"]
        col = PLANET_RGB.get(pid, MUTED)
        for s in PLANET_SPACES[pid]:
            sx = _center(s)[0]
            d.line((sx, cell_box(s)[3], cx, cy), fill=col, width=3)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=3)
        d.arc(
            (cx - r + 6, cy - r + 6, cx + r - 6, cy + r - 6),
            200,
            290,
            fill=kit.blend(col, (255, 255, 255), 0.45),
            width=4,
        )
        first, second, rest = PLANETS[pid]
        text(
            d,
            (cx, cy - 8),
            str(first),
            font(34),
            fill=INK,
            anchor="mm",
            outline=3,
            outline_fill=(0, 0, 0),
        )
        text(
            d,
            (cx, cy + 22),
            f"{second}·{rest}",
            font(BOARD_MIN, "cond"),
            fill=INK,
            anchor="mm",
            outline=2,
            outline_fill=(0, 0, 0),
        )
        nx = max(TX0 - 12, rx0 - 30)
        name, nf = kit.fit_font(_planet_name(pid, lang), rx1 - nx - 4, (BOARD_MIN,))
        text(d, (nx, ry0 - 4), name, nf, fill=kit.blend(col, INK, 0.45), shadow=2)

    # objectives (cards; claimers are drawn per render)
    ox0, oy0 = OBJ_XY
    tf = font(BOARD_MIN, "cond")
    text(d, (ox0, oy0), t("mlem.render.objectives", lang), tf, fill=MUTED)
    for k, obj in enumerate(OBJECTIVES):
        bx, by, bx1, by1 = _objective_box(k)
        kit.rounded_box(d, (bx, by, bx1, by1), radius=10, fill=PANEL, outline=PANEL_EDGE)
        _objective_icon(d, bx + 8, by + 8, 30, obj)
        text(
            d,
            (bx + 46, by + 23),
            f"+{OBJ_POINTS.get(obj, 5)}",
            font(BOARD_MIN),
            fill=GOLD,
            anchor="lm",
        )
        lines = kit.wrap(t(f"mlem.render.objective.{obj}", lang), tf, bx1 - bx - 14, 2)
        for j, line in enumerate(lines):
            text(d, (bx + 8, by + 44 + 25 * j), line, tf, fill=INK)
    return img


OBJ_XY = (TX0, ROW_Y[0] + CELL + 4)  # the objectives' title, under the first row


def _objective_box(k: int) -> tuple[float, float, float, float]:
    x = OBJ_XY[0] + k * 154
    y = OBJ_XY[1] + 30
    return (x, y, x + 148, y + 100)


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


_base = kit.per_language(_build_base)  # the static table, drawn once per language


# ----------------------------------------------------------------------------- helpers


_lang = kit.lang_or_default
_name = kit.player_name
_seat_ok = kit.is_seat


def _phase(view: dict) -> str:
    if view.get("over"):
        return "over"
    ph = str(view.get("phase") or "")
    return ph.rsplit(".", 1)[-1] if ph else "launch"


def _counts(seats: Sequence[Any], n: int) -> list[tuple[int, int]]:
    """(seat, count) in first-appearance order."""
    out: dict[int, int] = {}
    for s in seats or []:
        if _seat_ok(s, n):
            out[s] = out.get(s, 0) + 1
    return list(out.items())


def _section(d: ImageDraw.ImageDraw, y: float, h: float, title: str) -> float:
    kit.rounded_box(d, (PX0, y, PX1, y + h), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    text(d, (PX0 + 14, y + 8), title, font(17), fill=MUTED)
    return y + 32


# ----------------------------------------------------------------------------- table


def _draw_header(d: ImageDraw.ImageDraw, view: dict, lang: str, width: float = W) -> None:
    """The header strip (title, voyage, phase, disaster track) ``width`` wide."""
    t = i18n.t
    kit.rounded_box(
        d, (8, 6, width - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE
    )
    title = t("mlem.render.title", lang)
    text(d, (24, HEADER_H / 2), title, font(30), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(30).getlength(t("mlem.render.title", lang)) + 24
    rnd = view.get("round")
    if rnd is not None:
        s = t("mlem.render.voyage", lang, n=rnd)
        text(d, (x, HEADER_H / 2), s, font(28), fill=INK, anchor="lm", shadow=2)
        x += font(28).getlength(s) + 20
    ph = _phase(view)
    label = t(f"mlem.render.phase.{ph}", lang)
    col = PHASE_RGB.get(ph, MUTED)
    wpx = kit.pill(d, x, 12, HEADER_H - 10, label, font(26), col, radius=17, dy=-2)
    if view.get("last_voyage") and not view.get("over"):
        x += wpx + 14
        s = t("mlem.render.last_voyage", lang)
        text(d, (x, HEADER_H / 2), s, font(20), fill=GOLD, anchor="lm", shadow=2)

    # disaster track 0..11, right aligned
    limit = view.get("disaster_limit")
    top = limit if isinstance(limit, int) and 1 <= limit <= 20 else DISASTER_MAX
    n = max(0, min(top, int(view.get("disasters") or 0)))
    bw, gap = 26, 4
    bx1 = width - 22
    bw = min(bw, int(min(360, width * 0.3) - (top + 1) * gap) // (top + 1))
    bx0 = bx1 - (top + 1) * (bw + gap) + gap
    label = t("mlem.render.disasters", lang)
    text(d, (bx0 - 12, HEADER_H / 2 - 10), label, font(18), fill=MUTED, anchor="rm")
    ends = t("mlem.render.disasters_end", lang, n=top)
    text(
        d, (bx0 - 12, HEADER_H / 2 + 11), ends, font(HEAD_MIN, "cond"), fill=RED_SOFT, anchor="rm"
    )
    for k in range(top + 1):
        x0 = bx0 + k * (bw + gap)
        box = (x0, 16, x0 + bw, HEADER_H - 14)
        if k == n:
            fill, edge = (255, 90, 70), INK
        elif k < n:
            fill, edge = (120, 40, 48), (170, 70, 80)
        else:
            fill, edge = PANEL, PANEL_EDGE
        d.rounded_rectangle(box, radius=5, fill=fill, outline=edge, width=2 if k != n else 3)
        if k == n:
            text(
                d,
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                str(k),
                font(HEAD_MIN),
                fill=kit.DARK,
                anchor="mm",
            )
        elif k == top:
            text(
                d,
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                "✕",
                font(HEAD_MIN),
                fill=RED_SOFT,
                anchor="mm",
            )


def _draw_track_tokens(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    # recon tiles on their slots
    recon = view.get("recon")
    if isinstance(recon, dict):
        slots = recon.get("slots") or {}
        for key, tile in slots.items():
            try:
                s = int(key)
            except (TypeError, ValueError):
                continue
            if s not in TRACK:
                continue
            x0, y0, x1, _ = cell_box(s)
            recon_tile(d, x1 - 44, y0 + 4, 40, tile if isinstance(tile, dict) else None)

    rk = view.get("rocket") or {}
    sp = rk.get("space")
    sp = max(0, min(DEEP, sp)) if isinstance(sp, int) and not isinstance(sp, bool) else None

    # UFO marker: in the middle of its space, or above it when the rocket is there too
    u = view.get("ufo")
    if isinstance(u, dict) and isinstance(u.get("space"), int):
        s = max(0, min(DEEP, u["space"]))
        x0, y0, x1, _ = cell_box(s)
        if s == DEEP:
            ufo(d, x1 - 30 if sp == DEEP else (x0 + x1) / 2, y0 + 56, 46)
        elif s == sp:
            ufo(d, (x0 + x1) / 2 + 8, y0 - 2, 46)
        else:
            ufo(d, (x0 + x1) / 2, y0 + 49, 46)

    # moons
    for mid, occ in (view.get("moons") or {}).items():
        pos = MOON_POS.get(mid)
        if not pos:
            continue
        for (mx, my, r), seat, value in zip(pos, occ or [], MOONS[mid], strict=False):
            if _seat_ok(seat, n):
                kit.seat_token(d, (mx, my), r + 1, seat)
                text(
                    d,
                    (mx, my + 1),
                    str(value),
                    font(BOARD_MIN),
                    fill=INK,
                    anchor="mm",
                    outline=3,
                    outline_fill=(0, 0, 0),
                )

    # planets: rows in arrival order
    for pid, rows in (view.get("planets") or {}).items():
        geo = PLANET_GEO.get(pid)
        if not geo:
            continue
        x, y = geo["rows"]
        ok = [(s, c) for s, c in (tuple(r) for r in rows or [] if len(r) >= 2) if _seat_ok(s, n)]
        pitch = 25 if len(ok) <= 4 else 22
        for k, (seat, count) in enumerate(ok[:5]):
            cy = y + 8 + k * pitch
            kit.seat_token(d, (x + 10, cy), 10, seat)
            text(
                d,
                (x + 23, cy + 1),
                f"×{count}",
                font(BOARD_MIN, "cond"),
                fill=INK,
                anchor="lm",
                outline=2,
                outline_fill=(0, 0, 0),
            )

    # deep space occupants
    ds = view.get("deep_space") or {}
    x0, y0, _, _ = cell_box(DEEP)
    for key, top in (("comet", y0 + 121), ("galaxy", y0 + 186)):
        occ = _counts(ds.get(key) or [], n)
        for k, (seat, count) in enumerate(occ[:8]):
            cx: float = x0 + 18 + (k % 3) * 44
            cy = top + (k // 3) * 25
            kit.seat_token(d, (cx, cy), 10, seat)
            if count > 1:
                text(
                    d,
                    (cx + 11, cy + 2),
                    str(count),
                    font(BOARD_MIN, "cond"),
                    fill=INK,
                    anchor="lm",
                    outline=2,
                    outline_fill=(0, 0, 0),
                )

    # rocket: a gold frame round its space and the rocket flying along the track
    if sp is not None and not view.get("over"):
        x0, y0, x1, y1 = cell_box(sp)
        d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=15, outline=GOLD, width=5)
        direction = "left" if _rc(sp)[0] == 1 else "right"
        cx = (x0 + x1) / 2
        if sp == DEEP:
            ufo_here = isinstance(u, dict) and u.get("space") == DEEP
            cx = x0 + 44 if ufo_here else cx
        cy = y0 + (56 if sp == DEEP else 47)
        if isinstance(d, kit.ScaledDraw):  # the board drawn at another size
            cx, cy = d.pt(cx, cy)
            paste_center(img, _rocket_at(round(60 * d.k), direction), cx, cy)
        else:
            paste_center(img, ROCKET_SPRITES[direction], cx, cy)


def _objective_claims(d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    objs = view.get("objectives") or {}
    for k, obj in enumerate(OBJECTIVES):
        seat = objs.get(obj)
        box = _objective_box(k)
        if _seat_ok(seat, n):
            d.rounded_rectangle(box, radius=10, outline=kit.seat_color(seat), width=4)
            kit.seat_token(d, (box[2] - 20, box[1] + 22), 13, seat)


def _draw_legend(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], view: dict, lang: str
) -> tuple[float, float]:
    """What every mark on the table means, drawn in ``box`` (picture pixels) with each
    table: the board's marks, then those of the variants in play. Returns the legend's
    bottom and the right end of its widest entry."""
    t = i18n.t
    items: list[tuple[Any, str]] = [
        (lambda dr, xy, s: kit.die(dr, xy, s, "A"), t("mlem.render.legend.afterburner", lang)),
        (_moon_icon, t("mlem.render.legend.moon", lang)),
        (_planet_icon, t("mlem.render.legend.planet", lang)),
        (
            lambda dr, xy, s: satellite(dr, xy[0] + s / 2, xy[1] + s / 2, s),
            t("mlem.render.legend.satellite", lang),
        ),
        (
            lambda dr, xy, s: star(dr, xy[0] + s / 2, xy[1] + s / 2, s * 0.45),
            t("mlem.render.legend.commander", lang),
        ),
    ]
    if not view.get("over"):
        items.append(
            (
                lambda dr, xy, s: rocket(dr, xy[0] + s / 2, xy[1] - 1, s + 2),
                t("mlem.render.legend.first", lang),
            )
        )
    if isinstance(view.get("ufo"), dict):
        items.append(
            (
                lambda dr, xy, s: ufo(dr, xy[0] + s / 2, xy[1] + s / 2 + 2, s * 1.2),
                t("mlem.render.legend.ufo", lang),
            )
        )
    recon = view.get("recon")
    if isinstance(recon, dict) and not all((recon.get("slots") or {}).values()):
        items.append(
            (
                lambda dr, xy, s: recon_tile(dr, xy[0], xy[1], s, None),
                t("mlem.render.legend.recon_slot", lang),
            )
        )
    if isinstance(view.get("missions"), dict):
        items.append(
            (
                lambda dr, xy, s: _mission_icon(dr, xy[0] + 2, xy[1] + 2, s - 4),
                t("mlem.render.legend.missions", lang),
            )
        )
    x0, y0, x1, _ = box
    f = font(_least(d), "cond")
    bottom = kit.legend(d, (x0, y0), items, f, max_width=x1 - x0, icon=22, gap=22)
    return bottom, x0 + max(22 + 6 + f.getlength(label) for _, label in items)


def _draw_players(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str, n: int
) -> float:
    t = i18n.t
    row_h = 50
    h = 36 + n * row_h
    top = _section(d, y, h, t("mlem.render.players", lang))
    hint = t("mlem.render.legend.astronauts", lang)
    hf = font(14, "cond")
    text(d, (PX1 - 14, y + 17), hint, hf, fill=MUTED, anchor="rm")
    cat(d, PX1 - 26 - hf.getlength(hint), y + 18, 7, MUTED)
    scores = list(view.get("scores") or [])
    boards = list(view.get("boards") or [])
    over = bool(view.get("over"))
    best = max(scores[:n]) if over and scores[:n] else None
    commander = view.get("commander")
    start = view.get("start_seat")
    ufo_v = view.get("ufo") if isinstance(view.get("ufo"), dict) else None
    recon_v = view.get("recon") if isinstance(view.get("recon"), dict) else None
    miss_v = view.get("missions") if isinstance(view.get("missions"), dict) else None
    for seat in range(n):
        ry = top + seat * row_h
        score = scores[seat] if seat < len(scores) else 0
        winner = best is not None and score == best
        if winner:
            kit.rounded_box(
                d,
                (PX0 + 6, ry - 2, PX1 - 6, ry + row_h - 4),
                radius=10,
                fill=(58, 50, 24),
                outline=GOLD,
                width=2,
            )
        kit.seat_token(d, (PX0 + 26, ry + 17), 13, seat)
        # name, with commander / first-player marks
        nx = PX0 + 48
        marks_w = 0
        if commander == seat and not over:
            marks_w += 26
        if start == seat and not over:
            marks_w += 20
        name, nf = kit.fit_font(_name(names, seat, lang), 205 - marks_w, (22, 20, 18, 16))
        text(d, (nx, ry + 17), name, nf, fill=INK, anchor="lm")
        mx = nx + nf.getlength(name) + 8
        if commander == seat and not over:
            star(d, mx + 10, ry + 16, 10)
            mx += 26
        if start == seat and not over:
            rocket(d, mx + 6, ry + 5, 22)
        # score
        text(
            d,
            (PX1 - 16, ry + 20),
            str(score),
            font(30),
            fill=GOLD if winner else INK,
            anchor="rm",
            shadow=2,
        )
        # second line: astronauts left and hidden-tile counts
        sx = PX0 + 48
        sy = ry + 39
        sf = font(17)
        left = len(boards[seat].get("left", [])) if seat < len(boards) else 0
        cat(d, sx + 8, sy, 8, kit.seat_color(seat))
        text(d, (sx + 20, sy), f"{left}", sf, fill=MUTED, anchor="lm")
        sx += 48
        if ufo_v is not None:
            taken = ufo_v.get("taken") or []
            c = taken[seat] if seat < len(taken) else 0
            ufo(d, sx + 10, sy + 1, 22)
            text(d, (sx + 24, sy), f"{c}", sf, fill=MUTED, anchor="lm")
            sx += 48
        if recon_v is not None:
            taken = recon_v.get("taken") or []
            c = taken[seat] if seat < len(taken) else 0
            recon_tile(d, sx, sy - 8, 16, {"kind": "points", "value": ""})
            text(d, (sx + 22, sy), f"{c}", sf, fill=MUTED, anchor="lm")
            sx += 48
        if miss_v is not None:
            kept = miss_v.get("kept") or []
            c = kept[seat] if seat < len(kept) else 0
            choosing = seat in (miss_v.get("choosing") or [])
            _mission_icon(d, sx, sy - 8, 16)
            s = t("mlem.render.missions.choosing", lang) if choosing else f"{c}"
            text(d, (sx + 22, sy), s, sf, fill=MUTED, anchor="lm")
            sx += 48
        if winner:
            text(
                d,
                (PX1 - 16, sy + 1),
                t("mlem.render.winner", lang),
                font(PANEL_MIN),
                fill=GOLD,
                anchor="rm",
            )
    return y + h + 10


def _draw_final(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str, n: int) -> float:
    """At the end: every player's points by scoring category (a column per seat)."""
    res = kit.dict_of(view.get("result"))
    parts = [b if isinstance(b, dict) else {} for b in (res.get("breakdown") or [])[:n]]
    if len(parts) != n:
        return y
    keys = [k for k in dict.fromkeys(k for b in parts for k in b) if any(b.get(k) for b in parts)]
    row_h = 27
    h = 36 + 30 + (len(keys) + 1) * row_h + 6
    top = _section(d, y, h, i18n.t("mlem.render.final", lang))
    col_w = 44 if n <= 4 else 35
    x_first = PX1 - 14 - n * col_w  # the seat columns, right-aligned
    for seat in range(n):
        kit.seat_token(d, (x_first + (seat + 0.5) * col_w, top + 12), 11, seat)
    f = font(max(16, PANEL_MIN))
    ry = top + 30
    for key in [*keys, "total"]:
        cy = ry + row_h / 2
        if key == "total":
            d.line((PX0 + 14, ry + 1, PX1 - 14, ry + 1), fill=PANEL_EDGE, width=2)
            label = i18n.t("mlem.render.final_total", lang)
        else:
            label = i18n.t(f"mlem.score.{key}", lang)
        label, lf = kit.fit_font(label, x_first - PX0 - 20, (16, 15, PANEL_MIN), "cond")
        text(d, (PX0 + 14, cy), label, lf, fill=INK if key == "total" else MUTED, anchor="lm")
        for seat, b in enumerate(parts):
            v = sum(int(x) for x in b.values()) if key == "total" else int(b.get(key) or 0)
            fill = GOLD if key == "total" else (INK if v else FAINT)
            cx = x_first + (seat + 0.5) * col_w
            text(d, (cx, cy), str(v), f, fill=fill, anchor="mm")
        ry += row_h
    return y + h + 10


def _mission_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    d.rounded_rectangle((x, y, x + s, y + s), radius=3, fill=(235, 225, 200), outline=(0, 0, 0))
    d.line((x + 3, y + s * 0.4, x + s - 3, y + s * 0.4), fill=(90, 80, 60), width=2)
    d.line((x + 3, y + s * 0.7, x + s - 5, y + s * 0.7), fill=(90, 80, 60), width=2)


def _booster_spent(view: dict, seat: Any, n: int) -> bool:
    boards = view.get("boards") or []
    if not _seat_ok(seat, n) or seat >= len(boards) or not isinstance(boards[seat], dict):
        return False
    return int(boards[seat].get("boosters_used") or 0) > 0


def _spent(member: dict, view: dict, n: int) -> bool:
    """Is this crew member a booster already used (flipped) this voyage?"""
    if member.get("astronaut") != "booster":
        return False
    if "used" in member:
        return bool(member["used"])
    return _booster_spent(view, member.get("seat"), n)


def _draw_crew(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str, n: int
) -> float:
    t = i18n.t
    crew = [c for c in (view.get("rocket") or {}).get("crew") or [] if isinstance(c, dict)]
    row_h = 34
    rows = max(1, len(crew))
    h = 36 + rows * row_h + 4
    top = _section(d, y, h, t("mlem.render.crew", lang))
    if not crew:
        text(
            d,
            (PX0 + 16, top + 16),
            t("mlem.render.crew_empty", lang),
            font(18),
            fill=FAINT,
            anchor="lm",
        )
    for k, member in enumerate(crew):
        ry = top + k * row_h
        seat = member.get("seat")
        ab = str(member.get("astronaut") or "")
        cy = ry + 15
        if k == 0:
            kit.rounded_box(
                d,
                (PX0 + 6, ry - 3, PX1 - 6, ry + row_h - 5),
                radius=8,
                fill=(52, 46, 26),
                outline=GOLD,
                width=2,
            )
            star(d, PX0 + 22, cy, 10)
        else:
            text(d, (PX0 + 22, cy), str(k + 1), font(16), fill=MUTED, anchor="mm")
        if _seat_ok(seat, n):
            kit.seat_token(d, (PX0 + 48, cy), 11, seat)
        ability_icon(d, PX0 + 66, cy - 12, 24, ab)
        key = f"mlem.render.ability.{ab}"
        label = t(key, lang) if i18n.has(key, lang) else ab
        spent = _spent(member, view, n)
        label, lf = kit.fit_font(label, 150, (18, 17, 16), "bold")
        text(d, (PX0 + 98, cy), label, lf, fill=FAINT if spent else INK, anchor="lm")
        if spent:  # a used booster is flipped face down
            d.line((PX0 + 96, cy, PX0 + 100 + lf.getlength(label), cy), fill=MUTED, width=2)
        if _seat_ok(seat, n):
            who, wf = kit.fit_font(_name(names, seat, lang), 96, (15, 14, 13), "cond")
            text(d, (PX1 - 14, cy), who, wf, fill=kit.seat_color(seat), anchor="rm")
    return y + h + 10


def _draw_dice(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str) -> float:
    t = i18n.t
    dice = view.get("dice") or {}
    roll = list(dice.get("roll") or [])
    usable = list(dice.get("usable") or [])
    h = 36 + 56 + 22
    top = _section(d, y, h, t("mlem.render.dice", lang))
    sp = (view.get("rocket") or {}).get("space")
    ab = TRACK.get(sp, {}).get("ab") if isinstance(sp, int) else None
    if roll:
        k_n = len(roll)
        s = 48 if k_n <= 6 else max(30, int((PX1 - PX0 - 28) / k_n) - 6)
        gap = 8 if k_n <= 6 else 5
        x = PX0 + 14
        for k, face in enumerate(roll):
            ok = bool(usable[k]) if k < len(usable) else True
            face_v = "A" if str(face).upper() == "A" else face
            if ok:
                d.rounded_rectangle(
                    (x - 3, top - 1, x + s + 3, top + s + 5), radius=10, outline=GOLD, width=3
                )
            kit.die(
                d,
                (x, top + 2),
                s,
                face_v,
                value=ab if face_v == "A" else None,
                dim=not ok,
                crossed=not ok,
            )
            x += s + gap
    else:
        text(
            d,
            (PX0 + 16, top + 26),
            t("mlem.render.no_roll", lang),
            font(20),
            fill=FAINT,
            anchor="lm",
        )
    pool = int(dice.get("pool") or 0)
    disc = int(dice.get("discarded") or 0)
    iy = top + 64
    x = PX0 + 16
    for k in range(min(pool + disc, 8)):
        kit.die(d, (x, iy - 8), 16, "", dim=k >= pool)
        x += 19
    label, sf = kit.fit_font(
        t("mlem.render.pool", lang, pool=pool, discarded=disc),
        PX1 - x - 16,
        (17, 16, 15, 14),
        "cond",
    )
    text(d, (x + 6, iy), label, sf, fill=MUTED, anchor="lm")
    return y + h + 10


def _draw_variants(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str
) -> float:
    t = i18n.t
    ex = view.get("expedition") if isinstance(view.get("expedition"), dict) else None
    u = view.get("ufo") if isinstance(view.get("ufo"), dict) else None
    rc = view.get("recon") if isinstance(view.get("recon"), dict) else None
    lines: list[tuple[Any, str]] = []
    if u is not None:
        sp = u.get("space")
        left = u.get("tiles_left", 0)
        key = "mlem.render.ufo.deep" if sp == DEEP else "mlem.render.ufo.where"
        lines.append(("ufo", t(key, lang, n=sp, left=left)))
    if rc is not None:
        lines.append(("recon", t("mlem.render.recon.left", lang, n=rc.get("left", 0))))
    if ex is None and not lines:
        return y
    if rc is not None:
        lines.append(("kinds", ""))
    h = 14 + (78 if ex is not None else 0) + 28 * len(lines)
    kit.rounded_box(d, (PX0, y, PX1, y + h), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    cy = y + 8
    if ex is not None:
        tile = ex.get("tile") if isinstance(ex.get("tile"), dict) else None
        avail = bool(ex.get("ability_available"))
        title = t("mlem.render.expedition", lang)
        if tile and tile.get("id"):
            title += f" {tile['id']}"
        text(d, (PX0 + 14, cy), title, font(17), fill=MUTED)
        text(
            d,
            (PX1 - 14, cy),
            t("mlem.render.expedition.left", lang, n=ex.get("left", 0)),
            font(15, "cond"),
            fill=MUTED,
            anchor="ra",
        )
        ty = cy + 26
        if tile is None:
            text(
                d,
                (PX0 + 16, ty + 18),
                t("mlem.render.expedition.none", lang),
                font(18),
                fill=FAINT,
                anchor="lm",
            )
        else:
            card = (PX0 + 10, ty, PX1 - 10, ty + 42)
            kit.rounded_box(d, card, radius=8, fill=(44, 40, 74), outline=(150, 130, 220))
            x = PX0 + 18
            mid = ty + 21
            kit.die(d, (x, mid - 13), 26, 6)
            text(d, (x + 32, mid), f"{tile.get('dice', '?')}", font(22), fill=INK, anchor="lm")
            x += 58
            ufo(d, x + 16, mid + 2, 34)
            text(d, (x + 36, mid), f"−{tile.get('ufo', 0)}", font(20), fill=UFO_RGB, anchor="lm")
            x += 72
            ability = str(tile.get("ability") or "")
            col = INK if avail else FAINT
            if ability == "extra":
                for face in (tile.get("extra") or [])[:3]:
                    kit.die(d, (x, mid - 12), 24, face, dim=not avail)
                    x += 28
                label = t("mlem.render.expedition.extra", lang)
            else:
                label = t(f"mlem.render.expedition.{ability}", lang)
            status = t(f"mlem.render.expedition.{'ready' if avail else 'used'}", lang)
            lbl, lf = kit.fit_font(label, PX1 - 18 - x - 4, (17, 16, 15, 14), "cond")
            text(d, (x + 4, mid - 9), lbl, lf, fill=col, anchor="lm")
            text(
                d,
                (x + 4, mid + 10),
                status,
                font(14, "cond"),
                fill=GREEN_SOFT if avail else FAINT,
                anchor="lm",
            )
        cy = ty + 52
    for kind, s in lines:
        if kind == "kinds":  # what each reconnaissance tile does
            kx: float = PX0 + 50
            kf = font(PANEL_MIN, "cond")
            for k, key in (("points", "points"), ("recover", "recover"), ("wormhole", "wormhole")):
                recon_tile(d, kx, cy + 2, 20, {"kind": k}, plain=True)
                label = t(f"mlem.render.legend.recon_{key}", lang)
                text(d, (kx + 26, cy + 12), label, kf, fill=MUTED, anchor="lm")
                kx += 26 + kf.getlength(label) + 14
            cy += 28
            continue
        if kind == "ufo":
            ufo(d, PX0 + 28, cy + 12, 30)
        else:
            recon_tile(d, PX0 + 18, cy + 2, 20, {"kind": "wormhole"})
        s2, sf = kit.fit_font(s, PX1 - PX0 - 64, (17, 16, 15, 14), "cond")
        text(d, (PX0 + 50, cy + 12), s2, sf, fill=INK, anchor="lm")
        cy += 28
    return y + h + 10


def _panels(out: Image.Image, x: float, y: float) -> ImageDraw.ImageDraw:
    """A drawer whose panel coordinates (``PX0``.., any ``y``) land ``PANEL_K`` times bigger
    with the panel's left edge at ``x`` and panel coordinate ``y`` at picture row ``y``."""
    return kit.ScaledDraw(out, PANEL_K, (PX0 - x / PANEL_K, y - y / PANEL_K))


def _build_out_base(lang: str) -> Image.Image:
    out = kit.star_field((OUT_W, OUT_H), seed=2076)
    board = _base(lang).crop((0, HEADER_H, BOARD_X1, H))
    out.paste(
        board.resize((round(BOARD_X1 * BOARD_K), BOARD_H), Image.Resampling.LANCZOS),
        (0, OUT_HEADER_H),
    )
    return out


_out_base = kit.per_language(_build_out_base)  # the static board, already shrunk


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    n = int(view.get("players") or len(view.get("scores") or []) or len(names) or 2)
    n = max(1, min(n, len(kit.PALETTE)))
    out = _out_base(lang).copy()
    _draw_header(kit.ScaledDraw(out, HEAD_K), view, lang, OUT_W / HEAD_K)
    d = kit.ScaledDraw(out, BOARD_K, (0, HEADER_H - OUT_HEADER_H / BOARD_K))
    _objective_claims(d, view, n)
    _draw_track_tokens(out, d, view, n)
    top = OUT_HEADER_H + 8
    side = _panels(out, PANEL_X0, top)
    y: float = top
    y = _draw_players(side, y, view, names, lang, n)
    if not view.get("over"):
        y = _draw_crew(side, y, view, names, lang, n)
        y = _draw_dice(side, y, view, lang)
    else:
        y = _draw_final(side, y, view, lang, n)
    below = OUT_HEADER_H + BOARD_H + 6
    lx = 14.0
    if _draw_variants(_panels(out, 14, below), below, view, names, lang) > below:
        lx += (PX1 - PX0) * PANEL_K + 8  # the legend goes right of the variants panel
    _draw_legend(ImageDraw.Draw(out), (lx, below + 4, PANEL_X0 - 12, OUT_H - 6), view, lang)
    return out


#: The private picture's fills: missions (done, to do) and their target spaces.
MISSION_DONE_RGB: RGB = (30, 66, 44)
MISSION_TODO_RGB: RGB = (60, 54, 30)
TARGET_DONE_RGB: RGB = (40, 110, 64)
TARGET_TODO_RGB: RGB = (120, 96, 20)


def _exact_colours() -> list[RGB]:
    """The colours drawn over the static board, kept exact in the PNG palette: seats (so
    a seat's colour never drifts into another's), the theme and this board's own."""
    out: list[RGB] = [p.rgb for p in kit.PALETTE]
    out += [kit.BG, kit.BG2, kit.PANEL, kit.PANEL_EDGE, kit.INK, kit.MUTED, kit.FAINT]
    out += [kit.GOLD, kit.RED, kit.GREEN, kit.DARK, (0, 0, 0), (255, 255, 255)]
    out += [MOON_RGB, CELL_RGB, CELL_EARLY_RGB, CELL_EDGE, PATH_RGB, DEEP_RGB, UFO_RGB]
    out += [RED_SOFT, GREEN_SOFT, *PLANET_RGB.values(), *RECON_RGB.values()]
    out += list(PHASE_RGB.values())
    out += [MISSION_DONE_RGB, MISSION_TODO_RGB, TARGET_DONE_RGB, TARGET_TODO_RGB]  # private
    return out


#: One palette for every MLEM picture (the table, the private picture), made once: mapping
#: onto it is faster than finding a palette for each picture, and keeps every seat colour
#: exact (the recap GIF too).
_PALETTE = kit.palette_for(_out_base(i18n.DEFAULT), _exact_colours())


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is never read."""
    public = {k: v for k, v in view.items() if k != "private"}
    lang = _lang(lang)
    with kit.LOCK:
        img = _draw_table(public, names, lang)
    return kit.to_png_palette(img, _PALETTE)


# ----------------------------------------------------------------------------- private


def _targets(mission_id: str) -> list[int]:
    out = []
    for part in str(mission_id).split("/"):
        try:
            out.append(int(part))
        except ValueError:
            continue
    return out


@lru_cache(maxsize=128)
def _body_label(space: int, lang: str) -> tuple[str, str, RGB]:
    """(body id, label, colour) of what hangs off ``space``: a planet's name, or the moon
    group's values with its space."""
    bodies = TRACK.get(space, {}).get("bodies", [])
    for b in bodies:
        if b in PLANET_RGB:
            return b, _planet_name(b, lang), PLANET_RGB[b]
    if bodies:
        vals = "·".join(map(str, MOONS.get(bodies[0], [])))
        return bodies[0], f"{space}: {i18n.t('mlem.render.moons', lang)} {vals}", MOON_RGB
    return "", "", MUTED


def _has_private(priv: Any) -> TypeGuard[dict]:
    if not isinstance(priv, dict):
        return False
    hp = priv.get("hidden_points")
    if not isinstance(hp, dict):
        hp = {}
    return bool(priv.get("missions") or priv.get("dealt") or any(hp.values()))


def render_private(view: dict, names: list[str], lang: str) -> bytes | None:
    """PNG bytes of one seat's secrets: its missions (target spaces, done or not) and hidden
    points (UFO and reconnaissance tiles). ``None`` when there is nothing private."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    lang = _lang(lang)
    with kit.LOCK:
        img = _draw_private(view, priv, names, lang)
    return kit.to_png_palette(img, _PALETTE)


def _draw_private(view: dict, priv: dict, names: Sequence[str], lang: str) -> Image.Image:
    t = i18n.t
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [str(m) for m in priv.get("dealt") or []]
    hp = priv.get("hidden_points") if isinstance(priv.get("hidden_points"), dict) else None
    if hp is not None and not (any(hp.values()) or view.get("ufo") or view.get("recon")):
        hp = None  # UFO and reconnaissance are off: no hidden points to show
    seat = view.get("seat", priv.get("seat"))
    n = int(view.get("players") or 5)
    has_seat = _seat_ok(seat, n)
    seat_i = seat if _seat_ok(seat, n) else 0

    tiles: list[tuple[str, bool | None]]
    if dealt:
        tiles = [(m, None) for m in dealt]
        heading = t("mlem.render.private.choose", lang)
    else:
        tiles = [(str(m.get("id", "?")), bool(m.get("done"))) for m in missions]
        heading = t("mlem.render.private.missions", lang)

    pw = 1000
    tile_w, tile_h = 228, 150
    ph = 72 + (tile_h + 84 if tiles else 40) + 58 + 28 + (106 if hp is not None else 0)
    img = kit.star_field((pw, ph), seed=9)
    d = ImageDraw.Draw(img)

    # title
    kit.rounded_box(d, (8, 6, pw - 8, 58), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    who = _name(names, seat_i, lang) if has_seat else ""
    if has_seat:
        kit.seat_token(d, (34, 32), 14, seat_i)
    title = t("mlem.render.private.title" if who else "mlem.render.private.anon", lang, name=who)
    title, tf = kit.fit_font(title, pw - 120, (28, 24, 20))
    text(d, (58 if has_seat else 24, 32), title, tf, fill=INK, anchor="lm", shadow=2)

    y = 72
    targets_done: set[int] = set()
    targets_todo: set[int] = set()
    if tiles:
        text(d, (24, y), heading, font(22), fill=GOLD)
        y += 36
        for k, (mid, done) in enumerate(tiles[:4]):
            x: float = 24 + k * (tile_w + 14)
            if done is True:
                edge, fill = GREEN_SOFT, MISSION_DONE_RGB
            elif done is False:
                edge, fill = GOLD, MISSION_TODO_RGB
            else:
                edge, fill = PANEL_EDGE, PANEL
            kit.rounded_box(
                d, (x, y, x + tile_w, y + tile_h), radius=14, fill=fill, outline=edge, width=3
            )
            spaces = _targets(mid)
            (targets_done if done else targets_todo).update(spaces)
            cat(d, x + 26, y + 34, 16, INK)
            text(d, (x + 52, y + 34), mid, font(40), fill=INK, anchor="lm", shadow=2)
            ly = y + 72
            seen: set[str] = set()
            for s in spaces:
                body, label, col = _body_label(s, lang)
                if not label or body in seen:
                    continue
                seen.add(body)
                d.ellipse((x + 14, ly - 8, x + 30, ly + 8), fill=col, outline=(0, 0, 0))
                lb, lf = kit.fit_font(label, tile_w - 46, (18, 16, 14), "cond")
                text(d, (x + 38, ly), lb, lf, fill=INK, anchor="lm")
                ly += 24
            if done is not None:
                status = t(f"mlem.render.private.{'done' if done else 'todo'}", lang)
                mark = "✓ " if done else "… "
                text(
                    d,
                    (x + tile_w - 14, y + tile_h - 18),
                    mark + status,
                    font(18),
                    fill=GREEN_SOFT if done else GOLD,
                    anchor="rm",
                )
        y += tile_h + 14
        if not dealt:
            done_n = sum(1 for _, dn in tiles if dn)
            pts = MISSION_POINTS[min(done_n, len(MISSION_POINTS) - 1)]
            line = t(
                "mlem.render.private.progress", lang, done=done_n, total=len(tiles), points=pts
            )
            text(d, (24, y + 4), line, font(20), fill=INK)
        y += 34
    else:
        text(d, (24, y + 8), t("mlem.render.private.none", lang), font(20), fill=FAINT)
        y += 40

    # mini track with the target spaces
    cw = (pw - 48) / (LAST + 2)
    for i in range(DEEP + 1):
        x0 = 24 + i * cw
        box = (x0 + 2, y, x0 + cw - 2, y + 40)
        if i in targets_done:
            fill, edge, ink = TARGET_DONE_RGB, GREEN_SOFT, INK
        elif i in targets_todo:
            fill, edge, ink = TARGET_TODO_RGB, GOLD, INK
        else:
            fill, edge, ink = (CELL_EARLY_RGB if i in NO_LANDING else CELL_RGB), PANEL_EDGE, MUTED
        if i == DEEP:
            fill = DEEP_RGB if fill == CELL_RGB else fill
        d.rounded_rectangle(box, radius=6, fill=fill, outline=edge, width=2)
        label = str(i) if i != DEEP else "★"
        text(
            d,
            ((box[0] + box[2]) / 2, y + 20),
            label,
            font(16 if i < 10 else 15),
            fill=ink,
            anchor="mm",
        )
    y += 48
    text(d, (24, y), t("mlem.render.private.track", lang), font(16, "cond"), fill=MUTED)
    y += 38

    if hp is None:
        return img
    # hidden points
    ufo_p = int(hp.get("ufo") or 0)
    rec_p = int(hp.get("recon") or 0)
    kit.rounded_box(d, (24, y, pw - 24, y + 92), radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    text(d, (40, y + 12), t("mlem.render.private.hidden", lang), font(20), fill=MUTED)
    x = 40
    iy = y + 60
    ufo(d, x + 18, iy, 36)
    line = f"{t('mlem.render.private.ufo', lang)}: {ufo_p}"
    text(d, (x + 44, iy), line, font(22), fill=INK, anchor="lm")
    x += 44 + font(22).getlength(line) + 36
    recon_tile(d, x, iy - 14, 28, {"kind": "points", "value": ""})
    line = f"{t('mlem.render.private.recon', lang)}: {rec_p}"
    text(d, (x + 38, iy), line, font(22), fill=INK, anchor="lm")
    x += 38 + font(22).getlength(line) + 24
    line = f"{t('mlem.render.private.total', lang)}: {ufo_p + rec_p}"
    tf = font(26)
    if x + tf.getlength(line) > pw - 44:  # no room on the line: beside the title
        iy = y + 22
    text(d, (pw - 44, iy), line, tf, fill=GOLD, anchor="rm", shadow=2)
    return img


#: Every mark (a drawing helper of this module) a picture can show, with the i18n keys of
#: the words that explain it on the same picture (any one will do; ``{name}`` fields are
#: the helper's arguments). tests/render/test_mlem_marks.py draws pictures and checks it.
MARKS: dict[str, tuple[str, ...]] = {
    "rocket": ("mlem.render.legend.first",),
    "ufo": ("mlem.render.legend.ufo", "mlem.render.ufo.where", "mlem.render.private.ufo"),
    "cat": (
        "mlem.render.legend.astronauts",
        "mlem.render.private.missions",
        "mlem.render.private.choose",
    ),
    "satellite": ("mlem.render.legend.satellite",),
    "star": ("mlem.render.legend.commander",),
    "ability_icon": ("mlem.render.ability.{ability}",),
    "recon_tile": (
        "mlem.render.legend.recon_{tile[kind]}",
        "mlem.render.legend.recon_slot",
        "mlem.render.recon.left",
        "mlem.render.private.recon",
    ),
    "_faces_row": ("mlem.render.legend.afterburner",),
    "_moon_icon": ("mlem.render.legend.moon",),
    "_planet_icon": ("mlem.render.legend.planet",),
    "_objective_icon": ("mlem.render.objective.{obj}",),
    "_mission_icon": ("mlem.render.legend.missions",),
}
