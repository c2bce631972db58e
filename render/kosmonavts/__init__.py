"""Board pictures for Kosmonavts.

The Discord layer calls exactly two functions, from a worker thread:

* :func:`render_table` — PNG bytes of the public table (``view["private"]`` is dropped first
  and never read).
* :func:`render_private` — PNG bytes of one seat's secrets: while an order is being composed,
  a close-up of the ship with the path, the projected end hex and its danger, fuel and shields
  after the order; and the seat's missions. ``None`` when the view holds nothing private.

The hex board (sky, hex grid, Sun, danger ring, asteroid belt, every orbit with its spaces,
the comet path) is drawn once at import, at two scales (table and close-up), and copied for
every picture; only bodies, ships and the side panel are drawn per render.

The package, by what it draws: ``geometry`` (colours, the hex board's geometry, its static
layer), ``view`` (reading the view), ``glyphs`` (the marks), ``base`` (bodies and ships on
the board, the static table, the palette), ``table`` (the public table) and ``private`` (a
seat's picture). This module re-exports what the rest of the code imports from the game's renderer
(tests that swap a drawing helper patch it where it lives: tests/render/marks.py).
"""

from __future__ import annotations

from render.kosmonavts.base import _build_base
from render.kosmonavts.geometry import (
    ALL_HEXES,
    BOARD_X0,
    BOARD_Y0,
    BODIES,
    DANGER_RGB,
    KIND_RGB,
    ORBITS,
    PHASE_RGB,
    PX0,
    RADIUS,
    TABLE_GEO,
    H,
    W,
    _dir_angle,
    dist,
)
from render.kosmonavts.private import render_private
from render.kosmonavts.table import render_table
from render.kosmonavts.view import _name, _phase
from render.kosmonavts.words import describe_private, describe_table  # noqa: F401

#: Every mark (a drawing helper of this module) a picture can show, with the i18n keys of
#: the words that explain it on the same picture (any one will do; ``{name}`` fields are
#: the helper's arguments). tests/render/test_kosmonavts_marks.py draws pictures and checks
#: it. A ship (``ship_token``) is its player's shape and colour, named in that player's panel.
MARKS: dict[str, tuple[str, ...]] = {
    "shield_icon": ("kosmonavts.render.legend.shield", "kosmonavts.render.private.shields"),
    "cube": (
        "kosmonavts.render.legend.fuel",
        "kosmonavts.render.private.arrows",
        "kosmonavts.render.private.arrows_hyper",
    ),
    "tank": ("kosmonavts.render.legend.fuel", "kosmonavts.render.private.tank"),
    "body_disc": ("kosmonavts.body.{body}", "kosmonavts.render.to_place"),
    "comet_tail": ("kosmonavts.body.halley",),
    "instructor_badge": ("kosmonavts.render.legend.instructor",),
    "arrow": (
        "kosmonavts.render.legend.drift",
        "kosmonavts.render.directions",
        "kosmonavts.render.private.legend_path",
    ),
    "rose": (
        "kosmonavts.render.flying",
        "kosmonavts.render.landed",
        "kosmonavts.render.returned",
        "kosmonavts.render.evacuated",
        "kosmonavts.render.landed_short",
        "kosmonavts.render.evacuated_short",
        "kosmonavts.render.not_placed",
    ),
    "_marker_chip": ("kosmonavts.render.legend.marker",),
    "_event_icon": ("kosmonavts.card.{cid}",),
    "_legend_icon_danger": ("kosmonavts.render.legend.danger",),
    "_legend_icon_orbit": ("kosmonavts.render.legend.orbit",),
    "_legend_icon_next": ("kosmonavts.render.legend.next",),
    "_legend_icon_drift": ("kosmonavts.render.legend.drift",),
    "_legend_icon_marker": ("kosmonavts.render.legend.marker",),
    "_legend_icon_instructor": ("kosmonavts.render.legend.instructor",),
}

__all__ = [
    "ALL_HEXES",
    "BOARD_X0",
    "BOARD_Y0",
    "BODIES",
    "DANGER_RGB",
    "KIND_RGB",
    "MARKS",
    "ORBITS",
    "PHASE_RGB",
    "PX0",
    "RADIUS",
    "TABLE_GEO",
    "H",
    "W",
    "_build_base",
    "_dir_angle",
    "_name",
    "_phase",
    "dist",
    "render_private",
    "render_table",
]
