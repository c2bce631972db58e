"""Decisions through the offline Discord harness, with toy games: a shared pool picked by
four seats at once (stable decision identity, "gone" sentences, panels edited in place), a
multi-pick menu, a paged grid and a game's own panel, and a six-seat table where every
waiting seat has its own "Your move" button."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from host.sessions import Player
from tests import layouttoy, pooltoy
from tests.e2e.driver import (
    hand_button,
    is_final,
    latest_table,
    offers,
    play_to_end,
    refused,
)
from tests.e2e.kit import register_toys
from tests.harness import FakeUser, Harness, Message

POOL6 = pooltoy.Pool("pool6", private=False)


@pytest.fixture(autouse=True)
def toys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy games with the host, their strings and a one-colour renderer."""
    pool6 = {
        lang: {key.replace("pool.", "pool6.", 1): text for key, text in texts.items()}
        for lang, texts in pooltoy.STRINGS.items()
    }
    games = {"pool": pooltoy.GAME, "pool6": POOL6, "layout": layouttoy.GAME}
    register_toys(monkeypatch, games, [pooltoy.STRINGS, layouttoy.STRINGS, pool6])


async def open_toy(h: Harness, game: str, users: list[FakeUser]) -> int:
    """A lobby for a toy game (toy games are not in /game new's choices), started."""
    host = h.bot.host  # type: ignore[union-attr]
    players = [Player(u.id, u.name, "en") for u in users]
    snap = await host.new_lobby(
        guild_id=h.guild_id, channel_id=h.channel_id, game_id=game, owner=players[0], lang="en"
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    await h.bot.get_cog("GameCog").do_start(snap.id, players[0])  # type: ignore[union-attr]
    await h.idle()
    return int(snap.id)


def tile_offer(panel: Message, tile: str) -> Any:
    return next(o for o in offers(panel) if o.option == tile)


def dm_posts(h: Harness) -> int:
    return sum(1 for r in h.requests_of("dm_message") if r.method == "POST" and r.status < 300)


@pytest.mark.parametrize("loser", ["Dan", "Ana"])
async def test_four_seats_pick_from_a_shared_pool_at_once(harness: Harness, loser: str) -> None:
    h = harness
    ana, ben, cal, dan = (h.user(n) for n in ("Ana", "Ben", "Cal", "Dan"))
    h.fail_dms(dan)  # Dan plays from "My hand"
    gid = await open_toy(h, "pool", [ana, ben, cal, dan])
    host = h.bot.host  # type: ignore[union-attr]

    panels = {u: h.dm_messages(u) for u in (ana, ben, cal)}
    assert all(len(p) == 1 for p in panels.values())
    assert dm_posts(h) == 3
    table = latest_table(h)
    opened = await h.click(dan, table, hand_button(table))
    dan_panel = opened.message
    assert dan_panel is not None and dan_panel.ephemeral

    # All four click at once: Ana and Dan want tile 1, Ben tile 2, Cal tile 3. Every click
    # on a tile still offered succeeds although the pool changed under it; the one that
    # came second for tile 1 is told who took it. The harness dispatches the clicks in the
    # order given, so the loser is whoever of Ana and Dan is fed last (both orders tested).
    wants = {ana: (panels[ana][0], "t1"), ben: (panels[ben][0], "t2")}
    wants |= {cal: (panels[cal][0], "t3"), dan: (dan_panel, "t1")}
    loser_user, winner_user = (dan, ana) if loser == "Dan" else (ana, dan)
    order = [winner_user, ben, cal, loser_user]
    clicks = [(u, wants[u][0], tile_offer(*wants[u]).custom_id) for u in order]
    replies = dict(zip(order, await h.click_many(clicks), strict=True))
    assert not refused(replies[ben]) and not refused(replies[cal])
    assert not refused(replies[winner_user]) and refused(replies[loser_user])
    assert f"tile 1 was just taken by {winner_user.name}" in replies[loser_user].text()
    snap = await host.by_id(gid)
    taken = snap.state["taken"]
    assert taken == {"t1": 3 if winner_user is dan else 0, "t2": 1, "t3": 2}

    # Round 1 sent one panel per DM and edited them in place as the pool shrank.
    assert dm_posts(h) == 3
    for u in (ana, ben, cal):
        assert len(h.dm_messages(u)) == 1
    for u in (ana, ben, cal):  # edited at least once: its own pick, or the pool shrank
        assert len(h.dm_messages(u)[0].versions) >= 2
    assert "t1" not in [o.option for o in offers(h.dm_messages(ben)[0])]

    # The loser picks again (a tile still offered) and succeeds.
    # The panel the losing click came from was brought up to date in place.
    panel = dan_panel if loser_user is dan else h.dm_messages(ana)[-1]
    assert "t1" not in [o.option for o in offers(panel)] and offers(panel)
    assert not refused(await h.click(loser_user, panel, tile_offer(panel, "t4").custom_id))

    # Round 2 is a new question. What the host promises: every DM seat has one live panel
    # for it, sent as a new DM, except when the seat's own click on its DM panel brought
    # the question (Ana, when she lost the race and so picked last): that panel, which she
    # is looking at, is edited in place into round 2's. Every other panel offers nothing.
    for u in (ana, ben, cal):
        live = [m for m in h.dm_messages(u) if offers(m)]
        assert len(live) == 1 and "Round 2: take a tile" in live[0].text(), u.name
        assert [o.option for o in offers(live[0])] == ["t5", "t6", "t7", "t8", "t9", "t10"]
    if loser_user is ana:
        assert h.dm_messages(ana) == [panel]
    posts = 5 if loser_user is ana else 6
    assert dm_posts(h) == posts
    final = await play_to_end(h, {ana: 0, ben: 1, cal: 2, dan: 3}, random.Random(5), closed={dan})
    assert is_final(final)
    assert dm_posts(h) == posts  # one panel per DM seat and question: never re-sent
    assert await host.replay(gid) == (await host.by_id(gid)).row.state
    assert not h.unexpected


async def test_a_publish_between_a_move_and_its_panel_leaves_one_live_panel(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ben's click ends round 1; another task's publish (another seat's click, a bot, the
    pacing tick) runs between his move and the edit of the panel he clicked, and DMs him
    round 2's panel. His clicked panel, greyed out by then, is not brought back to life:
    one live panel, the one kept up to date as the pool shrinks."""
    h = harness
    ana, ben = h.user("Ana"), h.user("Ben")
    await open_toy(h, "pool", [ana, ben])
    cog: Any = h.bot.get_cog("GameCog")  # type: ignore[union-attr]
    original = cog.update_private_panel

    async def publish_first(interaction: Any, gid: int, seat: int, *args: Any) -> None:
        if seat == 1:
            await cog.publish(gid)
        await original(interaction, gid, seat, *args)

    monkeypatch.setattr(cog, "update_private_panel", publish_first)
    first = h.dm_messages(ana)[0]
    assert not refused(await h.click(ana, first, tile_offer(first, "t1").custom_id))
    clicked = h.dm_messages(ben)[0]
    assert not refused(await h.click(ben, clicked, tile_offer(clicked, "t2").custom_id))
    assert not offers(clicked)  # greyed out
    (live,) = [m for m in h.dm_messages(ben) if offers(m)]
    assert "Round 2: take a tile" in live.text()
    (mine,) = [m for m in h.dm_messages(ana) if offers(m)]
    assert not refused(await h.click(ana, mine, tile_offer(mine, "t3").custom_id))
    assert [m for m in h.dm_messages(ben) if offers(m)] == [live]
    assert [o.option for o in offers(live)] == ["t4", "t5", "t6"]
    assert not h.unexpected


async def test_a_pool_panel_is_edited_when_another_seat_takes_a_tile(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana"), h.user("Ben", "es-ES")
    await open_toy(h, "pool", [ana, ben])
    ben_panel = h.dm_messages(ben)[0]
    before = [o.option for o in offers(ben_panel)]
    assert "t1" in before
    ana_panel = h.dm_messages(ana)[0]
    assert not refused(await h.click(ana, ana_panel, tile_offer(ana_panel, "t1").custom_id))
    assert len(h.dm_messages(ben)) == 1  # the same message, edited
    after = [o.option for o in offers(h.dm_messages(ben)[0])]
    assert after == [t for t in before if t != "t1"]


async def test_multi_pick_grid_and_game_panel(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana"), h.user("Ben")
    gid = await open_toy(h, "layout", [ana, ben])
    host = h.bot.host  # type: ignore[union-attr]

    # 1. Crew: one menu taking 2..3 values, sent as one move.
    table = latest_table(h)
    (menu,) = table.selects
    assert (menu.min_values, menu.max_values) == (2, 3)
    too_few = await h.click(ana, table, menu.custom_id, values=["bo"], force=True)
    assert refused(too_few) and "at least 2" in too_few.text()
    assert not refused(await h.click(ana, table, menu.custom_id, values=["flo", "ana"]))
    table = latest_table(h)
    (menu,) = table.selects
    assert not refused(await h.click(ben, table, menu.custom_id, values=["cy", "di", "ed"]))
    actions = await host.store.actions(gid)
    # stored in the decision's order, whatever order the menu sent them in
    assert [a.choice for a in actions] == ["ana,flo", "cy,di,ed"]

    # 2. Place: a 7 x 7 grid, shown 3 rows x 5 columns at a time with arrows.
    table = latest_table(h)
    cells = [o.option for o in offers(table)]
    assert cells[:5] == ["c0.0", "c0.1", "c0.2", "c0.3", "c0.4"] and "home" in cells
    assert "c3.0" not in cells and "c0.5" not in cells
    arrows = {b.label: b.custom_id for b in table.buttons if ":g:" in (b.custom_id or "")}
    assert set(arrows) == {"▼", "▶"}
    block = await h.click(ana, table, arrows["▶"])  # the block to the right, privately
    assert block.ephemeral
    shown = block.message
    assert shown is not None
    right = [o.option for o in offers(shown)]
    assert "c0.5" in right and "c0.6" in right and "c0.0" not in right
    down = next(b.custom_id for b in shown.buttons if b.label == "▼")
    lower = await h.click(ana, shown, down)  # the panel is edited in place
    assert lower.message == shown
    assert "c6.6" in [o.option for o in offers(shown)]
    assert not refused(await h.click(ana, shown, tile_offer(shown, "c6.6").custom_id))
    table = latest_table(h)
    assert not refused(await h.click(ben, table, tile_offer(table, "home").custom_id))

    # 3. Hull: the game's own rows, gaps included.
    table = latest_table(h)
    rows = [
        [b.label if ":m:" in (b.custom_id or "") else None for b in row]
        for row in _button_rows(table)
    ]
    assert rows[:3] == [[None, "Hull A", None], ["Hull B", None, "Hull C"], [None, "Hull D", None]]
    gaps = [b for b in table.buttons if ":x:" in (b.custom_id or "")]
    assert len(gaps) == 5 and all(b.disabled and b.label == "·" for b in gaps)
    assert not refused(await h.click(ana, table, tile_offer(table, "c").custom_id))
    table = latest_table(h)
    assert not refused(await h.click(ben, table, tile_offer(table, "d").custom_id))
    assert is_final(latest_table(h))
    assert await host.replay(gid) == (await host.by_id(gid)).row.state


def _button_rows(m: Message) -> list[list[Any]]:
    rows = []
    for comp in m.components:
        if comp.get("type") == 1:
            rows.append(
                [
                    SimpleNamespace(label=c.get("label"), custom_id=c.get("custom_id"))
                    for c in comp.get("components", [])
                    if c.get("type") == 2
                ]
            )
    return rows


async def test_six_seats_each_get_a_your_move_button(harness: Harness) -> None:
    h = harness
    users = [h.user(n) for n in ("Ana", "Ben", "Cal", "Dan", "Eva", "Fer")]
    gid = await open_toy(h, "pool6", users)
    host = h.bot.host  # type: ignore[union-attr]
    table = latest_table(h)
    moves = {b.label: b.custom_id for b in table.buttons if ":t:move." in (b.custom_id or "")}
    assert len(moves) == 6 and all(f"Your move, {u.name}" in moves for u in users)

    # Someone else's button is refused; one's own opens the choice privately.
    wrong = await h.click(users[1], table, moves["Your move, Ana"])
    assert refused(wrong)
    direct = 0
    for i, u in enumerate(users):
        table = latest_table(h)
        mine = [b.custom_id for b in table.buttons if b.label == f"Your move, {u.name}"]
        if mine:
            panel = (await h.click(u, table, mine[0])).message
            assert panel is not None and panel.ephemeral
        else:  # few seats left: their buttons fit on the table again
            panel = table
            direct += 1
        choice = offers(panel, i)[0]
        assert not refused(await h.click(u, panel, choice.custom_id))
    assert direct == 2  # the last two seats' ten tiles each fit in four rows
    snap = await host.by_id(gid)
    assert snap.state["round"] == 2 and len(snap.state["taken"]) == 6
    seats = {u: i for i, u in enumerate(users)}
    final = await play_to_end(h, seats, random.Random(6), closed=set(users))
    assert is_final(final)
