"""Static layers: what never changes in a game's picture, drawn once and reused.

A renderer wraps the function that draws a static layer (a background with its star field,
a board's outline and tracks, a legend, a panel's frame) in :func:`layer_cache`; the
function's arguments are everything the layer depends on (player count, language, options,
size), all hashable. The first call draws the layer, later calls with the same arguments
return the same object, so a caller that draws on it must draw on a ``.copy()`` (or paste
it into a fresh image). Each cache is bounded (least recently used entry dropped first).

Every cache registers itself here, so tests can draw a state cold (:func:`clear_all`) and
warm and compare the pixels, and the bench can report what the caches hold
(:func:`memory_bytes`). While a test replaces ``ImageDraw.text`` to watch the words a
picture draws, every layer is drawn afresh (its words are on every picture). The caches
are per process: a worker process fills its own.

Text: the kit's fonts are :class:`CachedFont` (glyph masks kept), and :func:`draw_line`
draws one line of text with Pillow's own steps, minus its per-call text object.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont

P = ParamSpec("P")
R = TypeVar("R")


#: Pillow's own ``ImageDraw.text``: while it is replaced (a test watching the words each
#: picture draws), every layer is drawn afresh, so its words are seen on every picture.
_PILLOW_TEXT = ImageDraw.ImageDraw.text


class LayerCache(Generic[P, R]):
    """A bounded, thread-safe least-recently-used cache around one layer function."""

    def __init__(self, fn: Callable[P, R], maxsize: int) -> None:
        self.fn = fn
        self.maxsize = maxsize
        self._entries: OrderedDict[Hashable, R] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if ImageDraw.ImageDraw.text is not _PILLOW_TEXT:
            return self.fn(*args, **kwargs)
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        entries = self._entries
        try:  # a hit takes no lock: both steps are single operations on the dict
            value = entries[key]
            entries.move_to_end(key)
        except KeyError:
            pass
        else:
            self.hits += 1
            return value
        value = self.fn(*args, **kwargs)
        self._store(key, value)
        return value

    def lookup(self, key: Hashable) -> R | None:
        """The value kept for ``key`` (a cache used without its function: see
        :func:`tile_cache`), None if there is none, or while ``ImageDraw.text`` is replaced."""
        if ImageDraw.ImageDraw.text is not _PILLOW_TEXT:
            return None
        try:
            value = self._entries[key]
            self._entries.move_to_end(key)
        except KeyError:
            return None
        self.hits += 1
        return value

    def store(self, key: Hashable, value: R) -> None:
        """Keep ``value`` for ``key`` (nothing kept while ``ImageDraw.text`` is replaced)."""
        if ImageDraw.ImageDraw.text is _PILLOW_TEXT:
            self._store(key, value)

    def _store(self, key: Hashable, value: R) -> None:
        with self._lock:
            self.misses += 1
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def values(self) -> list[R]:
        with self._lock:
            return list(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)


_CACHES: list[LayerCache[Any, Any]] = []


def layer_cache(maxsize: int = 16) -> Callable[[Callable[P, R]], LayerCache[P, R]]:
    """Decorator: ``fn`` drawn once per distinct arguments, at most ``maxsize`` kept."""

    def wrap(fn: Callable[P, R]) -> LayerCache[P, R]:
        cache = LayerCache(fn, maxsize)
        _CACHES.append(cache)
        return cache

    return wrap


def _no_function() -> None:
    raise TypeError("a tile cache is filled with store(), never called")


def tile_cache(maxsize: int = 16) -> LayerCache[[], Any]:
    """A registered cache used without a function (:meth:`LayerCache.lookup`,
    :meth:`LayerCache.store`): the parts of a :class:`PaletteCanvas`, by what they show."""
    cache: LayerCache[[], Any] = LayerCache(_no_function, maxsize)
    _CACHES.append(cache)
    return cache


def caches() -> list[LayerCache[Any, Any]]:
    """Every registered layer cache (in the order their modules were imported)."""
    return list(_CACHES)


def clear_all() -> None:
    """Empty every layer cache: the next picture is drawn cold."""
    for cache in _CACHES:
        cache.cache_clear()


def drawn_on(
    base: Image.Image, box: tuple[int, int, int, int], draw: Callable[[ImageDraw.ImageDraw], R]
) -> tuple[Image.Image, R]:
    """The part ``box`` of ``base`` once ``draw`` has drawn on a copy of it (at the picture's
    own coordinates), and what ``draw`` returned: the layer of a region of the picture where
    nothing else is drawn, cached and pasted at ``box``'s corner instead of drawn again."""
    img = base.crop((0, 0, box[2], box[3]))  # the same coordinates, nothing past the box
    out = draw(ImageDraw.Draw(img))
    return img.crop(box), out


# --------------------------------------------------------------------------- palette canvas

Box = tuple[int, int, int, int]


def box_within(box: tuple[float, float, float, float], margin: int, clip: Box) -> Box:
    """``box`` (picture pixels, maybe fractional) grown to whole pixels and by ``margin``
    on every side, then cut to ``clip``."""
    x0, y0, x1, y1 = box
    return (
        max(clip[0], math.floor(x0) - margin),
        max(clip[1], math.floor(y0) - margin),
        min(clip[2], math.ceil(x1) + margin + 1),
        min(clip[3], math.ceil(y1) + margin + 1),
    )


def mapped(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` mapped onto the fixed ``palette`` (each pixel onto its entry, no dither)."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


class PaletteCanvas:
    """A picture as palette indices, made of its static layer (``base``, RGB, and
    ``base_mapped``, the same mapped onto ``palette`` once) and the parts drawn on it (issue
    23: mapping a whole picture onto its palette was a fifth of its CPU).

    Each part (:meth:`tile`) is drawn on an RGB copy of the base, at the picture's own
    coordinates, in a box of the picture where nothing else is drawn; that box is mapped
    onto the palette and kept in a :func:`tile_cache` under a key that holds everything the
    part is drawn from, so the part is neither drawn nor mapped again while it shows the
    same. A pixel is mapped alone (Pillow's mapping of a colour depends on the colour and
    the palette only), so the canvas is, pixel for pixel, the whole picture drawn on the base
    and mapped at once, as long as every part draws inside its own box, alone there. A box
    drawn on but not kept (:meth:`map`) is mapped at each picture."""

    def __init__(
        self,
        base: Image.Image,
        base_mapped: Image.Image,
        palette: Image.Image,
        scratch: bool = False,
    ):
        self.base = base
        self.base_mapped = base_mapped
        self.palette = palette
        #: Draw on the base's scratch copy (:func:`_scratch`), given back by :meth:`done`.
        self.scratch = scratch
        self._rgb: Image.Image | None = None
        self._held = False  # the scratch copy is this canvas's
        self._drawn: list[Box] = []  # where the scratch copy was drawn on
        #: What the picture is made of, in order (``render.pngbands.encode``'s ``parts``):
        #: a serial number standing for each part's pixels, and its box.
        self.parts: list[tuple[int, Box]] = [(_base_serial(base_mapped), (0, 0, *base.size))]
        self._pasted: list[tuple[Image.Image, Box]] = []  # each part's pixels, in order

    @property
    def rgb(self) -> Image.Image:
        """The RGB copy of the base the parts are drawn on (made at its first use; with
        ``scratch``, the base's scratch copy unless another canvas holds it)."""
        if self._rgb is None:
            kept = _scratch(self.base, self) if self.scratch else None
            self._held = kept is not None
            self._rgb = kept or self.base.copy()
        return self._rgb

    def drew(self, box: Box) -> None:
        """``box`` of :attr:`rgb` was drawn on outside a part's own box (under a part: a
        frame pasted under a row, the tokens under the rocket): restored by :meth:`done`."""
        self._drawn.append(box)

    def done(self) -> None:
        """Drawing is over (the picture's :meth:`rows` stay readable): the scratch copy, if
        this canvas drew on it, is restored where it was drawn on (every part's box, and
        what :meth:`drew` was told) and given back. A canvas with ``scratch`` draws only
        there, and calls this once it has drawn its parts."""
        rgb, self._rgb = self._rgb, None
        if rgb is not None and self._held:
            self._held = False
            restored: list[Box] = []
            for box in sorted(set(self._drawn), key=_area, reverse=True):
                if not any(_inside(box, big) for big in restored):
                    rgb.paste(_base_crop(self.base, box), box[:2])
                    restored.append(box)
            self._drawn = []
            _give_back(self.base, self)

    @property
    def out(self) -> Image.Image:
        """The whole picture, mapped (``P``)."""
        return self.rows(0, self.base.height)

    def rows(self, top: int, bottom: int) -> Image.Image:
        """Rows ``top`` to ``bottom`` of the picture, mapped (the base's, each part pasted
        over them in order): only the bands of a PNG not written before are made."""
        width = self.base.width
        strip = self.base_mapped.crop((0, top, width, bottom))
        core = strip.im  # (Pillow's core pastes and crops: a part's indices copied as they are)
        for img, (x0, y0, x1, y1) in self._pasted:
            if y0 < bottom and y1 > top:
                a, b = max(top, y0), min(bottom, y1)
                part = img.im if a == y0 and b == y1 else img.im.crop((0, a - y0, x1 - x0, b - y0))
                core.paste(part, (x0, a - top, x1, b - top))
        return strip

    def pixels(self, k: int) -> Image.Image | None:
        """The pixels of part ``k`` of :attr:`parts` (mapped, its box's size), None for the
        static layer (``render.pngbands.encode``'s ``pixels``)."""
        return self._pasted[k - 1][0] if k else None

    def _add(self, img: Image.Image, box: Box, serial: int) -> None:
        self._pasted.append((img, box))
        self.parts.append((serial, box))

    def map(self, box: Box) -> None:
        """The box ``box`` of :attr:`rgb`, mapped onto the palette, into the picture."""
        self._drawn.append(box)
        self._add(mapped(self.rgb.crop(box), self.palette), box, next(_SERIALS))

    def tile(
        self,
        cache: LayerCache[[], Any],
        key: Hashable,
        draw: Callable[[Image.Image], tuple[Box | None, R]],
    ) -> R:
        """A part of the picture: ``draw(rgb)`` draws it on the RGB picture and returns the
        box it drew in (None: nothing drawn) and a value (the next row of a column of
        panels...), or the part kept in ``cache`` under ``key``; the value is returned."""
        got = cache.lookup(key)
        if got is None:
            try:
                box, value = draw(self.rgb)
            except BaseException:
                if self._held:  # drawn on, where is not known: never given back
                    self._held = False
                    _drop_scratch(self.base, self)
                raise
            part = None
            if box is not None:
                self._drawn.append(box)
                part = (mapped(self.rgb.crop(box), self.palette), box, next(_SERIALS))
            got = (part, value)
            cache.store(key, got)
        part, value = got
        if part is not None:
            self._add(*part)
        return cast(R, value)


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(box: Box, other: Box) -> bool:
    return other[0] <= box[0] and other[1] <= box[1] and box[2] <= other[2] and box[3] <= other[3]


#: One RGB copy of each static layer to draw a canvas's parts on (with ``scratch``), and
#: the canvas holding it (None: free), by the layer's id (the layer kept with it).
#: Copying a 1400×1050 layer afresh for each picture (6 MB) was a tenth of a table's CPU;
#: the scratch copy is restored by its canvas where it was drawn on. At most
#: :data:`SCRATCHES` layers (least recently used dropped).
_SCRATCH: OrderedDict[int, list[Any]] = OrderedDict()
_SCRATCH_LOCK = threading.Lock()
SCRATCHES = 4


def _scratch(base: Image.Image, canvas: PaletteCanvas) -> Image.Image | None:
    """The scratch copy of ``base`` (its pixels), now ``canvas``'s; None when another
    canvas holds it."""
    with _SCRATCH_LOCK:
        kept = _SCRATCH.get(id(base))
        if kept is None or kept[0] is not base:
            kept = _SCRATCH[id(base)] = [base, base.copy(), None]
            while len(_SCRATCH) > SCRATCHES:
                _SCRATCH.popitem(last=False)
        if kept[2] is not None:
            return None
        kept[2] = canvas
        _SCRATCH.move_to_end(id(base))
        img: Image.Image = kept[1]
        return img


#: The static layers' boxes a scratch copy is restored from (the same boxes come again:
#: a panel's rows, the board), at most :data:`SCRATCH_CROP_BYTES` of pixels (least
#: recently used dropped).
_BASE_CROPS: OrderedDict[tuple[int, Box], tuple[Image.Image, Image.Image]] = OrderedDict()
SCRATCH_CROP_BYTES = 8 * 2**20
_base_crop_bytes = 0


def _base_crop(base: Image.Image, box: Box) -> Image.Image:
    """``base.crop(box)``, kept."""
    global _base_crop_bytes
    key = (id(base), box)
    with _SCRATCH_LOCK:
        kept = _BASE_CROPS.pop(key, None)
        if kept is None or kept[0] is not base:
            if kept is not None:
                _base_crop_bytes -= _image_bytes(kept[1])
            kept = (base, base.crop(box))
            _base_crop_bytes += _image_bytes(kept[1])
            while _BASE_CROPS and _base_crop_bytes > SCRATCH_CROP_BYTES:
                _base_crop_bytes -= _image_bytes(_BASE_CROPS.popitem(last=False)[1][1])
        _BASE_CROPS[key] = kept
    return kept[1]


def _give_back(base: Image.Image, canvas: PaletteCanvas) -> None:
    with _SCRATCH_LOCK:
        kept = _SCRATCH.get(id(base))
        if kept is not None and kept[2] is canvas:
            kept[2] = None


def _drop_scratch(base: Image.Image, canvas: PaletteCanvas) -> None:
    """Forget ``base``'s scratch copy held by ``canvas`` (drawn on where is not known)."""
    with _SCRATCH_LOCK:
        kept = _SCRATCH.get(id(base))
        if kept is not None and kept[2] is canvas:
            del _SCRATCH[id(base)]


#: Serial numbers of the parts of palette canvases: one for each part drawn (never again
#: for other pixels), one for each static layer.
_SERIALS = itertools.count(1)
#: Static layers' serial numbers, by the layer's id (the layer kept with it, so that the id
#: is not another's while the entry lives): at most :data:`BASES` of them, the least recently
#: used dropped (a layer met again then gets a new number: its bands are found by digest once).
_BASES: OrderedDict[int, tuple[Image.Image, int]] = OrderedDict()
BASES = 16


def _base_serial(base: Image.Image) -> int:
    """The serial number of a static layer (mapped), the same at each picture."""
    with _BASES_LOCK:
        kept = _BASES.get(id(base))
        if kept is None or kept[0] is not base:
            kept = _BASES[id(base)] = (base, next(_SERIALS))
        _BASES.move_to_end(id(base))
        while len(_BASES) > BASES:
            _BASES.popitem(last=False)
    return kept[1]


_BASES_LOCK = threading.Lock()


def _pixel_bytes(mode: str) -> int:
    """Bytes a pixel takes in Pillow's memory (RGB is stored four bytes a pixel)."""
    return 1 if mode in ("1", "L", "P") else 4


def _image_bytes(value: object) -> int:
    if isinstance(value, Image.Image):
        return value.width * value.height * _pixel_bytes(value.mode)
    if type(value).__name__ == "ImagingCore":  # a glyph mask (Pillow's internal image)
        w, h = cast(tuple[int, int], getattr(value, "size", (0, 0)))
        return w * h * _pixel_bytes(str(getattr(value, "mode", "L")))
    if isinstance(value, (tuple, list)):
        return sum(_image_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_image_bytes(v) for v in value.values())
    return 0


def memory_bytes() -> int:
    """Pixel bytes held by every layer cache now (images found in the cached values)."""
    return sum(_image_bytes(v) for cache in _CACHES for v in cache.values())


# --------------------------------------------------------------------------- text


#: ``getmask2``'s ``ink`` (its 8th argument) only colours ``RGBA`` masks, never kept.
_INK = 6


def _frozen(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Hashable | None:
    """``(args, kwargs)`` as a cache key, or None when one of them is unhashable (a list of
    features: such calls are not kept)."""
    key = (args, tuple(sorted(kwargs.items())))
    try:
        hash(key)
    except TypeError:
        return None
    return key


@layer_cache(maxsize=4096)
def _mask(f: ImageFont.FreeTypeFont, text: str | bytes, key: Any) -> Any:
    args, kwargs = key
    return ImageFont.FreeTypeFont.getmask2(f, text, *args, **dict(kwargs))


@layer_cache(maxsize=8192)
def _bbox(f: ImageFont.FreeTypeFont, text: str | bytes, key: Any) -> Any:
    args, kwargs = key
    return ImageFont.FreeTypeFont.getbbox(f, text, *args, **dict(kwargs))


@layer_cache(maxsize=8192)
def _length(f: ImageFont.FreeTypeFont, text: str | bytes, key: Any) -> Any:
    args, kwargs = key
    return ImageFont.FreeTypeFont.getlength(f, text, *args, **dict(kwargs))


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the glyph masks, boxes and lengths of the text it was
    asked for (bounded, least recently used dropped: 4,096 masks, about 11 MB): a label
    drawn again, at the same fraction of a pixel, is a lookup instead of a FreeType render.
    The masks are exactly FreeType's (the same call, made once), so pictures are unchanged
    pixel for pixel. Colour (``RGBA``) masks, which depend on the ink, are never kept."""

    def getmask2(self, text: str | bytes, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        mode = args[0] if args else kwargs.get("mode", "")
        inkless = (*args[:_INK], 0, *args[_INK + 1 :]) if len(args) > _INK else args
        key = _frozen(inkless, kwargs)
        if mode == "RGBA" or "ink" in kwargs or key is None or not isinstance(text, str):
            return super().getmask2(text, *args, **kwargs)
        return _mask(self, text, key)

    def getbbox(self, text: str | bytes, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        key = _frozen(args, kwargs)
        if key is None or not isinstance(text, str):
            return super().getbbox(text, *args, **kwargs)
        return _bbox(self, text, key)

    def getlength(self, text: str | bytes, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        key = _frozen(args, kwargs)
        if key is None or not isinstance(text, str):
            return super().getlength(text, *args, **kwargs)
        return _length(self, text, key)


def draw_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    f: ImageFont.FreeTypeFont,
    fill: Any,
    anchor: str,
    stroke_width: float = 0,
    stroke_fill: Any = None,
    scaled: bool = False,
) -> bool:
    """``draw.text(xy, s, fill, f, anchor, stroke_width=..., stroke_fill=...)`` for the
    common case, one line of text in a :class:`CachedFont` on a plain ``ImageDraw`` of an
    RGB picture: Pillow's own steps (the same mask at the same fraction of a pixel, the
    same ink) without building its text object each time. Returns False, having drawn
    nothing, for any other case (the caller then calls ``draw.text``), and when
    ``ImageDraw.text`` has been replaced (tests watch the words drawn through it).
    ``scaled``: ``draw`` is a ``kit.ScaledDraw`` whose mapping the caller has applied to
    ``xy``, ``f`` and ``stroke_width`` already (what its ``text`` does before Pillow's)."""
    if (
        (type(draw) is not ImageDraw.ImageDraw and not scaled)
        or ImageDraw.ImageDraw.text is not _PILLOW_TEXT
        or type(f) is not CachedFont
        or type(s) is not str
        or "\n" in s
        or draw.fontmode != "L"
        or draw.palette is not None
        or fill is None
        or not isinstance(anchor, str)
        or len(anchor) != 2
    ):
        return False
    ink = draw._getink(fill)[0]
    if ink is None:
        return True
    stroke_ink = None
    if stroke_width:
        stroke_ink = draw._getink(stroke_fill)[0] if stroke_fill is not None else ink
    x, y = xy
    ix, iy = int(x), int(y)
    start = (math.modf(x)[0], math.modf(y)[0])

    def one(ink: int, width: float) -> None:
        mask, offset = f.getmask2(
            s, "L", None, None, None, width, anchor, ink, start, stroke_filled=True
        )
        draw.draw.draw_bitmap((ix + offset[0], iy + offset[1]), mask, ink)

    if stroke_ink is not None:
        one(stroke_ink, stroke_width)
        if ink != stroke_ink:
            one(ink, 0)
    else:
        one(ink, 0)
    return True
