"""Board pictures for Mission: Red Planet.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (never reads ``view["private"]``):
  Mars with its zones, their links (who may walk where), astronauts per colour as numbers,
  resources face up or hidden, point tokens waiting, hidden discoveries, Phobos and the
  Memorial; the launchpad (each ship's capacity, crew and destination; a ship in flight
  shown in a dock left empty, by launch number); the round track with its productions;
  this round's countdown; each player's score, tokens, played characters and whether they
  have chosen; and a legend of every mark drawn (see :func:`marks`).

Read on a phone: Discord shows a picture about 400 px wide, so no text on the table is
smaller than :data:`MIN_FONT` (6 px at 400 px), none on the private picture smaller than
:data:`PRIVATE_MIN_FONT`, and the table is never taller than wide
(``tests/render/test_readable.py``).
* :func:`render_private` — PNG bytes of one seat's secrets (hand, the chosen character,
  missions, action cards, the discoveries it has looked at), or ``None`` when the view holds
  nothing private.

Board constants come from :mod:`rules.red_planet.data`; every word comes from
``data/red_planet/strings.json`` (``red_planet.render.*``). The static layer (sky, Mars,
links, zone frames and names) is drawn once per language and copied for every picture; the
round track's two rows, each launchpad row, the legend (by the marks drawn) and the
players' chips and character cards are layers drawn once and pasted
(:mod:`render.layers`), where nothing else is drawn on them.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit, layers
from render.kit import FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.red_planet.private import (
    PRIVATE_BODY_FONT,
    PRIVATE_MIN_FONT,
    _draw_private,
    _has_private,
)
from render.red_planet.seats import MIN_FONT, _lang, _zone_name, seat_rgb, seat_shape, t, token
from render.red_planet.words import describe_private, describe_table  # noqa: F401
from rules.red_planet.data import (
    ADJ,
    CHAR_NUMS,
    PHOBOS,
    PRODUCTION,
    RES_TYPES,
    RES_VALUE,
    ROUNDS,
    ZONES,
)

__all__ = [
    "PRIVATE_BODY_FONT",
    "PRIVATE_MIN_FONT",
    "render_private",
    "render_table",
    "seat_rgb",
    "seat_shape",
]

_LOCK = threading.Lock()

W = 1400
HEADER_H = 72
MAP_W = 800  # the left part: Mars, Phobos, the Memorial, the round track, the legend
COL_X = MAP_W + 14  # the right column: launchpad (ships in flight in their docks), players
COL_W = W - COL_X - 10

MARS_C = (400.0, HEADER_H + 405.0)
RING_RX, RING_RY = 298.0, 322.0
NODE_W, NODE_H = 214, 172

RES_RGB: dict[str, RGB] = {
    "ice": (170, 222, 252),
    "syl": (192, 170, 250),
    "cel": (255, 128, 96),
}
MARS_RGB: RGB = (126, 52, 34)
MARS_DARK: RGB = (84, 34, 26)
ZONE_RGB: RGB = (58, 30, 34)
ZONE_EDGE: RGB = (196, 112, 84)
PHOBOS_RGB: RGB = (78, 78, 96)
LINK_RGB: RGB = (236, 170, 120)
MEMORIAL_RGB: RGB = (54, 46, 70)
SHIP_RGB: RGB = (40, 48, 88)
NOW_RGB: RGB = (200, 84, 56)
CREAM: RGB = (226, 216, 190)


# --------------------------------------------------------------------------- marks

#: The marks (shapes and badges that stand for something) drawn on the last picture, and
#: those its legend explains: every drawn mark must be explained on the same picture
#: (tests/render/test_red_planet_render.py). Reset for each picture under ``_LOCK``.
_MARKS: dict[str, set[str]] = {"drawn": set(), "legend": set()}


def _mark(kind: str) -> None:
    _MARKS["drawn"].add(kind)


def marks() -> tuple[set[str], set[str]]:
    """(marks drawn, marks explained by the legend) on the last picture rendered."""
    return set(_MARKS["drawn"]), set(_MARKS["legend"])


# --------------------------------------------------------------------------- seats


def _name(names: Sequence[str], c: int, view: dict, lang: str) -> str:
    if c == view.get("neutral"):
        return t("neutral", lang)
    return kit.player_name(names, c, lang)


# --------------------------------------------------------------------------- geometry

#: Where each outer zone sits on the ring, in degrees clockwise from north (north = OM, TH,
#: VB, AT; east = VB, AT, SM, MT), so the compass groups of the missions read naturally.
_ANGLE = {"VB": 22.5, "AT": 67.5, "SM": 112.5, "MT": 157.5, "HP": 202.5, "EP": 247.5}
_ANGLE.update({"OM": 292.5, "TH": 337.5})


def _zone_center(z: str) -> tuple[float, float]:
    if z == PHOBOS:
        return (86.0, HEADER_H + 103.0)
    if z not in _ANGLE:
        return MARS_C
    a = math.radians(_ANGLE[z])
    return (MARS_C[0] + RING_RX * math.sin(a), MARS_C[1] - RING_RY * math.cos(a))


def _zone_box(z: str) -> tuple[float, float, float, float]:
    cx, cy = _zone_center(z)
    w, h = (150, NODE_H) if z == PHOBOS else (NODE_W, NODE_H)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


MEMORIAL_BOX = (MAP_W - 166.0, HEADER_H + 14.0, MAP_W - 10.0, HEADER_H + 156.0)
TRACK_Y = HEADER_H + 818.0
LEGEND_Y = TRACK_Y + 104.0


# --------------------------------------------------------------------------- static layer


def _build_base(lang: str) -> Image.Image:
    img = kit.star_field((W, W), seed=11)
    d = ImageDraw.Draw(img)
    # Mars
    cx, cy = MARS_C
    for k, col in enumerate((MARS_DARK, MARS_RGB)):
        rx, ry = RING_RX + 70 - k * 8, RING_RY + 70 - k * 8
        d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=col)
    for i in range(7):  # a few craters, always the same
        a = i * 0.9 + 0.4
        rr = 30 + (i * 37) % 60
        px, py = cx + math.cos(a) * (120 + i * 22), cy + math.sin(a) * (140 + i * 18)
        d.ellipse((px - rr, py - rr, px + rr, py + rr), fill=kit.blend(MARS_RGB, MARS_DARK, 0.35))
    # links between neighbouring zones (under the zones)
    for za in ZONES:
        for zb in ADJ[za]:
            if za < zb:
                _link(d, _zone_center(za), _zone_center(zb))
    # zone frames and names
    for z in ZONES:
        box = _zone_box(z)
        if z == PHOBOS:
            # the moon: a grey disc behind the frame
            pcx, pcy = _zone_center(z)
            d.ellipse((pcx - 84, pcy - 94, pcx + 84, pcy + 94), fill=(54, 54, 70))
            kit.rounded_box(d, box, radius=16, fill=PHOBOS_RGB, outline=(170, 170, 196), width=3)
        else:
            kit.rounded_box(d, box, radius=16, fill=ZONE_RGB, outline=ZONE_EDGE, width=3)
        name, f = kit.fit_font(_zone_name(z, lang), box[2] - box[0] - 16, (24, 22), "bold")
        text(d, ((box[0] + box[2]) / 2, box[1] + 20), name, f, fill=INK, anchor="mm", shadow=2)
    # the Memorial
    kit.rounded_box(d, MEMORIAL_BOX, radius=14, fill=MEMORIAL_RGB, outline=(140, 120, 170))
    title, f = kit.fit_font(t("memorial", lang), 146, (22, MIN_FONT))
    mx = (MEMORIAL_BOX[0] + MEMORIAL_BOX[2]) / 2
    text(d, (mx, MEMORIAL_BOX[1] + 20), title, f, fill=INK, anchor="mm")
    # a compass (bottom right of the map): the missions speak of north, south, east, west
    cx, cy = MAP_W - 58.0, TRACK_Y - 86.0
    d.ellipse((cx - 44, cy - 44, cx + 44, cy + 44), fill=kit.BG2, outline=PANEL_EDGE, width=2)
    for side, (dx, dy) in zip("nesw", ((0, -1), (1, 0), (0, 1), (-1, 0)), strict=True):
        d.line((cx, cy, cx + dx * 16, cy + dy * 16), fill=MUTED, width=3)
        word = t(f"compass.{side}", lang)
        text(d, (cx + dx * 30, cy + dy * 30), word, font(MIN_FONT), fill=INK, anchor="mm")
    return img


def _link(d: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float]) -> None:
    d.line((*p, *q), fill=kit.blend(LINK_RGB, MARS_RGB, 0.15), width=9)
    d.line((*p, *q), fill=(70, 30, 22), width=3)


def _res_chip(
    d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, res: str | None, label: str
) -> None:
    """A resource token: a dark rounded square edged and numbered in the resource's colour
    (grey "?" = face down), unlike the players' tokens, which are filled shapes."""
    cx, cy = center
    col = RES_RGB.get(res or "", (150, 150, 166))
    d.rounded_rectangle((cx - r + 1, cy - r + 2, cx + r + 1, cy + r + 2), radius=r * 0.35, fill=0)
    d.rounded_rectangle(
        (cx - r, cy - r, cx + r, cy + r),
        radius=r * 0.35,
        fill=(24, 22, 38),
        outline=col,
        width=max(2, round(r / 5)),
    )
    if label:
        size = max(MIN_FONT, round(r * (1.15 if len(label) < 2 else 0.9)))
        text(d, (cx, cy + 1), label, font(size), fill=col, anchor="mm")
    else:
        k = r * 0.45
        d.polygon([(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)], fill=col)


def _card_back(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    """A face-down discovery card."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=(60, 80, 130), outline=INK, width=2)
    text(d, (x + w / 2, y + h / 2 + 1), "?", font(MIN_FONT), fill=INK, anchor="mm")


def _first_badge(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    d.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=GOLD, outline=kit.DARK)
    text(d, (cx, cy + 1), "1", font(MIN_FONT), fill=kit.DARK, anchor="mm")


def _saucer(d: ImageDraw.ImageDraw, sx: float, cy: float) -> None:
    d.ellipse((sx - 7, cy - 12, sx + 7, cy - 1), fill=(150, 220, 255))
    d.ellipse((sx - 14, cy - 5, sx + 14, cy + 5), fill=MUTED, outline=kit.DARK)


def _mini_card(
    d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, s: str, up: bool = True
) -> None:
    """A character card: face up (played, cream) or only its number, dim (in hand)."""
    if up:
        d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=CREAM, outline=kit.DARK)
        text(d, (x + w / 2, y + h / 2 + 1), s, font(MIN_FONT), fill=kit.DARK, anchor="mm")
    else:
        d.rounded_rectangle((x, y, x + w, y + h), radius=4, outline=FAINT, width=1)
        text(d, (x + w / 2, y + h / 2 + 1), s, font(MIN_FONT, "cond"), fill=FAINT, anchor="mm")


_base = kit.per_language(_build_base)
#: The table's colours, fixed once: its static layer's plus every colour drawn on top (a
#: fixed palette makes the PNG twice as fast to encode as quantizing each picture).
_TABLE_PALETTE = kit.palette_for(
    _base(i18n.DEFAULT),
    [
        *(seat_rgb(c) for c in range(6)),
        *RES_RGB.values(),
        *(GOLD, INK, MUTED, FAINT, kit.DARK, PANEL, PANEL_EDGE, kit.BG2, kit.GREEN, SHIP_RGB),
        *(NOW_RGB, (192, 80, 56), CREAM, (40, 110, 64), (110, 90, 20)),
        *((70, 44, 50), (0, 0, 0), (24, 22, 38), (150, 220, 255), (150, 150, 166)),
    ],
)


# --------------------------------------------------------------------------- dynamic parts


def _ints(seq: Any, n: int) -> list[int]:
    out = [0] * n
    if isinstance(seq, list):
        for i, v in enumerate(seq[:n]):
            out[i] = int(v) if isinstance(v, int | float) else 0
    return out


def _draw_zone(d: ImageDraw.ImageDraw, z: str, zone: dict, nc: int, lang: str) -> None:
    x0, y0, x1, y1 = _zone_box(z)
    disc = zone.get("discovery")
    revealed = isinstance(disc, str) and disc and disc != "hidden"
    yb = y1 - 22  # the bottom row: resource, tokens waiting, discovery
    # resource (bottom left)
    res = zone.get("resource")
    if res in RES_RGB:
        _res_chip(d, (x0 + 26, yb), 18, res, str(RES_VALUE[res]))
        _mark(f"res.{res}")
    else:
        _res_chip(d, (x0 + 26, yb), 18, None, "?")
        _mark("hidden_res")
    # discovery card (bottom right)
    if disc == "hidden":
        _card_back(d, x1 - 36, yb - 18, 26, 36)
        _mark("disc_hidden")
    elif revealed:  # revealed: its name on a pill above the bottom row
        name = i18n.t(f"red_planet.card.{disc}", lang)
        s, f = kit.fit_font(name, x1 - x0 + 4, (22, MIN_FONT), "cond")
        w = f.getlength(s) + 10
        mx, my = (x0 + x1) / 2, y1 - 55
        d.rounded_rectangle((mx - w / 2, my - 13, mx + w / 2, my + 13), radius=10, fill=GOLD)
        text(d, (mx, my + 1), s, f, fill=kit.DARK, anchor="mm")
    # astronauts per colour: the sole leader gets a gold ring
    counts = _ints(zone.get("astronauts"), nc)
    present = [(c, k) for c, k in enumerate(counts) if k > 0]
    top = max(counts) if counts else 0
    leaders = [c for c, k in enumerate(counts) if k == top and k > 0]
    per_row = 3 if z == PHOBOS or len(present) <= 3 else 4
    rr = 22
    gap = 46 if z == PHOBOS or per_row == 4 else 50
    rows = [present[i : i + per_row] for i in range(0, len(present), per_row)]
    ty = y0 + 64
    for row in rows:
        width = gap * (len(row) - 1)
        x = (x0 + x1) / 2 - width / 2
        for c, k in row:
            if len(leaders) == 1 and c == leaders[0]:
                d.ellipse(
                    (x - rr - 5, ty - rr - 5, x + rr + 5, ty + rr + 5), outline=GOLD, width=3
                )
                _mark("ring")
            token(d, (x, ty), rr, c, str(k))
            x += gap
        ty += 44
    if not present:
        text(d, ((x0 + x1) / 2, y0 + 64), "—", font(24), fill=FAINT, anchor="mm")
    # point tokens waiting in the zone (bottom, after the resource)
    pile = kit.dict_at(zone, "pile")
    waiting = [(r, int(pile.get(r) or 0)) for r in RES_TYPES if int(pile.get(r) or 0) > 0]
    x = x0 + 54
    for r, k in waiting:
        _res_chip(d, (x + 12, yb), 12, r, "")
        text(d, (x + 27, yb), f"×{k}", font(MIN_FONT, "cond"), fill=INK, anchor="lm")
        _mark("pile")
        x += 62


def _draw_memorial(d: ImageDraw.ImageDraw, memorial: list[int], nc: int) -> None:
    x0, y0, x1, _y1 = MEMORIAL_BOX
    dead = [(c, k) for c, k in enumerate(memorial[:nc]) if k > 0]
    if not dead:
        text(d, ((x0 + x1) / 2, y0 + 76), "—", font(24), fill=FAINT, anchor="mm")
        return
    for i, (c, k) in enumerate(dead[:6]):
        x = x0 + 30 + (i % 3) * 48
        y = y0 + 64 + (i // 3) * 48
        token(d, (x, y), 22, c, str(k))


def _draw_header(d: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str) -> None:
    kit.rounded_box(d, (8, 6, W - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    cy = HEADER_H / 2 + 1
    title = t("title", lang)
    text(d, (24, cy), title, font(30), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(30).getlength(title) + 26
    rnd = view.get("round")
    if isinstance(rnd, int) and rnd > 0:
        s = t("round", lang, round=min(rnd, ROUNDS), rounds=ROUNDS)
        text(d, (x, cy), s, font(28), fill=INK, anchor="lm")
        x += font(28).getlength(s) + 22
    phase = i18n.t(str(view.get("phase") or "red_planet.phase.choose"), lang)
    pw = font(24).getlength(phase) + 28
    d.rounded_rectangle((x, 14, x + pw, HEADER_H - 12), radius=18, fill=(192, 80, 56))
    text(d, (x + pw / 2, cy), phase, font(24), fill=INK, anchor="mm")
    x += pw + 20
    res = view.get("resolving")
    if isinstance(res, list) and len(res) == 2 and res[1] in CHAR_NUMS and not view.get("over"):
        c, num = int(res[0]), int(res[1])
        who = _name(names, c, view, lang)
        char = i18n.t(f"red_planet.char.{num}", lang)
        token(d, (x + 16, cy), 16, c, "")
        s, f = kit.fit_font(f"{char} · {who}", W - 30 - (x + 40), (26, 24, 22, MIN_FONT))
        text(d, (x + 40, cy), s, f, fill=INK, anchor="lm")


DOCK_H = 54


def _ship_row(
    d: ImageDraw.ImageDraw, y: float, label: str, ship: dict | None, lang: str, flying: bool
) -> None:
    x0, x1 = COL_X + 8, COL_X + COL_W - 8
    kit.rounded_box(
        d, (x0, y, x1, y + DOCK_H - 6), radius=10, fill=PANEL if flying else SHIP_RGB, width=2
    )
    cy = y + (DOCK_H - 6) / 2
    if flying:  # in flight: a small saucer and its launch number, as the buttons name it (🛸1)
        _saucer(d, x0 + 17, cy)
        text(d, (x0 + 40, cy), label, font(22), fill=GOLD, anchor="mm")
        _mark("flight")
    else:
        text(d, (x0 + 22, cy), label, font(26), fill=GOLD, anchor="mm")
    if ship is None:
        text(d, (x0 + 56, cy), t("empty_dock", lang), font(22), fill=FAINT, anchor="lm")
        return
    cap = int(ship.get("cap") or 0)
    crew = [int(c) for c in ship.get("crew") or [] if isinstance(c, int)]
    # seats: crew tokens, then empty circles
    r = 15
    x = x0 + 72
    for i in range(max(cap, len(crew))):
        if i < len(crew):
            token(d, (x, cy), r, crew[i], "")
        else:
            d.ellipse((x - r, cy - r, x + r, cy + r), outline=MUTED, width=2)
            _mark("free_seat")
        x += 2 * r + 6
    x = x0 + 72 - r + 5 * (2 * r + 6) + 4
    text(d, (x, cy), f"{len(crew)}/{cap}", font(22), fill=INK, anchor="lm")
    x += 54
    text(d, (x, cy), "→", font(26), fill=MUTED, anchor="lm")
    _mark("arrow")
    x += 34
    dest = ship.get("dest")
    dest_name = _zone_name(str(dest), lang) if dest in ZONES else "?"
    col = INK if dest in ZONES else GOLD
    if dest not in ZONES:
        _mark("no_dest")
    s, f = kit.fit_font(dest_name, x1 - x - 10, (24, 22, MIN_FONT), "bold")
    text(d, (x, cy), s, f, fill=col, anchor="lm")


def _marks_while(draw: Callable[[], None]) -> frozenset[str]:
    """The marks ``draw()`` draws (they are added to this picture's too)."""
    before = set(_MARKS["drawn"])
    _MARKS["drawn"].clear()
    try:
        draw()
    finally:
        got = frozenset(_MARKS["drawn"])
        _MARKS["drawn"].update(before)
    return got


ShipKey = tuple[int, tuple[int, ...], str | None] | None


@layers.layer_cache(maxsize=32)
def _dock_layer(
    lang: str, y: int, label: str, ship: ShipKey, flying: bool
) -> tuple[Image.Image, frozenset[str]]:
    """One launchpad row at ``y`` (nothing else is drawn on its strip of the right column)
    and the marks it drew."""
    row = None if ship is None else {"cap": ship[0], "crew": list(ship[1]), "dest": ship[2]}
    return layers.drawn_on(
        _base(lang),
        (COL_X, y, W, y + DOCK_H),
        lambda d: _marks_while(lambda: _ship_row(d, y, label, row, lang, flying)),
    )


def _ship_row_at(
    d: ImageDraw.ImageDraw,
    img: Image.Image | None,
    y: float,
    label: str,
    ship: dict | None,
    lang: str,
    flying: bool,
) -> None:
    """:func:`_ship_row`, pasted from its layer when ``img`` (the picture) is given."""
    if img is None or not float(y).is_integer():
        _ship_row(d, y, label, ship, lang, flying)
        return
    key: ShipKey = None
    if ship is not None:
        dest = ship.get("dest")
        key = (
            int(ship.get("cap") or 0),
            tuple(int(c) for c in ship.get("crew") or [] if isinstance(c, int)),
            dest if isinstance(dest, str) and dest in ZONES else None,
        )
    patch, marks_drawn = _dock_layer(lang, int(y), label, key, flying)
    img.paste(patch, (COL_X, int(y)))
    for mark in marks_drawn:
        _mark(mark)


def _draw_ships(
    d: ImageDraw.ImageDraw, y: float, view: dict, lang: str, img: Image.Image | None = None
) -> float:
    """The launchpad, one row per dock; a dock left empty by a launch shows a ship in flight
    (by launch number, as the buttons name them) until the ships land. With ``img`` (the
    picture ``d`` draws on), each row is pasted from its layer."""
    docks = kit.list_at(view, "docks")
    launched = [s for s in kit.list_at(view, "launched") if isinstance(s, dict)]
    deck = view.get("ship_deck")
    room = COL_W - 20.0
    if isinstance(deck, int):
        s = t("ship_deck", lang, n=deck)
        text(d, (COL_X + COL_W - 10, y + 14), s, font(MIN_FONT, "cond"), MUTED, "rm")
        room -= font(MIN_FONT, "cond").getlength(s) + 16
    title, f = kit.fit_font(t("launchpad", lang), room, (24, 22, MIN_FONT))
    text(d, (COL_X + 10, y + 14), title, f, fill=GOLD, anchor="lm")
    y += 32
    flying = list(enumerate(launched))
    rows = max(len(docks), len(launched))
    for i in range(rows):
        ship = docks[i] if i < len(docks) else None
        if isinstance(ship, dict):
            _ship_row_at(d, img, y, str(i + 1), ship, lang, flying=False)
        elif flying:
            j, sh = flying.pop(0)
            _ship_row_at(d, img, y, str(j + 1), sh, lang, flying=True)
        else:
            _ship_row_at(d, img, y, str(i + 1), None, lang, flying=False)
        y += DOCK_H
    return y + 6


def _track(d: ImageDraw.ImageDraw, view: dict, lang: str, img: Image.Image | None = None) -> None:
    """Round track 1..10 (productions marked) and this round's countdown 9..1. With ``img``
    (the picture ``d`` draws on), the two rows of boxes are pasted from their layers."""
    rnd = int(view["round"]) if isinstance(view.get("round"), int) else 0
    over = bool(view.get("over"))
    res = view.get("resolving")
    now = int(res[1]) if isinstance(res, list) and len(res) == 2 else None
    if over:
        rnd, now = -1, None  # every round past, nothing current
    if img is None:
        for mark in _track_rounds(d, rnd, over, lang) | _track_countdown(d, now, lang):
            _mark(mark)
    else:
        for layer in (_rounds_layer(lang, rnd, over), _countdown_layer(lang, now)):
            patch, box, marks_drawn = layer
            img.paste(patch, box[:2])
            for mark in marks_drawn:
                _mark(mark)
    revealed = kit.list_at(view, "revealed")
    by_num: dict[int, list[int]] = {}
    for item in revealed:
        if isinstance(item, list) and len(item) == 2:
            by_num.setdefault(int(item[1]), []).append(int(item[0]))
    y = TRACK_Y + 50
    x0, cw = _track_x0(lang), (MAP_W - 10 - _track_x0(lang)) / len(CHAR_NUMS)
    for k, num in enumerate(CHAR_NUMS):
        bx = x0 + k * cw
        who = by_num.get(num, [])
        if len(who) <= 2:
            for j, c in enumerate(who):
                token(d, (bx + 38 + j * 18, y + 23), 8, c, "")
        else:  # up to six players on one number: two rows of three
            for j, c in enumerate(who[:6]):
                token(d, (bx + 34 + (j % 3) * 13, y + 14 + (j // 3) * 18), 6, c, "")


def _track_x0(lang: str) -> float:
    f = font(22)
    return 16 + max(f.getlength(t("rounds", lang)), f.getlength(t("countdown", lang))) + 12


def _track_rounds(d: ImageDraw.ImageDraw, rnd: int, over: bool, lang: str) -> set[str]:
    """The round track's row (round ``rnd`` current unless ``over``); the marks it drew."""
    marks: set[str] = set()
    y = TRACK_Y
    f = font(22)
    text(d, (16, y + 22), t("rounds", lang), f, fill=MUTED, anchor="lm")
    x0 = _track_x0(lang)
    cw = (MAP_W - 10 - x0) / ROUNDS
    for i in range(1, ROUNDS + 1):
        bx = x0 + (i - 1) * cw
        box = (bx + 2, y + 2, bx + cw - 2, y + 42)
        current = i == rnd and not over
        past = i < rnd or over
        fill = NOW_RGB if current else ((70, 44, 50) if past else PANEL)
        edge = GOLD if i in PRODUCTION else PANEL_EDGE
        d.rounded_rectangle(
            box, radius=8, fill=fill, outline=edge, width=3 if i in PRODUCTION else 1
        )
        if current:
            marks.add("now")
        if i in PRODUCTION:
            d.rectangle((bx + 10, y + 34, bx + cw - 10, y + 39), fill=GOLD)
            marks.add("production")
        ink = INK if current or not past else MUTED
        text(d, (bx + cw / 2, y + 20), str(i), font(22), ink, "mm")
    return marks


def _track_countdown(d: ImageDraw.ImageDraw, now: int | None, lang: str) -> set[str]:
    """The countdown's boxes (number ``now`` being resolved); the marks it drew."""
    marks: set[str] = set()
    y = TRACK_Y + 50
    text(d, (16, y + 22), t("countdown", lang), font(22), fill=MUTED, anchor="lm")
    x0 = _track_x0(lang)
    cw = (MAP_W - 10 - x0) / len(CHAR_NUMS)
    for k, num in enumerate(CHAR_NUMS):
        bx = x0 + k * cw
        box = (bx + 2, y + 2, bx + cw - 2, y + 44)
        current = num == now
        if current:
            marks.add("now")
        d.rounded_rectangle(
            box, radius=8, fill=NOW_RGB if current else kit.BG2, outline=PANEL_EDGE
        )
        text(d, (bx + 16, y + 23), str(num), font(22), fill=INK if current else MUTED, anchor="mm")
    return marks


#: Where the round track's two rows are drawn (nothing else is drawn there).
_ROUNDS_BOX = (0, int(TRACK_Y), MAP_W, int(TRACK_Y) + 50)
_COUNTDOWN_BOX = (0, int(TRACK_Y) + 50, MAP_W, int(TRACK_Y) + 100)

Layer = tuple[Image.Image, tuple[int, int, int, int], frozenset[str]]


@layers.layer_cache(maxsize=24)
def _rounds_layer(lang: str, rnd: int, over: bool) -> Layer:
    patch, marks = layers.drawn_on(
        _base(lang), _ROUNDS_BOX, lambda d: _track_rounds(d, rnd, over, lang)
    )
    return patch, _ROUNDS_BOX, frozenset(marks)


@layers.layer_cache(maxsize=24)
def _countdown_layer(lang: str, now: int | None) -> Layer:
    patch, marks = layers.drawn_on(
        _base(lang), _COUNTDOWN_BOX, lambda d: _track_countdown(d, now, lang)
    )
    return patch, _COUNTDOWN_BOX, frozenset(marks)


@layers.layer_cache(maxsize=32)
def _mini_card_stamp(s: str, up: bool) -> Image.Image:
    """:func:`_mini_card` (28 x 34 at the top left) on a player's row fill."""
    img = Image.new("RGB", (29, 35), PANEL)
    _mini_card(ImageDraw.Draw(img), 0, 0, 28, 34, s, up)
    return img


@layers.layer_cache(maxsize=16)
def _chip_stamp(r: int, res: str) -> Image.Image:
    """An unnumbered :func:`_res_chip` of radius ``r`` (its box from the top left, shadow
    included) on a player's row fill."""
    img = Image.new("RGB", (2 * r + 2, 2 * r + 3), PANEL)
    _res_chip(ImageDraw.Draw(img), (r, r), r, res, "")
    return img


def _player_row_h(over: bool) -> int:
    return 150 if over else 124


def _draw_players(
    d: ImageDraw.ImageDraw,
    y: float,
    view: dict,
    names: Sequence[str],
    lang: str,
    img: Image.Image | None = None,
) -> float:
    """The players' rows (right column, from ``y``); returns their bottom. With ``img`` (the
    picture ``d`` draws on), each row's point-token chips and character cards are pasted
    from stamps drawn once on the row's fill."""
    n = int(view.get("players") or 0)
    nc = int(view.get("colours") or n)
    neutral = view.get("neutral")
    over = bool(view.get("over"))
    result = kit.dict_at(view, "result")
    scores = _ints(result.get("scores") if over else view.get("scores"), n)
    ranks = _ints(result.get("ranks"), n) if over else [0] * n
    tokens = kit.list_at(view, "tokens")
    played = kit.list_at(view, "played")
    hand = _ints(view.get("hand_size"), nc)
    chosen = kit.list_at(view, "chosen")
    supply = _ints(view.get("supply"), nc)  # astronauts not yet placed
    cards = _ints(view.get("card_count"), nc)  # missions and actions, face down alike
    waiting = set(view.get("waiting") or [])
    first = view.get("first")
    step = view.get("step")
    text(d, (COL_X + 10, y + 14), t("players", lang), font(24), fill=GOLD, anchor="lm")
    y += 32
    row_h = _player_row_h(over)
    for c in range(nc):
        is_neutral = c == neutral
        box = (COL_X + 8, y, COL_X + COL_W - 8, y + row_h - 6)
        wait = c in waiting and not over
        edge = GOLD if wait else PANEL_EDGE
        if wait:
            _mark("waiting")
        kit.rounded_box(d, box, radius=12, fill=PANEL, outline=edge, width=4 if wait else 2)
        token(d, (box[0] + 24, y + 26), 16, c, "")
        # score (right)
        sw = 0.0
        if not is_neutral and c < n:
            text(d, (box[2] - 14, y + 28), str(scores[c]), font(38), GOLD, "rm", shadow=2)
            sw = font(38).getlength(str(scores[c]))
            pts = t("points", lang)
            text(d, (box[2] - 22 - sw, y + 32), pts, font(MIN_FONT, "cond"), MUTED, "rm")
            sw += font(MIN_FONT, "cond").getlength(pts) + 30
        # status pill
        status = ""
        if over and c < n:
            status = t(f"place.{ranks[c]}", lang) if 1 <= ranks[c] <= 6 else ""
        elif step == "choose" and not is_neutral and c < len(chosen):
            status = t("ready" if chosen[c] else "choosing", lang)
        elif step == "missions" and c < n:
            status = t("choosing" if c in waiting else "ready", lang)
        pill_w = font(MIN_FONT).getlength(status) + 20 if status else 0.0
        badge_w = 34.0 if c == first and not over else 0.0
        room = box[2] - sw - (box[0] + 46) - pill_w - badge_w - 12
        name = _name(names, c, view, lang)
        nm, f = kit.fit_font(name, max(80.0, room), (26, 24, 22, MIN_FONT))
        text(d, (box[0] + 46, y + 26), nm, f, fill=INK, anchor="lm")
        nx = box[0] + 46 + f.getlength(nm) + 10
        if badge_w:
            _first_badge(d, nx + 14, y + 26)
            _mark("first")
            nx += badge_w
        if status:
            ok = status == t("ready", lang) or (over and ranks[c] == 1)
            d.rounded_rectangle(
                (nx, y + 12, nx + pill_w, y + 40),
                radius=13,
                fill=(40, 110, 64) if ok else (110, 90, 20),
            )
            text(d, (nx + pill_w / 2, y + 26), status, font(MIN_FONT), fill=INK, anchor="mm")
        # second line: point tokens held, then the nine characters (played ones face up)
        ly = y + 66
        x = box[0] + 16
        held = tokens[c] if c < len(tokens) and isinstance(tokens[c], dict) else {}
        for r in RES_TYPES:
            k = int(held.get(r) or 0)
            if img is not None and float(x).is_integer() and float(ly).is_integer():
                img.paste(_chip_stamp(12, r), (int(x), int(ly) - 12))
            else:
                _res_chip(d, (x + 12, ly), 12, r, "")
            text(d, (x + 30, ly), str(k), font(22), fill=INK if k else FAINT, anchor="lm")
            x += 66 if k > 9 else 56
        chars = {int(p) for p in (played[c] if c < len(played) else []) if isinstance(p, int)}
        x += 8
        for num in CHAR_NUMS:
            if img is not None and float(x).is_integer() and float(ly).is_integer():
                img.paste(_mini_card_stamp(str(num), num in chars), (int(x), int(ly) - 17))
            else:
                _mini_card(d, x, ly - 17, 28, 34, str(num), up=num in chars)
            _mark("played" if num in chars else "in_hand")
            x += 31
        # last lines: astronauts left, cards in hand and face down; at the end, the score
        info = t("supply", lang, n=supply[c])
        parts = result.get("breakdown") if over else None
        if isinstance(parts, list) and c < len(parts) and isinstance(parts[c], dict):
            info = " · ".join(
                t(f"part.{k}", lang, n=int(v)) for k, v in parts[c].items() if isinstance(v, int)
            )
        elif not is_neutral:
            info += " · " + t("cards", lang, hand=hand[c], cards=cards[c])
        fi = font(MIN_FONT, "cond")
        lines = kit.wrap(info, fi, box[2] - box[0] - 32, max_lines=2 if over else 1)
        for i, line in enumerate(lines):
            text(d, (box[0] + 16, y + 104 + i * 28), line, fi, fill=MUTED, anchor="lm")
        y += row_h
    return y


# --------------------------------------------------------------------------- legend

#: A legend icon: drawn at (x, centre y); and its width.
LegendIcon = tuple[Callable[[ImageDraw.ImageDraw, float, float], None], float]


def _legend_items(lang: str) -> list[tuple[tuple[str, ...], LegendIcon | None, str]]:
    """(the marks an entry explains, its icon, its words) for every mark the table may
    draw, in reading order."""

    def res(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        for i, r in enumerate(RES_TYPES):
            _res_chip(d, (x + 15 + i * 36, y), 15, r, str(RES_VALUE[r]))

    def ring(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        d.ellipse((x + 1, y - 14, x + 29, y + 14), outline=GOLD, width=3)
        d.ellipse((x + 7, y - 8, x + 23, y + 8), fill=MUTED)

    def pile(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _res_chip(d, (x + 12, y), 12, "ice", "")
        text(d, (x + 27, y), "×2", font(MIN_FONT, "cond"), fill=INK, anchor="lm")

    def seat(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        d.ellipse((x + 1, y - 14, x + 29, y + 14), outline=MUTED, width=2)

    def production(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        box = (x, y - 15, x + 30, y + 15)
        d.rounded_rectangle(box, radius=6, fill=PANEL, outline=GOLD, width=3)
        d.rectangle((x + 6, y + 7, x + 24, y + 11), fill=GOLD)

    def now(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        d.rounded_rectangle((x, y - 15, x + 30, y + 15), radius=6, fill=NOW_RGB)

    def waiting(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        box = (x, y - 13, x + 34, y + 13)
        d.rounded_rectangle(box, radius=6, fill=PANEL, outline=GOLD, width=4)

    def hidden(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _res_chip(d, (x + 15, y), 15, None, "?")

    def card_back(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _card_back(d, x + 2, y - 17, 26, 34)

    def link(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _link(d, (x, y), (x + 30, y))

    def flight(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _saucer(d, x + 15, y)

    def first(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _first_badge(d, x + 15, y)

    def played(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _mini_card(d, x, y - 17, 28, 34, "5")

    def in_hand(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _mini_card(d, x, y - 17, 28, 34, "5", up=False)

    res_marks = tuple(f"res.{r}" for r in RES_TYPES)
    return [
        (res_marks, (res, 106), t("legend.res", lang)),
        (("hidden_res",), (hidden, 30), t("legend.hidden_res", lang)),
        (("pile",), (pile, 58), t("legend.pile", lang)),
        (("ring",), (ring, 30), t("legend.ring", lang)),
        (("disc_hidden",), (card_back, 30), t("legend.disc_hidden", lang)),
        (("link",), (link, 30), t("legend.link", lang)),
        (("flight",), (flight, 30), t("legend.flight", lang)),
        (("free_seat",), (seat, 30), t("legend.free_seat", lang)),
        (("arrow",), None, "→ " + t("legend.arrow", lang)),
        (("no_dest",), None, "? " + t("legend.no_dest", lang)),
        (("first",), (first, 30), t("legend.first", lang)),
        (("waiting",), (waiting, 34), t("legend.waiting", lang)),
        (("played",), (played, 28), t("legend.played", lang)),
        (("in_hand",), (in_hand, 28), t("legend.in_hand", lang)),
        (("production",), (production, 30), t("legend.production", lang)),
        (("now",), (now, 30), t("legend.now", lang)),
    ]


def _draw_legend(
    d: ImageDraw.ImageDraw,
    y: float,
    lang: str,
    drawn: frozenset[str] | set[str] | None = None,
    explained: set[str] | None = None,
) -> float:
    """The legend of every mark ``drawn`` (default: drawn on this picture) under the map,
    the marks it explains added to ``explained`` (default: this picture's); returns its
    bottom."""
    drawn = _MARKS["drawn"] if drawn is None else drawn
    explained = _MARKS["legend"] if explained is None else explained
    f = font(MIN_FONT, "cond")
    x0, x1 = 16.0, MAP_W - 10.0
    x = x0
    line_h = 38
    y += 18
    for kinds, icon, label in _legend_items(lang):
        if not any(k in drawn for k in kinds):
            continue
        iw = 0.0 if icon is None else icon[1] + 8
        w = iw + f.getlength(label)
        if x > x0 and x + w > x1:
            x, y = x0, y + line_h
        if icon is not None:
            icon[0](d, x, y)
        label_s = kit.ellipsize(label, f, x1 - x - iw)
        text(d, (x + iw, y), label_s, f, fill=MUTED, anchor="lm")
        explained.update(kinds)
        x += w + 24
    return y + line_h / 2 + 8


@layers.layer_cache(maxsize=8)
def _legend_layer(lang: str, drawn: frozenset[str]) -> tuple[Image.Image, float, frozenset[str]]:
    """The legend of the marks ``drawn`` (nothing else is drawn under the map), its bottom
    and the marks it explains."""
    explained: set[str] = set()
    box = (0, int(LEGEND_Y), MAP_W, W)
    patch, bottom = layers.drawn_on(
        _base(lang), box, lambda d: _draw_legend(d, LEGEND_Y, lang, drawn, explained)
    )
    patch = patch.crop((0, 0, MAP_W, min(W, math.ceil(bottom) + 1) - box[1]))
    return patch, bottom, frozenset(explained)


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    _MARKS["drawn"].clear()
    _MARKS["legend"].clear()
    _mark("link")  # the static layer's links between zones
    base = _base(lang)
    nc = int(view.get("colours") or view.get("players") or len(names) or 2)
    img = base.copy()
    d = ImageDraw.Draw(img)
    _draw_header(d, view, names, lang)
    zones = kit.dict_at(view, "zones")
    for z in ZONES:
        zone = zones.get(z)
        if isinstance(zone, dict):
            _draw_zone(d, z, zone, nc, lang)
    _draw_memorial(d, _ints(view.get("memorial"), nc), nc)
    _track(d, view, lang, img)
    y = _draw_ships(d, HEADER_H + 8, view, lang, img)
    right = _draw_players(d, y, view, names, lang, img)
    legend, left, explained = _legend_layer(lang, frozenset(_MARKS["drawn"]))
    img.paste(legend, (0, int(LEGEND_Y)))
    _MARKS["legend"].update(explained)
    h = int(min(W, max(left, right + 8)))
    return img.crop((0, 0, W, h))


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is never read."""
    return kit.picture_png(
        _draw_table, _TABLE_PALETTE, kit.public(view), names, _lang(lang), lock=_LOCK
    )


def render_private(
    view: dict, names: list[str], lang: str, seat: int | None = None
) -> bytes | None:
    """PNG bytes of one seat's secrets: the hand (the hidden choice marked), the missions
    (dealt or kept, with the points they would score now), action cards and the face-down
    discoveries this seat knows. ``None`` when there is nothing private. The seat comes from
    ``seat`` or ``view["seat"]`` (how the Discord layer passes it)."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    assert isinstance(priv, dict)
    if seat is None:
        seat = view.get("seat") if kit.is_seat(view.get("seat"), 6) else None
    # the game's one palette
    return kit.picture_png(
        _draw_private, _TABLE_PALETTE, view, priv, names, _lang(lang), seat, lock=_LOCK
    )
