"""Pillow's drawing calls made without its Python steps around them, where a renderer draws
many small shapes (issue 23). Each function here is pixel for pixel Pillow's own call with
the same arguments (tests/render/test_kit_shared.py pins it against Pillow's on random
boxes, with the pinned Pillow of constraints.txt), and says when it leaves a case to Pillow."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from typing import Any

from PIL import Image, ImageDraw


def rounded_rectangle(
    draw: ImageDraw.ImageDraw, xy: Any, radius: float, fill: Any, outline: Any, width: int
) -> bool:
    """Pillow's ``draw.rounded_rectangle(xy, radius, fill, outline, width)`` (all four
    corners round, ``xy`` in the picture's pixels): the same calls to Pillow's drawing core,
    with the same arguments in the same order, without its Python steps around them (half
    its time for a small box; a panel's rows draw a dozen). False, having drawn nothing,
    for what it leaves to Pillow: a box upside down (Pillow's error), one round enough to
    be an ellipse, one with square corners. Pixel for pixel Pillow's (tests/render/
    test_kit_shared.py pins it against Pillow's own on random boxes)."""
    if isinstance(xy[0], (list, tuple)):
        (x0, y0), (x1, y1) = xy
    else:
        x0, y0, x1, y1 = xy
    if x1 < x0 or y1 < y0:
        return False
    d = min(x1 - x0, y1 - y0, radius * 2)
    x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
    full_x = d >= x1 - x0 - 1
    if full_x:
        d = x1 - x0
    full_y = d >= y1 - y0 - 1
    if full_y:
        d = y1 - y0
    if (full_x and full_y) or d == 0:
        return False
    r = int(d // 2)
    ink, fill_ink = draw._getink(outline, fill)
    corners: tuple[tuple[tuple[float, float, float, float], int, int], ...]
    if full_x:
        corners = (((x0, y0, x0 + d, y0 + d), 180, 360), ((x0, y1 - d, x0 + d, y1), 0, 180))
    elif full_y:
        corners = (((x0, y0, x0 + d, y0 + d), 90, 270), ((x1 - d, y0, x1, y0 + d), 270, 90))
    else:
        corners = (
            ((x0, y0, x0 + d, y0 + d), 180, 270),
            ((x1 - d, y0, x1, y0 + d), 270, 360),
            ((x1 - d, y1 - d, x1, y1), 0, 90),
            ((x0, y1 - d, x0 + d, y1), 90, 180),
        )
    core = draw.draw
    if fill_ink is not None:
        for box, start, end in corners:
            core.draw_pieslice(box, start, end, fill_ink, 1)
        if full_x:
            core.draw_rectangle((x0, y0 + r + 1, x1, y1 - r - 1), fill_ink, 1)
        elif x1 - r - 1 >= x0 + r + 1:
            core.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y1), fill_ink, 1)
        if not full_x and not full_y:
            core.draw_rectangle([x0, y0 + r + 1, x0 + r, y1 - r - 1], fill_ink, 1)
            core.draw_rectangle([x1 - r, y0 + r + 1, x1, y1 - r - 1], fill_ink, 1)
    if ink is not None and ink != fill_ink and width != 0:
        for box, start, end in corners:
            core.draw_arc(box, start, end, ink, width)
        if not full_x:
            core.draw_rectangle([x0 + r + 1, y0, x1 - r - 1, y0 + width - 1], ink, 1)
            core.draw_rectangle([x0 + r + 1, y1 - width + 1, x1 - r - 1, y1], ink, 1)
        if not full_y:
            core.draw_rectangle([x0, y0 + r + 1, x0 + width - 1, y1 - r - 1], ink, 1)
            core.draw_rectangle([x1 - width + 1, y0 + r + 1, x1, y1 - r - 1], ink, 1)
    return True


#: A mask of each picture size a wide polygon outline was drawn on (:func:`polygon`), all
#: zeros between calls, and whether a call is using it: at most :data:`MASKS` sizes kept
#: (least recently used dropped; a 1400×1050 mask is 1.5 MB).
_MASKS: OrderedDict[tuple[int, int], list[Any]] = OrderedDict()
_MASKS_LOCK = threading.Lock()
MASKS = 2


def _take_mask(size: tuple[int, int]) -> list[Any] | None:
    """The blank mask of ``size`` (its image, its drawing core), now the caller's; None
    while another call uses it."""
    with _MASKS_LOCK:
        kept = _MASKS.get(size)
        if kept is None:
            mask = Image.new("1", size)
            kept = _MASKS[size] = [mask, ImageDraw.Draw(mask).draw, False]
            while len(_MASKS) > MASKS:
                _MASKS.popitem(last=False)
        _MASKS.move_to_end(size)
        if kept[2]:
            return None
        kept[2] = True
        return kept


def _bounds(xy: Any) -> tuple[int, int, int, int] | None:
    """The whole pixels round the points ``xy`` (pairs, or x and y in turn), 2 more on
    every side; None if they are not finite numbers."""
    seq = list(xy)
    if seq and isinstance(seq[0], (tuple, list)):
        xs, ys = [p[0] for p in seq], [p[1] for p in seq]
    else:
        xs, ys = seq[0::2], seq[1::2]
    if not xs or not ys:
        return None
    try:
        box = (min(xs), min(ys), max(xs), max(ys))
        if not all(math.isfinite(v) for v in box):
            return None
    except TypeError:
        return None
    return (
        math.floor(box[0]) - 2,
        math.floor(box[1]) - 2,
        math.ceil(box[2]) + 2,
        math.ceil(box[3]) + 2,
    )


def polygon(draw: ImageDraw.ImageDraw, xy: Any, fill: Any, outline: Any, width: int) -> bool:
    """Pillow's ``draw.polygon(xy, fill, outline, width)`` for an outline wider than a
    pixel: the same calls to Pillow's drawing core, with the same arguments in the same
    order, but the mask that keeps the outline inside the polygon (the polygon filled, on a
    blank ``1`` picture of the picture's size) is not made afresh: a blank one is kept per
    size and blanked again round the polygon once drawn (making one was 70 µs a polygon on
    a 1400×1050 table: 3 a MLEM table). False, having drawn nothing, for what it leaves to
    Pillow: an outline of a pixel or none, points it cannot bound, a mask in use on another
    thread. Pixel for pixel Pillow's (tests/render/test_kit_shared.py)."""
    if width <= 1 or draw.im is None or outline is None:
        return False
    bounds = _bounds(xy)
    if bounds is None:
        return False
    kept = _take_mask(draw.im.size)
    if kept is None:
        return False
    mask, mask_core, _ = kept
    try:
        ink, fill_ink = draw._getink(outline, fill)
        if fill_ink is not None:
            draw.draw.draw_polygon(xy, fill_ink, 1)
        if ink is not None and ink != fill_ink:
            mask_ink = draw._getink(1)[0]
            try:
                mask_core.draw_polygon(xy, mask_ink, 1)
                draw.draw.draw_polygon(xy, ink, 0, width * 2 - 1, mask.im)
            finally:
                mask_core.draw_rectangle(bounds, 0, 1)
    finally:
        kept[2] = False
    return True
