"""Galaxy Trucker pictures: one seat's private picture (its ship while building or checked)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.galaxy_trucker.flight import _card_lines
from render.galaxy_trucker.legend import draw_legend, legend_height, view_marks
from render.galaxy_trucker.marks import LEGEND, _picture
from render.galaxy_trucker.ship import _frame, _header, draw_ship, ship_size
from render.galaxy_trucker.style import PW, G, _cells, _lang, _png, _t
from render.galaxy_trucker.tile import draw_tile
from render.kit import BG, FAINT, GOLD, GREEN, MUTED, RED

# --------------------------------------------------------------------------- private


def _seat_of(view: dict[str, Any], seat: int | None) -> int | None:
    if kit.is_int(seat):
        return seat
    for raw in (view.get("seat"), kit.dict_of(view.get("private")).get("seat")):
        if kit.is_int(raw):
            return raw
    return None


def _draw_private(view: dict[str, Any], names: Sequence[str], lang: str, seat: int) -> Image.Image:
    """Portrait: the ship on top (as large as a phone allows), below it the tile in hand
    and the reserve side by side, then a peeked card pile or the pre-launch problems."""
    priv = kit.dict_of(view.get("private"))
    ships = kit.list_of(view.get("ships"))
    ship = kit.dict_of(ships[seat]) if seat < len(ships) else {}
    step = view.get("step")
    _, _, _rows, cols = _frame(view)
    s = min(96.0, (PW - 40) / (cols + 0.45))
    sw, sh_ = ship_size(view, s)
    hand = kit.dict_of(priv.get("hand"))
    peek = kit.dict_of(priv.get("peek"))
    problems = kit.list_of(ship.get("problems"))
    top = 110 + sh_ + 24
    if step == "build":
        below = 260 + (40 + 26 * len(peek.get("cards") or []) if peek else 0)
    else:
        below = 60 + 28 * min(12, len(problems))
    loose = [hand, *kit.list_of(ship.get("reserve"))] if step == "build" else []
    marks = view_marks(view, [ship], [t for t in loose if t])
    free_cells = _cells(priv.get("free")) if hand else set()
    if free_cells:
        marks.add("free")
    if problems:
        marks.add("bad")
    if ship.get("last") and step == "build":
        marks.add("last")
    lg_size, lg_cols = 20, 2
    lg_h = legend_height(len([e for e, m in LEGEND if m & marks]), lg_cols, lg_size)
    h = int(top + below + 50 + lg_h + 10)
    img = Image.new("RGB", (PW, h), BG)
    d = ImageDraw.Draw(img)
    title = f"{_t('pic.your_ship', lang)} · {kit.player_name(names, seat, lang)}"
    _header(img, d, PW, view, lang, title, level=False)
    x0 = (PW - sw) / 2
    kit.text(d, (x0 + sw / 2, 80), _t("pic.front", lang), kit.font(20), fill=MUTED, anchor="ma")
    free = _cells(priv.get("free")) if hand else set()
    bad: set[tuple[int, int]] = set()
    for p in problems:
        if isinstance(p, list) and len(p) == 2:
            bad |= _cells(p[1])
    last = _cells([ship.get("last")])
    draw_ship(
        img,
        d,
        x0,
        110,
        s,
        view,
        ship,
        seat,
        free=free,
        bad=bad,
        last=next(iter(last)) if last and step == "build" else None,
    )
    y = top
    if step == "build":
        # left: the tile in hand
        x: float = 24
        colw = PW / 2 - 40
        kit.text(d, (x, y), _t("pic.in_hand", lang), kit.font(26), fill=MUTED)
        if hand:
            big = 150
            draw_tile(d, x, y + 40, big, hand, seat=seat)
            kind = i18n.t(f"{G}.tile.{hand.get('kind')}", lang)
            kf = kit.font(24)
            label = f"#{kit.int_of(hand.get('id'))} {kind}"
            for i, line in enumerate(kit.wrap(label, kf, colw - big - 10, 3)):
                kit.text(d, (x + big + 12, y + 60 + i * 30), line, kf)
            hf = kit.font(19, "book")
            for i, hint in enumerate((_t("pic.turn_hint", lang), _t("pic.free_hint", lang))):
                kit.text(
                    d, (x, y + 200 + i * 26), kit.ellipsize(hint, hf, colw + 20), hf, fill=MUTED
                )
        else:
            kit.text(d, (x, y + 44), _t("pic.hand_empty", lang), kit.font(21, "book"), fill=FAINT)
            if ship.get("last"):
                hf = kit.font(19, "book")
                hint = kit.ellipsize(_t("pic.last_hint", lang), hf, colw + 20)
                kit.text(d, (x, y + 78), hint, hf, fill=GOLD)
        # right: the reserve
        x = PW / 2 + 20
        kit.text(d, (x, y), _t("pic.reserve", lang), kit.font(26), fill=MUTED)
        reserve = kit.list_of(ship.get("reserve"))
        if not reserve:
            kit.text(
                d, (x, y + 44), _t("pic.reserve_empty", lang), kit.font(21, "book"), fill=FAINT
            )
        rs = 110
        for i, t in enumerate(reserve[:2]):
            if isinstance(t, dict):
                tx = x + i * (rs + 30)
                draw_tile(d, tx, y + 40, rs, t)
                tid = f"#{kit.int_of(t.get('id'))}"
                kit.text(d, (tx + rs / 2, y + 44 + rs), tid, kit.font(20), anchor="ma")
        y += 260
        if peek:
            pile = kit.int_of(peek.get("pile"))
            kit.text(d, (24, y), _t("pic.peek", lang, pile=pile), kit.font(24), fill=GOLD)
            y += 38
            cf = kit.font(20, "book")
            for c in peek.get("cards") or []:
                c = kit.dict_of(c)
                name = i18n.t(f"{G}.card.{c.get('type')}", lang)
                detail = " · ".join(t for t, _ in _card_lines(c, lang)[:3])
                kit.text(d, (24, y), kit.ellipsize(f"{name}: {detail}", cf, PW - 48), cf)
                y += 26
    else:
        if problems:
            kit.text(d, (24, y), _t("pic.problems", lang), kit.font(26), fill=RED)
            y += 40
            pf = kit.font(21, "book")
            for p in problems[:12]:
                if not (isinstance(p, list) and len(p) == 2):
                    continue
                cells = sorted(_cells(p[1]))
                where = ", ".join(f"{r}·{c}" for r, c in cells[:4])
                line = f"{i18n.t(f'{G}.problem.{p[0]}', lang)}: {where}"
                kit.text(d, (24, y), kit.ellipsize(line, pf, PW - 48), pf)
                y += 28
        else:
            kit.text(d, (24, y), _t("pic.no_problems", lang), kit.font(24), fill=GREEN)
    hf = kit.font(19, "book")
    exposed = _t("pic.exposed", lang, n=kit.int_of(ship.get("exposed")))
    kit.text(d, (24, h - 46 - lg_h), exposed, hf, fill=MUTED)
    draw_legend(img, d, (24, h - 16 - lg_h, PW - 16), marks, lang, lg_cols, lg_size, keep=True)
    return img


def render_private(
    view: dict[str, Any], names: list[str], lang: str, seat: int | None = None
) -> bytes | None:
    """PNG bytes of one seat's ship while it is being built or checked (nobody else sees
    it then), with the tile in hand, the reserve, a peeked card pile and problems in red.
    ``None`` once the flight has begun (every ship is on the table then) or without a seat."""
    who = _seat_of(view, seat)
    if who is None or view.get("step") not in ("build", "prelaunch"):
        return None
    ships = view.get("ships")
    if not isinstance(ships, list) or not 0 <= who < len(ships):
        return None
    with kit.LOCK, _picture():
        img = _draw_private(view, names, _lang(lang), who)
    return _png(img)
