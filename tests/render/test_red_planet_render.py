"""Board pictures for Mission: Red Planet: the table and private pictures render for many
states of random games (2–6 players) within budget; secrets never reach the table."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from core import i18n
from render import red_planet as R
from rules.red_planet import GAME
from rules.red_planet.data import ZONES
from tests.kit import png_ok
from tests.render import kit as K
from tests.render.kit import LANGS, NAMES

#: States along seeded games played by the engine's bots (every 9th move, and the last).
game_states, sample = K.sampler("red_planet", every=9)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_table_and_private_pictures_of_random_games(n: int) -> None:
    K.check_pictures_in_time(
        "red_planet",
        n,
        [sample(n, seed, 8) for seed in (n * 10 + 1, n * 10 + 2)],
        table=lambda img: img.width == R.W and 900 <= img.height <= R.W,
        private=lambda img: img.width == 1100,
    )


def test_seat_colours_are_six_distinct_colours_and_shapes() -> None:
    rgbs = [R.seat_rgb(c) for c in range(6)]
    assert len(set(rgbs)) == 6
    shapes = [R.seat_shape(c) for c in range(6)]
    assert len(set(shapes)) == 6
    # distinct enough to tell apart: no two closer than a clear step in RGB space
    for i in range(6):
        for j in range(i + 1, 6):
            dist = sum((a - b) ** 2 for a, b in zip(rgbs[i], rgbs[j], strict=True)) ** 0.5
            assert dist > 60, (i, j, rgbs[i], rgbs[j])


def test_every_colour_is_drawn_in_a_six_player_game() -> None:
    s = sample(6, 61, 4)[2]
    img = png_ok(R.render_table(GAME.view(s, None), NAMES, "en")).convert("RGB")
    colours: list[tuple[int, int, int]] = [c for _, c in img.getcolors(1 << 20) or []]  # type: ignore[misc]
    for c in range(6):  # the PNG palette may shift a colour by a few steps
        want = R.seat_rgb(c)
        near = [k for k in colours if sum(abs(a - b) for a, b in zip(k, want, strict=True)) < 24]
        assert near, (c, want)


def _private_values(s: dict[str, Any]) -> list[dict[str, Any]]:
    return [GAME.view(s, seat)["private"] for seat in range(s["n"])]


def test_the_table_never_reads_the_private_part() -> None:
    for n in (2, 4, 6):
        for s in sample(n, 70 + n, 3):
            public = GAME.view(s, None)
            expected = R.render_table(public, NAMES[:n], "en")
            for seat in range(n):
                mine = GAME.view(s, seat)
                assert R.render_table(mine, NAMES[:n], "en") == expected
            other = copy.deepcopy(public)
            other["private"] = {"hand": [9], "missions": [{"id": "M01", "points": 8}]}
            assert R.render_table(other, NAMES[:n], "en") == expected


def test_hidden_things_look_the_same_whatever_they_hide() -> None:
    """Two games that differ only in what is face down (resources, discoveries, hands,
    chosen characters) give the same public picture."""
    s = sample(4, 81, 6)[3]
    public = GAME.view(s, None)
    twisted = copy.deepcopy(s)
    for z in ZONES:
        res, up = twisted["res"][z]
        if not up:
            twisted["res"][z] = ["cel" if res != "cel" else "ice", False]
    for d in twisted["disc"].values():
        if not d["up"]:
            d["id"] = "D13" if d["id"] != "D13" else "D01"
    assert GAME.view(twisted, None) == public
    assert R.render_table(GAME.view(twisted, None), NAMES[:4], "es") == R.render_table(
        public, NAMES[:4], "es"
    )


def test_private_picture_shows_the_secrets() -> None:
    s = next(
        st
        for st in game_states(3, 91, every=1)
        if st["step"] == "choose" and st["chosen"][0] is not None and st["missions"][0]
    )
    view = {**GAME.view(s, 0), "seat": 0}
    png = R.render_private(view, NAMES[:3], "en")
    other = copy.deepcopy(view)
    other["private"]["chosen"] = next(c for c in view["private"]["hand"] if c != s["chosen"][0])
    assert R.render_private(other, NAMES[:3], "en") != png
    other = copy.deepcopy(view)
    other["private"]["missions"] = [{"id": "M13", "points": 0}]
    assert R.render_private(other, NAMES[:3], "en") != png


def test_private_none_when_nothing_private() -> None:
    s = game_states(3, 5)[3]
    assert R.render_private(GAME.view(s, None), NAMES[:3], "en") is None
    empty: dict[str, Any] = {
        "hand": [],
        "chosen": None,
        "missions": [],
        "actions": [],
        "dealt": [],
        "discoveries": {},
    }
    assert R.render_private({**GAME.view(s, None), "private": empty}, [], "en") is None


def test_private_at_set_up_shows_the_two_dealt_missions() -> None:
    s = GAME.new(4, {}, 3)
    for seat in range(4):
        view = GAME.view(s, seat)
        assert len(view["private"]["dealt"]) == 2
        png_ok(R.render_private(view, NAMES[:4], "es", seat))


def test_odd_views() -> None:
    """A real view with broken parts (test_render_contract.py tries the generic odd input)."""
    v = copy.deepcopy(GAME.view(sample(4, 41, 4)[2], None))
    v["docks"][0] = None
    v["zones"]["VM"] = {"astronauts": None, "resource": "xx", "pile": None, "discovery": 5}
    v["resolving"] = None
    v["played"] = None
    png_ok(R.render_table(v, NAMES[:4], "en"))
    png_ok(R.render_private({"private": {"hand": [9, 8]}, "seat": 9}, [], "es"))


def test_every_render_string_the_renderer_uses_exists() -> None:
    en = K.render_keys("red_planet")
    assert en
    src = K.renderer_source("red_planet")
    used = {f"red_planet.render.{k}" for k in re.findall(r'\bt\(\s*"([a-z_.]+)"', src)}
    used |= {f"red_planet.render.zone.{z}" for z in ZONES}
    used |= {f"red_planet.render.compass.{k}" for k in "nesw"}
    assert used <= en, used - en
    for lang in LANGS:
        assert i18n.t("red_planet.render.zone.PH", lang) in ("Phobos", "Fobos")


def test_map_zones_do_not_overlap() -> None:
    boxes = {z: R._zone_box(z) for z in ZONES}
    boxes["memorial"] = R.MEMORIAL_BOX
    names = list(boxes)
    for i, a in enumerate(names):
        ax0, ay0, ax1, ay1 = boxes[a]
        assert ax0 >= 0 and ax1 <= R.MAP_W and ay0 >= R.HEADER_H and ay1 < R.TRACK_Y
        for b in names[i + 1 :]:
            bx0, by0, bx1, by1 = boxes[b]
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)


def test_every_mark_drawn_on_the_table_is_explained_in_its_legend() -> None:
    """Shapes and badges (the ring of a sole majority, tokens waiting in a zone, a face-down
    resource or discovery, the first player's badge, a ship in flight…) are invisible to the
    generic text check: the renderer records each mark it draws and each legend entry, and
    every mark drawn on a picture has its entry on that picture."""
    seen: set[str] = set()
    for n in (2, 3, 6):
        for s in sample(n, 100 + n, 6):
            for lang in LANGS:
                R.render_table(GAME.view(s, None), NAMES[:n], lang)
                drawn, explained = R.marks()
                assert drawn - explained == set(), (n, lang, drawn - explained)
                seen |= drawn
    # the marks the issue named are among those drawn and explained
    assert {"ring", "pile", "hidden_res", "disc_hidden", "first", "flight"} <= seen
    # and the check bites: a mark with no entry is caught
    R._mark("unexplained")
    drawn, explained = R.marks()
    assert "unexplained" in drawn - explained


def test_the_final_picture_ranks_in_the_reader_s_language() -> None:
    s = game_states(3, 5)[-1]
    assert s["step"] == "over"
    words = {lang: i18n.t("red_planet.render.place.1", lang) for lang in LANGS}
    assert words == {"en": "1st", "es": "1.º"}
