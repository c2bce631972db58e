"""Galaxy Trucker pictures: one ship (its grid and tiles) and the header of a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.galaxy_trucker.marks import _mark
from render.galaxy_trucker.style import SLOT, SLOT_EDGE, G, _cellkey, _cells, _label, _t
from render.galaxy_trucker.tile import draw_tile
from render.kit import BG2, GOLD, GREEN, MUTED, PANEL_EDGE, RED
from render.regions import cached_region, region_store

# --------------------------------------------------------------------------- one ship


def _ship_extras(ship: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What is aboard each cell: crew, alien, charges, goods."""
    out: dict[str, dict[str, Any]] = {}
    for k, v in kit.dict_of(ship.get("crew")).items():
        out.setdefault(str(k), {})["crew"] = v
    for k, v in kit.dict_of(ship.get("batteries")).items():
        out.setdefault(str(k), {})["batteries"] = v
    for k, v in kit.dict_of(ship.get("goods")).items():
        out.setdefault(str(k), {})["goods"] = v
    for colour, cell in kit.dict_of(ship.get("aliens")).items():
        if isinstance(cell, (list, tuple)) and len(cell) == 2:
            out.setdefault(_cellkey(int(cell[0]), int(cell[1])), {})["alien"] = colour
    return out


def ship_size(view: dict[str, Any], s: float, label_min: int = 12) -> tuple[float, float]:
    """Pixels a ship of this board takes at tile size ``s`` (labels included)."""
    _, _, rows, cols = _frame(view)
    lab = max(s * 0.45, label_min * 1.2)
    return cols * s + lab, rows * s + lab


def _frame(view: dict[str, Any]) -> tuple[int, int, int, int]:
    board = kit.dict_of(view.get("board"))
    fr = board.get("frame")
    if isinstance(fr, list) and len(fr) == 4 and all(kit.is_int(x) for x in fr):
        return int(fr[0]), int(fr[1]), max(1, int(fr[2])), max(1, int(fr[3]))
    return 5, 5, 5, 5


def draw_ship(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    s: float,
    view: dict[str, Any],
    ship: dict[str, Any],
    seat: int | None,
    *,
    free: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
    bad: set[tuple[int, int]] = frozenset(),  # type: ignore[assignment]
    last: tuple[int, int] | None = None,
    label_min: int = 12,
) -> None:
    """A ship board with its tiles; row numbers on the left, column numbers on top (at least
    ``label_min`` pixels)."""
    r0, c0, rows, cols = _frame(view)
    lab = max(s * 0.45, label_min * 1.2)
    board = kit.dict_of(view.get("board"))
    valid = _cells(board.get("cells"))
    size = max(label_min, min(24, round(s * 0.3)))
    for c in range(cols):
        _label(img, (x + lab + (c + 0.5) * s, y + lab / 2), str(c0 + c), size, MUTED)
    for r in range(rows):
        _label(img, (x + lab / 2, y + lab + (r + 0.5) * s), str(r0 + r), size, MUTED)
    gx, gy = x + lab, y + lab
    if valid:
        _mark("cell")
    for r, c in valid:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 1, py + 1, px + s - 1, py + s - 1), fill=SLOT, outline=SLOT_EDGE)
    extras = _ship_extras(ship)
    tiles_ = ship.get("tiles")
    for t in tiles_ if isinstance(tiles_, list) else []:
        if not isinstance(t, dict):
            continue
        cell = _cells([t.get("cell")])
        if not cell:
            continue
        (r, c) = next(iter(cell))
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        draw_tile(d, px, py, s, t, extras.get(_cellkey(r, c)), seat)
    w = max(3, round(s / 16))
    if free:
        _mark("free")
    if bad:
        _mark("bad")
    if last is not None:
        _mark("last")
    for r, c in free:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 3, py + 3, px + s - 3, py + s - 3), outline=GREEN, width=w)
        _label(img, (px + s / 2, py + s / 2), f"{r}·{c}", max(12, round(s * 0.24)), GREEN, "cond")
    for r, c in bad:
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 2, py + 2, px + s - 2, py + s - 2), outline=RED, width=w + 1)
    if last is not None:
        r, c = last
        px, py = gx + (c - c0) * s, gy + (r - r0) * s
        d.rectangle((px + 1, py + 1, px + s - 1, py + s - 1), outline=GOLD, width=w)


# --------------------------------------------------------------------------- header


def _players(view: dict[str, Any], names: Sequence[str]) -> int:
    n = kit.int_of(view.get("players"), len(names))
    return max(1, min(4, n))


def _level_name(view: dict[str, Any], lang: str) -> str:
    lvl = str(view.get("level", "I"))
    return i18n.t(f"{G}.opt.level.{lvl}", lang)


def _header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    width: int,
    view: dict[str, Any],
    lang: str,
    title: str,
    level: bool = True,
) -> None:
    """Title on the left (with the flight's level, and which flight of the Trek), the phase
    in a pill on the right; drawn once per text (on the picture's plain top), pasted
    afterwards."""

    def draw() -> None:
        d.rectangle((0, 0, width, 64), fill=BG2)
        d.line((0, 64, width, 64), fill=PANEL_EDGE, width=2)
        trek = kit.dict_of(view.get("trek"))
        phase_key = str(view.get("phase", f"{G}.phase.build"))
        if trek and view.get("step") in ("build", "prelaunch", "flight", "over"):
            phase_key = f"{G}.phase.{view['step']}"  # the title says which flight of the Trek
        phase = i18n.t(phase_key, lang)
        pf = kit.font(26)
        pw = pf.getlength(phase) + 28
        kit.pill(d, width - 20 - pw, 13, 51, phase, pf, GOLD)
        full = f"{title} · {_level_name(view, lang)}" if level else title
        if trek:
            k, n = kit.int_of(trek.get("flight"), 1), kit.int_of(trek.get("flights"), 3)
            full = f"{full} · {_t('pic.trek', lang, flight=k, flights=n)}"
        s, f = kit.fit_font(full, width - pw - 70, (34, 30, 26, 22))
        kit.text(d, (20, 32), s, f, anchor="lm")

    parts = (view.get(k) for k in ("trek", "phase", "step", "level"))
    key = (width, lang, title, level, repr(tuple(parts)))
    cached_region(_HEADERS, img, (0, 0, width, 65), key, draw)


#: Headers drawn once per text (render.regions).
_HEADERS = region_store(12)
