"""Kosmonavts pictures: the public table (header, players' panels, events)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import BG, FAINT, GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.kosmonavts.base import _PALETTE, _base, _draw_bodies_and_ships
from render.kosmonavts.geometry import (
    _BH,
    _BW,
    ARROW,
    BOARD_X0,
    BOARD_Y0,
    BODIES,
    BODY_RGB,
    EVENTS_BOX,
    EVENTS_H,
    EVENTS_K,
    HEAD_K,
    HEADER_H,
    KIND_RGB,
    NON_EARTH,
    PANEL_K,
    PHASE_RGB,
    PLAYER_MIN_H,
    PX0,
    PX1,
    TABLE_GEO,
    H,
    W,
    _least,
    _sizes,
)
from render.kosmonavts.glyphs import body_disc, instructor_badge, rose, shield_icon, tank
from render.kosmonavts.view import (
    _hex,
    _is_int,
    _lang,
    _name,
    _phase,
    _players,
    _ranks,
    _scores,
    _ship_status,
    _ships,
    _speed,
    _status_chip,
    t,
)

# ----------------------------------------------------------------------------- table


def _draw_header(
    d: ImageDraw.ImageDraw,
    view: dict,
    names: Sequence[str],
    lang: str,
    n: int,
    width: float = W,
) -> None:
    """The header band, ``width`` wide: title, round, phase, what is happening, rules."""
    kit.rounded_box(d, (8, 6, width - 8, HEADER_H), radius=12, fill=kit.BG2, outline=PANEL_EDGE)
    title = t("kosmonavts.render.title", lang)
    text(d, (24, HEADER_H / 2 + 3), title, font(28), fill=GOLD, anchor="lm", shadow=2)
    x = 24 + font(28).getlength(t("kosmonavts.render.title", lang)) + 22
    cy = HEADER_H / 2 + 3
    rnd = view.get("round")
    if _is_int(rnd):
        lim = view.get("round_limit")
        s = t("kosmonavts.render.round", lang, n=rnd, limit=lim if _is_int(lim) else "?")
        text(d, (x, cy), s, font(24), fill=INK, anchor="lm", shadow=2)
        x += font(24).getlength(s) + 18
    ph = _phase(view)
    key = "kosmonavts.render.over" if ph == "over" else f"kosmonavts.phase.{ph}"
    label = t(key, lang)
    col = PHASE_RGB.get(ph, MUTED)
    wpx = kit.pill(d, x, 11, HEADER_H - 5, label, font(24), col, pad=13, radius=16)
    x += wpx + 16
    right: float = width - 24
    rules = view.get("rules")
    if rules in ("basic", "advanced"):
        rl = t(f"kosmonavts.render.rules.{rules}", lang)
        text(d, (right, cy), rl, font(17), fill=MUTED, anchor="rm")
        right -= font(17).getlength(rl) + 20
    if ph == "over":
        scores = _scores(view, n)
        ships = _ships(view, n)
        ranks = _ranks(view, ships, scores)
        win = [k for k in range(n) if ranks[k] == 1]
        if len(win) == 1:
            s = t("kosmonavts.render.winner", lang, name=_name(names, win[0], lang))
        else:
            s = t(
                "kosmonavts.render.shared",
                lang,
                winners=", ".join(_name(names, k, lang) for k in win),
            )
        end = view.get("end")
        lines = [s]
        if end in ("return", "limit"):
            lines.append(t(f"kosmonavts.render.end.{end}", lang))
        _header_note(d, x, right, width, cy, lines, GOLD, "bold")
        return
    step = view.get("step")
    if isinstance(step, str) and step:
        _header_note(d, x, right, width, cy, [t(step, lang)], MUTED, "book")


def _header_note(
    d: ImageDraw.ImageDraw,
    x: float,
    right: float,
    width: float,
    cy: float,
    parts: list[str],
    col: RGB,
    style: str,
) -> None:
    """What is happening, after the phase: on one line if it fits (over the rules' name if
    need be), else on two, condensed; cut only as a last resort."""
    one = "  ·  ".join(parts)
    for r in (right, width - 24):
        s, f = kit.fit_font(one, r - x, _sizes(d, 20, 18, 17, 16), style)
        if s == one:
            if r != right:  # the rules' name gives way
                d.rounded_rectangle((x - 4, 10, width - 12, HEADER_H - 4), radius=8, fill=kit.BG2)
            text(d, (x, cy), s, f, fill=col, anchor="lm")
            return
    f = font(_least(d), "cond")
    lines = (parts if len(parts) == 2 else kit.wrap(one, f, width - 24 - x, 2))[:2]
    if any(f.getlength(line) > width - 24 - x or line.endswith("…") for line in lines):
        return  # no room even on two lines: the phase and the panels say enough
    d.rounded_rectangle((x - 4, 10, width - 12, HEADER_H - 4), radius=8, fill=kit.BG2)
    for j, line in enumerate(lines):
        dy = (j - (len(lines) - 1) / 2) * (_least(d) + 1)
        text(d, (x, cy + dy), line, f, fill=col, anchor="lm")


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, s: str, col: RGB, maxw: float) -> float:
    """A rounded label; ``s`` may hold alternatives separated by "\n", longest first: the
    first that fits is used."""
    alts = s.split("\n")
    for alt in alts:
        s, f = kit.fit_font(alt, maxw - 14, _sizes(d, 17, 16, 15, 14, 13), "bold")
        if s == alt:
            break
    w = f.getlength(s) + 14
    kit.rounded_box(
        d, (x, y, x + w, y + 26), radius=12, fill=kit.blend(col, BG, 0.72), outline=col, width=2
    )
    text(d, (x + w / 2, y + 13), s, f, fill=kit.blend(col, INK, 0.35), anchor="mm")
    return w


def _marker_chip(
    d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, body: str, value: Any, removed: bool
) -> None:
    cx, cy = c
    col = BODY_RGB[body]
    if _is_int(value) and value > 0:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=2)
        text(
            d,
            (cx, cy + 1),
            str(value),
            font(max(_least(d), round(r * 1.25))),
            fill=kit.DARK,
            anchor="mm",
        )
    else:
        edge = kit.blend(col, BG, 0.4)
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=kit.blend(col, BG, 0.85), outline=edge, width=2
        )
        if removed:
            k = r * 0.5
            d.line((cx - k, cy - k, cx + k, cy + k), fill=edge, width=2)
            d.line((cx - k, cy + k, cx + k, cy - k), fill=edge, width=2)


def _draw_player(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict,
    seat: int,
    names: Sequence[str],
    lang: str,
    n: int,
    ranks: list[int] | None,
) -> None:
    x0, y0, x1, y1 = box
    ship = _ships(view, n)[seat]
    scores = _scores(view, n)
    waiting = seat in set(s for s in view.get("waiting") or [] if _is_int(s))
    over = bool(view.get("over"))
    winner = over and ranks is not None and ranks[seat] == 1
    kit.seat_panel(d, box, seat, highlight=waiting or winner)

    # header row: token, name, instructor, score
    kit.seat_token(d, (x0 + 30, y0 + 25), 13, seat)
    score = str(scores[seat])
    sf = font(34)
    sw = sf.getlength(score)
    text(d, (x1 - 14, y0 + 26), score, sf, fill=INK, anchor="rm", shadow=2)
    vp = t("kosmonavts.render.vp", lang)
    vf = font(_least(d))
    text(d, (x1 - 20 - sw, y0 + 32), vp, vf, fill=MUTED, anchor="rm")
    right = x1 - 28 - sw - vf.getlength(vp)
    is_instr = view.get("instructor") == seat
    if ranks is not None and over:
        badge = (
            t("kosmonavts.render.winner_badge", lang)
            if winner
            else t("kosmonavts.render.place", lang, n=ranks[seat])
        )
        bf = font(max(15, _least(d)))
        bw = bf.getlength(badge) + 14
        kit.rounded_box(
            d,
            (right - bw, y0 + 14, right, y0 + 38),
            radius=10,
            fill=GOLD if winner else PANEL,
            outline=(0, 0, 0) if winner else PANEL_EDGE,
        )
        text(
            d, (right - bw / 2, y0 + 26), badge, bf, fill=kit.DARK if winner else INK, anchor="mm"
        )
        right -= bw + 6
    if is_instr:
        instructor_badge(d, (right - 12, y0 + 26), 12)
        right -= 30
    nm, nf = kit.fit_font(_name(names, seat, lang), right - (x0 + 50), (24, 22, 20, 18, 16))
    text(d, (x0 + 50, y0 + 26), nm, nf, fill=INK, anchor="lm")

    # rows below the header, spread over the card's height
    gap = max(0.0, (y1 - y0 - 176) / 4)
    row_tank = y0 + 50 + gap
    row_shield = row_tank + 28 + gap
    row_marks = row_shield + 46 + gap
    row_status = row_marks + 30 + gap * 0.6

    # rose
    units = kit.dict_of(ship.get("rose"))
    landed = ship.get("landed")
    rc = (x0 + 62, (row_tank + row_status) / 2 + 6)
    if landed in BODY_RGB:
        rose(d, rc, 50, units, seat, center="", center_rgb=BODY_RGB[landed])
    else:
        rose(d, rc, 50, units, seat, center=str(_speed(ship.get("velocity"))))

    # tank, shields, chip, markers, status
    cx0 = x0 + 126
    cw = x1 - 14 - cx0
    fuel = ship.get("fuel")
    hyper = ship.get("hyper")
    tank(d, cx0, row_tank, cw, 20, fuel if _is_int(fuel) else 0, hyper if _is_int(hyper) else 0)
    sh = ship.get("shields")
    sh = sh if _is_int(sh) else 0
    for k in range(3):
        shield_icon(d, cx0 + k * 22, row_shield, 22, k < sh)
    chip = _status_chip(view, seat, lang)
    if chip:
        _chip(d, cx0 + 70, row_shield - 1, chip[0], chip[1], x1 - 6 - (cx0 + 70))

    bodies = kit.dict_of(view.get("bodies"))
    marks = kit.dict_of(ship.get("markers"))
    setup = view.get("setup") if isinstance(view.get("setup"), dict) else None
    hands = setup.get("hands") if setup else None
    step = cw / 9
    r = min(11.5, step / 2 - 1)
    my = row_marks
    if isinstance(hands, list) and seat < len(hands) and isinstance(hands[seat], list):
        hand = [b for b in hands[seat] if b in BODY_RGB]
        label = t("kosmonavts.render.to_place", lang)
        lf = font(max(15, _least(d)), "cond")
        text(d, (cx0, my), label, lf, fill=MUTED, anchor="lm")
        hx = cx0 + lf.getlength(label) + 6 + r
        for b in hand:
            body_disc(d, (hx, my), r, b)
            hx += 2 * r + 3
    else:
        for k, b in enumerate(BODIES):
            info = kit.dict_of(bodies.get(b))
            val = ship.get("earth_marker") if b == "earth" else marks.get(b)
            _marker_chip(d, (cx0 + step * (k + 0.5), my), r, b, val, bool(info.get("removed")))

    # status line, and how many bodies the seat has markers of
    total = sum(
        1 for b in NON_EARTH if not (isinstance(bodies.get(b), dict) and bodies[b].get("removed"))
    )
    got = sum(1 for b in NON_EARTH if kit.int_of(marks.get(b)) > 0)
    count = t("kosmonavts.render.markers", lang, n=got, need=total)
    cf = font(max(15, _least(d)), "cond")
    text(d, (x1 - 14, row_status), count, cf, fill=GOLD if got else MUTED, anchor="rm")
    sw = cw - cf.getlength(count) - 10
    sy = row_status
    disc = landed in BODY_RGB and _hex(ship.get("pos")) is not None and not ship.get("evacuated")
    room = sw - 18 if disc else sw
    for short in (False, True):  # the long status, else its short form
        status, scol = _ship_status(view, ship, lang, short)
        s2, f2 = kit.fit_font(status, room, _sizes(d, 16, 15, 14), "cond")
        if s2 == status:
            break
    if disc and isinstance(landed, str):
        d.ellipse((cx0, sy - 6, cx0 + 12, sy + 6), fill=BODY_RGB[landed], outline=(0, 0, 0))
    text(d, (cx0 + 18 if disc else cx0, sy), s2, f2, fill=scol, anchor="lm")


def _draw_events(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], view: dict, lang: str
) -> None:
    x0, y0, x1, y1 = box
    kit.rounded_box(d, box, radius=14, fill=kit.BG2, outline=PANEL_EDGE)
    title = t("kosmonavts.render.events", lang)
    text(d, (x0 + 14, y0 + 18), title, font(18), fill=MUTED, anchor="lm")
    ev = kit.dict_of(view.get("events"))
    deck = kit.int_of(ev.get("deck"))
    disc = kit.int_of(ev.get("discard"))
    s = t("kosmonavts.render.deck", lang, n=deck, m=disc)
    text(d, (x1 - 14, y0 + 18), s, font(max(15, _least(d)), "cond"), fill=MUTED, anchor="rm")
    rows: list[tuple[str, bool]] = []
    active = ev.get("active")
    if isinstance(active, str) and active:
        rows.append((active, True))
    rows += [(c, False) for c in ev.get("face_up") or [] if isinstance(c, str)]
    y = y0 + 38
    rh = (y1 - 10 - y) / 4 if len(rows) > 3 else 36
    if not rows:
        none = t("kosmonavts.render.no_events", lang)
        text(d, (x0 + 14, y + 14), none, font(max(16, _least(d))), fill=FAINT, anchor="lm")
    for cid, is_active in rows[:4]:
        kind = cid.split("-")[0].rstrip("12")
        col = KIND_RGB.get(kind, MUTED)
        rb = (x0 + 10, y, x1 - 10, y + rh - 5)
        kit.rounded_box(
            d,
            rb,
            radius=9,
            fill=kit.blend(col, kit.BG2, 0.82),
            outline=GOLD if is_active else kit.blend(col, kit.BG2, 0.4),
            width=3 if is_active else 2,
        )
        cy = (rb[1] + rb[3]) / 2
        _event_icon(d, (rb[0] + 18, cy), 12, cid, kind)
        lx = rb[0] + 38
        if is_active:
            tag = t("kosmonavts.render.now", lang)
            tf = font(_least(d))
            tw = tf.getlength(tag) + 12
            kit.rounded_box(d, (lx, cy - 10, lx + tw, cy + 10), radius=8, fill=GOLD)
            text(d, (lx + tw / 2, cy), tag, tf, fill=kit.DARK, anchor="mm")
            lx += tw + 8
        name = t(f"kosmonavts.card.{cid}", lang)
        s, f = kit.fit_font(name, rb[2] - 8 - lx, _sizes(d, 18, 17, 16, 15), "bold")
        if s == name:
            text(d, (lx, cy), s, f, fill=INK, anchor="lm")
        else:  # too long for one line: two, condensed, rather than cut
            f = font(_least(d), "cond")
            lines = kit.wrap(name, f, rb[2] - 8 - lx, 2)
            for j, line in enumerate(lines):
                dy = (j - (len(lines) - 1) / 2) * (_least(d) + 1)
                text(d, (lx, cy + dy), line, f, fill=INK, anchor="lm")
        y += rh


def _event_icon(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, cid: str, kind: str):
    cx, cy = c
    col = KIND_RGB.get(kind, MUTED)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col, outline=(0, 0, 0), width=2)
    # the card's name is written beside its icon: the icon only adds its colour, a "+" for a
    # refuel, the 4 of a thrust and the wind's arrow (which the card's name also shows)
    glyph = {"refuel": "+", "thrust": "4"}.get(kind, "")
    if kind == "wind":
        dname = cid.split("-")[-1]
        glyph = ARROW.get(dname, "→")
    if glyph:
        text(
            d,
            (cx, cy + 1),
            glyph,
            font(max(_least(d), round(r * 1.4))),
            fill=kit.DARK,
            anchor="mm",
        )


def _draw_table(view: dict, names: Sequence[str], lang: str) -> Image.Image:
    img = _base(lang).copy()
    n = _players(view, names)
    _draw_header(kit.ScaledDraw(img, HEAD_K), view, names, lang, n, W / HEAD_K)
    bounds = (BOARD_X0, BOARD_Y0, BOARD_X0 + _BW, BOARD_Y0 + _BH)
    _draw_bodies_and_ships(img, TABLE_GEO, view, n, lang, bounds)
    ranks = None
    if view.get("over"):
        ships = _ships(view, n)
        ranks = _ranks(view, ships, _scores(view, n))
    # the players' column, in panel units: x from PX0, y = picture y / k; as big as PANEL_K
    # when every panel gets its full height (176 units), else a little smaller
    gap = 8
    k = min(PANEL_K, (H - 8 - BOARD_Y0) / (n * PLAYER_MIN_H + gap * (n - 1)))
    side = kit.ScaledDraw(img, k, (PX0 - (W - 10) / k + (PX1 - PX0), 0))
    top = BOARD_Y0 / k
    bottom = (H - 8) / k
    ch = min(206, (bottom - top - gap * (n - 1)) / n)
    for seat in range(n):
        y = top + seat * (ch + gap)
        _draw_player(side, (PX0, y, PX1, y + ch), view, seat, names, lang, n, ranks)
    ev = kit.ScaledDraw(img, EVENTS_K)
    x0, y0, _, _ = (c / EVENTS_K for c in EVENTS_BOX)
    _draw_events(ev, (x0, y0, x0 + PX1 - PX0, y0 + EVENTS_H), view, lang)
    return img


def render_table(view: dict, names: list[str], lang: str) -> bytes:
    """PNG bytes of the public table. ``view["private"]`` is dropped before drawing."""
    return kit.picture_png(_draw_table, _PALETTE, kit.public(view), names, _lang(lang))
