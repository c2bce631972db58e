"""MLEM pictures: the table's panels (players, final scores, crew, dice, variants)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from core import i18n
from render import kit
from render.kit import FAINT, GOLD, INK, MUTED, PANEL_EDGE, RGB, font, text
from render.mlem.geometry import DEEP, GREEN_SOFT, PANEL_MIN, PX0, PX1, TRACK, UFO_RGB
from render.mlem.glyphs import _mission_icon, ability_icon, cat, recon_tile, rocket, star, ufo
from render.mlem.view import _name, _seat_ok


def _section(d: ImageDraw.ImageDraw, y: float, h: float, title: str) -> float:
    kit.rounded_box(d, (PX0, y, PX1, y + h), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    text(d, (PX0 + 14, y + 8), title, font(17), fill=MUTED)
    return y + 32


#: Panel rows of one player in the players' panel, and of one crew member in the crew's.
PLAYER_ROW_H = 50
CREW_ROW_H = 34


def _highlight(d: ImageDraw.ImageDraw, top: float, bottom: float, radius: int, fill: RGB) -> None:
    """A row of a side panel picked out in gold (the winner, the commander)."""
    kit.rounded_box(
        d, (PX0 + 6, top, PX1 - 6, bottom), radius=radius, fill=fill, outline=GOLD, width=2
    )


def _players_frame(d: ImageDraw.ImageDraw, y: float, lang: str, n: int) -> float:
    """The players' panel for ``n`` seats without its rows: the row of the first seat."""
    top = _section(d, y, _players_after(y, n) - 10 - y, i18n.t("mlem.render.players", lang))
    hint = i18n.t("mlem.render.legend.astronauts", lang)
    hf = font(14, "cond")
    text(d, (PX1 - 14, y + 17), hint, hf, fill=MUTED, anchor="rm")
    cat(d, PX1 - 26 - hf.getlength(hint), y + 18, 7, MUTED)
    return top


def _player_rows(view: dict, names: Sequence[str], lang: str, n: int) -> list[dict[str, Any]]:
    """What each seat's row of the players' panel shows (all it is drawn from)."""
    scores = list(view.get("scores") or [])
    boards = list(view.get("boards") or [])
    over = bool(view.get("over"))
    best = max(scores[:n]) if over and scores[:n] else None
    commander = view.get("commander")
    start = view.get("start_seat")
    ufo_v = view.get("ufo") if isinstance(view.get("ufo"), dict) else None
    recon_v = view.get("recon") if isinstance(view.get("recon"), dict) else None
    miss_v = view.get("missions") if isinstance(view.get("missions"), dict) else None
    rows = []
    for seat in range(n):
        score = scores[seat] if seat < len(scores) else 0
        row: dict[str, Any] = {
            "seat": seat,
            "name": _name(names, seat, lang),
            "score": score,
            "winner": best is not None and score == best,
            "commander": commander == seat and not over,
            "start": start == seat and not over,
            "left": len(boards[seat].get("left", [])) if seat < len(boards) else 0,
        }
        if ufo_v is not None:
            taken = ufo_v.get("taken") or []
            row["ufo"] = taken[seat] if seat < len(taken) else 0
        if recon_v is not None:
            taken = recon_v.get("taken") or []
            row["recon"] = taken[seat] if seat < len(taken) else 0
        if miss_v is not None:
            kept = miss_v.get("kept") or []
            row["missions"] = kept[seat] if seat < len(kept) else 0
            row["choosing"] = seat in (miss_v.get("choosing") or [])
        rows.append(row)
    return rows


def _player_row(d: ImageDraw.ImageDraw, ry: float, row: dict[str, Any], lang: str) -> None:
    """One seat's row of the players' panel, from panel row ``ry``."""
    t = i18n.t
    seat, score, winner = row["seat"], row["score"], row["winner"]
    if winner:
        _highlight(d, ry - 2, ry + PLAYER_ROW_H - 4, 10, (58, 50, 24))
    kit.seat_token(d, (PX0 + 26, ry + 17), 13, seat)
    # name, with commander / first-player marks
    nx = PX0 + 48
    marks_w = 0
    if row["commander"]:
        marks_w += 26
    if row["start"]:
        marks_w += 20
    name, nf = kit.fit_font(row["name"], 205 - marks_w, (22, 20, 18, 16))
    text(d, (nx, ry + 17), name, nf, fill=INK, anchor="lm")
    mx = nx + nf.getlength(name) + 8
    if row["commander"]:
        star(d, mx + 10, ry + 16, 10)
        mx += 26
    if row["start"]:
        rocket(d, mx + 6, ry + 5, 22)
    # score
    text(
        d,
        (PX1 - 16, ry + 20),
        str(score),
        font(30),
        fill=GOLD if winner else INK,
        anchor="rm",
        shadow=2,
    )
    # second line: astronauts left and hidden-tile counts
    sx = PX0 + 48
    sy = ry + 39
    sf = font(17)
    cat(d, sx + 8, sy, 8, kit.seat_color(seat))
    text(d, (sx + 20, sy), f"{row['left']}", sf, fill=MUTED, anchor="lm")
    sx += 48
    if "ufo" in row:
        ufo(d, sx + 10, sy + 1, 22)
        text(d, (sx + 24, sy), f"{row['ufo']}", sf, fill=MUTED, anchor="lm")
        sx += 48
    if "recon" in row:
        recon_tile(d, sx, sy - 8, 16, {"kind": "points", "value": ""})
        text(d, (sx + 22, sy), f"{row['recon']}", sf, fill=MUTED, anchor="lm")
        sx += 48
    if "missions" in row:
        _mission_icon(d, sx, sy - 8, 16)
        s = t("mlem.render.missions.choosing", lang) if row["choosing"] else f"{row['missions']}"
        text(d, (sx + 22, sy), s, sf, fill=MUTED, anchor="lm")
        sx += 48
    if winner:
        text(
            d,
            (PX1 - 16, sy + 1),
            t("mlem.render.winner", lang),
            font(PANEL_MIN),
            fill=GOLD,
            anchor="rm",
        )


def _draw_players(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str, n: int
) -> float:
    top = _players_frame(d, y, lang, n)
    for seat, row in enumerate(_player_rows(view, names, lang, n)):
        _player_row(d, top + seat * PLAYER_ROW_H, row, lang)
    return _players_after(y, n)


def _players_after(y: float, n: int) -> float:
    """The panel row under the players' panel from ``y`` (and a gap)."""
    return y + 36 + n * PLAYER_ROW_H + 10


def _draw_final(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str, n: int) -> float:
    """At the end: every player's points by scoring category (a column per seat)."""
    res = kit.dict_of(view.get("result"))
    parts = [b if isinstance(b, dict) else {} for b in (res.get("breakdown") or [])[:n]]
    if len(parts) != n:
        return y
    keys = [k for k in dict.fromkeys(k for b in parts for k in b) if any(b.get(k) for b in parts)]
    row_h = 27
    h = 36 + 30 + (len(keys) + 1) * row_h + 6
    top = _section(d, y, h, i18n.t("mlem.render.final", lang))
    col_w = 44 if n <= 4 else 35
    x_first = PX1 - 14 - n * col_w  # the seat columns, right-aligned
    for seat in range(n):
        kit.seat_token(d, (x_first + (seat + 0.5) * col_w, top + 12), 11, seat)
    f = font(max(16, PANEL_MIN))
    ry = top + 30
    for key in [*keys, "total"]:
        cy = ry + row_h / 2
        if key == "total":
            d.line((PX0 + 14, ry + 1, PX1 - 14, ry + 1), fill=PANEL_EDGE, width=2)
            label = i18n.t("mlem.render.final_total", lang)
        else:
            label = i18n.t(f"mlem.score.{key}", lang)
        label, lf = kit.fit_font(label, x_first - PX0 - 20, (16, 15, PANEL_MIN), "cond")
        text(d, (PX0 + 14, cy), label, lf, fill=INK if key == "total" else MUTED, anchor="lm")
        for seat, b in enumerate(parts):
            v = sum(int(x) for x in b.values()) if key == "total" else int(b.get(key) or 0)
            fill = GOLD if key == "total" else (INK if v else FAINT)
            cx = x_first + (seat + 0.5) * col_w
            text(d, (cx, cy), str(v), f, fill=fill, anchor="mm")
        ry += row_h
    return y + h + 10


def _booster_spent(view: dict, seat: Any, n: int) -> bool:
    boards = view.get("boards") or []
    if not _seat_ok(seat, n) or seat >= len(boards) or not isinstance(boards[seat], dict):
        return False
    return int(boards[seat].get("boosters_used") or 0) > 0


def _spent(member: dict, view: dict, n: int) -> bool:
    """Is this crew member a booster already used (flipped) this voyage?"""
    if member.get("astronaut") != "booster":
        return False
    if "used" in member:
        return bool(member["used"])
    return _booster_spent(view, member.get("seat"), n)


def _crew(view: dict) -> list[dict]:
    return [c for c in (view.get("rocket") or {}).get("crew") or [] if isinstance(c, dict)]


def _crew_frame(d: ImageDraw.ImageDraw, y: float, lang: str, rows: int) -> float:
    """The crew's panel for ``rows`` members (0: an empty crew, said so) without its rows:
    the first row."""
    t = i18n.t
    top = _section(d, y, _crew_after(y, rows) - 10 - y, t("mlem.render.crew", lang))
    if not rows:
        empty = t("mlem.render.crew_empty", lang)
        text(d, (PX0 + 16, top + 16), empty, font(18), fill=FAINT, anchor="lm")
    return top


def _crew_rows(view: dict, names: Sequence[str], lang: str, n: int) -> list[dict[str, Any]]:
    """What each crew member's row of the crew's panel shows (all it is drawn from)."""
    rows = []
    for k, member in enumerate(_crew(view)):
        seat = member.get("seat")
        ab = str(member.get("astronaut") or "")
        key = f"mlem.render.ability.{ab}"
        row: dict[str, Any] = {
            "k": k,
            "seat": seat if _seat_ok(seat, n) else None,
            "ability": ab,
            "label": i18n.t(key, lang) if i18n.has(key, lang) else ab,
            "spent": _spent(member, view, n),
        }
        if _seat_ok(seat, n):
            row["name"] = _name(names, seat, lang)
        rows.append(row)
    return rows


def _crew_row(d: ImageDraw.ImageDraw, ry: float, row: dict[str, Any]) -> None:
    """One crew member's row of the crew's panel, from panel row ``ry``."""
    k, seat, spent = row["k"], row["seat"], row["spent"]
    cy = ry + 15
    if k == 0:
        _highlight(d, ry - 3, ry + CREW_ROW_H - 5, 8, (52, 46, 26))
        star(d, PX0 + 22, cy, 10)
    else:
        text(d, (PX0 + 22, cy), str(k + 1), font(16), fill=MUTED, anchor="mm")
    if seat is not None:
        kit.seat_token(d, (PX0 + 48, cy), 11, seat)
    ability_icon(d, PX0 + 66, cy - 12, 24, row["ability"])
    label, lf = kit.fit_font(row["label"], 150, (18, 17, 16), "bold")
    text(d, (PX0 + 98, cy), label, lf, fill=FAINT if spent else INK, anchor="lm")
    if spent:  # a used booster is flipped face down
        d.line((PX0 + 96, cy, PX0 + 100 + lf.getlength(label), cy), fill=MUTED, width=2)
    if seat is not None:
        who, wf = kit.fit_font(row["name"], 96, (15, 14, 13), "cond")
        text(d, (PX1 - 14, cy), who, wf, fill=kit.seat_color(seat), anchor="rm")


def _draw_crew(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str, n: int
) -> float:
    rows = _crew_rows(view, names, lang, n)
    top = _crew_frame(d, y, lang, len(rows))
    for k, row in enumerate(rows):
        _crew_row(d, top + k * CREW_ROW_H, row)
    return _crew_after(y, len(rows))


def _crew_after(y: float, rows: int) -> float:
    """The panel row under the crew's panel of ``rows`` members from ``y`` (and a gap)."""
    return y + 36 + max(1, rows) * CREW_ROW_H + 4 + 10


def _draw_dice(d: ImageDraw.ImageDraw, y: float, view: dict, lang: str) -> float:
    t = i18n.t
    dice = view.get("dice") or {}
    roll = list(dice.get("roll") or [])
    usable = list(dice.get("usable") or [])
    h = 36 + 56 + 22
    top = _section(d, y, h, t("mlem.render.dice", lang))
    sp = (view.get("rocket") or {}).get("space")
    ab = TRACK.get(sp, {}).get("ab") if isinstance(sp, int) else None
    if roll:
        k_n = len(roll)
        s = 48 if k_n <= 6 else max(30, int((PX1 - PX0 - 28) / k_n) - 6)
        gap = 8 if k_n <= 6 else 5
        x = PX0 + 14
        for k, face in enumerate(roll):
            ok = bool(usable[k]) if k < len(usable) else True
            face_v = "A" if str(face).upper() == "A" else face
            if ok:
                d.rounded_rectangle(
                    (x - 3, top - 1, x + s + 3, top + s + 5), radius=10, outline=GOLD, width=3
                )
            kit.die(
                d,
                (x, top + 2),
                s,
                face_v,
                value=ab if face_v == "A" else None,
                dim=not ok,
                crossed=not ok,
            )
            x += s + gap
    else:
        text(
            d,
            (PX0 + 16, top + 26),
            t("mlem.render.no_roll", lang),
            font(20),
            fill=FAINT,
            anchor="lm",
        )
    pool = int(dice.get("pool") or 0)
    disc = int(dice.get("discarded") or 0)
    iy = top + 64
    x = PX0 + 16
    for k in range(min(pool + disc, 8)):
        kit.die(d, (x, iy - 8), 16, "", dim=k >= pool)
        x += 19
    label, sf = kit.fit_font(
        t("mlem.render.pool", lang, pool=pool, discarded=disc),
        PX1 - x - 16,
        (17, 16, 15, 14),
        "cond",
    )
    text(d, (x + 6, iy), label, sf, fill=MUTED, anchor="lm")
    return y + h + 10


def _draw_variants(
    d: ImageDraw.ImageDraw, y: float, view: dict, names: Sequence[str], lang: str
) -> float:
    t = i18n.t
    ex = view.get("expedition") if isinstance(view.get("expedition"), dict) else None
    u = view.get("ufo") if isinstance(view.get("ufo"), dict) else None
    rc = view.get("recon") if isinstance(view.get("recon"), dict) else None
    lines: list[tuple[Any, str]] = []
    if u is not None:
        sp = u.get("space")
        left = u.get("tiles_left", 0)
        key = "mlem.render.ufo.deep" if sp == DEEP else "mlem.render.ufo.where"
        lines.append(("ufo", t(key, lang, n=sp, left=left)))
    if rc is not None:
        lines.append(("recon", t("mlem.render.recon.left", lang, n=rc.get("left", 0))))
    if ex is None and not lines:
        return y
    if rc is not None:
        lines.append(("kinds", ""))
    h = 14 + (78 if ex is not None else 0) + 28 * len(lines)
    kit.rounded_box(d, (PX0, y, PX1, y + h), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    cy = y + 8
    if ex is not None:
        tile = ex.get("tile") if isinstance(ex.get("tile"), dict) else None
        avail = bool(ex.get("ability_available"))
        title = t("mlem.render.expedition", lang)
        if tile and tile.get("id"):
            title += f" {tile['id']}"
        text(d, (PX0 + 14, cy), title, font(17), fill=MUTED)
        text(
            d,
            (PX1 - 14, cy),
            t("mlem.render.expedition.left", lang, n=ex.get("left", 0)),
            font(15, "cond"),
            fill=MUTED,
            anchor="ra",
        )
        ty = cy + 26
        if tile is None:
            text(
                d,
                (PX0 + 16, ty + 18),
                t("mlem.render.expedition.none", lang),
                font(18),
                fill=FAINT,
                anchor="lm",
            )
        else:
            card = (PX0 + 10, ty, PX1 - 10, ty + 42)
            kit.rounded_box(d, card, radius=8, fill=(44, 40, 74), outline=(150, 130, 220))
            x = PX0 + 18
            mid = ty + 21
            kit.die(d, (x, mid - 13), 26, 6)
            text(d, (x + 32, mid), f"{tile.get('dice', '?')}", font(22), fill=INK, anchor="lm")
            x += 58
            ufo(d, x + 16, mid + 2, 34)
            text(d, (x + 36, mid), f"−{tile.get('ufo', 0)}", font(20), fill=UFO_RGB, anchor="lm")
            x += 72
            ability = str(tile.get("ability") or "")
            col = INK if avail else FAINT
            if ability == "extra":
                for face in (tile.get("extra") or [])[:3]:
                    kit.die(d, (x, mid - 12), 24, face, dim=not avail)
                    x += 28
                label = t("mlem.render.expedition.extra", lang)
            else:
                label = t(f"mlem.render.expedition.{ability}", lang)
            status = t(f"mlem.render.expedition.{'ready' if avail else 'used'}", lang)
            lbl, lf = kit.fit_font(label, PX1 - 18 - x - 4, (17, 16, 15, 14), "cond")
            text(d, (x + 4, mid - 9), lbl, lf, fill=col, anchor="lm")
            text(
                d,
                (x + 4, mid + 10),
                status,
                font(14, "cond"),
                fill=GREEN_SOFT if avail else FAINT,
                anchor="lm",
            )
        cy = ty + 52
    for kind, s in lines:
        if kind == "kinds":  # what each reconnaissance tile does
            kx: float = PX0 + 50
            kf = font(PANEL_MIN, "cond")
            for k, key in (("points", "points"), ("recover", "recover"), ("wormhole", "wormhole")):
                recon_tile(d, kx, cy + 2, 20, {"kind": k}, plain=True)
                label = t(f"mlem.render.legend.recon_{key}", lang)
                text(d, (kx + 26, cy + 12), label, kf, fill=MUTED, anchor="lm")
                kx += 26 + kf.getlength(label) + 14
            cy += 28
            continue
        if kind == "ufo":
            ufo(d, PX0 + 28, cy + 12, 30)
        else:
            recon_tile(d, PX0 + 18, cy + 2, 20, {"kind": "wormhole"})
        s2, sf = kit.fit_font(s, PX1 - PX0 - 64, (17, 16, 15, 14), "cond")
        text(d, (PX0 + 50, cy + 12), s2, sf, fill=INK, anchor="lm")
        cy += 28
    return y + h + 10
