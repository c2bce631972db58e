"""An animated recap of a game: table pictures over time, as a GIF Discord plays inline."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

FRAME_MS = 700
LAST_FRAME_MS = 3000


def animate(frames: Sequence[bytes], *, width: int = 700) -> bytes:
    """Assemble PNG frames (same size) into an animated GIF, scaled to ``width`` pixels.

    The last frame stays longer so the final board can be read."""
    if not frames:
        raise ValueError("no frames")
    images = []
    for data in frames:
        with Image.open(io.BytesIO(data)) as src:
            im = src.convert("RGB")
            height = round(im.height * width / im.width)
            small = im.resize((width, height), Image.Resampling.LANCZOS)
            images.append(small.quantize(colors=128, method=Image.Quantize.MEDIANCUT))
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=True,
    )
    return out.getvalue()
