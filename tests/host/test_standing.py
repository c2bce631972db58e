"""Standing decisions (the optional ``standing`` hook of :class:`core.contract.Game`): options
a seat may take at any time without being asked. They never make a seat "to move" (not in
``pending``: no ping, wait, timer or bot move), ``apply_checked`` accepts them, the host finds
a clicked one by its token, and the table shows a human seat's public ones as buttons (a
private one only on a private panel shown anyway). With tests/standingtoy.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

import pytest

from cogs import present
from core.contract import Decision, Game, IllegalMove, Option, apply_checked, standing_of
from host.clock import FakeClock
from host.sessions import Host, HostError, Player, Snapshot
from host.storage import open_store
from tests import standingtoy, toygame

ANA = Player(1, "Ana", "en")
BEN = Player(2, "Ben", "en")
EVE = Player(5, "Eve", "en")  # not in the game
GAME = cast(Game, standingtoy.GAME)


@pytest.fixture
async def host(tmp_path: Path) -> Any:
    store = await open_store(str(tmp_path / "standing.db"))
    h = Host(store, clock=FakeClock(), seeds=random.Random(3), games=lambda: {"standing": GAME})
    yield h
    await h.store.close()


async def started(host: Host, *, bot: bool = False) -> Snapshot:
    snap = await host.new_lobby(
        guild_id=1, channel_id=10, game_id="standing", owner=ANA, lang="en"
    )
    await host.join(snap.id, BEN)
    if bot:
        await host.add_bot(snap.id, ANA)
    await host.start(snap.id, ANA, bots=False)
    return await host.by_id(snap.id)


def resign_of(snap: Snapshot, seat: int) -> Any:
    (d,) = [d for d in snap.standing_for(seat) if not d.private]
    return d


# --------------------------------------------------------------------------- the contract


def test_a_game_without_the_hook_has_no_standing_decisions() -> None:
    state = toygame.GAME.new(2, {}, 1)
    assert standing_of(cast(Game, toygame.GAME), state) == []


def test_apply_checked_accepts_a_standing_answer_and_keeps_the_guard() -> None:
    state = GAME.new(2, {}, 1)
    idle = 1 - GAME.pending(state)[0].seat  # the seat not to move
    assert [d.seat for d in GAME.pending(state)] == [1 - idle]  # standing is not pending
    after, events = apply_checked(GAME, state, idle, "resign")
    assert after["resigned"] == [idle] and [e.code for e in events] == ["resigned"]
    # not offered: refused, whatever the game itself would do
    for bad in ("add1", "hint", "zzz"):
        with pytest.raises(IllegalMove, match="not_offered"):
            apply_checked(GAME, state, idle, bad)
    # taken: gone, and the seat has nothing else to answer
    with pytest.raises(IllegalMove, match="not_your_turn"):
        apply_checked(GAME, after, idle, "resign")
    # the seat to move may take it too, beside its question
    mover = 1 - idle
    after, _ = apply_checked(GAME, state, mover, "resign")
    assert after["resigned"] == [mover] and GAME.pending(after) == GAME.pending(state)


# --------------------------------------------------------------------------- the host


async def test_standing_decisions_are_loaded_and_never_to_move(host: Host) -> None:
    snap = await started(host)
    mover = snap.to_move()[0]
    idle = 1 - mover
    assert {d.seat for d in snap.standing if not d.private} == {0, 1}
    assert snap.to_move() == [mover] and snap.human_to_move() == [mover]
    assert set((snap.waits or {}).keys()) <= {mover}  # nobody waits on a standing option
    # check_turn finds a clicked standing decision by its token
    d = resign_of(snap, idle)
    user = (ANA, BEN)[idle]
    assert host.check_turn(snap, user.user_id, idle, snap.token(d)) == d


async def test_a_click_on_a_standing_button_plays_and_then_it_is_gone(host: Host) -> None:
    snap = await started(host)
    idle = 1 - snap.to_move()[0]
    user, other = (ANA, BEN)[idle], (ANA, BEN)[1 - idle]
    tok = snap.token(resign_of(snap, idle))
    # another player, a stranger: refused, nothing changes
    with pytest.raises(HostError, match="not_your_button"):
        await host.play(snap.id, other.user_id, idle, tok, "resign")
    with pytest.raises(HostError, match="not_a_player"):
        await host.play(snap.id, EVE.user_id, idle, tok, "resign")
    assert (await host.by_id(snap.id)).row.version == snap.row.version
    out = await host.play(snap.id, user.user_id, idle, tok, "resign")
    after = out.after
    assert after.state["resigned"] == [idle]
    assert not [d for d in after.standing_for(idle) if not d.private]  # gone
    assert after.to_move() == snap.to_move()  # whom the game waits for is unchanged
    reloaded = await host.by_id(snap.id)
    assert reloaded.standing == after.standing and reloaded.decisions == after.decisions
    # the old button: the seat is asked nothing any more
    with pytest.raises(HostError, match="not_your_turn"):
        await host.play(snap.id, user.user_id, idle, tok, "resign")
    assert await host.replay(snap.id) == reloaded.row.state


async def test_a_standing_button_goes_stale_when_its_seat_moves(host: Host) -> None:
    snap = await started(host)
    mover = snap.to_move()[0]
    user = (ANA, BEN)[mover]
    tok = snap.token(resign_of(snap, mover))
    d = snap.decisions_for(mover)[0]
    await host.play(snap.id, user.user_id, mover, snap.token(d), "add1")
    with pytest.raises(HostError, match="stale"):
        await host.play(snap.id, user.user_id, mover, tok, "resign")
    fresh = await host.by_id(snap.id)
    out = await host.play(
        snap.id, user.user_id, mover, fresh.token(resign_of(fresh, mover)), "resign"
    )
    assert out.after.state["resigned"] == [mover]


async def test_a_standing_move_can_be_taken_back(host: Host) -> None:
    snap = await started(host)
    idle = 1 - snap.to_move()[0]
    user = (ANA, BEN)[idle]
    await host.play(snap.id, user.user_id, idle, snap.token(resign_of(snap, idle)), "resign")
    after = await host.undo(snap.id, user)
    assert after.state["resigned"] == [] and resign_of(after, idle) is not None


async def test_bots_never_take_a_standing_option(host: Host) -> None:
    snap = await started(host, bot=True)
    assert snap.standing_for(2)  # the bot's seat has one (the game offers it)...
    for _ in range(200):  # ...the people play their turns, the bots theirs
        snap = await host.by_id(snap.id)
        if snap.row.status != "active":
            break
        steps = await host.play_bots(snap.id)
        snap = await host.by_id(snap.id)
        human = [s for s in snap.human_to_move()]
        if not human:
            assert steps or snap.row.status != "active"
            continue
        seat = human[0]
        d = snap.decisions_for(seat)[0]
        await host.play(snap.id, (ANA, BEN)[seat].user_id, seat, snap.token(d), d.options[0].id)
    snap = await host.by_id(snap.id)
    assert snap.row.status == "over" and snap.state["resigned"] == []
    actions = await host.store.actions(snap.id)
    assert not [a for a in actions if a.by_bot and a.choice in ("resign", "hint")]


# --------------------------------------------------------------------------- the table


def buttons(view: Any) -> list[Any]:
    """The view's buttons (a DynamicItem wraps its button)."""
    return [getattr(b, "item", b) for b in view.children]


def button_labels(view: Any) -> list[tuple[str, str]]:
    return [(b.custom_id.split(":")[-1], b.label) for b in buttons(view) if b.custom_id]


async def test_the_table_shows_a_human_seats_public_standing_buttons(host: Host) -> None:
    snap = await started(host, bot=True)
    view = present.table_view(snap, "en")
    assert view is not None
    resign = [(i, label) for i, label in button_labels(view) if i == "resign"]
    # Ana's and Ben's, named; never the bot's; never a private one
    assert sorted(label.split(":")[0] for _, label in resign) == ["Ana", "Ben"]
    assert not [i for i, _ in button_labels(view) if i == "hint"]
    # a row of their own, before the helpers (My hand, Log)
    rows = {b.custom_id.split(":")[-1]: b.row for b in buttons(view) if b.custom_id}
    assert rows["resign"] < rows["hand"]
    # the buttons carry the standing decision's token: a click on one plays
    button = next(b for b in buttons(view) if (b.custom_id or "").endswith(":resign"))
    _, _, _, _, seat, tok, _ = button.custom_id.split(":")
    d = host.check_turn(snap, (ANA, BEN)[int(seat)].user_id, int(seat), tok)
    assert d.options[0].id == "resign"


async def test_a_private_standing_option_rides_on_a_private_panel_only(host: Host) -> None:
    snap = await started(host)
    # no private decision open: the private standing option is not shown, no panel owed
    assert not any(d.private for d in snap.standing)
    assert present.panel_mark(snap, 0) == ""
    # play to the secret picks: each seat has a private panel, the hint rides on it
    for _ in range(10):
        if any(d.private for d in snap.decisions):
            break
        seat = snap.to_move()[0]
        d = snap.decisions_for(seat)[0]
        snap = (
            await host.play(snap.id, (ANA, BEN)[seat].user_id, seat, snap.token(d), "add2")
        ).after
    assert any(d.private for d in snap.decisions) and any(d.private for d in snap.standing)
    _, panel = present.private_panel(snap, 0, "en")
    assert panel is not None
    assert {i for i, _ in button_labels(panel)} >= {"red", "blue", "hint"}
    table = present.table_view(snap, "en")
    assert table is not None and "hint" not in {i for i, _ in button_labels(table)}
    mark = present.panel_mark(snap, 0)
    # the seat picks its colour: no private decision left, so no panel, hint or not
    d = next(d for d in snap.decisions_for(0) if d.private)
    snap = (await host.play(snap.id, ANA.user_id, 0, snap.token(d), "red")).after
    assert any(d.private and d.seat == 0 for d in snap.standing)
    assert present.panel_mark(snap, 0) == "" != mark
    _, panel = present.private_panel(snap, 0, "en")
    assert panel is None


async def test_a_crowded_table_puts_standing_buttons_beside_the_helpers(host: Host) -> None:
    snap = await started(host)
    mover = snap.to_move()[0]
    many = tuple(Option(f"o{i}", "standing.opt.resign") for i in range(20))  # 4 rows of 5
    snap.decisions = [Decision(mover, "standing.prompt.many", many)]
    view = present.table_view(snap, "en", undo=True)
    assert view is not None
    rows = [(b.custom_id.split(":")[-1], b.row) for b in buttons(view) if b.custom_id]
    last = [i for i, r in rows if r == 4]
    # My hand, Log, Undo and as many standing buttons as the row holds (5 buttons)
    assert last == ["resign", "resign", "hand", "log", "undo"]
    assert max(r for _, r in rows) == 4
    # and with Take back too: one of the two fits
    view = present.table_view(snap, "en", undo=True, back=True)
    assert view is not None
    last = [b.custom_id.split(":")[-1] for b in buttons(view) if b.custom_id and b.row == 4]
    assert last == ["resign", "hand", "log", "undo", "back"]
