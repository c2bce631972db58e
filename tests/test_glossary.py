"""One glossary per game: a thing has the same name on the board, on the buttons, in the
embed and in the log, in both languages; and the table's round word is the game's own."""

from __future__ import annotations

import pytest

from cogs import present
from core import i18n
from core.i18n import t
from rules.mlem import engine as mlem_engine

LANGS = ("en", "es")


@pytest.mark.parametrize("lang", LANGS)
def test_mlem_astronaut_names_are_the_same_everywhere(lang: str) -> None:
    """The launch buttons (``mlem.ability.*``), the board's crew panel
    (``mlem.render.ability.*``), the boarding log line and the rules text name each
    astronaut alike."""
    abilities = {a for board in mlem_engine.new_state(2, {}, 1)["board"] for a in board}
    assert len(abilities) == 8
    rules_turn = t("mlem.rules.turn", lang)
    for a in sorted(abilities):
        button = t(f"mlem.ability.{a}", lang)
        assert button == t(f"mlem.render.ability.{a}", lang), (lang, a)
        assert button in t(f"mlem.event.board.{a}", lang, seat="Ana"), (lang, a)
        assert button in rules_turn, (lang, a)


@pytest.mark.parametrize("lang", LANGS)
def test_mlem_phases_planets_and_powers_match_the_board(lang: str) -> None:
    for phase in ("launch", "explore", "land", "over"):
        assert t(f"mlem.phase.{phase}", lang) == t(f"mlem.render.phase.{phase}", lang)
    for p in ("P1", "P2", "P3", "P4", "P5"):
        name = t(f"mlem.render.planet.{p}", lang)
        assert t(f"mlem.body.{p}", lang) == name
        assert name in t(f"mlem.opt.land_planet.{p}", lang, values="1/2/3")
        assert name in t(f"mlem.event.land_planet.{p}", lang, seat="Ana")
    for power in ("reroll", "extra"):
        assert t(f"mlem.expedition.{power}", lang) == t(f"mlem.render.expedition.{power}", lang)
    assert (
        t("mlem.expedition.keep", lang).casefold()
        == t("mlem.render.expedition.keep", lang).casefold()
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("game", "board_key"),
    [("mlem", "mlem.render.voyage"), ("kosmonavts", "kosmonavts.render.round")],
)
def test_the_embed_round_word_is_the_boards(game: str, board_key: str, lang: str) -> None:
    """ "MLEM — voyage 8" on the embed, "Voyage 8" on the board (not "round 8")."""
    embed_word = present.round_text(game, 8, lang)
    board = t(board_key, lang, n=8, limit=40)
    assert board.casefold().startswith(embed_word.casefold()), (embed_word, board)


def test_a_game_without_a_round_word_gets_the_hosts() -> None:
    assert not i18n.has("nogame.round")
    assert present.round_text("nogame", 3, "es") == t("host.table.round", "es", n=3)


@pytest.mark.parametrize(
    ("lang", "n", "start"),
    [
        ("es", 1, "Te toca: "),
        ("es", 3, "Os toca: "),
        ("en", 1, "Your move: "),
        ("en", 2, "Your move: "),
    ],
)
def test_the_turn_line_agrees_with_how_many_are_to_move(lang: str, n: int, start: str) -> None:
    who = " ".join(f"<@{i}>" for i in range(n))
    assert t("host.table.turn_of", lang, n=n, who=who) == start + who


def test_spanish_contracts_a_el_and_de_el() -> None:
    """ "al cometa", "del cometa": Spanish never writes "a el" / "de el" before a noun."""
    bad = [
        k
        for k, v in i18n.catalog()["es"].items()
        if any(f" {w} el " in f" {v.lower()} " for w in ("a", "de"))
    ]
    assert not bad, bad
