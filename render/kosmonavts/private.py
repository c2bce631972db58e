"""Kosmonavts pictures: one seat's private picture (the order's close-up and the missions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from PIL import Image, ImageDraw

from render import kit
from render.kit import BG, FAINT, GOLD, GREEN, INK, MUTED, PANEL, PANEL_EDGE, font, text
from render.kosmonavts.base import _PALETTE, _TABLE_LAYER, _ZOOM_LAYER, _draw_bodies_and_ships
from render.kosmonavts.geometry import (
    ARROW,
    BODY_RGB,
    DANGER_RGB,
    DIRS,
    FUEL_RGB,
    HYPER_ARROW,
    HYPER_RGB,
    TABLE_GEO,
    ZOOM_GEO,
    Geo,
    _least,
    _sizes,
)
from render.kosmonavts.glyphs import (
    _legend_icon_danger,
    _legend_icon_next,
    arrow,
    body_disc,
    cube,
    shield_icon,
    tank,
)
from render.kosmonavts.table import _chip
from render.kosmonavts.view import (
    _body_name,
    _hex,
    _is_int,
    _lang,
    _name,
    _players,
    _seat_ok,
    _ships,
    _speed,
    t,
)

# ----------------------------------------------------------------------------- private


def _has_private(priv: Any) -> TypeGuard[dict]:
    if not isinstance(priv, dict):
        return False
    return bool(priv.get("missions") or priv.get("dealt") or isinstance(priv.get("preview"), dict))


def render_private(view: dict, names: list[str], lang: str) -> bytes | None:
    """PNG bytes of one seat's secrets: the order being composed (a close-up of the ship's
    path and end hex, its danger, fuel and shields after) and the missions. ``None`` when the
    view holds nothing private."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    return kit.picture_png(_draw_private, _PALETTE, view, priv, names, _lang(lang))


PW = 1100
MAP_W, MAP_H = 640, 620
TILE_H = 66  # a mission tile: its name on one or two lines, and whether it is met


def _crop(layer: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """``layer`` cut to ``box``; whatever lies outside the layer is empty sky."""
    x0, y0, x1, y1 = box
    if x0 >= 0 and y0 >= 0 and x1 <= layer.width and y1 <= layer.height:
        return layer.crop(box)
    out = Image.new("RGB", (x1 - x0, y1 - y0), BG)
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(layer.width, x1), min(layer.height, y1)
    if sx1 > sx0 and sy1 > sy0:
        out.paste(layer.crop((sx0, sy0, sx1, sy1)), (sx0 - x0, sy0 - y0))
    return out


def _close_up(view: dict, prev: dict, seat: int, n: int, lang: str) -> Image.Image:
    """The board around the ship's start and end hexes, as large as the path allows."""
    ship = _ships(view, n)[seat] if _seat_ok(seat, n) else {}
    start = _hex(ship.get("pos"))
    path = [h for h in (_hex(p) for p in prev.get("path") or []) if h is not None]
    end = _hex(prev.get("end_hex"))
    pts = [p for p in [start, *path, end] if p is not None] or [(0, 0)]
    # the close-up scale if the whole path fits, else the table's scale
    for layer, geo in ((_ZOOM_LAYER, ZOOM_GEO), (_TABLE_LAYER, TABLE_GEO)):  # noqa: B007
        xy = [geo.px(p) for p in pts]
        bx0 = min(x for x, _ in xy) - 3 * geo.s
        bx1 = max(x for x, _ in xy) + 3 * geo.s
        by0 = min(y for _, y in xy) - 3 * geo.s
        by1 = max(y for _, y in xy) + 3 * geo.s
        if bx1 - bx0 <= MAP_W and by1 - by0 <= MAP_H:
            break
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    ox, oy = round(cx - MAP_W / 2), round(cy - MAP_H / 2)
    img = _crop(layer, (ox, oy, ox + MAP_W, oy + MAP_H))
    g = geo.shifted(-ox, -oy)
    s = g.s
    avoid = []
    for h in (start, end):
        if h is not None:
            c = g.px(h)
            avoid.append((c[0] - s * 1.3, c[1] - s * 1.3, c[0] + s * 1.3, c[1] + s * 1.3))
    _draw_bodies_and_ships(
        img, g, view, n, lang, (0, 0, MAP_W, MAP_H), show_drift=False, avoid=avoid
    )
    d = ImageDraw.Draw(img)
    danger = str(prev.get("danger") or "none")
    col = DANGER_RGB.get(danger, GOLD)
    pc = kit.seat_color(seat)
    action = prev.get("action")
    if action == "fly" and len(path) >= 2:
        line = [g.px(p) for p in path]
        d.line(line, fill=(0, 0, 0), width=max(5, round(s / 3.5)), joint="curve")
        d.line(line, fill=pc, width=max(3, round(s / 6)), joint="curve")
        for p in line[1:-1]:
            rr = max(3.0, s * 0.14)
            d.ellipse((p[0] - rr, p[1] - rr, p[0] + rr, p[1] + rr), fill=pc, outline=(0, 0, 0))
        arrow(d, line[-2], line[-1], pc, max(3, round(s / 6)), s * 0.5)
    elif action == "evac" and start is not None and end is not None:
        col = DANGER_RGB["sun"]
        arrow(d, g.px(start), g.px(end), col, max(3, round(s / 6)), s * 0.5, dashed=True)
    if end is not None and action != "stay":
        c = g.px(end)
        d.polygon(g.corners(end, 0.98), outline=col, width=max(3, round(s / 7)))
        rr = s * 1.25
        d.ellipse(
            (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr), outline=col, width=max(2, round(s / 10))
        )
        if danger in ("sun", "off_board", "danger_no_shield"):
            k = s * 0.55
            w = max(4, round(s / 6))
            d.line((c[0] - k, c[1] - k, c[0] + k, c[1] + k), fill=col, width=w)
            d.line((c[0] - k, c[1] + k, c[0] + k, c[1] - k), fill=col, width=w)
        elif action == "fly" and not (prev.get("lands_on") or prev.get("phase4_body")):
            pk = kit.PALETTE[seat % len(kit.PALETTE)]
            kit.shape(d, c, s * 0.45, pk.shape, fill=kit.blend(pc, BG, 0.45), outline=pc, width=2)
    if start is not None:
        c = g.px(start)
        rr = s * 1.0
        d.ellipse((c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr), outline=pc, width=3)
    d.rectangle((0, 0, MAP_W - 1, MAP_H - 1), outline=PANEL_EDGE, width=2)
    return img


def _close_up_legend(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], seat: int, lang: str
) -> None:
    """What the close-up's marks mean, on one line under it."""
    pc = kit.seat_color(seat) if seat >= 0 else INK

    def path(dr: ImageDraw.ImageDraw, p: tuple[float, float], sz: float) -> None:
        arrow(dr, (p[0], p[1] + sz / 2), (p[0] + sz, p[1] + sz / 2), pc, 3, sz * 0.45)

    def end(dr: ImageDraw.ImageDraw, p: tuple[float, float], sz: float) -> None:
        g = Geo(sz * 0.5, p[0] + sz / 2, p[1] + sz / 2)
        dr.polygon(g.corners((0, 0), 0.98), outline=DANGER_RGB["none"], width=3)

    items = [
        (path, t("kosmonavts.render.private.legend_path", lang)),
        (end, t("kosmonavts.render.private.end", lang)),
        (_legend_icon_next, t("kosmonavts.render.legend.next", lang)),
        (_legend_icon_danger, t("kosmonavts.render.legend.danger", lang)),
    ]
    f = font(_least(d), "cond")
    kit.legend(d, xy, items, f, max_width=PW - 32, icon=20, gap=26)


def _draw_private(view: dict, priv: dict, names: Sequence[str], lang: str) -> Image.Image:
    n = _players(view, names)
    seat = kit.int_of(priv.get("seat"), -1)
    has_seat = _seat_ok(seat, n)
    prev = priv.get("preview") if isinstance(priv.get("preview"), dict) else None
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [m for m in priv.get("dealt") or [] if isinstance(m, dict)]
    kept = {k for k in priv.get("kept") or [] if _is_int(k)}
    tiles = dealt or missions
    top_h = 74
    if prev:
        ph = top_h + MAP_H + 16 + 34  # the close-up, and its legend under it
    else:
        rows = (len(tiles) + 1) // 2 if tiles else 1
        ph = top_h + 56 + rows * (TILE_H + 8) + 16
    img = kit.star_field((PW, ph), seed=9)
    d = ImageDraw.Draw(img)

    # title
    who = _name(names, seat, lang) if has_seat else ""
    title = (
        t("kosmonavts.render.private.title", lang, name=who)
        if who
        else t("kosmonavts.render.private.anon", lang)
    )
    mark = (lambda cy: kit.seat_token(d, (36, cy), 15, seat)) if has_seat else None
    kit.title_bar(d, PW, 62, title, room=PW - 380, text_x=62 if has_seat else 24, token=mark)
    rnd = view.get("round")
    if _is_int(rnd):
        lim = view.get("round_limit")
        s = t("kosmonavts.render.round", lang, n=rnd, limit=lim if _is_int(lim) else "?")
        text(d, (PW - 24, 34), s, font(20), fill=MUTED, anchor="rm")

    y = top_h
    if prev is None:
        _draw_missions(d, (16, y, PW - 16, ph - 16), tiles, kept, bool(dealt), lang, 2)
        return img
    img.paste(_close_up(view, prev, seat if has_seat else -1, n, lang), (16, y))
    _close_up_legend(d, (16, y + MAP_H + 8), seat if has_seat else -1, lang)
    x0 = 16 + MAP_W + 16
    mis_h = 52 + max(1, len(tiles)) * (TILE_H + 6)
    _draw_order_panel(
        d,
        (x0, y, PW - 16, y + MAP_H - mis_h - 12),
        view,
        priv,
        prev,
        seat if has_seat else -1,
        n,
        lang,
    )
    _draw_missions(
        d, (x0, y + MAP_H - mis_h, PW - 16, y + MAP_H), tiles, kept, bool(dealt), lang, 1
    )
    return img


def _draw_order_panel(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict,
    priv: dict,
    prev: dict,
    seat: int,
    n: int,
    lang: str,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    ship = _ships(view, n)[seat] if _seat_ok(seat, n) else {}
    x = x0 + 18
    w = x1 - x0 - 36
    y = y0 + 12
    final = priv.get("final")
    if final:
        chip, ccol = t("kosmonavts.render.private.confirmed", lang), GREEN
    else:
        chip, ccol = t("kosmonavts.render.private.draft", lang), GOLD
    cf = font(max(15, _least(d)))
    cw = cf.getlength(chip) + 18
    _chip(d, x + w - cw, y - 2, chip, ccol, cw)
    head, hf = kit.fit_font(
        t("kosmonavts.render.private.order", lang), w - cw - 10, _sizes(d, 20, 19, 18, 17)
    )
    text(d, (x, y), head, hf, fill=GOLD)
    y += 36
    order = [o for o in priv.get("order") or [] if isinstance(o, dict) and o.get("dir") in DIRS]
    limit = ship.get("cube_limit") if _is_int(ship.get("cube_limit")) else 3
    action = prev.get("action")
    if order:
        cx = x
        sz = 34
        for o in order[:8]:
            is_hyper = bool(o.get("hyper"))
            cube(d, cx, y, sz, HYPER_RGB if is_hyper else FUEL_RGB)
            glyph = HYPER_ARROW[o["dir"]] if is_hyper else ARROW[o["dir"]]
            text(d, (cx + sz / 2, y + sz / 2 + 1), glyph, font(22), fill=kit.DARK, anchor="mm")
            cx += sz + 6
        s = t("kosmonavts.render.private.cubes", lang, n=len(order), limit=limit)
        text(d, (x + w, y + sz / 2), s, font(17), fill=MUTED, anchor="rm")
        glyphs = dict.fromkeys(
            HYPER_ARROW[o["dir"]] if o.get("hyper") else ARROW[o["dir"]] for o in order[:8]
        )
        key = "arrows_hyper" if any(o.get("hyper") for o in order[:8]) else "arrows"
        s = t(f"kosmonavts.render.private.{key}", lang, arrows=" ".join(glyphs))
        y += sz + 6
        for line in kit.wrap(s, font(_least(d), "cond"), w, 2):
            text(d, (x, y), line, font(_least(d), "cond"), fill=MUTED)
            y += _least(d) + 4
        y -= sz + 6
    else:
        text(
            d,
            (x, y + 17),
            t("kosmonavts.render.private.no_cubes", lang),
            font(18),
            fill=MUTED,
            anchor="lm",
        )
    y += 44
    if priv.get("converted"):
        text(
            d, (x, y), "✓ " + t("kosmonavts.render.private.converted", lang), font(17), fill=GREEN
        )
        y += 26

    # what happens
    d.line((x, y, x + w, y), fill=PANEL_EDGE, width=1)
    y += 10
    if action == "stay":
        key = "stayfull" if final == "stayfull" else "stay"
        head = t(f"kosmonavts.render.private.{key}", lang)
        hcol = DANGER_RGB["none"]
    elif action == "evac":
        last = ship.get("last_visited")
        where = _body_name(str(last), lang) if last in BODY_RGB else "?"
        head = t("kosmonavts.render.private.evac", lang, body=where)
        hcol = DANGER_RGB["sun"]
    else:
        danger = str(prev.get("danger") or "none")
        head = t(f"kosmonavts.danger.{danger}", lang)
        hcol = DANGER_RGB.get(danger, GOLD)
    hf = font(24)
    for line in kit.wrap(head, hf, w, 2):
        text(d, (x, y), line, hf, fill=hcol, shadow=2)
        y += 32
    for key, body in (
        ("lands_on", prev.get("lands_on")),
        ("phase4", prev.get("phase4_body")),
    ):
        if body in BODY_RGB:
            s = t(f"kosmonavts.render.private.{key}", lang, body=_body_name(body, lang))
            d.ellipse((x, y + 3, x + 16, y + 19), fill=BODY_RGB[body], outline=(0, 0, 0))
            for line in kit.wrap(s, font(17), w - 24, 2):
                text(d, (x + 24, y), line, font(17), fill=INK)
                y += 24
    y += 6

    # after the order
    d.line((x, y, x + w, y), fill=PANEL_EDGE, width=1)
    y += 10
    fuel = kit.int_of(prev.get("fuel"))
    hyper = kit.int_of(prev.get("hyper"))
    text(d, (x, y), t("kosmonavts.render.private.after", lang), font(18), fill=MUTED)
    s = t("kosmonavts.render.private.tank", lang, fuel=fuel, hyper=hyper)
    text(d, (x + w, y + 2), s, font(max(16, _least(d)), "cond"), fill=INK, anchor="ra")
    y += 30
    tank(d, x, y, w, 28, fuel, hyper)
    y += 40
    sh = kit.int_of(prev.get("shields_after"))
    for k in range(3):
        shield_icon(d, x + k * 30, y, 28, k < sh)
    shields = t("kosmonavts.render.private.shields", lang)
    text(d, (x + 96, y + 14), shields, font(max(16, _least(d))), fill=INK, anchor="lm")
    spd = _speed(prev.get("velocity"))
    text(
        d,
        (x + w, y + 14),
        t("kosmonavts.render.private.speed", lang, n=spd),
        font(18),
        fill=INK,
        anchor="rm",
    )


def _draw_missions(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    tiles: list[dict],
    kept: set[int],
    choosing: bool,
    lang: str,
    cols: int,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    head = "kosmonavts.render.private.choose" if choosing else "kosmonavts.render.private.missions"
    hs, hf = kit.fit_font(t(head, lang), x1 - x0 - 36, (20, 18, 16))
    text(d, (x0 + 18, y0 + 12), hs, hf, fill=GOLD)
    if not tiles:
        text(
            d, (x0 + 18, y0 + 52), t("kosmonavts.render.private.none", lang), font(18), fill=FAINT
        )
        return
    gap = 12
    tw = (x1 - x0 - 36 - gap * (cols - 1)) / cols
    for k, m in enumerate(tiles):
        col_i, row = k % cols, k // cols
        tx = x0 + 18 + col_i * (tw + gap)
        ty = y0 + 44 + row * (TILE_H + (8 if cols > 1 else 6))
        body = m.get("body")
        done = m.get("done_now")
        is_kept = choosing and k in kept
        if is_kept or (not choosing and done):
            edge, fill = GREEN, (30, 66, 44)
        else:
            edge, fill = PANEL_EDGE, PANEL
        kit.rounded_box(
            d, (tx, ty, tx + tw, ty + TILE_H), radius=10, fill=fill, outline=edge, width=2
        )
        if body in BODY_RGB:
            body_disc(d, (tx + 24, ty + TILE_H / 2), 12, body)
        name = m.get("name")
        label = t(name, lang) if isinstance(name, str) and name else str(m.get("id", "?"))
        if choosing:
            status = t("kosmonavts.render.private.kept", lang) if is_kept else ""
            scol = GREEN
        else:
            status = t(f"kosmonavts.render.private.{'done' if done else 'todo'}", lang)
            scol = GREEN if done else MUTED
        least = _least(d)
        f = font(max(18, least))
        lines = kit.wrap(label, f, tw - 58, 1)
        if lines != [label]:  # too long for one line: two, condensed (the points stay)
            f = font(least, "cond")
            lines = kit.wrap(label, f, tw - 58, 2)
        rows = [(line, f, INK) for line in lines]
        if status:
            rows.append((status, font(least, "cond"), scol))
        pitch = least + 3
        ly = ty + TILE_H / 2 - pitch * (len(rows) - 1) / 2
        for line, lf, lcol in rows:
            text(d, (tx + 48, ly), line, lf, fill=lcol, anchor="lm")
            ly += pitch
