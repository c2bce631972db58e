"""No decision's option label has to be cut: over seeded random play-outs of every registered
game, in English and Spanish, every option label fits where the table shows it — a button
holds 80 characters, a select menu's option 100 (Discord's limits; ``cogs.ui.clip`` cuts a
longer label with "…", losing its end: e.g. a mission's points)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cogs import ui
from core.contract import Decision
from core.i18n import t
from host import registry
from tests.kit import every_decision

#: Names as long as many Discord display names (labels often name a player).
NAMES = ["Anastasia", "Bartholomew", "Cayetana", "Dmitri", "Evangelina", "Fernando"]
#: Games whose labels are still cut today (their engineers are fixing them): each must fail
#: (strict), so that it leaves this set once it is fixed.
CUT_TODAY: set[str] = set()


def limit(game: Any, state: Any, decision: Decision) -> int:
    """The room a label of ``decision`` has: a button's, when the table may show the
    decision as buttons (the game's own panel, a grid, a few options), else a select
    option's (see :func:`cogs.ui.add_decisions`)."""
    if ui.game_panel(game, state, decision) is not None or decision.grid is not None:
        return ui.BUTTON_LABEL
    if not decision.multi and len(decision.options) <= ui.MAX_BUTTONS:
        return ui.BUTTON_LABEL
    return ui.SELECT_LABEL


def playouts(game_id: str) -> Iterator[tuple[Any, Decision]]:
    return every_decision(registry.get(game_id), "labels")


def test_the_limits_are_discords() -> None:
    assert (ui.BUTTON_LABEL, ui.SELECT_LABEL) == (80, 100)
    assert ui.clip("x" * 81) == "x" * 79 + "…"


@pytest.mark.parametrize(
    "game_id",
    [
        pytest.param(g, marks=pytest.mark.xfail(strict=True, reason="labels cut today"))
        if g in CUT_TODAY
        else g
        for g in sorted(registry.games())
    ],
)
def test_no_option_label_is_cut(game_id: str) -> None:
    game = registry.get(game_id)
    too_long: dict[str, tuple[int, int, str]] = {}
    seen = 0
    # Each label's text by (language, label, arguments) when every argument is a string or
    # an int (exactly: True and 1 are equal keys but format apart): the same labels come
    # back thousands of times along the play-outs.
    texts: dict[tuple[Any, ...], str] = {}
    for state, d in playouts(game_id):
        seen += 1
        room = limit(game, state, d)
        for lang in ("en", "es"):
            for o in d.options:
                if all(type(v) is str or type(v) is int for v in o.args.values()):
                    mk = (lang, o.label, *o.args.items())
                    text = texts.get(mk) or texts.setdefault(
                        mk, t(o.label, lang, NAMES, **dict(o.args))
                    )
                else:
                    text = t(o.label, lang, NAMES, **dict(o.args))
                if len(text) > room and o.label not in too_long:
                    too_long[o.label] = (len(text), room, text)
    assert seen > 0
    assert not too_long, f"{game_id}: labels cut: {too_long}"
