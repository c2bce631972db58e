"""Every mark drawn on a Kosmonavts picture is explained on that picture: the checks of
tests/render/marks.py over ``render.kosmonavts.MARKS``, with seeded random
play-outs of the basic and advanced rules, 2 to 4 players, English and Spanish."""

from __future__ import annotations

import pytest

from render import kosmonavts
from tests.render.marks import check_game, check_listed, unexplained, watch

#: Drawing helpers that are not marks: panels, layout and the board's own layers.
PARTS = {
    "_least",
    "_sizes",
    "_dashed",
    "ship_token",  # a player's shape and colour, named in that player's panel
    "_draw_bodies_and_ships",
    "_draw_compass",
    "_draw_legend",
    "_draw_header",
    "_header_note",
    "_close_up_legend",
    "_chip",
    "_draw_player",
    "_draw_events",
    "_draw_order_panel",
    "_draw_missions",
}


def test_every_drawing_helper_is_a_listed_mark_or_part() -> None:
    check_listed(kosmonavts, PARTS)


def test_every_mark_on_a_picture_has_its_legend_there(monkeypatch: pytest.MonkeyPatch) -> None:
    w = watch(kosmonavts, monkeypatch)
    cases = [(2, {"rules": "basic"}), (3, {"rules": "advanced"}), (4, {"rules": "advanced"})]
    check_game(kosmonavts, w, "kosmonavts", cases)


def test_the_check_sees_a_mark_without_its_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    w = watch(kosmonavts, monkeypatch)
    w.marks.append(("instructor_badge", {}))
    w.texts.append("Events")
    assert unexplained(kosmonavts.MARKS, w, "en")
    w.texts.append("instructor")
    assert not unexplained(kosmonavts.MARKS, w, "en")
