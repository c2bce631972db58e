"""An animated recap of a game: table pictures over time, as a GIF Discord plays inline.

Every frame is mapped onto one fixed palette (no dithering) that holds, exactly, the kit's
seat colours and theme colours, then the colours that cover the most pixels across the
frames, then a median cut of the frames for the rest. A seat's colour therefore never drifts
into another seat's (a per-frame median cut used to merge MLEM's sky blue into the green of
another seat), and the same pixel has the same colour in every frame. Generic: it knows no
game, only the kit."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence

from PIL import Image

from render import kit

FRAME_MS = 700
LAST_FRAME_MS = 3000

#: Colours every recap keeps exactly: the seats first, then the kit's theme.
KEEP: tuple[kit.RGB, ...] = (
    *(pc.rgb for pc in kit.PALETTE),
    kit.BG,
    kit.BG2,
    kit.PANEL,
    kit.PANEL_EDGE,
    kit.INK,
    kit.MUTED,
    kit.FAINT,
    kit.GOLD,
    kit.RED,
    kit.GREEN,
    kit.DARK,
    kit.DIE_FACE,
    kit.DIE_PIP,
    kit.AB_FACE,
    kit.AB_FLAME,
)
#: How many of the most frequent exact colours of the frames join the palette.
FREQUENT = 96
#: Frames sampled to choose the palette (the palette is shared by every frame).
SAMPLE = 6


def palette(
    images: Sequence[Image.Image], keep: Iterable[kit.RGB] = KEEP, colors: int = 256
) -> Image.Image:
    """One ``P`` image whose palette holds ``keep`` exactly, then the most frequent colours of
    ``images`` (RGB), then a median cut of them, ``colors`` entries at most."""
    chosen: list[kit.RGB] = []
    seen: set[kit.RGB] = set()

    def add(c: Sequence[int]) -> None:
        rgb = (int(c[0]), int(c[1]), int(c[2]))
        if rgb not in seen and len(chosen) < colors:
            seen.add(rgb)
            chosen.append(rgb)

    for c in keep:
        add(c)
    exact = list(chosen)
    step = max(1, len(images) // SAMPLE)
    sample = list(images[::step])
    if images and images[-1] is not sample[-1]:
        sample.append(images[-1])
    counts: Counter[tuple[int, ...]] = Counter()
    for im in sample:
        for n, col in im.getcolors(im.width * im.height) or []:
            if isinstance(col, tuple):
                counts[col] += n
    for col, _ in counts.most_common(FREQUENT):
        add(col)
    if sample and len(chosen) < colors:
        small = [im.reduce(2) for im in sample]  # the cut needs no full-size detail
        w, h = small[0].size
        strip = Image.new("RGB", (w, h * len(small)))
        for k, im in enumerate(small):
            strip.paste(im, (0, k * h))
        cut = strip.quantize(colors=colors - len(chosen), method=Image.Quantize.MEDIANCUT)
        flat = cut.getpalette() or []
        for i in range(0, min(len(flat), 3 * (colors - len(chosen))), 3):
            add(flat[i : i + 3])
    pal = [v for c in chosen for v in c]
    pal += list(chosen[-1] if chosen else (0, 0, 0)) * (256 - len(chosen))
    out = Image.new("P", (1, 1))
    out.putpalette(pal[:768])
    return kit.keep_exact(out, exact)


def animate(frames: Sequence[bytes], *, width: int = 700, keep: Iterable[kit.RGB] = KEEP) -> bytes:
    """Assemble PNG frames (same size) into an animated GIF, scaled to ``width`` pixels, on one
    palette that keeps every colour of ``keep`` (by default the seat and theme colours) exact.

    The last frame stays longer so the final board can be read."""
    if not frames:
        raise ValueError("no frames")
    images: list[Image.Image] = []
    size: tuple[int, int] | None = None  # the first frame's, scaled to ``width``
    for data in frames:
        with Image.open(io.BytesIO(data)) as src:
            if size is None:
                size = (width, round(src.height * width / src.width))
            im = src.convert("RGB")
            if im.size != size:  # one resampling, straight to the recap's size
                im = im.resize(size, Image.Resampling.LANCZOS)
            images.append(im)
    pal = palette(images, keep)
    quantized = [im.quantize(palette=pal, dither=Image.Dither.NONE) for im in images]
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(quantized) - 1) + [LAST_FRAME_MS]
    quantized[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=quantized[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()
