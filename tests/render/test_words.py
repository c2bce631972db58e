"""Boards described in words: every game's ``describe_table`` / ``describe_private`` (the alt
text of its pictures), on states along seeded random games, in both languages."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from core.i18n import t
from host import registry
from render import words
from tests.render.kit import random_states

GAMES = tuple(registry.GAME_MODULES)
LANGS = ("en", "es")
NAMES = ["Ana", "Ben", "🤖 easy", "Dani", "Eva", "Fer"]
#: Moves played before each state described: the set-up, early, mid-game, and the end.
STEPS = (0, 12, 60, 10_000)


def states(game: str, players: int = 3, seed: int = 3) -> list[Any]:
    """The states after each of :data:`STEPS` moves of one seeded random play-out."""
    seen = random_states(registry.get(game), players, seed)
    out = [seen[min(steps, len(seen) - 1)] for steps in STEPS]
    assert registry.get(game).result(out[-1]) is not None, "the last state is a finished game"
    return out


def raw_key(text: str) -> list[str]:
    """What looks like an untranslated key (``mlem.words.rocket``) or an unfilled field."""
    return re.findall(r"\b[a-z_]+\.(?:[a-z_0-9]+\.)+[a-z_0-9]+\b|\{[a-z_]*\}", text)


@pytest.fixture
def warnings_seen(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.WARNING, logger="core.i18n")
    return caplog


@pytest.mark.parametrize("game", GAMES)
def test_tables_are_described_in_each_language(game: str, warnings_seen: Any) -> None:
    g, r = registry.get(game), registry.renderer(game)
    names = NAMES[:3]
    for state in states(game):
        view = g.view(state, None)
        texts = {lang: r.describe_table(view, names, lang) for lang in LANGS}
        for lang, text in texts.items():
            assert text.startswith(t(f"{game}.name", lang)), text
            assert 0 < len(text) <= words.LIMIT, len(text)
            assert not raw_key(text), (lang, raw_key(text), text)
        assert texts["en"] != texts["es"]
        if g.result(state) is not None:  # the final board says who won, with the scores
            for lang in LANGS:
                assert t("render.words.scores", lang, list="").rstrip(".") in texts[lang]
                assert t("render.words.over", lang).rstrip(".") in texts[lang]
    assert not [r for r in warnings_seen.records if "string" in r.getMessage()]


@pytest.mark.parametrize("game", GAMES)
def test_a_table_text_reads_the_public_view_only(game: str) -> None:
    """Whatever a seat's view adds (its ``private`` part), the table's text is the same:
    a secret cannot reach a channel's alt text."""
    g, r = registry.get(game), registry.renderer(game)
    for state in states(game)[1:3]:
        public = g.view(state, None)
        for seat in range(3):
            seen = {**g.view(state, seat), "seat": seat}
            assert r.describe_table(seen, NAMES, "en") == r.describe_table(public, NAMES, "en")


@pytest.mark.parametrize("game", GAMES)
def test_private_pictures_are_described_for_their_seat(game: str, warnings_seen: Any) -> None:
    g, r = registry.get(game), registry.renderer(game)
    names = NAMES[:3]
    for state in states(game):
        for seat in range(3):
            view = {**g.view(state, seat), "seat": seat}
            for lang in LANGS:
                text = r.describe_private(view, names, lang)
                heading = t(
                    "render.words.private", lang, name=names[seat], game=t(f"{game}.name", lang)
                )
                assert text.startswith(heading), text
                assert len(text) <= words.LIMIT
                assert not raw_key(text), (lang, raw_key(text), text)
    assert not [r for r in warnings_seen.records if "string" in r.getMessage()]


@pytest.mark.parametrize("game", GAMES)
def test_the_most_players_with_long_names_fit_discords_limit(game: str) -> None:
    g, r = registry.get(game), registry.renderer(game)
    n = g.max_players
    names = [f"{'Bartolomé de las Casas'} {i}" * 2 for i in range(n)]
    for state in states(game, players=n, seed=11):
        for lang in LANGS:
            table = r.describe_table(g.view(state, None), names, lang)
            assert len(table) <= words.LIMIT
            assert table.endswith((".", "!"))  # cut at a sentence, never mid-word
            for seat in range(n):
                view = {**g.view(state, seat), "seat": seat}
                assert len(r.describe_private(view, names, lang)) <= words.LIMIT


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("view", [{}, {"private": None, "seat": "x"}, {"ships": 3, "over": 1}])
def test_a_broken_view_still_gets_a_text(game: str, view: dict[str, Any]) -> None:
    r = registry.renderer(game)
    for lang in LANGS:
        assert r.describe_table(dict(view), [], lang)
        assert r.describe_private(dict(view), [], lang)


def test_join_cuts_at_a_sentence() -> None:
    parts = ["One.", "Two two.", "x" * 2000]
    assert words.join(parts) == "One. Two two."
    assert words.join(["y" * 2000]) == "y" * 1023 + "…"
    assert words.join(["A.", "", "  ", "B."], limit=5) == "A. B."


@pytest.mark.parametrize(
    ("view", "en", "es"),
    [
        ({"over": True, "scores": [3, 9, 4]}, "Ben wins with 9 points", "gana Ben con 9 puntos"),
        (
            {"over": True, "scores": [9, 9, 1]},
            "Ana and Ben win with 9 points",
            "ganan Ana y Ben con 9 puntos",
        ),
        (  # the game's own ranking (tie-breaks) when the view holds one
            {"over": True, "scores": [9, 9, 1], "result": {"ranks": [2, 1, 3]}},
            "Ben wins with 9 points",
            "gana Ben con 9 puntos",
        ),
        ({"over": False, "scores": [1, 2, 3]}, "", ""),
    ],
)
def test_the_winner_line(view: dict[str, Any], en: str, es: str) -> None:
    assert en in words.winners(view, NAMES, "en")
    assert es in words.winners(view, NAMES, "es")
    if not en:
        assert words.winners(view, NAMES, "en") == ""


def test_whose_move_and_the_scores() -> None:
    view = {"waiting": [0, 2], "scores": [3, 4.5, 0]}
    assert words.waiting(view, NAMES, "en") == "Waiting for Ana and 🤖 easy."
    assert words.waiting(view, NAMES, "es") == "Esperando a Ana y 🤖 easy."
    assert words.scores(view, NAMES, "es") == "Puntos: Ana 3, Ben 4,5, 🤖 easy 0."
    assert words.waiting({**view, "over": True}, NAMES, "en") == ""


def test_a_ship_in_flight_is_placed_as_the_log_places_it() -> None:
    """Kosmonavts: zone, clock hour and nearest body, never hex coordinates."""
    g, r = registry.get("kosmonavts"), registry.renderer("kosmonavts")
    view = g.view(states("kosmonavts")[2], None)
    flying = [s for s in view["ships"] if not s["landed"] and not s["returned"]]
    assert flying, "a ship in flight at this point of the seeded game"
    text = r.describe_table(view, NAMES, "en")
    assert "o'clock" in text and "hex" in text
    assert not re.search(r"\(-?\d+, -?\d+\)|\[-?\d+, -?\d+\]", text)


def test_the_recap_says_who_won() -> None:
    g = registry.get("mlem")
    view = g.view(states("mlem")[-1], None)
    for lang in LANGS:
        text = words.describe_recap("mlem", view, NAMES[:3], lang)
        assert text.startswith(t("render.words.recap", lang, game=t("mlem.name", lang)))
        assert words.winners(view, NAMES[:3], lang) in text
