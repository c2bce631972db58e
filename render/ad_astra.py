"""Board pictures for Ad Astra.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (never reads ``view["private"]``):
  the galaxy (Sol and the eight star systems, planets face down or face up with their type,
  colonies, factories, terraformers and ships in each seat's colour and shape, the ships in
  deep space), the planning board (face-down cards in their owner's colour, revealed cards
  with what they show, the slot being played), the score track with its 50 line, and each
  player's public pieces and counts (open hands while a Trade action resolves).
* :func:`render_private` — PNG bytes of one seat's secrets: action cards in hand and the
  ones planned, resource cards, artifacts and the hidden planets this seat has looked at.

Board constants come from :mod:`rules.ad_astra.data`; every word comes from
``data/ad_astra/strings.json`` (``ad_astra.render.*``). The static layer (sky, system frames
and names, the track) is drawn once per language and copied for every picture.
Resources are drawn as coloured discs with a symbol (drop, leaf, bolt, X, Y, Z, alien eye).
Each planet carries its number (index + 1), the one the buttons name it by. Every mark a
picture draws is explained on that picture: the table's legend (drawn on each picture, through
:func:`explain`) and, on the private picture, the resource row and the looked-at planets.
Text is never smaller than 18 px on the 1200 px table and 15 px on the 1000 px private
picture (6 px when Discord shows them 400 px wide).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.ad_astra_words import describe_private, describe_table  # noqa: F401
from render.kit import BG, FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.regions import cached_region, region_store
from rules.ad_astra.data import ARTIFACTS, END_VP, PIECES, RES, SCORING, SOL, STARS, card_pair

__all__ = ["W", "render_private", "render_table", "seat_rgb", "seat_shape"]

W = 1200
HEADER_H = 72
MAP_X, MAP_Y = 10, HEADER_H + 8
SYS_W, SYS_H, SYS_GAP = 244, 196, 6
MAP_W = 3 * SYS_W + 2 * SYS_GAP
DEEP_Y = MAP_Y + 3 * SYS_H + 2 * SYS_GAP + 8
DEEP_H = 66
TRACK_Y = DEEP_Y + DEEP_H + 8
TRACK_H = 96
LEGEND_Y = TRACK_Y + TRACK_H + 8
COL_X = MAP_X + MAP_W + 12
COL_W = W - COL_X - 10
BOARD_Y = HEADER_H + 8
PANEL_H = 136  # a player's panel
TRACK_MAX = 60

#: Where each system sits in the 3 × 3 galaxy (Sol in the middle).
_GRID: dict[str, tuple[int, int]] = {
    "SR": (0, 0),
    "LR": (1, 0),
    "TR": (2, 0),
    "NR": (0, 1),
    SOL: (1, 1),
    "NY": (2, 1),
    "SY": (0, 2),
    "LY": (1, 2),
    "TY": (2, 2),
}
assert set(_GRID) == {SOL, *STARS}

RES_RGB: dict[str, RGB] = {
    "W": (64, 140, 236),
    "F": (96, 180, 70),
    "E": (236, 184, 30),
    "X": (206, 132, 78),
    "Y": (168, 132, 220),
    "Z": (70, 190, 186),
    "A": (214, 70, 150),
}
HIDDEN_RGB: RGB = (70, 78, 112)
RED_SYS: RGB = (120, 44, 48)
YELLOW_SYS: RGB = (112, 96, 34)
SOL_RGB: RGB = (128, 84, 26)
TERRA_RGB: RGB = (120, 240, 140)
SLOT_RGB: RGB = (40, 46, 82)


_lang = kit.lang_or_default
t = kit.texts("ad_astra.render")


def seat_shape(c: int) -> str:
    """The shape of seat ``c``'s pieces (the kit's six)."""
    return str(kit.PALETTE[c % len(kit.PALETTE)].shape)


def seat_rgb(c: int) -> RGB:
    """The colour of seat ``c``'s pieces (the kit's six)."""
    return kit.PALETTE[c % len(kit.PALETTE)].rgb


def _sys_name(code: str, lang: str) -> str:
    return t(f"system.{code}", lang)


def _sys_box(code: str) -> tuple[float, float, float, float]:
    cx, cy = _GRID[code]
    x0 = MAP_X + cx * (SYS_W + SYS_GAP)
    y0 = MAP_Y + cy * (SYS_H + SYS_GAP)
    return (x0, y0, x0 + SYS_W, y0 + SYS_H)


# --------------------------------------------------------------------------- symbols


def res_icon(
    d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, res: str | None
) -> None:
    """A resource (or planet type) as a coloured disc with its symbol; ``None`` = hidden."""
    cx, cy = center
    col = RES_RGB.get(res or "", HIDDEN_RGB)
    d.ellipse((cx - r + 1, cy - r + 2, cx + r + 1, cy + r + 2), fill=(0, 0, 0))
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=col, outline=kit.DARK, width=max(1, round(r / 10))
    )
    ink = kit.DARK
    k = r * 0.55
    if res is None:
        text(d, (cx, cy + 1), "?", font(max(10, round(r * 1.25))), fill=INK, anchor="mm")
    elif res == "W":  # a drop
        d.ellipse((cx - k * 0.7, cy - k * 0.1, cx + k * 0.7, cy + k * 1.0), fill=INK)
        d.polygon(
            [(cx, cy - k * 1.05), (cx - k * 0.62, cy + k * 0.25), (cx + k * 0.62, cy + k * 0.25)],
            fill=INK,
        )
    elif res == "F":  # a leaf
        d.ellipse((cx - k * 0.55, cy - k, cx + k * 0.55, cy + k * 0.7), fill=INK)
        d.line([(cx, cy - k * 0.6), (cx, cy + k * 1.05)], fill=col, width=max(1, round(r / 9)))
    elif res == "E":  # a bolt
        pts = [(0.25, -1.1), (-0.55, 0.15), (-0.05, 0.15), (-0.3, 1.1), (0.55, -0.2), (0.05, -0.2)]
        d.polygon([(cx + a * k, cy + b * k) for a, b in pts], fill=kit.DARK)
    elif res == "A":  # an alien eye
        d.ellipse((cx - k, cy - k * 0.55, cx + k, cy + k * 0.55), fill=INK)
        d.ellipse((cx - k * 0.35, cy - k * 0.35, cx + k * 0.35, cy + k * 0.35), fill=kit.DARK)
    else:  # the three ores: their letter (the same in both languages)
        text(d, (cx, cy + 1), res, font(max(10, round(r * 1.2))), fill=ink, anchor="mm")


def ship_icon(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, seat: int) -> None:
    """A starship: an arrowhead in the seat's colour with the seat's shape on it."""
    cx, cy = center
    pts = [
        (cx, cy - r * 1.25),
        (cx + r, cy + r * 0.9),
        (cx, cy + r * 0.45),
        (cx - r, cy + r * 0.9),
    ]
    d.polygon([(x + 1, y + 2) for x, y in pts], fill=(0, 0, 0))
    d.polygon(pts, fill=seat_rgb(seat), outline=kit.DARK, width=max(1, round(r / 8)))
    kit.shape(d, (cx, cy + r * 0.05), r * 0.3, seat_shape(seat), fill=kit.DARK)


def colony_icon(
    d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, seat: int, factory: bool
) -> None:
    """A colony: the seat's token; a factory: the same token on a white square base."""
    cx, cy = center
    if factory:
        k = r * 1.12
        d.rounded_rectangle(
            (cx - k, cy - k, cx + k, cy + k), radius=r * 0.2, fill=INK, outline=kit.DARK, width=2
        )
        kit.seat_token(d, center, r * 0.78, seat)
    else:
        kit.seat_token(d, center, r * 0.85, seat)


def terra_icon(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, seat: int) -> None:
    """A terraformer: a bright green ring around a small token of the seat."""
    cx, cy = center
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=TERRA_RGB, width=max(2, round(r / 4)))
    kit.seat_token(d, center, r * 0.5, seat)


def terra_ring(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float) -> None:
    """The terraformed mark: a bright green ring around a planet of radius ``r``."""
    cx, cy = center
    d.ellipse((cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5), outline=TERRA_RGB, width=4)


def first_badge(d: ImageDraw.ImageDraw, x: float, y0: float, y1: float) -> float:
    """The first player's badge, a gold "1" chip from ``x``; returns its width."""
    return kit.pill(d, x, y0, y1, "1", font(20), GOLD, pad=9)


def card_back(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int, now: bool
) -> None:
    """An action card face down on the planning board: its owner's colour and shape."""
    x0, y0, x1, y1 = box
    col = seat_rgb(seat)
    d.rounded_rectangle(
        box,
        radius=8,
        fill=kit.blend(col, BG, 0.55),
        outline=GOLD if now else kit.DARK,
        width=4 if now else 2,
    )
    r = min(15, (x1 - x0) / 4, (y1 - y0) / 4)
    kit.shape(
        d, ((x0 + x1) / 2, (y0 + y1) / 2 + 2), r, seat_shape(seat), fill=col, outline=kit.DARK
    )


def seat_mark(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, seat: int) -> None:
    """A player's token where it stands for that player (the score track)."""
    kit.seat_token(d, center, r, seat)


def seat_key(d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, seat: int) -> None:
    """A player's token drawn beside that player's name: the key to their colour and shape."""
    kit.seat_token(d, center, r, seat)


def explain(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    items: list[tuple[Any, str]],
    f: kit.Font,
    max_width: float,
    icon: float = 30,
    gap: float = 16,
    fill: RGB = MUTED,
) -> float:
    """A legend: each mark drawn beside its words. Every legend of the game's pictures is
    drawn here, and every mark drawn elsewhere on a picture is drawn here too on that
    picture (``tests/render/test_ad_astra_marks.py``)."""
    return kit.legend(d, xy, items, f, max_width, icon=icon, gap=gap, fill=fill)


def _centred(draw_icon: Any, k: float = 2.0, dy: float = 0.0) -> Any:
    """A legend icon: ``draw_icon(d, centre, radius)`` fitted to the legend's square."""
    return lambda dd, xy, sz: draw_icon(dd, (xy[0] + sz / 2, xy[1] + sz / 2 + dy), sz / k)


# --------------------------------------------------------------------------- static layer


def res_item(code: str | None, label: str) -> tuple[Any, str]:
    """A legend entry: a resource (planet type) icon and its words."""
    return (_centred(lambda dd, c, r: res_icon(dd, c, r, code)), label)


def _legend_items(lang: str) -> list[tuple[Any, str]]:
    items: list[tuple[Any, str]] = [res_item(r, t(f"res.{r}", lang)) for r in (*RES, "A")]
    items.append(res_item(None, t("hidden", lang)))
    items.append(
        (
            lambda dd, xy, sz: dd.text(
                (xy[0] + sz / 2, xy[1] + sz / 2), "12", font=font(18), fill=INK, anchor="mm"
            ),
            t("legend.planet_no", lang),
        )
    )
    items.append((_centred(lambda dd, c, r: colony_icon(dd, c, r, 0, False)), t("colony", lang)))
    items.append(
        (_centred(lambda dd, c, r: colony_icon(dd, c, r, 0, True), 2.4), t("factory", lang))
    )
    items.append((_centred(lambda dd, c, r: terra_icon(dd, c, r, 0), 2.2), t("terraform", lang)))
    items.append((_centred(lambda dd, c, r: ship_icon(dd, c, r, 0), 2.3, 1), t("ship", lang)))
    items.append(
        (
            lambda dd, xy, sz: card_back(
                dd, (xy[0], xy[1] - 2, xy[0] + sz, xy[1] + sz + 2), 0, False
            ),
            t("legend.card_down", lang),
        )
    )
    items.append(
        (
            lambda dd, xy, sz: first_badge(dd, xy[0] + 2, xy[1] + 2, xy[1] + sz - 2),
            t("legend.first", lang),
        )
    )
    items.append(
        (
            lambda dd, xy, sz: dd.rounded_rectangle(
                (xy[0] + 1, xy[1] + 1, xy[0] + sz - 1, xy[1] + sz - 1),
                radius=6,
                outline=GOLD,
                width=4,
            ),
            t("legend.now", lang),
        )
    )
    items.append((None, t("legend.played", lang)))
    return items


def _build_base(lang: str) -> Image.Image:
    h = 1100
    img = kit.star_field((W, h), seed=11)
    d = ImageDraw.Draw(img)
    for code in _GRID:
        box = _sys_box(code)
        edge = SOL_RGB if code == SOL else RED_SYS if code.endswith("R") else YELLOW_SYS
        fill = kit.blend(edge, BG, 0.8)
        kit.rounded_box(d, box, radius=14, fill=fill, outline=kit.blend(edge, INK, 0.25), width=3)
        name = _sys_name(code, lang)
        s, f = kit.fit_font(name, SYS_W - 20, (24, 22, 20))
        text(d, (box[0] + 12, box[1] + 8), s, f, fill=INK, shadow=1)
    # deep space
    kit.rounded_box(
        d,
        (MAP_X, DEEP_Y, MAP_X + MAP_W, DEEP_Y + DEEP_H),
        radius=14,
        fill=kit.BG2,
        outline=PANEL_EDGE,
    )
    s, f = kit.fit_font(t("deep_space", lang), 190, (22, 20, 18))
    text(d, (MAP_X + 14, DEEP_Y + DEEP_H / 2), s, f, fill=MUTED, anchor="lm")
    # score track
    kit.rounded_box(
        d,
        (MAP_X, TRACK_Y, MAP_X + MAP_W, TRACK_Y + TRACK_H),
        radius=14,
        fill=kit.BG2,
        outline=PANEL_EDGE,
    )
    x0, x1 = _track_x(0), _track_x(TRACK_MAX)
    ty = TRACK_Y + TRACK_H - 26
    d.line([(x0, ty), (x1, ty)], fill=FAINT, width=4)
    for v in range(0, TRACK_MAX + 1, 5):
        x = _track_x(v)
        big = v % 10 == 0
        d.line([(x, ty - (9 if big else 5)), (x, ty + (9 if big else 5))], fill=MUTED, width=2)
        if big and v != END_VP:
            text(d, (x, ty + 12), str(v), font(18), fill=MUTED, anchor="mt")
    xe = _track_x(END_VP)
    d.line([(xe, TRACK_Y + 8), (xe, ty + 10)], fill=GOLD, width=4)
    text(d, (xe, ty + 12), str(END_VP), font(18), fill=GOLD, anchor="mt")
    # legend
    # planning board frame
    text(d, (COL_X + 4, BOARD_Y + 2), t("planning", lang), font(22), fill=INK, shadow=1)
    return img


def _legend_end(lang: str) -> float:
    """Where the table's legend ends (measured once per language on a scratch image)."""
    if lang not in _LEGEND_END:
        scratch = ImageDraw.Draw(Image.new("RGB", (W, 400)))
        _LEGEND_END[lang] = LEGEND_Y + explain(
            scratch, (MAP_X + 6, 4), _legend_items(lang), font(18), MAP_W - 12
        )
    return _LEGEND_END[lang]


_LEGEND_END: dict[str, float] = {}


def _track_x(v: float) -> float:
    return MAP_X + 30 + (MAP_W - 60) * min(max(v, 0), TRACK_MAX) / TRACK_MAX


_base = kit.per_language(_build_base)
_TABLE_PALETTE = kit.palette_for(
    _base(i18n.DEFAULT),
    [
        *(seat_rgb(c) for c in range(6)),
        *(kit.blend(seat_rgb(c), kit.BG2, 0.9) for c in range(6)),
        *(kit.blend(seat_rgb(c), BG, 0.55) for c in range(6)),
        *RES_RGB.values(),
        *(HIDDEN_RGB, TERRA_RGB, SLOT_RGB, GOLD, INK, MUTED, FAINT, kit.DARK, PANEL, PANEL_EDGE),
        *(kit.BG2, kit.GREEN, (0, 0, 0), (255, 255, 255)),
    ],
)


# --------------------------------------------------------------------------- helpers


def _n(view: dict, names: Sequence[str]) -> int:
    n = view.get("players")
    return n if kit.is_int(n) and 1 <= n <= 6 else max(1, min(6, len(names)))


def _card_label(card: str, lang: str) -> str:
    return t(f"card.{card}", lang)


# --------------------------------------------------------------------------- table parts


def _draw_header(d: ImageDraw.ImageDraw, view: dict, lang: str) -> None:
    kit.rounded_box(d, (8, 6, W - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    cy = HEADER_H / 2 + 1
    title = i18n.t("ad_astra.name", lang)
    text(d, (24, cy), title, font(32), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(32).getlength(title) + 24
    rnd = view.get("round")
    if kit.is_int(rnd) and rnd > 0:
        s = t("round", lang, n=rnd)
        text(d, (x, cy), s, font(30), fill=INK, anchor="lm")
        x += font(30).getlength(s) + 20
    phase = i18n.t(str(view.get("phase") or "ad_astra.phase.plan"), lang)
    x += kit.pill(d, x, 14, HEADER_H - 12, phase, font(26), (120, 170, 255)) + 18
    notes = []
    if view.get("ending") and not view.get("over"):
        notes.append((t("last_round", lang), GOLD))
    fd = view.get("face_down")
    if kit.is_int(fd):
        notes.append((t("face_down", lang, n=fd), MUTED))
    for s, col in notes:
        s2, f = kit.fit_font(s, max(40, W - 24 - x), (24, 22, 20, 18))
        text(d, (x, cy), s2, f, fill=col, anchor="lm")
        x += f.getlength(s2) + 18


def _draw_systems(d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    planets = [p for p in kit.list_at(view, "planets") if isinstance(p, dict)]
    ships_on: dict[int, list[int]] = {}
    for seat, sh in enumerate(kit.list_at(view, "ships")[:n]):
        for pid in sh if isinstance(sh, list) else []:
            if kit.is_int(pid) and pid >= 0:
                ships_on.setdefault(pid, []).append(seat)
    by_sys: dict[str, list[dict]] = {}
    for p in planets:
        by_sys.setdefault(str(p.get("sys")), []).append(p)
    for code in _GRID:
        ps = by_sys.get(code, [])
        x0, y0, _x1, y1 = _sys_box(code)
        k = len(ps)
        per_row = k if k <= 3 else (k + 1) // 2
        rows = 1 if k <= 3 else 2
        cw = (SYS_W - 16) / max(per_row, 1)
        top = y0 + 40
        rh = (y1 - 8 - top) / rows
        r = min(cw * 0.3, rh * 0.3, 26)
        for i, p in enumerate(ps):
            row, col = divmod(i, per_row)
            count_in_row = per_row if row < rows - 1 else k - per_row * (rows - 1)
            offs = (SYS_W - 16 - count_in_row * cw) / 2
            cx = x0 + 8 + offs + cw * (col + 0.5)
            cy = top + rh * row + rh * 0.42
            _draw_planet(d, (cx, cy), r, p, ships_on.get(int(p.get("id", -1)), []), n)


def _draw_planet(
    d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, p: dict, ships: list[int], n: int
) -> None:
    cx, cy = c
    typ = p.get("type")
    res_icon(d, c, r, typ if typ in RES_RGB else None)
    pid = p.get("id")
    if kit.is_int(pid):  # the number the buttons name the planet by
        text(d, (cx + 6, cy + r + 12), str(pid + 1), font(18), fill=INK, anchor="mm", outline=2)
    tf = p.get("terraformed_by")
    if kit.is_seat(tf, n):
        terra_ring(d, c, r)
    b = p.get("building")
    if isinstance(b, list) and len(b) == 2 and kit.is_seat(b[0], n):
        colony_icon(d, (cx + r * 0.8, cy - r * 0.75), r * 0.55, int(b[0]), b[1] == "f")
    # ships: one icon each, stacked (one seat's ships only: others' pawns block a planet)
    for k, seat in reversed(list(enumerate(ships[:4]))):
        ship_icon(d, (cx - r * 0.85 - k * r * 0.5, cy + r * 0.85 - k * r * 0.2), r * 0.48, seat)


def _draw_deep(d: ImageDraw.ImageDraw, view: dict, n: int, lang: str) -> None:
    x = MAP_X + 14 + min(190, font(22).getlength(t("deep_space", lang))) + 24
    cy = DEEP_Y + DEEP_H / 2 + 2
    any_ship = False
    for seat, sh in enumerate(kit.list_at(view, "ships")[:n]):
        k = sum(1 for pid in (sh if isinstance(sh, list) else []) if pid == -1)
        if not k:
            continue
        any_ship = True
        ship_icon(d, (x + 14, cy), 15, seat)
        text(d, (x + 34, cy), f"×{k}", font(24), fill=INK, anchor="lm")
        x += 90
    if not any_ship:
        text(d, (x, cy), "—", font(22), fill=FAINT, anchor="lm")


def _draw_track(d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    scores = kit.list_at(view, "scores")[:n]
    ty = TRACK_Y + TRACK_H - 26
    stacks: dict[int, int] = {}
    for seat in sorted(range(len(scores)), key=lambda i: -int(kit.int_of(scores[i]))):
        v = kit.int_of(scores[seat])
        key = round(_track_x(v) / 12)
        h = stacks.get(key, 0)
        stacks[key] = h + 1
        col, row = divmod(h, 3)
        x = _track_x(v) + col * 26
        y = ty - 20 - row * 22
        seat_mark(d, (x, y), 12, seat)
        if v > TRACK_MAX:
            text(d, (x + 16, y), str(v), font(18), fill=INK, anchor="lm")


def _slot_layout(count: int) -> tuple[int, float, float]:
    cols = 5 if count > 12 else 4
    sw = (COL_W - (cols - 1) * 6) / cols
    return cols, sw, 96.0


def _draw_board(d: ImageDraw.ImageDraw, view: dict, n: int, lang: str) -> float:
    slots = kit.list_at(view, "slots")
    facs = kit.list_at(view, "factions")
    cur = view.get("current_slot")
    cols, sw, sh = _slot_layout(len(slots))
    y0 = BOARD_Y + 34
    for i, sl in enumerate(slots):
        r, c = divmod(i, cols)
        x = COL_X + c * (sw + 6)
        y = y0 + r * (sh + 6)
        box = (x, y, x + sw, y + sh)
        now = kit.is_int(cur) and cur == i + 1
        if not isinstance(sl, dict) or not kit.is_seat(sl.get("seat"), n):
            d.rounded_rectangle(box, radius=8, fill=SLOT_RGB, outline=FAINT, width=1)
            text(d, (x + sw / 2, y + sh / 2), str(i + 1), font(22), fill=FAINT, anchor="mm")
            continue
        seat = int(sl["seat"])
        card = sl.get("card")
        col = seat_rgb(seat)
        if card is None:
            card_back(d, box, seat, now)
            text(d, (x + 6, y + 4), str(i + 1), font(18), fill=INK)
            continue
        d.rounded_rectangle(
            box,
            radius=8,
            fill=kit.blend(col, kit.BG2, 0.75),
            outline=GOLD if now else col,
            width=4 if now else 3,
        )
        text(d, (x + 6, y + 3), str(i + 1), font(18), fill=MUTED)
        if not isinstance(card, str) or not card:
            continue
        label, f = kit.fit_font(t(f"short.{card[0]}", lang), sw - 4, (20, 19, 18))
        text(d, (x + sw / 2, y + 33), label, f, fill=INK, anchor="mm")
        fac = facs[seat] if seat < len(facs) else None
        if card[:1] in ("p", "m") and isinstance(fac, str):
            try:
                pa, pb = card_pair(fac, card)
            except (KeyError, IndexError, ValueError):
                continue
            if card[0] == "p":
                res_icon(d, (x + sw / 2 - 17, y + sh - 23), 15, pa)
                res_icon(d, (x + sw / 2 + 17, y + sh - 23), 15, pb)
            else:
                for j, code in enumerate((pa, pb)):
                    s, f = kit.fit_font(t(f"abbr.{code}", lang), sw - 8, (19, 18), "cond")
                    text(d, (x + sw / 2, y + sh - 34 + j * 20), s, f, fill=INK, anchor="mm")
        elif card in SCORING:
            for j, elem in enumerate(SCORING[card]):
                s, f = kit.fit_font(t(f"elem.{elem}", lang), sw - 8, (19, 18), "cond")
                text(d, (x + sw / 2, y + sh - 34 + j * 20), s, f, fill=GOLD, anchor="mm")
    rows = max(1, math.ceil(len(slots) / cols))
    return y0 + rows * (sh + 6) + 6


def _turn_seat(view: dict) -> int | None:
    if view.get("planner") is not None:
        p = view.get("planner")
        return p if kit.is_int(p) else None
    task = kit.dict_at(view, "task")
    tn = task.get("turn")
    if kit.is_int(tn):
        return tn
    o = task.get("owner")
    return o if kit.is_int(o) else None


def _draw_players(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    y: float,
    view: dict,
    names: Sequence[str],
    n: int,
    lang: str,
) -> float:
    scores = kit.list_at(view, "scores")
    pieces = kit.list_at(view, "pieces")
    hands = kit.list_at(view, "hand_count")
    acts = kit.list_at(view, "action_cards")
    arts = kit.list_at(view, "artifact_count")
    played = kit.list_at(view, "scoring_played")
    open_hands = kit.list_at(view, "open_hands")
    first = view.get("first")
    turn = _turn_seat(view)
    result = kit.dict_at(view, "result")
    winners = set(kit.list_at(result, "winners"))
    ph = PANEL_H
    for seat in range(n):
        hl = (seat in winners) if view.get("over") else seat == turn
        name = kit.player_name(names, seat, lang)
        shown = [_at(xs, seat) for xs in (scores, pieces, hands, acts, arts, played, open_hands)]
        key = (lang, seat, y, hl, name, first == seat, repr(shown))
        box = (COL_X, y, COL_X + COL_W, y + ph)
        draw = partial(_draw_panel, d, y, shown, names, seat, hl, first == seat, lang)
        cached_region(_PANELS, img, box, key, draw)
        y += ph + 6
    return y


def _at(xs: list, seat: int) -> Any:
    return xs[seat] if seat < len(xs) else None


def _draw_panel(
    d: ImageDraw.ImageDraw,
    y: float,
    shown: list[Any],
    names: Sequence[str],
    seat: int,
    hl: bool,
    first: bool,
    lang: str,
) -> None:
    """One player's panel: name, score, pieces in play, counts, scoring cards played
    (``shown``: the seat's score, pieces, hand, action cards, artifacts, scoring cards
    played and open hand, from the view's lists)."""
    score, piece, hand_n, act_n, art_n, sp_, open_hand = shown
    ph = PANEL_H
    box = (COL_X, y, COL_X + COL_W, y + ph)
    kit.seat_panel(d, box, seat, highlight=hl)
    seat_key(d, (COL_X + 30, y + 28), 15, seat)
    sc = str(kit.int_of(score))
    fs = font(32)
    scw = fs.getlength(sc)
    text(d, (COL_X + COL_W - 14, y + 28), sc, fs, fill=GOLD, anchor="rm")
    xname = COL_X + 52
    maxw = COL_X + COL_W - 24 - scw - xname - (40 if first else 0)
    name, f = kit.fit_font(kit.player_name(names, seat, lang), maxw, (28, 26, 24, 22, 20))
    text(d, (xname, y + 28), name, f, fill=INK, anchor="lm")
    if first:
        xf = xname + f.getlength(name) + 10
        first_badge(d, xf, y + 15, y + 41)
    # pieces in play, out of four each
    pc = piece if isinstance(piece, dict) else {}
    x = COL_X + 20
    cy = y + 64
    for kind in ("c", "f", "tf", "ship"):
        k = kit.int_of(pc.get(kind))
        if kind == "ship":
            ship_icon(d, (x + 12, cy + 1), 12, seat)
        elif kind == "tf":
            terra_icon(d, (x + 12, cy), 12, seat)
        else:
            colony_icon(d, (x + 12, cy), 12, seat, kind == "f")
        text(d, (x + 27, cy), f"{k}/{PIECES}", font(21), fill=INK, anchor="lm")
        x += 72
    # counts: resource cards, action cards, artifacts, scoring cards played
    x = COL_X + 20
    hc, ac, ar = kit.int_of(hand_n), kit.int_of(act_n), kit.int_of(art_n)
    trading = isinstance(open_hand, dict)
    if not trading:
        s, f = kit.fit_font(t("counts_res", lang, res=hc), COL_W - 34, (20, 19, 18))
        text(d, (x, y + 95), s, f, fill=MUTED, anchor="lm")
    s, f = kit.fit_font(t("counts", lang, act=ac, art=ar), COL_W - 34, (20, 19, 18))
    text(d, (x, y + 120), s, f, fill=MUTED, anchor="lm")
    # the scoring cards already played this cycle
    sp = sp_ if isinstance(sp_, list) else []
    for j, sc_card in enumerate(("s1", "s2", "s3")):
        on = sc_card in sp
        xx = COL_X + COL_W - 62 + j * 22
        text(d, (xx, cy), "★", font(22), fill=GOLD if on else FAINT, anchor="mm")
    if trading:
        hand = open_hand
        x = COL_X + 20
        cy3 = y + 95
        for r in RES:
            res_icon(d, (x + 15, cy3), 15, r)
            text(d, (x + 34, cy3), str(kit.int_of(hand.get(r))), font(20), fill=INK, anchor="lm")
            x += 60


def _draw_bank(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str) -> float:
    """The bank's resource cards, in a row under the legend."""
    bank = kit.dict_at(view, "bank")
    if not bank:
        return y
    x: float = MAP_X + 10
    text(d, (x, y + 18), t("bank", lang), font(20), fill=MUTED, anchor="lm")
    x += font(20).getlength(t("bank", lang)) + 16
    for r in RES:
        res_icon(d, (x + 15, y + 18), 15, r)
        text(d, (x + 35, y + 18), str(kit.int_of(bank.get(r))), font(20), fill=INK, anchor="lm")
        x += 76
    return y + 38


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    base = _base(lang)
    n = _n(view, names)
    slots = kit.list_at(view, "slots")
    cols, _, sh = _slot_layout(len(slots))
    rows = max(1, math.ceil(len(slots) / cols))
    ph = PANEL_H
    right = BOARD_Y + 34 + rows * (sh + 6) + 6 + n * (ph + 6)
    left = _legend_end(lang) + 42
    h = int(max(left, right) + 8)
    if h <= base.height:
        img = base.crop((0, 0, W, h))
    else:
        img = Image.new("RGB", (W, h), BG)
        img.paste(base, (0, 0))
    d = ImageDraw.Draw(img)
    _draw_header(d, view, lang)
    # the legend: drawn on each picture (not in the static layer) so a test sees it there
    explain(d, (MAP_X + 6, LEGEND_Y + 4), _legend_items(lang), font(18), MAP_W - 12)
    # the galaxy, the planning board and each player's panel: drawn once per state (on the
    # static layer of this language), pasted afterwards (render.regions)
    where = (lang, n, repr(view.get("planets")), repr(kit.list_at(view, "ships")[:n]))
    cached_region(_MAPS, img, _MAP_BOX, where, lambda: _draw_systems(d, view, n))
    _draw_deep(d, view, n, lang)
    _draw_track(d, view, n)
    key = (lang, n, repr(slots), repr(view.get("factions")), view.get("current_slot"))
    board = (COL_X - 4, BOARD_Y + 30, W - 6, BOARD_Y + 34 + rows * (sh + 6))
    y = cached_region(_BOARDS, img, board, key, lambda: _draw_board(d, view, n, lang))
    y = _draw_players(img, d, y, view, names, n, lang)
    _draw_bank(d, _legend_end(lang), view, lang)
    return img


#: The galaxy's box (and the margin a stack of ships may reach past a system's frame).
_MAP_BOX = (0, MAP_Y - 4, COL_X - 4, DEEP_Y - 3)
#: Bounded for memory (about 17 MB in all).
_MAPS = region_store(4)
_BOARDS = region_store(8)
_PANELS = region_store(16)


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is never read."""
    return kit.picture_png(_draw_table, _TABLE_PALETTE, kit.public(view), names, _lang(lang))


# --------------------------------------------------------------------------- private

PW = 1000


def _has_private(priv: Any) -> bool:
    return isinstance(priv, dict) and any(
        priv.get(k) for k in ("action_hand", "planned", "resources", "artifacts", "known_planets")
    )


def render_private(
    view: dict, names: list[str], lang: str, seat: int | None = None
) -> bytes | None:
    """PNG bytes of one seat's secrets: action cards in hand and planned, resource cards,
    artifacts and the hidden planets it has looked at. ``None`` when there is nothing
    private. The seat comes from ``seat`` or ``view["seat"]``/``private["seat"]``."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    assert isinstance(priv, dict)
    if seat is None:
        for cand in (view.get("seat"), priv.get("seat")):
            if kit.is_seat(cand, 6):
                seat = cand
                break
    # the game's one palette
    return kit.picture_png(_draw_private, _TABLE_PALETTE, view, priv, names, _lang(lang), seat)


def _section(d: ImageDraw.ImageDraw, y: float, title: str) -> float:
    text(d, (24, y), title, font(26), fill=GOLD, shadow=1)
    return y + 38


def _action_card(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    h: float,
    card: str,
    faction: str | None,
    lang: str,
    badge: str = "",
) -> None:
    kit.rounded_box(d, (x, y, x + w, y + h), radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    title = t("scoring", lang) if card in SCORING else _card_label(card, lang)
    bw = font(16).getlength(badge) + 12 if badge else 0
    label, f = kit.fit_font(title, w - 16 - bw, (20, 18, 16, 15), "cond")
    if badge:
        text(d, (x + w - 8, y + 12), badge, font(16), fill=GOLD, anchor="ra")
    text(d, (x + 8, y + 10), label, f, fill=INK)
    if card in SCORING:
        a, b = SCORING[card]
        for i, elem in enumerate((a, b)):
            s, fs = kit.fit_font(
                i18n.t(f"ad_astra.score.{elem}", lang), w - 36, (17, 16, 15), "cond"
            )
            text(d, (x + 12, y + h - 44 + i * 22), "•", font(18), fill=GOLD, anchor="lm")
            text(d, (x + 30, y + h - 44 + i * 22), s, fs, fill=MUTED, anchor="lm")
    if card[:1] in ("p", "m") and faction:
        try:
            a, b = card_pair(faction, card)
        except (KeyError, IndexError, ValueError):
            return
        for i, code in enumerate((a, b)):  # one line each: the two resources or systems
            yy = y + h - 45 + i * 24
            if card[0] == "p":
                res_icon(d, (x + 22, yy), 13, code)
                s, fs = kit.fit_font(t(f"res.{code}", lang), w - 50, (17, 16, 15), "cond")
                text(d, (x + 42, yy), s, fs, fill=MUTED, anchor="lm")
            else:
                text(d, (x + 12, yy), "•", font(18), fill=GOLD, anchor="lm")
                s, fs = kit.fit_font(_sys_name(code, lang), w - 36, (17, 16, 15), "cond")
                text(d, (x + 30, yy), s, fs, fill=MUTED, anchor="lm")


def _draw_private(
    view: dict, priv: dict, names: Sequence[str], lang: str, seat: int | None
) -> Image.Image:
    faction = priv.get("faction") if isinstance(priv.get("faction"), str) else None
    hand = [c for c in kit.list_at(priv, "action_hand") if isinstance(c, str)]
    planned = {str(k): v for k, v in kit.dict_at(priv, "planned").items() if isinstance(v, str)}
    res = kit.dict_at(priv, "resources")
    arts = [a for a in kit.list_at(priv, "artifacts") if isinstance(a, str)]
    known_planets = kit.dict_at(priv, "known_planets")
    known = {str(k): v for k, v in known_planets.items() if isinstance(v, str)}
    planets = {
        int(p["id"]): p
        for p in kit.list_at(view, "planets")
        if isinstance(p, dict) and kit.is_int(p.get("id"))
    }
    cw, ch, cols = 232, 96, 4
    hand_rows = max(1, math.ceil(len(hand) / cols))
    plan_rows = math.ceil(len(planned) / cols) if planned else 0
    known_by_sys: dict[str, list[tuple[int, str]]] = {}
    for pid, typ in sorted(known.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0):
        p = planets.get(int(pid)) if pid.isdigit() else None
        sys_ = str(p.get("sys")) if p else "?"
        known_by_sys.setdefault(sys_, []).append((int(pid) + 1 if pid.isdigit() else 0, typ))
    h = 80 + 38 + hand_rows * (ch + 10) + 10
    if plan_rows:
        h += 38 + plan_rows * (ch + 10) + 10
    h += 38 + 2 * 46 + 10
    h += 38 + max(1, len(arts)) * 56 + 10
    h += 38 + max(1, sum(math.ceil(len(v) / 4) for v in known_by_sys.values())) * 46 + 10
    img = kit.star_field((PW, int(h)), seed=5)
    d = ImageDraw.Draw(img)
    who = kit.player_name(names, seat, lang) if seat is not None else ""
    title = t("private.title", lang, name=who) if who else t("private.anon", lang)
    mark = (lambda cy: seat_key(d, (36, cy), 16, seat)) if seat is not None else None
    sizes = (30, 28, 26, 24)
    kit.title_bar(d, PW, 70, title, room=PW - 90, text_x=62, token=mark, sizes=sizes, shadow=0)
    y = 84.0
    y = _section(d, y, t("private.hand", lang, n=len(hand)))
    if not hand:
        text(d, (24, y + 10), "—", font(22), fill=FAINT)
    for i, card in enumerate(hand):
        r, c = divmod(i, cols)
        _action_card(d, 20 + c * (cw + 8), y + r * (ch + 10), cw, ch, card, faction, lang)
    y += hand_rows * (ch + 10) + 10
    if planned:
        y = _section(d, y, t("private.planned", lang))
        items = sorted(planned.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0)
        for i, (slot, card) in enumerate(items):
            r, c = divmod(i, cols)
            badge = t("private.slot", lang, n=slot)
            _action_card(
                d, 20 + c * (cw + 8), y + r * (ch + 10), cw, ch, card, faction, lang, badge
            )
        y += plan_rows * (ch + 10) + 10
    total = sum(kit.int_of(res.get(rc)) for rc in RES)
    y = _section(d, y, t("private.resources", lang, n=total))
    held = [res_item(rc, f"{kit.int_of(res.get(rc))} {t(f'res.{rc}', lang)}") for rc in RES]
    y = explain(d, (24, y), held, font(26), PW - 48, icon=40, gap=28, fill=INK) + 10
    y = _section(d, y, t("private.artifacts", lang))
    if not arts:
        text(d, (24, y + 8), t("private.none", lang), font(20, "book"), fill=FAINT)
        y += 56
    for a in arts:
        name = str(ARTIFACTS.get(a, {}).get("name", a))
        kit.rounded_box(
            d,
            (20, y, PW - 20, y + 48),
            radius=10,
            fill=kit.blend(RES_RGB["A"], kit.BG2, 0.8),
            outline=RES_RGB["A"],
        )
        text(d, (36, y + 24), name, font(22), fill=INK, anchor="lm")
        xd = 44 + font(22).getlength(name)
        s, fs = kit.fit_font(t(f"art.{a}", lang), PW - 40 - xd, (18, 16, 15), "book")
        text(d, (xd, y + 25), s, fs, fill=MUTED, anchor="lm")
        y += 56
    y = _section(d, y, t("private.known", lang))
    if not known_by_sys:
        text(d, (24, y + 8), t("private.none", lang), font(20, "book"), fill=FAINT)
        y += 46
    for sys_, seen in sorted(known_by_sys.items()):
        s, fs = kit.fit_font(_sys_name(sys_, lang) if sys_ in _GRID else sys_, 220, (22, 20, 18))
        text(d, (24, y + 18), s, fs, fill=INK, anchor="lm")
        # each planet with the number the table shows on it, and its type in words
        items = [
            res_item(typ if typ in RES_RGB else None, t("private.planet", lang, n=no, res=typ))
            for no, typ in seen
        ]
        y = explain(d, (260, y + 2), items, font(20), PW - 284, icon=34, gap=20) + 6
    return img
