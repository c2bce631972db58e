"""Galaxy Trucker pictures: the public table (building, pre-launch, or the flight's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.galaxy_trucker.flight import _draw_flight_table
from render.galaxy_trucker.legend import draw_legend, legend_height, view_marks
from render.galaxy_trucker.marks import LEGEND, _picture
from render.galaxy_trucker.ship import _header, _players
from render.galaxy_trucker.style import MIN_FONT, G, W, _label, _lang, _png, _t
from render.galaxy_trucker.tile import draw_tile
from render.kit import BG, GOLD, GREEN, INK, MUTED, PANEL_EDGE, RED, RGB
from render.regions import cached_region, region_store

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
    _header(img, d, W, view, lang, i18n.t(f"{G}.name", lang))
    # left: hourglass, face-down pile, builders (drawn once per state, pasted afterwards)
    statuses = [_status(view, seat, lang) for seat in range(n)]
    who = [kit.player_name(names, seat, lang) for seat in range(n)]
    hg = kit.dict_of(view.get("hourglass"))
    key = (lang, repr(hg), view.get("facedown"), repr(statuses), repr(who))
    box = (20, 84, 400, 84 + 150 + 34 + n * 80)
    cached_region(_LEFT, img, box, key, partial(_build_left, d, view, names, lang, n))
    # right: the open pool
    px0, py = 430, 84
    kit.text(d, (px0, py), _t("pic.pool", lang, n=len(pool)), kit.font(28))
    py += 44
    if not pool:
        kit.text(d, (px0, py + 20), _t("pic.pool_empty", lang), kit.font(20, "book"), fill=MUTED)
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
    draw_legend(img, d, (px0, ly + 30, W - 20), marks, lang, lg_cols, MIN_FONT, keep=True)
    return img


#: The building table's left column, drawn once per state (render.regions).
_LEFT = region_store(6)


def _build_left(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], lang: str, n: int
) -> None:
    """The building table's left column: hourglass, face-down pile, who is building."""
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
    _header(img, d, W, view, lang, i18n.t(f"{G}.name", lang))
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
    public = {k: v for k, v in view.items() if k != "private"}
    with kit.LOCK, _picture():
        img = _draw_table(public, names, _lang(lang))
    return _png(img)
