"""Render time, encode time and PNG size over states sampled from random games.

python -m bench.render [game ...] [--states N] [--gt-flight] [--consecutive] [--pillow] [--cpu]

Per game and picture (the table, and one seat's private picture): the whole render, the
encode the renderer uses (a fixed palette made once per game), a bare ``img.save(PNG)`` of
the same image (the issue 14 budget: the palette encode within 1.5x of it), and the adaptive
``kit.to_png`` of the same image for size (the fixed palette must not make it bigger).

``render/encode`` is the issue 23 budget: the whole render (drawing and encoding) over a
bare palette encode of the same final image at level 7 (``kit.to_png_palette`` on the
game's palette with ``compress_level=7``, timed alone), the median of the per-state ratios;
every game's table within 1.3x. ``--repeat N`` takes each state's fastest of N renders and
of N encodes (on a loaded machine the slower runs measure the other processes). The
static-layer caches (render/layers.py) are warm, as in a running bot; ``layers`` is the
memory they hold after the run.

The palette PNGs are written band by band with the process's cache of deflated bands
(render/pngbands.py, issue 23); ``--pillow`` writes them with Pillow's own writer instead
(the code before it), for a before/after. The bare level-7 encode is always Pillow's.
``--consecutive`` draws the table (and seat 0's private picture) after every move of seeded
games, one after the other: the case the cache is for (a table after a move differs from
the one before in a few bands); the whole sequence drawn with Pillow's writer, then with the
banded one, each from cold layer and band caches: per picture, the render and its encode,
the share of bands reused and the sizes.
``--cpu`` measures the process's CPU time instead of the wall clock (on a shared machine).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import pickle
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

from bench.common import pct, random_answer, random_options
from host import registry, renderpool
from render import kit, layers, pngbands


def views_along(
    game_id: str, count: int, rng_seed: int, first_seed: int, every: int, seat: int | None
) -> list[tuple[dict, dict, list[str]]]:
    """(public view, a seat's view, names) every ``every`` moves of seeded random games, one
    after the other, and at each game's end: ``seat``'s view, or a random seat's if None."""
    game = registry.get(game_id)
    rng = random.Random(rng_seed)
    views: list[tuple[dict, dict, list[str]]] = []
    seed = first_seed
    while len(views) < count:
        players = rng.randint(game.min_players, game.max_players)
        state = game.new(players, random_options(game, rng), seed)
        seed += 1
        names = [f"Player {i + 1}" for i in range(players)]
        step = 0
        while len(views) < count:
            pending = game.pending(state)
            if step % every == 0 or not pending:
                who = rng.randrange(players) if seat is None else seat
                views.append((game.view(state, None), game.view(state, who), names))
            if not pending:
                break
            d = rng.choice(pending)
            state, _ = game.apply(state, d.seat, random_answer(d, rng))
            step += 1
    return views


def sample_views(game_id: str, count: int) -> list[tuple[dict, dict, list[str]]]:
    """(public view, one seat's view, names) along seeded random games, 7 moves apart."""
    return views_along(game_id, count, rng_seed=3, first_seed=0, every=7, seat=None)


def gt_flight_views(count: int) -> list[tuple[dict, dict, list[str]]]:
    """Galaxy Trucker's flight tables with every ship built (the heuristic bot builds each
    one, random play leaves them nearly empty), one after each move of the flight as players
    see them: whole flights of 4, 3 and 2 players at levels II, III and I, in turn."""
    from rules.galaxy_trucker import GAME

    views: list[tuple[dict, dict, list[str]]] = []
    k = 0
    while len(views) < count:
        players, level = 4 - k % 3, ("II", "III", "I")[k % 3]
        s = GAME.new(players, {"rules": "2", "level": level}, 100 + k)
        rng = random.Random(k)
        names = [f"Player {i + 1}" for i in range(players)]
        while GAME.pending(s) and len(views) < count:
            if s["phase"] == "flight":
                views.append((GAME.view(s, None), GAME.view(s, 0), names))
            d = rng.choice(GAME.pending(s))
            s, _ = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
        k += 1
    return views


#: The clock every time is measured with (``--cpu``: the process's CPU time).
CLOCK: Callable[[], float] = time.perf_counter


def consecutive_views(game_id: str, count: int) -> list[tuple[dict, dict, list[str]]]:
    """(public view, seat 0's view, names) after every move of seeded random games, one
    after the other."""
    return views_along(game_id, count, rng_seed=5, first_seed=100, every=1, seat=0)


@contextmanager
def pillow_writer() -> Iterator[None]:
    """Palette PNGs written by Pillow's own writer while inside (no band cache)."""
    saved = kit.BANDED
    kit.BANDED = False
    try:
        yield
    finally:
        kit.BANDED = saved


def sequence(
    draw: Callable[..., bytes | None], states: list[tuple[dict, list[str]]], banded: bool
) -> dict[str, list[float]]:
    """Draw ``states`` one after the other from cold layer and band caches (warmed by the
    first state drawn once), with the banded writer or Pillow's: per picture its render
    (ms), its encode (ms) and its size; and the bands reused."""
    saved = kit.BANDED
    kit.BANDED = banded
    try:
        layers.clear_all()
        pngbands.CACHE.clear()
        draw(states[0][0], states[0][1], "en")  # warm-up: fonts, static layers
        pngbands.CACHE.clear()
        got: dict[str, list[float]] = {"render": [], "encode": [], "size": []}
        for state, names in states:
            with encodes() as seen:
                t0 = CLOCK()
                png = draw(state, names, "es")
                total = (CLOCK() - t0) * 1000
            if png is None or not seen or seen[-1][2] is None:
                continue
            got["render"].append(total)
            got["encode"].append(seen[-1][1])
            got["size"].append(len(png))
        hits, misses = pngbands.CACHE.hits, pngbands.CACHE.misses
        got["reused"] = [hits / max(1, hits + misses)]
        return got
    finally:
        kit.BANDED = saved


def consecutive(game_id: str, count: int) -> dict[str, dict[str, float]]:
    """The table and seat 0's private picture after every move of seeded games, drawn in
    order with Pillow's writer, then with the banded one, each from cold caches: render and
    encode times, the share of bands reused, PNG sizes."""
    render = registry.renderer(game_id)
    views = consecutive_views(game_id, count)
    out: dict[str, dict[str, float]] = {}
    for kind in ("table", "private"):
        draw = render.render_table if kind == "table" else render.render_private
        states = [(public if kind == "table" else mine, names) for public, mine, names in views]
        before = sequence(draw, states, banded=False)
        after = sequence(draw, states, banded=True)
        if not after["render"]:
            continue
        out[kind] = {
            "n": len(after["render"]),
            "median_ms": statistics.median(after["render"]),
            "mean_ms": statistics.fmean(after["render"]),
            "p99_ms": pct(after["render"], 99),
            "pillow_median_ms": statistics.median(before["render"]),
            "pillow_p99_ms": pct(before["render"], 99),
            "encode_ms": statistics.median(after["encode"]),
            "pillow_encode_ms": statistics.median(before["encode"]),
            "reused": after["reused"][0],
            "median_kb": statistics.median(after["size"]) / 1024,
            "pillow_kb": statistics.median(before["size"]) / 1024,
            "cache_mb": pngbands.CACHE.bytes / 2**20,
        }
    return out


@contextmanager
def encodes() -> Iterator[list[tuple[Image.Image, float, Any]]]:
    """Every image the renderers encode while inside, with the encode's time (ms) and the
    palette (None for ``kit.to_png``). A picture on a fixed palette is seen as it is
    written, already mapped onto its palette (``kit.png_of_mapped``: its own palette is the
    palette; the mapping is not in the encode's time): ``kit.to_png_palette`` is left as it
    is, since renderers drawing by parts draw the whole picture while it is replaced."""
    seen: list[tuple[Image.Image, float, Any]] = []
    saved = kit.to_png, kit.png_of_mapped

    def adaptive(img: Image.Image, *args: Any, **kwargs: Any) -> bytes:
        t0 = CLOCK()
        out = saved[0](img, *args, **kwargs)
        seen.append((img, (CLOCK() - t0) * 1000, None))
        return out

    def mapped(img: Image.Image, *args: Any, **kwargs: Any) -> bytes:
        t0 = CLOCK()
        out = saved[1](img, *args, **kwargs)
        ms = (CLOCK() - t0) * 1000
        if kwargs.get("rows") is not None:  # a palette canvas: ``img`` gives only the size
            img = kwargs["rows"](0, img.height)
        seen.append((img, ms, img))
        return out

    kit.to_png, kit.png_of_mapped = adaptive, mapped  # type: ignore[assignment]
    try:
        yield seen
    finally:
        kit.to_png, kit.png_of_mapped = saved  # type: ignore[assignment]


def bare_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def fastest(run: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` runs of ``run`` (ms): on a loaded machine the other runs
    measure the other processes."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        t0 = CLOCK()
        run()
        best = min(best, (CLOCK() - t0) * 1000)
    return best


def bench(
    game_id: str, count: int, repeat: int = 1, gt_flight: bool = False
) -> dict[str, dict[str, float]]:
    render = registry.renderer(game_id)
    views = gt_flight_views(count) if gt_flight else sample_views(game_id, count)
    render.render_table(views[0][0], views[0][2], "en")  # warm-up: fonts, static layers
    render.render_private(views[0][1], views[0][2], "en")
    out: dict[str, dict[str, float]] = {}
    for kind in ("table", "private"):
        times, enc, bare, sizes, adaptive, whole = [], [], [], [], [], []
        for public, mine, names in views:
            draw = render.render_table if kind == "table" else render.render_private
            with encodes() as seen:
                t0 = CLOCK()
                png = draw(public if kind == "table" else mine, names, "es")
                total = (CLOCK() - t0) * 1000
            if png is None or not seen:
                continue
            img, ms, palette = seen[-1]
            times.append(total)
            if palette is not None:
                state = public if kind == "table" else mine
                again = (
                    fastest(partial(draw, state, names, "es"), repeat - 1) if repeat > 1 else total
                )
                with pillow_writer():
                    encode7 = fastest(partial(kit.to_png_palette, img, palette, 7), repeat)
                whole.append(min(total, again) / encode7)
            enc.append(ms)
            sizes.append(len(png))
            t0 = CLOCK()
            bare_png(img)
            bare.append((CLOCK() - t0) * 1000)
            adaptive.append(len(kit.to_png(img)))
        if not times:
            continue
        out[kind] = {
            "n": len(times),
            "median_ms": statistics.median(times),
            "p99_ms": pct(times, 99),
            "encode_ms": statistics.median(enc),
            "bare_ms": statistics.median(bare),
            "ratio": statistics.median(e / b for e, b in zip(enc, bare, strict=True)),
            "render_ratio": statistics.median(whole) if whole else float("nan"),
            "median_kb": statistics.median(sizes) / 1024,
            "max_kb": max(sizes) / 1024,
            "adaptive_kb": statistics.median(adaptive) / 1024,
        }
    return out


def load_jobs(folder: str) -> list[list[tuple[str, str, dict, list[str], str]]]:
    """The pictures each render worker was asked for, in order (``<pid>.jobs`` files left by
    ``COSMODROME_RENDER_PROFILE``: host/renderpool.py)."""
    out = []
    for path in sorted(Path(folder).glob("*.jobs")):
        jobs = []
        with path.open("rb") as f:
            while True:
                try:
                    jobs.append(pickle.load(f))
                except EOFError:
                    break
        out.append(jobs)
    return out


def replay(folder: str, repeat: int = 1, digests: str | None = None) -> None:
    """Draw again the pictures render workers drew in a bench (``--jobs``), each worker's in
    order from a worker's start (its warm-up, then a cold band cache): CPU
    a picture, by kind and game, its PNG writing (of the picture mapped onto its palette), and
    the bands reused; ``repeat`` runs, the fastest of each picture kept. ``digests``: a file
    where each picture's pixels' SHA-1 and PNG size are written, one a line (to compare two
    versions of the code: pixels must be the same, no PNG bigger)."""
    global CLOCK
    CLOCK = time.process_time
    workers = load_jobs(folder)
    n = sum(len(jobs) for jobs in workers)
    best: list[float] = [float("inf")] * n
    enc: list[float] = [float("inf")] * n
    lines: list[str] = []
    reused = []
    for run in range(max(1, repeat)):
        k = 0
        for jobs in workers:
            layers.clear_all()  # each worker its own caches, from its warm-up
            renderpool.warm_up()
            pngbands.CACHE.clear()
            for kind, game_id, view, names, lang in jobs:
                with encodes() as seen:
                    t0 = time.process_time()
                    png = renderpool.draw(kind, game_id, view, names, lang)
                    total = (time.process_time() - t0) * 1000
                best[k] = min(best[k], total)
                enc[k] = min(enc[k], sum(ms for _, ms, _ in seen))
                if run == 0 and png is not None:
                    pixels = Image.open(io.BytesIO(png))
                    digest = hashlib.sha1(pixels.convert("RGB").tobytes()).hexdigest()
                    lines.append(f"{kind} {game_id} {digest} {len(png)}")
                k += 1
            hits, misses = pngbands.CACHE.hits, pngbands.CACHE.misses
            reused.append(hits / max(1, hits + misses))
    print(
        f"{n} pictures ({', '.join(str(len(j)) for j in workers)} a worker), fastest of "
        f"{max(1, repeat)}: CPU a picture mean {statistics.mean(best):.2f} ms, median "
        f"{statistics.median(best):.2f} ms, p99 {pct(best, 99):.2f} ms; of which the encode "
        f"(the PNG of the mapped picture) mean {statistics.mean(enc):.2f} ms; bands reused "
        f"{100 * statistics.mean(reused):.0f} %"
    )
    if digests:
        Path(digests).write_text("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=list(registry.GAME_MODULES))
    ap.add_argument("--states", type=int, default=60)
    ap.add_argument("--gt-flight", action="store_true", help="Galaxy Trucker's flight tables")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="render/encode from the fastest of N renders and N encodes of each state",
    )
    ap.add_argument(
        "--consecutive",
        action="store_true",
        help="the pictures after every move of seeded games (the band cache's case)",
    )
    ap.add_argument("--pillow", action="store_true", help="Pillow's PNG writer (no band cache)")
    ap.add_argument("--cpu", action="store_true", help="the process's CPU time, not wall clock")
    ap.add_argument("--band-bytes", type=int, help="bytes a band (pngbands.BAND_BYTES)")
    ap.add_argument("--threads", type=int, help="threads deflating bands (pngbands.THREADS)")
    ap.add_argument(
        "--jobs",
        metavar="DIR",
        help="draw again the pictures a bench's render workers drew (COSMODROME_RENDER_PROFILE)",
    )
    ap.add_argument("--digests", metavar="FILE", help="with --jobs: each picture's pixel SHA-1")
    args = ap.parse_args()
    if args.band_bytes:
        pngbands.BAND_BYTES = args.band_bytes
    if args.threads is not None:
        pngbands.THREADS = args.threads
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    if args.pillow:
        kit.BANDED = False
    if args.jobs:
        replay(args.jobs, args.repeat, args.digests)
        return
    if args.consecutive:
        for gid in args.games:
            for kind, r in consecutive(gid, args.states).items():
                print(
                    f"{gid} {kind} consecutive ({r['n']:.0f}): render median "
                    f"{r['median_ms']:.1f} ms, mean {r['mean_ms']:.1f} ms, p99 {r['p99_ms']:.1f} "
                    f"ms (Pillow's writer: "
                    f"{r['pillow_median_ms']:.1f} / {r['pillow_p99_ms']:.1f} ms); encode "
                    f"{r['encode_ms']:.2f} ms (Pillow's {r['pillow_encode_ms']:.2f} ms); "
                    f"bands reused {100 * r['reused']:.0f} %; PNG median {r['median_kb']:.0f} KB "
                    f"(Pillow's {r['pillow_kb']:.0f} KB); band cache {r['cache_mb']:.1f} MB"
                )
        return
    if args.gt_flight:
        args.games = ["galaxy_trucker"]
    for gid in args.games:
        for kind, r in bench(gid, args.states, args.repeat, args.gt_flight).items():
            print(
                f"{gid} {kind} ({r['n']:.0f}): render median {r['median_ms']:.0f} ms, "
                f"p99 {r['p99_ms']:.0f} ms, render/encode {r['render_ratio']:.2f}x; "
                f"encode {r['encode_ms']:.1f} ms vs bare PNG "
                f"{r['bare_ms']:.1f} ms ({r['ratio']:.2f}x); PNG median {r['median_kb']:.0f} KB "
                f"(adaptive {r['adaptive_kb']:.0f} KB), max {r['max_kb']:.0f} KB"
            )
        print(f"{gid} layers: {layers.memory_bytes() / 2**20:.1f} MB held by the layer caches")


if __name__ == "__main__":
    main()
