"""MLEM pictures: the board's geometry (the star track, moons, planets, deep space), the font
sizes that read at 400 px wide, and the colours."""

from __future__ import annotations

import math
from typing import Any

from PIL import ImageDraw

from render.kit import RGB
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
