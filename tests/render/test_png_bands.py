"""The banded PNG writer (render/pngbands.py, issue 23): every game's pictures, tables and
private ones, written band by band are valid PNGs (Pillow's ``verify`` and decoder; the IDAT
data one zlib stream, no preset dictionary flagged, that inflates to exactly the PNG rows and
ends where the data ends; libpng, the browsers' decoder, reads them without a warning) with
Pillow's own header and palette for the same picture, hardly bigger; so are pictures of
every edge size (one pixel, one band, a last band of one row, rows wider than a band or than
deflate's window) at every level; the same bytes whatever the band cache holds (empty, warm,
too small to keep a picture); the cache stays within its bytes of memory; pictures the
writer does not handle, or fails on, are left to Pillow; a bad thread count is read as none,
and the pool of threads follows the count."""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import random
import struct
import threading
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image

from host import registry, renderpool
from render import kit, pngbands
from tests.render import fixtures_kosmonavts as FK
from tests.render import fixtures_mlem as FM
from tests.render.kit import gt_flight, played, sampled

#: Sizes and bytes as production deflates them (the tests draw at zlib level 1).
pytestmark = pytest.mark.usefixtures("production_png")

GAMES = list(registry.GAME_MODULES)

#: How much bigger than Pillow's PNG of the same picture at the same level a banded one may
#: be: 5 %, or 1 KB for small pictures (each band starts its own deflate block).
SIZE_MARGIN = 1.05
SIZE_SLACK = 1024

Encoded = tuple[Image.Image, bytes]
"""A picture as the renderer handed it to be encoded (on the game's palette) and the PNG."""


@contextmanager
def encoded() -> Iterator[list[Encoded]]:
    """Every palette picture encoded while inside: (the picture mapped onto its palette,
    the PNG the renderer returned)."""
    seen: list[Encoded] = []
    fixed = kit.to_png_palette

    def to_png_palette(img: Image.Image, palette: Image.Image, *args: Any, **kw: Any) -> bytes:
        png = fixed(img, palette, *args, **kw)
        seen.append((img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE), png))
        return png

    kit.to_png_palette = to_png_palette  # type: ignore[assignment]
    try:
        yield seen
    finally:
        kit.to_png_palette = fixed  # type: ignore[assignment]


def pictures(game_id: str) -> list[Encoded]:
    """Every table and private picture of the seeded states tests/render/test_layers*.py
    draw (and the render tests' fixtures of MLEM and Kosmonavts), as encoded."""
    render = registry.renderer(game_id)
    views = list(sampled(game_id))
    if game_id == "galaxy_trucker":
        views += gt_flight(3, "I", 43)[:4]
    if game_id == "ad_astra":
        views += played("ad_astra", 3, 1, 3)[:4]
    with encoded() as seen:
        for k, (public, mine, names) in enumerate(views):
            lang = ("es", "en")[k % 2]
            render.render_table(public, names, lang)
            render.render_private(mine, names, lang)
        if game_id == "mlem":
            for make in FM.PUBLIC.values():
                view, names = make()
                render.render_table(view, names, "es")
            for name in FM.PRIVATE:
                view, names = FM.private_view(name)
                render.render_private(view, names, "en")
        if game_id == "kosmonavts":
            for fixture in list(FK.PUBLIC.values())[:4]:
                _, view, names = fixture()
                render.render_table(view, names, "en")
            for _, view, names, _ in FK.private_views()[:4]:
                render.render_private(view, names, "es")
    return seen


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """(kind, data) of every chunk of ``png``, each chunk's CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out = []
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        at += 12 + length
    assert at == len(png)
    return out


def pillow_png(img: Image.Image, level: int) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=level)
    return buf.getvalue()


class _PngImage(ctypes.Structure):
    """libpng's ``png_image`` (its simplified API, libpng 1.6)."""

    _fields_ = [
        ("opaque", ctypes.c_void_p),
        ("version", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("format", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("colormap_entries", ctypes.c_uint32),
        ("warning_or_error", ctypes.c_uint32),
        ("message", ctypes.c_char * 64),
    ]


def _libpng() -> ctypes.CDLL | None:
    found = ctypes.util.find_library("png16")
    if found is None:
        return None
    try:
        return ctypes.CDLL(found)
    except OSError:
        return None


#: The system's libpng, the decoder of Firefox, Android and (long) Chromium, where the
#: machine has one (the check is skipped elsewhere).
LIBPNG = _libpng()


def libpng_rgb(png: bytes) -> tuple[tuple[int, int], bytes] | None:
    """(size, RGB bytes) of ``png`` as libpng decodes it, failing on any error or warning
    (a bad CRC or Adler-32, too much or too little image data); None without libpng."""
    if LIBPNG is None:
        return None
    image = _PngImage(version=1)  # PNG_IMAGE_VERSION
    memory = ctypes.create_string_buffer(png, len(png))
    assert LIBPNG.png_image_begin_read_from_memory(
        ctypes.byref(image), memory, ctypes.c_size_t(len(png))
    ), image.message
    image.format = 2  # PNG_FORMAT_RGB
    out = ctypes.create_string_buffer(image.width * image.height * 3)
    ok = LIBPNG.png_image_finish_read(ctypes.byref(image), None, out, 0, None)
    problem = (image.warning_or_error, image.message)
    LIBPNG.png_image_free(ctypes.byref(image))
    assert ok and not problem[0], problem
    return (image.width, image.height), out.raw


def check_stream(img: Image.Image, png: bytes, libpng: bool = True) -> list[tuple[bytes, bytes]]:
    """``png``'s chunks are IHDR, PLTE, one IDAT and IEND, each CRC right; the IDAT data is
    one zlib stream (no preset dictionary flagged in its header) that inflates to exactly
    the PNG rows of ``img`` and ends where the data ends; libpng (if ``libpng``) decodes it
    to ``img``'s colours without a warning. The chunks, as (kind, data)."""
    found = chunks(png)
    assert [k for k, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height = img.size
    raw = img.tobytes()
    rows = b"".join(b"\0" + raw[y * width : (y + 1) * width] for y in range(height))
    idat = found[2][1]
    assert idat[0] == 0x78 and (idat[0] << 8 | idat[1]) % 31 == 0  # deflate, 32 KB window
    assert not idat[1] & 0x20  # FDICT clear: the bands' dictionaries are inside the stream
    stream = zlib.decompressobj()
    assert stream.decompress(idat) == rows
    assert stream.eof and not stream.unused_data and not stream.unconsumed_tail
    decoded = libpng_rgb(png) if libpng else None
    assert decoded is None or decoded == (img.size, img.convert("RGB").tobytes())
    return found


def check_png(img: Image.Image, png: bytes, libpng: bool = True) -> None:
    """``png`` is a valid PNG of the palette picture ``img`` (see :func:`check_stream`),
    with Pillow's own IHDR and PLTE for it byte for byte, that Pillow decodes to ``img``'s
    indices; hardly bigger than Pillow's PNG."""
    Image.open(io.BytesIO(png)).verify()
    found = check_stream(img, png, libpng)
    pillows = pillow_png(img, kit.PNG_LEVEL)
    assert found[:2] == chunks(pillows)[:2]  # the same header and palette
    ours = Image.open(io.BytesIO(png))
    assert (ours.mode, ours.size, ours.tobytes()) == ("P", img.size, img.tobytes())
    bigger = len(pillows)
    assert len(png) <= max(bigger * SIZE_MARGIN, bigger + SIZE_SLACK), (len(png), bigger)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_picture_is_pillows_picture_band_by_band(game_id: str) -> None:
    seen = pictures(game_id)
    assert len(seen) >= 16
    tiny = pngbands.BandCache(max_bytes=4096)  # keeps hardly a band: evicts all the time
    for k, (img, png) in enumerate(seen):
        # (every third picture decoded by libpng too and encoded with a tiny cache: the
        # edge sizes are all decoded by libpng in test_edge_sizes_are_one_valid_stream)
        check_png(img, png, libpng=k % 3 == 0)
        # the same bytes from an empty cache, the warm process cache and a tiny one
        assert pngbands.encode(img, kit.PNG_LEVEL, pngbands.BandCache()) == png
        assert pngbands.encode(img, kit.PNG_LEVEL) == png
        if k % 3 == 0:
            assert pngbands.encode(img, kit.PNG_LEVEL, tiny) == png
            assert tiny.bytes <= tiny.max_bytes


def test_what_a_render_worker_runs_writes_banded_pngs() -> None:
    # (renderpool.draw, called here in-process; tests/host/test_render_pool.py checks that
    # real workers send back the bytes the bot's own process writes)
    game = registry.get("mlem")
    state = game.new(3, {}, 4)
    names = ["A", "B", "C"]
    with encoded() as seen:
        data = renderpool.draw("table", "mlem", game.view(state, None), names, "es")
    (img, png) = seen[-1]
    assert data == png == pngbands.encode(img, kit.PNG_LEVEL, pngbands.BandCache())


def random_picture(rng: random.Random) -> Image.Image:
    """A palette picture of random size made of runs of a few colours and noise."""
    width, height = rng.randint(1, 300), rng.randint(1, 150)
    data = bytearray()
    while len(data) < width * height:
        data += bytes([rng.randrange(256)]) * rng.choice((1, 1, 3, 40, 200))
    img = Image.frombytes("P", (width, height), bytes(data[: width * height]))
    img.putpalette([rng.randrange(256) for _ in range(768)])
    return img


def test_random_pictures_any_band_height_any_level() -> None:
    rng = random.Random(23)
    cache = pngbands.BandCache()
    for _ in range(60):
        img = random_picture(rng)
        level, rows = rng.choice((0, 1, 3, 6, 9)), rng.choice((1, 2, 7, 32, 64))
        png = pngbands.encode(img, level, cache, rows)
        assert png is not None
        assert png == pngbands.encode(img, level, pngbands.BandCache(), rows)
        Image.open(io.BytesIO(png)).verify()
        back = Image.open(io.BytesIO(png))
        assert back.tobytes() == img.tobytes()
        assert back.getpalette() == img.getpalette()


def test_consecutive_pictures_reuse_their_unchanged_bands() -> None:
    rng = random.Random(5)
    img = random_picture(rng).resize((200, 320))
    cache = pngbands.BandCache()
    first = pngbands.encode(img, 3, cache, 32)
    assert (cache.hits, cache.misses) == (0, 10)
    moved = img.copy()
    moved.paste(7, (10, 100, 60, 110))  # inside the 4th band (rows 96 to 127)
    second = pngbands.encode(moved, 3, cache, 32)
    # only the changed band deflated again (the band below it starts with the row above it
    # as its dictionary: row 127, untouched), the nine others reused
    assert (cache.hits, cache.misses) == (9, 11)
    assert first != second
    assert second == pngbands.encode(moved, 3, pngbands.BandCache(), 32)


def test_the_cache_is_bounded_in_bytes_least_recently_used_first() -> None:
    cache = pngbands.BandCache(max_bytes=10 * (100 + pngbands.ENTRY_OVERHEAD))
    for k in range(30):
        cache.put(bytes([k]), (b"x" * 100, 1, 100))
        assert cache.bytes <= cache.max_bytes
    assert len(cache) == 10
    assert cache.get(bytes([19])) is None
    assert cache.get(bytes([20])) is not None  # now the most recent: kept
    cache.put(b"new", (b"y" * 100, 1, 100))
    assert cache.get(bytes([21])) is None and cache.get(bytes([20])) is not None
    cache.put(b"huge", (b"z" * cache.max_bytes, 1, 1))  # bigger than the cache: not kept
    assert cache.get(b"huge") is None and cache.bytes <= cache.max_bytes
    cache.clear()
    assert (len(cache), cache.bytes, cache.hits, cache.misses) == (0, 0, 0, 0)


def test_the_process_cache_is_bounded() -> None:
    assert 0 < pngbands.CACHE.max_bytes <= 64 * 2**20
    assert pngbands.CACHE.bytes <= pngbands.CACHE.max_bytes


def test_deflating_on_threads_writes_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(9)
    imgs = [random_picture(rng).resize((300, 400)) for _ in range(3)]
    alone = [pngbands.encode(img, 3, pngbands.BandCache()) for img in imgs]
    monkeypatch.setattr(pngbands, "THREADS", 2)
    assert [pngbands.encode(img, 3, pngbands.BandCache()) for img in imgs] == alone


def test_the_pool_follows_threads_and_ends_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pngbands, "_pool", None)
    monkeypatch.setattr(pngbands, "THREADS", 2)
    two = pngbands._executor()
    assert two is not None and two._max_workers == 2
    assert pngbands._executor() is two
    monkeypatch.setattr(pngbands, "THREADS", 3)
    three = pngbands._executor()
    assert three is not None and three._max_workers == 3 and two._shutdown
    monkeypatch.setattr(pngbands, "THREADS", 0)
    assert pngbands._executor() is None and three._shutdown and pngbands._pool is None
    # a pool shut down between being handed out and used: the bands are deflated here
    monkeypatch.setattr(pngbands, "THREADS", 2)
    img = random_picture(random.Random(5))
    alone = pngbands.encode(img, 1, pngbands.BandCache(), 4)
    monkeypatch.setattr(pngbands, "_executor", lambda: two)
    assert pngbands.encode(img, 1, pngbands.BandCache(), 4) == alone


@pytest.mark.parametrize(
    ("value", "threads", "warned"),
    [
        (None, 0, False),
        ("", 0, False),
        (" 4 ", 4, False),
        ("0", 0, False),
        ("two", 0, True),
        ("-1", 0, True),
        ("1.5", 0, True),
    ],
)
def test_a_bad_threads_setting_is_logged_and_read_as_none(
    value: str | None, threads: int, warned: bool, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING", logger="render.pngbands"):
        assert pngbands.threads_setting(value) == threads
    assert bool(caplog.records) == warned


def test_a_picture_the_writer_fails_on_is_written_by_pillow_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    palette = random_picture(random.Random(6))
    img = palette.convert("RGB")
    monkeypatch.setattr(kit, "BANDED", False)
    pillows = kit.to_png_palette(img, palette)
    monkeypatch.setattr(kit, "BANDED", True)

    def broken(*args: Any) -> pngbands.Band:
        raise ValueError("broken band")

    monkeypatch.setattr(pngbands, "_deflate", broken)
    monkeypatch.setattr(pngbands, "FAILURES", 0)
    with caplog.at_level("ERROR", logger="render.pngbands"):
        assert [kit.to_png_palette(img, palette) for _ in range(2)] == [pillows, pillows]
    assert pngbands.FAILURES == 2
    assert len(caplog.records) == 1 and "broken band" in caplog.text


def test_pictures_drawn_on_several_threads_share_one_cache() -> None:
    # the bot draws pictures in threads: one cache, small enough to evict all the time,
    # used by four threads at once gives each picture its bytes and keeps its count and
    # bound (a consistency check whatever the interleaving; races themselves are too rare
    # under the interpreter's lock for a test to catch: BandCache takes its own lock)
    rng = random.Random(12)
    base = random_picture(rng).resize((200, 160))
    imgs = []
    for k in range(12):
        img = base.copy()
        img.paste(k * 20, (k * 15, k * 12, k * 15 + 20, k * 12 + 10))
        imgs.append(img)
    alone = [pngbands.encode(img, 1, pngbands.BandCache(), 8) for img in imgs]
    cache = pngbands.BandCache(max_bytes=8 * (1000 + pngbands.ENTRY_OVERHEAD))
    wrong: list[int] = []

    def draw(seed: int) -> None:
        order = random.Random(seed)
        for _ in range(150):
            i = order.randrange(len(imgs))
            if pngbands.encode(imgs[i], 1, cache, 8) != alone[i]:
                wrong.append(i)

    threads = [threading.Thread(target=draw, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert cache.hits and cache.misses and cache.hits + cache.misses == 4 * 150 * 20
    held = sum(len(band[0]) + pngbands.ENTRY_OVERHEAD for band in cache._entries.values())
    assert cache.bytes == held <= cache.max_bytes


Make = Callable[[], Image.Image]


def _few_colours() -> Image.Image:
    img = Image.new("P", (40, 30), 1)
    img.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    return img


def _transparent() -> Image.Image:
    img = random_picture(random.Random(1))
    img.info["transparency"] = 3
    return img


@pytest.mark.parametrize(
    "make",
    [
        _few_colours,
        _transparent,
        lambda: Image.new("RGB", (20, 20), (1, 2, 3)),
        lambda: Image.new("L", (20, 20), 9),
    ],
)
def test_pictures_it_does_not_handle_are_left_to_pillow(make: Make) -> None:
    img = make()
    assert pngbands.encode(img, 3) is None


def test_a_small_palette_still_encodes_through_the_kit() -> None:
    palette = _few_colours()
    img = Image.new("RGB", (30, 20), (255, 0, 0))
    img.paste((0, 255, 0), (0, 0, 10, 20))
    png = kit.to_png_palette(img, palette)
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == img.tobytes()


def test_adler32_combine_is_zlibs() -> None:
    rng = random.Random(2)
    for _ in range(200):
        x = rng.randbytes(rng.randrange(0, 200_000))
        y = rng.randbytes(rng.randrange(0, 70_000))
        both = pngbands.adler32_combine(zlib.adler32(x), zlib.adler32(y), len(y))
        assert both == zlib.adler32(x + y)


#: (width, height, rows a band or None for BAND_BYTES' share): one pixel; one band; a last
#: band of one row; bands of one row; rows as wide as a band or wider (one row a band);
#: rows wider than deflate's 32 KB window (the dictionary is then the row's last 32 KB).
EDGES = [
    (1, 1, None),
    (1, 5, 2),
    (17, 1, None),
    (300, 31, 32),
    (300, 64, 32),
    (300, 65, 32),
    (300, 9, 1),
    (44_999, 3, None),
    (45_001, 2, None),
    (40_000, 3, 1),
]


@pytest.mark.parametrize("level", [0, 1, 3, 9])
def test_edge_sizes_are_one_valid_stream(level: int) -> None:
    rng = random.Random(level)
    for width, height, rows in EDGES:
        for repeat in (False, True):
            img = random_picture(rng).resize((width, height))
            if repeat:  # every row the row above: each band's first row is all dictionary
                img = img.crop((0, 0, width, 1)).resize((width, height))
            colours = rng.choice((17, 200, 256))  # every index inside the palette
            indices = img.tobytes().translate(bytes(i % colours for i in range(256)))
            palette = (img.getpalette() or [])[: colours * 3]
            img = Image.frombytes("P", (width, height), indices)
            img.putpalette(palette)
            png = pngbands.encode(img, level, pngbands.BandCache(), rows)
            assert png is not None
            check_stream(img, png)
            back = Image.open(io.BytesIO(png))
            assert (back.size, back.tobytes()) == (img.size, img.tobytes())
            assert back.getpalette() == img.getpalette()


def test_the_cache_counts_what_it_holds_in_memory() -> None:
    # the bound is in bytes of memory: an entry's overhead (key, tuple, ints, the dict's
    # slot) counted at no less than it costs, even for the smallest bands
    cache = pngbands.BandCache(max_bytes=2**30)
    bands = [(zlib.compress(k.to_bytes(4, "big") * 8), k) for k in range(3000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for data, k in bands:
            key = zlib.crc32(data).to_bytes(20, "big") + struct.pack(">bBHI", 3, 1, 32, 1400)
            cache.put(key, (data[:-4] + bytes(4), 2**31 + k, 40_000 + k))
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(cache) == 3000
    assert used <= cache.bytes <= used * 1.5, (used, cache.bytes)


def test_the_parts_places_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pngbands, "SLICED", 5)
    cache = pngbands.BandCache()
    for k in range(12):
        cache.put_sliced(k, ((0, bytes([k])),))
        assert cache.get_sliced(0) is not None  # the one used at each picture: kept
    assert len(cache._sliced) == 5
    assert cache.get_sliced(1) is None and cache.get_sliced(11) == ((0, bytes([11])),)
    cache.clear()
    assert not cache._sliced
