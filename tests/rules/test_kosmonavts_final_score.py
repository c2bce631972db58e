"""Kosmonavts: the end of the game explains the score — each player's points by category,
every secret mission revealed (met ✓ or not ✗, with its points) and the tie-break named
when one decided a place (R20)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.present import ranking_text, reveal_lines
from core.contract import random_answer
from core.i18n import t
from host import registry
from rules.kit import clone
from rules.kosmonavts.engine import tiebreak_key

G = registry.get("kosmonavts")
NAMES = ["Ana", "Ben", "Cal", "Dan"]


def finished(seed: int, rules: str, n: int) -> Any:
    s = G.new(n, {"rules": rules}, seed)
    rng = random.Random(seed)
    while G.pending(s):
        d = rng.choice(G.pending(s))
        s, _ = G.apply(s, d.seat, random_answer(d, rng))
    return s


def snap_of(n: int) -> Any:
    seats = [SimpleNamespace(name=NAMES[k], is_bot=False, user_id=k + 1) for k in range(n)]
    return SimpleNamespace(row=SimpleNamespace(game="kosmonavts"), seats=seats, names=NAMES[:n])


@pytest.mark.parametrize(
    ("rules", "keys", "want"),
    [
        ("advanced", [(5, 2, 1, 0), (5, 1, 2, 3)], "kosmonavts.tiebreak.shields"),
        ("advanced", [(5, 1, 2, 0), (5, 1, 1, 3)], "kosmonavts.tiebreak.shields_returned"),
        ("advanced", [(5, 1, 2, 1), (5, 1, 2, 0)], "kosmonavts.tiebreak.shields_returned_fours"),
        ("basic", [(5, 2, 0), (5, 1, 3), (4, 2, 2)], "kosmonavts.tiebreak.returned"),
        ("basic", [(5, 2, 1), (5, 2, 0)], "kosmonavts.tiebreak.returned_fours"),
        ("basic", [(5, 2, 1), (4, 2, 1)], ""),  # no tie
        ("basic", [(5, 2, 1), (5, 2, 1)], ""),  # a tie no tie-break splits: shared
    ],
)
def test_the_tie_break_named_is_the_deepest_one_needed(
    rules: str, keys: list[tuple[int, ...]], want: str
) -> None:
    assert tiebreak_key({"rules": rules}, keys) == want
    if want:
        assert t(want, "en") != want and t(want, "es") != want


def test_a_tie_on_points_split_by_shields_is_named_in_the_final_message() -> None:
    s = finished(1, "advanced", 3)
    res = G.result(s)
    assert res is not None and res.scores[0] == res.scores[2] and res.ranks[0] == res.ranks[2]
    assert res.tiebreak == ""
    s = clone(s)
    s["ships"][0]["shields"], s["ships"][2]["shields"] = 1, 3
    res = G.result(s)
    assert res is not None
    assert res.ranks[2] < res.ranks[0] and res.tiebreak == "kosmonavts.tiebreak.shields"
    en = ranking_text(snap_of(3), res, "en")
    assert "Tie broken by the most energy shields left." in en
    es = ranking_text(snap_of(3), res, "es")
    assert "Empate deshecho por más escudos de energía restantes." in es


@pytest.mark.parametrize("seed", range(8))
def test_the_final_message_gives_every_category_every_mission_and_any_tie_break(
    seed: int,
) -> None:
    rules = "advanced" if seed % 2 else "basic"
    n = 2 + seed % 3
    s = finished(seed, rules, n)
    res = G.result(s)
    assert res is not None
    view = G.view(s, None)
    snap = snap_of(n)
    for lang in ("en", "es"):
        text = ranking_text(snap, res, lang)
        for seat in range(n):
            assert sum(res.breakdown[seat].values()) == res.scores[seat]
            line = next(x for x in text.splitlines() if NAMES[seat] in x)
            for key, pts in res.breakdown[seat].items():
                if pts:
                    assert f"{t(f'kosmonavts.score.{key}', lang)} {pts}" in line, line
        split = any(
            res.scores[a] == res.scores[b] and res.ranks[a] != res.ranks[b]
            for a in range(n)
            for b in range(n)
        )
        assert bool(res.tiebreak) == split
        assert (t("host.table.tiebreak", lang, what="").split()[0] in text) == split
        # every mission each seat held, met or not, with its points; the points add up
        lines = reveal_lines(snap, view, lang)
        for seat in range(n):
            mine = [x for x in lines if x.startswith(f"{NAMES[seat]}:")]
            assert len(mine) == len(s["missions"][seat])
            assert all(("✓" in x) != ("✗" in x) for x in mine)
            met = [x for x in mine if "✓" in x]
            got = res.breakdown[seat]["mission1"] + res.breakdown[seat]["mission2"]
            assert bool(met) == bool(got)
