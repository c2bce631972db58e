"""Static layers: what never changes in a game's picture, drawn once and reused.

A renderer wraps the function that draws a static layer (a background with its star field,
a board's outline and tracks, a legend, a panel's frame) in :func:`layer_cache`; the
function's arguments are everything the layer depends on (player count, language, options,
size), all hashable. The first call draws the layer, later calls with the same arguments
return the same object, so a caller that draws on it must draw on a ``.copy()`` (or paste
it into a fresh image). Each cache is bounded (least recently used entry dropped first).

Every cache registers itself here, so tests can draw a state cold (:func:`clear_all`) and
warm and compare the pixels, and the bench can report what the caches hold
(:func:`memory_bytes`). The caches are per process: a worker process fills its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

from PIL import Image, ImageFont

P = ParamSpec("P")
R = TypeVar("R")


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
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key]
        value = self.fn(*args, **kwargs)
        with self._lock:
            self.misses += 1
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)
        return value

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


def caches() -> list[LayerCache[Any, Any]]:
    """Every registered layer cache (in the order their modules were imported)."""
    return list(_CACHES)


def clear_all() -> None:
    """Empty every layer cache: the next picture is drawn cold."""
    for cache in _CACHES:
        cache.cache_clear()


def _image_bytes(value: object) -> int:
    if isinstance(value, Image.Image):
        return value.width * value.height * len(value.getbands())
    if isinstance(value, Image.core.ImagingCore):
        return value.size[0] * value.size[1] * value.bands
    if isinstance(value, (tuple, list)):
        return sum(_image_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_image_bytes(v) for v in value.values())
    return 0


def memory_bytes() -> int:
    """Pixel bytes held by every layer cache now (images found in the cached values)."""
    return sum(_image_bytes(v) for cache in _CACHES for v in cache.values())


# --------------------------------------------------------------------------- text


@layer_cache(maxsize=8192)
def _mask(
    f: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    direction: str | None,
    features: tuple[str, ...] | None,
    language: str | None,
    stroke_width: float,
    anchor: str | None,
    start: tuple[float, float] | None,
    stroke_filled: bool,
) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
    return ImageFont.FreeTypeFont.getmask2(
        f,
        text,
        mode,
        direction,
        list(features) if features is not None else None,
        language,
        stroke_width,
        anchor,
        0,
        start,
        stroke_filled=stroke_filled,
    )


@layer_cache(maxsize=8192)
def _bbox(
    f: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    direction: str | None,
    features: tuple[str, ...] | None,
    language: str | None,
    stroke_width: float,
    anchor: str | None,
) -> tuple[float, float, float, float]:
    feats = list(features) if features is not None else None
    return ImageFont.FreeTypeFont.getbbox(
        f, text, mode, direction, feats, language, stroke_width, anchor
    )


@layer_cache(maxsize=8192)
def _length(
    f: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    direction: str | None,
    features: tuple[str, ...] | None,
    language: str | None,
) -> float:
    feats = list(features) if features is not None else None
    return ImageFont.FreeTypeFont.getlength(f, text, mode, direction, feats, language)


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the glyph masks, boxes and lengths of the text it was
    asked for (bounded, least recently used dropped): a label drawn again, at the same
    fraction of a pixel, is a lookup instead of a FreeType render. The masks are exactly
    FreeType's (the same call, made once), so pictures are unchanged pixel for pixel.
    Colour (``RGBA``) masks, which depend on the ink, are never kept."""

    def getmask2(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        if mode == "RGBA" or args or set(kwargs) - {"stroke_filled"}:
            return super().getmask2(
                text,
                mode,
                direction,
                features,
                language,
                stroke_width,
                anchor,
                ink,
                start,
                *args,
                **kwargs,
            )
        feats = tuple(features) if features is not None else None
        at = (start[0], start[1]) if start is not None else None
        filled = bool(kwargs.get("stroke_filled", False))
        return _mask(
            self, text, mode, direction, feats, language, stroke_width, anchor, at, filled
        )

    def getbbox(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        feats = tuple(features) if features is not None else None
        return _bbox(self, text, mode, direction, feats, language, stroke_width, anchor)

    def getlength(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        feats = tuple(features) if features is not None else None
        return _length(self, text, mode, direction, feats, language)
