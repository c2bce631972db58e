"""MLEM pictures: the public table (header, tokens on the track, objectives, legend) and the
palette every MLEM picture is encoded on."""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit, layers
from render.kit import GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.mlem.base import _base, _objective_box
from render.mlem.geometry import (
    BOARD_H,
    BOARD_K,
    BOARD_MIN,
    BOARD_X1,
    CELL_EARLY_RGB,
    CELL_EDGE,
    CELL_RGB,
    DEEP,
    DEEP_RGB,
    DISASTER_MAX,
    GREEN_SOFT,
    HEAD_K,
    HEAD_MIN,
    HEADER_H,
    MOON_POS,
    MOON_RGB,
    MOONS,
    OBJECTIVES,
    OUT_H,
    OUT_HEADER_H,
    OUT_W,
    PANEL_K,
    PANEL_X0,
    PATH_RGB,
    PHASE_RGB,
    PLANET_GEO,
    PLANET_RGB,
    PX0,
    PX1,
    RECON_RGB,
    RED_SOFT,
    TRACK,
    UFO_RGB,
    H,
    W,
    _least,
    _rc,
    cell_box,
)
from render.mlem.glyphs import (
    ROCKET_SPRITES,
    _mission_icon,
    _moon_icon,
    _planet_icon,
    _rocket_at,
    board_text,
    paste_center,
    recon_tile,
    rocket,
    satellite,
    star,
    ufo,
)
from render.mlem.panels import (
    CREW_ROW_H,
    PLAYER_ROW_H,
    _crew_after,
    _crew_frame,
    _crew_row,
    _crew_rows,
    _draw_crew,
    _draw_dice,
    _draw_final,
    _draw_players,
    _draw_variants,
    _player_row,
    _player_rows,
    _players_after,
    _players_frame,
)
from render.mlem.view import _counts, _lang, _phase, _seat_ok

# ----------------------------------------------------------------------------- table


def _draw_header(d: ImageDraw.ImageDraw, view: dict, lang: str, width: float = W) -> None:
    """The header strip (title, voyage, phase, disaster track) ``width`` wide."""
    t = i18n.t
    kit.rounded_box(
        d, (8, 6, width - 8, HEADER_H - 4), radius=12, fill=kit.BG2, outline=PANEL_EDGE
    )
    title = t("mlem.render.title", lang)
    text(d, (24, HEADER_H / 2), title, font(30), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(30).getlength(t("mlem.render.title", lang)) + 24
    rnd = view.get("round")
    if rnd is not None:
        s = t("mlem.render.voyage", lang, n=rnd)
        text(d, (x, HEADER_H / 2), s, font(28), fill=INK, anchor="lm", shadow=2)
        x += font(28).getlength(s) + 20
    ph = _phase(view)
    label = t(f"mlem.render.phase.{ph}", lang)
    col = PHASE_RGB.get(ph, MUTED)
    wpx = kit.pill(d, x, 12, HEADER_H - 10, label, font(26), col, radius=17, dy=-2)
    if view.get("last_voyage") and not view.get("over"):
        x += wpx + 14
        s = t("mlem.render.last_voyage", lang)
        text(d, (x, HEADER_H / 2), s, font(20), fill=GOLD, anchor="lm", shadow=2)

    # disaster track 0..11, right aligned
    limit = view.get("disaster_limit")
    top = limit if isinstance(limit, int) and 1 <= limit <= 20 else DISASTER_MAX
    n = max(0, min(top, int(view.get("disasters") or 0)))
    bw, gap = 26, 4
    bx1 = width - 22
    bw = min(bw, int(min(360, width * 0.3) - (top + 1) * gap) // (top + 1))
    bx0 = bx1 - (top + 1) * (bw + gap) + gap
    label = t("mlem.render.disasters", lang)
    text(d, (bx0 - 12, HEADER_H / 2 - 10), label, font(18), fill=MUTED, anchor="rm")
    ends = t("mlem.render.disasters_end", lang, n=top)
    text(
        d, (bx0 - 12, HEADER_H / 2 + 11), ends, font(HEAD_MIN, "cond"), fill=RED_SOFT, anchor="rm"
    )
    for k in range(top + 1):
        x0 = bx0 + k * (bw + gap)
        box = (x0, 16, x0 + bw, HEADER_H - 14)
        if k == n:
            fill, edge = (255, 90, 70), INK
        elif k < n:
            fill, edge = (120, 40, 48), (170, 70, 80)
        else:
            fill, edge = PANEL, PANEL_EDGE
        d.rounded_rectangle(box, radius=5, fill=fill, outline=edge, width=2 if k != n else 3)
        if k == n:
            text(
                d,
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                str(k),
                font(HEAD_MIN),
                fill=kit.DARK,
                anchor="mm",
            )
        elif k == top:
            text(
                d,
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                "✕",
                font(HEAD_MIN),
                fill=RED_SOFT,
                anchor="mm",
            )


def _draw_track_tokens(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    _draw_board_tokens(d, view, n)
    _draw_rocket(img, d, view)


def _rocket_space(view: dict) -> int | None:
    sp = (view.get("rocket") or {}).get("space")
    return max(0, min(DEEP, sp)) if isinstance(sp, int) and not isinstance(sp, bool) else None


def _ufo_at(view: dict) -> tuple[int, tuple[float, float]] | None:
    """The UFO marker's space and centre (None: no UFO): in the middle of its space, or
    above it when the rocket is there too (in deep space, beside the rocket)."""
    u = view.get("ufo")
    if not (isinstance(u, dict) and isinstance(u.get("space"), int)):
        return None
    sp = _rocket_space(view)
    s = max(0, min(DEEP, u["space"]))
    x0, y0, x1, _ = cell_box(s)
    if s == DEEP:
        return s, (x1 - 30 if sp == DEEP else (x0 + x1) / 2, y0 + 56)
    if s == sp:
        return s, ((x0 + x1) / 2 + 8, y0 - 2)
    return s, ((x0 + x1) / 2, y0 + 49)


def _planet_rows(pid: str, rows: Any, n: int) -> tuple[float, float, int, list] | None:
    """Where a planet's rows are drawn (its rows' corner), their pitch, and the rows shown
    (seat, count), in arrival order (None: no such planet)."""
    geo = PLANET_GEO.get(pid)
    if not geo:
        return None
    x, y = geo["rows"]
    ok = [(s, c) for s, c in (tuple(r) for r in rows or [] if len(r) >= 2) if _seat_ok(s, n)]
    return x, y, 25 if len(ok) <= 4 else 22, ok[:5]


def _draw_board_tokens(d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    """Everything on the board but the rocket (drawn last, over them)."""
    # recon tiles on their slots
    recon = view.get("recon")
    if isinstance(recon, dict):
        slots = recon.get("slots") or {}
        for key, tile in slots.items():
            try:
                s = int(key)
            except (TypeError, ValueError):
                continue
            if s not in TRACK:
                continue
            x0, y0, x1, _ = cell_box(s)
            recon_tile(d, x1 - 44, y0 + 4, 40, tile if isinstance(tile, dict) else None)

    flying = _ufo_at(view)
    if flying is not None:
        ufo(d, *flying[1], 46)

    # moons
    for mid, occ in (view.get("moons") or {}).items():
        pos = MOON_POS.get(mid)
        if not pos:
            continue
        for (mx, my, r), seat, value in zip(pos, occ or [], MOONS[mid], strict=False):
            if _seat_ok(seat, n):
                kit.seat_token(d, (mx, my), r + 1, seat)
                board_text(d, (mx, my + 1), str(value), font(BOARD_MIN), outline=3)

    # planets: rows in arrival order
    for pid, rows in (view.get("planets") or {}).items():
        held = _planet_rows(pid, rows, n)
        if held is None:
            continue
        x, y, pitch, shown = held
        for k, (seat, count) in enumerate(shown):
            cy = y + 8 + k * pitch
            kit.seat_token(d, (x + 10, cy), 10, seat)
            board_text(d, (x + 23, cy + 1), f"×{count}", font(BOARD_MIN, "cond"), anchor="lm")

    # deep space occupants
    ds = view.get("deep_space") or {}
    x0, y0, _, _ = cell_box(DEEP)
    for key, top in (("comet", y0 + 121), ("galaxy", y0 + 186)):
        occ = _counts(ds.get(key) or [], n)
        for k, (seat, count) in enumerate(occ[:8]):
            cx: float = x0 + 18 + (k % 3) * 44
            cy = top + (k // 3) * 25
            kit.seat_token(d, (cx, cy), 10, seat)
            if count > 1:
                board_text(d, (cx + 11, cy + 2), str(count), font(BOARD_MIN, "cond"), anchor="lm")


#: A group of the board's tokens (:func:`_token_groups`): its name, the part of the view it
#: is drawn from (its key), and the box it draws in (board units; :data:`_GROUP_MARGIN`
#: picture pixels are added round it).
TokenGroup = tuple[str, dict, tuple[float, float, float, float]]

#: Picture pixels added round each group's box (outlines, shadows, antialiased edges).
_GROUP_MARGIN = 3


def _draw_group(d: ImageDraw.ImageDraw, gv: dict, n: int) -> None:
    """A group of the board's tokens (its view, :func:`_token_groups`): drawn by the very
    calls that draw the whole board."""
    _objective_claims(d, gv, n)
    _draw_board_tokens(d, gv, n)


def _token_groups(view: dict, n: int) -> list[TokenGroup]:
    """The board's tokens but the rocket in groups, each with the part of ``view`` it is
    drawn from and its box (an objective's claim, a recon slot, the UFO, a moon, a planet's
    rows, a deep-space region), in the order :func:`_objective_claims` then
    :func:`_draw_board_tokens` draw them: drawn each alone, the same pixels wherever the
    boxes do not meet (those that meet are drawn together, :func:`_merged_groups`)."""
    out: list[TokenGroup] = []
    objs = view.get("objectives") or {}
    for k, obj in enumerate(OBJECTIVES):
        seat = objs.get(obj)
        if _seat_ok(seat, n):
            claim: dict = {"objectives": {obj: seat}}
            out.append((f"obj{k}", claim, _objective_box(k)))

    recon = view.get("recon")
    if isinstance(recon, dict):
        for key, tile in (recon.get("slots") or {}).items():
            try:
                s = int(key)
            except (TypeError, ValueError):
                continue
            if s in TRACK:
                x0, y0, x1, _ = cell_box(s)
                gv = {"recon": {"slots": {key: tile}}}
                out.append((f"recon{s}", gv, (x1 - 44, y0 + 4, x1 - 4, y0 + 44)))

    flying = _ufo_at(view)
    if flying is not None:
        (s, (x, y)), sp = flying, _rocket_space(view)
        # (the rocket matters only on the UFO's space)
        gv_ufo: dict = {"ufo": {"space": view["ufo"]["space"]}}
        gv_ufo["rocket"] = {"space": sp} if sp == s else {}
        out.append(("ufo", gv_ufo, (x - 23, y - 18, x + 23, y + 9)))

    for mid, occ in (view.get("moons") or {}).items():
        pos = MOON_POS.get(mid)
        if not pos:
            continue
        held = [
            (mx, my, r)
            for (mx, my, r), seat in zip(pos, occ or [], strict=False)
            if _seat_ok(seat, n)
        ]
        if held:
            box = (
                min(mx - r - 1 for mx, _, r in held),
                min(my - r - 1 for _, my, r in held),
                max(mx + r + 2 for mx, _, r in held),
                max(my + r + 3 for _, my, r in held),
            )
            out.append((f"moon{mid}", {"moons": {mid: occ}}, box))

    f = font(BOARD_MIN, "cond")
    for pid, rows in (view.get("planets") or {}).items():
        planet = _planet_rows(pid, rows, n)
        if planet is not None and planet[3]:
            x, y, pitch, shown = planet
            wide = max(f.getlength(f"×{count}") for _, count in shown)
            box = (x - 1, y - 3, x + 23 + wide + 2, y + 8 + (len(shown) - 1) * pitch + 13)
            out.append((f"planet{pid}", {"planets": {pid: rows}}, box))

    ds = view.get("deep_space") or {}
    x0, y0, _, _ = cell_box(DEEP)
    for key, top in (("comet", y0 + 121), ("galaxy", y0 + 186)):
        occ = _counts(ds.get(key) or [], n)[:8]
        if occ:
            wide = max((f.getlength(str(c)) for _, c in occ if c > 1), default=0.0)
            last = (min(len(occ), 3) - 1) * 44
            box = (
                x0 + 7,
                top - 11,
                x0 + 18 + last + 12 + wide + 2,
                top + (len(occ) - 1) // 3 * 25 + 14,
            )
            out.append((f"deep{key}", {"deep_space": {key: ds.get(key)}}, box))
    return out


def _group_boxes(bd: kit.ScaledDraw, view: dict, n: int) -> list[tuple[str, dict, layers.Box]]:
    """:func:`_token_groups` with their boxes in picture pixels (``bd``: the board's
    drawer), grown by :data:`_GROUP_MARGIN`, within the board."""
    return [
        (
            name,
            gv,
            layers.box_within((*bd.pt(*box[:2]), *bd.pt(*box[2:])), _GROUP_MARGIN, _BOARD_AREA),
        )
        for name, gv, box in _token_groups(view, n)
    ]


def _meets(a: layers.Box, b: layers.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merged_groups(
    groups: list[tuple[str, dict, layers.Box]],
) -> list[tuple[list[int], layers.Box]]:
    """``groups`` (with picture boxes) joined where their boxes meet, until none do: each
    joined group's members (indexes, in drawing order) and the union of their boxes."""
    merged: list[tuple[list[int], layers.Box]] = [([k], g[2]) for k, g in enumerate(groups)]
    joined = True
    while joined:
        joined = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                (ma, a), (mb, b) = merged[i], merged[j]
                if _meets(a, b):
                    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    merged[i] = (sorted(ma + mb), box)
                    del merged[j]
                    joined = True
                    break
            if joined:
                break
    return merged


def _rocket_geometry(
    d: ImageDraw.ImageDraw, view: dict
) -> tuple[tuple[float, float, float, float], Image.Image, float, float] | None:
    """Where the rocket is drawn (None: not drawn): its gold frame (board units), its
    sprite and the sprite's centre (picture pixels)."""
    sp = _rocket_space(view)
    if sp is None or view.get("over"):
        return None
    u = view.get("ufo")
    x0, y0, x1, y1 = cell_box(sp)
    frame = (x0 - 4, y0 - 4, x1 + 4, y1 + 4)
    direction = "left" if _rc(sp)[0] == 1 else "right"
    cx = (x0 + x1) / 2
    if sp == DEEP:
        ufo_here = isinstance(u, dict) and u.get("space") == DEEP
        cx = x0 + 44 if ufo_here else cx
    cy: float = y0 + (56 if sp == DEEP else 47)
    if isinstance(d, kit.ScaledDraw):  # the board drawn at another size
        cx, cy = d.pt(cx, cy)
        spr = _rocket_at(round(60 * d.k), direction)
    else:
        spr = ROCKET_SPRITES[direction]
    return frame, spr, cx, cy


def _rocket_box(
    d: ImageDraw.ImageDraw,
    geo: tuple[tuple[float, float, float, float], Image.Image, float, float],
) -> tuple[float, float, float, float]:
    """The box of the picture the rocket (:func:`_rocket_geometry`) is drawn in."""
    frame, spr, cx, cy = geo
    if isinstance(d, kit.ScaledDraw):
        fx0, fy0 = d.pt(frame[0], frame[1])
        fx1, fy1 = d.pt(frame[2], frame[3])
    else:
        fx0, fy0, fx1, fy1 = frame
    sx, sy = round(cx - spr.width / 2), round(cy - spr.height / 2)
    return (min(fx0, sx), min(fy0, sy), max(fx1, sx + spr.width), max(fy1, sy + spr.height))


def _draw_rocket(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict
) -> tuple[float, float, float, float] | None:
    """The rocket: a gold frame round its space and the rocket flying along the track. The
    box of the picture it was drawn in (None: not drawn)."""
    geo = _rocket_geometry(d, view)
    if geo is None:
        return None
    frame, spr, cx, cy = geo
    d.rounded_rectangle(frame, radius=15, outline=GOLD, width=5)
    paste_center(img, spr, cx, cy)
    return _rocket_box(d, geo)


def _objective_claims(d: ImageDraw.ImageDraw, view: dict, n: int) -> None:
    objs = view.get("objectives") or {}
    for k, obj in enumerate(OBJECTIVES):
        seat = objs.get(obj)
        box = _objective_box(k)
        if _seat_ok(seat, n):
            d.rounded_rectangle(box, radius=10, outline=kit.seat_color(seat), width=4)
            kit.seat_token(d, (box[2] - 20, box[1] + 22), 13, seat)


def _draw_legend(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], view: dict, lang: str
) -> tuple[float, float]:
    """What every mark on the table means, drawn in ``box`` (picture pixels) with each
    table: the board's marks, then those of the variants in play. Returns the legend's
    bottom and the right end of its widest entry."""
    t = i18n.t
    items: list[tuple[Any, str]] = [
        (lambda dr, xy, s: kit.die(dr, xy, s, "A"), t("mlem.render.legend.afterburner", lang)),
        (_moon_icon, t("mlem.render.legend.moon", lang)),
        (_planet_icon, t("mlem.render.legend.planet", lang)),
        (
            lambda dr, xy, s: satellite(dr, xy[0] + s / 2, xy[1] + s / 2, s),
            t("mlem.render.legend.satellite", lang),
        ),
        (
            lambda dr, xy, s: star(dr, xy[0] + s / 2, xy[1] + s / 2, s * 0.45),
            t("mlem.render.legend.commander", lang),
        ),
    ]
    if not view.get("over"):
        items.append(
            (
                lambda dr, xy, s: rocket(dr, xy[0] + s / 2, xy[1] - 1, s + 2),
                t("mlem.render.legend.first", lang),
            )
        )
    if isinstance(view.get("ufo"), dict):
        items.append(
            (
                lambda dr, xy, s: ufo(dr, xy[0] + s / 2, xy[1] + s / 2 + 2, s * 1.2),
                t("mlem.render.legend.ufo", lang),
            )
        )
    recon = view.get("recon")
    if isinstance(recon, dict) and not all((recon.get("slots") or {}).values()):
        items.append(
            (
                lambda dr, xy, s: recon_tile(dr, xy[0], xy[1], s, None),
                t("mlem.render.legend.recon_slot", lang),
            )
        )
    if isinstance(view.get("missions"), dict):
        items.append(
            (
                lambda dr, xy, s: _mission_icon(dr, xy[0] + 2, xy[1] + 2, s - 4),
                t("mlem.render.legend.missions", lang),
            )
        )
    x0, y0, x1, _ = box
    f = font(_least(d), "cond")
    bottom = kit.legend(d, (x0, y0), items, f, max_width=x1 - x0, icon=22, gap=22)
    return bottom, x0 + max(22 + 6 + f.getlength(label) for _, label in items)


def _panels(out: Image.Image, x: float, y: float) -> ImageDraw.ImageDraw:
    """A drawer whose panel coordinates (``PX0``.., any ``y``) land ``PANEL_K`` times bigger
    with the panel's left edge at ``x`` and panel coordinate ``y`` at picture row ``y``."""
    return kit.ScaledDraw(out, PANEL_K, (PX0 - x / PANEL_K, y - y / PANEL_K))


def _build_out_base(lang: str) -> Image.Image:
    out = kit.star_field((OUT_W, OUT_H), seed=2076)
    board = _base(lang).crop((0, HEADER_H, BOARD_X1, H))
    out.paste(
        board.resize((round(BOARD_X1 * BOARD_K), BOARD_H), Image.Resampling.LANCZOS),
        (0, OUT_HEADER_H),
    )
    return out


_out_base = kit.per_language(_build_out_base)  # the static board, already shrunk


def _seats(view: dict, names: Sequence[str]) -> int:
    """How many seats the table shows."""
    n = int(view.get("players") or len(view.get("scores") or []) or len(names) or 2)
    return max(1, min(n, len(kit.PALETTE)))


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    """The whole table, RGB (what :func:`_mapped_table` makes part by part)."""
    n = _seats(view, names)
    out = _out_base(lang).copy()
    _draw_header(kit.ScaledDraw(out, HEAD_K), view, lang, OUT_W / HEAD_K)
    d = kit.ScaledDraw(out, BOARD_K, (0, HEADER_H - OUT_HEADER_H / BOARD_K))
    _objective_claims(d, view, n)
    _draw_track_tokens(out, d, view, n)
    top = OUT_HEADER_H + 8
    side = _panels(out, PANEL_X0, top)
    y: float = top
    y = _draw_players(side, y, view, names, lang, n)
    if not view.get("over"):
        y = _draw_crew(side, y, view, names, lang, n)
        y = _draw_dice(side, y, view, lang)
    else:
        y = _draw_final(side, y, view, lang, n)
    below = OUT_HEADER_H + BOARD_H + 6
    lx = 14.0
    if _draw_variants(_panels(out, 14, below), below, view, names, lang) > below:
        lx += (PX1 - PX0) * PANEL_K + 8  # the legend goes right of the variants panel
    _draw_legend(ImageDraw.Draw(out), (lx, below + 4, PANEL_X0 - 12, OUT_H - 6), view, lang)
    return out


#: The private picture's fills: missions (done, to do) and their target spaces.
MISSION_DONE_RGB: RGB = (30, 66, 44)
MISSION_TODO_RGB: RGB = (60, 54, 30)
TARGET_DONE_RGB: RGB = (40, 110, 64)
TARGET_TODO_RGB: RGB = (120, 96, 20)


def _exact_colours() -> list[RGB]:
    """The colours drawn over the static board, kept exact in the PNG palette: seats (so
    a seat's colour never drifts into another's), the theme and this board's own."""
    out: list[RGB] = [p.rgb for p in kit.PALETTE]
    out += [kit.BG, kit.BG2, kit.PANEL, kit.PANEL_EDGE, kit.INK, kit.MUTED, kit.FAINT]
    out += [kit.GOLD, kit.RED, kit.GREEN, kit.DARK, (0, 0, 0), (255, 255, 255)]
    out += [MOON_RGB, CELL_RGB, CELL_EARLY_RGB, CELL_EDGE, PATH_RGB, DEEP_RGB, UFO_RGB]
    out += [RED_SOFT, GREEN_SOFT, *PLANET_RGB.values(), *RECON_RGB.values()]
    out += list(PHASE_RGB.values())
    out += [MISSION_DONE_RGB, MISSION_TODO_RGB, TARGET_DONE_RGB, TARGET_TODO_RGB]  # private
    return out


#: One palette for every MLEM picture (the table, the private picture), made once: mapping
#: onto it is faster than finding a palette for each picture, and keeps every seat colour
#: exact (the recap GIF too).
_PALETTE = kit.palette_for(_out_base(i18n.DEFAULT), _exact_colours())


# ----------------------------------------------------------------------------- by parts

#: The static board mapped onto the palette, once per language.
_out_base_mapped = kit.per_language(lambda lang: layers.mapped(_out_base(lang), _PALETTE))

#: Where the table's parts are drawn, each alone (picture pixels): the header strip, the
#: board (left) and the side column (right) under it, and the variants and legend under
#: the board.
_SPLIT = PANEL_X0 - 6
_BELOW = OUT_HEADER_H + BOARD_H + 6
_HEADER_AREA: layers.Box = (0, 0, OUT_W, OUT_HEADER_H)
_BOARD_AREA: layers.Box = (0, OUT_HEADER_H, _SPLIT, _BELOW)
_SIDE_AREA: layers.Box = (_SPLIT, OUT_HEADER_H, OUT_W, OUT_H)
_UNDER_AREA: layers.Box = (0, _BELOW, _SPLIT, OUT_H)

#: The parts kept, by what they show: header, the board's token groups (small boxes, a few
#: KB each), the rocket, side panels, variants and legend.
_HEADERS = layers.tile_cache(32)
_BOARDS = layers.tile_cache(256)
_ROCKETS = layers.tile_cache(64)
_PANELS = layers.tile_cache(48)
_ROWS = layers.tile_cache(128)
#: The side panels' frames as drawn (RGB, not mapped): the background a row is drawn on.
_FRAMES = layers.tile_cache(8)
_UNDERS = layers.tile_cache(32)


def _only(view: dict, keys: Sequence[str]) -> dict:
    """The part of ``view`` a part of the table is drawn from (what its key holds)."""
    return {k: view[k] for k in keys if k in view}


def _part(value: object, keys: Sequence[str]) -> object:
    """``value`` with only ``keys`` if it is a dict, else as it is."""
    return _only(value, keys) if isinstance(value, dict) else value


def _key(*parts: object) -> bytes:
    return pickle.dumps(parts, protocol=5)


def _panel_box(x: float, top: float, y0: float, y1: float, area: layers.Box) -> layers.Box:
    """The picture box of a panel from panel row ``y0`` to ``y1``, ``PANEL_K`` times bigger
    from picture row ``top`` (see :func:`_panels`), its left edge at ``x``."""
    k = PANEL_K
    box = (x, top + (y0 - top) * k, x + (PX1 - PX0) * k, top + (y1 - top) * k)
    return layers.box_within(box, 2, area)


def _framed_part(
    c: layers.PaletteCanvas,
    name: str,
    y: float,
    top: float,
    key: tuple[object, ...],
    frame: Callable[[ImageDraw.ImageDraw], float],
    rows: list[tuple[bytes, Callable[[ImageDraw.ImageDraw, float], None]]],
    row_h: float,
    lead: float,
    after: float,
) -> float:
    """A panel of the side column from panel row ``y`` whose rows are kept each on its own
    (a move changes a row or two): its frame (``frame(drawer)`` draws it without its rows
    and returns the first row's panel row; ``key``: what it is drawn from) and its rows
    (``(key, draw(drawer, row))`` each, ``row_h`` apart, each drawn within ``lead`` above its
    row to ``lead`` above the next). ``after``: the next panel's row, returned. A row is
    drawn on the frame (on the RGB picture first, once: pasted from :data:`_FRAMES`, else
    drawn)."""
    framed = False
    frame_key = _key(name, y, *key)

    def draw_frame(rgb: Image.Image) -> tuple[layers.Box, float]:
        nonlocal framed
        framed = True
        first = frame(_panels(rgb, PANEL_X0, top))
        box = _panel_box(PANEL_X0, top, y, after - 10, _SIDE_AREA)
        _FRAMES.store(frame_key, (rgb.crop(box), box))
        return box, first

    first = float(c.tile(_PANELS, frame_key, draw_frame))
    for k, (row_key, draw) in enumerate(rows):
        ry = first + k * row_h

        def draw_row(
            rgb: Image.Image, draw: Any = draw, ry: float = ry
        ) -> tuple[layers.Box, None]:
            nonlocal framed
            d = _panels(rgb, PANEL_X0, top)
            y0 = math.floor(top + (ry - lead - top) * PANEL_K)
            y1 = math.floor(top + (ry + row_h - lead - top) * PANEL_K)
            box = layers.box_within(
                (PANEL_X0, y0, PANEL_X0 + (PX1 - PX0) * PANEL_K, y1 - 1), 0, _SIDE_AREA
            )
            if not framed:  # the frame under the row's box (the row draws only there)
                kept = _FRAMES.lookup(frame_key)
                if kept is not None:
                    fx0, fy0, fx1, fy1 = kept[1]
                    x0, y0 = max(box[0], fx0), max(box[1], fy0)
                    x1, y1 = min(box[2], fx1), min(box[3], fy1)
                    if x0 < x1 and y0 < y1:
                        rgb.paste(kept[0].crop((x0 - fx0, y0 - fy0, x1 - fx0, y1 - fy0)), (x0, y0))
                else:
                    frame(d)
                    c.drew(_panel_box(PANEL_X0, top, y, after - 10, _SIDE_AREA))
                    framed = True
            draw(d, ry)
            return box, None

        # (only the last row meets the frame's bottom corners: the others are the same
        # whatever the frame's height, a crew growing by one member)
        below = key if k == len(rows) - 1 else None
        c.tile(_ROWS, _key(name, y, k, row_key, below), draw_row)
    return after


def _side_part(
    c: layers.PaletteCanvas, name: str, y: float, top: float, key: tuple[object, ...], draw: Any
) -> float:
    """A panel of the side column from panel row ``y``: ``draw(side drawer, y)`` returns the
    next panel's row (10 under this one's bottom)."""

    def drawn(rgb: Image.Image) -> tuple[layers.Box | None, float]:
        after = float(draw(_panels(rgb, PANEL_X0, top), y))
        if after <= y:
            return None, after
        return _panel_box(PANEL_X0, top, y, after - 10, _SIDE_AREA), after

    return float(c.tile(_PANELS, _key(name, y, *key), drawn))


def _mapped_table(view: dict, names: Sequence[str], lang: str) -> layers.PaletteCanvas:
    """The table mapped onto the palette, part by part (a :class:`layers.PaletteCanvas`,
    drawn on the board's scratch copy, given back once drawn, or on failure): pixel for
    pixel ``_draw_table`` mapped whole (tests/render/test_mlem_parts.py)."""
    c = layers.PaletteCanvas(_out_base(lang), _out_base_mapped(lang), _PALETTE, scratch=True)
    try:
        _draw_parts(c, view, names, lang)
    finally:
        c.done()
    return c


def _draw_parts(c: layers.PaletteCanvas, view: dict, names: Sequence[str], lang: str) -> None:
    """The table's parts on ``c``."""
    n = _seats(view, names)
    hv = _only(view, ("round", "phase", "over", "last_voyage", "disasters", "disaster_limit"))

    def header(rgb: Image.Image) -> tuple[layers.Box, None]:
        _draw_header(kit.ScaledDraw(rgb, HEAD_K), hv, lang, OUT_W / HEAD_K)
        return _HEADER_AREA, None

    c.tile(_HEADERS, _key(lang, hv), header)

    bv = _only(view, ("objectives", "moons", "planets", "deep_space", "over"))
    bv["recon"] = _part(view.get("recon"), ("slots",))
    bv["ufo"] = _part(view.get("ufo"), ("space",))
    bv["rocket"] = {"space": (view.get("rocket") or {}).get("space")}

    # The board's tokens without the rocket (where it is matters only beside a UFO) in
    # groups, each a part of its own (a move changes one or two), then the rocket over them:
    # the rocket moving redraws its box, not the board.
    av = {**bv, "rocket": bv["rocket"] if isinstance(bv.get("ufo"), dict) else {}}
    bd = kit.ScaledDraw(c.base, BOARD_K, (0, HEADER_H - OUT_HEADER_H / BOARD_K))
    groups = _group_boxes(bd, av, n)
    units = [
        (box, [groups[m] for m in members], _key(lang, n, [groups[m][:2] for m in members]))
        for members, box in _merged_groups(groups)
    ]

    drawn: set[layers.Box] = set()  # the units drawn on the RGB picture (once each)

    def draw_unit(rgb: Image.Image, members: list, box: layers.Box) -> None:
        if box in drawn:
            return
        drawn.add(box)
        d = kit.ScaledDraw(rgb, BOARD_K, (0, HEADER_H - OUT_HEADER_H / BOARD_K))
        for _, gv, _ in members:
            _draw_group(d, gv, n)

    for box, members, key in units:

        def unit(
            rgb: Image.Image, members: list = members, box: layers.Box = box
        ) -> tuple[layers.Box, None]:
            draw_unit(rgb, members, box)
            return box, None

        c.tile(_BOARDS, key, unit)

    geo = _rocket_geometry(bd, bv)
    if geo is not None:
        rbox = layers.box_within(_rocket_box(bd, geo), 3, _BOARD_AREA)
        beneath = [(box, members, key) for box, members, key in units if _meets(box, rbox)]
        rv = _only(bv, ("rocket", "over", "ufo"))

        def rocket(rgb: Image.Image) -> tuple[layers.Box, None]:
            for box, members, _ in beneath:
                draw_unit(rgb, members, box)
                c.drew(box)
            _draw_rocket(
                rgb, kit.ScaledDraw(rgb, BOARD_K, (0, HEADER_H - OUT_HEADER_H / BOARD_K)), bv
            )
            return rbox, None

        c.tile(_ROCKETS, _key(lang, n, rv, [key for _, _, key in beneath]), rocket)

    top = OUT_HEADER_H + 8
    y: float = top
    over = view.get("over")
    y = _framed_part(
        c, "players", y, top, (lang, n), lambda d: _players_frame(d, y, lang, n),
        [(_key(lang, row), partial(_player_row, row=row, lang=lang))
         for row in _player_rows(view, names, lang, n)],
        PLAYER_ROW_H, 2, _players_after(y, n),
    )  # fmt: skip
    if not over:
        crew = _crew_rows(view, names, lang, n)
        y = _framed_part(
            c, "crew", y, top, (lang, len(crew)), lambda d: _crew_frame(d, y, lang, len(crew)),
            [(_key(row), partial(_crew_row, row=row)) for row in crew],
            CREW_ROW_H, 3, _crew_after(y, len(crew)),
        )  # fmt: skip
        dv = _only(view, ("dice",))
        dv["rocket"] = bv["rocket"]
        y = _side_part(
            c, "dice", y, top, (lang, dv), lambda d, y: _draw_dice(d, y, dv, lang)
        )  # fmt: skip
    else:
        fv = _only(view, ("result",))
        y = _side_part(
            c, "final", y, top, (lang, n, fv), lambda d, y: _draw_final(d, y, fv, lang, n)
        )  # fmt: skip

    vv = _only(view, ("expedition", "ufo", "recon"))
    lv: dict[str, Any] = {"over": over}
    for name in ("ufo", "missions"):
        if isinstance(view.get(name), dict):
            lv[name] = {}
    recon = view.get("recon")
    if isinstance(recon, dict):
        lv["recon"] = {"slots": {k: bool(v) for k, v in (recon.get("slots") or {}).items()}}

    def under(rgb: Image.Image) -> tuple[layers.Box, None]:
        """The variants panel and the legend: one part (a variant's line can run over into
        the legend)."""
        after = _draw_variants(_panels(rgb, 14, _BELOW), _BELOW, vv, names, lang)
        lx = 14.0
        if after > _BELOW:
            lx += (PX1 - PX0) * PANEL_K + 8  # the legend goes right of the variants panel
        box = (lx, _BELOW + 4, PANEL_X0 - 12, OUT_H - 6)
        bottom, right = _draw_legend(ImageDraw.Draw(rgb), box, lv, lang)
        panel_bottom = _BELOW + (after - 10 - _BELOW) * PANEL_K
        drawn = (14 - 3, _BELOW, max(box[2], right), max(bottom, panel_bottom))
        return layers.box_within(drawn, 2, _UNDER_AREA), None

    c.tile(_UNDERS, _key(lang, vv, lv), under)


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is never read."""
    view, lang = kit.public(view), _lang(lang)
    if kit.watched():  # a test watching the RGB pictures encoded: the whole picture
        return kit.picture_png(_draw_table, _PALETTE, view, names, lang)
    with kit.LOCK:
        c = _mapped_table(view, names, lang)
    return kit.png_of_mapped(c.base_mapped, parts=c.parts, rows=c.rows, pixels=c.pixels)
