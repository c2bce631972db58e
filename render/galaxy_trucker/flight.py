"""Galaxy Trucker pictures: the flight table (track, current card, every ship in flight, final
credits)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.galaxy_trucker.legend import (
    draw_legend,
    explain,
    legend_height,
    view_marks,
)
from render.galaxy_trucker.marks import LEGEND, _apart, _mark
from render.galaxy_trucker.ship import _frame, _header, _players, draw_ship, ship_size
from render.galaxy_trucker.style import GOODS, MIN_FONT, STATS_BELOW, TILE_EDGE, G, W, _label, _t
from render.kit import BG, BG2, FAINT, GOLD, INK, MUTED, PANEL_EDGE, RED, RGB
from render.regions import cached_region, pixel_box, region_store

#: The flight table's boxes drawn once per state and pasted afterwards (render.regions):
#: the track without its rockets, the card band, each ship (inside its panel, whose words are
#: drawn each time), a legend in a ship's place. Bounded for memory (about 25 MB in all).
_TRACKS = region_store(4)
_BANDS = region_store(6)
_SHIPS = region_store(16)
_HEADS = region_store(16)
_STATS = region_store(16)
_LEGENDS = region_store(6)

# --------------------------------------------------------------------------- flight


def _card_lines(card: dict[str, Any], lang: str) -> list[tuple[str, list[RGB]]]:
    """The current card as short lines (text, and goods cubes drawn after it)."""
    out: list[tuple[str, list[RGB]]] = []
    typ = str(card.get("type", ""))

    def goods(xs: Any) -> list[RGB]:
        return [GOODS.get(str(g), INK) for g in xs] if isinstance(xs, list) else []

    def penalty_text(p: dict[str, Any]) -> list[tuple[str, list[RGB]]]:
        lines: list[tuple[str, list[RGB]]] = []
        if "crew_lost" in p:
            lines.append((_t("pic.c.crew_lost", lang, n=p["crew_lost"]), []))
        if "goods_lost" in p:
            lines.append((_t("pic.c.goods_lost", lang, n=p["goods_lost"]), []))
        if "days_lost" in p:
            lines.append((_t("pic.c.days", lang, n=p["days_lost"]), []))
        if isinstance(p.get("shots"), list):
            shots = _hazards(p["shots"], lang)
            lines.append((_t("pic.c.shots", lang, n=len(p["shots"]), list=shots), []))
        return lines

    if typ in ("open_space", "stardust", "epidemic", "sabotage"):
        out.append((_t(f"pic.c.{typ}", lang), []))
    if "firepower" in card:
        out.append((_t("pic.c.firepower", lang, n=card["firepower"]), []))
    if "crew_required" in card:
        out.append((_t("pic.c.crew_required", lang, n=card["crew_required"]), []))
    if typ == "abandoned_ship" and "crew_lost" in card:
        out.append((_t("pic.c.crew_cost", lang, n=card["crew_lost"]), []))
    reward = kit.dict_of(card.get("reward"))
    if reward:
        if "credits" in reward:
            out.append(
                (
                    _t("pic.c.reward", lang)
                    + " "
                    + _t("pic.c.credits", lang, n=reward["credits"]),
                    [],
                )
            )
        if "goods" in reward:
            out.append((_t("pic.c.reward", lang), goods(reward["goods"])))
    if isinstance(card.get("planets"), list):
        for i, pl in enumerate(card["planets"]):
            out.append((_t("pic.c.planet", lang, i=i + 1), goods(pl)))
    if "days_lost" in card:  # what taking the reward or landing costs
        out.append((_t("pic.c.cost", lang, n=card["days_lost"]), []))
    if isinstance(card.get("meteors"), list):
        out.append((_t("pic.c.meteors", lang) + " " + _hazards(card["meteors"], lang), []))
    if isinstance(card.get("lines"), list):
        for line in card["lines"]:
            line = kit.dict_of(line)
            crit = str(line.get("criterion", ""))
            key = "pic.c.firepower_line" if crit == "firepower" else f"pic.c.{crit}"
            pen = " · ".join(s for s, _ in penalty_text(kit.dict_of(line.get("penalty"))))
            out.append((f"{_t(key, lang)}: {pen}", []))
    if isinstance(card.get("penalty"), dict):
        penalty = " · ".join(s for s, _ in penalty_text(card["penalty"]))
        out.append((f"{_t('pic.c.penalty', lang)} {penalty}", []))
    return out


def _hazards(items: list[Any], lang: str) -> str:
    parts = []
    for h in items:
        h = kit.dict_of(h)
        parts.append(
            f"{_t('pic.c.' + str(h.get('size')), lang)} {_t('pic.c.' + str(h.get('from')), lang)}"
        )
    return ", ".join(parts)


def _track_layout(
    box: tuple[float, float, float, float], view: dict[str, Any]
) -> tuple[int, float, list[tuple[float, float]]]:
    """The track's spaces: how many, their radius and their centres."""
    x0, y0, x1, y1 = box
    n = max(4, kit.int_of(view.get("track"), 18))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rs = min(24.0, max(16.0, math.pi * min(x1 - x0, y1 - y0) / 2 / n * 0.9 + 6))
    rx, ry = (x1 - x0) / 2 - rs - 2, (y1 - y0) / 2 - rs - 2
    pts = []
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        pts.append((cx + rx * math.cos(a), cy + ry * math.sin(a)))
    return n, rs, pts


def _track_spaces(
    img: Image.Image, d: ImageDraw.ImageDraw, rs: float, pts: list[tuple[float, float]]
) -> None:
    """The track's empty spaces, numbered (space 1 at the top, clockwise)."""
    for i, (px, py) in enumerate(pts):
        d.ellipse(
            (px - rs, py - rs, px + rs, py + rs), fill=kit.PANEL, outline=PANEL_EDGE, width=2
        )
        _label(img, (px, py), str(i + 1), MIN_FONT, FAINT, "cond")


def _track_rockets(
    d: ImageDraw.ImageDraw, view: dict[str, Any], rs: float, pts: list[tuple[float, float]]
) -> None:
    """The rockets on the track, each labelled with its place in the race (1 = the leader)."""
    flight = kit.dict_of(view.get("flight"))
    n = len(pts)
    spaces = kit.list_of(flight.get("spaces"))
    retired = kit.list_of(flight.get("retired"))
    order = [x for x in kit.list_of(flight.get("order")) if kit.is_int(x)]
    for seat, sp in enumerate(spaces):
        if not kit.is_int(sp) or seat in retired:
            continue
        px, py = pts[sp % n]
        place = order.index(seat) + 1 if seat in order else None
        kit.seat_token(d, (px, py), rs * 1.05, seat, label=str(place) if place else None)
        _mark("rocket")


def _track(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict[str, Any],
) -> None:
    """The flight track: a loop of spaces (space 1 at the top, clockwise) with the rockets,
    each labelled with its place in the race (1 = the leader)."""
    _, rs, pts = _track_layout(box, view)
    _track_spaces(img, d, rs, pts)
    _track_rockets(d, view, rs, pts)


def _ship_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    view: dict[str, Any],
    seat: int,
    names: Sequence[str],
    lang: str,
    highlight: bool,
    below: bool = False,
) -> None:
    """A seat's ship in flight: name and credits on top; the ship; on its right (``below``:
    under it) what it carries (crew, batteries, goods) and the tiles it lost."""
    x0, y0, x1, y1 = box
    ships = kit.list_of(view.get("ships"))
    ship = kit.dict_of(ships[seat]) if seat < len(ships) else {}
    kit.seat_panel(d, box, seat, highlight=highlight)
    flight = kit.dict_of(view.get("flight"))
    credits = kit.int_of(ship.get("credits"))
    result = kit.dict_of(view.get("result"))
    right = _t("pic.credits", lang, n=credits)
    if result:
        scores, ranks = result.get("scores") or [], result.get("ranks") or []
        if seat < len(scores) and seat < len(ranks):
            place = _t("pic.place", lang, place=ranks[seat])
            right = f"{place} · {_t('pic.credits', lang, n=scores[seat])}"
    order = [x for x in kit.list_of(flight.get("order")) if kit.is_int(x)]
    tag = ""
    if seat in kit.list_of(flight.get("retired")):
        tag = _t("pic.retired", lang)
    elif seat in order and not result:
        tag = _t("pic.race_place", lang, place=order.index(seat) + 1)
    colour = RED if seat in kit.list_of(flight.get("retired")) else MUTED
    who = kit.player_name(names, seat, lang)

    def head() -> None:
        """Token, name, place in the race and credits (on the panel's top edge)."""
        kit.seat_token(d, (x0 + 30, y0 + 26), 14, seat)
        cf = kit.font(26)
        kit.text(d, (x1 - 16, y0 + 26), right, cf, fill=GOLD, anchor="rm")
        room = x1 - x0 - 70 - cf.getlength(right) - 20
        rf = kit.font(MIN_FONT)
        tag_w = rf.getlength(tag) + 28 if tag else 0
        name, nf = kit.fit_font(who, room - tag_w, (28, 24, 20))
        kit.text(d, (x0 + 52, y0 + 26), name, nf, anchor="lm")
        if tag:
            kit.pill(d, x0 + 62 + nf.getlength(name), y0 + 13, y0 + 39, tag, rf, colour, pad=10)

    key: tuple[Any, ...] = (box, seat, highlight, right, tag, colour, who)
    cached_region(_HEADS, img, (x0, y0, x1, y0 + 44), key, head)
    crew = sum(kit.int_of(v) for v in kit.dict_of(ship.get("crew")).values())
    crew += sum(1 for v in kit.dict_of(ship.get("aliens")).values() if v)
    batt = sum(kit.int_of(v) for v in kit.dict_of(ship.get("batteries")).values())
    goods = sum(len(v) for v in kit.dict_of(ship.get("goods")).values() if isinstance(v, list))
    stats = [
        _t("pic.crew", lang, n=crew),
        _t("pic.batteries", lang, n=batt),
        _t("pic.goods_n", lang, n=goods),
        _t("pic.lost", lang, n=kit.int_of(ship.get("lost"))),
    ]
    sf = kit.font(MIN_FONT, "book")
    _, _, rows, cols = _frame(view)
    lab = MIN_FONT * 1.2
    if below:  # two lines under the ship, which takes the panel's width
        pairs = [" · ".join(stats[:2]), " · ".join(stats[2:])]
        avail_w, avail_h = x1 - x0 - 30, y1 - y0 - 56 - STATS_BELOW
        s = min((avail_w - lab) / cols, (avail_h - lab) / rows, 64)
        sw, sh_ = ship_size(view, s, MIN_FONT)
        sx = x0 + (x1 - x0 - sw) / 2
        _ship_body(img, d, (sx, y0 + 50, s), box, highlight, view, ship, seat)
        at = (x0 + 24, y0 + 56 + sh_)
        lines = partial(_lines, d, at, pairs, MIN_FONT + 8, sf)
        area = (*at, x1 - 6, at[1] + (MIN_FONT + 8) + MIN_FONT + 6)
        key = (seat, area, *pairs, _edge(area, 0, box, highlight))
        cached_region(_STATS, img, area, key, lines)
        return
    stat_w = max(sf.getlength(x) for x in stats) + 12
    avail_w, avail_h = x1 - x0 - 30 - stat_w, y1 - y0 - 56
    s = min((avail_w - lab) / cols, (avail_h - lab) / rows, 64)
    sw, sh_ = ship_size(view, s, MIN_FONT)
    sx = x0 + 14
    _ship_body(img, d, (sx, y0 + 50 + (avail_h - sh_) / 2, s), box, highlight, view, ship, seat)
    at = (sx + sw + 12, y0 + 50 + (avail_h - sh_) / 2 + lab)
    area = (*at, x1 - 6, at[1] + 3 * (MIN_FONT + 10) + MIN_FONT + 6)
    lines = partial(_lines, d, at, stats, MIN_FONT + 10, sf)
    key = (seat, area, *stats, _edge(area, 0, box, highlight))
    cached_region(_STATS, img, area, key, lines)


def _edge(
    area: tuple[float, float, float, float],
    margin: int,
    panel: tuple[float, float, float, float],
    highlight: bool,
) -> bool | None:
    """What lies under ``area`` besides the panel's fill: the panel's outline (gold when
    ``highlight``) where the area reaches it, else nothing (None)."""
    pb, inner = pixel_box(area, margin), pixel_box(panel, -4)
    inside = pb[0] >= inner[0] and pb[1] >= inner[1] and pb[2] <= inner[2] and pb[3] <= inner[3]
    return None if inside else highlight


def _lines(
    d: ImageDraw.ImageDraw, at: tuple[float, float], lines: list[str], step: float, f: kit.Font
) -> None:
    """What a ship carries, one line under the other."""
    for i, line in enumerate(lines):
        kit.text(d, (at[0], at[1] + i * step), line, f, fill=MUTED)


def _ship_body(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    at: tuple[float, float, float],
    panel: tuple[float, float, float, float],
    highlight: bool,
    view: dict[str, Any],
    ship: dict[str, Any],
    seat: int,
) -> None:
    """A ship in flight (at x, y, tile size s) on its panel, drawn once per place, size and
    what is aboard, pasted afterwards. Under it lies the panel's fill (the seat's colour),
    and its outline (gold when ``highlight``) where the ship reaches the panel's edge."""
    x, y, s = at
    sw, sh_ = ship_size(view, s, MIN_FONT)
    aboard = tuple(repr(ship.get(k)) for k in ("tiles", "crew", "batteries", "goods", "aliens"))
    key: tuple[Any, ...] = (x, y, s, seat, repr(view.get("board")), aboard)
    box = (x, y, x + sw, y + sh_)
    margin = 2  # a barrel may reach 2 px past the ship
    key += (_edge(box, margin, panel, highlight),)
    draw = partial(draw_ship, img, d, x, y, s, view, ship, seat, label_min=MIN_FONT)
    _mark(*cached_region(_SHIPS, img, box, key, _apart_of(draw), margin=margin))


def _draw_flight_table(view: dict[str, Any], names: Sequence[str], lang: str) -> Image.Image:
    """The track and the card on top, the legend, then the ships: side by side for two
    players, two by two for three or four (the picture stays no taller than wide)."""
    n = _players(view, names)
    flight = kit.dict_of(view.get("flight"))
    _, _, rows, cols = _frame(view)
    per = 2
    panel_w = (W - 60) / per
    nrows = math.ceil(n / per)
    top_h = 300 if n <= 2 else 264  # (four ships: every pixel of height counts)
    ships = [kit.dict_of(x) for x in kit.list_of(view.get("ships"))[:n]]
    marks = view_marks(view, ships, [])
    marks.add("rocket")
    card = _card_of(flight)
    if isinstance(card, dict) and (card.get("reward") or card.get("planets")):
        marks.add("goods")
    if kit.dict_of(view.get("result")):
        marks.discard("rocket")  # the end: no track
    entries = len([e for e, m in LEGEND if m & marks])
    # three players: the legend takes the fourth ship's place, else a strip above the ships
    in_slot = n % 2 == 1 and n > 1 and legend_height(entries, 2, MIN_FONT) <= 330
    lg_cols = 2 if in_slot else 4
    lg_h = 0 if in_slot else legend_height(entries, lg_cols, MIN_FONT) + 16
    fixed = 64 + 20 + top_h + 16 + lg_h + 20
    # the ships take what is left of a square picture (wider panels for two players)
    lab = MIN_FONT * 1.2
    below = n <= 2  # two ships side by side: what they carry goes under them
    s_w = (panel_w - 30 - (0 if below else 150) - lab) / cols
    s_h = ((W - fixed + 20) / nrows - 20 - 56 - lab - 20 - (STATS_BELOW if n <= 2 else 0)) / rows
    s = max(30.0, min(64.0, s_w, s_h))
    panel_h = 56 + s * rows + lab + 20 + (STATS_BELOW if below else 0)
    h = int(fixed + nrows * (panel_h + 20) - 20)
    img = Image.new("RGB", (W, max(h, 400)), BG)
    d = ImageDraw.Draw(img)
    _header(img, d, W, view, lang, i18n.t(f"{G}.name", lang))
    # track on the left, the card on the right
    ty = 84
    over = bool(kit.dict_of(view.get("result")))
    cx0 = 20 if over else 580  # the end: the final credits take the whole band
    if not over:
        _, rs, pts = _track_layout((24, ty + 4, 556, ty + top_h - 4), view)

        def track() -> None:
            kit.rounded_box(d, (20, ty, 560, ty + top_h), radius=16, fill=BG2, outline=PANEL_EDGE)
            kit.text(
                d,
                (290, ty + top_h / 2),
                _t("pic.track", lang),
                kit.font(22),
                fill=FAINT,
                anchor="mm",
            )
            _track_spaces(img, d, rs, pts)

        cached_region(_TRACKS, img, (20, ty, 560, ty + top_h), (lang, top_h, len(pts)), track)
        _track_rockets(d, view, rs, pts)
    else:
        marks.discard("rocket")
    band = (cx0, ty, W - 20, ty + top_h)
    counts = (flight.get("cards_done"), bool(flight.get("card")), flight.get("cards_left"))
    result = repr(view.get("result"))
    band_key = (lang, top_h, over, repr(card), counts, result, *(names if over else ()))
    draw = partial(_card_band, d, band, view, names, lang)
    _mark(*cached_region(_BANDS, img, band, band_key, _apart_of(draw)))
    y = ty + top_h + 16
    if in_slot:
        r, c = divmod(n, per)
        bx, by = 20 + c * (panel_w + 20), y + r * (panel_h + 20)
        slot = (bx, by, bx + panel_w, by + panel_h)

        def legend_slot() -> None:
            kit.rounded_box(d, slot, radius=14, fill=BG2, outline=PANEL_EDGE)
            lh = legend_height(entries, lg_cols, MIN_FONT)
            ly = by + max(12, (panel_h - lh) / 2)
            draw_legend(img, d, (bx + 16, ly, bx + panel_w - 10), marks, lang, lg_cols, MIN_FONT)

        used = tuple(e for e, m in LEGEND if m & marks)
        cached_region(_LEGENDS, img, slot, (lang, slot, used, lg_cols), legend_slot)
        explain(marks)
    else:
        y += draw_legend(img, d, (24, y, W - 20), marks, lang, lg_cols, MIN_FONT, keep=True) + 16
    asking = flight.get("asking")
    for i in range(n):
        r, c = divmod(i, per)
        bx = 20 + c * (panel_w + 20)
        by = y + r * (panel_h + 20)
        box = (bx, by, bx + panel_w, by + panel_h)
        _ship_panel(img, d, box, view, i, names, lang, asking == i, below)
    return img


def _card_of(flight: dict[str, Any]) -> Any:
    """The card on the table: the one being played, or the one whose losses are still
    being asked."""
    card = flight.get("card")
    return flight.get("card_over") if card is None and flight.get("asking") is not None else card


def _apart_of(draw: Callable[[], None]) -> Callable[[], set[str]]:
    """``draw`` counting its marks apart: returns them (a cached box adds them again)."""

    def run() -> set[str]:
        with _apart() as out:
            draw()
        return out

    return run


def _card_band(
    d: ImageDraw.ImageDraw,
    band: tuple[float, float, float, float],
    view: dict[str, Any],
    names: Sequence[str],
    lang: str,
) -> None:
    """The band right of the track: the card being played (or the final credits)."""
    cx0, ty, _, bottom_y = band
    top_h = bottom_y - ty
    flight = kit.dict_of(view.get("flight"))
    card = _card_of(flight)
    over = bool(kit.dict_of(view.get("result")))
    kit.rounded_box(d, band, radius=16, fill=kit.PANEL, outline=PANEL_EDGE)
    k = kit.int_of(flight.get("cards_done")) + (1 if flight.get("card") else 0)
    if not over:
        sub = _t("pic.card", lang, k=k, left=kit.int_of(flight.get("cards_left")))
        kit.text(
            d, (W - 40, ty + top_h - 14), sub, kit.font(MIN_FONT, "book"), fill=MUTED, anchor="rd"
        )
    if isinstance(card, dict) and not over:
        title = i18n.t(f"{G}.card.{card.get('type')}", lang)
        tf = kit.font(34)
        kit.text(d, (cx0 + 20, ty + 18), kit.ellipsize(title, tf, W - cx0 - 80), tf, fill=GOLD)
        lines = _card_lines(card, lang)
        # as large as the panel allows: long cards (combat zones) get a smaller font
        # the largest text at which every line, wrapped, fits the panel (a combat zone's
        # list of shots takes several rows); at the smallest, the longest lines are cut
        room_h = top_h - 68 - 30
        width = W - 20 - cx0 - 40

        def wrapped(z: int) -> list[list[str]]:
            f = kit.font(z, "book")
            return [kit.wrap(t, f, width - (z + 6) * len(c), 8) for t, c in lines]

        for size in (25, 22, 20, MIN_FONT):
            parts_of = wrapped(size)
            if sum(len(p) * (size + 7) + 3 for p in parts_of) <= room_h:
                break
        lf, step = kit.font(size, "book"), size + 7
        y = ty + 68
        bottom = ty + 68 + room_h
        for (_, cubes), parts in zip(lines, parts_of, strict=True):
            rows = max(1, min(len(parts), int((bottom - y) // step)))
            if len(parts) > rows:
                parts = [*parts[: rows - 1], kit.ellipsize(" ".join(parts[rows - 1 :]), lf, width)]
            for part in parts:
                kit.text(d, (cx0 + 20, y), part, lf, fill=INK)
                y += step
            if cubes:
                _mark("goods")
                gx = cx0 + 30 + lf.getlength(parts[-1] if parts else "")
                for cube in cubes:
                    top = y - step + 3
                    d.rectangle(
                        (gx, top, gx + size - 3, top + size - 3),
                        fill=cube,
                        outline=TILE_EDGE,
                        width=2,
                    )
                    gx += size + 3
            y += 3
            if y + step > bottom:
                break
    elif over:
        _final_credits(d, (cx0 + 20, ty + 16, W - 40), view, names, lang)
    else:
        kit.text(d, (cx0 + 20, ty + 30), _t("pic.no_card", lang), kit.font(24), fill=MUTED)


def _final_credits(
    d: ImageDraw.ImageDraw,
    at: tuple[float, float, float],
    view: dict[str, Any],
    names: Sequence[str],
    lang: str,
) -> None:
    """The end-of-flight table: each seat's place, credits and where they came from (each
    category named, on one line)."""
    x, y, x1 = at
    result = kit.dict_of(view.get("result"))
    scores, ranks = kit.list_of(result.get("scores")), kit.list_of(result.get("ranks"))
    parts = kit.list_of(result.get("breakdown"))
    order = sorted(
        range(len(scores)), key=lambda i: (kit.int_of(ranks[i]) if i < len(ranks) else 9, i)
    )
    # Four ships leave a lower band (264 px): the title and the rows close up so the last
    # seat's line stays inside it.
    four = len(order) > 3
    kit.text(d, (x, y), _t("pic.finish", lang), kit.font(26 if four else 28), fill=GOLD)
    y += 38 if four else 44
    row, sub, gap = (12, 26, 30) if four else (13, 28, 32)
    bf = kit.font(MIN_FONT, "book")
    for seat in order[:4]:
        kit.seat_token(d, (x + 12, y + row), 11, seat)
        place = _t("pic.place", lang, place=ranks[seat]) if seat < len(ranks) else ""
        head = f"{place} {kit.player_name(names, seat, lang)}"
        hs, hf = kit.fit_font(head, x1 - x - 150, (22, 20, 18))
        kit.text(d, (x + 32, y + row), hs, hf, anchor="lm")
        credits = _t("pic.credits", lang, n=kit.int_of(scores[seat]))
        kit.text(d, (x1, y + row), credits, kit.font(22), fill=GOLD, anchor="rm")
        b = kit.dict_of(parts[seat]) if seat < len(parts) else {}
        detail = " · ".join(
            f"{i18n.t(f'{G}.score.{k}', lang)} {v:+d}".replace(" -", " −")
            for k, v in b.items()
            if kit.is_int(v) and v
        )
        room = 1 if four else 2  # four players: one line each fits the band
        lines = kit.wrap(detail, bf, x1 - x - 32, room) if detail else []
        for i, line in enumerate(lines):
            kit.text(d, (x + 32, y + sub + i * 22), line, bf, fill=MUTED)
        y += gap + (20 if four else 22) * len(lines)
