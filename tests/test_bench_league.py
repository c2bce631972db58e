"""bench/league.py: every registered game has its lines (the issue's "Done when"), every line
fits the game's table, a line is played deterministically, and bad input gets a clear
answer."""

from __future__ import annotations

import random

import pytest

from bench import league
from core.contract import IllegalMove, random_answer
from host import registry
from rules.galaxy_trucker import GAME

GAMES = list(registry.GAME_MODULES)


def _table(gid: str) -> int:
    return max(2, registry.get(gid).min_players)


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_has_the_issues_lines(gid: str) -> None:
    game = registry.get(gid)
    lines = league.lines_of(game)
    n = _table(gid)

    def line(a: str, b: str) -> str:
        return ",".join([a] + [b] * (n - 1))

    for a, b in (("hard", "normal"), ("normal", "easy"), ("hard", "random"), ("normal", "random")):
        assert line(a, b) in lines
    for ln in lines:
        assert league.check_line(game, ln)[0] in ("hard", "normal", "easy")
    options = dict(league.OPTIONS.get(gid, {}))
    assert league.check_options(game, options) == options


def test_kosmonavts_is_measured_against_its_heuristic() -> None:
    assert "hard,today" in league.LINES["kosmonavts"]


def test_a_game_without_lines_gets_the_default_set_for_its_table() -> None:
    class ThreePlayers:
        id = "toy"
        min_players = 3
        max_players = 4

    lines = league.default_lines(ThreePlayers())
    assert "hard,normal,normal" in lines and "normal,easy,easy" in lines
    assert all(len(ln.split(",")) == 3 for ln in lines)


@pytest.mark.parametrize("gid", GAMES)
def test_a_line_is_played_and_the_same_seeds_give_the_same_figures(gid: str) -> None:
    game = registry.get(gid)
    line = ",".join(["easy"] + ["random"] * (_table(gid) - 1))
    first = league.run_line(game, line, 2, dict(league.OPTIONS.get(gid, {})))
    again = league.run_line(game, line, 2, dict(league.OPTIONS.get(gid, {})))
    assert len(first.shares) == 2 and first.shares == again.shares
    assert first.figures == again.figures
    assert set(first.times) == {"easy", "random"}
    assert first.slowest()[1] == "easy"
    text = str(first)
    assert text.startswith(gid) and "n=   2" in text and "[" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "mlem", "--line", "hard,bogus"], "unknown player"),
        (["--game", "ad_astra", "--line", "hard,random"], "3-5 players"),
        (["--game", "mlem", "--option", "level=II"], "no option 'level'"),
        (["--game", "mlem", "--option", "ufo=maybe"], "not one of"),
        (["--game", "mlem", "--option", "ufo"], "key=value"),
        (["--game", "mlem", "--games", "0"], "at least 1"),
    ],
)
def test_bad_input_gets_a_clear_answer(argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        league.main(argv)
    assert message in str(exc.value)


def test_a_run_prints_each_line_and_the_slowest_decision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    league.main(["--game", "mlem", "--line", "easy,random", "--games", "2"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("mlem") and "easy,random" in out[0]
    assert out[-1].startswith("slowest decision:") and "mlem easy" in out[-1]


def test_the_random_player_never_answers_what_the_engine_refuses() -> None:
    """A random Galaxy Trucker goods pick can overflow the holds (``goods_dont_fit``): the
    league's random player draws again instead of crashing the run."""
    s = GAME.new(2, {"rules": "2"}, 157)
    rng = random.Random(157)
    while not GAME.pending(s)[0].multi:  # (seed 157: a goods question, 3 + 6 goods)
        d = GAME.pending(s)[0]
        s, _ = GAME.apply(s, d.seat, league.random_legal(GAME, s, d.seat, rng))
    d = GAME.pending(s)[0]
    refused = 0
    for k in range(30):
        try:
            GAME.apply(s, d.seat, random_answer(d, random.Random(k)))
        except IllegalMove:
            refused += 1
        GAME.apply(s, d.seat, league.random_legal(GAME, s, d.seat, random.Random(k)))
    assert refused > 0
