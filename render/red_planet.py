"""Board pictures for Mission: Red Planet.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (never reads ``view["private"]``):
  Mars with its zones, their links (who may walk where), astronauts per colour as numbers,
  resources face up or hidden, point tokens waiting, hidden discoveries, Phobos and the
  Memorial; the launchpad (each ship's capacity, crew and destination), the ships in flight;
  the round track with its productions; this round's countdown; each player's score,
  tokens, played characters and whether they have chosen.
* :func:`render_private` — PNG bytes of one seat's secrets (hand, the chosen character,
  missions, action cards, the discoveries it has looked at), or ``None`` when the view holds
  nothing private.

Board constants come from :mod:`rules.red_planet.data`; every word comes from
``data/red_planet/strings.json`` (``red_planet.render.*``). The static layer (sky, Mars,
links, zone frames and names) is drawn once per language and copied for every picture.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import BG, FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from rules.red_planet.data import (
    ADJ,
    CHAR_NUMS,
    OUTER,
    PHOBOS,
    PRODUCTION,
    RES_TYPES,
    RES_VALUE,
    ROUNDS,
    ZONES,
)

__all__ = ["render_private", "render_table", "seat_rgb", "seat_shape"]

_LOCK = threading.Lock()

W = 1400
HEADER_H = 64
MAP_W = 800  # the left part: Mars, Phobos, the Memorial, the round track
COL_X = MAP_W + 14  # the right column: launchpad, ships in flight, players
COL_W = W - COL_X - 10

MARS_C = (400.0, HEADER_H + 380.0)
RING_R = 292.0
NODE_W, NODE_H = 214, 150

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


def _lang(lang: str | None) -> str:
    return kit.lang_or_default(lang)


def t(key: str, lang: str, **args: Any) -> str:
    return i18n.t(f"red_planet.render.{key}", lang, **args)


# --------------------------------------------------------------------------- seats


def seat_shape(c: int) -> str:
    """The shape of colour ``c``'s tokens (the kit's six)."""
    return str(kit.PALETTE[c].shape)


def seat_rgb(c: int) -> RGB:
    """The RGB of colour ``c`` (seats, and the neutral's colour index with two players)."""
    return kit.PALETTE[c].rgb


def token(
    d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, c: int, label: str = ""
) -> None:
    """Colour ``c``'s token (the kit's shape and colour) with a number on it."""
    kit.seat_token(d, center, r, c, label or None)


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
        return (92.0, HEADER_H + 93.0)
    if z not in _ANGLE:
        return MARS_C
    a = math.radians(_ANGLE[z])
    return (MARS_C[0] + RING_R * math.sin(a) * 1.02, MARS_C[1] - RING_R * math.cos(a))


def _zone_box(z: str) -> tuple[float, float, float, float]:
    cx, cy = _zone_center(z)
    w, h = (160, 170) if z == PHOBOS else (NODE_W, NODE_H)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


MEMORIAL_BOX = (MAP_W - 170.0, HEADER_H + 12.0, MAP_W - 10.0, HEADER_H + 148.0)
TRACK_Y = HEADER_H + 776.0


def _zone_name(z: str, lang: str) -> str:
    return i18n.t(f"red_planet.render.zone.{z}", lang)


# --------------------------------------------------------------------------- static layer


def _build_base(lang: str) -> Image.Image:
    img = kit.star_field((W, 1320), seed=11)
    d = ImageDraw.Draw(img)
    # Mars
    cx, cy = MARS_C
    r = RING_R + 96
    for k, col in enumerate((MARS_DARK, MARS_RGB)):
        rr = r - k * 8
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=col)
    for i in range(7):  # a few craters, always the same
        a = i * 0.9 + 0.4
        rr = 30 + (i * 37) % 60
        px, py = cx + math.cos(a) * (120 + i * 22), cy + math.sin(a) * (140 + i * 18)
        d.ellipse((px - rr, py - rr, px + rr, py + rr), fill=kit.blend(MARS_RGB, MARS_DARK, 0.35))
    # links between neighbouring zones (under the zones)
    for za in ZONES:
        for zb in ADJ[za]:
            if za < zb:
                p, q = _zone_center(za), _zone_center(zb)
                d.line((*p, *q), fill=kit.blend(LINK_RGB, MARS_RGB, 0.15), width=9)
                d.line((*p, *q), fill=(70, 30, 22), width=3)
    # zone frames and names
    for z in ZONES:
        box = _zone_box(z)
        if z == PHOBOS:
            # the moon: a grey disc behind the frame
            pcx, pcy = _zone_center(z)
            d.ellipse((pcx - 90, pcy - 94, pcx + 90, pcy + 94), fill=(54, 54, 70))
            kit.rounded_box(d, box, radius=16, fill=PHOBOS_RGB, outline=(170, 170, 196), width=3)
        else:
            edge = GOLD if z not in OUTER else ZONE_EDGE
            kit.rounded_box(d, box, radius=16, fill=ZONE_RGB, outline=edge, width=3)
        name, f = kit.fit_font(_zone_name(z, lang), box[2] - box[0] - 54, (24, 22, 20, 18), "bold")
        text(d, (box[0] + 12, box[1] + 20), name, f, fill=INK, anchor="lm", shadow=2)
    # the Memorial
    kit.rounded_box(d, MEMORIAL_BOX, radius=14, fill=MEMORIAL_RGB, outline=(140, 120, 170))
    title, f = kit.fit_font(t("memorial", lang), 140, (20, 18, 16))
    text(d, (MEMORIAL_BOX[0] + 12, MEMORIAL_BOX[1] + 18), title, f, fill=INK, anchor="lm")
    # a compass (bottom right of the map): the missions speak of north, south, east, west
    cx, cy = MAP_W - 62.0, TRACK_Y - 92.0
    d.ellipse((cx - 40, cy - 40, cx + 40, cy + 40), fill=kit.BG2, outline=PANEL_EDGE, width=2)
    for side, (dx, dy) in zip("nesw", ((0, -1), (1, 0), (0, 1), (-1, 0)), strict=True):
        d.line((cx, cy, cx + dx * 18, cy + dy * 18), fill=MUTED, width=3)
        word = t(f"compass.{side}", lang)
        text(d, (cx + dx * 29, cy + dy * 29), word, font(16), fill=INK, anchor="mm")
    # resource legend (bottom left of the map)
    y = TRACK_Y - 46
    x = 16.0
    for res in RES_TYPES:
        _res_chip(d, (x + 14, y), 14, res, str(RES_VALUE[res]))
        label = f"{i18n.t(f'red_planet.res.{res}', lang)}"
        text(d, (x + 34, y), label, font(17, "cond"), fill=MUTED, anchor="lm")
        x += 44 + font(17, "cond").getlength(label) + 10
    _res_chip(d, (x + 14, y), 14, None, "?")
    label = t("hidden_resource", lang)
    text(d, (x + 34, y), label, font(17, "cond"), fill=MUTED, anchor="lm")
    return img


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
        size = max(10, round(r * (1.15 if len(label) < 2 else 0.9)))
        text(d, (cx, cy + 1), label, font(size), fill=col, anchor="mm")
    else:
        k = r * 0.45
        d.polygon([(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)], fill=col)


def _card_back(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    """A face-down discovery card."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=(60, 80, 130), outline=INK, width=2)
    text(d, (x + w / 2, y + h / 2 + 1), "?", font(round(h * 0.6)), fill=INK, anchor="mm")


_base = kit.per_language(_build_base)
#: The table's colours, fixed once: its static layer's plus every colour drawn on top (a
#: fixed palette makes the PNG twice as fast to encode as quantizing each picture).
_TABLE_PALETTE = kit.palette_for(
    _base(i18n.DEFAULT),
    [
        *(seat_rgb(c) for c in range(6)),
        *RES_RGB.values(),
        *(GOLD, INK, MUTED, FAINT, kit.DARK, PANEL, PANEL_EDGE, kit.BG2, kit.GREEN, SHIP_RGB),
        *((200, 84, 56), (192, 80, 56), (226, 216, 190), (40, 110, 64), (110, 90, 20)),
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
    # resource (top right)
    res = zone.get("resource")
    rc = (x1 - 24, y0 + 22)
    if res in RES_RGB:
        _res_chip(d, rc, 16, res, str(RES_VALUE[res]))
    else:
        _res_chip(d, rc, 16, None, "?")
    # discovery card (left of the resource)
    disc = zone.get("discovery")
    if disc == "hidden":
        _card_back(d, x1 - 34, y1 - 38, 22, 30)
    elif isinstance(disc, str) and disc:  # revealed: its name on a pill across the frame
        name = i18n.t(f"red_planet.card.{disc}", lang)
        s, f = kit.fit_font(name, x1 - x0 - 30, (16, 14), "cond")
        w = f.getlength(s) + 18
        mx = (x0 + x1) / 2
        d.rounded_rectangle((mx - w / 2, y1 - 12, mx + w / 2, y1 + 12), radius=10, fill=GOLD)
        text(d, (mx, y1 + 1), s, f, fill=kit.DARK, anchor="mm")
    # astronauts per colour: the sole leader gets a gold ring
    counts = _ints(zone.get("astronauts"), nc)
    present = [(c, k) for c, k in enumerate(counts) if k > 0]
    top = max(counts) if counts else 0
    leaders = [c for c, k in enumerate(counts) if k == top and k > 0]
    per_row = 3 if z == PHOBOS or len(present) <= 3 else 4
    rr = 22
    gap = 50
    rows = [present[i : i + per_row] for i in range(0, len(present), per_row)]
    ty = y0 + (70 if len(rows) < 2 else 60)
    for row in rows:
        width = gap * (len(row) - 1)
        x = (x0 + x1) / 2 - width / 2
        for c, k in row:
            if len(leaders) == 1 and c == leaders[0]:
                d.ellipse(
                    (x - rr - 5, ty - rr - 5, x + rr + 5, ty + rr + 5), outline=GOLD, width=3
                )
            token(d, (x, ty), rr, c, str(k))
            x += gap
        ty += 48
    if not present:
        text(d, ((x0 + x1) / 2, y0 + 68), "—", font(22), fill=FAINT, anchor="mm")
    # point tokens waiting in the zone (bottom)
    pile = kit.dict_at(zone, "pile")
    waiting = [(r, int(pile.get(r) or 0)) for r in RES_TYPES if int(pile.get(r) or 0) > 0]
    if waiting:
        x = x0 + 14
        yb = y1 - 24
        for r, k in waiting:
            _res_chip(d, (x + 10, yb), 10, r, "")
            text(d, (x + 25, yb), f"×{k}", font(16), fill=INK, anchor="lm")
            x += 58


def _draw_memorial(d: ImageDraw.ImageDraw, memorial: list[int], nc: int) -> None:
    x0, y0, x1, _y1 = MEMORIAL_BOX
    dead = [(c, k) for c, k in enumerate(memorial[:nc]) if k > 0]
    if not dead:
        text(d, ((x0 + x1) / 2, y0 + 72), "—", font(22), fill=FAINT, anchor="mm")
        return
    per_row = 3
    for i, (c, k) in enumerate(dead[:6]):
        x = x0 + 32 + (i % per_row) * 48
        y = y0 + 60 + (i // per_row) * 44
        token(d, (x, y), 19, c, str(k))


def _draw_header(d: ImageDraw.ImageDraw, view: dict, names: Sequence[str], lang: str) -> None:
    kit.rounded_box(d, (8, 6, W - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    title = t("title", lang)
    text(d, (24, HEADER_H / 2 + 1), title, font(28), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(28).getlength(title) + 26
    rnd = view.get("round")
    if isinstance(rnd, int) and rnd > 0:
        s = t("round", lang, round=min(rnd, ROUNDS), rounds=ROUNDS)
        text(d, (x, HEADER_H / 2 + 1), s, font(26), fill=INK, anchor="lm")
        x += font(26).getlength(s) + 22
    phase = i18n.t(str(view.get("phase") or "red_planet.phase.choose"), lang)
    pw = font(20).getlength(phase) + 28
    d.rounded_rectangle((x, 15, x + pw, HEADER_H - 13), radius=16, fill=(192, 80, 56))
    text(d, (x + pw / 2, HEADER_H / 2 + 1), phase, font(20), fill=INK, anchor="mm")
    x += pw + 20
    res = view.get("resolving")
    if isinstance(res, list) and len(res) == 2 and res[1] in CHAR_NUMS and not view.get("over"):
        c, num = int(res[0]), int(res[1])
        who = _name(names, c, view, lang)
        char = i18n.t(f"red_planet.char.{num}", lang)
        token(d, (x + 16, HEADER_H / 2 + 1), 15, c, "")
        s, f = kit.fit_font(f"{char} · {who}", W - 30 - (x + 38), (22, 20, 18))
        text(d, (x + 38, HEADER_H / 2 + 1), s, f, fill=INK, anchor="lm")


def _ship_row(
    d: ImageDraw.ImageDraw,
    y: float,
    label: str,
    ship: dict | None,
    lang: str,
    row_h: float,
    dim: bool = False,
) -> None:
    x0, x1 = COL_X + 8, COL_X + COL_W - 8
    kit.rounded_box(
        d, (x0, y, x1, y + row_h - 6), radius=10, fill=SHIP_RGB if not dim else PANEL, width=2
    )
    cy = y + (row_h - 6) / 2
    if dim:  # in flight: a small saucer and its number, as the buttons name it (🛸1)
        sx = x0 + 13
        d.ellipse((sx - 6, cy - 11, sx + 6, cy - 1), fill=(150, 220, 255))
        d.ellipse((sx - 12, cy - 5, sx + 12, cy + 4), fill=MUTED, outline=kit.DARK)
        text(d, (x0 + 32, cy), label, font(20), fill=GOLD, anchor="mm")
    else:
        text(d, (x0 + 22, cy), label, font(24), fill=GOLD, anchor="mm")
    if ship is None:
        text(d, (x0 + 48, cy), t("empty_dock", lang), font(18), fill=FAINT, anchor="lm")
        return
    cap = int(ship.get("cap") or 0)
    crew = [int(c) for c in ship.get("crew") or [] if isinstance(c, int)]
    # seats: crew tokens, then empty circles
    r = 15
    x = x0 + 58
    for i in range(max(cap, len(crew))):
        if i < len(crew):
            token(d, (x, cy), r, crew[i], "")
        else:
            d.ellipse((x - r, cy - r, x + r, cy + r), outline=MUTED, width=2)
        x += 2 * r + 6
    x = x0 + 58 + 5 * (2 * r + 6) + 2
    text(d, (x, cy), f"{len(crew)}/{cap}", font(20), fill=INK, anchor="lm")
    x += 52
    text(d, (x, cy), "→", font(24), fill=MUTED, anchor="lm")
    x += 32
    dest = ship.get("dest")
    tok = ship.get("token")
    dest_name = _zone_name(str(dest), lang) if dest in ZONES else "?"
    col = INK if dest in ZONES else GOLD
    s, f = kit.fit_font(dest_name, x1 - x - (34 if tok else 10), (22, 20, 18), "bold")
    text(d, (x, cy), s, f, fill=col, anchor="lm")
    if tok and tok in ZONES:  # rerouted by a destination token: a small flag
        fx = x + f.getlength(s) + 12
        d.polygon([(fx, cy - 11), (fx + 16, cy - 5), (fx, cy + 1)], fill=GOLD)
        d.line((fx, cy - 12, fx, cy + 12), fill=INK, width=2)


def _draw_ships(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str) -> float:
    docks = kit.list_at(view, "docks")
    launched = kit.list_at(view, "launched")
    text(d, (COL_X + 10, y + 14), t("launchpad", lang), font(22), fill=GOLD, anchor="lm")
    deck = view.get("ship_deck")
    if isinstance(deck, int):
        s = t("ship_deck", lang, n=deck)
        text(d, (COL_X + COL_W - 10, y + 14), s, font(17, "cond"), fill=MUTED, anchor="rm")
    y += 32
    row_h = 50 if len(docks) <= 4 else 46
    for i, ship in enumerate(docks):
        _ship_row(d, y, str(i + 1), ship if isinstance(ship, dict) else None, lang, row_h)
        y += row_h
    if launched:
        y += 4
        text(d, (COL_X + 10, y + 12), t("in_flight", lang), font(20), fill=GOLD, anchor="lm")
        y += 28
        lh = 46 if len(launched) <= 3 else 40
        for j, ship in enumerate(launched):
            if isinstance(ship, dict):
                _ship_row(d, y, str(j + 1), ship, lang, lh, dim=True)
                y += lh
    return y + 6


def _track(d: ImageDraw.ImageDraw, view: dict, lang: str) -> None:
    """Round track 1..10 (productions marked) and this round's countdown 9..1."""
    y = TRACK_Y
    rnd = int(view["round"]) if isinstance(view.get("round"), int) else 0
    over = bool(view.get("over"))
    text(d, (16, y + 20), t("rounds", lang), font(18), fill=MUTED, anchor="lm")
    x0 = 16 + max(font(18).getlength(t("rounds", lang)), font(18).getlength(t("countdown", lang)))
    x0 += 14
    cw = (MAP_W - 10 - x0) / ROUNDS
    for i in range(1, ROUNDS + 1):
        bx = x0 + (i - 1) * cw
        box = (bx + 2, y + 2, bx + cw - 2, y + 40)
        current = i == rnd and not over
        past = i < rnd or over
        fill = (200, 84, 56) if current else ((70, 44, 50) if past else PANEL)
        d.rounded_rectangle(box, radius=8, fill=fill, outline=GOLD if current else PANEL_EDGE)
        ink = INK if current or not past else MUTED
        text(d, (bx + cw / 2 - (8 if i in PRODUCTION else 0), y + 21), str(i), font(20), ink, "mm")
        if i in PRODUCTION:
            px, py = bx + cw - 16, y + 21
            d.ellipse((px - 10, py - 10, px + 10, py + 10), fill=GOLD, outline=kit.DARK)
            text(d, (px, py + 1), str(PRODUCTION[i]), font(14), kit.DARK, "mm")
    # countdown
    y += 50
    text(d, (16, y + 22), t("countdown", lang), font(18), fill=MUTED, anchor="lm")
    revealed = kit.list_at(view, "revealed")
    by_num: dict[int, list[int]] = {}
    for item in revealed:
        if isinstance(item, list) and len(item) == 2:
            by_num.setdefault(int(item[1]), []).append(int(item[0]))
    res = view.get("resolving")
    now = int(res[1]) if isinstance(res, list) and len(res) == 2 else None
    cw = (MAP_W - 10 - x0) / len(CHAR_NUMS)
    for k, num in enumerate(CHAR_NUMS):
        bx = x0 + k * cw
        box = (bx + 2, y + 2, bx + cw - 2, y + 44)
        current = num == now and not over
        d.rounded_rectangle(
            box, radius=8, fill=(200, 84, 56) if current else kit.BG2, outline=PANEL_EDGE
        )
        text(d, (bx + 15, y + 23), str(num), font(20), fill=INK if current else MUTED, anchor="mm")
        who = by_num.get(num, [])
        if len(who) <= 2:
            for j, c in enumerate(who):
                token(d, (bx + 37 + j * 20, y + 23), 9, c, "")
        else:  # up to six players on one number: two rows of three
            for j, c in enumerate(who[:6]):
                token(d, (bx + 34 + (j % 3) * 14, y + 14 + (j // 3) * 18), 7, c, "")


def _player_row_h(nc: int) -> int:
    return 104 if nc <= 4 else 100


def _draw_players(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str
) -> float:
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
    text(d, (COL_X + 10, y + 14), t("players", lang), font(22), fill=GOLD, anchor="lm")
    y += 30
    seats = list(range(nc))
    row_h = _player_row_h(nc)
    for c in seats:
        is_neutral = c == neutral
        box = (COL_X + 8, y, COL_X + COL_W - 8, y + row_h - 6)
        edge = GOLD if c in waiting and not over else PANEL_EDGE
        kit.rounded_box(
            d, box, radius=12, fill=PANEL, outline=edge, width=3 if edge == GOLD else 2
        )
        token(d, (box[0] + 24, y + 24), 15, c, "")
        name = _name(names, c, view, lang)
        nm, f = kit.fit_font(name, 230, (22, 20, 18))
        text(d, (box[0] + 46, y + 24), nm, f, fill=INK, anchor="lm")
        nx = box[0] + 46 + f.getlength(nm) + 10
        if c == first and not over:
            d.ellipse((nx, y + 14, nx + 20, y + 34), fill=GOLD)
            text(d, (nx + 10, y + 25), "1", font(14), fill=kit.DARK, anchor="mm")
            nx += 28
        # status pill
        status = ""
        if over and c < n:
            status = t("place", lang, n=ranks[c]) if ranks[c] else ""
        elif step == "choose" and not is_neutral and c < len(chosen):
            status = t("ready" if chosen[c] else "choosing", lang)
        elif step == "missions" and c < n:
            status = t("choosing" if c in waiting else "ready", lang)
        if status:
            sw = font(16).getlength(status) + 20
            ok = status == t("ready", lang) or (over and ranks[c] == 1)
            d.rounded_rectangle(
                (nx, y + 12, nx + sw, y + 36),
                radius=12,
                fill=(40, 110, 64) if ok else (110, 90, 20),
            )
            text(d, (nx + sw / 2, y + 24), status, font(16), fill=INK, anchor="mm")
        # score (right)
        if not is_neutral and c < n:
            text(d, (box[2] - 14, y + 26), str(scores[c]), font(34), GOLD, "rm", shadow=2)
            lw = font(34).getlength(str(scores[c]))
            text(d, (box[2] - 20 - lw, y + 30), t("points", lang), font(15), MUTED, "rm")
        # second line: point tokens held, then the nine characters (played ones face up)
        ly = y + 56
        x = box[0] + 16
        held = tokens[c] if c < len(tokens) and isinstance(tokens[c], dict) else {}
        for r in RES_TYPES:
            k = int(held.get(r) or 0)
            _res_chip(d, (x + 11, ly), 11, r, "")
            text(d, (x + 27, ly), str(k), font(19), fill=INK if k else FAINT, anchor="lm")
            x += 62 if k > 9 else 54
        chars = {int(p) for p in (played[c] if c < len(played) else []) if isinstance(p, int)}
        x += 10
        for num in CHAR_NUMS:
            _mini_card(d, x, ly - 15, 23, 30, str(num), up=num in chars)
            x += 27
        # third line: astronauts left, cards in hand, missions, action cards
        info = t("supply", lang, n=supply[c])
        parts = result.get("breakdown") if over else None
        if isinstance(parts, list) and c < len(parts) and isinstance(parts[c], dict):
            info = " · ".join(
                f"{i18n.t(f'red_planet.score.{k}', lang)} {v}" for k, v in parts[c].items()
            )
        elif not is_neutral:
            info += " · " + t("cards", lang, hand=hand[c], cards=cards[c])
        s, f = kit.fit_font(info, box[2] - box[0] - 40, (17, 15), "cond")
        text(d, (box[0] + 16, y + row_h - 20), s, f, fill=MUTED, anchor="lm")
        y += row_h
    return y


def _mini_card(
    d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, s: str, up: bool = True
) -> None:
    """A character card: face up (played, cream) or only its number, dim (not played)."""
    if up:
        d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=(226, 216, 190), outline=kit.DARK)
        text(d, (x + w / 2, y + h / 2 + 1), s, font(16), fill=kit.DARK, anchor="mm")
    else:
        d.rounded_rectangle((x, y, x + w, y + h), radius=4, outline=FAINT, width=1)
        text(d, (x + w / 2, y + h / 2 + 1), s, font(14), fill=FAINT, anchor="mm")


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    base = _base(lang)
    n = int(view.get("players") or len(names) or 2)
    nc = int(view.get("colours") or n)
    # the right column's height decides the picture's
    docks = kit.list_at(view, "docks")
    launched = kit.list_at(view, "launched")
    right = HEADER_H + 10 + 38 + len(docks) * (50 if len(docks) <= 4 else 46)
    if launched:
        right += 32 + len(launched) * (46 if len(launched) <= 3 else 40)
    right += 40 + nc * _player_row_h(nc) + 14
    h = int(max(TRACK_Y + 104, right))
    img = Image.new("RGB", (W, h), BG)
    img.paste(base.crop((0, 0, W, min(h, base.height))), (0, 0))
    d = ImageDraw.Draw(img)
    _draw_header(d, view, names, lang)
    zones = kit.dict_at(view, "zones")
    for z in ZONES:
        zone = zones.get(z)
        if isinstance(zone, dict):
            _draw_zone(d, z, zone, nc, lang)
    _draw_memorial(d, _ints(view.get("memorial"), nc), nc)
    _track(d, view, lang)
    y = _draw_ships(d, HEADER_H + 8, view, lang)
    _draw_players(d, y, view, names, lang)
    return img


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is never read."""
    public = {k: v for k, v in view.items() if k != "private"}
    lang = _lang(lang)
    with _LOCK:
        img = _draw_table(public, names, lang)
    return kit.to_png_palette(img, _TABLE_PALETTE)


# ----------------------------------------------------------------------------- private


def _has_private(priv: Any) -> bool:
    if not isinstance(priv, dict):
        return False
    return bool(
        priv.get("hand")
        or priv.get("missions")
        or priv.get("dealt")
        or priv.get("actions")
        or priv.get("discoveries")
        or priv.get("chosen")
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
    lang = _lang(lang)
    with _LOCK:
        img = _draw_private(view, priv, names, lang, seat)
    return kit.to_png_palette(img, _TABLE_PALETTE)  # the game's one palette


def _card(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    title: str,
    body: str,
    *,
    edge: RGB = PANEL_EDGE,
    fill: RGB = PANEL,
    badge: str = "",
    badge_rgb: RGB = GOLD,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=12, fill=fill, outline=edge, width=3)
    tt, tf = kit.fit_font(title, x1 - x0 - 24 - (60 if badge else 0), (22, 20, 18))
    text(d, (x0 + 12, y0 + 20), tt, tf, fill=INK, anchor="lm")
    if badge:
        text(d, (x1 - 12, y0 + 20), badge, font(20), fill=badge_rgb, anchor="rm")
    f = font(17, "book")
    for i, line in enumerate(kit.wrap(body, f, x1 - x0 - 24, max_lines=3)):
        text(d, (x0 + 12, y0 + 44 + i * 22), line, f, fill=MUTED)


def _draw_private(
    view: dict, priv: dict, names: Sequence[str], lang: str, seat: int | None
) -> Image.Image:
    hand = [int(h) for h in priv.get("hand") or [] if isinstance(h, int)]
    chosen = int(priv["chosen"]) if isinstance(priv.get("chosen"), int) else None
    revealed = {
        (int(x[0]), int(x[1]))
        for x in view.get("revealed") or []
        if isinstance(x, list) and len(x) == 2
    }
    if seat is not None and chosen is not None and (seat, chosen) in revealed:
        chosen = None  # already face up on the table: no secret any more
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [str(m) for m in priv.get("dealt") or []]
    acts = [str(a) for a in priv.get("actions") or []]
    discs = kit.dict_at(priv, "discoveries")

    pw = 1100
    card_w, card_h = (pw - 48 - 2 * 14) / 3, 116
    sections: list[tuple[str, list[tuple[str, str, str, RGB]]]] = []
    if dealt:
        sections.append(
            (
                t("private.choose_mission", lang),
                [
                    (
                        i18n.t(f"red_planet.card.{m}", lang),
                        i18n.t(f"red_planet.card.{m}.desc", lang),
                        "",
                        PANEL_EDGE,
                    )
                    for m in dealt
                ],
            )
        )
    if missions:
        items = []
        for m in missions:
            mid = str(m.get("id"))
            pts = int(m.get("points") or 0)
            items.append(
                (
                    i18n.t(f"red_planet.card.{mid}", lang),
                    i18n.t(f"red_planet.card.{mid}.desc", lang),
                    t("now_points", lang, n=pts),
                    kit.GREEN if pts > 0 else GOLD,
                )
            )
        sections.append((t("private.missions", lang), items))
    if acts:
        sections.append(
            (
                t("private.actions", lang),
                [
                    (
                        i18n.t(f"red_planet.card.{a}", lang),
                        i18n.t(f"red_planet.card.{a}.desc", lang),
                        "",
                        PANEL_EDGE,
                    )
                    for a in acts
                ],
            )
        )
    if discs:
        items = []
        for z, cid in sorted(
            discs.items(), key=lambda kv: ZONES.index(kv[0]) if kv[0] in ZONES else 99
        ):
            items.append(
                (
                    i18n.t(f"red_planet.card.{cid}", lang),
                    f"{_zone_name(z, lang)} · {i18n.t(f'red_planet.card.{cid}.desc', lang)}",
                    "",
                    (120, 150, 220),
                )
            )
        sections.append((t("private.discoveries", lang), items))

    ph = 72 + (150 if hand or chosen else 0)
    for _, items in sections:
        ph += 36 + math.ceil(len(items) / 3) * (card_h + 12) + 8
    img = kit.star_field((pw, int(ph)), seed=9)
    d = ImageDraw.Draw(img)
    kit.rounded_box(d, (8, 6, pw - 8, 58), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    who = kit.player_name(names, seat, lang) if seat is not None else ""
    if seat is not None:
        token(d, (34, 32), 15, seat, "")
    title = t("private.title", lang, name=who) if who else t("private.anon", lang)
    title, tf = kit.fit_font(title, pw - 120, (28, 24, 20))
    text(d, (58 if seat is not None else 24, 32), title, tf, fill=INK, anchor="lm", shadow=2)
    y = 72.0
    if hand or chosen:
        text(d, (24, y + 12), t("private.hand", lang), font(22), fill=GOLD, anchor="lm")
        y += 30
        cards = sorted({*hand, *([chosen] if chosen else [])}, reverse=True)
        cw = min(112.0, (pw - 48 - 8 * 8) / 9)
        for i, num in enumerate(cards):
            x = 24 + i * (cw + 8)
            is_chosen = num == chosen
            fill = (226, 216, 190) if not is_chosen else GOLD
            d.rounded_rectangle(
                (x, y, x + cw, y + 104),
                radius=10,
                fill=fill,
                outline=(200, 84, 56) if is_chosen else kit.DARK,
                width=4 if is_chosen else 2,
            )
            text(d, (x + cw / 2, y + 36), str(num), font(40), fill=kit.DARK, anchor="mm")
            name = i18n.t(f"red_planet.char.{num}", lang).split(" ", 1)[-1]
            nm, f = kit.fit_font(name, cw - 10, (15, 14), "cond")
            if nm != name:  # two lines rather than a cut word
                f = font(13, "cond")
                for k, line in enumerate(kit.wrap(name, f, cw - 8, max_lines=2)):
                    text(d, (x + cw / 2, y + 68 + k * 14), line, f, fill=kit.DARK, anchor="mm")
            else:
                text(d, (x + cw / 2, y + 74), nm, f, fill=kit.DARK, anchor="mm")
            if is_chosen:
                s, f = kit.fit_font(t("private.chosen", lang), cw - 8, (14, 12), "cond")
                text(d, (x + cw / 2, y + 93), s, f, fill=(140, 40, 20), anchor="mm")
        y += 120
    for heading, items in sections:
        text(d, (24, y + 14), heading, font(22), fill=GOLD, anchor="lm")
        y += 36
        for i, (title_s, body, badge, edge) in enumerate(items):
            col, row = i % 3, i // 3
            x = 24 + col * (card_w + 14)
            yy = y + row * (card_h + 12)
            _card(
                d,
                (x, yy, x + card_w, yy + card_h),
                title_s,
                body,
                edge=edge,
                badge=badge,
                badge_rgb=edge,
            )
        y += math.ceil(len(items) / 3) * (card_h + 12) + 8
    return img
