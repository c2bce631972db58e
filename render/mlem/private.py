"""MLEM pictures: one seat's private picture (missions, hidden points)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeGuard

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.mlem.geometry import (
    CELL_EARLY_RGB,
    CELL_RGB,
    DEEP,
    DEEP_RGB,
    GREEN_SOFT,
    LAST,
    MISSION_POINTS,
    MOON_RGB,
    MOONS,
    NO_LANDING,
    PLANET_RGB,
    TRACK,
)
from render.mlem.glyphs import cat, recon_tile, ufo
from render.mlem.table import (
    _PALETTE,
    MISSION_DONE_RGB,
    MISSION_TODO_RGB,
    TARGET_DONE_RGB,
    TARGET_TODO_RGB,
)
from render.mlem.view import _lang, _name, _planet_name, _seat_ok

# ----------------------------------------------------------------------------- private


def _targets(mission_id: str) -> list[int]:
    out = []
    for part in str(mission_id).split("/"):
        try:
            out.append(int(part))
        except ValueError:
            continue
    return out


@lru_cache(maxsize=128)
def _body_label(space: int, lang: str) -> tuple[str, str, RGB]:
    """(body id, label, colour) of what hangs off ``space``: a planet's name, or the moon
    group's values with its space."""
    bodies = TRACK.get(space, {}).get("bodies", [])
    for b in bodies:
        if b in PLANET_RGB:
            return b, _planet_name(b, lang), PLANET_RGB[b]
    if bodies:
        vals = "·".join(map(str, MOONS.get(bodies[0], [])))
        return bodies[0], f"{space}: {i18n.t('mlem.render.moons', lang)} {vals}", MOON_RGB
    return "", "", MUTED


def _has_private(priv: Any) -> TypeGuard[dict]:
    if not isinstance(priv, dict):
        return False
    hp = priv.get("hidden_points")
    if not isinstance(hp, dict):
        hp = {}
    return bool(priv.get("missions") or priv.get("dealt") or any(hp.values()))


def render_private(view: dict, names: list[str], lang: str) -> bytes | None:
    """PNG bytes of one seat's secrets: its missions (target spaces, done or not) and hidden
    points (UFO and reconnaissance tiles). ``None`` when there is nothing private."""
    priv = view.get("private")
    if not _has_private(priv):
        return None
    return kit.picture_png(_draw_private, _PALETTE, view, priv, names, _lang(lang))


def _draw_private(view: dict, priv: dict, names: Sequence[str], lang: str) -> Image.Image:
    t = i18n.t
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [str(m) for m in priv.get("dealt") or []]
    hp = priv.get("hidden_points") if isinstance(priv.get("hidden_points"), dict) else None
    if hp is not None and not (any(hp.values()) or view.get("ufo") or view.get("recon")):
        hp = None  # UFO and reconnaissance are off: no hidden points to show
    seat = view.get("seat", priv.get("seat"))
    n = int(view.get("players") or 5)
    has_seat = _seat_ok(seat, n)
    seat_i = seat if _seat_ok(seat, n) else 0

    tiles: list[tuple[str, bool | None]]
    if dealt:
        tiles = [(m, None) for m in dealt]
        heading = t("mlem.render.private.choose", lang)
    else:
        tiles = [(str(m.get("id", "?")), bool(m.get("done"))) for m in missions]
        heading = t("mlem.render.private.missions", lang)

    pw = 1000
    tile_w, tile_h = 228, 150
    ph = 72 + (tile_h + 84 if tiles else 40) + 58 + 28 + (106 if hp is not None else 0)
    img = kit.star_field((pw, ph), seed=9)
    d = ImageDraw.Draw(img)

    # title
    who = _name(names, seat_i, lang) if has_seat else ""
    title = t("mlem.render.private.title" if who else "mlem.render.private.anon", lang, name=who)
    token = (lambda cy: kit.seat_token(d, (34, cy), 14, seat_i)) if has_seat else None
    kit.title_bar(d, pw, 58, title, room=pw - 120, text_x=58 if has_seat else 24, token=token)

    y = 72
    targets_done: set[int] = set()
    targets_todo: set[int] = set()
    if tiles:
        text(d, (24, y), heading, font(22), fill=GOLD)
        y += 36
        for k, (mid, done) in enumerate(tiles[:4]):
            x: float = 24 + k * (tile_w + 14)
            if done is True:
                edge, fill = GREEN_SOFT, MISSION_DONE_RGB
            elif done is False:
                edge, fill = GOLD, MISSION_TODO_RGB
            else:
                edge, fill = PANEL_EDGE, PANEL
            kit.rounded_box(
                d, (x, y, x + tile_w, y + tile_h), radius=14, fill=fill, outline=edge, width=3
            )
            spaces = _targets(mid)
            (targets_done if done else targets_todo).update(spaces)
            cat(d, x + 26, y + 34, 16, INK)
            text(d, (x + 52, y + 34), mid, font(40), fill=INK, anchor="lm", shadow=2)
            ly = y + 72
            seen: set[str] = set()
            for s in spaces:
                body, label, col = _body_label(s, lang)
                if not label or body in seen:
                    continue
                seen.add(body)
                d.ellipse((x + 14, ly - 8, x + 30, ly + 8), fill=col, outline=(0, 0, 0))
                lb, lf = kit.fit_font(label, tile_w - 46, (18, 16, 14), "cond")
                text(d, (x + 38, ly), lb, lf, fill=INK, anchor="lm")
                ly += 24
            if done is not None:
                status = t(f"mlem.render.private.{'done' if done else 'todo'}", lang)
                mark = "✓ " if done else "… "
                text(
                    d,
                    (x + tile_w - 14, y + tile_h - 18),
                    mark + status,
                    font(18),
                    fill=GREEN_SOFT if done else GOLD,
                    anchor="rm",
                )
        y += tile_h + 14
        if not dealt:
            done_n = sum(1 for _, dn in tiles if dn)
            pts = MISSION_POINTS[min(done_n, len(MISSION_POINTS) - 1)]
            line = t(
                "mlem.render.private.progress", lang, done=done_n, total=len(tiles), points=pts
            )
            text(d, (24, y + 4), line, font(20), fill=INK)
        y += 34
    else:
        text(d, (24, y + 8), t("mlem.render.private.none", lang), font(20), fill=FAINT)
        y += 40

    # mini track with the target spaces
    cw = (pw - 48) / (LAST + 2)
    for i in range(DEEP + 1):
        x0 = 24 + i * cw
        box = (x0 + 2, y, x0 + cw - 2, y + 40)
        if i in targets_done:
            fill, edge, ink = TARGET_DONE_RGB, GREEN_SOFT, INK
        elif i in targets_todo:
            fill, edge, ink = TARGET_TODO_RGB, GOLD, INK
        else:
            fill, edge, ink = (CELL_EARLY_RGB if i in NO_LANDING else CELL_RGB), PANEL_EDGE, MUTED
        if i == DEEP:
            fill = DEEP_RGB if fill == CELL_RGB else fill
        d.rounded_rectangle(box, radius=6, fill=fill, outline=edge, width=2)
        label = str(i) if i != DEEP else "★"
        text(
            d,
            ((box[0] + box[2]) / 2, y + 20),
            label,
            font(16 if i < 10 else 15),
            fill=ink,
            anchor="mm",
        )
    y += 48
    text(d, (24, y), t("mlem.render.private.track", lang), font(16, "cond"), fill=MUTED)
    y += 38

    if hp is None:
        return img
    # hidden points
    ufo_p = int(hp.get("ufo") or 0)
    rec_p = int(hp.get("recon") or 0)
    kit.rounded_box(d, (24, y, pw - 24, y + 92), radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    text(d, (40, y + 12), t("mlem.render.private.hidden", lang), font(20), fill=MUTED)
    x = 40
    iy = y + 60
    ufo(d, x + 18, iy, 36)
    line = f"{t('mlem.render.private.ufo', lang)}: {ufo_p}"
    text(d, (x + 44, iy), line, font(22), fill=INK, anchor="lm")
    x += 44 + font(22).getlength(line) + 36
    recon_tile(d, x, iy - 14, 28, {"kind": "points", "value": ""})
    line = f"{t('mlem.render.private.recon', lang)}: {rec_p}"
    text(d, (x + 38, iy), line, font(22), fill=INK, anchor="lm")
    x += 38 + font(22).getlength(line) + 24
    line = f"{t('mlem.render.private.total', lang)}: {ufo_p + rec_p}"
    tf = font(26)
    if x + tf.getlength(line) > pw - 44:  # no room on the line: beside the title
        iy = y + 22
    text(d, (pw - 44, iy), line, tf, fill=GOLD, anchor="rm", shadow=2)
    return img
