"""Bots at three levels through the offline Discord harness: the lobby sets each bot seat's
level (and the stand-in level for autopilot), a bot seat at every level finishes a whole game
of every registered game (a bot at each level at one table), the table says "thinking" while a bot
searches (the person's move is committed and shown first), a click meanwhile stays correct,
and a restart with a bot owed a move resumes it.

The levels are the ones the lobby offers (easy / normal / hard, by name); only their budgets
are made small here (``Host.bot_budgets``, a test-only override) so the suite stays quick.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from core.contract import split_picks
from host import pacing, registry
from host.sessions import BOT_RETRY, Host, HostError, Player
from tests.e2e.botkit import (
    SMALL,
    START,
    Gate,
    lobby_button,
    mlem_with_a_bot_thinking,
    open_lobby,
    set_level,
    small_budgets,
    to_move,
)
from tests.e2e.driver import (
    FINAL,
    field,
    is_final,
    latest_table,
    move_buttons,
    offers,
    panel_of,
    play_to_end,
    play_turn,
    refused,
    waiting_ids,
)
from tests.e2e.kit import cog_of, host_of, snapshot
from tests.e2e.players import Pilot, Trucker
from tests.harness import FakeUser, Harness, Message


def players_field(lobby: Message) -> str:
    for embed in lobby.embeds:
        for f in embed.get("fields", []):
            if str(f.get("name", "")).startswith(("Players", "Jugadores")):
                return str(f.get("value", ""))
    raise AssertionError("no players field")


def test_the_host_offers_the_engines_levels() -> None:
    assert tuple(registry.bot_levels()) == pacing.BOT_LEVELS
    assert pacing.DEFAULT_BOT_LEVEL in pacing.BOT_LEVELS


async def test_the_lobby_sets_each_bots_level_and_the_table_shows_it(harness: Harness) -> None:
    h = harness
    ana = h.user("Ana", "en-US")
    bea = h.user("Bea", "es-ES")
    lobby = await open_lobby(h, "mlem", ana, bots=2)
    # A new bot plays at the default level, and the lobby says so.
    assert "🤖 Bot 1 (normal)" in players_field(lobby)
    assert [s.level for s in (await snapshot(h)).seats] == [None, "normal", "normal"]
    # One click: the next level (normal → hard → easy → normal), for that bot only.
    await h.click(ana, lobby, lobby_button(lobby, "b.1"))
    await h.click(ana, lobby, lobby_button(lobby, "b.2"))
    await h.click(ana, lobby, lobby_button(lobby, "b.2"))
    lobby = h.message(lobby.id)
    assert "🤖 Bot 1 (hard)" in players_field(lobby)
    assert "🤖 Bot 2 (easy)" in players_field(lobby)
    labels = [b.label for b in lobby.buttons]
    assert "🤖 Bot 1: hard" in labels and "🤖 Bot 2: easy" in labels
    assert [s.level for s in (await snapshot(h)).seats] == [None, "hard", "easy"]
    # Someone not seated may not change it; a click on an older lobby is refused.
    outsider = await h.click(bea, lobby, lobby_button(lobby, "b.1"))
    assert refused(outsider)
    with pytest.raises(HostError, match="stale"):
        await host_of(h).cycle_bot_level((await snapshot(h)).id, 1, Player(ana.id, "Ana"), 1)
    assert [s.level for s in (await snapshot(h)).seats] == [None, "hard", "easy"]
    # The stand-in level (autopilot, a bot covering a missed move) is a lobby option.
    await h.click(ana, lobby, lobby_button(lobby, "o.h.botlevel"))
    snap = await snapshot(h)
    assert snap.row.host_options["botlevel"] == "hard"
    assert Host.level_of(snap, 0) == "hard" and Host.level_of(snap, 1) == "hard"
    # /game rules explains it, in both languages.
    rules = await h.slash(ana, "game rules", game="mlem", topic="options")
    assert "Stand-in bot level" in rules.text() and "easy → normal → hard" in rules.text()
    reglas = await h.slash(bea, "game rules", game="mlem", topic="options")
    assert "Nivel del bot de relevo" in reglas.text()
    # The table names each bot with its level.
    small_budgets(h)
    await h.click(ana, lobby, label=START)
    text = latest_table(h).text()
    assert "🤖 Bot 1 (hard)" in text and "🤖 Bot 2 (easy)" in text


#: A bot at each level at one table (seats 1, 2, 3), with a person in seat 0.
LEVEL_OF_SEAT = {seat: level for seat, level in enumerate(pacing.BOT_LEVELS, start=1)}


async def play_person(h: Harness, game: str, ana: FakeUser) -> Message:
    """Ana plays seat 0 to the end: MLEM by random clicks, Kosmonavts as the engine's pilot,
    Galaxy Trucker with small ships; any other game with its own heuristic."""
    rng = random.Random(7)
    if game == "mlem":
        return await play_to_end(h, {ana: 0}, rng)
    if game == "kosmonavts":
        return await play_to_end(h, {ana: 0}, rng, choose=Pilot(h, follow=1.0))
    if game == "galaxy_trucker":
        return await play_to_end(h, {ana: 0}, rng, choose=Trucker(h, tiles=5))
    return await play_as_the_engine_bot(h, ana, 0, rng)


@pytest.mark.parametrize("game", registry.GAME_MODULES)
async def test_a_bot_at_each_level_finishes_a_whole_game(harness: Harness, game: str) -> None:
    """Every registered game takes four seats: a person and a bot at each level, all at one
    table; each bot plays its own seat at its own level to the end."""
    h = harness
    rec = small_budgets(h)
    ana = h.user("Ana", "en-US")
    bots = len(LEVEL_OF_SEAT)
    assert registry.get(game).max_players >= bots + 1
    lobby = await open_lobby(h, game, ana, bots=bots)
    for seat, level in LEVEL_OF_SEAT.items():
        await set_level(h, ana, lobby, seat, level)
    await h.click(ana, lobby, label=START)
    final = await play_person(h, game, ana)
    assert is_final(final) and field(final, FINAL) is not None
    snap = await snapshot(h)
    assert snap.row.status == "over"
    actions = await host_of(h).store.actions(snap.id)
    assert {a.seat for a in actions if a.by_bot} == set(LEVEL_OF_SEAT)
    assert all(not a.by_bot for a in actions if a.seat == 0)
    # Every bot move was searched at its seat's level (its small budget here).
    for seat, level in LEVEL_OF_SEAT.items():
        used = {budget for at, budget in rec.used if at == seat}
        assert used == {SMALL[level]}, (seat, level, used)
    assert await host_of(h).replay(snap.id) == snap.row.state
    for seat, level in LEVEL_OF_SEAT.items():
        assert f"🤖 Bot {seat} ({level})" in final.text()


async def play_as_the_engine_bot(
    h: Harness, user: FakeUser, seat: int, rng: random.Random, max_clicks: int = 3000
) -> Message:
    """Play ``user``'s seat to the end of the game with the game's own heuristic, clicking
    what it picks where the player sees it (several entries of a multi-pick menu at once)."""
    game = registry.get((await snapshot(h)).row.game)
    for _ in range(max_clicks):
        table = latest_table(h)
        if is_final(table):
            return table
        assert user.id in waiting_ids(table), table.text()[:300]
        state = (await snapshot(h)).state
        heuristic = game.bot_choice  # type: ignore[attr-defined]
        picks = split_picks(heuristic(state, seat, random.Random(rng.random())))
        pool = offers(table, seat) or offers(await panel_of(h, user, table, frozenset()), seat)
        offer = next(o for o in pool if o.option in picks)
        values = picks if offer.value is not None else None
        reply = await h.click(user, offer.message, offer.custom_id, values=values)
        assert not refused(reply), reply.text()
    raise AssertionError("the game did not end")


async def test_the_table_says_thinking_while_a_bot_searches(harness: Harness) -> None:
    h = harness
    _, gate = await mlem_with_a_bot_thinking(h, 3, level="hard", gate_first=True)
    # Ana's move is committed and shown; the bot is still searching.
    assert gate.waiting == 1
    snap = await snapshot(h)
    actions = await host_of(h).store.actions(snap.id)
    assert actions[-1].seat == 0 and not actions[-1].by_bot
    table = latest_table(h)
    assert "🤖 Bot 1 (hard): thinking…" in to_move(table)
    assert snap.row.published_version == snap.row.version
    assert not move_buttons(table, 1)  # nothing to click for the bot
    if not snap.human_to_move():
        assert not move_buttons(table)
    # The bot's move comes, and the table shows it.
    await gate.open(h)
    after = await snapshot(h)
    actions = await host_of(h).store.actions(after.id)
    assert any(a.by_bot for a in actions)
    table = latest_table(h)
    assert "thinking" not in to_move(table)
    assert after.row.published_version == after.row.version
    assert await host_of(h).replay(after.id) == after.row.state


async def test_the_thinking_table_is_edited_in_place_and_pings_nobody(harness: Harness) -> None:
    h = harness
    ana, gate = await mlem_with_a_bot_thinking(h, 5, gate_first=True)
    thinking = latest_table(h)
    assert "thinking" in to_move(thinking)
    assert str(ana.id) not in (thinking.content or "")  # no "your move" while bots think
    await gate.open(h)
    assert "thinking" not in to_move(latest_table(h))


async def test_a_restart_with_a_bot_owed_a_move_resumes_it(harness: Harness) -> None:
    h = harness
    ana, gate = await mlem_with_a_bot_thinking(h, 6, bots=2)
    assert gate.waiting == 1
    before = await snapshot(h)
    assert host_of(h).bot_to_move(before) is not None
    # The process stops in the middle of the bot's search: nothing about it was stored.
    await h.restart()
    # At start-up the bot finds the game waiting for a bot and plays on.
    after = await snapshot(h)
    assert host_of(h).bot_to_move(after) is None
    assert after.row.version > before.row.version
    actions = await host_of(h).store.actions(after.id)
    assert actions[-1].by_bot
    assert after.row.published_version == after.row.version
    assert "thinking" not in to_move(latest_table(h))
    assert await host_of(h).replay(after.id) == after.row.state
    # and the game goes on
    small_budgets(h)
    for _ in range(3):
        assert not refused(await play_turn(h, {ana: 0}, random.Random(8)))  # type: ignore[arg-type]


async def test_the_tick_plays_a_bot_whose_move_was_lost(harness: Harness) -> None:
    h = harness
    _, gate = await mlem_with_a_bot_thinking(h, 9)
    # The task making the bot's move dies (e.g. an error): the game still owes the move.
    cog = cog_of(h)
    for task in list(cog.bot_tasks.values()):
        task.cancel()
    await h.idle()
    assert not cog.bot_tasks
    snap = await snapshot(h)
    assert await host_of(h).bots_owed() == [snap.id]
    gate.event.set()
    host_of(h).clock.advance(BOT_RETRY)  # type: ignore[attr-defined]  # (a FakeClock)
    await cog.tick()
    await h.idle()
    assert host_of(h).bot_to_move(await snapshot(h)) is None
    assert await host_of(h).bots_owed() == []


async def test_a_move_made_while_a_bot_thinks_counts_and_the_bot_thinks_again(
    harness: Harness,
) -> None:
    """Kosmonavts' orders are given at the same time: Ana gives hers while the bot searches;
    her move is committed, and the bot's answer, thought out for a position that is gone,
    is thrown away and thought again."""
    h = harness
    small_budgets(h)
    ana = h.user("Ana", "en-US")
    lobby = await open_lobby(h, "kosmonavts", ana, bots=1)
    gate = Gate(host_of(h))
    await h.click(ana, lobby, label=START)
    pilot = Pilot(h, follow=1.0)
    rng = random.Random(11)
    raced = False
    for _ in range(400):
        snap = await snapshot(h)
        if snap.row.status != "active":
            break
        if gate.waiting and 0 in snap.to_move():
            calls, version = gate.calls, snap.row.version
            reply = await play_turn(h, {ana: 0}, rng, choose=pilot)
            assert reply is not None and not refused(reply)
            assert (await snapshot(h)).row.version > version  # Ana's move counted
            await gate.open(h)
            assert gate.calls >= calls + 1  # the bot thought again on the new position
            raced = True
            break
        if gate.waiting:
            await gate.open(h)
            gate.event = asyncio.Event()
            continue
        await play_turn(h, {ana: 0}, rng, choose=pilot)
    assert raced, "Ana and the bot never had to move at the same time"
    snap = await snapshot(h)
    actions = await host_of(h).store.actions(snap.id)
    assert actions[-1].by_bot and actions[-1].seat == 1
    assert await host_of(h).replay(snap.id) == snap.row.state
