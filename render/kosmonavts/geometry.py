"""Kosmonavts pictures: colours, the hex board's geometry and its static layer (sky, grid, Sun,
danger ring, belt, orbits), drawn once at import."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import kit
from render.kit import RGB
from rules.kosmonavts import board

Hex = board.Hex
RADIUS = board.RADIUS
DIR_IDS = board.DIR_IDS
DIRS: dict[str, Hex] = dict(zip(board.DIR_IDS, board.DIRS, strict=True))
ARROW: dict[str, str] = dict(zip(board.DIR_IDS, board.ARROWS, strict=True))
HYPER_ARROW: dict[str, str] = dict(zip(board.DIR_IDS, board.HYPER_ARROWS, strict=True))
BODIES = board.BODIES
BODY_KIND = board.BODY_KIND
ORBITS = board.ORBITS
DANGER_RINGS = board.DANGER_RINGS
BELT_RINGS = board.BELT_RINGS
NON_EARTH = board.NON_EARTH
dist = board.dist
ALL_HEXES = board.ALL_HEXES
SQ3 = math.sqrt(3)

# ----------------------------------------------------------------------------- colours

BODY_RGB: dict[str, RGB] = {
    "mercury": (178, 168, 158),
    "venus": (240, 222, 170),
    "earth": (74, 148, 242),
    "mars": (230, 100, 66),
    "halley": (196, 240, 252),
    "jupiter": (216, 158, 104),
    "saturn": (226, 192, 98),
    "uranus": (122, 222, 214),
    "neptune": (98, 120, 246),
}
CELL_RGB: RGB = (19, 24, 52)
CELL_EDGE: RGB = (40, 49, 96)
SUN_RING_RGB: RGB = (104, 52, 38)
SUN_RING_EDGE: RGB = (156, 84, 56)
BELT_RGB: RGB = (64, 56, 62)
BELT_EDGE: RGB = (104, 90, 96)
ROCK_RGB: RGB = (122, 110, 112)
SUN_RGB: RGB = (255, 206, 84)
FUEL_RGB: RGB = (250, 204, 46)
HYPER_RGB: RGB = (232, 62, 62)
SHIELD_RGB: RGB = (150, 196, 240)
EMPTY_RGB: RGB = (38, 44, 80)
PHASE_RGB: dict[str, RGB] = {
    "setup": (150, 160, 220),
    "missions": (150, 160, 220),
    "event": (224, 130, 185),
    "orders": (86, 180, 233),
    "flight": (240, 160, 60),
    "planets": (110, 200, 120),
    "over": (230, 90, 110),
}
KIND_RGB: dict[str, RGB] = {
    "wind": (238, 170, 60),
    "refuel": (232, 62, 62),
    "energy": (110, 200, 120),
    "gravity": (170, 130, 240),
    "thrust": (86, 180, 233),
    "asteroids": (150, 132, 126),
    "flares": (255, 120, 60),
}
DANGER_RGB: dict[str, RGB] = {
    "none": (110, 225, 140),
    "danger_sector": (255, 190, 60),
    "danger_no_shield": (255, 96, 86),
    "sun": (255, 96, 86),
    "off_board": (255, 96, 86),
}


# ----------------------------------------------------------------------------- geometry

# The table is seen ~400 px wide on a phone (and in a Discord embed on a desktop), in a box
# of about 4:3: the header and the panels are laid out in their own units (HEADER_H high,
# PX0..PX1 wide) and drawn HEAD_K / PANEL_K / EVENTS_K times bigger through kit.ScaledDraw,
# so they stay readable; the board beside them is drawn at S_TABLE.
W, H = 1400, 1050
HEADER_H = 52
HEAD_K = 1.35
OUT_HEADER_H = round(HEADER_H * HEAD_K)
S_TABLE = 13.8  # hex "radius" (centre to corner) on the table
BOARD_X0, BOARD_Y0 = 12, OUT_HEADER_H + 6
PX0, PX1 = 1052, 1392  # a side panel, in its own units
PANEL_K = 1.5
COL_X = W - 10 - round((PX1 - PX0) * PANEL_K)  # the players' column in the picture
EVENTS_H = 196  # the events panel, in its own units
PLAYER_MIN_H = 176  # a player's panel needs this height (units) to hold every row


#: No text smaller than 6 px once a picture is shown 400 px wide (a phone): the table is
#: W px wide, a private picture PRIVATE_W (the close-up map is pasted into it as drawn).
SHOWN_W, SHOWN_MIN = 400, 6
PRIVATE_W = 1100


def _least(d: ImageDraw.ImageDraw) -> int:
    """The smallest font size, in ``d``'s units, that reads at 400 px wide."""
    k = float(getattr(d, "k", 1.0))
    px = math.ceil(max(d.im.size[0], PRIVATE_W) * SHOWN_MIN / SHOWN_W)
    return max(1, math.ceil((px - 0.5) / k))


def _sizes(d: ImageDraw.ImageDraw, *sizes: int) -> tuple[int, ...]:
    """``sizes`` (descending) without those too small to read at 400 px wide."""
    least = _least(d)
    return tuple(z for z in sizes if z >= least) or (least,)


@dataclass(frozen=True)
class Geo:
    """Axial hex -> pixel for pointy-top hexes of "radius" ``s``, Sun centre at (ox, oy)."""

    s: float
    ox: float
    oy: float

    def px(self, h: Sequence[int]) -> tuple[float, float]:
        q, r = h[0], h[1]
        return (self.ox + self.s * SQ3 * (q + r / 2), self.oy + self.s * 1.5 * r)

    def corners(self, h: Sequence[int], k: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.px(h)
        rr = self.s * k
        return [
            (
                cx + rr * math.cos(math.radians(60 * i - 30)),
                cy + rr * math.sin(math.radians(60 * i - 30)),
            )
            for i in range(6)
        ]

    def shifted(self, dx: float, dy: float) -> Geo:
        return Geo(self.s, self.ox + dx, self.oy + dy)


def board_size(s: float) -> tuple[float, float]:
    """Pixel width and height of the hex disc."""
    return SQ3 * s * (2 * RADIUS + 1), s * (3 * RADIUS + 2)


_BW, _BH = board_size(S_TABLE)
TABLE_GEO = Geo(S_TABLE, BOARD_X0 + _BW / 2, BOARD_Y0 + _BH / 2)
#: The events panel goes below the board, right-aligned with it.
EVENTS_K = (H - 8 - (BOARD_Y0 + _BH + 6)) / EVENTS_H
EVENTS_BOX = (
    BOARD_X0 + _BW - (PX1 - PX0) * EVENTS_K,
    H - 8 - EVENTS_H * EVENTS_K,
    BOARD_X0 + _BW,
    H - 8,
)
assert BOARD_X0 + _BW < COL_X - 6 and EVENTS_K >= 1.1

S_ZOOM = 30.0  # close-up scale for the private picture
ZOOM_MARGIN = 8 * S_ZOOM
_ZW, _ZH = board_size(S_ZOOM)
ZOOM_SIZE = (round(_ZW + 2 * ZOOM_MARGIN), round(_ZH + 2 * ZOOM_MARGIN))
ZOOM_GEO = Geo(S_ZOOM, ZOOM_SIZE[0] / 2, ZOOM_SIZE[1] / 2)


def _dir_angle(d: str) -> float:
    """Screen angle (radians, y down) of a hex direction."""
    v = DIRS[d]
    x = SQ3 * (v[0] + v[1] / 2)
    y = 1.5 * v[1]
    return math.atan2(y, x)


# ----------------------------------------------------------------------------- static board


def _draw_board(img: Image.Image, geo: Geo) -> None:
    d = ImageDraw.Draw(img)
    s = geo.s
    rng = random.Random(17)
    # the disc's rim
    rim = [
        (
            geo.ox + (RADIUS + 0.62) * s * SQ3 * math.cos(math.radians(60 * i)),
            geo.oy + (RADIUS + 0.62) * s * SQ3 * math.sin(math.radians(60 * i)),
        )
        for i in range(6)
    ]
    d.polygon(rim, fill=(14, 18, 40), outline=(58, 68, 120), width=max(2, round(s / 8)))
    lw = 1 if s < 24 else 2
    for h in ALL_HEXES:
        k = dist(h)
        if k == 0:
            continue
        if k in DANGER_RINGS:
            fill, edge = SUN_RING_RGB, SUN_RING_EDGE
        elif k in BELT_RINGS:
            fill, edge = BELT_RGB, BELT_EDGE
        else:
            fill, edge = CELL_RGB, CELL_EDGE
        d.polygon(geo.corners(h, 0.97), fill=fill, outline=edge, width=lw)
        if k in BELT_RINGS:
            cx, cy = geo.px(h)
            for _ in range(3):
                ang = rng.uniform(0, 2 * math.pi)
                rad = rng.uniform(0.1, 0.5) * s
                rr = rng.uniform(0.07, 0.14) * s
                x, y = cx + rad * math.cos(ang), cy + rad * math.sin(ang)
                d.ellipse((x - rr, y - rr * 0.8, x + rr, y + rr * 0.8), fill=ROCK_RGB)
    # orbits: a line through the spaces, then a dot on every space
    for b in BODIES:
        pts = [geo.px(h) for h in ORBITS[b]]
        col = kit.blend(BODY_RGB[b], CELL_RGB, 0.55)
        if BODY_KIND[b] == "comet":
            _dashed(d, [*pts, pts[0]], col, max(2, round(s / 8)), s * 0.45, s * 0.3)
        else:
            d.line([*pts, pts[0]], fill=col, width=max(2, round(s / 8)), joint="curve")
    for b in BODIES:
        col = kit.blend(BODY_RGB[b], CELL_RGB, 0.2)
        rr = s * 0.2
        for h in ORBITS[b]:
            x, y = geo.px(h)
            d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=col, outline=(0, 0, 0))
    # the Sun, with a soft glow
    sx, sy = geo.px((0, 0))
    for k in range(8, 0, -1):
        rr = s * (1.05 + 0.09 * k)
        col = kit.blend(SUN_RGB, SUN_RING_RGB, 0.45 + 0.06 * k)
        d.ellipse((sx - rr, sy - rr, sx + rr, sy + rr), fill=col)
    rr = s * 1.05
    d.ellipse((sx - rr, sy - rr, sx + rr, sy + rr), fill=SUN_RGB, outline=(255, 150, 40), width=2)
    rr = s * 0.6
    d.ellipse((sx - rr, sy - rr, sx + rr, sy + rr), fill=(255, 236, 150))


def _dashed(
    d: ImageDraw.ImageDraw,
    pts: Sequence[tuple[float, float]],
    fill: RGB,
    width: int,
    dash: float,
    gap: float,
) -> None:
    on = True
    left = dash
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg - 1e-6:
            step = min(left, seg - pos)
            if on:
                a = pos / seg
                b = (pos + step) / seg
                d.line(
                    (
                        x0 + (x1 - x0) * a,
                        y0 + (y1 - y0) * a,
                        x0 + (x1 - x0) * b,
                        y0 + (y1 - y0) * b,
                    ),
                    fill=fill,
                    width=width,
                )
            pos += step
            left -= step
            if left <= 1e-6:
                on = not on
                left = dash if on else gap


def _board_layer(size: tuple[int, int], geo: Geo, seed: int) -> Image.Image:
    img = kit.star_field(size, seed=seed)
    _draw_board(img, geo)
    return img
