"""Skill ratings as players see them (host/ratings.py, cogs/stats.py): the end-of-game
package says how each player's rating moved, /leaderboard orders the server's players and
bot levels by the conservative rating μ − 3σ, /stats shows each game's rating, and an
abandoned game changes nothing — in English and in Spanish."""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.i18n import t
from host.sessions import Player
from host.skill import player_key
from tests import scoretoy
from tests.e2e.driver import is_final, latest_table, move_buttons
from tests.e2e.kit import register_toys
from tests.harness import FakeUser, Harness, Message

KIND = "mlem"


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The score toy, played as "mlem" (/leaderboard offers the real games only): it ends at
    # the first seat's one click, and the last seat scores most.
    register_toys(monkeypatch, {KIND: scoretoy.GAME}, [scoretoy.STRINGS])


async def play(
    h: Harness, users: list[FakeUser], lang: str, bots: tuple[str, ...] = (), *, end: bool = True
) -> Any:
    """A score-toy game of ``users`` (seats in that order) and bots at ``bots`` levels,
    started through the cog and, with ``end``, ended by the first seat's click."""
    host: Any = h.bot.host  # type: ignore[union-attr]
    players = [Player(u.id, u.name, lang) for u in users]
    snap = await host.new_lobby(
        guild_id=h.guild_id,
        channel_id=h.channel_id,
        game_id=KIND,
        owner=players[0],
        lang=lang,
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    for level in bots:
        lobby = await host.add_bot(snap.id, players[0])
        seat = len(lobby.seats) - 1
        while host.level_of(lobby, seat) != level:
            lobby = await host.cycle_bot_level(snap.id, seat, players[0])
    await h.bot.get_cog("GameCog").do_start(snap.id, players[0])  # type: ignore[union-attr]
    await h.idle()
    if end:
        table = latest_table(h)
        await h.click(users[0], table, move_buttons(table)[0])
        assert is_final(latest_table(h))
    return await host.by_id(snap.id)


def package(h: Harness) -> Message:
    return [m for m in h.messages() if any(a.name == "recap.gif" for a in m.attachments)][-1]


def shown(x: float, lang: str) -> str:
    """A rating as the harness reads it (one decimal, the language's decimal mark)."""
    text = t("host.stats.rating", lang, rating=round(x, 1) + 0.0, mu=0, sigma=0)
    return text.split(" ")[1]


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_final_message_shows_each_change_and_the_board_orders_by_rating(
    harness: Harness, lang: str
) -> None:
    h = harness
    locale = "en-US" if lang == "en" else "es-ES"
    ana, ben, cal = (h.user(n, locale) for n in ("Ana", "Ben", "Cal"))
    host: Any = h.bot.host  # type: ignore[union-attr]

    # Ana, Ben, a hard bot: the bot (last seat) wins, Ben is second, Ana last.
    snap = await play(h, [ana, ben], lang, bots=("hard",))
    snap = await host.by_id(snap.id)
    changes = {c.player: c for c in await host.store.rating_changes(snap.id)}
    assert set(changes) == {str(ana.id), str(ben.id), "bot:hard"}
    text = package(h).content
    head = t("host.final.ratings", lang, ratings="")
    line = next(x for x in text.splitlines() if x.startswith(head))
    bot = t("host.rating.bot", lang, level_key="host.opt.botlevel.hard")
    by_name = {"Ana": str(ana.id), "Ben": str(ben.id), f"Bot 1 ({bot})": "bot:hard"}
    for name, key in by_name.items():
        c = changes[key]
        arrow = "▲" if c.delta > 0 else "▼"
        amount = shown(abs(c.delta), lang)
        assert f"{name} {shown(c.after.shown, lang)} {arrow}{amount}" in line, line
    assert changes[str(ben.id)].delta > 0 > changes[str(ana.id)].delta
    seats = [player_key(s.user_id, s.level) for s in snap.seats]
    assert seats == [str(ana.id), str(ben.id), "bot:hard"]

    # Two more games: Cal beats Ana; Ana, Ben, Cal (Cal wins again).
    await play(h, [ana, cal], lang)
    await play(h, [ana, ben, cal], lang)
    # An abandoned game is not rated.
    abandoned = await play(h, [ben, ana], lang, end=False)
    mod = h.user("Mod", locale, admin=True)
    await h.slash(mod, "game abandon")
    assert await host.store.rating_changes(abandoned.id) == []

    reply = await h.slash(ben, "leaderboard", game=KIND)
    embed = reply.embeds[0]
    lines = embed["description"].splitlines()
    board = await host.store.rating_board(h.guild_id, KIND)
    assert [r.shown for _, r in board] == sorted((r.shown for _, r in board), reverse=True)
    assert len(lines) == len(board) == 4  # Ana, Ben, Cal and the hard bot
    for i, (player, r) in enumerate(board):
        who = bot if player == "bot:hard" else f"<@{player}>"
        assert lines[i].startswith(f"{i + 1}. {who} — **{shown(r.shown, lang)}**"), lines[i]
        assert re.search(r"· \d+ ", lines[i])
    games = {p: r.games for p, r in board}
    assert games == {str(ana.id): 3, str(ben.id): 2, str(cal.id): 2, "bot:hard": 1}
    assert board[0][0] == str(cal.id) and board[-1][0] == str(ana.id)
    assert embed["footer"]["text"] == t("host.board.footer", lang)

    # /stats: the game's line and its rating.
    stats = await h.slash(ana, "stats")
    ours = dict(board)[str(ana.id)]
    assert (
        t(
            "host.stats.rating",
            lang,
            rating=round(ours.shown, 1) + 0.0,
            mu=round(ours.mu, 1),
            sigma=round(ours.sigma, 1),
        )
        in stats.text()
    )
