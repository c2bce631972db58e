"""Cosmodrome: space board games in Discord channels.

``build_bot(settings=None)`` makes the bot without connecting (settings from the
environment when not given); ``main()`` runs it. ``python bot.py`` starts it, and every
start-up failure (no token, rejected token, Discord unreachable, database unwritable) is one
line on stderr and exit status 2.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import random
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from core import i18n
from host import botpool, renderpool
from host.clock import Clock
from host.sessions import Host
from host.settings import Settings, SettingsError, redact_url
from host.storage import Storage, is_postgres_url, open_store

log = logging.getLogger("cosmodrome")

T = TypeVar("T")

EXTENSIONS = ("cogs.game", "cogs.stats", "cogs.settings")


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator."""


def quiet_voice() -> None:
    """The bot never joins voice: no warnings about missing voice libraries (PyNaCl, davey),
    which discord.py logs when a client is made."""
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


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


#: The garbage collector's thresholds once the bot is loaded (see :func:`steady_gc`).
GC_THRESHOLDS = (5_000, 10, 10)
_gc_steady = False


def steady_gc() -> None:
    """Once per process, when the bot has loaded its extensions: what exists by now
    (modules, the rules' data, catalogs, discord.py's machinery; about 80,000 objects) is
    moved out of the garbage collector's sight (``gc.freeze``: it lives as long as the
    process), and young objects are collected after 5,000 allocations rather than 700
    (issue 23). With twenty games
    clicked at once every click's task holds its objects across several collections, so
    they reached the oldest generation and set off a full collection every hundred moves
    or so, which walked everything: 50 to 100 ms with the event loop stopped (a round's
    pictures late by as much), and about 1 ms of the loop's CPU a move in all
    (``bench.scale --timeline`` counts them)."""
    global _gc_steady
    if _gc_steady:
        return
    _gc_steady = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: ``0`` in the environment: asyncio's own event loop even where uvloop is installed.
UVLOOP_ENV = "COSMODROME_UVLOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop the bot runs on: uvloop's (a dependency on Linux and macOS: less CPU
    a click in the loop's own machinery) when it is installed, unless ``COSMODROME_UVLOOP``
    is ``0`` (read from the environment only); else None, asyncio's own."""
    if os.environ.get(UVLOOP_ENV, "").strip() == "0":
        return None
    try:
        import uvloop
    except ImportError:  # Windows, or an install without it
        return None
    return uvloop.new_event_loop


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end on a new event loop of :func:`loop_factory`'s choice, as
    ``asyncio.run`` does (the bot and ``bench.scale`` both start through here). SIGTERM
    (a service manager's or a container's stop) is answered as Ctrl-C is: ``main`` is
    cancelled, so the bot closes its store and its pools, and KeyboardInterrupt is raised;
    before, the process ended at once, on either loop."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(_stopped_by_sigterm(main))


async def _stopped_by_sigterm(main: Coroutine[Any, Any, T]) -> T:
    """``main``, with SIGTERM handled by the runner's own SIGINT handler (which cancels the
    main task, then raises KeyboardInterrupt at a second signal) while it runs. Nothing is
    changed off the main thread, or when the runner did not take SIGINT (it takes it only
    where Python's default handler was in place)."""
    on_sigint = signal.getsignal(signal.SIGINT)
    if (
        threading.current_thread() is not threading.main_thread()
        or not callable(on_sigint)
        or on_sigint is signal.default_int_handler
    ):
        return await main
    before = signal.signal(signal.SIGTERM, on_sigint)
    try:
        return await main
    finally:
        signal.signal(signal.SIGTERM, before)


class Cosmodrome(commands.AutoShardedBot):
    """The bot: every shard of ``Settings.shard_ids`` (of ``shard_count``) in this process;
    with neither set, all the shards Discord advises (one, for a small bot)."""

    host: Host
    store: Storage

    def __init__(
        self, settings: Settings, *, clock: Clock | None = None, seeds: random.Random | None = None
    ) -> None:
        quiet_voice()
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **shards,
        )
        self.settings = settings
        self.clock = clock or Clock()
        self.seeds = seeds
        self.render_pool: renderpool.RenderPool | None = None
        self.bot_pool: botpool.BotPool | None = None

    async def setup_hook(self) -> None:
        path = self.settings.db_path
        try:
            self.settings.check()
        except SettingsError as exc:
            raise StartupError(str(exc)) from exc
        if self.settings.render_workers > 0:
            # Started first: the workers warm up while the database opens and commands sync.
            self.render_pool = renderpool.RenderPool(self.settings.render_workers)
            self.render_pool.start()
            renderpool.install(self.render_pool)
        if self.settings.bot_workers > 0:  # the bots' searches, off the bot's interpreter
            self.bot_pool = botpool.BotPool(self.settings.bot_workers, clock=self.clock)
            self.bot_pool.start()
            botpool.install(self.bot_pool)
        if is_postgres_url(path):
            import asyncpg

            try:
                self.store = await open_store(
                    path, pool=self.settings.db_pool, timeout=self.settings.db_timeout
                )
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                raise StartupError(
                    f"cannot open the PostgreSQL database {redact_url(path)!r} ({exc}). Check "
                    "the COSMODROME_DB URL, that the server runs and that the database exists "
                    "(README: Running on PostgreSQL)."
                ) from exc
        else:
            try:
                self.store = await open_store(path, timeout=self.settings.db_timeout)
            except (OSError, sqlite3.Error) as exc:
                raise StartupError(
                    f"cannot open the database {str(path)!r} ({exc}). Set COSMODROME_DB to a "
                    "file in a folder the bot can write to."
                ) from exc
        self.host = Host(self.store, clock=self.clock, seeds=self.seeds)
        await self.tree.set_translator(Translator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        steady_gc()
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info(
            "online as %s in %d servers (shards %s of %s)",
            self.user,
            len(self.guilds),
            list(self.shards),
            self.shard_count,
        )

    async def close(self) -> None:
        await super().close()
        pool, self.render_pool = self.render_pool, None
        if pool is not None:
            if renderpool.current() is pool:
                renderpool.install(None)
            await pool.close()
        searchers, self.bot_pool = self.bot_pool, None
        if searchers is not None:
            if botpool.current() is searchers:
                botpool.install(None)
            await searchers.close()
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
    # discord.py's routine INFO lines ("logging in using static token", ...) would surround
    # a start-up failure; its warnings and errors still show.
    logging.getLogger("discord").setLevel(logging.WARNING)
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
        run_loop(run())
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        print(f"cosmodrome: {startup_message(exc)}", file=sys.stderr)
        return 2
    return 0


def startup_message(exc: BaseException) -> str:
    """One line that says why the bot could not start (or stopped) and what to do."""
    if isinstance(exc, StartupError):
        text = str(exc)
    elif isinstance(exc, discord.LoginFailure):
        text = (
            "Discord rejected DISCORD_TOKEN (check the bot token: Developer Portal, Bot, "
            "Reset Token)."
        )
    elif isinstance(exc, discord.PrivilegedIntentsRequired):
        text = "Discord refused the gateway intents this bot asks for."
    elif isinstance(exc, discord.HTTPException):
        text = f"Discord answered with an error while starting ({exc.status}): {exc.text}"
    elif isinstance(exc, aiohttp.ClientError | ConnectionError | socket.gaierror | TimeoutError):
        text = (
            f"cannot reach Discord ({exc or type(exc).__name__}). Check the internet "
            "connection, DNS and any proxy or firewall, then start the bot again."
        )
    else:
        log.error("unexpected error", exc_info=exc)
        text = f"stopped by an unexpected error: {type(exc).__name__}: {exc}"
    return " ".join(text.split())  # one line, whatever the exception said


if __name__ == "__main__":
    sys.exit(main())
