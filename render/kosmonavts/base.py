"""Kosmonavts pictures: bodies and ships on the board, and the static table (legend, compass,
board layers, palette)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import BG, FAINT, GOLD, GREEN, INK, MUTED, PANEL, PANEL_EDGE, RED, RGB, font, text
from render.kosmonavts.geometry import (
    BOARD_Y0,
    BODIES,
    BODY_KIND,
    BODY_RGB,
    CELL_RGB,
    DANGER_RGB,
    DIR_IDS,
    EMPTY_RGB,
    FUEL_RGB,
    HYPER_RGB,
    KIND_RGB,
    PHASE_RGB,
    SHIELD_RGB,
    TABLE_GEO,
    ZOOM_GEO,
    ZOOM_SIZE,
    Geo,
    H,
    Hex,
    W,
    _board_layer,
    _dir_angle,
    _least,
    dist,
)
from render.kosmonavts.glyphs import (
    _legend_icon_danger,
    _legend_icon_drift,
    _legend_icon_instructor,
    _legend_icon_marker,
    _legend_icon_next,
    _legend_icon_orbit,
    arrow,
    body_disc,
    comet_tail,
    cube,
    shield_icon,
    ship_token,
)
from render.kosmonavts.view import Boxes, _body_name, _hex, _is_int, _ships, t

# ----------------------------------------------------------------------------- board layer


def _draw_bodies_and_ships(
    img: Image.Image,
    geo: Geo,
    view: dict,
    n: int,
    lang: str,
    bounds: tuple[float, float, float, float],
    show_next: bool = True,
    show_drift: bool = True,
    avoid: Sequence[tuple[float, float, float, float]] = (),
) -> None:
    d = ImageDraw.Draw(img)
    s = geo.s
    bodies = kit.dict_of(view.get("bodies"))
    ships = _ships(view, n)
    over = bool(view.get("over"))
    sun = geo.px((0, 0))
    taken = Boxes()
    rs = s * 0.95  # sun
    taken.add((sun[0] - rs, sun[1] - rs, sun[0] + rs, sun[1] + rs))
    for box in avoid:
        taken.add(box)

    placed: dict[str, Hex] = {}
    pos: Hex | None
    for b in BODIES:
        info = bodies.get(b)
        pos = _hex(info.get("pos")) if isinstance(info, dict) else None
        if pos is not None:
            placed[b] = pos

    # where each body stops next: a light dashed ring and a thin arrow
    if show_next and not over:
        for b, pos in placed.items():
            nxt = _hex(bodies[b].get("next"))
            if nxt is None or nxt == pos:
                continue
            col = kit.blend(BODY_RGB[b], CELL_RGB, 0.35)
            a, c = geo.px(pos), geo.px(nxt)
            rr = s * 0.62
            ang = math.atan2(c[1] - a[1], c[0] - a[0])
            a2 = (a[0] + math.cos(ang) * s * 0.95, a[1] + math.sin(ang) * s * 0.95)
            c2 = (c[0] - math.cos(ang) * rr * 1.05, c[1] - math.sin(ang) * rr * 1.05)
            if math.hypot(c2[0] - a2[0], c2[1] - a2[1]) > s * 0.5:
                arrow(d, a2, c2, col, max(2, round(s / 9)), s * 0.42)
            taken.add((c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr))
            for k in range(0, 360, 40):
                d.arc(
                    (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
                    k,
                    k + 24,
                    fill=col,
                    width=max(2, round(s / 8)),
                )

    # drift arrows of flying ships (public: the roses are public)
    if show_drift and not over:
        for seat, sh in enumerate(ships):
            pos = _hex(sh.get("pos"))
            vel = _hex(sh.get("velocity"))
            if pos is None or vel is None or vel == (0, 0) or sh.get("landed"):
                continue
            end = (pos[0] + vel[0], pos[1] + vel[1])
            col = kit.blend(kit.seat_color(seat), CELL_RGB, 0.3)
            a, c = geo.px(pos), geo.px(end)
            arrow(d, a, c, col, max(2, round(s / 8)), s * 0.55, dashed=True)
            rr = s * 0.32
            d.ellipse(
                (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
                outline=col,
                width=max(2, round(s / 9)),
            )

    # bodies (those on the picture: a close-up shows only part of the board)
    rb = s * 0.9

    def shown(c: tuple[float, float]) -> bool:
        return (
            c[0] + rb >= bounds[0]
            and c[0] - rb <= bounds[2]
            and c[1] + rb >= bounds[1]
            and c[1] - rb <= bounds[3]
        )

    for b, pos in placed.items():
        info = bodies[b]
        c = geo.px(pos)
        if not shown(c):
            continue
        if BODY_KIND.get(b) == "comet":
            comet_tail(d, c, rb * 0.8, sun)
        marks = info.get("markers") or []
        label = None
        if b != "earth" and not info.get("removed") and marks and _is_int(marks[0]):
            label = str(marks[0])
        body_disc(
            d, c, rb * (0.8 if b == "halley" else 1.0), b, label, dim=bool(info.get("removed"))
        )
        taken.add((c[0] - rb, c[1] - rb, c[0] + rb, c[1] + rb))

    # ships: docked round their body, or on their hex
    groups: dict[Hex, list[int]] = {}
    for seat, sh in enumerate(ships):
        pos = _hex(sh.get("pos"))
        if pos is not None:
            groups.setdefault(pos, []).append(seat)
    body_at = {pos: b for b, pos in placed.items()}
    for pos, seats in groups.items():
        c = geo.px(pos)
        if pos in body_at:
            r_ship = s * 0.55
            ring = rb + r_ship * 0.5
            for k, seat in enumerate(seats):
                ang = math.radians(-45 - 90 * k) if k < 4 else math.radians(-45 - 90 * k + 45)
                p = (c[0] + math.cos(ang) * ring, c[1] + math.sin(ang) * ring)
                landed = bool(ships[seat].get("landed"))
                ship_token(d, p, r_ship, seat, halo=not landed)
                taken.add((p[0] - r_ship, p[1] - r_ship, p[0] + r_ship, p[1] + r_ship))
        else:
            r_ship = s * 0.75 if len(seats) == 1 else s * 0.56
            offs = [(0.0, 0.0)]
            if len(seats) == 2:
                offs = [(-0.55, 0.0), (0.55, 0.0)]
            elif len(seats) == 3:
                offs = [(0.0, -0.5), (-0.55, 0.42), (0.55, 0.42)]
            elif len(seats) >= 4:
                offs = [(-0.55, -0.5), (0.55, -0.5), (-0.55, 0.5), (0.55, 0.5)]
            for k, seat in enumerate(seats):
                ox, oy = offs[k % len(offs)]
                p = (c[0] + ox * s, c[1] + oy * s)
                ship_token(d, p, r_ship, seat)
                taken.add((p[0] - r_ship, p[1] - r_ship, p[0] + r_ship, p[1] + r_ship))

    # body names, placed where they collide least
    fsize = max(_least(d), round(s * 0.95))
    f = font(fsize)
    order = sorted(placed, key=lambda b: dist(placed[b]))
    for b in order:
        c = geo.px(placed[b])
        if not shown(c):
            continue  # the body is outside the picture (a close-up)
        name = _body_name(b, lang)
        r0 = rb * (0.8 if b == "halley" else 1.0) + 3
        out_right = c[0] >= sun[0]
        cands = [
            ((c[0] + r0, c[1]), "lm"),
            ((c[0] - r0, c[1]), "rm"),
            ((c[0], c[1] + r0), "mt"),
            ((c[0], c[1] - r0), "mb"),
            ((c[0] + r0 * 0.7, c[1] - r0 * 0.7), "lb"),
            ((c[0] + r0 * 0.7, c[1] + r0 * 0.7), "lt"),
            ((c[0] - r0 * 0.7, c[1] - r0 * 0.7), "rb"),
            ((c[0] - r0 * 0.7, c[1] + r0 * 0.7), "rt"),
        ]
        if not out_right:
            cands[0], cands[1] = cands[1], cands[0]
            cands[4], cands[6] = cands[6], cands[4]
            cands[5], cands[7] = cands[7], cands[5]
        far = r0 + s * 0.7  # a little further out, when the close places are all taken
        cands += [
            ((c[0] + (xy[0] - c[0]) * far / r0, c[1] + (xy[1] - c[1]) * far / r0), anchor)
            for xy, anchor in cands[:4]
        ]
        best = None
        for k, (xy, anchor) in enumerate(cands):
            box = d.textbbox(xy, name, font=f, anchor=anchor, stroke_width=3)
            cost = taken.overlap(box) + k * 2.0 + (40.0 if k >= 8 else 0.0)
            if (
                box[0] < bounds[0]
                or box[2] > bounds[2]
                or box[1] < bounds[1]
                or box[3] > bounds[3]
            ):
                cost += 1e6
            if best is None or cost < best[0]:
                best = (cost, xy, anchor, box)
        assert best is not None
        _, xy, anchor, box = best
        taken.add(box)
        info = bodies[b]
        col = kit.blend(BODY_RGB[b], INK, 0.35)
        if info.get("removed"):
            col = MUTED
        text(d, xy, name, f, fill=col, anchor=anchor, outline=3, outline_fill=(6, 8, 20))


# ----------------------------------------------------------------------------- table base


def _draw_compass(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, lang: str) -> None:
    cx, cy = c
    g = Geo(r * 0.3, cx, cy)
    d.polygon(g.corners((0, 0)), fill=PANEL, outline=PANEL_EDGE, width=2)
    f = font(_least(d))
    for dname in DIR_IDS:
        ang = _dir_angle(dname)
        a = (cx + math.cos(ang) * r * 0.3, cy + math.sin(ang) * r * 0.3)
        b = (cx + math.cos(ang) * r * 0.78, cy + math.sin(ang) * r * 0.78)
        arrow(d, a, b, MUTED, 3, r * 0.16)
        lx = cx + math.cos(ang) * r * 1.02
        ly = cy + math.sin(ang) * r * 1.02
        text(
            d,
            (lx, ly),
            t(f"kosmonavts.render.dir.{dname}", lang),
            f,
            fill=INK,
            anchor="mm",
            outline=2,
            outline_fill=BG,
        )


def _build_base(lang: str) -> Image.Image:
    img = _TABLE_LAYER.copy()
    _draw_legend(ImageDraw.Draw(img), lang)
    return img


def _draw_legend(d: ImageDraw.ImageDraw, lang: str) -> None:
    """The legend (bottom-left, under the board) and the compass (top-left), big enough to
    read at 400 px wide: drawn once per language, in the static table."""
    f = font(_least(d), "cond")
    pitch = _least(d) + 4
    items = [
        (_legend_icon_danger, t("kosmonavts.render.legend.danger", lang)),
        (_legend_icon_orbit, t("kosmonavts.render.legend.orbit", lang)),
        (_legend_icon_next, t("kosmonavts.render.legend.next", lang)),
        (_legend_icon_drift, t("kosmonavts.render.legend.drift", lang)),
        (_legend_icon_marker, t("kosmonavts.render.legend.marker", lang)),
        (_legend_icon_instructor, t("kosmonavts.render.legend.instructor", lang)),
    ]
    cubes = [(FUEL_RGB, "fuel"), (HYPER_RGB, "hyper"), (None, "shield")]
    y = H - 10 - pitch * (len(items) + len(cubes))
    for ico, label in items:
        ico(d, (14, y + (pitch - 22) / 2), 22)
        text(d, (44, y + pitch / 2), label, f, fill=MUTED, anchor="lm", outline=2, outline_fill=BG)
        y += pitch
    for col, key in cubes:
        label = t(f"kosmonavts.render.legend.{key}", lang)
        if col is None:
            shield_icon(d, 15, y + (pitch - 20) / 2, 20, True)
        else:
            cube(d, 16, y + (pitch - 18) / 2, 18, col)
        text(d, (44, y + pitch / 2), label, f, fill=MUTED, anchor="lm", outline=2, outline_fill=BG)
        y += pitch
    # direction compass, top-left corner of the board
    text(d, (16, BOARD_Y0 + 4), t("kosmonavts.render.directions", lang), f, fill=MUTED)
    _draw_compass(d, (84, BOARD_Y0 + 108), 56, lang)


_TABLE_LAYER = _board_layer((W, H), TABLE_GEO, seed=7)
_ZOOM_LAYER = _board_layer(ZOOM_SIZE, ZOOM_GEO, seed=8)
_base = kit.per_language(_build_base)  # the static table, drawn once per language


def _extra_colours() -> list[RGB]:
    """The colours drawn over the static board, kept exact in the PNG palette."""
    seats = [p.rgb for p in kit.PALETTE]
    out: list[RGB] = [
        INK,
        MUTED,
        FAINT,
        GOLD,
        GREEN,
        RED,
        kit.DARK,
        BG,
        kit.BG2,
        PANEL,
        PANEL_EDGE,
        FUEL_RGB,
        HYPER_RGB,
        SHIELD_RGB,
        EMPTY_RGB,
        (0, 0, 0),
        (8, 10, 24),
        (6, 8, 20),
        (230, 244, 255),
        (66, 76, 124),
        (86, 98, 150),
        (70, 80, 130),
    ]
    out += list(DANGER_RGB.values()) + list(PHASE_RGB.values())
    for c in seats:
        out += [
            c,
            kit.blend(c, BG, 0.55),
            kit.blend(c, kit.BG2, 0.9),
            kit.blend(c, BG, 0.3),
            kit.blend(c, CELL_RGB, 0.3),
        ]
    for c in BODY_RGB.values():
        out += [
            c,
            kit.blend(c, INK, 0.35),
            kit.blend(c, INK, 0.45),
            kit.blend(c, BG, 0.85),
            kit.blend(c, BG, 0.4),
            kit.blend(c, (0, 0, 0), 0.35),
            kit.blend(c, CELL_RGB, 0.35),
        ]
    for c in KIND_RGB.values():
        out += [c, kit.blend(c, kit.BG2, 0.82), kit.blend(c, kit.BG2, 0.4)]
    for c in (GREEN, GOLD, RED, MUTED):
        out += [kit.blend(c, BG, 0.72), kit.blend(c, INK, 0.35)]
    out += [kit.blend(FUEL_RGB, INK, 0.5), kit.blend(HYPER_RGB, INK, 0.5)]
    return out


_PALETTE = kit.palette_for(_base(i18n.DEFAULT), _extra_colours(), colors=256)
