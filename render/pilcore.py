"""Pillow's drawing calls made without its Python steps around them, where a renderer draws
many small shapes (issue 23). Each function here is pixel for pixel Pillow's own call with
the same arguments (tests/render/test_kit_shared.py pins it against Pillow's on random
boxes, with the pinned Pillow of constraints.txt), and says when it leaves a case to Pillow."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw


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
