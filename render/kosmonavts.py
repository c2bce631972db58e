"""Board pictures for Kosmonavts.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (``view["private"]`` is dropped first
  and never read).
* :func:`render_private` — PNG bytes of one seat's secrets: while an order is being composed,
  a close-up of the ship with the path, the projected end hex and its danger, fuel and shields
  after the order; and the seat's missions. ``None`` when the view holds nothing private.

The hex board (sky, hex grid, Sun, danger ring, asteroid belt, every orbit with its spaces,
the comet path) is drawn once at import, at two scales (table and close-up), and copied for
every picture; only bodies, ships and the side panel are drawn per render.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import BG, FAINT, GOLD, GREEN, INK, MUTED, PANEL, PANEL_EDGE, RED, RGB, font, text
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


# ----------------------------------------------------------------------------- glyphs


def shield_icon(d: ImageDraw.ImageDraw, x: float, y: float, sz: float, full: bool) -> None:
    """A heater shield, top-left (x, y), ``sz`` pixels tall."""
    w = sz * 0.84
    pts = [
        (x, y + sz * 0.12),
        (x + w / 2, y),
        (x + w, y + sz * 0.12),
        (x + w, y + sz * 0.5),
        (x + w / 2, y + sz),
        (x, y + sz * 0.5),
    ]
    if full:
        d.polygon(pts, fill=SHIELD_RGB, outline=(0, 0, 0), width=1)
        d.line((x + w / 2, y + sz * 0.14, x + w / 2, y + sz * 0.82), fill=(230, 244, 255), width=2)
    else:
        d.polygon(pts, fill=EMPTY_RGB, outline=(86, 98, 150), width=1)


def cube(d: ImageDraw.ImageDraw, x: float, y: float, sz: float, col: RGB | None) -> None:
    if col is None:
        d.rounded_rectangle(
            (x, y, x + sz, y + sz), radius=3, fill=EMPTY_RGB, outline=(70, 80, 130), width=1
        )
        return
    d.rounded_rectangle((x, y, x + sz, y + sz), radius=3, fill=col, outline=(0, 0, 0), width=1)
    hi = kit.blend(col, (255, 255, 255), 0.45)
    d.line((x + 3, y + 3, x + sz - 4, y + 3), fill=hi, width=2)


def tank(
    d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, fuel: int, hyper: int
) -> None:
    """Ten tank slots: yellow fuel, then red hyperfuel, then empty slots."""
    n = 10
    gap = 2
    cw = (w - gap * (n - 1)) / n
    fuel = max(0, fuel)
    hyper = max(0, hyper)
    for i in range(n):
        x0 = x + i * (cw + gap)
        if i < fuel:
            col: RGB | None = FUEL_RGB
        elif i < fuel + hyper:
            col = HYPER_RGB
        else:
            col = None
        if col is None:
            d.rounded_rectangle(
                (x0, y, x0 + cw, y + h), radius=3, fill=EMPTY_RGB, outline=(66, 76, 124)
            )
        else:
            d.rounded_rectangle((x0, y, x0 + cw, y + h), radius=3, fill=col, outline=(0, 0, 0))
            d.line((x0 + 3, y + 3, x0 + cw - 4, y + 3), fill=kit.blend(col, INK, 0.5), width=2)
    extra = fuel + hyper - n
    if extra > 0:  # never in a legal state; shown rather than hidden
        text(d, (x + w + 4, y + h / 2), f"+{extra}", font(14), fill=GOLD, anchor="lm")


def body_disc(
    d: ImageDraw.ImageDraw,
    c: tuple[float, float],
    r: float,
    body: str,
    label: str | None = None,
    dim: bool = False,
) -> None:
    """A planet or the comet, with its look (Saturn's ring, Jupiter's bands, the comet's tail
    pointing away from the Sun at (sun_x, sun_y) is drawn by the caller)."""
    cx, cy = c
    col = BODY_RGB.get(body, MUTED)
    if dim:
        col = kit.blend(col, BG, 0.5)
    dark = kit.blend(col, (0, 0, 0), 0.35)
    if body == "saturn":
        d.ellipse(
            (cx - r * 1.7, cy - r * 0.55, cx + r * 1.7, cy + r * 0.55), outline=dark, width=3
        )
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=2)
    if body == "jupiter":
        for k in (-0.35, 0.3):
            half = r * math.sqrt(max(0.0, 1 - k * k)) - 2
            d.line(
                (cx - half, cy + k * r, cx + half, cy + k * r),
                fill=dark,
                width=max(2, round(r / 6)),
            )
    elif body == "earth":
        g = kit.blend((70, 170, 90), BG, 0.5 if dim else 0)
        d.ellipse((cx - r * 0.6, cy - r * 0.55, cx - r * 0.05, cy + r * 0.05), fill=g)
        d.ellipse((cx + r * 0.1, cy + r * 0.1, cx + r * 0.6, cy + r * 0.6), fill=g)
    elif body == "mars":
        d.ellipse((cx - r * 0.3, cy - r * 0.9, cx + r * 0.3, cy - r * 0.6), fill=(250, 236, 226))
    elif body == "saturn":
        d.arc(
            (cx - r * 1.7, cy - r * 0.55, cx + r * 1.7, cy + r * 0.55),
            start=10,
            end=170,
            fill=dark,
            width=3,
        )
    # a highlight
    hr = r * 0.28
    hx, hy = cx - r * 0.38, cy - r * 0.38
    d.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=kit.blend(col, INK, 0.45))
    if label:
        f = font(max(_least(d), round(r * 1.15)))
        text(d, (cx, cy + 1), label, f, fill=kit.DARK, anchor="mm", outline=2, outline_fill=col)


def comet_tail(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, sun: tuple[float, float]):
    cx, cy = c
    ang = math.atan2(cy - sun[1], cx - sun[0])
    L = r * 3.2
    for k, t in ((1.0, 0.75), (0.7, 0.45)):
        tip = (cx + math.cos(ang) * L * k, cy + math.sin(ang) * L * k)
        side = r * 0.9 * k
        p1 = (cx + math.cos(ang + math.pi / 2) * side, cy + math.sin(ang + math.pi / 2) * side)
        p2 = (cx + math.cos(ang - math.pi / 2) * side, cy + math.sin(ang - math.pi / 2) * side)
        d.polygon([p1, tip, p2], fill=kit.blend(BODY_RGB["halley"], CELL_RGB, t))


def ship_token(
    d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, seat: int, halo: bool = True
) -> None:
    """A ship: a dark badge with a light rim (so it never reads as a planet) holding the seat's
    shape in the seat's colour. ``halo=False`` (a landed ship) uses a thinner, dimmer rim."""
    pc = kit.PALETTE[seat % len(kit.PALETTE)]
    cx, cy = c
    rim = INK if halo else kit.blend(INK, BG, 0.3)
    d.ellipse((cx - r + 1, cy - r + 2, cx + r + 1, cy + r + 2), fill=(0, 0, 0))
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=(8, 10, 24),
        outline=rim,
        width=max(2, round(r / (5 if halo else 7))),
    )
    kit.shape(d, c, r * 0.56, pc.shape, fill=pc.rgb, outline=None)


def instructor_badge(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float) -> None:
    cx, cy = c
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=(0, 0, 0), width=2)
    pts = []
    for k in range(10):  # a five-pointed star, drawn (not a glyph)
        rr = r * (0.72 if k % 2 == 0 else 0.3)
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + 1 + rr * math.sin(a)))
    d.polygon(pts, fill=kit.DARK)


def arrow(
    d: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    fill: RGB,
    width: int,
    head: float,
    dashed: bool = False,
) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    tip = b
    base = (b[0] - math.cos(ang) * head, b[1] - math.sin(ang) * head)
    if dashed:
        _dashed(d, [a, base], fill, width, head * 0.8, head * 0.5)
    else:
        d.line((a, base), fill=fill, width=width)
    p1 = (
        base[0] + math.cos(ang + math.pi / 2) * head * 0.55,
        base[1] + math.sin(ang + math.pi / 2) * head * 0.55,
    )
    p2 = (
        base[0] + math.cos(ang - math.pi / 2) * head * 0.55,
        base[1] + math.sin(ang - math.pi / 2) * head * 0.55,
    )
    d.polygon([tip, p1, p2], fill=fill)


def rose(
    d: ImageDraw.ImageDraw,
    c: tuple[float, float],
    r: float,
    units: dict[str, int],
    seat: int,
    center: str | None = None,
    center_rgb: RGB | None = None,
) -> None:
    """A compass rose: a small pointy-top hexagon with one arm per direction; thrust units
    are pips along the arm (a number past four). ``center`` is written in the middle."""
    cx, cy = c
    hexr = r * 0.36
    pc = kit.seat_color(seat)
    for dname in DIR_IDS:
        ang = _dir_angle(dname)
        n = int(units.get(dname) or 0) if isinstance(units, dict) else 0
        x0 = cx + math.cos(ang) * hexr * 0.87
        y0 = cy + math.sin(ang) * hexr * 0.87
        x1 = cx + math.cos(ang) * r
        y1 = cy + math.sin(ang) * r
        d.line((x0, y0, x1, y1), fill=(66, 76, 124) if n == 0 else kit.blend(pc, BG, 0.3), width=3)
        if n <= 0:
            continue
        if n <= 4:
            step = (r - hexr) / 4.3
            pr = max(3.0, step * 0.42)
            for k in range(n):
                dd = hexr + step * (k + 0.85)
                px = cx + math.cos(ang) * dd
                py = cy + math.sin(ang) * dd
                d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=FUEL_RGB, outline=(0, 0, 0))
        else:
            dd = hexr + (r - hexr) * 0.62
            px = cx + math.cos(ang) * dd
            py = cy + math.sin(ang) * dd
            pr = max(8.0, (r - hexr) * 0.3)
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=FUEL_RGB, outline=(0, 0, 0))
            text(
                d,
                (px, py + 1),
                str(n),
                font(max(_least(d), round(pr * 1.3)), "cond"),
                fill=kit.DARK,
                anchor="mm",
            )
    pts = [
        (
            cx + hexr * math.cos(math.radians(60 * i - 30)),
            cy + hexr * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]
    d.polygon(pts, fill=center_rgb or PANEL, outline=pc, width=2)
    if center:
        ink = kit.DARK if center_rgb else INK
        text(d, (cx, cy + 1), center, font(max(10, round(hexr * 1.0))), fill=ink, anchor="mm")


# ----------------------------------------------------------------------------- helpers

t = i18n.t


_lang = kit.lang_or_default
_name = kit.player_name


_is_int = kit.is_int


_seat_ok = kit.is_seat


def _hex(p: Any) -> Hex | None:
    if isinstance(p, list | tuple) and len(p) == 2 and all(_is_int(v) for v in p):
        return (p[0], p[1])
    return None


def _phase(view: dict) -> str:
    if view.get("over"):
        return "over"
    ph = str(view.get("phase") or "")
    return ph.rsplit(".", 1)[-1] if ph else "setup"


def _body_name(body: str, lang: str) -> str:
    return t(f"kosmonavts.body.{body}", lang)


def _speed(v: Any) -> int:
    h = _hex(v)
    return dist(h) if h else 0


def _players(view: dict, names: Sequence[str]) -> int:
    n = view.get("players")
    if not _is_int(n):
        n = len(view.get("ships") or []) or len(names) or 2
    return max(1, min(int(n), 4))


def _ships(view: dict, n: int) -> list[dict]:
    out: list[dict] = [{} for _ in range(n)]
    for k, sh in enumerate(view.get("ships") or []):
        if not isinstance(sh, dict):
            continue
        seat = sh.get("seat", k)
        if _seat_ok(seat, n):
            out[seat] = sh
    return out


def _ranks(view: dict, ships: list[dict], scores: list[int]) -> list[int]:
    """Final places with the rulebook tie-breaks (R20): VP, (advanced: shields), return
    phase, value-4 markers."""

    def key(k: int) -> tuple[int, ...]:
        sh = ships[k]
        ret = {0: 0, 4: 1, 1: 2, 3: 2}.get(sh.get("returned") or 0, 0)
        marks = kit.dict_of(sh.get("markers"))
        fours = sum(1 for v in marks.values() if v == 4)
        if view.get("rules") == "advanced":
            return (scores[k], int(sh.get("shields") or 0), ret, fours)
        return (scores[k], ret, fours)

    keys = [key(k) for k in range(len(ships))]
    return [1 + sum(1 for o in keys if o > keys[k]) for k in range(len(ships))]


class Boxes:
    """Rectangles already taken on the board, for label placement."""

    def __init__(self) -> None:
        self.items: list[tuple[float, float, float, float]] = []

    def add(self, box: tuple[float, float, float, float]) -> None:
        self.items.append(box)

    def overlap(self, box: tuple[float, float, float, float]) -> float:
        tot = 0.0
        for b in self.items:
            w = min(box[2], b[2]) - max(box[0], b[0])
            h = min(box[3], b[3]) - max(box[1], b[1])
            if w > 0 and h > 0:
                tot += w * h
        return tot


# ----------------------------------------------------------------------------- board layer


def _draw_bodies_and_ships(
    img: Image.Image,
    geo: Geo,
    view: dict,
    n: int,
    lang: str,
    bounds: tuple[float, float, float, float],
    show_next: bool = True,
    show_drift: bool = True,
    avoid: Sequence[tuple[float, float, float, float]] = (),
) -> None:
    d = ImageDraw.Draw(img)
    s = geo.s
    bodies = kit.dict_of(view.get("bodies"))
    ships = _ships(view, n)
    over = bool(view.get("over"))
    sun = geo.px((0, 0))
    taken = Boxes()
    rs = s * 0.95  # sun
    taken.add((sun[0] - rs, sun[1] - rs, sun[0] + rs, sun[1] + rs))
    for box in avoid:
        taken.add(box)

    placed: dict[str, Hex] = {}
    pos: Hex | None
    for b in BODIES:
        info = bodies.get(b)
        pos = _hex(info.get("pos")) if isinstance(info, dict) else None
        if pos is not None:
            placed[b] = pos

    # where each body stops next: a light dashed ring and a thin arrow
    if show_next and not over:
        for b, pos in placed.items():
            nxt = _hex(bodies[b].get("next"))
            if nxt is None or nxt == pos:
                continue
            col = kit.blend(BODY_RGB[b], CELL_RGB, 0.35)
            a, c = geo.px(pos), geo.px(nxt)
            rr = s * 0.62
            ang = math.atan2(c[1] - a[1], c[0] - a[0])
            a2 = (a[0] + math.cos(ang) * s * 0.95, a[1] + math.sin(ang) * s * 0.95)
            c2 = (c[0] - math.cos(ang) * rr * 1.05, c[1] - math.sin(ang) * rr * 1.05)
            if math.hypot(c2[0] - a2[0], c2[1] - a2[1]) > s * 0.5:
                arrow(d, a2, c2, col, max(2, round(s / 9)), s * 0.42)
            taken.add((c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr))
            for k in range(0, 360, 40):
                d.arc(
                    (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
                    k,
                    k + 24,
                    fill=col,
                    width=max(2, round(s / 8)),
                )

    # drift arrows of flying ships (public: the roses are public)
    if show_drift and not over:
        for seat, sh in enumerate(ships):
            pos = _hex(sh.get("pos"))
            vel = _hex(sh.get("velocity"))
            if pos is None or vel is None or vel == (0, 0) or sh.get("landed"):
                continue
            end = (pos[0] + vel[0], pos[1] + vel[1])
            col = kit.blend(kit.seat_color(seat), CELL_RGB, 0.3)
            a, c = geo.px(pos), geo.px(end)
            arrow(d, a, c, col, max(2, round(s / 8)), s * 0.55, dashed=True)
            rr = s * 0.32
            d.ellipse(
                (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
                outline=col,
                width=max(2, round(s / 9)),
            )

    # bodies (those on the picture: a close-up shows only part of the board)
    rb = s * 0.9

    def shown(c: tuple[float, float]) -> bool:
        return (
            c[0] + rb >= bounds[0]
            and c[0] - rb <= bounds[2]
            and c[1] + rb >= bounds[1]
            and c[1] - rb <= bounds[3]
        )

    for b, pos in placed.items():
        info = bodies[b]
        c = geo.px(pos)
        if not shown(c):
            continue
        if BODY_KIND.get(b) == "comet":
            comet_tail(d, c, rb * 0.8, sun)
        marks = info.get("markers") or []
        label = None
        if b != "earth" and not info.get("removed") and marks and _is_int(marks[0]):
            label = str(marks[0])
        body_disc(
            d, c, rb * (0.8 if b == "halley" else 1.0), b, label, dim=bool(info.get("removed"))
        )
        taken.add((c[0] - rb, c[1] - rb, c[0] + rb, c[1] + rb))

    # ships: docked round their body, or on their hex
    groups: dict[Hex, list[int]] = {}
    for seat, sh in enumerate(ships):
        pos = _hex(sh.get("pos"))
        if pos is not None:
            groups.setdefault(pos, []).append(seat)
    body_at = {pos: b for b, pos in placed.items()}
    for pos, seats in groups.items():
        c = geo.px(pos)
        if pos in body_at:
            r_ship = s * 0.55
            ring = rb + r_ship * 0.5
            for k, seat in enumerate(seats):
                ang = math.radians(-45 - 90 * k) if k < 4 else math.radians(-45 - 90 * k + 45)
                p = (c[0] + math.cos(ang) * ring, c[1] + math.sin(ang) * ring)
                landed = bool(ships[seat].get("landed"))
                ship_token(d, p, r_ship, seat, halo=not landed)
                taken.add((p[0] - r_ship, p[1] - r_ship, p[0] + r_ship, p[1] + r_ship))
        else:
            r_ship = s * 0.75 if len(seats) == 1 else s * 0.56
            offs = [(0.0, 0.0)]
            if len(seats) == 2:
                offs = [(-0.55, 0.0), (0.55, 0.0)]
            elif len(seats) == 3:
                offs = [(0.0, -0.5), (-0.55, 0.42), (0.55, 0.42)]
            elif len(seats) >= 4:
                offs = [(-0.55, -0.5), (0.55, -0.5), (-0.55, 0.5), (0.55, 0.5)]
            for k, seat in enumerate(seats):
                ox, oy = offs[k % len(offs)]
                p = (c[0] + ox * s, c[1] + oy * s)
                ship_token(d, p, r_ship, seat)
                taken.add((p[0] - r_ship, p[1] - r_ship, p[0] + r_ship, p[1] + r_ship))

    # body names, placed where they collide least
    fsize = max(_least(d), round(s * 0.95))
    f = font(fsize)
    order = sorted(placed, key=lambda b: dist(placed[b]))
    for b in order:
        c = geo.px(placed[b])
        if not shown(c):
            continue  # the body is outside the picture (a close-up)
        name = _body_name(b, lang)
        r0 = rb * (0.8 if b == "halley" else 1.0) + 3
        out_right = c[0] >= sun[0]
        cands = [
            ((c[0] + r0, c[1]), "lm"),
            ((c[0] - r0, c[1]), "rm"),
            ((c[0], c[1] + r0), "mt"),
            ((c[0], c[1] - r0), "mb"),
            ((c[0] + r0 * 0.7, c[1] - r0 * 0.7), "lb"),
            ((c[0] + r0 * 0.7, c[1] + r0 * 0.7), "lt"),
            ((c[0] - r0 * 0.7, c[1] - r0 * 0.7), "rb"),
            ((c[0] - r0 * 0.7, c[1] + r0 * 0.7), "rt"),
        ]
        if not out_right:
            cands[0], cands[1] = cands[1], cands[0]
            cands[4], cands[6] = cands[6], cands[4]
            cands[5], cands[7] = cands[7], cands[5]
        far = r0 + s * 0.7  # a little further out, when the close places are all taken
        cands += [
            ((c[0] + (xy[0] - c[0]) * far / r0, c[1] + (xy[1] - c[1]) * far / r0), anchor)
            for xy, anchor in cands[:4]
        ]
        best = None
        for k, (xy, anchor) in enumerate(cands):
            box = d.textbbox(xy, name, font=f, anchor=anchor, stroke_width=3)
            cost = taken.overlap(box) + k * 2.0 + (40.0 if k >= 8 else 0.0)
            if (
                box[0] < bounds[0]
                or box[2] > bounds[2]
                or box[1] < bounds[1]
                or box[3] > bounds[3]
            ):
                cost += 1e6
            if best is None or cost < best[0]:
                best = (cost, xy, anchor, box)
        assert best is not None
        _, xy, anchor, box = best
        taken.add(box)
        info = bodies[b]
        col = kit.blend(BODY_RGB[b], INK, 0.35)
        if info.get("removed"):
            col = MUTED
        text(d, xy, name, f, fill=col, anchor=anchor, outline=3, outline_fill=(6, 8, 20))


# ----------------------------------------------------------------------------- table base


def _legend_icon_danger(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    g = Geo(sz * 0.55, x + sz / 2, y + sz / 2)
    d.polygon(g.corners((0, 0)), fill=BELT_RGB, outline=BELT_EDGE)
    d.ellipse((x + sz * 0.3, y + sz * 0.35, x + sz * 0.5, y + sz * 0.52), fill=ROCK_RGB)
    d.ellipse((x + sz * 0.55, y + sz * 0.55, x + sz * 0.7, y + sz * 0.7), fill=ROCK_RGB)


def _legend_icon_orbit(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    col = kit.blend(BODY_RGB["mars"], CELL_RGB, 0.55)
    d.line((x, y + sz / 2, x + sz, y + sz / 2), fill=col, width=3)
    rr = sz * 0.22
    cx, cy = x + sz / 2, y + sz / 2
    d.ellipse(
        (cx - rr, cy - rr, cx + rr, cy + rr),
        fill=kit.blend(BODY_RGB["mars"], CELL_RGB, 0.2),
        outline=(0, 0, 0),
    )


def _legend_icon_next(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    col = kit.blend(BODY_RGB["earth"], CELL_RGB, 0.35)
    rr = sz * 0.42
    cx, cy = x + sz / 2, y + sz / 2
    for k in range(0, 360, 40):
        d.arc((cx - rr, cy - rr, cx + rr, cy + rr), k, k + 24, fill=col, width=2)


def _legend_icon_drift(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    col = kit.blend(kit.seat_color(1), CELL_RGB, 0.3)
    arrow(d, (x, y + sz * 0.75), (x + sz, y + sz * 0.25), col, 2, sz * 0.4, dashed=True)


def _legend_icon_marker(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    body_disc(d, (x + sz / 2, y + sz / 2), sz * 0.48, "mars", "4")


def _legend_icon_instructor(d: ImageDraw.ImageDraw, xy: tuple[float, float], sz: float) -> None:
    x, y = xy
    instructor_badge(d, (x + sz / 2, y + sz / 2), sz * 0.45)


def _draw_compass(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, lang: str) -> None:
    cx, cy = c
    g = Geo(r * 0.3, cx, cy)
    d.polygon(g.corners((0, 0)), fill=PANEL, outline=PANEL_EDGE, width=2)
    f = font(_least(d))
    for dname in DIR_IDS:
        ang = _dir_angle(dname)
        a = (cx + math.cos(ang) * r * 0.3, cy + math.sin(ang) * r * 0.3)
        b = (cx + math.cos(ang) * r * 0.78, cy + math.sin(ang) * r * 0.78)
        arrow(d, a, b, MUTED, 3, r * 0.16)
        lx = cx + math.cos(ang) * r * 1.02
        ly = cy + math.sin(ang) * r * 1.02
        text(
            d,
            (lx, ly),
            t(f"kosmonavts.render.dir.{dname}", lang),
            f,
            fill=INK,
            anchor="mm",
            outline=2,
            outline_fill=BG,
        )


def _build_base(lang: str) -> Image.Image:
    img = _TABLE_LAYER.copy()
    _draw_legend(ImageDraw.Draw(img), lang)
    return img


def _draw_legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """The legend (bottom-left, under the board) and the compass (top-left), big enough to
    read at 400 px wide: drawn once per language, in the static table."""
    f = font(_least(d), "cond")
    pitch = _least(d) + 4
    items = [
        (_legend_icon_danger, t("kosmonavts.render.legend.danger", lang)),
        (_legend_icon_orbit, t("kosmonavts.render.legend.orbit", lang)),
        (_legend_icon_next, t("kosmonavts.render.legend.next", lang)),
        (_legend_icon_drift, t("kosmonavts.render.legend.drift", lang)),
        (_legend_icon_marker, t("kosmonavts.render.legend.marker", lang)),
        (_legend_icon_instructor, t("kosmonavts.render.legend.instructor", lang)),
    ]
    cubes = [(FUEL_RGB, "fuel"), (HYPER_RGB, "hyper"), (None, "shield")]
    y = H - 10 - pitch * (len(items) + len(cubes))
    for ico, label in items:
        ico(d, (14, y + (pitch - 22) / 2), 22)
        text(d, (44, y + pitch / 2), label, f, fill=MUTED, anchor="lm", outline=2, outline_fill=BG)
        y += pitch
    for col, key in cubes:
        label = t(f"kosmonavts.render.legend.{key}", lang)
        if col is None:
            shield_icon(d, 15, y + (pitch - 20) / 2, 20, True)
        else:
            cube(d, 16, y + (pitch - 18) / 2, 18, col)
        text(d, (44, y + pitch / 2), label, f, fill=MUTED, anchor="lm", outline=2, outline_fill=BG)
        y += pitch
    # direction compass, top-left corner of the board
    text(d, (16, BOARD_Y0 + 4), t("kosmonavts.render.directions", lang), f, fill=MUTED)
    _draw_compass(d, (84, BOARD_Y0 + 108), 56, lang)


_TABLE_LAYER = _board_layer((W, H), TABLE_GEO, seed=7)
_ZOOM_LAYER = _board_layer(ZOOM_SIZE, ZOOM_GEO, seed=8)
_base = kit.per_language(_build_base)  # the static table, drawn once per language


def _extra_colours() -> list[RGB]:
    """The colours drawn over the static board, kept exact in the PNG palette."""
    seats = [p.rgb for p in kit.PALETTE]
    out: list[RGB] = [
        INK,
        MUTED,
        FAINT,
        GOLD,
        GREEN,
        RED,
        kit.DARK,
        BG,
        kit.BG2,
        PANEL,
        PANEL_EDGE,
        FUEL_RGB,
        HYPER_RGB,
        SHIELD_RGB,
        EMPTY_RGB,
        (0, 0, 0),
        (8, 10, 24),
        (6, 8, 20),
        (230, 244, 255),
        (66, 76, 124),
        (86, 98, 150),
        (70, 80, 130),
    ]
    out += list(DANGER_RGB.values()) + list(PHASE_RGB.values())
    for c in seats:
        out += [
            c,
            kit.blend(c, BG, 0.55),
            kit.blend(c, kit.BG2, 0.9),
            kit.blend(c, BG, 0.3),
            kit.blend(c, CELL_RGB, 0.3),
        ]
    for c in BODY_RGB.values():
        out += [
            c,
            kit.blend(c, INK, 0.35),
            kit.blend(c, INK, 0.45),
            kit.blend(c, BG, 0.85),
            kit.blend(c, BG, 0.4),
            kit.blend(c, (0, 0, 0), 0.35),
            kit.blend(c, CELL_RGB, 0.35),
        ]
    for c in KIND_RGB.values():
        out += [c, kit.blend(c, kit.BG2, 0.82), kit.blend(c, kit.BG2, 0.4)]
    for c in (GREEN, GOLD, RED, MUTED):
        out += [kit.blend(c, BG, 0.72), kit.blend(c, INK, 0.35)]
    out += [kit.blend(FUEL_RGB, INK, 0.5), kit.blend(HYPER_RGB, INK, 0.5)]
    return out


_PALETTE = kit.palette_for(_base(i18n.DEFAULT), _extra_colours(), colors=256)


# ----------------------------------------------------------------------------- table


def _draw_header(
    d: ImageDraw.ImageDraw,
    view: dict,
    names: Sequence[str],
    lang: str,
    n: int,
    width: float = W,
) -> None:
    """The header band, ``width`` wide: title, round, phase, what is happening, rules."""
    kit.rounded_box(d, (8, 6, width - 8, HEADER_H), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    title = t("kosmonavts.render.title", lang)
    text(d, (24, HEADER_H / 2 + 3), title, font(28), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(28).getlength(t("kosmonavts.render.title", lang)) + 22
    cy = HEADER_H / 2 + 3
    rnd = view.get("round")
    if _is_int(rnd):
        lim = view.get("round_limit")
        s = t("kosmonavts.render.round", lang, n=rnd, limit=lim if _is_int(lim) else "?")
        text(d, (x, cy), s, font(24), fill=INK, anchor="lm", shadow=2)
        x += font(24).getlength(s) + 18
    ph = _phase(view)
    key = "kosmonavts.render.over" if ph == "over" else f"kosmonavts.phase.{ph}"
    label = t(key, lang)
    col = PHASE_RGB.get(ph, MUTED)
    wpx = kit.pill(d, x, 11, HEADER_H - 5, label, font(24), col, pad=13, radius=16)
    x += wpx + 16
    right: float = width - 24
    rules = view.get("rules")
    if rules in ("basic", "advanced"):
        rl = t(f"kosmonavts.render.rules.{rules}", lang)
        text(d, (right, cy), rl, font(17), fill=MUTED, anchor="rm")
        right -= font(17).getlength(rl) + 20
    if ph == "over":
        scores = _scores(view, n)
        ships = _ships(view, n)
        ranks = _ranks(view, ships, scores)
        win = [k for k in range(n) if ranks[k] == 1]
        if len(win) == 1:
            s = t("kosmonavts.render.winner", lang, name=_name(names, win[0], lang))
        else:
            s = t(
                "kosmonavts.render.shared",
                lang,
                names=", ".join(_name(names, k, lang) for k in win),
            )
        end = view.get("end")
        lines = [s]
        if end in ("return", "limit"):
            lines.append(t(f"kosmonavts.render.end.{end}", lang))
        _header_note(d, x, right, width, cy, lines, GOLD, "bold")
        return
    step = view.get("step")
    if isinstance(step, str) and step:
        _header_note(d, x, right, width, cy, [t(step, lang)], MUTED, "book")


def _header_note(
    d: ImageDraw.ImageDraw,
    x: float,
    right: float,
    width: float,
    cy: float,
    parts: list[str],
    col: RGB,
    style: str,
) -> None:
    """What is happening, after the phase: on one line if it fits (over the rules' name if
    need be), else on two, condensed; cut only as a last resort."""
    one = "  ·  ".join(parts)
    for r in (right, width - 24):
        s, f = kit.fit_font(one, r - x, _sizes(d, 20, 18, 17, 16), style)
        if s == one:
            if r != right:  # the rules' name gives way
                d.rounded_rectangle((x - 4, 10, width - 12, HEADER_H - 4), radius=8, fill=kit.BG2)
            text(d, (x, cy), s, f, fill=col, anchor="lm")
            return
    f = font(_least(d), "cond")
    lines = (parts if len(parts) == 2 else kit.wrap(one, f, width - 24 - x, 2))[:2]
    if any(f.getlength(line) > width - 24 - x or line.endswith("…") for line in lines):
        return  # no room even on two lines: the phase and the panels say enough
    d.rounded_rectangle((x - 4, 10, width - 12, HEADER_H - 4), radius=8, fill=kit.BG2)
    for j, line in enumerate(lines):
        dy = (j - (len(lines) - 1) / 2) * (_least(d) + 1)
        text(d, (x, cy + dy), line, f, fill=col, anchor="lm")


def _scores(view: dict, n: int) -> list[int]:
    raw = view.get("scores") or []
    return [int(raw[k]) if k < len(raw) and _is_int(raw[k]) else 0 for k in range(n)]


def _status_chip(view: dict, seat: int, lang: str) -> tuple[str, RGB] | None:
    """What a seat is doing in the current step (never what it decided in secret)."""
    if view.get("over"):
        return None
    waiting = set(s for s in view.get("waiting") or [] if _is_int(s))
    conf = view.get("confirmed")
    if isinstance(conf, list) and seat < len(conf):
        if conf[seat]:
            return t("kosmonavts.render.ready", lang), GREEN
        return t("kosmonavts.render.deciding", lang), GOLD
    chosen = view.get("missions_chosen")
    if isinstance(chosen, list) and seat < len(chosen):
        if chosen[seat]:
            return t("kosmonavts.render.chosen", lang), GREEN
        return t("kosmonavts.render.deciding", lang), GOLD
    landing = view.get("landing")
    if isinstance(landing, dict):
        bodies = landing.get("bodies") or []
        answered = landing.get("answered") or []
        b = bodies[seat] if seat < len(bodies) else None
        if b in BODY_RGB:
            if seat < len(answered) and answered[seat]:
                return t("kosmonavts.render.answered", lang), GREEN
            name = _body_name(b, lang)
            long = t("kosmonavts.render.land_q", lang, body=name)
            return f"{long}\n{t('kosmonavts.render.land_short', lang, body=name)}", GOLD
        return None
    resp = view.get("responses")
    if isinstance(resp, dict):
        asked = resp.get("asked") or []
        answered = resp.get("answered") or []
        if seat < len(asked) and asked[seat]:
            if seat < len(answered) and answered[seat]:
                return t("kosmonavts.render.answered", lang), GREEN
            return t("kosmonavts.render.deciding", lang), GOLD
        return None
    setup = view.get("setup")
    if isinstance(setup, dict) and setup.get("turn") == seat:
        return t("kosmonavts.render.placing", lang), GOLD
    if seat in waiting:
        return t("kosmonavts.render.deciding", lang), GOLD
    return None


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, s: str, col: RGB, maxw: float) -> float:
    """A rounded label; ``s`` may hold alternatives separated by "\n", longest first: the
    first that fits is used."""
    alts = s.split("\n")
    for alt in alts:
        s, f = kit.fit_font(alt, maxw - 14, _sizes(d, 17, 16, 15, 14, 13), "bold")
        if s == alt:
            break
    w = f.getlength(s) + 14
    kit.rounded_box(
        d, (x, y, x + w, y + 26), radius=12, fill=kit.blend(col, BG, 0.72), outline=col, width=2
    )
    text(d, (x + w / 2, y + 13), s, f, fill=kit.blend(col, INK, 0.35), anchor="mm")
    return w


def _marker_chip(
    d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, body: str, value: Any, removed: bool
) -> None:
    cx, cy = c
    col = BODY_RGB[body]
    if _is_int(value) and value > 0:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=2)
        text(
            d,
            (cx, cy + 1),
            str(value),
            font(max(_least(d), round(r * 1.25))),
            fill=kit.DARK,
            anchor="mm",
        )
    else:
        edge = kit.blend(col, BG, 0.4)
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=kit.blend(col, BG, 0.85), outline=edge, width=2
        )
        if removed:
            k = r * 0.5
            d.line((cx - k, cy - k, cx + k, cy + k), fill=edge, width=2)
            d.line((cx - k, cy + k, cx + k, cy - k), fill=edge, width=2)


def _draw_player(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict,
    seat: int,
    names: Sequence[str],
    lang: str,
    n: int,
    ranks: list[int] | None,
) -> None:
    x0, y0, x1, y1 = box
    ship = _ships(view, n)[seat]
    scores = _scores(view, n)
    waiting = seat in set(s for s in view.get("waiting") or [] if _is_int(s))
    over = bool(view.get("over"))
    winner = over and ranks is not None and ranks[seat] == 1
    kit.seat_panel(d, box, seat, highlight=waiting or winner)

    # header row: token, name, instructor, score
    kit.seat_token(d, (x0 + 30, y0 + 25), 13, seat)
    score = str(scores[seat])
    sf = font(34)
    sw = sf.getlength(score)
    text(d, (x1 - 14, y0 + 26), score, sf, fill=INK, anchor="rm", shadow=2)
    vp = t("kosmonavts.render.vp", lang)
    vf = font(_least(d))
    text(d, (x1 - 20 - sw, y0 + 32), vp, vf, fill=MUTED, anchor="rm")
    right = x1 - 28 - sw - vf.getlength(vp)
    is_instr = view.get("instructor") == seat
    if ranks is not None and over:
        badge = (
            t("kosmonavts.render.winner_badge", lang)
            if winner
            else t("kosmonavts.render.place", lang, n=ranks[seat])
        )
        bf = font(max(15, _least(d)))
        bw = bf.getlength(badge) + 14
        kit.rounded_box(
            d,
            (right - bw, y0 + 14, right, y0 + 38),
            radius=10,
            fill=GOLD if winner else PANEL,
            outline=(0, 0, 0) if winner else PANEL_EDGE,
        )
        text(
            d, (right - bw / 2, y0 + 26), badge, bf, fill=kit.DARK if winner else INK, anchor="mm"
        )
        right -= bw + 6
    if is_instr:
        instructor_badge(d, (right - 12, y0 + 26), 12)
        right -= 30
    nm, nf = kit.fit_font(_name(names, seat, lang), right - (x0 + 50), (24, 22, 20, 18, 16))
    text(d, (x0 + 50, y0 + 26), nm, nf, fill=INK, anchor="lm")

    # rows below the header, spread over the card's height
    gap = max(0.0, (y1 - y0 - 176) / 4)
    row_tank = y0 + 50 + gap
    row_shield = row_tank + 28 + gap
    row_marks = row_shield + 46 + gap
    row_status = row_marks + 30 + gap * 0.6

    # rose
    units = kit.dict_of(ship.get("rose"))
    landed = ship.get("landed")
    rc = (x0 + 62, (row_tank + row_status) / 2 + 6)
    if landed in BODY_RGB:
        rose(d, rc, 50, units, seat, center="", center_rgb=BODY_RGB[landed])
    else:
        rose(d, rc, 50, units, seat, center=str(_speed(ship.get("velocity"))))

    # tank, shields, chip, markers, status
    cx0 = x0 + 126
    cw = x1 - 14 - cx0
    fuel = ship.get("fuel")
    hyper = ship.get("hyper")
    tank(d, cx0, row_tank, cw, 20, fuel if _is_int(fuel) else 0, hyper if _is_int(hyper) else 0)
    sh = ship.get("shields")
    sh = sh if _is_int(sh) else 0
    for k in range(3):
        shield_icon(d, cx0 + k * 22, row_shield, 22, k < sh)
    chip = _status_chip(view, seat, lang)
    if chip:
        _chip(d, cx0 + 70, row_shield - 1, chip[0], chip[1], x1 - 6 - (cx0 + 70))

    bodies = kit.dict_of(view.get("bodies"))
    marks = kit.dict_of(ship.get("markers"))
    setup = view.get("setup") if isinstance(view.get("setup"), dict) else None
    hands = setup.get("hands") if setup else None
    step = cw / 9
    r = min(11.5, step / 2 - 1)
    my = row_marks
    if isinstance(hands, list) and seat < len(hands) and isinstance(hands[seat], list):
        hand = [b for b in hands[seat] if b in BODY_RGB]
        label = t("kosmonavts.render.to_place", lang)
        lf = font(max(15, _least(d)), "cond")
        text(d, (cx0, my), label, lf, fill=MUTED, anchor="lm")
        hx = cx0 + lf.getlength(label) + 6 + r
        for b in hand:
            body_disc(d, (hx, my), r, b)
            hx += 2 * r + 3
    else:
        for k, b in enumerate(BODIES):
            info = kit.dict_of(bodies.get(b))
            val = ship.get("earth_marker") if b == "earth" else marks.get(b)
            _marker_chip(d, (cx0 + step * (k + 0.5), my), r, b, val, bool(info.get("removed")))

    # status line, and how many bodies the seat has markers of
    total = sum(
        1 for b in NON_EARTH if not (isinstance(bodies.get(b), dict) and bodies[b].get("removed"))
    )
    got = sum(1 for b in NON_EARTH if kit.int_of(marks.get(b)) > 0)
    count = t("kosmonavts.render.markers", lang, n=got, need=total)
    cf = font(max(15, _least(d)), "cond")
    text(d, (x1 - 14, row_status), count, cf, fill=GOLD if got else MUTED, anchor="rm")
    sw = cw - cf.getlength(count) - 10
    sy = row_status
    disc = landed in BODY_RGB and _hex(ship.get("pos")) is not None and not ship.get("evacuated")
    room = sw - 18 if disc else sw
    for short in (False, True):  # the long status, else its short form
        status, scol = _ship_status(view, ship, lang, short)
        s2, f2 = kit.fit_font(status, room, _sizes(d, 16, 15, 14), "cond")
        if s2 == status:
            break
    if disc and isinstance(landed, str):
        d.ellipse((cx0, sy - 6, cx0 + 12, sy + 6), fill=BODY_RGB[landed], outline=(0, 0, 0))
    text(d, (cx0 + 18 if disc else cx0, sy), s2, f2, fill=scol, anchor="lm")


def _ship_status(view: dict, ship: dict, lang: str, short: bool = False) -> tuple[str, RGB]:
    if not ship or _hex(ship.get("pos")) is None:
        return t("kosmonavts.render.not_placed", lang), FAINT
    landed = ship.get("landed")
    if ship.get("evacuated") and landed in BODY_RGB:
        body = t("kosmonavts.render.halley_short", lang) if landed == "halley" else None
        key = "kosmonavts.render.evacuated" + ("_short" if short else "")
        return t(key, lang, body=body or _body_name(landed, lang)), RED
    if ship.get("returned") and landed == "earth":
        return t("kosmonavts.render.returned", lang), GOLD
    if landed in BODY_RGB:
        body = t("kosmonavts.render.halley_short", lang) if landed == "halley" else None
        key = "kosmonavts.render.landed" + ("_short" if short else "")
        return t(key, lang, body=body or _body_name(landed, lang)), INK
    return t("kosmonavts.render.flying", lang, n=_speed(ship.get("velocity"))), MUTED


def _draw_events(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], view: dict, lang: str
) -> None:
    x0, y0, x1, y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    text(
        d,
        (x0 + 14, y0 + 18),
        t("kosmonavts.render.events", lang),
        font(18),
        fill=MUTED,
        anchor="lm",
    )
    ev = kit.dict_of(view.get("events"))
    deck = kit.int_of(ev.get("deck"))
    disc = kit.int_of(ev.get("discard"))
    s = t("kosmonavts.render.deck", lang, n=deck, m=disc)
    text(d, (x1 - 14, y0 + 18), s, font(max(15, _least(d)), "cond"), fill=MUTED, anchor="rm")
    rows: list[tuple[str, bool]] = []
    active = ev.get("active")
    if isinstance(active, str) and active:
        rows.append((active, True))
    rows += [(c, False) for c in ev.get("face_up") or [] if isinstance(c, str)]
    y = y0 + 38
    rh = (y1 - 10 - y) / 4 if len(rows) > 3 else 36
    if not rows:
        text(
            d,
            (x0 + 14, y + 14),
            t("kosmonavts.render.no_events", lang),
            font(max(16, _least(d))),
            fill=FAINT,
            anchor="lm",
        )
    for cid, is_active in rows[:4]:
        kind = cid.split("-")[0].rstrip("12")
        col = KIND_RGB.get(kind, MUTED)
        rb = (x0 + 10, y, x1 - 10, y + rh - 5)
        kit.rounded_box(
            d,
            rb,
            radius=9,
            fill=kit.blend(col, kit.BG2, 0.82),
            outline=GOLD if is_active else kit.blend(col, kit.BG2, 0.4),
            width=3 if is_active else 2,
        )
        cy = (rb[1] + rb[3]) / 2
        _event_icon(d, (rb[0] + 18, cy), 12, cid, kind)
        lx = rb[0] + 38
        if is_active:
            tag = t("kosmonavts.render.now", lang)
            tf = font(_least(d))
            tw = tf.getlength(tag) + 12
            kit.rounded_box(d, (lx, cy - 10, lx + tw, cy + 10), radius=8, fill=GOLD)
            text(d, (lx + tw / 2, cy), tag, tf, fill=kit.DARK, anchor="mm")
            lx += tw + 8
        name = t(f"kosmonavts.card.{cid}", lang)
        s, f = kit.fit_font(name, rb[2] - 8 - lx, _sizes(d, 18, 17, 16, 15), "bold")
        if s == name:
            text(d, (lx, cy), s, f, fill=INK, anchor="lm")
        else:  # too long for one line: two, condensed, rather than cut
            f = font(_least(d), "cond")
            lines = kit.wrap(name, f, rb[2] - 8 - lx, 2)
            for j, line in enumerate(lines):
                dy = (j - (len(lines) - 1) / 2) * (_least(d) + 1)
                text(d, (lx, cy + dy), line, f, fill=INK, anchor="lm")
        y += rh


def _event_icon(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, cid: str, kind: str):
    cx, cy = c
    col = KIND_RGB.get(kind, MUTED)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=2)
    # the card's name is written beside its icon: the icon only adds its colour, a "+" for a
    # refuel, the 4 of a thrust and the wind's arrow (which the card's name also shows)
    glyph = {"refuel": "+", "thrust": "4"}.get(kind, "")
    if kind == "wind":
        dname = cid.split("-")[-1]
        glyph = ARROW.get(dname, "→")
    if glyph:
        text(
            d,
            (cx, cy + 1),
            glyph,
            font(max(_least(d), round(r * 1.4))),
            fill=kit.DARK,
            anchor="mm",
        )


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    img = _base(lang).copy()
    n = _players(view, names)
    _draw_header(kit.ScaledDraw(img, HEAD_K), view, names, lang, n, W / HEAD_K)
    bounds = (BOARD_X0, BOARD_Y0, BOARD_X0 + _BW, BOARD_Y0 + _BH)
    _draw_bodies_and_ships(img, TABLE_GEO, view, n, lang, bounds)
    ranks = None
    if view.get("over"):
        ships = _ships(view, n)
        ranks = _ranks(view, ships, _scores(view, n))
    # the players' column, in panel units: x from PX0, y = picture y / k; as big as PANEL_K
    # when every panel gets its full height (176 units), else a little smaller
    gap = 8
    k = min(PANEL_K, (H - 8 - BOARD_Y0) / (n * PLAYER_MIN_H + gap * (n - 1)))
    side = kit.ScaledDraw(img, k, (PX0 - (W - 10) / k + (PX1 - PX0), 0))
    top = BOARD_Y0 / k
    bottom = (H - 8) / k
    ch = min(206, (bottom - top - gap * (n - 1)) / n)
    for seat in range(n):
        y = top + seat * (ch + gap)
        _draw_player(side, (PX0, y, PX1, y + ch), view, seat, names, lang, n, ranks)
    ev = kit.ScaledDraw(img, EVENTS_K)
    x0, y0, _, _ = (c / EVENTS_K for c in EVENTS_BOX)
    _draw_events(ev, (x0, y0, x0 + PX1 - PX0, y0 + EVENTS_H), view, lang)
    return img


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is dropped before drawing."""
    public = {k: v for k, v in view.items() if k != "private"}
    lang = _lang(lang)
    with kit.LOCK:
        img = _draw_table(public, names, lang)
    return kit.to_png_palette(img, _PALETTE)


# ----------------------------------------------------------------------------- private


def _has_private(priv: Any) -> TypeGuard[dict]:
    if not isinstance(priv, dict):
        return False
    return bool(priv.get("missions") or priv.get("dealt") or isinstance(priv.get("preview"), dict))


def render_private(view: dict, names: list[str], lang: str) -> bytes | None:
    """PNG bytes of one seat's secrets: the order being composed (a close-up of the ship's
    path and end hex, its danger, fuel and shields after) and the missions. ``None`` when the
    view holds nothing private."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    lang = _lang(lang)
    with kit.LOCK:
        img = _draw_private(view, priv, names, lang)
    return kit.to_png_palette(img, _PALETTE)


PW = 1100
MAP_W, MAP_H = 640, 620
TILE_H = 66  # a mission tile: its name on one or two lines, and whether it is met


def _crop(layer: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """``layer`` cut to ``box``; whatever lies outside the layer is empty sky."""
    x0, y0, x1, y1 = box
    if x0 >= 0 and y0 >= 0 and x1 <= layer.width and y1 <= layer.height:
        return layer.crop(box)
    out = Image.new("RGB", (x1 - x0, y1 - y0), BG)
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(layer.width, x1), min(layer.height, y1)
    if sx1 > sx0 and sy1 > sy0:
        out.paste(layer.crop((sx0, sy0, sx1, sy1)), (sx0 - x0, sy0 - y0))
    return out


def _close_up(view: dict, prev: dict, seat: int, n: int, lang: str) -> Image.Image:
    """The board around the ship's start and end hexes, as large as the path allows."""
    ship = _ships(view, n)[seat] if _seat_ok(seat, n) else {}
    start = _hex(ship.get("pos"))
    path = [h for h in (_hex(p) for p in prev.get("path") or []) if h is not None]
    end = _hex(prev.get("end_hex"))
    pts = [p for p in [start, *path, end] if p is not None] or [(0, 0)]
    # the close-up scale if the whole path fits, else the table's scale
    for layer, geo in ((_ZOOM_LAYER, ZOOM_GEO), (_TABLE_LAYER, TABLE_GEO)):  # noqa: B007
        xy = [geo.px(p) for p in pts]
        bx0 = min(x for x, _ in xy) - 3 * geo.s
        bx1 = max(x for x, _ in xy) + 3 * geo.s
        by0 = min(y for _, y in xy) - 3 * geo.s
        by1 = max(y for _, y in xy) + 3 * geo.s
        if bx1 - bx0 <= MAP_W and by1 - by0 <= MAP_H:
            break
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    ox, oy = round(cx - MAP_W / 2), round(cy - MAP_H / 2)
    img = _crop(layer, (ox, oy, ox + MAP_W, oy + MAP_H))
    g = geo.shifted(-ox, -oy)
    s = g.s
    avoid = []
    for h in (start, end):
        if h is not None:
            c = g.px(h)
            avoid.append((c[0] - s * 1.3, c[1] - s * 1.3, c[0] + s * 1.3, c[1] + s * 1.3))
    _draw_bodies_and_ships(
        img, g, view, n, lang, (0, 0, MAP_W, MAP_H), show_drift=False, avoid=avoid
    )
    d = ImageDraw.Draw(img)
    danger = str(prev.get("danger") or "none")
    col = DANGER_RGB.get(danger, GOLD)
    pc = kit.seat_color(seat)
    action = prev.get("action")
    if action == "fly" and len(path) >= 2:
        line = [g.px(p) for p in path]
        d.line(line, fill=(0, 0, 0), width=max(5, round(s / 3.5)), joint="curve")
        d.line(line, fill=pc, width=max(3, round(s / 6)), joint="curve")
        for p in line[1:-1]:
            rr = max(3.0, s * 0.14)
            d.ellipse((p[0] - rr, p[1] - rr, p[0] + rr, p[1] + rr), fill=pc, outline=(0, 0, 0))
        arrow(d, line[-2], line[-1], pc, max(3, round(s / 6)), s * 0.5)
    elif action == "evac" and start is not None and end is not None:
        col = DANGER_RGB["sun"]
        arrow(d, g.px(start), g.px(end), col, max(3, round(s / 6)), s * 0.5, dashed=True)
    if end is not None and action != "stay":
        c = g.px(end)
        d.polygon(g.corners(end, 0.98), outline=col, width=max(3, round(s / 7)))
        rr = s * 1.25
        d.ellipse(
            (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr), outline=col, width=max(2, round(s / 10))
        )
        if danger in ("sun", "off_board", "danger_no_shield"):
            k = s * 0.55
            w = max(4, round(s / 6))
            d.line((c[0] - k, c[1] - k, c[0] + k, c[1] + k), fill=col, width=w)
            d.line((c[0] - k, c[1] + k, c[0] + k, c[1] - k), fill=col, width=w)
        elif action == "fly" and not (prev.get("lands_on") or prev.get("phase4_body")):
            pk = kit.PALETTE[seat % len(kit.PALETTE)]
            kit.shape(d, c, s * 0.45, pk.shape, fill=kit.blend(pc, BG, 0.45), outline=pc, width=2)
    if start is not None:
        c = g.px(start)
        rr = s * 1.0
        d.ellipse((c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr), outline=pc, width=3)
    d.rectangle((0, 0, MAP_W - 1, MAP_H - 1), outline=PANEL_EDGE, width=2)
    return img


def _close_up_legend(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], seat: int, lang: str
) -> None:
    """What the close-up's marks mean, on one line under it."""
    pc = kit.seat_color(seat) if seat >= 0 else INK

    def path(dr: ImageDraw.ImageDraw, p: tuple[float, float], sz: float) -> None:
        arrow(dr, (p[0], p[1] + sz / 2), (p[0] + sz, p[1] + sz / 2), pc, 3, sz * 0.45)

    def end(dr: ImageDraw.ImageDraw, p: tuple[float, float], sz: float) -> None:
        g = Geo(sz * 0.5, p[0] + sz / 2, p[1] + sz / 2)
        dr.polygon(g.corners((0, 0), 0.98), outline=DANGER_RGB["none"], width=3)

    items = [
        (path, t("kosmonavts.render.private.legend_path", lang)),
        (end, t("kosmonavts.render.private.end", lang)),
        (_legend_icon_next, t("kosmonavts.render.legend.next", lang)),
        (_legend_icon_danger, t("kosmonavts.render.legend.danger", lang)),
    ]
    f = font(_least(d), "cond")
    kit.legend(d, xy, items, f, max_width=PW - 32, icon=20, gap=26)


def _draw_private(view: dict, priv: dict, names: Sequence[str], lang: str) -> Image.Image:
    n = _players(view, names)
    seat = kit.int_of(priv.get("seat"), -1)
    has_seat = _seat_ok(seat, n)
    prev = priv.get("preview") if isinstance(priv.get("preview"), dict) else None
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [m for m in priv.get("dealt") or [] if isinstance(m, dict)]
    kept = {k for k in priv.get("kept") or [] if _is_int(k)}
    tiles = dealt or missions
    top_h = 74
    if prev:
        ph = top_h + MAP_H + 16 + 34  # the close-up, and its legend under it
    else:
        rows = (len(tiles) + 1) // 2 if tiles else 1
        ph = top_h + 56 + rows * (TILE_H + 8) + 16
    img = kit.star_field((PW, ph), seed=9)
    d = ImageDraw.Draw(img)

    # title
    kit.rounded_box(d, (8, 6, PW - 8, 62), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    who = _name(names, seat, lang) if has_seat else ""
    if has_seat:
        kit.seat_token(d, (36, 34), 15, seat)
    title = (
        t("kosmonavts.render.private.title", lang, name=who)
        if who
        else t("kosmonavts.render.private.anon", lang)
    )
    title, tf = kit.fit_font(title, PW - 380, (28, 24, 20))
    text(d, (62 if has_seat else 24, 34), title, tf, fill=INK, anchor="lm", shadow=2)
    rnd = view.get("round")
    if _is_int(rnd):
        lim = view.get("round_limit")
        s = t("kosmonavts.render.round", lang, n=rnd, limit=lim if _is_int(lim) else "?")
        text(d, (PW - 24, 34), s, font(20), fill=MUTED, anchor="rm")

    y = top_h
    if prev is None:
        _draw_missions(d, (16, y, PW - 16, ph - 16), tiles, kept, bool(dealt), lang, 2)
        return img
    img.paste(_close_up(view, prev, seat if has_seat else -1, n, lang), (16, y))
    _close_up_legend(d, (16, y + MAP_H + 8), seat if has_seat else -1, lang)
    x0 = 16 + MAP_W + 16
    mis_h = 52 + max(1, len(tiles)) * (TILE_H + 6)
    _draw_order_panel(
        d,
        (x0, y, PW - 16, y + MAP_H - mis_h - 12),
        view,
        priv,
        prev,
        seat if has_seat else -1,
        n,
        lang,
    )
    _draw_missions(
        d, (x0, y + MAP_H - mis_h, PW - 16, y + MAP_H), tiles, kept, bool(dealt), lang, 1
    )
    return img


def _draw_order_panel(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict,
    priv: dict,
    prev: dict,
    seat: int,
    n: int,
    lang: str,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    ship = _ships(view, n)[seat] if _seat_ok(seat, n) else {}
    x = x0 + 18
    w = x1 - x0 - 36
    y = y0 + 12
    final = priv.get("final")
    if final:
        chip, ccol = t("kosmonavts.render.private.confirmed", lang), GREEN
    else:
        chip, ccol = t("kosmonavts.render.private.draft", lang), GOLD
    cf = font(max(15, _least(d)))
    cw = cf.getlength(chip) + 18
    _chip(d, x + w - cw, y - 2, chip, ccol, cw)
    head, hf = kit.fit_font(
        t("kosmonavts.render.private.order", lang), w - cw - 10, _sizes(d, 20, 19, 18, 17)
    )
    text(d, (x, y), head, hf, fill=GOLD)
    y += 36
    order = [o for o in priv.get("order") or [] if isinstance(o, dict) and o.get("dir") in DIRS]
    limit = ship.get("cube_limit") if _is_int(ship.get("cube_limit")) else 3
    action = prev.get("action")
    if order:
        cx = x
        sz = 34
        for o in order[:8]:
            is_hyper = bool(o.get("hyper"))
            cube(d, cx, y, sz, HYPER_RGB if is_hyper else FUEL_RGB)
            glyph = HYPER_ARROW[o["dir"]] if is_hyper else ARROW[o["dir"]]
            text(d, (cx + sz / 2, y + sz / 2 + 1), glyph, font(22), fill=kit.DARK, anchor="mm")
            cx += sz + 6
        s = t("kosmonavts.render.private.cubes", lang, n=len(order), limit=limit)
        text(d, (x + w, y + sz / 2), s, font(17), fill=MUTED, anchor="rm")
        glyphs = dict.fromkeys(
            HYPER_ARROW[o["dir"]] if o.get("hyper") else ARROW[o["dir"]] for o in order[:8]
        )
        key = "arrows_hyper" if any(o.get("hyper") for o in order[:8]) else "arrows"
        s = t(f"kosmonavts.render.private.{key}", lang, arrows=" ".join(glyphs))
        y += sz + 6
        for line in kit.wrap(s, font(_least(d), "cond"), w, 2):
            text(d, (x, y), line, font(_least(d), "cond"), fill=MUTED)
            y += _least(d) + 4
        y -= sz + 6
    else:
        text(
            d,
            (x, y + 17),
            t("kosmonavts.render.private.no_cubes", lang),
            font(18),
            fill=MUTED,
            anchor="lm",
        )
    y += 44
    if priv.get("converted"):
        text(
            d, (x, y), "✓ " + t("kosmonavts.render.private.converted", lang), font(17), fill=GREEN
        )
        y += 26

    # what happens
    d.line((x, y, x + w, y), fill=PANEL_EDGE, width=1)
    y += 10
    if action == "stay":
        key = "stayfull" if final == "stayfull" else "stay"
        head = t(f"kosmonavts.render.private.{key}", lang)
        hcol = DANGER_RGB["none"]
    elif action == "evac":
        last = ship.get("last_visited")
        where = _body_name(str(last), lang) if last in BODY_RGB else "?"
        head = t("kosmonavts.render.private.evac", lang, body=where)
        hcol = DANGER_RGB["sun"]
    else:
        danger = str(prev.get("danger") or "none")
        head = t(f"kosmonavts.danger.{danger}", lang)
        hcol = DANGER_RGB.get(danger, GOLD)
    hf = font(24)
    for line in kit.wrap(head, hf, w, 2):
        text(d, (x, y), line, hf, fill=hcol, shadow=2)
        y += 32
    for key, body in (
        ("lands_on", prev.get("lands_on")),
        ("phase4", prev.get("phase4_body")),
    ):
        if body in BODY_RGB:
            s = t(f"kosmonavts.render.private.{key}", lang, body=_body_name(body, lang))
            d.ellipse((x, y + 3, x + 16, y + 19), fill=BODY_RGB[body], outline=(0, 0, 0))
            for line in kit.wrap(s, font(17), w - 24, 2):
                text(d, (x + 24, y), line, font(17), fill=INK)
                y += 24
    y += 6

    # after the order
    d.line((x, y, x + w, y), fill=PANEL_EDGE, width=1)
    y += 10
    fuel = kit.int_of(prev.get("fuel"))
    hyper = kit.int_of(prev.get("hyper"))
    text(d, (x, y), t("kosmonavts.render.private.after", lang), font(18), fill=MUTED)
    s = t("kosmonavts.render.private.tank", lang, fuel=fuel, hyper=hyper)
    text(d, (x + w, y + 2), s, font(max(16, _least(d)), "cond"), fill=INK, anchor="ra")
    y += 30
    tank(d, x, y, w, 28, fuel, hyper)
    y += 40
    sh = kit.int_of(prev.get("shields_after"))
    for k in range(3):
        shield_icon(d, x + k * 30, y, 28, k < sh)
    text(
        d,
        (x + 96, y + 14),
        t("kosmonavts.render.private.shields", lang),
        font(max(16, _least(d))),
        fill=INK,
        anchor="lm",
    )
    spd = _speed(prev.get("velocity"))
    text(
        d,
        (x + w, y + 14),
        t("kosmonavts.render.private.speed", lang, n=spd),
        font(18),
        fill=INK,
        anchor="rm",
    )


def _draw_missions(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    tiles: list[dict],
    kept: set[int],
    choosing: bool,
    lang: str,
    cols: int,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    head = "kosmonavts.render.private.choose" if choosing else "kosmonavts.render.private.missions"
    hs, hf = kit.fit_font(t(head, lang), x1 - x0 - 36, (20, 18, 16))
    text(d, (x0 + 18, y0 + 12), hs, hf, fill=GOLD)
    if not tiles:
        text(
            d, (x0 + 18, y0 + 52), t("kosmonavts.render.private.none", lang), font(18), fill=FAINT
        )
        return
    gap = 12
    tw = (x1 - x0 - 36 - gap * (cols - 1)) / cols
    for k, m in enumerate(tiles):
        col_i, row = k % cols, k // cols
        tx = x0 + 18 + col_i * (tw + gap)
        ty = y0 + 44 + row * (TILE_H + (8 if cols > 1 else 6))
        body = m.get("body")
        done = m.get("done_now")
        is_kept = choosing and k in kept
        if is_kept or (not choosing and done):
            edge, fill = GREEN, (30, 66, 44)
        else:
            edge, fill = PANEL_EDGE, PANEL
        kit.rounded_box(
            d, (tx, ty, tx + tw, ty + TILE_H), radius=10, fill=fill, outline=edge, width=2
        )
        if body in BODY_RGB:
            body_disc(d, (tx + 24, ty + TILE_H / 2), 12, body)
        name = m.get("name")
        label = t(name, lang) if isinstance(name, str) and name else str(m.get("id", "?"))
        if choosing:
            status = t("kosmonavts.render.private.kept", lang) if is_kept else ""
            scol = GREEN
        else:
            status = t(f"kosmonavts.render.private.{'done' if done else 'todo'}", lang)
            scol = GREEN if done else MUTED
        least = _least(d)
        f = font(max(18, least))
        lines = kit.wrap(label, f, tw - 58, 1)
        if lines != [label]:  # too long for one line: two, condensed (the points stay)
            f = font(least, "cond")
            lines = kit.wrap(label, f, tw - 58, 2)
        rows = [(line, f, INK) for line in lines]
        if status:
            rows.append((status, font(least, "cond"), scol))
        pitch = least + 3
        ly = ty + TILE_H / 2 - pitch * (len(rows) - 1) / 2
        for line, lf, lcol in rows:
            text(d, (tx + 48, ly), line, lf, fill=lcol, anchor="lm")
            ly += pitch


#: Every mark (a drawing helper of this module) a picture can show, with the i18n keys of
#: the words that explain it on the same picture (any one will do; ``{name}`` fields are
#: the helper's arguments). tests/render/test_kosmonavts_marks.py draws pictures and checks
#: it. A ship (``ship_token``) is its player's shape and colour, named in that player's panel.
MARKS: dict[str, tuple[str, ...]] = {
    "shield_icon": ("kosmonavts.render.legend.shield", "kosmonavts.render.private.shields"),
    "cube": (
        "kosmonavts.render.legend.fuel",
        "kosmonavts.render.private.arrows",
        "kosmonavts.render.private.arrows_hyper",
    ),
    "tank": ("kosmonavts.render.legend.fuel", "kosmonavts.render.private.tank"),
    "body_disc": ("kosmonavts.body.{body}", "kosmonavts.render.to_place"),
    "comet_tail": ("kosmonavts.body.halley",),
    "instructor_badge": ("kosmonavts.render.legend.instructor",),
    "arrow": (
        "kosmonavts.render.legend.drift",
        "kosmonavts.render.directions",
        "kosmonavts.render.private.legend_path",
    ),
    "rose": (
        "kosmonavts.render.flying",
        "kosmonavts.render.landed",
        "kosmonavts.render.returned",
        "kosmonavts.render.evacuated",
        "kosmonavts.render.landed_short",
        "kosmonavts.render.evacuated_short",
        "kosmonavts.render.not_placed",
    ),
    "_marker_chip": ("kosmonavts.render.legend.marker",),
    "_event_icon": ("kosmonavts.card.{cid}",),
    "_legend_icon_danger": ("kosmonavts.render.legend.danger",),
    "_legend_icon_orbit": ("kosmonavts.render.legend.orbit",),
    "_legend_icon_next": ("kosmonavts.render.legend.next",),
    "_legend_icon_drift": ("kosmonavts.render.legend.drift",),
    "_legend_icon_marker": ("kosmonavts.render.legend.marker",),
    "_legend_icon_instructor": ("kosmonavts.render.legend.instructor",),
}
