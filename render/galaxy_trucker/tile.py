"""Galaxy Trucker pictures: one tile (its tubes, component, crew, charges, goods)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render import kit
from render.galaxy_trucker.marks import _mark
from render.galaxy_trucker.style import (
    ALIEN,
    BARREL,
    FLAME,
    GOODS,
    HUMAN,
    KIND_FILL,
    SHIELD_ARC,
    SLOT,
    SLOT_EDGE,
    TILE_EDGE,
    TUBE,
)
from render.kit import GREEN, INK, RGB
from rules.galaxy_trucker import tiles as gt

# --------------------------------------------------------------------------- one tile


def _tubes(d: ImageDraw.ImageDraw, x: float, y: float, s: float, direction: int, kind: str):
    """The connector tubes on one side of a tile at (x, y) of size s."""
    n = {"1": 1, "2": 2, "U": 3}.get(kind, 0)
    if not n:
        return
    length, width = s * 0.13, max(2.0, s * 0.075)
    spread = s * 0.2
    offs = [0.0] if n == 1 else [-spread / 2, spread / 2] if n == 2 else [-spread, 0.0, spread]
    cx, cy = x + s / 2, y + s / 2
    for o in offs:
        if direction == gt.FRONT:
            box = (cx + o - width / 2, y, cx + o + width / 2, y + length)
        elif direction == gt.REAR:
            box = (cx + o - width / 2, y + s - length, cx + o + width / 2, y + s)
        elif direction == gt.LEFT:
            box = (x, cy + o - width / 2, x + length, cy + o + width / 2)
        else:
            box = (x + s - length, cy + o - width / 2, x + s, cy + o + width / 2)
        d.rectangle(box, fill=TUBE, outline=TILE_EDGE)


def _dir_vec(direction: int) -> tuple[float, float]:
    dr, dc = gt.STEP[direction % 4]
    return float(dc), float(dr)


def _pointer(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    direction: int,
    count: int,
    engine: bool,
):
    """An engine's nozzle(s) or a cannon's barrel(s) pointing towards ``direction``."""
    vx, vy = _dir_vec(direction)
    px, py = -vy, vx  # perpendicular
    offs = [0.0] if count == 1 else [-s * 0.14, s * 0.14]
    for o in offs:
        bx, by = cx + px * o, cy + py * o
        if engine:
            # a trapezoid nozzle widening towards the exhaust, a flame beyond it
            a, b = s * 0.06, s * 0.36
            w0, w1 = s * 0.06, s * 0.12
            pts = [
                (bx + vx * a + px * w0, by + vy * a + py * w0),
                (bx + vx * b + px * w1, by + vy * b + py * w1),
                (bx + vx * b - px * w1, by + vy * b - py * w1),
                (bx + vx * a - px * w0, by + vy * a - py * w0),
            ]
            d.polygon(pts, fill=(200, 204, 214), outline=TILE_EDGE)
            f0, f1 = s * 0.37, s * 0.47
            flame = [
                (bx + vx * f0 + px * w1 * 0.8, by + vy * f0 + py * w1 * 0.8),
                (bx + vx * f1, by + vy * f1),
                (bx + vx * f0 - px * w1 * 0.8, by + vy * f0 - py * w1 * 0.8),
            ]
            d.polygon(flame, fill=FLAME)
        else:
            w = max(2.0, s * 0.05)
            x0, y0 = bx, by
            x1, y1 = bx + vx * s * 0.46, by + vy * s * 0.46
            d.line((x0, y0, x1, y1), fill=BARREL, width=round(2 * w))
            d.ellipse((x1 - w * 1.2, y1 - w * 1.2, x1 + w * 1.2, y1 + w * 1.2), fill=BARREL)
    r = s * 0.14
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(60, 64, 80), outline=TILE_EDGE)


def _pips(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    cap: int,
    full: Sequence[RGB | None],
    square: bool,
):
    """``cap`` slots in a row (two rows past 3), the first ones filled with ``full``."""
    cap = max(cap, len(full))
    if cap <= 0:
        return
    per_row = cap if cap <= 3 else math.ceil(cap / 2)
    rows = math.ceil(cap / per_row)
    size = s * (0.2 if cap <= 2 else 0.17)
    gap = size * 0.3
    tw = per_row * size + (per_row - 1) * gap
    th = rows * size + (rows - 1) * gap
    for i in range(cap):
        r, c = divmod(i, per_row)
        x = cx - tw / 2 + c * (size + gap)
        y = cy - th / 2 + r * (size + gap)
        col = full[i] if i < len(full) else None
        box = (x, y, x + size, y + size)
        if square:
            d.rectangle(box, fill=col or SLOT, outline=TILE_EDGE if col else SLOT_EDGE, width=2)
        else:
            d.ellipse(box, fill=col or SLOT, outline=TILE_EDGE if col else SLOT_EDGE, width=2)


def _tile_marks(kind: str, sides: str, extra: dict[str, Any]) -> None:
    """The marks a tile draws: its kind, its connectors and what it carries."""
    _mark(kind if kind in KIND_FILL else "structural")
    if any(c in "12U" for c in sides):
        _mark("connector")
    if kind in ("cabin", "starting_cabin"):
        if extra.get("alien") in ALIEN:
            _mark("alien")
        elif kit.int_of(extra.get("crew"), 0) > 0:
            _mark("human")
    elif kind == "battery":
        _mark("charge")
    elif kind in ("hold", "red_hold") and extra.get("goods"):
        _mark("goods")


def draw_tile(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    s: float,
    t: dict[str, Any],
    extra: dict[str, Any] | None = None,
    seat: int | None = None,
    record: bool = True,
) -> None:
    """One tile at (x, y), ``s`` pixels wide. ``t`` is a tile of the view (id, kind, rot,
    sides); ``extra`` what is aboard (crew, alien, batteries, goods) when known. ``record``
    (not for a legend's own icons): the marks it draws are noted for the legend."""
    kind = str(t.get("kind", "structural"))
    rot = kit.int_of(t.get("rot")) % 4
    sides = str(t.get("sides", "0000")) + "0000"
    tid = kit.int_of(t.get("id"), -1)
    extra = extra or {}
    if record:
        _tile_marks(kind, sides[:4], extra)
    fill = KIND_FILL.get(kind, (98, 102, 116))
    if kind == "starting_cabin" and seat is not None:
        fill = kit.blend(kit.seat_color(seat), (40, 40, 60), 0.25)
    inset = s * 0.1
    d.rounded_rectangle(
        (x + inset, y + inset, x + s - inset, y + s - inset),
        radius=s * 0.08,
        fill=fill,
        outline=TILE_EDGE,
        width=max(1, round(s / 30)),
    )
    for direction in range(4):
        _tubes(d, x, y, s, direction, sides[direction])
    cx, cy = x + s / 2, y + s / 2
    if kind in ("engine", "engine2", "cannon", "cannon2"):
        facing = gt.facing(tid, rot) if tid in gt.tiles() else None
        if facing is None:
            facing = gt.REAR if kind.startswith("engine") else gt.FRONT
        _pointer(d, cx, cy, s, facing, 2 if kind.endswith("2") else 1, kind.startswith("engine"))
    elif kind in ("cabin", "starting_cabin"):
        alien = extra.get("alien")
        if alien in ALIEN:
            r = s * 0.2
            d.ellipse(
                (cx - r, cy - r, cx + r, cy + r), fill=ALIEN[alien], outline=TILE_EDGE, width=2
            )
            e = r * 0.28
            for dx in (-r * 0.38, r * 0.38):
                d.ellipse(
                    (cx + dx - e, cy - e * 1.3, cx + dx + e, cy + e * 0.5), fill=(20, 20, 30)
                )
        else:
            crew = kit.int_of(extra.get("crew"), 0)
            _pips(d, cx, cy, s, 2, [HUMAN] * min(crew, 2), square=False)
    elif kind == "battery":
        cap = gt.tile(tid).capacity if tid in gt.tiles() else 2
        charges = extra.get("batteries")
        n = cap if charges is None else kit.int_of(charges)
        _pips(d, cx, cy, s, cap, [GREEN] * n, square=False)
        # a battery's terminal
        d.rectangle((cx - s * 0.05, y + s * 0.16, cx + s * 0.05, y + s * 0.2), fill=TUBE)
    elif kind in ("hold", "red_hold"):
        cap = gt.tile(tid).capacity if tid in gt.tiles() else 2
        goods = extra.get("goods") or []
        cols = [GOODS.get(str(g), INK) for g in goods] if isinstance(goods, list) else []
        _pips(d, cx, cy, s, cap, cols, square=True)
    elif kind == "shield":
        r = s * 0.3
        box = (cx - r, cy - r, cx + r, cy + r)
        # covers (FRONT + rot) and (RIGHT + rot): an arc over those two sides
        start = -90 + 90 * rot - 45
        d.arc(box, start, start + 180, fill=SHIELD_ARC, width=max(3, round(s * 0.07)))
        d.ellipse((cx - s * 0.07, cy - s * 0.07, cx + s * 0.07, cy + s * 0.07), fill=SHIELD_ARC)
    elif kind.startswith("life_"):
        col = ALIEN.get(kind[5:], INK)
        r = s * 0.16
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=col, width=max(2, round(s * 0.06)))
        d.ellipse((cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4), fill=col)
    else:  # structural
        k = s * 0.2
        d.line((cx - k, cy - k, cx + k, cy + k), fill=(170, 174, 190), width=max(2, round(s / 18)))
        d.line((cx - k, cy + k, cx + k, cy - k), fill=(170, 174, 190), width=max(2, round(s / 18)))
