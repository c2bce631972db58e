"""Galaxy Trucker pictures: the table (open pool, hourglass and who is done while building;
the flight track, the current card and every ship in flight) and a seat's private picture
(its ship under construction, the tile in hand, the reserve, a peeked card pile, problems in
red at pre-launch).

The channel never shows a ship in progress: the table draws ships only once the flight has
begun. Tiles are drawn from the view's connector strings (front, right, rear, left: ``0``
smooth, ``1`` single, ``2`` double, ``U`` universal as one, two or three tubes) and their
kind, with the component on it: crew and aliens in cabins, charges in batteries, goods in
holds, the exhaust of engines and the barrel of cannons pointing where they point, the two
sides a shield covers. Rows and columns are labelled with the board's printed numbers, the
same ones the "place"/"remove" buttons show (``6·8``).

Board constants come from :mod:`rules.galaxy_trucker.tiles`; views come from outside, so
every field is read defensively.

The package, by what it draws: ``style`` (colours, sizes, palette), ``marks`` (what a
picture draws, for its legend), ``tile``, ``ship`` (and a table's header), ``legend``,
``flight`` (the flight table), ``table`` (the public table) and ``private`` (a seat's
picture). This module re-exports what the rest of the code imports from the game's renderer
(tests that swap a drawing helper patch it where it lives: tests/render/marks.py).
"""

from __future__ import annotations

from render.galaxy_trucker.legend import draw_legend, legend_height, view_marks
from render.galaxy_trucker.marks import LEGEND, RECORD, Marks
from render.galaxy_trucker.private import render_private
from render.galaxy_trucker.ship import draw_ship, ship_size
from render.galaxy_trucker.style import MIN_FONT, PW, W
from render.galaxy_trucker.table import render_table
from render.galaxy_trucker.tile import draw_tile
from render.galaxy_trucker.words import describe_private, describe_table  # noqa: F401

__all__ = [
    "LEGEND",
    "MIN_FONT",
    "PW",
    "RECORD",
    "Marks",
    "W",
    "draw_legend",
    "draw_ship",
    "draw_tile",
    "legend_height",
    "render_private",
    "render_table",
    "ship_size",
    "view_marks",
]
