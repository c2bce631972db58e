"""A banded PNG writer for palette pictures, with a cache of deflated bands (issue 23).

A game's table after a move differs from the table before it in a few places: a token
moved, a counter changed, a line of the log. Deflating the whole picture again (about 1.5 MB
of palette indices for a 1400×1050 table) was most of a picture's CPU. Here the PNG's rows
(filter byte 0, then the row's palette indices: what Pillow writes for palette pictures) are
cut into horizontal bands of about :data:`BAND_BYTES` bytes, and each band is deflated on its own
(raw deflate ended by a sync flush, so it ends on a byte boundary and the next band's bytes
follow it in the same deflate stream). The concatenation, between a zlib header and the
Adler-32 of all the rows, is one valid zlib stream: the way pigz deflates in parallel.

Each band is deflated with the row above it as its dictionary (what the decoder has just
written, so the first row of a band can still refer to the row above, as it would in one
stream; the dictionary is only inside the raw deflate data, so the zlib header flags none:
any inflater, libpng's included, already holds those bytes in its window). The PNG is
hardly bigger than Pillow's (at most 2.5 % on every game's pictures measured: a band can
refer one row back across its top edge, one stream up to 32 KB). After the last band comes
the empty final block zlib itself writes when a stream ends after a flush, then the Adler-32;
the whole stream is one IDAT chunk. A band's deflated bytes depend on its own rows, the
row above, and the level only; they are kept in a process-wide cache
(:class:`BandCache`, bounded in bytes, least recently used dropped first) keyed by a SHA-1
of exactly those bytes. A band of a picture drawn by parts (a
:class:`render.layers.PaletteCanvas`) is found without its rows: by the parts it is made
of, or by what they show in its rows (each part's slices hashed once, when the part is new:
a part drawn again that shows the same in a band leaves that band found, as in MLEM's live
rounds, issue 23); its rows are made and deflated only when neither is known, and it is
kept under a key made from what its parts show. The cache knows nothing of games: bands
repeat between consecutive tables of a game, between games of the same board, and in every
render worker (each process fills its own). The output for an image is the same bytes
whatever the cache holds (a band deflated now is the band deflated before), so pictures
drawn by a worker and in-process are identical, and cold and warm.

Only what Pillow would write for the picture is handled: an 8-bit palette picture (more than
16 colours, an RGB palette, no transparency); :func:`encode` answers None for anything else
and the caller saves it with Pillow. It answers None too if writing a picture fails (a bug
here must not cost a player a picture): the caller's Pillow writes that one, and the first
failure of the process is logged with its traceback.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from PIL import Image

log = logging.getLogger(__name__)

#: Bytes of PNG rows in a band (rounded down to whole rows): 32 rows of a 1400 px table.
#: Smaller bands are reused more often after a move but deflate a little worse and cost more
#: per band (8 to 48 rows measured along seeded games of every game: README, issue 23); sized
#: in bytes, not rows, so narrow pictures (Galaxy Trucker's private one, 760 px of
#: gradients) are not deflated in pieces too small to compress as well as Pillow's.
BAND_BYTES = 45_000

#: Bytes of deflated bands the cache holds at most (about 230 MLEM tables' worth).
CACHE_BYTES = 32 * 2**20

#: Bands found by what they were composed of (:func:`encode`'s ``parts``) at most: each the
#: digest key of a band the cache holds (a few hundred bytes; about 250 tables' worth).
SIGNED = 8_192

#: Parts whose places in a picture's bands are kept at most (:func:`_placed`: a few slices'
#: identities of about 40 bytes each a part, about 800 bytes an entry): four times the parts
#: MLEM's tile caches hold (render/mlem/table.py), a part a table reuses is never dropped
#: (it comes back within a few hundred new parts); about 1.5 MB.
SLICED = 2_048

#: What an entry costs besides its deflated bytes: the bytes object's header, the 28-byte
#: key, the tuple and its two ints, the ordered dict's slot and link (300 to 335 bytes
#: measured with tracemalloc from 50 to 90,000 entries; 160 once, which let a cache of
#: small bands hold half as much again as its bound).
ENTRY_OVERHEAD = 360


def threads_setting(value: str | None) -> int:
    """The threads ``COSMODROME_PNG_THREADS`` asks for: a whole number from 0; unset or
    empty is 0, anything else is logged and read as 0 (a typo must not stop the bot)."""
    if value is None or not value.strip():
        return 0
    try:
        threads = int(value)
    except ValueError:
        threads = -1
    if threads < 0:
        log.warning("COSMODROME_PNG_THREADS=%r is not a whole number from 0: using 0", value)
        return 0
    return threads


#: Threads that deflate a picture's missing bands together (zlib runs without the
#: interpreter's lock); 0 or 1: deflated in the caller's thread. 0 by default: on two cores
#: they saved no CPU and gave no more moves per second, in-process or in render workers
#: (README, issue 23); ``COSMODROME_PNG_THREADS`` sets it (render workers inherit the
#: environment). Read at each picture: setting it at run time (the benches do) replaces the
#: pool of threads, and the old pool's threads end.
THREADS = threads_setting(os.environ.get("COSMODROME_PNG_THREADS"))

_MAGIC = b"\x89PNG\r\n\x1a\n"
#: A final, empty deflate block (fixed Huffman codes): ends the stream after the last band.
_FINAL = b"\x03\x00"
_ADLER_BASE = 65521


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc)))


@cache
def _zlib_header(level: int) -> bytes:
    """The 2-byte zlib header zlib itself writes at ``level`` (a 32 KB window)."""
    return zlib.compress(b"", level)[:2]


def adler32_combine(a1: int, a2: int, len2: int) -> int:
    """The Adler-32 of ``x + y`` from ``a1`` (of ``x``), ``a2`` (of ``y``) and ``len(y)``
    (zlib's ``adler32_combine``, which Python's zlib module does not offer)."""
    rem = len2 % _ADLER_BASE
    sum1 = a1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (a2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (a1 >> 16) + (a2 >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


Box = tuple[int, int, int, int]

Band = tuple[bytes, int, int]
"""A deflated band: its deflated bytes, the Adler-32 of its rows and their length."""

Placed = tuple[tuple[int, Hashable], ...]
"""A part in a picture's bands: each band it meets and what stands for the part there."""


class BandCache:
    """Deflated bands by the digest of what they were deflated from, bounded in bytes
    (least recently used dropped first); safe to share between threads."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[bytes, Band] = OrderedDict()
        self._signed: OrderedDict[Hashable, bytes] = OrderedDict()
        self._sliced: OrderedDict[Hashable, Placed] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: bytes) -> Band | None:
        with self._lock:
            band = self._entries.get(key)
            if band is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return band

    def put(self, key: bytes, band: Band) -> None:
        cost = len(band[0]) + ENTRY_OVERHEAD
        if cost > self.max_bytes:
            return
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return
            self._entries[key] = band
            self.bytes += cost
            while self.bytes > self.max_bytes:
                _, old = self._entries.popitem(last=False)
                self.bytes -= len(old[0]) + ENTRY_OVERHEAD

    def get_signed(self, signature: Hashable) -> tuple[bytes, Band] | None:
        """The band kept for the rows ``signature`` stands for (what they were composed of:
        see :func:`encode`'s ``parts``) and its digest key, counted as a band reused; a miss
        is not counted (the band is then looked for by its rows' digest)."""
        try:  # a hit takes no lock: each step is a single operation on a dict
            key = self._signed[signature]
            band = self._entries[key]
            self._signed.move_to_end(signature)
            self._entries.move_to_end(key)
        except KeyError:
            return None
        self.hits += 1
        return key, band

    def put_signed(self, signature: Hashable, key: bytes) -> None:
        """Remember that the rows ``signature`` stands for are the band under ``key`` (at
        most :data:`SIGNED` signatures, least recently used dropped)."""
        with self._lock:
            self._signed[signature] = key
            self._signed.move_to_end(signature)
            while len(self._signed) > SIGNED:
                self._signed.popitem(last=False)

    def get_sliced(self, part: Hashable) -> Placed | None:
        """Where a part is in a picture's bands and what stands for it in each (see
        :func:`_placed`), kept under ``part`` (what it is, its box, the bands' size)."""
        try:  # a hit takes no lock: both steps are single operations on the dict
            placed = self._sliced[part]
            self._sliced.move_to_end(part)
        except KeyError:
            return None
        return placed

    def put_sliced(self, part: Hashable, placed: Placed) -> None:
        """Keep :meth:`get_sliced`'s answer (at most :data:`SLICED` parts, least recently
        used dropped)."""
        with self._lock:
            self._sliced[part] = placed
            self._sliced.move_to_end(part)
            while len(self._sliced) > SLICED:
                self._sliced.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._signed.clear()
            self._sliced.clear()
            self.bytes = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


#: The process's cache of deflated bands (each render worker has its own).
CACHE = BandCache()

_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor | None:
    """The threads deflating bands (:data:`THREADS` of them, as it is now), None for the
    caller's own; a pool made for another number of threads is shut down (its threads end
    once what was given to it is done)."""
    global _pool
    threads = THREADS
    if threads <= 1 and _pool is None:
        return None  # the default: no pool, no lock taken
    with _pool_lock:
        if _pool is not None and _pool[0] != threads:
            _pool[1].shutdown(wait=False)
            _pool = None
        if threads <= 1:
            return None
        if _pool is None:
            _pool = (threads, ThreadPoolExecutor(threads, thread_name_prefix="pngbands"))
        return _pool[1]


#: zlib's memory level for a band: 8 (zlib's default; Python's too) deflated MLEM's live
#: rounds' bands 4 % faster than 9 into as many bytes (a band is a few tens of KB: the
#: smaller hash table is as good, and cheaper to set up).
MEM_LEVEL = 8


def _deflate(raw: memoryview, width: int, start: int, stop: int, level: int) -> Band:
    """Rows ``start``..``stop`` of ``raw`` (palette indices, ``width`` a row) as PNG rows
    (filter byte 0 each), deflated with the row above as the dictionary."""
    rows = b"\0".join([b"", *(raw[r * width : (r + 1) * width] for r in range(start, stop))])
    if start:
        above = b"\0" + bytes(raw[(start - 1) * width : start * width])
        z = zlib.compressobj(level, zlib.DEFLATED, -15, MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY, above)
    else:
        z = zlib.compressobj(level, zlib.DEFLATED, -15, MEM_LEVEL)
    data = z.compress(rows) + z.flush(zlib.Z_SYNC_FLUSH)
    return data, zlib.adler32(rows), len(rows)


def palette_chunks(img: Image.Image) -> bytes | None:
    """The IHDR and PLTE chunks Pillow writes for ``img`` when this writer can write it (an
    8-bit palette picture: more than 16 colours, an RGB palette, no transparency), else
    None."""
    if img.mode != "P" or img.palette is None or img.palette.mode != "RGB":
        return None
    if "transparency" in img.info or "icc_profile" in img.info:
        return None
    palette = img.getpalette() or []
    colors = min(len(palette) // 3, 256)
    if colors <= 16:
        return None  # Pillow writes fewer bits a pixel
    width, height = img.size
    if not width or not height:
        return None
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return _chunk(b"IHDR", ihdr) + _chunk(b"PLTE", bytes(palette[: colors * 3]))


#: Pictures this process failed to write band by band (each then written by Pillow).
FAILURES = 0


def encode(
    img: Image.Image,
    level: int,
    cache: BandCache | None = None,
    band_rows: int | None = None,
    parts: Sequence[tuple[Hashable, Box]] | None = None,
    rows: Callable[[int, int], Image.Image] | None = None,
    pixels: Callable[[int], Image.Image | None] | None = None,
) -> bytes | None:
    """PNG bytes of the palette picture ``img`` deflated at zlib ``level`` band by band
    (``band_rows`` rows each, else :data:`BAND_BYTES`), reusing the bands ``cache`` (the
    process's :data:`CACHE` by default) holds; None when ``img`` is not a picture this
    writer handles (see :func:`palette_chunks`), or when writing it failed (counted in
    :data:`FAILURES`, the first failure logged): the caller writes it with Pillow.

    ``parts``: what ``img`` is made of, in the order it was (a
    :class:`render.layers.PaletteCanvas`): each a key that stands for its pixels (never the
    same key for other pixels) and the box it covers, the first covering the whole picture.
    A band whose rows (and the row above) are made of the same parts as a band deflated
    before is that band: neither its rows' bytes nor their digest are made. ``rows(top,
    bottom)``: those rows of the picture (``img`` then gives only its size and palette),
    asked for only where a band is not found by its parts. ``pixels(k)``: the pixels of
    part ``k`` (its box's size; None: the part stands for itself, as the first one, a static
    layer, does): a band is then known by what its parts show in its rows, not by which
    parts they are (see :func:`_slices`)."""
    global FAILURES
    try:
        return _encode(img, level, cache, band_rows, parts, rows, pixels)
    except Exception:
        FAILURES += 1
        if FAILURES == 1:
            log.exception("banded PNG writer failed: Pillow writes this picture (logged once)")
        return None


Rows = tuple[memoryview, int, int]
"""A band's rows as ``_deflate`` takes them: bytes of whole rows, its first and end row in
them (the row above the first, when there is one, is in them too)."""


def _deflate_missing(
    rows: dict[int, Rows], width: int, missing: list[int], level: int
) -> list[Band]:
    """The bands ``missing`` (keys of ``rows``) deflated, on the pool's threads when there
    are several and :data:`THREADS` asks for threads."""
    pool = _executor() if len(missing) > 1 else None
    if pool is not None:
        try:
            return list(
                pool.map(lambda i: _deflate(rows[i][0], width, *rows[i][1:], level), missing)
            )
        except RuntimeError:
            pass  # the pool was shut down meanwhile (THREADS changed): deflated here
    return [_deflate(rows[i][0], width, *rows[i][1:], level) for i in missing]


def _met(box: Box, spans: Sequence[tuple[int, int]], rows_per_band: int) -> list[int]:
    """The bands whose rows, or the row above them, ``box`` meets."""
    last = min(len(spans), box[3] // rows_per_band + 1)
    return [
        i
        for i in range(box[1] // rows_per_band, last)
        if box[1] < spans[i][1] and box[3] > max(0, spans[i][0] - 1)
    ]


def _slices(
    part: Image.Image, box: Box, spans: Sequence[tuple[int, int]], met: list[int]
) -> tuple[bytes, ...]:
    """What ``part`` (its pixels, at ``box`` in the picture) shows in each band of ``met``:
    the SHA-1 of its rows in the band's rows and the row above them, and where those rows
    go. A band's rows are the static layer's with its parts pasted over them in order, so
    the same static layer and the same slices, in the same order, are the same rows: a
    part drawn again that shows the same in a band (a player's row whose other line
    changed, a panel's frame of another height) leaves that band found by its parts."""
    x0, y0, x1, _ = box
    width = x1 - x0
    data = memoryview(part.tobytes())
    ids = []
    for i in met:
        start, stop = spans[i]
        top, bottom = max(y0, start - 1 if start else 0), min(box[3], stop)
        digest = hashlib.sha1(data[(top - y0) * width : (bottom - y0) * width]).digest()
        ids.append(digest + struct.pack(">IIII", x0, top, x1, bottom))
    return tuple(ids)


def _shown_key(signature: Hashable) -> bytes:
    """The cache's key of a band known by what its parts show (its ``signature``: the
    level, its width and rows, each part's slice or static layer): 21 bytes, never the
    28 of a band known by its rows' digest."""
    return hashlib.sha1(pickle.dumps(signature, protocol=5)).digest() + b"s"


def _placed(
    key: Hashable,
    box: Box,
    part: Image.Image | None,
    spans: Sequence[tuple[int, int]],
    rows_per_band: int,
) -> Placed:
    """Each band a part meets (its rows or the row above them) and what stands for the part
    there: what it shows there (:func:`_slices`) when its pixels are given, else its key."""
    met = _met(box, spans, rows_per_band)
    if part is None or part.size != (box[2] - box[0], box[3] - box[1]):
        return tuple((i, key) for i in met)
    return tuple(zip(met, _slices(part, box, spans, met), strict=True))


def _encode(
    img: Image.Image,
    level: int,
    cache: BandCache | None,
    band_rows: int | None,
    parts: Sequence[tuple[Hashable, Box]] | None,
    rows_of: Callable[[int, int], Image.Image] | None,
    pixels: Callable[[int], Image.Image | None] | None = None,
) -> bytes | None:
    head = palette_chunks(img)
    if head is None:
        return None
    cache = CACHE if cache is None else cache
    width, height = img.size
    rows_per_band = band_rows or max(1, BAND_BYTES // (width + 1))
    spans = [(y, min(height, y + rows_per_band)) for y in range(0, height, rows_per_band)]
    bands: list[Band | None] = [None] * len(spans)
    signatures: list[Hashable] = []
    if parts is not None:
        made_of: list[list[Hashable]] = [[] for _ in spans]
        for k, (key, box) in enumerate(parts):  # each in the bands it meets (or their row above)
            sliced = (key, box, rows_per_band, height)
            placed = cache.get_sliced(sliced)
            if placed is None:
                placed = _placed(
                    key, box, None if pixels is None else pixels(k), spans, rows_per_band
                )
                cache.put_sliced(sliced, placed)
            for i, id_ in placed:
                made_of[i].append(id_)
        for i, (start, stop) in enumerate(spans):
            signatures.append((level, width, start, stop, tuple(made_of[i])))
            if (signed := cache.get_signed(signatures[i])) is not None:
                bands[i] = signed[1]
    todo = [i for i, band in enumerate(bands) if band is None]
    keys: dict[int, bytes] = {}
    if parts is not None and pixels is not None:  # a band known by what its parts show
        for i in todo:
            keys[i] = _shown_key(signatures[i])
            bands[i] = cache.get(keys[i])
    need = [i for i in todo if bands[i] is None]  # the bands whose rows are made
    rows: dict[int, Rows] = {}
    if rows_of is None and (parts is None or 2 * len(need) > len(spans)):
        raw = memoryview(img.tobytes())  # (most bands: the whole picture's bytes at once)
        rows = {i: (raw, *spans[i]) for i in need}
    else:  # the rows of each run of bands to make, at once (and the row above it)
        runs: list[list[int]] = []
        for i in need:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            top, bottom = max(0, spans[run[0]][0] - 1), spans[run[-1]][1]
            if rows_of is not None:
                chunk = memoryview(rows_of(top, bottom).tobytes())
            else:
                chunk = memoryview(img.crop((0, top, width, bottom)).tobytes())
            for i in run:
                rows[i] = (chunk, spans[i][0] - top, spans[i][1] - top)
    for i in need:
        if i in keys:
            continue
        start, stop = spans[i]
        data, first, end = rows[i]
        digest = hashlib.sha1(data[max(0, first - 1) * width : end * width])
        keys[i] = digest.digest() + struct.pack(">bBHI", level, start > 0, stop - start, width)
        bands[i] = cache.get(keys[i])
    missing = [i for i in need if bands[i] is None]
    made = _deflate_missing(rows, width, missing, level)
    for i, fresh in zip(missing, made, strict=True):
        bands[i] = fresh
        cache.put(keys[i], fresh)
    if parts is not None:
        for i in todo:
            cache.put_signed(signatures[i], keys[i])
    adler = 1
    out = [_zlib_header(level)]
    for band in bands:
        assert band is not None
        data_, band_adler, length = band
        adler = adler32_combine(adler, band_adler, length)
        out.append(data_)
    out += [_FINAL, struct.pack(">I", adler)]
    # (the IDAT chunk written round its pieces: the picture's bytes joined once)
    crc = zlib.crc32(b"IDAT")
    for piece in out:
        crc = zlib.crc32(piece, crc)
    size = struct.pack(">I", sum(len(piece) for piece in out))
    tail = (struct.pack(">I", crc), _chunk(b"IEND", b""))
    return b"".join((_MAGIC, head, size, b"IDAT", *out, *tail))
