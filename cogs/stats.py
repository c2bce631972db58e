"""/stats and /leaderboard: results of finished games (abandoned games never count)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from cogs.common import CogBase, cmd, game_choices, guarded, options, param
from core.i18n import t
from host.sessions import HostError

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
        moves, think = await self.host.store.user_think(target.id)
        embed = discord.Embed(
            title=t("host.stats.title", lang, name=target.display_name), colour=present.COLOUR
        )
        total_games = sum(r[1] for r in rows)
        if not rows:
            embed.description = t("host.stats.none", lang)
        for game, games, wins, avg, with_bots in rows:
            embed.add_field(
                name=present.game_name(game, lang),
                value=t(
                    "host.stats.line",
                    lang,
                    games=games,
                    wins=int(wins or 0),
                    avg=round(avg or 0, 1),
                    bots=int(with_bots or 0),
                ),
                inline=False,
            )
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
        rows = await self.host.store.leaderboard(interaction.guild_id, game)
        embed = discord.Embed(
            title=t("host.board.title", lang, game=present.game_name(game, lang)),
            colour=present.COLOUR,
        )
        lines = [
            t(
                "host.board.line",
                lang,
                n=i + 1,
                who=f"<@{uid}>",
                wins=int(wins or 0),
                games=games,
                avg=round(avg or 0, 1),
                bots=(" · " + t("host.board.bots", lang, n=int(bots))) if bots else "",
            )
            for i, (uid, wins, games, avg, bots) in enumerate(rows)
        ]
        embed.description = "\n".join(lines) or t("host.board.none", lang)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: Cosmodrome) -> None:
    await bot.add_cog(StatsCog(bot))
