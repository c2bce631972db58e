"""Kosmonavts pictures: the marks (shields, fuel, bodies, ships' roses, arrows) and the legend's
icons."""

from __future__ import annotations

import math

from PIL import ImageDraw

from render import kit
from render.kit import BG, GOLD, INK, MUTED, PANEL, RGB, font, text
from render.kosmonavts.geometry import (
    BELT_EDGE,
    BELT_RGB,
    BODY_RGB,
    CELL_RGB,
    DIR_IDS,
    EMPTY_RGB,
    FUEL_RGB,
    HYPER_RGB,
    ROCK_RGB,
    SHIELD_RGB,
    Geo,
    _dashed,
    _dir_angle,
    _least,
)

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
