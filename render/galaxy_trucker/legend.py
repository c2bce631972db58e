"""Galaxy Trucker pictures: the legend (the entries for the marks a picture draws)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.galaxy_trucker.marks import LEGEND, _apart, _explained, _mark
from render.galaxy_trucker.ship import _ship_extras
from render.galaxy_trucker.style import KIND_FILL, SLOT, SLOT_EDGE, TILE_EDGE, _cellkey, _cells, _t
from render.galaxy_trucker.tile import _tile_marks, _tubes, draw_tile
from render.kit import GOLD, GREEN, INK, RED
from render.layers import layer_cache
from render.regions import cached_region, region_store

#: Legends drawn once per place, language and entries, pasted afterwards (render.regions).
_LEGENDS = region_store(12)

# --------------------------------------------------------------------------- legend


def view_marks(
    view: dict[str, Any], ships: Sequence[dict[str, Any]], tiles_: Sequence[Any]
) -> set[str]:
    """The marks a picture of these ships (and loose tiles: the pool, a hand, a reserve)
    draws, for its legend."""
    with _apart() as out:
        for ship in ships:
            _mark(*_ship_marks(ship))
        for t in tiles_:
            if isinstance(t, dict):
                _tile_marks(str(t.get("kind", "structural")), str(t.get("sides", "")), {})
    return out


def _ship_marks(ship: dict[str, Any]) -> frozenset[str]:
    """The marks a ship draws (kept per ship: a flight table asks for every ship's)."""
    held = _marks_kept(repr(ship))
    if "marks" not in held:
        with _apart() as out:
            extras = _ship_extras(ship)
            _mark("cell")
            for t in kit.list_of(ship.get("tiles")):
                if isinstance(t, dict):
                    cell = _cells([t.get("cell")])
                    key = _cellkey(*next(iter(cell))) if cell else ""
                    kind, sides = str(t.get("kind", "structural")), str(t.get("sides", ""))
                    _tile_marks(kind, sides, extras.get(key, {}))
        held["marks"] = frozenset(out)
    return frozenset(held["marks"])


@layer_cache(maxsize=64)
def _marks_kept(ship: str) -> dict[str, frozenset[str]]:
    return {}


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
    keep: bool = False,
) -> int:
    """The legend of ``marks`` in ``cols`` columns from (x0, y) to x1: an icon and its words
    for each entry whose marks were drawn. Returns the height used. ``keep``: drawn once per
    place, language and entries (on the picture's plain background), pasted afterwards."""
    x0, y, x1 = box
    entries = [(e, m) for e, m in LEGEND if m & marks]
    if keep and entries:
        h = legend_height(len(entries), cols, size)
        key = (lang, box, tuple(e for e, _ in entries), cols, size)
        draw = partial(draw_legend, img, d, box, marks, lang, cols, size)
        cached_region(_LEGENDS, img, (x0, y, x1, y + h), key, draw)
        explain(marks)
        return h
    colw = (x1 - x0) / cols
    row_h = round(size * 1.7)
    icon = round(size * 1.45)
    for i, (entry, covers) in enumerate(entries):
        r, c = divmod(i, cols)
        ex, ey = x0 + c * colw, y + r * row_h
        _legend_icon(img, d, ex, ey + (row_h - icon) / 2, icon, entry)
        words, f = kit.fit_font(_t(f"pic.lg.{entry}", lang), colw - icon - 14, (size,), "book")
        kit.text(d, (ex + icon + 6, ey + row_h / 2), words, f, fill=INK, anchor="lm")
        _explained(covers)
    return legend_height(len(entries), cols, size)


def explain(marks: set[str]) -> None:
    """Note what a legend of ``marks`` explains (a legend pasted from the cache)."""
    for _, covers in LEGEND:
        if covers & marks:
            _explained(covers)
