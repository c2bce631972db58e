"""Board pictures for MLEM: Space Agency.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (never reads ``view["private"]``).
* :func:`render_private` — PNG bytes of one seat's secrets (missions, hidden points), or
  ``None`` when the view holds nothing private.

The static part of the table (sky, star track with its dice faces, moons, planets, deep
space, objective cards, legend) is drawn once per language and copied for every render;
only the pieces that change are drawn on the copy.

The package, by what it draws: ``geometry`` (layout, font sizes, colours), ``view``
(reading the view), ``glyphs`` (the marks), ``base`` (the static table), ``panels`` (the
side and bottom panels), ``table`` (the public table, the palette) and ``private`` (a
seat's picture). This module re-exports what the rest of the code imports from the game's renderer
(tests that swap a drawing helper patch it where it lives: tests/render/marks.py).
"""

from __future__ import annotations

from render.mlem.base import _build_base
from render.mlem.geometry import (
    BOARD_H,
    BOARD_K,
    OUT_H,
    OUT_HEADER_H,
    OUT_W,
    PANEL_K,
    PANEL_X0,
    PX0,
    PX1,
)
from render.mlem.private import render_private
from render.mlem.table import (
    _PALETTE,
    _draw_legend,
    render_table,
)
from render.mlem.view import _phase
from render.mlem.words import describe_private, describe_table  # noqa: F401

#: Every mark (a drawing helper of this module) a picture can show, with the i18n keys of
#: the words that explain it on the same picture (any one will do; ``{name}`` fields are
#: the helper's arguments). tests/render/test_mlem_marks.py draws pictures and checks it.
MARKS: dict[str, tuple[str, ...]] = {
    "rocket": ("mlem.render.legend.first",),
    "ufo": ("mlem.render.legend.ufo", "mlem.render.ufo.where", "mlem.render.private.ufo"),
    "cat": (
        "mlem.render.legend.astronauts",
        "mlem.render.private.missions",
        "mlem.render.private.choose",
    ),
    "satellite": ("mlem.render.legend.satellite",),
    "star": ("mlem.render.legend.commander",),
    "ability_icon": ("mlem.render.ability.{ability}",),
    "recon_tile": (
        "mlem.render.legend.recon_{tile[kind]}",
        "mlem.render.legend.recon_slot",
        "mlem.render.recon.left",
        "mlem.render.private.recon",
    ),
    "_faces_row": ("mlem.render.legend.afterburner",),
    "_moon_icon": ("mlem.render.legend.moon",),
    "_planet_icon": ("mlem.render.legend.planet",),
    "_objective_icon": ("mlem.render.objective.{obj}",),
    "_mission_icon": ("mlem.render.legend.missions",),
}

__all__ = [
    "BOARD_H",
    "BOARD_K",
    "MARKS",
    "OUT_H",
    "OUT_HEADER_H",
    "OUT_W",
    "PANEL_K",
    "PANEL_X0",
    "PX0",
    "PX1",
    "_PALETTE",
    "_build_base",
    "_draw_legend",
    "_phase",
    "render_private",
    "render_table",
]
