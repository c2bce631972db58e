"""Shared drawing kit for every game's board pictures.

Pure Pillow, no discord. Everything here is safe to call from a worker thread: fonts are
loaded once (at import, or on first use of an unusual size), and no function draws on a
shared image — callers copy their pre-drawn base and draw on the copy.

What is here
------------
* Fonts: :data:`Font` (the one font type) and :func:`font` (DejaVu Sans Bold / Condensed
  Bold / Book shipped in ``data/fonts`` — they cover Spanish ñ á é í ó ú ü ¿ ¡ — with
  Pillow's bundled font as a fallback).
* Colours: a dark-space theme (:data:`BG`, :data:`INK`, ...) and a 6-colour seat palette
  (:data:`PALETTE`, Okabe–Ito based plus a violet, chosen to stay apart under simulated
  protanopia, deuteranopia and tritanopia) in which every seat also has its own *shape*
  (circle, square, diamond, triangle, hexagon, star), so seats can be told apart without
  colour. :func:`seat_token` draws that token; :func:`seat_panel` a player's panel.
* Header: :func:`pill` (the phase chip of a picture's header).
* :data:`LOCK` — FreeType faces are shared between threads: renderers draw one picture at a
  time while holding it.
* Helpers: :func:`text` (outline/shadow), :func:`fit_font`, :func:`ellipsize`,
  :func:`rounded_box`, :func:`die` (faces 1–6 and the afterburner), :func:`legend`,
  :func:`star_field`, :func:`blend`.
* :func:`to_png` — small, palette PNG bytes (well under 400 KB for a 1400 px board).
* :class:`ScaledDraw` — an ``ImageDraw`` that draws a part laid out at one size bigger (or
  smaller) and sharp: tables are seen ~400 px wide on a phone, so their header and side panels
  are drawn 1.25–1.5× their layout size (see ``tests/render/test_phone.py``).
"""

from __future__ import annotations

import io
import math
import os
import random
import threading
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard, cast

from PIL import Image, ImageDraw, ImageFont

from core import i18n
from render import pngbands
from render.layers import _PILLOW_TEXT, CachedFont, draw_line, mapped
from render.pilcore import polygon as wide_polygon
from render.pilcore import rounded_rectangle  # (re-exported: kit.rounded_rectangle)

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
#: The font type every helper takes and :func:`font` returns.
Font = ImageFont.FreeTypeFont

#: Held while drawing a picture: FreeType faces are shared between worker threads.
LOCK = threading.Lock()

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
_FONT_FILES = {
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed-Bold.ttf",
    "book": "DejaVuSans.ttf",
}

# --------------------------------------------------------------------------- theme

BG: RGB = (11, 14, 32)  # deep space
BG2: RGB = (20, 25, 52)  # panels
PANEL: RGB = (27, 33, 66)
PANEL_EDGE: RGB = (70, 82, 140)
INK: RGB = (245, 246, 252)  # main text
MUTED: RGB = (160, 168, 205)  # secondary text
FAINT: RGB = (92, 100, 140)
GOLD: RGB = (255, 204, 64)
RED: RGB = (240, 80, 80)
GREEN: RGB = (90, 220, 120)
DARK: RGB = (12, 12, 20)  # text on bright tokens


@dataclass(frozen=True)
class PlayerColor:
    """One seat's colour: ``name`` is the i18n key suffix (``render.color.<name>``)."""

    name: str
    rgb: RGB
    shape: str  # circle | square | diamond | triangle | hexagon | star


#: Okabe–Ito colours bright enough for a dark background, each paired with a shape; the
#: sixth, a violet, is the colour farthest from the other five in simulated colour-blind
#: vision (see tests/render/test_kit_shared.py).
PALETTE: tuple[PlayerColor, ...] = (
    PlayerColor("orange", (230, 159, 0), "circle"),
    PlayerColor("sky", (86, 180, 233), "square"),
    PlayerColor("green", (0, 178, 130), "diamond"),
    PlayerColor("yellow", (240, 228, 66), "triangle"),
    PlayerColor("pink", (224, 130, 185), "hexagon"),
    PlayerColor("violet", (130, 90, 255), "star"),
)
SHAPES: tuple[str, ...] = tuple(pc.shape for pc in PALETTE)


def seat_color(seat: int | None) -> RGB:
    if seat is None or not 0 <= seat < len(PALETTE):
        return FAINT
    return PALETTE[seat].rgb


def color_key(seat: int) -> str:
    """i18n key of the seat's colour name (``render.color.orange`` ...)."""
    return f"render.color.{PALETTE[seat % len(PALETTE)].name}"


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` toward ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=128)
def font(size: int, style: str = "bold") -> Font:
    """A cached font: ``style`` is ``bold`` (default), ``cond`` (condensed bold) or ``book``."""
    path = FONT_DIR / _FONT_FILES.get(style, _FONT_FILES["bold"])
    try:
        return CachedFont(str(path), size)
    except OSError:  # font files missing: Pillow's bundled scalable font
        f = ImageFont.load_default(size=size)
        if not isinstance(f, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow sans FreeType
            raise
        return f


# Load the usual sizes once, at import.
for _size in (12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30, 34, 40):
    for _style in _FONT_FILES:
        font(_size, _style)


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, style: str) -> bool:
    if ch.isspace():
        return True
    if unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F:
        return False  # joiners, direction marks, variation selectors
    f = font(20, style)
    if not hasattr(f, "getmask"):
        return True
    try:
        missing = f.getmask("\uffff")
        mask = f.getmask(ch)
    except Exception:  # pragma: no cover - a font that cannot render the probe at all
        return True
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def displayable(s: str, style: str = "bold") -> str:
    """``s`` without the characters the font would draw as an empty box (emoji, most
    pictographs, zero-width joiners), with runs of spaces collapsed. Player names from
    Discord often hold such characters."""
    kept = "".join(ch for ch in s if _has_glyph(ch, style))
    return " ".join(kept.split())


# -- shared by every game's renderer -------------------------------------------------


def lang_or_default(lang: str | None) -> str:
    """A language the strings exist in (English for anything unknown)."""
    return lang if lang in i18n.LANGS else i18n.DEFAULT


def texts(prefix: str) -> Callable[..., str]:
    """A game's picture strings: ``texts("mlem.render")("title", lang, **args)`` is the text
    of ``mlem.render.title``."""

    def t(key: str, lang: str, **args: Any) -> str:
        return i18n.t(f"{prefix}.{key}", lang, **args)

    return t


def public(view: dict) -> dict:
    """The view without its ``private`` part: what a table may draw."""
    return {k: v for k, v in view.items() if k != "private"}


def player_name(names: Sequence[str], seat: int, lang: str) -> str:
    """The seat's display name as the fonts can draw it (no emoji), else "Player n"."""
    if 0 <= seat < len(names):
        name = displayable(str(names[seat]))
        if name:
            return name
    return i18n.t("render.seat", lang, n=seat + 1)


def is_int(x: object) -> TypeGuard[int]:
    """A real int (not a bool, which Python counts as an int)."""
    return isinstance(x, int) and not isinstance(x, bool)


def dict_of(x: object) -> dict[str, Any]:
    """``x`` if it is a dict, else an empty one (views come from outside: never trust them)."""
    return x if isinstance(x, dict) else {}


def list_of(x: object) -> list[Any]:
    """``x`` if it is a list, else an empty one."""
    return x if isinstance(x, list) else []


def list_at(m: object, key: str) -> list[Any]:
    """``m[key]`` if ``m`` is a dict holding a list there, else an empty list."""
    return list_of(dict_of(m).get(key))


def dict_at(m: object, key: str) -> dict[str, Any]:
    """``m[key]`` if ``m`` is a dict holding a dict there, else an empty dict."""
    return dict_of(dict_of(m).get(key))


def int_of(x: object, default: int = 0) -> int:
    """``x`` if it is a real int, else ``default``."""
    return x if is_int(x) else default


def is_seat(seat: object, n: int) -> TypeGuard[int]:
    """A real seat index (not a bool, which Python counts as an int) of ``n`` seats."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < max(n, 1)


def per_language(build: Callable[[str], Image.Image]) -> Callable[[str], Image.Image]:
    """The static layer of a picture, drawn once per language at import; callers get the
    same read-only image and must ``copy()`` it before drawing."""
    built = {lang: build(lang) for lang in i18n.LANGS}
    return lambda lang: built.get(lang) or built[i18n.DEFAULT]


def text_width(s: str, f: Font) -> float:
    return f.getlength(s)


def ellipsize(s: str, f: Font, max_width: float) -> str:
    """``s`` cut with an ellipsis so that it fits ``max_width`` pixels."""
    if f.getlength(s) <= max_width:
        return s
    ell = "…"
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(s[:mid].rstrip() + ell) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + ell


def fit_font(
    s: str, max_width: float, sizes: Sequence[int], style: str = "bold"
) -> tuple[str, Font]:
    """The largest of ``sizes`` (descending) in which ``s`` fits, else the smallest with an
    ellipsis. Long names get condensed before they get cut."""
    for size in sizes:
        f = font(size, style)
        if f.getlength(s) <= max_width:
            return s, f
    if style == "bold":
        return fit_font(s, max_width, sizes, "cond")
    f = font(sizes[-1], style)
    return ellipsize(s, f, max_width), f


def wrap(s: str, f: Font, max_width: float, max_lines: int = 2) -> list[str]:
    """Greedy word wrap; the last line is ellipsized if the text is still too long."""
    words = s.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        trial = f"{cur} {w}".strip()
        if f.getlength(trial) <= max_width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [ellipsize(line, f, max_width) for line in lines]


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    f: Font,
    fill: RGB = INK,
    anchor: str = "la",
    outline: int = 0,
    outline_fill: RGB = BG,
    shadow: int = 0,
    shadow_fill: RGB = (0, 0, 0),
) -> None:
    """Text with an optional outline (stroke) and drop shadow, for legibility on any fill."""
    x, y = xy
    if shadow and not _line(
        draw, (x + shadow, y + shadow), s, f, shadow_fill, anchor, outline, shadow_fill
    ):
        draw.text(
            (x + shadow, y + shadow),
            s,
            font=f,
            fill=shadow_fill,
            anchor=anchor,
            stroke_width=outline,
            stroke_fill=shadow_fill,
        )
    if not _line(draw, (x, y), s, f, fill, anchor, outline, outline_fill):
        draw.text(
            (x, y),
            s,
            font=f,
            fill=fill,
            anchor=anchor,
            stroke_width=outline,
            stroke_fill=outline_fill,
        )


def _line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    f: Font,
    fill: RGB,
    anchor: str,
    stroke: int,
    stroke_fill: RGB,
) -> bool:
    """:func:`render.layers.draw_line` (one line of text, Pillow's steps without its text
    object), through a :class:`ScaledDraw`'s mapping when ``draw`` is one; False when it
    drew nothing and ``draw.text`` must."""
    if type(draw) is ScaledDraw:
        if draw._depth or ScaledDraw.text is not _SCALED_TEXT:  # a test watches its words
            return False
        xy = draw.pt(xy[0], xy[1])
        f = scaled_font(f, draw.k)
        stroke = draw._w(stroke) if stroke else stroke
        return draw_line(draw, xy, s, f, fill, anchor, stroke, stroke_fill, scaled=True)
    return draw_line(draw, xy, s, f, fill, anchor, stroke, stroke_fill)


# --------------------------------------------------------------------------- shapes


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: Box,
    radius: float = 10,
    fill: RGB | None = PANEL,
    outline: RGB | None = None,
    width: int = 2,
) -> None:
    if type(draw) is not ImageDraw.ImageDraw or not rounded_rectangle(
        draw, box, radius, fill, outline, width
    ):
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def _polygon(cx: float, cy: float, r: float, n: int, rot: float) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(rot + 2 * math.pi * i / n),
            cy + r * math.sin(rot + 2 * math.pi * i / n),
        )
        for i in range(n)
    ]


def shape(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    r: float,
    kind: str,
    fill: RGB | None,
    outline: RGB | None = None,
    width: int = 2,
) -> None:
    """A filled shape of "radius" ``r``: circle, square, diamond, triangle, hexagon or star."""
    cx, cy = center
    if kind == "square":
        k = r * 0.86
        draw.rounded_rectangle(
            (cx - k, cy - k, cx + k, cy + k),
            radius=r * 0.18,
            fill=fill,
            outline=outline,
            width=width,
        )
    elif kind == "diamond":
        pts = _polygon(cx, cy, r * 1.12, 4, -math.pi / 2)
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    elif kind == "triangle":
        pts = _polygon(cx, cy + r * 0.22, r * 1.25, 3, -math.pi / 2)
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    elif kind == "hexagon":
        pts = _polygon(cx, cy, r * 1.02, 6, 0)
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    elif kind == "star":
        outer = _polygon(cx, cy + r * 0.08, r * 1.22, 5, -math.pi / 2)
        inner = _polygon(cx, cy + r * 0.08, r * 0.62, 5, -math.pi / 2 + math.pi / 5)
        pts = [p for pair in zip(outer, inner, strict=True) for p in pair]
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)


def seat_token(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    r: float,
    seat: int,
    label: str | None = None,
    dim: bool = False,
) -> None:
    """The seat's token: its shape in its colour, outlined, with an optional short label
    (a count, a value) centred in dark ink."""
    pc = PALETTE[seat % len(PALETTE)]
    fill = blend(pc.rgb, BG, 0.55) if dim else pc.rgb
    shape(draw, (center[0] + 1, center[1] + 2), r, pc.shape, fill=(0, 0, 0))
    shape(draw, center, r, pc.shape, fill=fill, outline=DARK, width=max(1, round(r / 9)))
    if label:
        size = max(10, round(r * (0.95 if len(label) < 2 else 0.8)))
        dy = r * 0.2 if pc.shape == "triangle" else r * 0.08 if pc.shape == "star" else 0
        text(draw, (center[0], center[1] + dy), label, font(size), fill=DARK, anchor="mm")


def title_bar(
    draw: ImageDraw.ImageDraw,
    width: float,
    bottom: int,
    title: str,
    *,
    room: float,
    text_x: float = 24,
    token: Callable[[int], None] | None = None,
    sizes: Sequence[int] = (28, 24, 20),
    shadow: int = 2,
) -> None:
    """The title across the top of a private picture ``width`` wide: a panel from y 6 to
    ``bottom``, the seat's ``token`` (drawn by the game, given the panel's middle height),
    then ``title`` fitted in ``room`` px from ``text_x``."""
    rounded_box(draw, (8, 6, width - 8, bottom), radius=12, fill=BG2, outline=PANEL_EDGE)
    cy = (6 + bottom) // 2
    if token is not None:
        token(cy)
    s, f = fit_font(title, room, sizes)
    text(draw, (text_x, cy), s, f, fill=INK, anchor="lm", shadow=shadow)


def seat_panel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    seat: int,
    highlight: bool = False,
    radius: float = 14,
    tint: float = 0.9,
) -> None:
    """A player's panel: a box faintly tinted with the seat's colour, a stripe of that colour
    on its left edge, and a gold outline when ``highlight`` (to move, or winner)."""
    x0, y0, _, y1 = box
    pc = seat_color(seat)
    rounded_box(
        draw,
        box,
        radius=radius,
        fill=blend(pc, BG2, tint),
        outline=GOLD if highlight else PANEL_EDGE,
        width=3 if highlight else 2,
    )
    draw.rounded_rectangle((x0 + 3, y0 + 10, x0 + 8, y1 - 10), radius=2, fill=pc)


def pill(
    draw: ImageDraw.ImageDraw,
    x: float,
    y0: float,
    y1: float,
    label: str,
    f: Font,
    fill: RGB,
    pad: float = 14,
    radius: float | None = None,
    dy: float = 0,
) -> float:
    """A header chip (the phase of the game) starting at ``x`` between ``y0`` and ``y1``,
    ``label`` centred in dark ink (moved ``dy`` down); returns its width."""
    w = f.getlength(label) + 2 * pad
    r = (y1 - y0) / 2 if radius is None else radius
    rounded_box(draw, (x, y0, x + w, y1), radius=r, fill=fill, outline=(0, 0, 0))
    text(draw, (x + w / 2, (y0 + y1) / 2 + dy), label, f, fill=DARK, anchor="mm")
    return w


# --------------------------------------------------------------------------- dice

AFTERBURNER = "A"
DIE_FACE: RGB = (246, 246, 240)
DIE_PIP: RGB = (20, 22, 40)
AB_FACE: RGB = (232, 84, 38)
AB_FLAME: RGB = (255, 214, 70)

_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def flame(draw: ImageDraw.ImageDraw, box: Box, fill: RGB = AB_FLAME, core: RGB | None = None):
    """A small flame (the afterburner symbol) filling ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w / 2

    def f(px: float, py: float) -> tuple[float, float]:
        return (cx + px * w / 2, y0 + py * h)

    outer = [
        f(0, 0),
        f(0.35, 0.38),
        f(0.62, 0.3),
        f(0.9, 0.62),
        f(0.7, 0.9),
        f(0.3, 1.0),
        f(-0.3, 1.0),
        f(-0.7, 0.9),
        f(-0.9, 0.62),
        f(-0.62, 0.34),
        f(-0.4, 0.45),
    ]
    draw.polygon(outer, fill=fill)
    if core:
        inner = [f(0, 0.38), f(0.45, 0.72), f(0.3, 0.95), f(-0.3, 0.95), f(-0.45, 0.72)]
        draw.polygon(inner, fill=core)


def die(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    size: float,
    face: int | str,
    value: int | None = None,
    dim: bool = False,
    crossed: bool = False,
) -> None:
    """A die at top-left ``xy``. ``face`` is 1..6 or ``"A"`` (afterburner; ``value`` is its
    worth on the current space, drawn on the flame). ``dim`` greys it out, ``crossed``
    strikes it through (an unusable die)."""
    x, y = xy
    s = size
    box = (x, y, x + s, y + s)
    rad = s * 0.2
    is_ab = face == AFTERBURNER
    body = AB_FACE if is_ab else DIE_FACE
    pip = DIE_PIP
    if dim:
        body = blend(body, BG, 0.55)
        pip = (10, 10, 18)
    draw.rounded_rectangle(
        box, radius=rad, fill=body, outline=(0, 0, 0), width=max(1, round(s / 22))
    )
    if crossed:  # under the pips, so the face stays readable
        w = max(2, round(s / 13))
        m = s * 0.14
        col = blend(RED, BG, 0.1)
        draw.line((x + m, y + m, x + s - m, y + s - m), fill=col, width=w)
        draw.line((x + s - m, y + m, x + m, y + s - m), fill=col, width=w)
    if is_ab:
        fl = blend(AB_FLAME, BG, 0.5) if dim else AB_FLAME
        flame(draw, (x + s * 0.16, y + s * 0.1, x + s * 0.84, y + s * 0.92), fill=fl)
        if value is not None:
            ink = (120, 20, 0) if not dim else (60, 14, 0)
            text(
                draw,
                (x + s / 2, y + s * 0.63),
                str(value),
                font(max(9, round(s * 0.5))),
                fill=ink,
                anchor="mm",
            )
    else:
        n = int(face) if str(face).isdigit() else 0
        pr = s * 0.095
        off = s * 0.26
        for dx, dy in _PIPS.get(n, []):
            cx, cy = x + s / 2 + dx * off, y + s / 2 + dy * off
            draw.ellipse(
                (cx - pr, cy - pr, cx + pr, cy + pr), fill=pip, outline=body if crossed else None
            )


# --------------------------------------------------------------------------- layout helpers


def legend(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    items: Iterable[
        tuple[RGB | Callable[[ImageDraw.ImageDraw, tuple[float, float], float], None] | None, str]
    ],
    f: Font,
    max_width: float,
    icon: float = 20,
    gap: float = 18,
    fill: RGB = MUTED,
) -> float:
    """A one-or-more-line legend: each item is (icon, label) where icon is an RGB swatch or a
    callable ``icon(draw, (x, y), size)``. Returns the y below the legend."""
    x0, y = xy
    x = x0
    line_h = max(icon, f.size) + 6
    for ico, label in items:
        w = icon + 6 + f.getlength(label)
        if x > x0 and x + w > x0 + max_width:
            x = x0
            y += line_h
        if callable(ico):
            ico(draw, (x, y), icon)
        elif ico is not None:
            draw.rounded_rectangle((x, y, x + icon, y + icon), radius=4, fill=ico)
        text(draw, (x + icon + 6, y + icon / 2), label, f, fill=fill, anchor="lm")
        x += w + gap
    return y + line_h


def star_field(size: tuple[int, int], seed: int = 7, density: float = 0.00035) -> Image.Image:
    """A dark background with a few stars (deterministic: same seed, same sky)."""
    w, h = size
    img = Image.new("RGB", size, BG)
    d = ImageDraw.Draw(img)
    rng = random.Random(seed)
    for _ in range(int(w * h * density)):
        x, y = rng.randrange(w), rng.randrange(h)
        b = rng.choice((70, 95, 120, 160, 210))
        col = (b, b, min(255, b + 30))
        if rng.random() < 0.12:
            d.ellipse((x - 1, y - 1, x + 1, y + 1), fill=col)
        else:
            d.point((x, y), fill=col)
    return img


# --------------------------------------------------------------------------- output


def to_png(img: Image.Image, colors: int = 192, compress_level: int = 7, sample: int = 1) -> bytes:
    """PNG bytes, kept small: quantized to a palette (fast octree) and deflated.

    A 1400×900 board comes out around 50–80 KB, far below the 400 KB budget. For speed on
    big pictures, ``sample=2`` finds the palette on a half-size copy (then maps every pixel
    onto it) and a lower ``compress_level`` deflates faster for a slightly bigger file."""
    if img.mode not in ("RGB", "P", "L"):
        img = img.convert("RGB")
    if img.mode == "RGB":
        probe = img.reduce(sample) if sample > 1 else img
        img_p = probe.quantize(
            colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        img = img_p if probe is img else img.quantize(palette=img_p, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


def palette_for(base: Image.Image, extra: Iterable[RGB] = (), colors: int = 256) -> Image.Image:
    """A fixed palette for :func:`to_png_palette`: the octree colours of ``base`` (the static
    layer every picture of a game is drawn on) plus the ``extra`` colours kept exactly (the
    colours drawn on top: seat colours, text, highlights). Make it once, at import.

    Kept exactly means mapped onto themselves (see :func:`keep_exact`; seat colours
    first)."""
    wanted = [_rgb(c) for c in extra]
    extras: list[RGB] = []
    for c in [*(pc.rgb for pc in PALETTE if pc.rgb in wanted), *wanted]:
        if c not in extras:
            extras.append(c)
    extras = extras[: max(0, colors - 16)]
    n_base = colors - len(extras)
    q = base.convert("RGB").quantize(
        colors=n_base, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    pal = (q.getpalette() or [])[: 3 * n_base]
    pal += [0] * (3 * n_base - len(pal))
    pal += [v for c in extras for v in c]
    pal += [0] * (768 - len(pal))
    out = Image.new("P", (1, 1))
    out.putpalette(pal[:768])
    return keep_exact(out, extras)


def _rgb(c: Iterable[Any]) -> RGB:
    r, g, b = (int(v) for v in list(c)[:3])
    return (r, g, b)


def keep_exact(palette: Image.Image, colours: Sequence[RGB]) -> Image.Image:
    """``palette`` (a ``P`` image holding each of ``colours``) with every entry that takes
    the pixels of one of ``colours`` replaced by that colour, earlier colours first, until
    each maps onto itself: Pillow maps a colour onto a palette by small boxes of colours, so
    a near neighbour in the palette can win a colour that the palette holds exactly."""
    pal = list(palette.getpalette() or [])
    pal += [0] * (768 - len(pal))
    entries = [tuple(pal[i : i + 3]) for i in range(0, 768, 3)]
    wanted = [c for c in dict.fromkeys(_rgb(c) for c in colours) if c in entries]
    if not wanted:
        return palette
    rank = {entries.index(c): k for k, c in enumerate(wanted)}
    fixed: set[int] = set()  # entries given to a colour: never taken away again
    for _ in range(64):
        probe = Image.new("RGB", (len(wanted), 1))
        probe.putdata(wanted)
        trial = Image.new("P", (1, 1))
        trial.putpalette(pal)
        mapped = probe.quantize(palette=trial, dither=Image.Dither.NONE)
        got = [cast(int, mapped.getpixel((x, 0))) for x in range(len(wanted))]
        moved = False
        for k, (c, j) in enumerate(zip(wanted, got, strict=True)):
            if tuple(pal[3 * j : 3 * j + 3]) == c or j in fixed or rank.get(j, k) < k:
                continue  # exact already, or the winner is a colour that comes first
            pal[3 * j : 3 * j + 3] = list(c)
            fixed |= {j, entries.index(c)}
            moved = True
        if not moved:
            break
    out = Image.new("P", (1, 1))
    out.putpalette(pal)
    return out


#: How hard the games' pictures are deflated (zlib level). 3, zlib's strongest fast level,
#: encodes a table in about half the CPU of 6 (MLEM 8.8 against 16.5 ms, Kosmonavts 8.9
#: against 17.2, Mission: Red Planet 7.7 against 15.0; 4 already takes 10–11 ms, zlib's slow
#: deflate) for PNGs 15–26 % bigger (MLEM 132 against 115 KB, Kosmonavts 103 against 82),
#: far below Discord's limits: the encode is most of a move's CPU, the bytes are not (issue
#: 23, README). The tests draw at 1 (tests/conftest.py): the pixels are the same, only the
#: deflate's effort differs; the tests that promise sizes or compare bytes with a worker
#: process's pin this level.
PNG_LEVEL = 3


#: Palette PNGs written band by band with the process's cache of deflated bands
#: (render/pngbands.py: a table after a move deflates only the bands that changed); False
#: (or ``COSMODROME_PNG_BANDS=0`` in the environment, which render workers inherit):
#: Pillow's own PNG writer, the same pixels (the benches compare both).
BANDED = os.environ.get("COSMODROME_PNG_BANDS", "1") != "0"


def to_png_palette(
    img: Image.Image, palette: Image.Image, compress_level: int | None = None
) -> bytes:
    """PNG bytes of ``img`` mapped onto a fixed ``palette`` (see :func:`palette_for`): much
    faster than quantizing every picture, for boards whose colours are known in advance
    (deflated at :data:`PNG_LEVEL` unless ``compress_level`` says otherwise), written by
    :mod:`render.pngbands` (only the bands not deflated before are deflated)."""
    return png_of_mapped(mapped(img, palette), compress_level)


def png_of_mapped(
    q: Image.Image,
    compress_level: int | None = None,
    parts: Sequence[tuple[Hashable, pngbands.Box]] | None = None,
    rows: Callable[[int, int], Image.Image] | None = None,
    pixels: Callable[[int], Image.Image | None] | None = None,
) -> bytes:
    """PNG bytes of a picture already mapped onto its palette (a ``P`` image: the tail of
    :func:`to_png_palette`, and what a :class:`render.layers.PaletteCanvas` is encoded by,
    with its ``parts``, ``rows`` and ``pixels``: see :func:`render.pngbands.encode`; ``q``
    then gives only the picture's size and palette, the whole picture made only if Pillow
    writes it)."""
    if compress_level is None:
        compress_level = PNG_LEVEL
    png = BANDED and pngbands.encode(q, compress_level, parts=parts, rows=rows, pixels=pixels)
    if png:
        return png
    if rows is not None:
        q = rows(0, q.height)
    buf = io.BytesIO()
    q.save(buf, format="PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


#: Kit's own :func:`to_png_palette`: while a test replaces it to watch the RGB pictures
#: encoded, renderers that map parts of a picture (:class:`render.layers.PaletteCanvas`)
#: draw it whole and encode it through the replacement (:func:`watched`).
_TO_PNG_PALETTE = to_png_palette


def watched() -> bool:
    """Is a test watching what pictures are drawn or encoded (:func:`to_png_palette`,
    ``ImageDraw.text`` or :meth:`ScaledDraw.text` replaced)? Renderers that keep parts of a
    picture then draw it whole, as one RGB picture encoded by :func:`to_png_palette`."""
    return (
        to_png_palette is not _TO_PNG_PALETTE
        or ImageDraw.ImageDraw.text is not _PILLOW_TEXT
        or ScaledDraw.text is not _SCALED_TEXT
    )


def picture_png(
    draw: Callable[..., Image.Image],
    palette: Image.Image,
    *args: Any,
    lock: threading.Lock = LOCK,
) -> bytes:
    """``draw(*args)`` while holding ``lock`` (fonts are shared between worker threads), as
    PNG bytes on the game's fixed ``palette``."""
    with lock:
        img = draw(*args)
    return to_png_palette(img, palette)


# --------------------------------------------------------------------------- scaled drawing


@lru_cache(maxsize=256)
def _font_at(path: str, index: int, size: int) -> Font:
    return CachedFont(path, size, index=index)


def scaled_font(f: Font, k: float) -> Font:
    """``f`` at ``k`` times its size (same face), cached."""
    size = max(1, round(f.size * k))
    path = getattr(f, "path", None)
    if not isinstance(path, str):  # pragma: no cover - Pillow's bundled font
        return f.font_variant(size=size)
    return _font_at(path, int(getattr(f, "index", 0) or 0), size)


class ScaledDraw(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that takes the caller's coordinates and draws ``scale`` times bigger
    on its image, ``origin`` (caller's coordinates) at the image's top-left corner.

    This lets a panel laid out for one size be drawn sharp at a bigger one (for phones, where
    a table is seen ~400 px wide): coordinates, line widths, radii, fonts and text strokes
    are all scaled; text is measured in the caller's units (``textbbox`` answers in them too).
    Inner calls of Pillow (a rounded rectangle drawing its corners) are not scaled twice."""

    def __init__(self, im: Image.Image, scale: float, origin: tuple[float, float] = (0, 0)):
        super().__init__(im)
        self.k = scale
        self.ox, self.oy = origin
        self._depth = 0

    # -- mapping

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Where the caller's point ``(x, y)`` lands on the image."""
        return ((x - self.ox) * self.k, (y - self.oy) * self.k)

    def _map(self, xy: Any) -> Any:
        if self._depth:
            return xy
        k, ox, oy = self.k, self.ox, self.oy
        seq = list(xy)
        if seq and isinstance(seq[0], (tuple, list)):
            return [((p[0] - ox) * k, (p[1] - oy) * k) for p in seq]
        if len(seq) == 4:  # (a box: the common case, without a call a point)
            x0, y0, x1, y1 = seq
            return [(x0 - ox) * k, (y0 - oy) * k, (x1 - ox) * k, (y1 - oy) * k]
        out: list[float] = []
        for i in range(0, len(seq) - 1, 2):
            out.extend(self.pt(seq[i], seq[i + 1]))
        return out

    def _w(self, width: float) -> int:
        if self._depth or not width:
            return int(width)
        return max(1, round(width * self.k))

    def _call(self, name: str, *args: Any, **kw: Any) -> Any:
        self._depth += 1
        try:
            return getattr(super(), name)(*args, **kw)
        finally:
            self._depth -= 1

    # -- the primitives the renderers use

    def arc(self, xy: Any, start: float, end: float, fill: Any = None, width: int = 1) -> None:
        self._call("arc", self._map(xy), start, end, fill, self._w(width))

    def _sector(
        self,
        kind: str,
        xy: Any,
        start: float,
        end: float,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
    ) -> None:
        self._call(kind, self._map(xy), start, end, fill, outline, self._w(width))

    def chord(self, *args: Any, **kw: Any) -> None:  # type: ignore[override]
        self._sector("chord", *args, **kw)

    def pieslice(self, *args: Any, **kw: Any) -> None:  # type: ignore[override]
        self._sector("pieslice", *args, **kw)

    def ellipse(  # type: ignore[override]
        self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1
    ) -> None:
        self._call("ellipse", self._map(xy), fill, outline, self._w(width))

    def rectangle(  # type: ignore[override]
        self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1
    ) -> None:
        self._call("rectangle", self._map(xy), fill, outline, self._w(width))

    def rounded_rectangle(  # type: ignore[override]
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        **kw: Any,
    ) -> None:
        r = radius if self._depth else radius * self.k
        xy, width = self._map(xy), self._w(width)
        if self._depth or kw or not rounded_rectangle(self, xy, r, fill, outline, width):
            self._call("rounded_rectangle", xy, r, fill, outline, width, **kw)

    def polygon(  # type: ignore[override]
        self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1
    ) -> None:
        xy, width = self._map(xy), self._w(width)
        if self._depth or not wide_polygon(self, xy, fill, outline, width):
            self._call("polygon", xy, fill, outline, width)

    def line(  # type: ignore[override]
        self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None
    ) -> None:
        self._call("line", self._map(xy), fill, self._w(width), joint)

    def point(self, xy: Any, fill: Any = None) -> None:  # type: ignore[override]
        self._call("point", self._map(xy), fill)

    def text(  # type: ignore[override]
        self, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kw: Any
    ) -> None:
        if not self._depth:
            xy = self.pt(xy[0], xy[1])
            if isinstance(font, ImageFont.FreeTypeFont):
                font = scaled_font(font, self.k)
            if kw.get("stroke_width"):
                kw["stroke_width"] = self._w(kw["stroke_width"])
        self._call("text", xy, text, fill, font, *args, **kw)

    def textbbox(  # type: ignore[override]
        self, xy: Any, text: Any, font: Any = None, *args: Any, **kw: Any
    ) -> tuple[float, float, float, float]:
        probe = ImageDraw.Draw(Image.new("L", (1, 1)))
        return probe.textbbox(xy, text, font, *args, **kw)


#: ScaledDraw's own ``text`` (see :func:`_line`: its fast path stands aside while a test
#: replaces it to watch the words drawn).
_SCALED_TEXT = ScaledDraw.text
