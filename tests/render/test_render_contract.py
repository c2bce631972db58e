"""What every renderer must do, for every registered game (a new game gets these checks by
being registered in host/registry.py): PNGs within budget, the same picture from several
threads, the view left untouched, odd names, languages and views survived, the table blind
to private parts, its strings in both languages, its reference pictures committed.

What only one game draws stays in tests/render/test_<game>_render.py."""

from __future__ import annotations

import copy
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from host import registry
from render import kit as render_kit
from tests.kit import png_ok
from tests.render import kit as K

GAMES = K.game_ids()


def _views(game_id: str) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The public view, seat 1's view (with its seat) and the names, half way through a
    seeded game."""
    game = registry.get(game_id)
    s, n = K.midgame(game_id)
    return game.view(s, None), {**game.view(s, 1), "seat": 1}, K.NAMES[:n]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_picture_of_a_game_fits_the_budget(game_id: str) -> None:
    """The table and each seat's private picture (or None) along a seeded game: PNGs under
    the budget, in both languages."""
    game = registry.get(game_id)
    r = K.renderer(game_id)
    _, n = K.midgame(game_id)
    for k, state in enumerate(K.sample(K.game_states(game_id, n, 7, 10), 3)):
        lang = K.LANGS[k % 2]
        png_ok(r.render_table(game.view(state, None), K.NAMES[:n], lang))
        for seat in range(n):
            private = r.render_private({**game.view(state, seat), "seat": seat}, K.NAMES[:n], lang)
            if private is not None:
                png_ok(private)


@pytest.mark.parametrize("game_id", GAMES)
def test_threads_give_identical_pictures(game_id: str) -> None:
    r = K.renderer(game_id)
    public, _, names = _views(game_id)
    expected = r.render_table(public, names, "es")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: r.render_table(public, names, "es"), range(6)))
    assert all(x == expected for x in results)


@pytest.mark.parametrize("game_id", GAMES)
def test_render_does_not_mutate_the_view(game_id: str) -> None:
    r = K.renderer(game_id)
    _, seated, names = _views(game_id)
    before = copy.deepcopy(seated)
    r.render_table(seated, names, "es")
    r.render_private(seated, names, "es")
    assert seated == before


@pytest.mark.parametrize("game_id", GAMES)
def test_odd_names_and_languages(game_id: str) -> None:
    """Too few names, blank, very long or emoji-only names and an unknown language still
    render; names lose what the fonts cannot draw; the two languages differ."""
    r = K.renderer(game_id)
    public, _, names = _views(game_id)
    png_ok(r.render_table(public, ["Solo"], "fr"))
    png_ok(r.render_table(public, ["", " ", "x" * 200, "ñ" * 60, "🚀🚀"], "es"))
    table = r.render_table(public, names, "en")
    assert r.render_table(public, [render_kit.displayable(x) for x in names], "en") == table
    assert r.render_table(public, names, "es") != table


@pytest.mark.parametrize("game_id", GAMES)
def test_odd_views(game_id: str) -> None:
    """An empty or minimal view still gives a table; a view with nothing private gives no
    private picture; a private part for a seat that does not exist does not crash."""
    r = K.renderer(game_id)
    public, _, _ = _views(game_id)
    minimal = {"players": 2, "round": 1, "scores": [0, 0], "over": False}
    for view in ({}, {**minimal, "phase": public["phase"]}, {**minimal, "phase": "x.y"}):
        png_ok(r.render_table(view, [], "en"))
        assert r.render_private(view, [], "en") is None
    assert r.render_private(public, K.NAMES, "en") is None
    assert r.render_private({"private": {}}, [], "en") is None
    for odd in ({"private": {}, "seat": 9}, {**public, "private": {}, "seat": 9}):
        private = r.render_private(odd, [], "es")
        if private is not None:
            png_ok(private)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_ignores_private_parts(game_id: str) -> None:
    """Every seat's own view (its private part and seat included) gives the public table."""
    game = registry.get(game_id)
    r = K.renderer(game_id)
    s, n = K.midgame(game_id)
    expected = r.render_table(game.view(s, None), K.NAMES[:n], "en")
    for seat in range(n):
        seated = {**game.view(s, seat), "seat": seat}
        assert r.render_table(seated, K.NAMES[:n], "en") == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_render_strings_exist_in_both_languages(game_id: str) -> None:
    K.render_keys(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_picture_is_committed(game_id: str) -> None:
    png_ok((K.ROOT / "docs" / f"{game_id}_table.png").read_bytes())


def test_every_picture_the_readme_shows_is_committed() -> None:
    readme = (K.ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"\]\((docs/[\w.-]+\.png)\)", readme)
    assert len(shown) >= len(GAMES)
    for path in shown:
        png_ok((K.ROOT / path).read_bytes())
