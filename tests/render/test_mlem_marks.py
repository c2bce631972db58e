"""Every mark drawn on a MLEM picture is explained on that picture.

``render.mlem.MARKS`` lists the marks the renderer can draw (its drawing helpers: the
rocket, the UFO, a recon tile…) with the i18n keys of the words that explain each one. Over
seeded random play-outs (every variant on and off, 2 to 5 players, English and Spanish) each
picture is drawn with every helper watched: each mark drawn must have one of its legend
strings drawn on the same picture, and no text is cut short to fit. And every drawing
helper of the module is either a mark listed there or a part listed here (a panel, a path,
a layout helper) that draws no mark of its own, so a new mark cannot come without its
legend."""

from __future__ import annotations

import pytest

from core.i18n import t
from render import mlem
from tests.render.marks import check_game, check_listed, defined, unexplained, watch

#: Drawing helpers that are not marks: panels, paths and layout helpers (their marks are
#: drawn by the helpers in MARKS, their words are text).
PARTS = {
    "_least",
    "_section",
    "_draw_path",
    "_draw_header",
    "_draw_track_tokens",
    "_draw_board_tokens",
    "_draw_group",
    "_draw_rocket",
    "_rocket_geometry",
    "_rocket_box",
    "_objective_claims",
    "_draw_legend",
    "_draw_players",
    "_players_frame",
    "_player_row",
    "_crew_frame",
    "_crew_row",
    "_highlight",
    "_draw_final",
    "_draw_crew",
    "_draw_dice",
    "_draw_variants",
    "board_text",
}


def test_every_drawing_helper_is_a_listed_mark_or_part() -> None:
    check_listed(mlem, PARTS)
    for name, keys in mlem.MARKS.items():
        assert callable(defined(mlem, name)) and keys, name


def test_every_mark_on_a_picture_has_its_legend_there(monkeypatch: pytest.MonkeyPatch) -> None:
    w = watch(mlem, monkeypatch)
    every = {"ufo": "on", "recon": "on", "missions": "on"}
    check_game(mlem, w, "mlem", [(2, {}), (3, every), (5, every)])


def test_the_check_sees_a_mark_without_its_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    w = watch(mlem, monkeypatch)
    w.marks.append(("star", {}))
    w.texts.append("Players")
    assert unexplained(mlem.MARKS, w, "en")
    w.texts.append(t("mlem.render.legend.commander", "en"))
    assert not unexplained(mlem.MARKS, w, "en")
