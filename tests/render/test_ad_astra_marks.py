"""Ad Astra: every mark drawn on a picture is explained on that picture.

The generic check (``tests/render/test_readable.py``) sees text only; this one sees the
shapes too. Every mark the renderer draws goes through one of its mark functions (a
resource or planet-type disc, a ship, a colony or factory, the terraformed ring, the first
player's badge, a face-down action card, a player's token on the score track); a legend is
drawn by :func:`render.ad_astra.explain`, and a player's token beside that player's name
(:func:`render.ad_astra.seat_key`) is the key to that player's colour and shape. Over
seeded play-outs (3 and 5 players, English and Spanish), each mark drawn outside a legend
must also be drawn inside one on the same picture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import render.ad_astra as ad
from render import regions
from rules.ad_astra import GAME
from tests.render.kit import SHORT_NAMES as NAMES
from tests.render.kit import spread_states


class Marks:
    def __init__(self) -> None:
        self.in_legend = 0
        self.drawn: set[str] = set()
        self.explained: set[str] = set()

    def add(self, kind: str) -> None:
        (self.explained if self.in_legend else self.drawn).add(kind)

    def clear(self) -> None:
        self.drawn.clear()
        self.explained.clear()

    def unexplained(self) -> set[str]:
        return self.drawn - self.explained


KINDS: dict[str, Callable[..., str]] = {
    "res_icon": lambda d, c, r, res: f"planet or resource {res or 'hidden'}",
    "ship_icon": lambda d, c, r, seat: "starship",
    "colony_icon": lambda d, c, r, seat, factory: "factory" if factory else "colony",
    "terra_icon": lambda *a: "terraformed",
    "terra_ring": lambda *a: "terraformed",
    "first_badge": lambda *a: "first player",
    "card_back": lambda *a: "face-down action card",
    "seat_mark": lambda d, c, r, seat: f"player {seat}",
}


@pytest.fixture
def marks(monkeypatch: pytest.MonkeyPatch) -> Marks:
    monkeypatch.setattr(regions, "ENABLED", False)  # every box drawn afresh, watched
    m = Marks()
    for name, kind_of in KINDS.items():
        real = getattr(ad, name)

        def spy(*a: Any, _real: Any = real, _kind: Any = kind_of, **kw: Any) -> Any:
            m.add(_kind(*a, **kw))
            return _real(*a, **kw)

        monkeypatch.setattr(ad, name, spy)
    real_key, real_explain = ad.seat_key, ad.explain

    def key(d: Any, c: Any, r: float, seat: int) -> None:
        m.explained.add(f"player {seat}")
        real_key(d, c, r, seat)

    def explain(*a: Any, **kw: Any) -> float:
        m.in_legend += 1
        try:
            return real_explain(*a, **kw)
        finally:
            m.in_legend -= 1

    monkeypatch.setattr(ad, "seat_key", key)
    monkeypatch.setattr(ad, "explain", explain)
    return m


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("players", [3, 5])
def test_every_mark_on_a_picture_has_its_legend_there(
    marks: Marks, players: int, lang: str
) -> None:
    names = NAMES[:players]
    seen: set[str] = set()
    for i, state in enumerate(spread_states(GAME, players, players)):
        marks.clear()
        ad.render_table(GAME.view(state, None), names, lang)
        assert not marks.unexplained(), f"table #{i}: {marks.unexplained()} without a legend"
        seen |= marks.drawn
        for seat in range(players):
            marks.clear()
            if ad.render_private(GAME.view(state, seat), names, lang):
                bad = marks.unexplained()
                assert not bad, f"seat {seat} #{i}: {bad} without a legend"
                seen |= marks.drawn
    # the check saw the board's marks at all
    assert {"starship", "colony", "factory", "face-down action card", "first player"} <= seen


def test_the_check_sees_a_mark_without_its_legend(
    marks: Marks, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = ad._legend_items
    monkeypatch.setattr(
        ad, "_legend_items", lambda lang: [i for i in real(lang) if i[1] != ad.t("ship", lang)]
    )
    state = GAME.new(3, {}, 1)
    ad.render_table(GAME.view(state, None), NAMES[:3], "en")
    assert marks.unexplained() == {"starship"}
