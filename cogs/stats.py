"""/stats and /leaderboard: results and skill ratings of finished games (abandoned games never
count; see host/ratings.py), and the ratings line of a game's final message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from cogs.common import CogBase, cmd, game_choices, guarded, options, param
from core.i18n import t
from host import skill
from host.sessions import HostError, Snapshot

if TYPE_CHECKING:
    from bot import Cosmodrome


def duration(seconds: float | None, lang: str) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return t("host.time.seconds", lang, n=round(seconds))
    if seconds < 3600:
        return t("host.time.minutes", lang, n=round(seconds / 60))
    if seconds < 86400:
        return t("host.time.hours", lang, n=round(seconds / 3600, 1))
    return t("host.time.days", lang, n=round(seconds / 86400, 1))


def shown(x: float) -> float:
    """A rating as players read it: one decimal (never "-0")."""
    return round(x, 1) + 0.0


def rating_change(delta: float, lang: str) -> str:
    """How much a shown rating moved: ▲1.2, ▼0.4 or ±0."""
    d = shown(delta)
    if d > 0:
        return t("host.rating.up", lang, d=d)
    if d < 0:
        return t("host.rating.down", lang, d=-d)
    return t("host.rating.same", lang)


def rated_name(player: str, lang: str) -> str:
    """A rated player as the leaderboard names them: a mention, or the bot level."""
    level = skill.bot_level(player)
    if level is None:
        return f"<@{player}>"
    return t("host.rating.bot", lang, level_key=f"host.opt.botlevel.{level}")


def final_ratings(snap: Snapshot, changes: Sequence[skill.Change], lang: str) -> str | None:
    """The final message's line of rating changes, seat by seat ("Ana 27.4 ▲1.2"); None
    when the game was not rated."""
    by_player = {c.player: c for c in changes}
    parts = []
    for s in snap.seats:
        c = by_player.get(skill.player_key(s.user_id, s.level))
        if c is None:
            continue
        name = s.name if s.user_id is not None else f"{s.name} ({rated_name(c.player, lang)})"
        parts.append(
            t(
                "host.final.rating",
                lang,
                name=name,
                rating=shown(c.after.shown),
                change=rating_change(c.delta, lang),
            )
        )
    return t("host.final.ratings", lang, ratings=" · ".join(parts)) if parts else None


class StatsCog(CogBase, commands.Cog):
    """Players' records."""

    def __init__(self, bot: Cosmodrome) -> None:
        self.bot = bot
        self.host = bot.host

    @app_commands.command(**cmd("stats"))
    @options(user=param("cmd.stats.user", "Whose record (yours if empty)"))
    @guarded
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        lang = self.lang(interaction)
        target = user or interaction.user
        rows = await self.host.store.user_stats(target.id)
        rated = await self.host.store.user_ratings(skill.player_key(target.id, None))
        moves, think = await self.host.store.user_think(target.id)
        embed = discord.Embed(
            title=t("host.stats.title", lang, name=target.display_name), colour=present.COLOUR
        )
        total_games = sum(r[1] for r in rows)
        if not rows:
            embed.description = t("host.stats.none", lang)
        for game, games, wins, avg, with_bots in rows:
            value = t(
                "host.stats.line",
                lang,
                games=games,
                wins=int(wins or 0),
                avg=round(avg or 0, 1),
                bots=int(with_bots or 0),
            )
            r = rated.get(game)
            if r is not None:
                mu, sigma = shown(r.mu), shown(r.sigma)
                rating = t("host.stats.rating", lang, rating=shown(r.shown), mu=mu, sigma=sigma)
                value += "\n" + rating
            embed.add_field(name=present.game_name(game, lang), value=value, inline=False)
        embed.set_footer(
            text=t(
                "host.stats.footer",
                lang,
                games=total_games,
                moves=moves,
                think=duration(think, lang),
            )
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(**cmd("leaderboard"))
    @options(game=param("cmd.new.game", "Which game", "cmd.rules.game.desc"))
    @app_commands.choices(game=game_choices())
    @guarded
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        if interaction.guild_id is None:
            raise HostError("host.error.guild_only")
        lang = self.lang(interaction)
        rows = await self.host.store.rating_board(interaction.guild_id, game)
        embed = discord.Embed(
            title=t("host.board.title", lang, game=present.game_name(game, lang)),
            colour=present.COLOUR,
        )
        lines = [
            t(
                "host.board.line",
                lang,
                n=i + 1,
                who=rated_name(player, lang),
                rating=shown(r.shown),
                mu=shown(r.mu),
                sigma=shown(r.sigma),
                games=r.games,
            )
            for i, (player, r) in enumerate(rows)
        ]
        if lines:
            embed.set_footer(text=t("host.board.footer", lang))
        embed.description = "\n".join(lines) or t("host.board.none", lang)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: Cosmodrome) -> None:
    await bot.add_cog(StatsCog(bot))
