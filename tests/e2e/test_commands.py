"""The /game commands besides playing: lobby, list, log, rules, hand, abandon, leave,
command localization and language choice."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from yarl import URL

from cogs.common import needed_permission
from tests.e2e.driver import latest_table, play_turn
from tests.e2e.kit import open_and_play, open_game
from tests.harness import Harness


async def test_commands_are_localized_and_few(harness: Harness) -> None:
    payload = await harness.app_commands_payload()
    (game,) = [c for c in payload if c["name"] == "game"]
    assert game["name_localizations"]["es-ES"] == "partida"
    subs = {o["name"]: o for o in game["options"]}
    assert len(subs) <= 25
    assert set(subs) >= {
        "new",
        "join",
        "leave",
        "start",
        "status",
        "hand",
        "log",
        "rules",
        "abandon",
        "list",
    }
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    assert subs["new"]["description_localizations"]["es-419"].startswith("Abre")
    choice = subs["new"]["options"][0]["choices"][0]
    assert choice["value"] == "mlem" and choice["name_localizations"]["es-ES"]


async def test_language_follows_interaction_then_guild(make_harness, bot_factory) -> None:
    h = await make_harness(bot_factory, guild_locale="es-ES")
    eng, esp = h.user("Eng", "en-US"), h.user("Esp", "es-ES")
    reply = await h.slash(eng, "game rules", game="mlem")
    assert reply.ephemeral and "players" in reply.text()
    reply = await h.slash(esp, "game rules", game="mlem")
    assert "jugadores" in reply.text()
    # An interaction with no usable locale falls back to the guild's (Spanish here).
    reply = await h.slash(eng, "game status", locale="ja")
    assert "No hay ninguna partida" in reply.content


async def test_lobby_join_leave_start_by_commands(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    lobby = (await h.slash(ana, "game new", game="mlem")).posted
    reply = await h.slash(ana, "game new", game="mlem")
    assert reply.ephemeral and "already has a game" in reply.content
    reply = await h.slash(ana, "game start")
    assert "Not enough players" in reply.text()
    assert (await h.slash(ben, "game join")).ephemeral
    assert "2. Ben" in lobby.text()
    assert (await h.slash(ben, "game leave")).ephemeral
    assert "Ben" not in lobby.text()
    await h.slash(ben, "game join")
    reply = await h.slash(ben, "game join")
    assert "already in this game" in reply.content
    await h.slash(ana, "game start")
    assert latest_table(h)
    assert not lobby.buttons  # the lobby is closed
    reply = await h.slash(ana, "game list")
    assert reply.ephemeral and "MLEM" in reply.content


async def test_hand_log_status_and_leave_mid_game(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    _, rng = await open_and_play(h, "mlem", [ana, ben], turns=6, seed=8)
    log = await h.slash(ben, "game log")
    assert log.ephemeral and log.embeds and "•" in log.embeds[0]["description"]
    hand = await h.slash(ben, "game hand")
    assert hand.ephemeral
    old = latest_table(h)
    await h.slash(ana, "game status")
    new = latest_table(h)
    # The table moves to the bottom; the one it replaces is deleted.
    assert new.id != old.id and old.deleted
    # Ben leaves: a bot takes his seat and the game never waits for him again.
    reply = await h.slash(ben, "game leave")
    assert reply.ephemeral and "bot" in reply.content
    for _ in range(3000):
        if await play_turn(h, {ana: 0}, rng) is None:
            break
    assert "🏆" in latest_table(h).text()


async def test_abandon_by_vote_and_by_moderator(harness: Harness) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")
    mod = h.user("Mod", "en-US", admin=True)
    await open_game(h, "mlem", ana, [ben, cal])
    reply = await h.slash(ana, "game abandon")
    assert "1/2" in reply.content and not reply.ephemeral
    reply = await h.slash(ben, "game abandon")
    assert "abandoned" in reply.content
    assert all(b.disabled for b in latest_table(h).buttons)
    reply = await h.slash(ana, "game status")
    assert reply.ephemeral  # no game any more in this channel
    # A new game, ended at once by a member with Manage Channels who is not playing.
    await open_game(h, "mlem", ana, [ben])
    reply = await h.slash(mod, "game abandon")
    assert "abandoned" in reply.content


async def test_two_games_in_two_threads(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    one, two = h.new_thread(h.channel_id, "one"), h.new_thread(h.channel_id, "two")
    for thread in (one, two):
        lobby = (await h.slash(ana, "game new", game="mlem", channel=thread)).posted
        await h.click(ben, lobby, label="Join")
        await h.click(ana, lobby, label="Start")
    rng = random.Random(9)
    for _ in range(10):
        await play_turn(h, {ana: 0, ben: 1}, rng, channel=one)
        await play_turn(h, {ana: 0, ben: 1}, rng, channel=two)
    store = h.bot.host.store  # type: ignore[union-attr]
    g1, g2 = await store.live_game(one), await store.live_game(two)
    assert g1.id != g2.id and g1.channel_id == one and g2.channel_id == two


async def test_lobby_buttons_are_versioned_and_never_leave_a_running_game(
    harness: Harness,
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    lobby = (await h.slash(ana, "game new", game="mlem")).posted
    await h.click(ben, lobby, label="Join")
    option = next(b for b in lobby.buttons if (b.custom_id or "").endswith(":o.h.reminders"))
    first, second = await h.click_many([(ana, lobby, option.custom_id)] * 2)
    store = h.bot.host.store  # type: ignore[union-attr]
    row = await store.live_game(h.channel_id)
    assert row.host_options["reminders"] == "24h"  # moved once, not twice
    assert any(f.ephemeral for r in (first, second) for f in r.followups) or any(
        r.ephemeral for r in (first, second)
    )
    # /game status in a lobby posts it again and greys out the older copy.
    copy = (await h.slash(ana, "game status")).posted
    assert all(b.disabled for b in lobby.buttons)
    leave = next(b for b in copy.buttons if b.label == "Leave")
    stale = h.build_click(ben, copy, leave.custom_id)  # Ben's client still shows the lobby
    await h.click(ana, copy, label="Start")
    (reply,) = await h._run([stale])
    assert reply.ephemeral or any(f.ephemeral for f in reply.followups)
    row = await store.live_game(h.channel_id)
    seats = await store.seats(row.id)
    assert not seats[1].is_bot  # Ben is still playing his own seat


async def test_missing_permission_is_named_in_both_languages(harness: Harness) -> None:
    """Without *Create Public Threads*, ``/game new thread:true`` says which permission is
    missing (not "something went wrong") and opens no game."""
    h = harness
    for name, locale, sentence in (
        ("Ana", "en-US", "missing the **Create Public Threads** permission"),
        ("Eva", "es-ES", "me falta el permiso **Crear hilos públicos**"),
    ):
        h.fail_route("POST", r"/threads$", status=403, code=50013, message="Missing Permissions")
        reply = await h.slash(h.user(name, locale), "game new", game="mlem", thread=True)
        assert reply.ephemeral or all(f.ephemeral for f in reply.followups)
        assert sentence in reply.text()
        assert "<#" not in reply.text()
    store = h.bot.host.store  # type: ignore[union-attr]
    assert await store.live_game(h.channel_id) is None
    assert not [m for m in h.messages() if m.buttons]  # no lobby anywhere


@pytest.mark.parametrize(
    ("method", "path", "missing", "code", "named"),
    [
        ("POST", "/api/v10/channels/1/threads", None, 50013, "create_public_threads"),
        ("POST", "/api/v10/channels/1/messages/2/threads", None, 50013, "create_public_threads"),
        ("GET", "/api/v10/channels/1/messages/2", None, 50013, "read_message_history"),
        ("POST", "/api/v10/channels/1/messages", "attach_files", 50013, "attach_files"),
        ("POST", "/api/v10/channels/1/messages", "embed_links", 50013, "embed_links"),
        ("POST", "/api/v10/channels/1/messages", None, 50013, "send_messages"),
        ("PATCH", "/api/v10/channels/1/messages/2", None, 50001, "view_channel"),
    ],
)
def test_the_permission_named_follows_the_refused_request(
    method: str, path: str, missing: str | None, code: int, named: str
) -> None:
    response: Any = SimpleNamespace(
        method=method, url=URL(f"https://discord.com{path}"), status=403, reason="Forbidden"
    )
    err = discord.Forbidden(response, {"code": code, "message": "Missing Permissions"})
    have = discord.Permissions.all()
    if missing:
        setattr(have, missing, False)
    interaction: Any = SimpleNamespace(app_permissions=have, channel=None)
    assert needed_permission(err, interaction) == named
