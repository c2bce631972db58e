"""MLEM pictures: the static table (sky, star track, moons, planets, deep space, objective
cards), drawn once per language."""

from __future__ import annotations

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import GOLD, INK, MUTED, PANEL, PANEL_EDGE, font, text
from render.mlem.geometry import (
    BOARD_MIN,
    CELL,
    CELL_EARLY_RGB,
    CELL_EDGE,
    CELL_RGB,
    COLS,
    COMET,
    DEEP,
    DEEP_RGB,
    DEEP_W,
    GALAXY,
    HEADER_H,
    LAST,
    MOON_POS,
    MOON_RGB,
    MOON_SPACE,
    MOONS,
    NO_LANDING,
    OBJ_POINTS,
    OBJECTIVES,
    PATH_RGB,
    PLANET_GEO,
    PLANET_RGB,
    PLANET_SPACES,
    PLANETS,
    ROW_Y,
    SATELLITE,
    TRACK,
    TX0,
    H,
    W,
    _center,
    _rc,
    cell_box,
)
from render.mlem.glyphs import _faces_row, _objective_icon, board_text, satellite
from render.mlem.view import _planet_name

# ----------------------------------------------------------------------------- static base


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
        board_text(d, (cx, cy - 8), str(first), font(34), outline=3)
        board_text(d, (cx, cy + 22), f"{second}·{rest}", font(BOARD_MIN, "cond"))
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


_base = kit.per_language(_build_base)  # the static table, drawn once per language
