"""Decision identity, multi-pick answers and the generic layouts, without Discord traffic."""

from __future__ import annotations

import random

import discord
import pytest

from cogs import ui
from core.contract import (
    Decision,
    IllegalMove,
    Option,
    apply_checked,
    check_picks,
    join_picks,
)
from host.sessions import Gone, Host, HostError, Snapshot
from host.storage import SeatRow
from tests import layouttoy, pooltoy
from tests.host.kit import game_row


def opts(*ids: str) -> tuple[Option, ...]:
    return tuple(Option(i, f"x.{i}") for i in ids)


def test_token_names_the_question_not_the_options() -> None:
    a = Decision(1, "p", opts("a", "b", "c"), {"r": 1}, key="pick.1")
    fewer = Decision(1, "p", opts("b", "c"), {"r": 1}, key="pick.1")
    assert a.token(3) == fewer.token(3)
    assert a.token(3) != a.token(4)  # the seat answered: a new question
    assert a.token(3) != Decision(2, "p", opts("a"), key="pick.1").token(3)
    assert a.token(3) != Decision(1, "p", opts("a"), key="pick.2").token(3)
    # without a key, the prompt and its arguments say which question it is
    plain = Decision(0, "p", opts("a"), {"r": 1})
    assert plain.token() == Decision(0, "p", opts("a", "z"), {"r": 1}).token()
    assert plain.token() != Decision(0, "p", opts("a"), {"r": 2}).token()
    assert a.options_mark() != fewer.options_mark()


def test_multi_pick_answers_are_checked() -> None:
    d = Decision(0, "p", opts("a", "b", "c", "d"), min_picks=2, max_picks=3)
    check_picks(d, "a,c")
    check_picks(d, "c,a,d")
    for bad, code in (
        ("a", "too_few_picks"),
        ("a,b,c,d", "too_many_picks"),
        ("a,a", "repeated_pick"),
        ("a,zz", "not_offered"),
        ("", "too_few_picks"),
    ):
        with pytest.raises(IllegalMove, match=code):
            check_picks(d, bad)
    single = Decision(0, "p", opts("a", "b"))
    check_picks(single, "a")
    with pytest.raises(IllegalMove, match="not_offered"):
        check_picks(single, "a,b")
    assert join_picks(d, ["d", "a", "d"]) == "a,d"


def test_apply_checked_refuses_bad_multi_picks_before_the_game_sees_them() -> None:
    game = layouttoy.GAME
    state = game.new(1, {}, 1)
    with pytest.raises(IllegalMove, match="too_few_picks"):
        apply_checked(game, state, 0, "ana")
    with pytest.raises(IllegalMove, match="repeated_pick"):
        apply_checked(game, state, 0, "ana,ana")
    after, _ = apply_checked(game, state, 0, "ana,bo")
    assert after["crew"] == {"0": ["ana", "bo"]}


def snapshot(game: object, state: object, seats: int) -> Snapshot:
    snap = Snapshot(row=game_row(), seats=[], game=game, state=state)  # type: ignore[arg-type]
    snap.decisions = game.pending(state)  # type: ignore[attr-defined]
    snap.seats = [SeatRow(1, i, 100 + i, False, f"P{i}", "en", True) for i in range(seats)]
    return snap


def test_check_choice_says_who_took_a_tile() -> None:
    game = pooltoy.GAME
    state = game.new(3, {}, 1)
    state, _ = game.apply(state, 0, "t1")
    snap = snapshot(game, state, 3)
    d = snap.decisions_for(1)[0]
    host = Host.__new__(Host)
    with pytest.raises(Gone) as err:
        host.check_choice(snap, d, "t1")
    assert err.value.code == "pool.gone" and err.value.args_ == {"n": 1, "taker_seat": 0}
    with pytest.raises(Gone, match=r"host\.error\.gone"):  # never offered: generic
        host.check_choice(snap, d, "t99")
    assert host.check_choice(snap, d, "t2") == "t2"


async def test_check_choice_orders_multi_picks_and_bots_pick_within_bounds() -> None:
    game = layouttoy.GAME
    state = game.new(1, {}, 1)
    snap = snapshot(game, state, 1)
    d = snap.decisions[0]
    host = Host.__new__(Host)
    host._chooser, host.bot_budgets = None, {}  # (no storage needed: nothing else is set)
    assert host.check_choice(snap, d, "flo,ana") == "ana,flo"
    with pytest.raises(HostError, match="too_many_picks"):
        host.check_choice(snap, d, "ana,bo,cy,di")
    sizes = set()
    for version in range(30):
        snap.row = game_row(version=version)
        pick = await host.bot_pick(snap, 0)
        check_picks(d, pick)
        sizes.add(len(pick.split(",")))
    assert sizes == {2, 3}


def layout(decision: Decision, **kw: object) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    ui.add_decisions(
        v,
        [decision],
        gid=1,
        ver=1,
        tokens=["0" * 8],
        lang="en",
        names=["Ana"],
        game_id="x",
        **kw,  # type: ignore[arg-type]
    )
    return v


def test_small_grid_is_drawn_whole_with_gaps() -> None:
    cells = tuple(Option(f"c{r}{c}", "x", cell=(r, c)) for r in range(3) for c in range(3))
    d = Decision(0, "p", cells[:-1], grid=(3, 3))
    v = layout(d)
    assert len(v.children) == 9
    gap = v.children[-1]
    assert isinstance(gap, ui.GapButton) and gap.item.disabled
    assert {getattr(i, "row", None) for i in v.children} == {0, 1, 2}


def test_large_grid_is_paged_and_its_ids_fit_discord() -> None:
    state = layouttoy.GAME.new(1, {}, 1)
    state, _ = layouttoy.GAME.apply(state, 0, "ana,bo")
    d = layouttoy.GAME.pending(state)[0]
    v = layout(d)
    arrows = [i for i in v.children if isinstance(i, ui.GridButton)]
    assert sorted(a.item.label or "" for a in arrows) == ["▶", "▼"]
    assert all(len(i.custom_id) <= 100 for i in v.children)  # type: ignore[attr-defined]
    assert len(v.children) <= 25
    assert ui.rows_needed([d], None) == 4


def test_panel_hook_rows_are_used_when_they_fit() -> None:
    d = Decision(0, "p", opts("a", "b", "c"))
    v = layout(d, layouts=[[["a", None], [None, "c"]]])
    kinds = [type(i).__name__ for i in v.children]
    assert kinds == ["MoveButton", "GapButton", "GapButton", "MoveButton"]
    # too wide for Discord: the generic layout instead
    v = layout(d, layouts=[[["a", "b", "c", "a", "b", "c"]]])
    assert [type(i).__name__ for i in v.children] == ["MoveButton"] * 3


def test_multi_pick_is_one_menu_with_bounds() -> None:
    d = Decision(0, "p", opts(*(f"o{i}" for i in range(30))), min_picks=2, max_picks=4)
    (menu,) = layout(d).children
    assert isinstance(menu, ui.MoveSelect)
    assert (menu.item.min_values, menu.item.max_values) == (2, 4)
    assert len(menu.item.options) == 25


def test_random_pool_games_keep_every_pending_seat_able_to_move() -> None:
    game = pooltoy.GAME
    rng = random.Random(3)
    for n in range(2, 7):
        state = game.new(n, {}, 1)
        while game.pending(state):
            d = rng.choice(game.pending(state))
            assert d.options
            state, _ = apply_checked(game, state, d.seat, rng.choice(d.options).id)
        assert game.result(state) is not None


def test_an_option_that_goes_alone_cannot_be_mixed() -> None:
    """A multi-pick option marked ``alone`` (MLEM's reroll) is an answer on its own only;
    random answers respect it."""
    import random as _random

    from core.contract import Decision, IllegalMove, Option, check_picks, random_answer

    d = Decision(
        0,
        "p",
        (Option("a", "l"), Option("b", "l"), Option("r", "l", alone=True)),
        min_picks=1,
        max_picks=3,
    )
    check_picks(d, "r")
    check_picks(d, "a,b")
    with pytest.raises(IllegalMove) as err:
        check_picks(d, "a,r")
    assert err.value.code == "host.error.pick_alone"
    rng = _random.Random(1)
    for _ in range(200):
        check_picks(d, random_answer(d, rng))
