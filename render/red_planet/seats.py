"""What Mission: Red Planet's table and private picture both draw with: its words, the
seats' colours and shapes, a seat's numbered token, a zone's name."""

from __future__ import annotations

from PIL import ImageDraw

from core import i18n
from render import kit
from render.kit import RGB, font, text

#: The smallest type on the table: 6 px when Discord shows it 400 px wide on a phone.
MIN_FONT = 21

_lang = kit.lang_or_default
t = kit.texts("red_planet.render")


def seat_shape(c: int) -> str:
    """The shape of colour ``c``'s tokens (the kit's six)."""
    return str(kit.PALETTE[c].shape)


def seat_rgb(c: int) -> RGB:
    """The RGB of colour ``c`` (seats, and the neutral's colour index with two players)."""
    return kit.PALETTE[c].rgb


def token(
    d: ImageDraw.ImageDraw, center: tuple[float, float], r: float, c: int, label: str = ""
) -> None:
    """Colour ``c``'s token (the kit's shape and colour) with a number on it, never smaller
    than the table's smallest type."""
    kit.seat_token(d, center, r, c, None)
    if label:
        pc = kit.PALETTE[c % len(kit.PALETTE)]
        dy = r * 0.2 if pc.shape == "triangle" else r * 0.08 if pc.shape == "star" else 0
        f = font(max(MIN_FONT, round(r * 0.95)), "cond" if len(label) > 1 else "bold")
        text(d, (center[0], center[1] + dy), label, f, fill=kit.DARK, anchor="mm")


def _zone_name(z: str, lang: str) -> str:
    return i18n.t(f"red_planet.render.zone.{z}", lang)
