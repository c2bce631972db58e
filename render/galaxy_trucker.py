"""Galaxy Trucker pictures: the table (open pool, hourglass and who is done while building;
the flight track, the current card and every ship in flight) and a seat's private picture
(its ship under construction, the tile in hand, the reserve, a peeked card pile, problems in
red at pre-launch).

The channel never shows a ship in progress: the table draws ships only once the flight has
begun. Tiles are drawn from the view's connector strings (front, right, rear, left: ``0``
smooth, ``1`` single, ``2`` double, ``U`` universal as one, two or three tubes) and their
kind, with the component on it: crew and aliens in cabins, charges in batteries, goods in
holds, the exhaust of engines and the barrel of cannons pointing where they point, the two
sides a shield covers. Rows and columns are labelled with the board's printed numbers, the
same ones the "place"/"remove" buttons show (``6·8``).

Board constants come from :mod:`rules.galaxy_trucker.tiles`; views come from outside, so
every field is read defensively.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import BG, BG2, FAINT, GOLD, GREEN, INK, MUTED, PANEL_EDGE, RED, RGB
from rules.galaxy_trucker import tiles as gt

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


class Marks:
    """What one picture draws (tile kinds, what is aboard, frames, rockets…) and what its
    legend explains: a picture explains every mark it draws (a test checks it)."""

    def __init__(self) -> None:
        self.drawn: set[str] = set()
        self.explained: set[str] = set()


#: Set while a picture is drawn: the marks drawn so far (a test reads it; see ``RECORD``).
_MARKS: Marks = Marks()
#: A test may set this to a list: each picture's :class:`Marks` are appended to it.
RECORD: list[Marks] | None = None


def _mark(*names: str) -> None:
    _MARKS.drawn.update(names)


#: Legend entries, in the order drawn: (entry, the marks it explains). The entry's words
#: are ``galaxy_trucker.pic.lg.<entry>``; its icon is drawn by :func:`_legend_icon`.
LEGEND: tuple[tuple[str, frozenset[str]], ...] = (
    ("rocket", frozenset({"rocket"})),
    ("cabin", frozenset({"cabin", "human"})),
    ("starting_cabin", frozenset({"starting_cabin"})),
    ("alien", frozenset({"alien"})),
    ("life", frozenset({"life_brown", "life_purple"})),
    ("engine", frozenset({"engine", "engine2"})),
    ("cannon", frozenset({"cannon", "cannon2"})),
    ("battery", frozenset({"battery", "charge"})),
    ("shield", frozenset({"shield"})),
    ("hold", frozenset({"hold", "goods"})),
    ("red_hold", frozenset({"red_hold"})),
    ("structural", frozenset({"structural"})),
    ("connector", frozenset({"connector"})),
    ("cell", frozenset({"cell"})),
    ("free", frozenset({"free"})),
    ("bad", frozenset({"bad"})),
    ("last", frozenset({"last"})),
)


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


def _lang(lang: str | None) -> str:
    return kit.lang_or_default(lang)


def _t(key: str, lang: str, **args: Any) -> str:
    return i18n.t(f"{G}.{key}", lang, **args)


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


# --------------------------------------------------------------------------- legend


def view_marks(
    view: dict[str, Any], ships: Sequence[dict[str, Any]], tiles_: Sequence[Any]
) -> set[str]:
    """The marks a picture of these ships (and loose tiles: the pool, a hand, a reserve)
    draws, for its legend."""
    saved = set(_MARKS.drawn)
    _MARKS.drawn.clear()
    for ship in ships:
        extras = _ship_extras(ship)
        _mark("cell")
        for t in kit.list_of(ship.get("tiles")):
            if isinstance(t, dict):
                cell = _cells([t.get("cell")])
                key = _cellkey(*next(iter(cell))) if cell else ""
                _tile_marks(
                    str(t.get("kind", "structural")), str(t.get("sides", "")), extras.get(key, {})
                )
    for t in tiles_:
        if isinstance(t, dict):
            _tile_marks(str(t.get("kind", "structural")), str(t.get("sides", "")), {})
    out = set(_MARKS.drawn)
    _MARKS.drawn.clear()
    _MARKS.drawn.update(saved)
    return out


def _legend_icon(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float, entry: str
) -> None:
    """The small picture of a legend entry, in an ``s``-pixel square at (x, y)."""
    tile: dict[str, Any] = {"kind": entry, "rot": 0, "sides": "0000", "id": -1}
    extra: dict[str, Any] = {}
    if entry == "rocket":
        kit.seat_token(d, (x + s / 2, y + s / 2), s * 0.45, 0, label="1")
        return
    if entry in ("cell", "free", "bad", "last"):
        d.rectangle((x + 1, y + 1, x + s - 1, y + s - 1), fill=SLOT, outline=SLOT_EDGE)
        colour = {"free": GREEN, "bad": RED, "last": GOLD}.get(entry)
        if colour is not None:
            d.rectangle((x + 2, y + 2, x + s - 2, y + s - 2), outline=colour, width=3)
        return
    if entry == "connector":
        inset = s * 0.1
        d.rounded_rectangle(
            (x + inset, y + inset, x + s - inset, y + s - inset),
            radius=s * 0.08,
            fill=KIND_FILL["structural"],
            outline=TILE_EDGE,
        )
        for direction, kind in enumerate("12U0"):
            _tubes(d, x, y, s, direction, kind)
        return
    if entry == "cabin":
        extra = {"crew": 2}
    elif entry == "alien":
        tile["kind"], extra = "cabin", {"alien": "brown"}
    elif entry == "life":
        tile["kind"] = "life_brown"
    elif entry == "battery":
        tile["kind"] = "battery"
    elif entry == "hold":
        extra = {"goods": ["red"]}
    draw_tile(d, x, y, s, tile, extra, seat=0, record=False)


def legend_height(entries: int, cols: int, size: int) -> int:
    rows = math.ceil(entries / cols) if entries else 0
    return rows * round(size * 1.7)


def draw_legend(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float],
    marks: set[str],
    lang: str,
    cols: int,
    size: int,
) -> int:
    """The legend of ``marks`` in ``cols`` columns from (x0, y) to x1: an icon and its words
    for each entry whose marks were drawn. Returns the height used."""
    x0, y, x1 = box
    entries = [(e, m) for e, m in LEGEND if m & marks]
    colw = (x1 - x0) / cols
    row_h = round(size * 1.7)
    icon = round(size * 1.45)
    for i, (entry, covers) in enumerate(entries):
        r, c = divmod(i, cols)
        ex, ey = x0 + c * colw, y + r * row_h
        _legend_icon(img, d, ex, ey + (row_h - icon) / 2, icon, entry)
        words, f = kit.fit_font(_t(f"pic.lg.{entry}", lang), colw - icon - 14, (size,), "book")
        kit.text(d, (ex + icon + 6, ey + row_h / 2), words, f, fill=INK, anchor="lm")
        _MARKS.explained.update(covers)
    return legend_height(len(entries), cols, size)


# --------------------------------------------------------------------------- one ship


def _ship_extras(ship: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What is aboard each cell: crew, alien, charges, goods."""
    out: dict[str, dict[str, Any]] = {}
    for k, v in kit.dict_of(ship.get("crew")).items():
        out.setdefault(str(k), {})["crew"] = v
    for k, v in kit.dict_of(ship.get("batteries")).items():
        out.setdefault(str(k), {})["batteries"] = v
    for k, v in kit.dict_of(ship.get("goods")).items():
        out.setdefault(str(k), {})["goods"] = v
    for colour, cell in kit.dict_of(ship.get("aliens")).items():
        if isinstance(cell, (list, tuple)) and len(cell) == 2:
            out.setdefault(_cellkey(int(cell[0]), int(cell[1])), {})["alien"] = colour
    return out


def ship_size(view: dict[str, Any], s: float, label_min: int = 12) -> tuple[float, float]:
    """Pixels a ship of this board takes at tile size ``s`` (labels included)."""
    _, _, rows, cols = _frame(view)
    lab = max(s * 0.45, label_min * 1.2)
    return cols * s + lab, rows * s + lab


def _frame(view: dict[str, Any]) -> tuple[int, int, int, int]:
    board = kit.dict_of(view.get("board"))
    fr = board.get("frame")
    if isinstance(fr, list) and len(fr) == 4 and all(kit.is_int(x) for x in fr):
        return int(fr[0]), int(fr[1]), max(1, int(fr[2])), max(1, int(fr[3]))
    return 5, 5, 5, 5


def draw_ship(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    s: float,
    view: dict[str, Any],
    ship: dict[str, Any],
    seat: int | None,
    *,
    free: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
    bad: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
    last: tuple[int, int] | None = None,
    label_min: int = 12,
) -> None:
    """A ship board with its tiles; row numbers on the left, column numbers on top (at least
    ``label_min`` pixels)."""
    r0, c0, rows, cols = _frame(view)
    lab = max(s * 0.45, label_min * 1.2)
    board = kit.dict_of(view.get("board"))
    valid = _cells(board.get("cells"))
    size = max(label_min, min(24, round(s * 0.3)))
    for c in range(cols):
        _label(img, (x + lab + (c + 0.5) * s, y + lab / 2), str(c0 + c), size, MUTED)
    for r in range(rows):
        _label(img, (x + lab / 2, y + lab + (r + 0.5) * s), str(r0 + r), size, MUTED)
    gx, gy = x + lab, y + lab
    if valid:
        _mark("cell")
    for r, c in valid:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 1, py + 1, px + s - 1, py + s - 1), fill=SLOT, outline=SLOT_EDGE)
    extras = _ship_extras(ship)
    tiles_ = ship.get("tiles")
    for t in tiles_ if isinstance(tiles_, list) else []:
        if not isinstance(t, dict):
            continue
        cell = _cells([t.get("cell")])
        if not cell:
            continue
        (r, c) = next(iter(cell))
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        draw_tile(d, px, py, s, t, extras.get(_cellkey(r, c)), seat)
    w = max(3, round(s / 16))
    if free:
        _mark("free")
    if bad:
        _mark("bad")
    if last is not None:
        _mark("last")
    for r, c in free:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 3, py + 3, px + s - 3, py + s - 3), outline=GREEN, width=w)
        _label(img, (px + s / 2, py + s / 2), f"{r}·{c}", max(12, round(s * 0.24)), GREEN, "cond")
    for r, c in bad:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 2, py + 2, px + s - 2, py + s - 2), outline=RED, width=w + 1)
    if last is not None:
        r, c = last
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 1, py + 1, px + s - 1, py + s - 1), outline=GOLD, width=w)


# --------------------------------------------------------------------------- header


def _players(view: dict[str, Any], names: Sequence[str]) -> int:
    n = kit.int_of(view.get("players"), len(names))
    return max(1, min(4, n))


def _level_name(view: dict[str, Any], lang: str) -> str:
    lvl = str(view.get("level", "I"))
    return i18n.t(f"{G}.opt.level.{lvl}", lang)


def _header(
    d: ImageDraw.ImageDraw,
    width: int,
    view: dict[str, Any],
    lang: str,
    title: str,
    level: bool = True,
) -> None:
    """Title on the left (with the flight's level, and which flight of the Trek), the phase
    in a pill on the right."""
    d.rectangle((0, 0, width, 64), fill=BG2)
    d.line((0, 64, width, 64), fill=PANEL_EDGE, width=2)
    trek = kit.dict_of(view.get("trek"))
    phase_key = str(view.get("phase", f"{G}.phase.build"))
    if trek and view.get("step") in ("build", "prelaunch", "flight", "over"):
        phase_key = f"{G}.phase.{view['step']}"  # the title says which flight of the Trek
    phase = i18n.t(phase_key, lang)
    pf = kit.font(26)
    pw = pf.getlength(phase) + 28
    kit.pill(d, width - 20 - pw, 13, 51, phase, pf, GOLD)
    if level:
        title = f"{title} · {_level_name(view, lang)}"
    if trek:
        k, n = kit.int_of(trek.get("flight"), 1), kit.int_of(trek.get("flights"), 3)
        title = f"{title} · {_t('pic.trek', lang, flight=k, flights=n)}"
    s, f = kit.fit_font(title, width - pw - 70, (34, 30, 26, 22))
    kit.text(d, (20, 32), s, f, anchor="lm")


# --------------------------------------------------------------------------- table


def _status(view: dict[str, Any], seat: int, lang: str) -> tuple[str, RGB]:
    ships = kit.list_of(view.get("ships"))
    ship = kit.dict_of(ships[seat]) if seat < len(ships) else {}
    step = view.get("step")
    order = kit.list_of(view.get("order"))
    if step == "build":
        if ship.get("done") and seat in order:
            return _t("pic.done", lang, place=order.index(seat) + 1), GREEN
        return _t("pic.building", lang), MUTED
    if step == "prelaunch":
        if ship.get("stage") == "ready":
            return _t("pic.ready", lang), GREEN
        return _t("pic.checking", lang), GOLD
    return "", MUTED


def _draw_build_table(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    n = _players(view, names)
    pool = [t for t in view.get("faceup") or [] if isinstance(t, dict)]
    # pool tile size and label room: smaller tiles when the pool grows large
    ts, gap, per_row = (76, 30, 9) if len(pool) <= 54 else (62, 28, 11)
    shown = pool[: per_row * 13]
    rows = max(1, math.ceil(len(shown) / per_row))
    left_h = 64 + 20 + 150 + 34 + n * 80 + 30
    marks = view_marks(view, [], shown)
    lg_cols = 3
    lg_h = legend_height(len([e for e, m in LEGEND if m & marks]), lg_cols, MIN_FONT)
    pool_h = 64 + 20 + 48 + rows * (ts + gap) + 40 + lg_h
    h = max(left_h, pool_h, 420)
    img = Image.new("RGB", (W, h), BG)
    d = ImageDraw.Draw(img)
    _header(d, W, view, lang, i18n.t(f"{G}.name", lang))
    # left: hourglass, face-down pile, builders
    x0, y = 20, 84
    kit.rounded_box(d, (x0, y, x0 + 380, y + 130), radius=14, fill=kit.PANEL, outline=PANEL_EDGE)
    hg = kit.dict_of(view.get("hourglass"))
    runs = kit.int_of(hg.get("runs"))
    if runs:
        run = kit.int_of(hg.get("run"), 1)
        _hourglass_icon(d, x0 + 40, y + 45, 26, bool(hg.get("out")))
        hs, hf = kit.fit_font(_t("pic.hourglass", lang, run=run, runs=runs), 296, (20, MIN_FONT))
        kit.text(d, (x0 + 78, y + 32), hs, hf)
        sub = _t("pic.sand_out", lang) if hg.get("out") else _t("pic.sand_running", lang)
        kit.text(
            d, (x0 + 78, y + 60), sub, kit.font(18, "book"), fill=RED if hg.get("out") else MUTED
        )
    else:
        kit.text(d, (x0 + 20, y + 45), _t("pic.no_hourglass", lang), kit.font(20), anchor="lm")
    fd = kit.int_of(view.get("facedown"))
    _facedown_icon(d, x0 + 40, y + 100)
    kit.text(d, (x0 + 78, y + 100), _t("pic.facedown", lang, n=fd), kit.font(20), anchor="lm")
    y += 150
    kit.text(d, (x0, y), _t("pic.players", lang), kit.font(24), fill=MUTED)
    y += 34
    for seat in range(n):
        # name above, status below: both large enough to read on a phone
        label, col = _status(view, seat, lang)
        kit.seat_panel(d, (x0, y, x0 + 380, y + 72), seat, highlight=False)
        kit.seat_token(d, (x0 + 34, y + 36), 17, seat)
        name, nf = kit.fit_font(kit.player_name(names, seat, lang), 300, (28, 24, 20))
        kit.text(d, (x0 + 62, y + 22), name, nf, anchor="lm")
        lf = kit.font(22)
        kit.text(d, (x0 + 62, y + 52), kit.ellipsize(label, lf, 300), lf, fill=col, anchor="lm")
        y += 80
    # right: the open pool
    px0, py = 430, 84
    kit.text(d, (px0, py), _t("pic.pool", lang, n=len(pool)), kit.font(28))
    py += 44
    if not pool:
        kit.text(d, (px0, py + 20), _t("pic.pool_empty", lang), kit.font(20, "book"), fill=MUTED)
    lf = kit.font(17)
    for i, t in enumerate(shown):
        r, c = divmod(i, per_row)
        tx, ty = px0 + c * (ts + 8), py + r * (ts + gap)
        draw_tile(d, tx, ty, ts, t)
        _label(img, (tx + ts / 2, ty + ts + 13), f"#{kit.int_of(t.get('id'))}", MIN_FONT, INK)
    ly = py + rows * (ts + gap)
    if len(pool) > len(shown):
        kit.text(
            d,
            (px0, ly),
            _t("pic.pool_more", lang, n=len(pool) - len(shown)),
            kit.font(MIN_FONT),
            fill=MUTED,
        )
    draw_legend(img, d, (px0, ly + 30, W - 20), marks, lang, lg_cols, MIN_FONT)
    return img


def _hourglass_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, out: bool):
    top = [(cx - r * 0.7, cy - r), (cx + r * 0.7, cy - r), (cx, cy)]
    bot = [(cx - r * 0.7, cy + r), (cx + r * 0.7, cy + r), (cx, cy)]
    d.polygon(top, outline=INK, fill=None if out else (230, 190, 90), width=2)
    d.polygon(bot, outline=INK, fill=(230, 190, 90), width=2)


def _facedown_icon(d: ImageDraw.ImageDraw, cx: float, cy: float):
    for k in (6, 3, 0):
        d.rounded_rectangle(
            (cx - 16 + k, cy - 16 - k, cx + 16 + k, cy + 16 - k),
            radius=4,
            fill=(60, 70, 120),
            outline=INK,
            width=2,
        )


def _draw_prelaunch_table(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    n = _players(view, names)
    h = 64 + 40 + n * 72 + 30
    img = Image.new("RGB", (W, h), BG)
    d = ImageDraw.Draw(img)
    _header(d, W, view, lang, i18n.t(f"{G}.name", lang))
    y = 104
    for seat in range(n):
        label, col = _status(view, seat, lang)
        kit.seat_panel(d, (20, y, W - 20, y + 60), seat)
        kit.seat_token(d, (52, y + 30), 16, seat)
        name, nf = kit.fit_font(kit.player_name(names, seat, lang), 600, (26, 22))
        kit.text(d, (80, y + 30), name, nf, anchor="lm")
        kit.text(d, (W - 40, y + 30), label, kit.font(24), fill=col, anchor="rm")
        y += 72
    return img


# --------------------------------------------------------------------------- flight


def _card_lines(card: dict[str, Any], lang: str) -> list[tuple[str, list[RGB]]]:
    """The current card as short lines (text, and goods cubes drawn after it)."""
    out: list[tuple[str, list[RGB]]] = []
    typ = str(card.get("type", ""))

    def goods(xs: Any) -> list[RGB]:
        return [GOODS.get(str(g), INK) for g in xs] if isinstance(xs, list) else []

    def penalty_text(p: dict[str, Any]) -> list[tuple[str, list[RGB]]]:
        lines: list[tuple[str, list[RGB]]] = []
        if "crew_lost" in p:
            lines.append((_t("pic.c.crew_lost", lang, n=p["crew_lost"]), []))
        if "goods_lost" in p:
            lines.append((_t("pic.c.goods_lost", lang, n=p["goods_lost"]), []))
        if "days_lost" in p:
            lines.append((_t("pic.c.days", lang, n=p["days_lost"]), []))
        if isinstance(p.get("shots"), list):
            shots = _hazards(p["shots"], lang)
            lines.append((_t("pic.c.shots", lang, n=len(p["shots"]), list=shots), []))
        return lines

    if typ in ("open_space", "stardust", "epidemic", "sabotage"):
        out.append((_t(f"pic.c.{typ}", lang), []))
    if "firepower" in card:
        out.append((_t("pic.c.firepower", lang, n=card["firepower"]), []))
    if "crew_required" in card:
        out.append((_t("pic.c.crew_required", lang, n=card["crew_required"]), []))
    if typ == "abandoned_ship" and "crew_lost" in card:
        out.append((_t("pic.c.crew_cost", lang, n=card["crew_lost"]), []))
    reward = kit.dict_of(card.get("reward"))
    if reward:
        if "credits" in reward:
            out.append(
                (
                    _t("pic.c.reward", lang)
                    + " "
                    + _t("pic.c.credits", lang, n=reward["credits"]),
                    [],
                )
            )
        if "goods" in reward:
            out.append((_t("pic.c.reward", lang), goods(reward["goods"])))
    if isinstance(card.get("planets"), list):
        for i, pl in enumerate(card["planets"]):
            out.append((_t("pic.c.planet", lang, i=i + 1), goods(pl)))
    if "days_lost" in card:  # what taking the reward or landing costs
        out.append((_t("pic.c.cost", lang, n=card["days_lost"]), []))
    if isinstance(card.get("meteors"), list):
        out.append((_t("pic.c.meteors", lang) + " " + _hazards(card["meteors"], lang), []))
    if isinstance(card.get("lines"), list):
        for line in card["lines"]:
            line = kit.dict_of(line)
            crit = str(line.get("criterion", ""))
            key = "pic.c.firepower_line" if crit == "firepower" else f"pic.c.{crit}"
            pen = " · ".join(s for s, _ in penalty_text(kit.dict_of(line.get("penalty"))))
            out.append((f"{_t(key, lang)}: {pen}", []))
    if isinstance(card.get("penalty"), dict):
        penalty = " · ".join(s for s, _ in penalty_text(card["penalty"]))
        out.append((f"{_t('pic.c.penalty', lang)} {penalty}", []))
    return out


def _hazards(items: list[Any], lang: str) -> str:
    parts = []
    for h in items:
        h = kit.dict_of(h)
        parts.append(
            f"{_t('pic.c.' + str(h.get('size')), lang)} {_t('pic.c.' + str(h.get('from')), lang)}"
        )
    return ", ".join(parts)


def _track(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict[str, Any],
) -> None:
    """The flight track: a loop of spaces (space 1 at the top, clockwise) with the rockets,
    each labelled with its place in the race (1 = the leader)."""
    x0, y0, x1, y1 = box
    flight = kit.dict_of(view.get("flight"))
    n = max(4, kit.int_of(view.get("track"), 18))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rs = min(24.0, max(16.0, math.pi * min(x1 - x0, y1 - y0) / 2 / n * 0.9 + 6))
    rx, ry = (x1 - x0) / 2 - rs - 2, (y1 - y0) / 2 - rs - 2
    pts = []
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        pts.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    for i, (px, py) in enumerate(pts):
        d.ellipse(
            (px - rs, py - rs, px + rs, py + rs), fill=kit.PANEL, outline=PANEL_EDGE, width=2
        )
        _label(img, (px, py), str(i + 1), MIN_FONT, FAINT, "cond")
    spaces = kit.list_of(flight.get("spaces"))
    retired = kit.list_of(flight.get("retired"))
    order = [x for x in kit.list_of(flight.get("order")) if kit.is_int(x)]
    for seat, sp in enumerate(spaces):
        if not kit.is_int(sp) or seat in retired:
            continue
        px, py = pts[sp % n]
        place = order.index(seat) + 1 if seat in order else None
        kit.seat_token(d, (px, py), rs * 1.05, seat, label=str(place) if place else None)
        _mark("rocket")


def _ship_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict[str, Any],
    seat: int,
    names: Sequence[str],
    lang: str,
    highlight: bool,
    below: bool = False,
) -> None:
    """A seat's ship in flight: name and credits on top; the ship; on its right (``below``:
    under it) what it carries (crew, batteries, goods) and the tiles it lost."""
    x0, y0, x1, y1 = box
    ships = kit.list_of(view.get("ships"))
    ship = kit.dict_of(ships[seat]) if seat < len(ships) else {}
    kit.seat_panel(d, box, seat, highlight=highlight)
    kit.seat_token(d, (x0 + 30, y0 + 26), 14, seat)
    flight = kit.dict_of(view.get("flight"))
    credits = kit.int_of(ship.get("credits"))
    result = kit.dict_of(view.get("result"))
    right = _t("pic.credits", lang, n=credits)
    if result:
        scores, ranks = result.get("scores") or [], result.get("ranks") or []
        if seat < len(scores) and seat < len(ranks):
            place = _t("pic.place", lang, place=ranks[seat])
            right = f"{place} · {_t('pic.credits', lang, n=scores[seat])}"
    cf = kit.font(26)
    kit.text(d, (x1 - 16, y0 + 26), right, cf, fill=GOLD, anchor="rm")
    room = x1 - x0 - 70 - cf.getlength(right) - 20
    order = [x for x in kit.list_of(flight.get("order")) if kit.is_int(x)]
    tag = ""
    if seat in kit.list_of(flight.get("retired")):
        tag = _t("pic.retired", lang)
    elif seat in order and not result:
        tag = _t("pic.race_place", lang, place=order.index(seat) + 1)
    rf = kit.font(MIN_FONT)
    tag_w = rf.getlength(tag) + 28 if tag else 0
    name, nf = kit.fit_font(kit.player_name(names, seat, lang), room - tag_w, (28, 24, 20))
    kit.text(d, (x0 + 52, y0 + 26), name, nf, anchor="lm")
    if tag:
        colour = RED if seat in kit.list_of(flight.get("retired")) else MUTED
        kit.pill(d, x0 + 62 + nf.getlength(name), y0 + 13, y0 + 39, tag, rf, colour, pad=10)
    crew = sum(kit.int_of(v) for v in kit.dict_of(ship.get("crew")).values())
    crew += sum(1 for v in kit.dict_of(ship.get("aliens")).values() if v)
    batt = sum(kit.int_of(v) for v in kit.dict_of(ship.get("batteries")).values())
    goods = sum(len(v) for v in kit.dict_of(ship.get("goods")).values() if isinstance(v, list))
    stats = [
        _t("pic.crew", lang, n=crew),
        _t("pic.batteries", lang, n=batt),
        _t("pic.goods_n", lang, n=goods),
        _t("pic.lost", lang, n=kit.int_of(ship.get("lost"))),
    ]
    sf = kit.font(MIN_FONT, "book")
    _, _, rows, cols = _frame(view)
    lab = MIN_FONT * 1.2
    if below:  # two lines under the ship, which takes the panel's width
        pairs = [" · ".join(stats[:2]), " · ".join(stats[2:])]
        avail_w, avail_h = x1 - x0 - 30, y1 - y0 - 56 - STATS_BELOW
        s = min((avail_w - lab) / cols, (avail_h - lab) / rows, 64)
        sw, sh_ = ship_size(view, s, MIN_FONT)
        sx = x0 + (x1 - x0 - sw) / 2
        draw_ship(img, d, sx, y0 + 50, s, view, ship, seat, label_min=MIN_FONT)
        for i, line in enumerate(pairs):
            kit.text(d, (x0 + 24, y0 + 56 + sh_ + i * (MIN_FONT + 8)), line, sf, fill=MUTED)
        return
    stat_w = max(sf.getlength(x) for x in stats) + 12
    avail_w, avail_h = x1 - x0 - 30 - stat_w, y1 - y0 - 56
    s = min((avail_w - lab) / cols, (avail_h - lab) / rows, 64)
    sw, sh_ = ship_size(view, s, MIN_FONT)
    sx = x0 + 14
    draw_ship(img, d, sx, y0 + 50 + (avail_h - sh_) / 2, s, view, ship, seat, label_min=MIN_FONT)
    ty = y0 + 50 + (avail_h - sh_) / 2 + lab
    for i, line in enumerate(stats):
        kit.text(d, (sx + sw + 12, ty + i * (MIN_FONT + 10)), line, sf, fill=MUTED)


def _draw_flight_table(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    """The track and the card on top, the legend, then the ships: side by side for two
    players, two by two for three or four (the picture stays no taller than wide)."""
    n = _players(view, names)
    flight = kit.dict_of(view.get("flight"))
    _, _, rows, cols = _frame(view)
    per = 2
    panel_w = (W - 60) / per
    nrows = math.ceil(n / per)
    top_h = 300 if n <= 2 else 264  # (four ships: every pixel of height counts)
    ships = [kit.dict_of(x) for x in kit.list_of(view.get("ships"))[:n]]
    marks = view_marks(view, ships, [])
    marks.add("rocket")
    card = flight.get("card")
    if card is None and flight.get("asking") is not None:
        card = flight.get("card_over")  # its losses are still being asked
    if isinstance(card, dict) and (card.get("reward") or card.get("planets")):
        marks.add("goods")
    if kit.dict_of(view.get("result")):
        marks.discard("rocket")  # the end: no track
    entries = len([e for e, m in LEGEND if m & marks])
    # three players: the legend takes the fourth ship's place, else a strip above the ships
    in_slot = n % 2 == 1 and n > 1 and legend_height(entries, 2, MIN_FONT) <= 330
    lg_cols = 2 if in_slot else 4
    lg_h = 0 if in_slot else legend_height(entries, lg_cols, MIN_FONT) + 16
    fixed = 64 + 20 + top_h + 16 + lg_h + 20
    # the ships take what is left of a square picture (wider panels for two players)
    lab = MIN_FONT * 1.2
    below = n <= 2  # two ships side by side: what they carry goes under them
    s_w = (panel_w - 30 - (0 if below else 150) - lab) / cols
    s_h = ((W - fixed + 20) / nrows - 20 - 56 - lab - 20 - (STATS_BELOW if n <= 2 else 0)) / rows
    s = max(30.0, min(64.0, s_w, s_h))
    panel_h = 56 + s * rows + lab + 20 + (STATS_BELOW if below else 0)
    h = int(fixed + nrows * (panel_h + 20) - 20)
    img = Image.new("RGB", (W, max(h, 400)), BG)
    d = ImageDraw.Draw(img)
    _header(d, W, view, lang, i18n.t(f"{G}.name", lang))
    # track on the left, the card on the right
    ty = 84
    over = bool(kit.dict_of(view.get("result")))
    cx0 = 20 if over else 580  # the end: the final credits take the whole band
    if not over:
        kit.rounded_box(d, (20, ty, 560, ty + top_h), radius=16, fill=BG2, outline=PANEL_EDGE)
        kit.text(
            d, (290, ty + top_h / 2), _t("pic.track", lang), kit.font(22), fill=FAINT, anchor="mm"
        )
        _track(img, d, (24, ty + 4, 556, ty + top_h - 4), view)
    else:
        marks.discard("rocket")
    kit.rounded_box(
        d, (cx0, ty, W - 20, ty + top_h), radius=16, fill=kit.PANEL, outline=PANEL_EDGE
    )
    k = kit.int_of(flight.get("cards_done")) + (1 if flight.get("card") else 0)
    if not over:
        sub = _t("pic.card", lang, k=k, left=kit.int_of(flight.get("cards_left")))
        kit.text(
            d, (W - 40, ty + top_h - 14), sub, kit.font(MIN_FONT, "book"), fill=MUTED, anchor="rd"
        )
    if isinstance(card, dict) and not over:
        title = i18n.t(f"{G}.card.{card.get('type')}", lang)
        tf = kit.font(34)
        kit.text(d, (cx0 + 20, ty + 18), kit.ellipsize(title, tf, W - cx0 - 80), tf, fill=GOLD)
        lines = _card_lines(card, lang)
        # as large as the panel allows: long cards (combat zones) get a smaller font
        # the largest text at which every line, wrapped, fits the panel (a combat zone's
        # list of shots takes several rows); at the smallest, the longest lines are cut
        room_h = top_h - 68 - 30
        width = W - 20 - cx0 - 40

        def wrapped(z: int) -> list[list[str]]:
            f = kit.font(z, "book")
            return [kit.wrap(t, f, width - (z + 6) * len(c), 8) for t, c in lines]

        for size in (25, 22, 20, MIN_FONT):
            parts_of = wrapped(size)
            if sum(len(p) * (size + 7) + 3 for p in parts_of) <= room_h:
                break
        lf, step = kit.font(size, "book"), size + 7
        y = ty + 68
        bottom = ty + 68 + room_h
        for (_, cubes), parts in zip(lines, parts_of, strict=True):
            rows = max(1, min(len(parts), int((bottom - y) // step)))
            if len(parts) > rows:
                parts = [*parts[: rows - 1], kit.ellipsize(" ".join(parts[rows - 1 :]), lf, width)]
            for part in parts:
                kit.text(d, (cx0 + 20, y), part, lf, fill=INK)
                y += step
            if cubes:
                _mark("goods")
                gx = cx0 + 30 + lf.getlength(parts[-1] if parts else "")
                for cube in cubes:
                    top = y - step + 3
                    d.rectangle(
                        (gx, top, gx + size - 3, top + size - 3),
                        fill=cube,
                        outline=TILE_EDGE,
                        width=2,
                    )
                    gx += size + 3
            y += 3
            if y + step > bottom:
                break
    elif over:
        _final_credits(d, (cx0 + 20, ty + 16, W - 40), view, names, lang)
    else:
        kit.text(d, (cx0 + 20, ty + 30), _t("pic.no_card", lang), kit.font(24), fill=MUTED)
    y = ty + top_h + 16
    if in_slot:
        r, c = divmod(n, per)
        bx, by = 20 + c * (panel_w + 20), y + r * (panel_h + 20)
        kit.rounded_box(
            d, (bx, by, bx + panel_w, by + panel_h), radius=14, fill=BG2, outline=PANEL_EDGE
        )
        lh = legend_height(entries, lg_cols, MIN_FONT)
        ly = by + max(12, (panel_h - lh) / 2)
        draw_legend(img, d, (bx + 16, ly, bx + panel_w - 10), marks, lang, lg_cols, MIN_FONT)
    else:
        y += draw_legend(img, d, (24, y, W - 20), marks, lang, lg_cols, MIN_FONT) + 16
    asking = flight.get("asking")
    for i in range(n):
        r, c = divmod(i, per)
        bx = 20 + c * (panel_w + 20)
        by = y + r * (panel_h + 20)
        _ship_panel(
            img, d, (bx, by, bx + panel_w, by + panel_h), view, i, names, lang, asking == i, below
        )
    return img


def _final_credits(
    d: ImageDraw.ImageDraw,
    at: tuple[float, float, float],
    view: dict[str, Any],
    names: Sequence[str],
    lang: str,
) -> None:
    """The end-of-flight table: each seat's place, credits and where they came from (each
    category named, on one line)."""
    x, y, x1 = at
    kit.text(d, (x, y), _t("pic.finish", lang), kit.font(28), fill=GOLD)
    y += 44
    result = kit.dict_of(view.get("result"))
    scores, ranks = kit.list_of(result.get("scores")), kit.list_of(result.get("ranks"))
    parts = kit.list_of(result.get("breakdown"))
    order = sorted(
        range(len(scores)), key=lambda i: (kit.int_of(ranks[i]) if i < len(ranks) else 9, i)
    )
    bf = kit.font(MIN_FONT, "book")
    for seat in order[:4]:
        kit.seat_token(d, (x + 12, y + 13), 11, seat)
        place = _t("pic.place", lang, place=ranks[seat]) if seat < len(ranks) else ""
        head = f"{place} {kit.player_name(names, seat, lang)}"
        hs, hf = kit.fit_font(head, x1 - x - 150, (22, 20, 18))
        kit.text(d, (x + 32, y + 13), hs, hf, anchor="lm")
        credits = _t("pic.credits", lang, n=kit.int_of(scores[seat]))
        kit.text(d, (x1, y + 13), credits, kit.font(22), fill=GOLD, anchor="rm")
        b = kit.dict_of(parts[seat]) if seat < len(parts) else {}
        detail = " · ".join(
            f"{i18n.t(f'{G}.score.{k}', lang)} {v:+d}".replace(" -", " −")
            for k, v in b.items()
            if kit.is_int(v) and v
        )
        room = 2 if len(order) <= 3 else 1  # four players: one line each fits the band
        lines = kit.wrap(detail, bf, x1 - x - 32, room) if detail else []
        for i, line in enumerate(lines):
            kit.text(d, (x + 32, y + 28 + i * 22), line, bf, fill=MUTED)
        y += 32 + 22 * len(lines)


def _draw_table(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    step = view.get("step")
    if step == "build":
        return _draw_build_table(view, names, lang)
    if step == "prelaunch":
        return _draw_prelaunch_table(view, names, lang)
    return _draw_flight_table(view, names, lang)


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is dropped before drawing, and no
    ship is drawn before the flight (ships in progress stay private)."""
    global _MARKS
    public = {k: v for k, v in view.items() if k != "private"}
    with kit.LOCK:
        _MARKS = Marks()
        img = _draw_table(public, names, _lang(lang))
        if RECORD is not None:
            RECORD.append(_MARKS)
    return _png(img)


# --------------------------------------------------------------------------- private


def _seat_of(view: dict[str, Any], seat: int | None) -> int | None:
    if kit.is_int(seat):
        return seat
    for raw in (view.get("seat"), kit.dict_of(view.get("private")).get("seat")):
        if kit.is_int(raw):
            return raw
    return None


def _draw_private(view: dict[str, Any], names: Sequence[str], lang: str, seat: int) -> Image.Image:
    """Portrait: the ship on top (as large as a phone allows), below it the tile in hand
    and the reserve side by side, then a peeked card pile or the pre-launch problems."""
    priv = kit.dict_of(view.get("private"))
    ships = kit.list_of(view.get("ships"))
    ship = kit.dict_of(ships[seat]) if seat < len(ships) else {}
    step = view.get("step")
    _, _, _rows, cols = _frame(view)
    s = min(96.0, (PW - 40) / (cols + 0.45))
    sw, sh_ = ship_size(view, s)
    hand = kit.dict_of(priv.get("hand"))
    peek = kit.dict_of(priv.get("peek"))
    problems = kit.list_of(ship.get("problems"))
    top = 110 + sh_ + 24
    if step == "build":
        below = 260 + (40 + 26 * len(peek.get("cards") or []) if peek else 0)
    else:
        below = 60 + 28 * min(12, len(problems))
    loose = [hand, *kit.list_of(ship.get("reserve"))] if step == "build" else []
    marks = view_marks(view, [ship], [t for t in loose if t])
    free_cells = _cells(priv.get("free")) if hand else set()
    if free_cells:
        marks.add("free")
    if problems:
        marks.add("bad")
    if ship.get("last") and step == "build":
        marks.add("last")
    lg_size, lg_cols = 20, 2
    lg_h = legend_height(len([e for e, m in LEGEND if m & marks]), lg_cols, lg_size)
    h = int(top + below + 50 + lg_h + 10)
    img = Image.new("RGB", (PW, h), BG)
    d = ImageDraw.Draw(img)
    title = f"{_t('pic.your_ship', lang)} · {kit.player_name(names, seat, lang)}"
    _header(d, PW, view, lang, title, level=False)
    x0 = (PW - sw) / 2
    kit.text(d, (x0 + sw / 2, 80), _t("pic.front", lang), kit.font(20), fill=MUTED, anchor="ma")
    free = _cells(priv.get("free")) if hand else set()
    bad: set[tuple[int, int]] = set()
    for p in problems:
        if isinstance(p, list) and len(p) == 2:
            bad |= _cells(p[1])
    last = _cells([ship.get("last")])
    draw_ship(
        img,
        d,
        x0,
        110,
        s,
        view,
        ship,
        seat,
        free=free,
        bad=bad,
        last=next(iter(last)) if last and step == "build" else None,
    )
    y = top
    if step == "build":
        # left: the tile in hand
        x: float = 24
        colw = PW / 2 - 40
        kit.text(d, (x, y), _t("pic.in_hand", lang), kit.font(26), fill=MUTED)
        if hand:
            big = 150
            draw_tile(d, x, y + 40, big, hand, seat=seat)
            kind = i18n.t(f"{G}.tile.{hand.get('kind')}", lang)
            kf = kit.font(24)
            label = f"#{kit.int_of(hand.get('id'))} {kind}"
            for i, line in enumerate(kit.wrap(label, kf, colw - big - 10, 3)):
                kit.text(d, (x + big + 12, y + 60 + i * 30), line, kf)
            hf = kit.font(19, "book")
            for i, hint in enumerate((_t("pic.turn_hint", lang), _t("pic.free_hint", lang))):
                kit.text(
                    d, (x, y + 200 + i * 26), kit.ellipsize(hint, hf, colw + 20), hf, fill=MUTED
                )
        else:
            kit.text(d, (x, y + 44), _t("pic.hand_empty", lang), kit.font(21, "book"), fill=FAINT)
            if ship.get("last"):
                hf = kit.font(19, "book")
                hint = kit.ellipsize(_t("pic.last_hint", lang), hf, colw + 20)
                kit.text(d, (x, y + 78), hint, hf, fill=GOLD)
        # right: the reserve
        x = PW / 2 + 20
        kit.text(d, (x, y), _t("pic.reserve", lang), kit.font(26), fill=MUTED)
        reserve = kit.list_of(ship.get("reserve"))
        if not reserve:
            kit.text(
                d, (x, y + 44), _t("pic.reserve_empty", lang), kit.font(21, "book"), fill=FAINT
            )
        rs = 110
        for i, t in enumerate(reserve[:2]):
            if isinstance(t, dict):
                tx = x + i * (rs + 30)
                draw_tile(d, tx, y + 40, rs, t)
                tid = f"#{kit.int_of(t.get('id'))}"
                kit.text(d, (tx + rs / 2, y + 44 + rs), tid, kit.font(20), anchor="ma")
        y += 260
        if peek:
            pile = kit.int_of(peek.get("pile"))
            kit.text(d, (24, y), _t("pic.peek", lang, pile=pile), kit.font(24), fill=GOLD)
            y += 38
            cf = kit.font(20, "book")
            for c in peek.get("cards") or []:
                c = kit.dict_of(c)
                name = i18n.t(f"{G}.card.{c.get('type')}", lang)
                detail = " · ".join(t for t, _ in _card_lines(c, lang)[:3])
                kit.text(d, (24, y), kit.ellipsize(f"{name}: {detail}", cf, PW - 48), cf)
                y += 26
    else:
        if problems:
            kit.text(d, (24, y), _t("pic.problems", lang), kit.font(26), fill=RED)
            y += 40
            pf = kit.font(21, "book")
            for p in problems[:12]:
                if not (isinstance(p, list) and len(p) == 2):
                    continue
                cells = sorted(_cells(p[1]))
                where = ", ".join(f"{r}·{c}" for r, c in cells[:4])
                line = f"{i18n.t(f'{G}.problem.{p[0]}', lang)}: {where}"
                kit.text(d, (24, y), kit.ellipsize(line, pf, PW - 48), pf)
                y += 28
        else:
            kit.text(d, (24, y), _t("pic.no_problems", lang), kit.font(24), fill=GREEN)
    hf = kit.font(19, "book")
    exposed = _t("pic.exposed", lang, n=kit.int_of(ship.get("exposed")))
    kit.text(d, (24, h - 46 - lg_h), exposed, hf, fill=MUTED)
    draw_legend(img, d, (24, h - 16 - lg_h, PW - 16), marks, lang, lg_cols, lg_size)
    return img


def render_private(
    view: dict[str, Any], names: list[str], lang: str, seat: int | None = None
) -> bytes | None:
    """PNG bytes of one seat's ship while it is being built or checked (nobody else sees
    it then), with the tile in hand, the reserve, a peeked card pile and problems in red.
    ``None`` once the flight has begun (every ship is on the table then) or without a seat."""
    who = _seat_of(view, seat)
    if who is None or view.get("step") not in ("build", "prelaunch"):
        return None
    ships = view.get("ships")
    if not isinstance(ships, list) or not 0 <= who < len(ships):
        return None
    global _MARKS
    with kit.LOCK:
        _MARKS = Marks()
        img = _draw_private(view, names, _lang(lang), who)
        if RECORD is not None:
            RECORD.append(_MARKS)
    return _png(img)
