"""MLEM and Kosmonavts: every button and menu option fits Discord uncut (a button label
holds 80 characters, a select option 100) in English and Spanish, with the longest names
Discord allows, over random play-outs; and no English text shows a Spanish ordinal (1º,
2.ª) or any other Spanish-only mark."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.i18n import t
from host import registry
from tests.kit import every_decision

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["mlem", "kosmonavts"]
BUTTON, OPTION = 80, 100
#: Discord display names hold 32 characters: the longest the labels can meet.
NAMES = [
    "Valentina Fernández-Castellanos",
    "Xx_GagarinFan_xX with a long nick",
    "Øyvind Ærøskøbing-Lindqvist-Berg",
    "José María de la Santísima Trin",
    "Üwe the Extremely Long Named Cat",
]
PLAIN = ["Ana", "Ben", "Cal", "Dan", "Eva"]  # names with no accents, for the English check
SPANISH_MARKS = re.compile(r"\d\s?\.?\s?[ºª]|[¿¡ñáéíóú]", re.IGNORECASE)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_label_fits_uncut_and_english_has_no_spanish_marks(game_id: str) -> None:
    seen = 0
    for _, d in every_decision(registry.get(game_id), "symbols", games=8, cap=1200):
        limit = OPTION if d.multi else BUTTON  # a single pick may be a button
        for lang in ("en", "es"):
            for o in d.options:
                label = t(o.label, lang, NAMES, **dict(o.args))
                assert len(label) <= limit, (lang, o.label, len(label), label)
                seen += 1
        texts = [(d.prompt, d.args), *((o.label, o.args) for o in d.options)]
        for key, args in texts:
            s = t(key, "en", PLAIN, **dict(args))
            assert not SPANISH_MARKS.search(s), (key, s)
    assert seen > 1000


@pytest.mark.parametrize("game_id", GAMES)
def test_no_english_string_shows_a_spanish_ordinal(game_id: str) -> None:
    data = json.loads((ROOT / "data" / game_id / "strings.json").read_text("utf-8"))
    en = data["en"]
    bad = {k: v for k, v in en.items() if isinstance(v, str) and SPANISH_MARKS.search(v)}
    assert not bad, bad
