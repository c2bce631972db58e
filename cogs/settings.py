"""/settings: a player's notification and language preferences, and a server's defaults."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import Interaction, app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from cogs.common import CogBase, options, param, slash
from core.i18n import t
from host import pacing
from host.sessions import HostError

if TYPE_CHECKING:
    from bot import Cosmodrome

LANGS = [
    app_commands.Choice(
        name=_("Automatic (Discord's language)", key="host.lang.auto"), value="auto"
    ),
    app_commands.Choice(name=_("English", key="host.lang.en"), value="en"),
    app_commands.Choice(name=_("Spanish", key="host.lang.es"), value="es"),
]
REMINDERS = [
    app_commands.Choice(name=_(value, key=f"host.opt.reminders.{value}"), value=value)
    for value in pacing.HOST_OPTIONS[0].choices
]


class SettingsCog(CogBase, commands.Cog):
    """Preferences."""

    settings = app_commands.Group(
        name=_("settings", key="cmd.settings"),
        description=_("Your preferences, or this server's defaults", key="cmd.settings.desc"),
    )

    def __init__(self, bot: Cosmodrome) -> None:
        self.bot = bot
        self.host = bot.host

    @slash(settings, "me", "cmd.settings", language=LANGS)
    @options(
        dm_on_turn=param("cmd.settings.me.dm", "Get a DM when it is your turn"),
        language=param("cmd.settings.me.lang", "The language I use with you"),
    )
    async def me(
        self, interaction: Interaction, dm_on_turn: bool | None = None, language: str | None = None
    ) -> None:
        store = self.host.store
        dm, lang_now = await store.user_settings(interaction.user.id)
        if dm_on_turn is not None:
            dm = dm_on_turn
            if dm_on_turn:
                await store.reopen_dms(interaction.user.id)  # DMs refused once may work now
        if language is not None:
            lang_now = None if language == "auto" else language
            if lang_now:
                interaction.extras["lang"] = lang_now
            else:
                interaction.extras.pop("lang", None)
        await store.set_user_settings(interaction.user.id, dm, lang_now)
        await self.settled(interaction, "host.settings.me", lang_now, dm=f"host.yesno.{int(dm)}")

    @slash(settings, "server", "cmd.settings", language=LANGS, reminders=REMINDERS)
    @options(
        language=param(
            "cmd.settings.me.lang",
            "Language of new games' tables",
            "cmd.settings.server.lang.desc",
        ),
        reminders=param("cmd.settings.server.reminders", "Default reminder cadence for new games"),
    )
    async def server(
        self, interaction: Interaction, language: str | None = None, reminders: str | None = None
    ) -> None:
        if interaction.guild_id is None:
            raise HostError("host.error.guild_only")
        if not interaction.permissions.manage_guild:
            raise HostError("host.error.need_manage_server")
        store = self.host.store
        lang_now, rem_now = await store.guild_settings(interaction.guild_id)
        if language is not None:
            lang_now = None if language == "auto" else language
        if reminders is not None:
            rem_now = reminders
        await store.set_guild_settings(interaction.guild_id, lang_now, rem_now)
        reminders_key = f"host.opt.reminders.{rem_now or '12h'}"
        await self.settled(interaction, "host.settings.server", lang_now, reminders=reminders_key)

    async def settled(
        self, interaction: Interaction, key: str, lang_now: str | None, **keys: str
    ) -> None:
        """Answer with the settings now in force: ``key`` shows the language (``lang_now``,
        None = automatic) and ``keys``, each the i18n key of a setting's value."""
        lang = self.lang(interaction)
        values = {name: t(k, lang) for name, k in keys.items()}
        language = t(f"host.lang.{lang_now or 'auto'}", lang)
        await self.reply(interaction, t(key, lang, language=language, **values))


async def setup(bot: Cosmodrome) -> None:
    await bot.add_cog(SettingsCog(bot))
