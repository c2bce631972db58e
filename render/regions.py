"""Parts of a picture drawn once per state and pasted afterwards (issue 23).

A renderer whose picture is made of boxes that do not overlap (a ship's panel, a track, a
legend, a player's panel) names each box by everything drawn in it (the key) and calls
:func:`cached_region`: the first time, the box is drawn on the picture as always and a copy
of its pixels kept; the next picture with the same key gets those pixels pasted instead.

Pixel for pixel the same picture, as long as (a) the key holds everything the drawing
reads, (b) the drawing stays inside the box, and (c) what lies under the box before it is
drawn is the same for every picture with that key (the background, or a static layer that
the key names). The store is a :func:`render.layers.layer_cache` (bounded, least recently
used dropped first, emptied by ``layers.clear_all``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable
from typing import Any

from PIL import Image, ImageChops

from render.layers import LayerCache, layer_cache

Box = tuple[float, float, float, float]


def region_store(maxsize: int) -> LayerCache[[Hashable], dict[str, Any]]:
    """A bounded store of drawn boxes (one per key), registered with the layer caches."""

    def slot(key: Hashable) -> dict[str, Any]:
        return {}

    return layer_cache(maxsize=maxsize)(slot)


#: Cleared by a test that watches every drawing helper: every box is drawn afresh.
ENABLED = True
#: Set (tests, the golden-picture scripts) to check that every box drawn stays inside it.
CHECK = bool(os.environ.get("RENDER_REGIONS_CHECK"))


def pixel_box(box: Box, margin: int = 0) -> tuple[int, int, int, int]:
    """The whole pixels ``box`` touches, and ``margin`` more on every side."""
    x0, y0, x1, y1 = box
    m = margin
    return math.floor(x0) - m, math.floor(y0) - m, math.ceil(x1) + 1 + m, math.ceil(y1) + 1 + m


def cached_region(
    store: LayerCache[[Hashable], dict[str, Any]],
    img: Image.Image,
    box: Box,
    key: Hashable,
    draw: Callable[[], Any],
    margin: int = 0,
) -> Any:
    """Draw ``box`` of ``img`` with ``draw()`` once per ``key``, paste it afterwards (the box
    and ``margin`` pixels around it: what the drawing may overrun). Returns what ``draw``
    returned the first time (what the box drew, for a legend)."""
    if not ENABLED:
        return draw()
    pb = pixel_box(box, margin)
    slot = store((pb, key))
    patch = slot.get("patch")
    if patch is not None:
        img.paste(patch, pb[:2])
        return slot.get("result")
    before = img.copy() if CHECK else None
    result = draw()
    if before is not None:
        changed = ImageChops.difference(before, img).getbbox()
        inside = changed is None or (
            changed[0] >= pb[0]
            and changed[1] >= pb[1]
            and changed[2] <= pb[2]
            and changed[3] <= pb[3]
        )
        assert inside, f"drawn outside its box: {changed} not in {pb}"
    slot["result"] = result
    slot["patch"] = img.crop(pb)
    return result
