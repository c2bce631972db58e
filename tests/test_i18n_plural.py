"""Plurals and numbers: one mechanism in core.i18n, used by every catalogue."""

from __future__ import annotations

import string

import pytest

from core import i18n


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 1, "1 game"),
        ("en", 2, "2 games"),
        ("en", 0, "0 games"),
        ("es", 1, "1 partida"),
        ("es", 2, "2 partidas"),
    ],
)
def test_number_and_word(lang: str, n: int, expected: str) -> None:
    word = "{n:#|game|games}" if lang == "en" else "{n:#|partida|partidas}"
    assert i18n.fmt(word, lang, n=n) == expected


def test_word_alone_and_floats() -> None:
    assert i18n.fmt("{n} {n:|cube|cubes}", "en", n=1) == "1 cube"
    assert i18n.fmt("{avg} puntos", "es", avg=46.0) == "46 puntos"
    assert i18n.fmt("{avg} puntos", "es", avg=4.5) == "4,5 puntos"
    assert i18n.fmt("{avg} points", "en", avg=4.5) == "4.5 points"
    assert i18n.fmt("{x:.2f}", "en", x=1.5) == "1.50"


def _counted(text: str) -> list[tuple[str, str]]:
    """(placeholder, spec) of every plural placeholder in ``text``."""
    return [(f, s) for _, f, s, _ in string.Formatter().parse(text) if f and s and "|" in s]


def test_catalogues_format_one_and_two_of_everything() -> None:
    """Every string that counts something reads right with 1 and with 2, in both
    languages: plural specs have two forms, and both catalogues count the same things."""
    cat = i18n.catalog()
    for key, en in cat["en"].items():
        es = cat["es"][key]
        assert {f for f, _ in _counted(en)} == {f for f, _ in _counted(es)}, key
        for text, lang in ((en, "en"), (es, "es")):
            for field, spec in _counted(text):
                forms = spec.split("|")[1:]
                assert len(forms) == 2 and all(forms), (key, field)
                for n in (1, 2):
                    out = i18n.fmt("{" + field + ":" + spec + "}", lang, **{field: n})
                    assert out.endswith(forms[n - 1]), (key, lang, n, out)


def test_no_bracketed_plurals_left() -> None:
    """ "cube(s)" / "partida(s)" are what the mechanism replaces."""
    cat = i18n.catalog()
    for lang in ("en", "es"):
        bad = sorted(k for k, v in cat[lang].items() if "(s)" in v or "(es)" in v)
        assert not bad, (lang, bad)


def test_command_names_are_valid_discord_names_with_accents() -> None:
    """Discord takes lowercase letters (accents included), digits, - and _ (1–32)."""
    cat = i18n.catalog()
    for lang in ("en", "es"):
        for key, name in cat[lang].items():
            if not key.startswith("cmd.") or key.endswith(".desc"):
                continue
            assert 1 <= len(name) <= 32 and name == name.lower(), (lang, key, name)
            assert all(c.isalnum() or c in "-_" for c in name), (lang, key, name)
    assert cat["es"]["cmd.stats"] == "estadísticas"
    assert cat["es"]["cmd.leaderboard"] == "clasificación"


def test_codes_are_written_as_words() -> None:
    """``{x:@prefix}`` writes a game's codes (with counts, joined by +) as their words."""
    text = "{seat} pays {cards:@ad_astra.render.res.} in {sys:@ad_astra.render.system.}"
    out = i18n.fmt(text, "es", seat="Ana", cards="2W+1X", sys="TR")
    assert out == "Ana pays 2 agua + 1 xanthio in Binaria Roja"
    assert i18n.fmt("{r:@ad_astra.render.res.}", "en", r="W") == "water"
    assert i18n.fmt("{r:@nope.}", "en", r="Q") == "Q"  # unknown codes stay as they are
