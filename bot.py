"""Cosmodrome: space board games in Discord channels.

``build_bot(settings=None)`` makes the bot without connecting (settings from the
environment when not given); ``main()`` runs it. ``python bot.py`` starts it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys

import discord
from discord import app_commands
from discord.ext import commands

from core import i18n
from host.clock import Clock
from host.sessions import Host
from host.settings import Settings, SettingsError
from host.storage import Store

log = logging.getLogger("cosmodrome")

EXTENSIONS = ("cogs.game", "cogs.stats", "cogs.settings")


class Translator(app_commands.Translator):
    """Slash command names, descriptions and choices in Spanish (keys in host.json)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = i18n.pick(str(locale))
        if key is None or lang == i18n.DEFAULT or not i18n.has(key, lang):
            return None
        return i18n.t(key, lang)


class Cosmodrome(commands.Bot):
    host: Host
    store: Store

    def __init__(
        self, settings: Settings, *, clock: Clock | None = None, seeds: random.Random | None = None
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.clock = clock or Clock()
        self.seeds = seeds

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.db_path)
        self.host = Host(self.store, clock=self.clock, seeds=self.seeds)
        await self.tree.set_translator(Translator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def build_bot(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    seeds: random.Random | None = None,
) -> Cosmodrome:
    """Make the bot; no I/O until it is started."""
    return Cosmodrome(settings or Settings.from_env(), clock=clock, seeds=seeds)


def main() -> int:
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    logging.basicConfig(level=logging.INFO, format=fmt)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"cosmodrome: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print(
            "cosmodrome: DISCORD_TOKEN is not set. Put it in the environment or in a .env "
            "file (see README.md).",
            file=sys.stderr,
        )
        return 2
    bot = build_bot(settings)

    async def run() -> None:
        async with bot:
            await bot.start(settings.token or "")

    try:
        asyncio.run(run())
    except discord.LoginFailure:
        print("cosmodrome: Discord rejected DISCORD_TOKEN (check the bot token).", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
