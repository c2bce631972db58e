"""Mission: Red Planet's private picture: one seat's hand (the hidden choice marked), its
missions (dealt or kept, with the points they would score now), action cards and the
face-down discoveries it knows. Drawn on the table's palette, under the renderer's lock."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from core import i18n
from render import kit
from render.kit import GOLD, INK, MUTED, PANEL, PANEL_EDGE, RGB, font, text
from render.red_planet.seats import _zone_name, t, token
from rules.red_planet.data import ZONES

#: The smallest type on the private picture (1100 px wide): 6 px seen 400 px wide.
PRIVATE_MIN_FONT = 17
#: The private picture's running text: a little above the floor, for thin card text.
PRIVATE_BODY_FONT = 19


def _has_private(priv: Any) -> bool:
    if not isinstance(priv, dict):
        return False
    return bool(
        priv.get("hand")
        or priv.get("missions")
        or priv.get("dealt")
        or priv.get("actions")
        or priv.get("discoveries")
        or priv.get("chosen")
    )


def _card(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    title: str,
    body: str,
    *,
    edge: RGB = PANEL_EDGE,
    fill: RGB = PANEL,
    badge: str = "",
    badge_rgb: RGB = GOLD,
) -> None:
    x0, y0, x1, _y1 = box
    kit.rounded_box(d, box, radius=12, fill=fill, outline=edge, width=3)
    tt, tf = kit.fit_font(title, x1 - x0 - 24 - (60 if badge else 0), (24, 22, 20))
    text(d, (x0 + 12, y0 + 22), tt, tf, fill=INK, anchor="lm")
    if badge:
        text(d, (x1 - 12, y0 + 22), badge, font(24), fill=badge_rgb, anchor="rm")
    f = font(PRIVATE_BODY_FONT, "cond")
    for i, line in enumerate(kit.wrap(body, f, x1 - x0 - 24, max_lines=4)):
        text(d, (x0 + 12, y0 + 46 + i * 24), line, f, fill=MUTED)


def _draw_private(
    view: dict, priv: dict, names: Sequence[str], lang: str, seat: int | None
) -> Image.Image:
    hand = [int(h) for h in priv.get("hand") or [] if isinstance(h, int)]
    chosen = int(priv["chosen"]) if isinstance(priv.get("chosen"), int) else None
    revealed = {
        (int(x[0]), int(x[1]))
        for x in view.get("revealed") or []
        if isinstance(x, list) and len(x) == 2
    }
    if seat is not None and chosen is not None and (seat, chosen) in revealed:
        chosen = None  # already face up on the table: no secret any more
    missions = [m for m in priv.get("missions") or [] if isinstance(m, dict)]
    dealt = [str(m) for m in priv.get("dealt") or []]
    acts = [str(a) for a in priv.get("actions") or []]
    discs = kit.dict_at(priv, "discoveries")

    pw = 1100
    card_w, card_h = (pw - 48 - 2 * 14) / 3, 148
    Item = tuple[str, str, str, RGB]

    def card(cid: str, note: str = "", col: RGB = PANEL_EDGE, zone: str | None = None) -> Item:
        """A card's name, its text (after the zone it was found in), a note, its colour."""
        desc = i18n.t(f"red_planet.card.{cid}.desc", lang)
        desc = desc if zone is None else f"{_zone_name(zone, lang)} · {desc}"
        return i18n.t(f"red_planet.card.{cid}", lang), desc, note, col

    sections: list[tuple[str, list[Item]]] = []
    if dealt:
        sections.append((t("private.choose_mission", lang), [card(m) for m in dealt]))
    if missions:
        items = []
        for m in missions:
            pts = int(m.get("points") or 0)
            note = t("now_points", lang, n=pts)
            items.append(card(str(m.get("id")), note, kit.GREEN if pts > 0 else GOLD))
        sections.append((t("private.missions", lang), items))
    if acts:
        sections.append((t("private.actions", lang), [card(a) for a in acts]))
    if discs:
        found = sorted(discs.items(), key=lambda kv: ZONES.index(kv[0]) if kv[0] in ZONES else 99)
        items = [card(cid, col=(120, 150, 220), zone=z) for z, cid in found]
        sections.append((t("private.discoveries", lang), items))

    ph = 72 + (170 if hand or chosen else 0)
    for _, items in sections:
        ph += 36 + math.ceil(len(items) / 3) * (card_h + 12) + 8
    img = kit.star_field((pw, int(ph)), seed=9)
    d = ImageDraw.Draw(img)
    who = kit.player_name(names, seat, lang) if seat is not None else ""
    title = t("private.title", lang, name=who) if who else t("private.anon", lang)
    mark = (lambda cy: token(d, (34, cy), 15, seat, "")) if seat is not None else None
    kit.title_bar(d, pw, 58, title, room=pw - 120, text_x=24 if mark is None else 58, token=mark)
    y = 72.0
    if hand or chosen:
        text(d, (24, y + 12), t("private.hand", lang), font(24), fill=GOLD, anchor="lm")
        y += 30
        cards = sorted({*hand, *([chosen] if chosen else [])}, reverse=True)
        cw = min(112.0, (pw - 48 - 8 * 8) / 9)
        for i, num in enumerate(cards):
            x = 24 + i * (cw + 8)
            is_chosen = num == chosen
            fill = (226, 216, 190) if not is_chosen else GOLD
            d.rounded_rectangle(
                (x, y, x + cw, y + 124),
                radius=10,
                fill=fill,
                outline=(200, 84, 56) if is_chosen else kit.DARK,
                width=4 if is_chosen else 2,
            )
            text(d, (x + cw / 2, y + 32), str(num), font(40), fill=kit.DARK, anchor="mm")
            name = i18n.t(f"red_planet.char.{num}", lang).split(" ", 1)[-1]
            for size in range(PRIVATE_BODY_FONT, PRIVATE_MIN_FONT - 1, -1):
                f = font(size, "cond")
                lines = kit.wrap(name, f, cw - 8, max_lines=2)
                if "…" not in "".join(lines):
                    break
            for k, line in enumerate(lines):
                ly = y + (70 if len(lines) == 1 else 62) + k * 21
                text(d, (x + cw / 2, ly), line, f, fill=kit.DARK, anchor="mm")
            if is_chosen:
                s, f = kit.fit_font(t("private.chosen", lang), cw - 8, (PRIVATE_MIN_FONT,), "cond")
                text(d, (x + cw / 2, y + 108), s, f, fill=(140, 40, 20), anchor="mm")
        y += 140
    for heading, items in sections:
        text(d, (24, y + 14), heading, font(24), fill=GOLD, anchor="lm")
        y += 36
        for i, (title_s, body, badge, edge) in enumerate(items):
            col, row = i % 3, i // 3
            x = 24 + col * (card_w + 14)
            yy = y + row * (card_h + 12)
            _card(
                d,
                (x, yy, x + card_w, yy + card_h),
                title_s,
                body,
                edge=edge,
                badge=badge,
                badge_rgb=edge,
            )
        y += math.ceil(len(items) / 3) * (card_h + 12) + 8
    return img
