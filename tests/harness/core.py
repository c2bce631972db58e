"""The :class:`Harness`: builds the real bot, logs it in against the fake Discord, feeds it
gateway events through discord.py's own parsers and waits until it is idle."""

from __future__ import annotations

import asyncio
import enum
import inspect
import mimetypes
import traceback
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypedDict, Unpack

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from . import netguard
from .backend import DM, ApiError, FakeDiscord, InteractionRecord
from .idle import THREAD_WORK, CapturedError, ErrorCapture, loop_is_quiet
from .models import (
    BUTTON,
    SELECT_TYPES,
    TEXT_INPUT,
    FakeUser,
    HarnessError,
    Message,
    Reply,
    Request,
    StoredMessage,
    _walk_components,
    data_copy,
    payload_text,
)
from .session import FakeSession

__all__ = ["Harness"]

OptionType = discord.AppCommandOptionType
#: The bots the harness runs: one shard, or discord.py's AutoShardedBot (bot.py's).
AnyBot = commands.Bot | commands.AutoShardedBot
MessageRef = Message | Reply | StoredMessage | int


class ClickHow(TypedDict, total=False):
    """How :meth:`Harness.click` finds and uses a component, besides its custom_id (the
    keywords of :meth:`Harness.build_click`)."""

    label: str | None
    values: Sequence[Any] | None
    locale: str | None
    force: bool


class Harness:
    """An offline Discord for one bot (see the package docstring for the tour)."""

    def __init__(
        self,
        bot_factory: Callable[[], AnyBot | Awaitable[AnyBot]],
        *,
        guild_locale: str = "en-US",
        guild_name: str = "Harness Guild",
        channels: Sequence[str] = ("general",),
        guild_id: int | None = None,
        bot_name: str = "Cosmodrome",
        bot_permissions: discord.Permissions | None = None,
        token: str = "harness.bot.token",
        strict: bool = True,
        echo_gateway: bool = True,
        max_idle_rounds: int = 100_000,
        backend: FakeDiscord | None = None,
        errors: ErrorCapture | None = None,
    ) -> None:
        if not channels:
            raise ValueError("the harness guild needs at least one text channel")
        self.bot_factory = bot_factory
        #: One bot instance among several on a shared "Discord" (see tests.harness.shards):
        #: the group installs the guards, routes gateway events and cancels leftovers.
        self.shared = backend is not None
        self.backend = backend or FakeDiscord(
            guild_name=guild_name,
            guild_locale=guild_locale,
            bot_name=bot_name,
            bot_permissions=bot_permissions,
            channels=tuple(channels),
            guild_id=guild_id,
        )
        #: Every HTTP request this harness's bots made (``requests`` holds every bot's).
        self.own_requests: list[Request] = []
        self.token = token
        #: Raise from idle() when discord.py logged an exception it swallowed (an error in
        #: an event handler, command, view or dynamic item) or asyncio reported one.
        self.strict = strict
        #: Deliver MESSAGE_*/CHANNEL_*/THREAD_* gateway events for what the bot does over HTTP
        #: (as Discord would), subject to the bot's intents.
        self.echo_gateway = echo_gateway
        self.max_idle_rounds = max_idle_rounds
        self.bot: AnyBot | None = None
        self.starts = 0
        self._errors = errors or ErrorCapture()
        self._reported = 0
        self._baseline_tasks: set[asyncio.Task[Any]] = set()
        self._guarded = False

    # -- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    async def start(self) -> None:
        """Build the bot, log in (setup_hook runs), feed READY and GUILD_CREATE, wait idle."""
        if self.bot is not None:
            raise HarnessError("the harness is already started")
        loop = asyncio.get_running_loop()
        if not self.shared:
            self._guard(loop)
        try:
            bot = self.bot_factory()
            if inspect.isawaitable(bot):
                bot = await bot
            self.bot = bot
            self._prepare(bot)
            if not self.shared:
                self.backend.gateway_sink = self._on_gateway
                self.backend.gateway_wants = self.wants_kind
            await bot.login(self.token)
            self._connect(bot)
            await self.idle()
        except BaseException:
            await self.stop()
            raise
        self.starts += 1

    async def stop(self) -> None:
        """Close the bot (cogs unload, its session closes), cancel what it left running,
        and lift the network guard."""
        bot, self.bot = self.bot, None
        try:
            if bot is not None:
                await self._settle()
                if not bot.is_closed():
                    await bot.close()
                await self._settle()
        finally:
            if not self.shared:
                self.backend.gateway_sink = None
                self.backend.gateway_wants = None
                await self._cancel_leftovers()
            self._unguard()

    def _guard(self, loop: asyncio.AbstractEventLoop) -> None:
        """Install the network guard, the thread-work tracker and the error capture, and
        note the tasks running before the bot (see :meth:`_cancel_leftovers`)."""
        netguard.activate()
        THREAD_WORK.install()
        self._errors.install(loop)
        self._guarded = True
        self._baseline_tasks = set(asyncio.all_tasks())

    def _unguard(self) -> None:
        """Lift what :meth:`_guard` installed (once)."""
        if self._guarded:
            self._guarded = False
            self._errors.uninstall()
            THREAD_WORK.uninstall()
            netguard.deactivate()

    async def restart(self) -> None:
        """Stop, build a new bot with the same factory, start again. Discord's memory (the
        messages, channels, users, DM channels, command ids) survives."""
        await self.stop()
        await self.start()

    def _prepare(self, bot: AnyBot) -> None:
        # _delay_ready waits guild_ready_timeout seconds for more GUILD_CREATEs; the harness
        # hands the guild over itself (see _drain_ready_queue), so there is nothing to wait.
        bot._connection.guild_ready_timeout = 0
        http = bot.http
        session = FakeSession(self.backend, record=self.own_requests)

        async def static_login(token: str) -> Any:
            # HTTPClient.static_login, minus building a real aiohttp session.
            http._HTTPClient__session = session  # type: ignore[attr-defined]
            http._global_over = asyncio.Event()
            http._global_over.set()
            old_token, http.token = http.token, token
            try:
                return await http.request(Route("GET", "/users/@me"))
            except discord.HTTPException as exc:
                http.token = old_token
                if exc.status == 401:
                    raise discord.LoginFailure("Improper token has been passed.") from exc
                raise

        http.static_login = static_login  # type: ignore[method-assign]

    @staticmethod
    def shards(bot: AnyBot) -> tuple[list[int], int]:
        """The shard ids ``bot`` runs and the bot's shard count (a plain client: [0], 1).
        An AutoShardedBot with no count gets 1, as Discord advises for a small bot."""
        if isinstance(bot, discord.AutoShardedClient):
            count = bot.shard_count or 1
            return (list(bot.shard_ids) if bot.shard_ids else list(range(count))), count
        return [0], 1

    def guild_shard(self, count: int) -> int:
        """The shard that the harness guild's events and interactions go to."""
        return (self.guild_id >> 22) % count

    def _connect(self, bot: AnyBot) -> None:
        """What the gateway connection(s) would deliver: READY for each shard the bot runs,
        then GUILD_CREATE if the guild belongs to one of them."""
        ids, count = self.shards(bot)
        owns = self.guild_shard(count) in ids
        if isinstance(bot, discord.AutoShardedClient):
            # AutoShardedClient.launch_shards, minus the websockets.
            bot.shard_count = count
            bot._connection.shard_count = count
            bot._connection.shard_ids = ids
            for sid in ids:
                ready = self.backend.ready_payload(shard=(sid, count))
                if sid != self.guild_shard(count):
                    ready["guilds"] = []
                self.feed("READY", ready)
        else:
            self.feed("READY", self.backend.ready_payload())
        if owns:
            self.feed("GUILD_CREATE", self.backend.guild_create_payload())
        self._drain_ready_queue(bot)

    def _drain_ready_queue(self, bot: AnyBot) -> None:
        """Do what ConnectionState._delay_ready does with each GUILD_CREATE it queued."""
        state = bot._connection
        queues = getattr(state, "_ready_states", None)  # AutoShardedConnectionState
        if queues is not None:
            for queue in queues.values():
                self._drain(state, queue)
            return
        queue = getattr(state, "_ready_state", None)
        if queue is None:
            return
        self._drain(state, queue)

    @staticmethod
    def _drain(state: Any, queue: asyncio.Queue[Any]) -> None:
        while not queue.empty():
            guild = queue.get_nowait()
            if state._guild_needs_chunking(guild):  # pragma: no cover - GUILD_CREATE is chunked
                raise HarnessError("the harness guild unexpectedly needs chunking")
            state.dispatch(
                "guild_available" if guild.unavailable is False else "guild_join", guild
            )

    async def _cancel_leftovers(self) -> None:
        current = asyncio.current_task()
        leftovers = [
            t
            for t in asyncio.all_tasks()
            if t is not current and t not in self._baseline_tasks and not t.done()
        ]
        for task in leftovers:
            task.cancel()
        for _ in range(50):
            if all(t.done() for t in leftovers):
                break
            await asyncio.sleep(0)

    # -- gateway ---------------------------------------------------------------------------

    def _require_bot(self) -> AnyBot:
        if self.bot is None:
            raise HarnessError("the harness is not started (await h.start())")
        return self.bot

    def feed(self, event: str, data: dict[str, Any], *, fresh: bool = False) -> None:
        """Hand one gateway event (``"MESSAGE_CREATE"``, ...) to discord.py's parser, now:
        a copy of ``data`` (discord.py keeps and changes parts of what it parses), or
        ``data`` itself when it is ``fresh`` (the caller's own copy, handed over)."""
        bot = self._require_bot()
        parser = bot._connection.parsers.get(event)
        if parser is None:
            raise HarnessError(f"discord.py has no parser for {event!r}")
        parser(data if fresh else data_copy(data))

    def wants_kind(self, event: str, in_guild: bool) -> bool:
        """Whether this harness's bot would get a gateway event of this kind now, in a
        guild or not (the backend asks before building one: ``gateway_wants``)."""
        bot = self.bot
        if not self.echo_gateway or bot is None or bot.is_closed():
            return False
        return self._wants(bot, event, {"guild_id": "guild"} if in_guild else {})

    def _wants(self, bot: AnyBot, event: str, data: dict[str, Any]) -> bool:
        intents = bot.intents
        if event.startswith("MESSAGE_"):
            return intents.guild_messages if data.get("guild_id") else intents.dm_messages
        if event.startswith(("CHANNEL_", "THREAD_")):
            return intents.guilds
        if event.startswith("GUILD_MEMBER"):
            return intents.members
        return True

    def _on_gateway(self, event: str, data: dict[str, Any]) -> None:
        bot = self.bot
        if not self.echo_gateway or bot is None or bot.is_closed():
            return
        if not self._wants(bot, event, data):
            return
        asyncio.get_running_loop().call_soon(self._deliver, bot, event, data)

    def _deliver(self, bot: AnyBot, event: str, data: dict[str, Any]) -> None:
        if self.bot is not bot or bot.is_closed():
            return
        try:
            bot._connection.parsers[event](data)
        except Exception as exc:
            self._errors.errors.append(
                CapturedError(
                    "discord.gateway",
                    f"parser {event} raised",
                    exc,
                    "".join(traceback.format_exception(exc)),
                )
            )

    # -- idleness --------------------------------------------------------------------------

    async def idle(self) -> None:
        """Wait until the bot has nothing left to do: no runnable callback, no due timer, no
        thread work (executor, aiosqlite). Never sleeps on the wall clock; future timers
        (view timeouts, ``asyncio.sleep(60)``) are not waited for."""
        loop = asyncio.get_running_loop()
        quiet = 0
        for _ in range(self.max_idle_rounds):
            await asyncio.sleep(0)
            if THREAD_WORK.pending:
                quiet = 0
                await THREAD_WORK.wait()
                continue
            if loop_is_quiet(loop):
                quiet += 1
                if quiet >= 3:
                    break
            else:
                quiet = 0
        else:
            raise HarnessError(
                f"the bot was still busy after {self.max_idle_rounds} loop iterations "
                "(an endless loop of tasks?)"
            )
        self._raise_errors()

    async def _settle(self) -> None:
        strict, self.strict = self.strict, False
        try:
            await self.idle()
        except HarnessError:
            pass
        finally:
            self.strict = strict

    @property
    def errors(self) -> list[CapturedError]:
        """Every ERROR log record and loop exception seen while the harness was active."""
        return self._errors.errors

    def take_errors(self) -> list[CapturedError]:
        """Return and forget the captured errors (so strict mode does not raise them)."""
        errors = list(self._errors.errors)
        self._errors.errors.clear()
        self._reported = 0
        return errors

    def _raise_errors(self) -> None:
        new = self._errors.errors[self._reported :]
        self._reported = len(self._errors.errors)
        if not self.strict:
            return
        fatal = [e for e in new if e.logger.startswith(("discord", "asyncio"))]
        if fatal:
            text = "\n\n".join(str(e) for e in fatal)
            raise HarnessError(f"the bot raised while handling an event:\n{text}")

    # -- the world -------------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        return self.backend.guild_id

    @property
    def channel_id(self) -> int:
        """The default text channel ("general" unless ``channels=`` said otherwise)."""
        return next(iter(self.backend.channels))

    @property
    def app_id(self) -> int:
        return self.backend.app_id

    @property
    def bot_user(self) -> FakeUser:
        return self.backend.bot_user

    @property
    def guild(self) -> discord.Guild:
        """The bot's cached :class:`discord.Guild`."""
        guild = self._require_bot().get_guild(self.guild_id)
        if guild is None:
            raise HarnessError("the bot has no guild in its cache")
        return guild

    def channel_named(self, name: str) -> int:
        for cid, ch in self.backend.channels.items():
            if ch.get("name") == name and not ch.get("deleted"):
                return cid
        raise HarnessError(f"no channel named {name!r}")

    def user(self, name: str, locale: str | None = None, *, admin: bool | None = None) -> FakeUser:
        """The guild member called ``name``, created on first use (locale "en-US", not admin
        unless said). Passing ``locale``/``admin`` for an existing user updates them."""
        existing = self.backend.user_named(name)
        if existing is not None:
            if locale is not None:
                existing.locale = locale
            if admin is not None and admin != existing.admin:
                self.backend.set_admin(existing, admin)
            return existing
        user = self.backend.add_user(name, locale=locale or "en-US", admin=bool(admin))
        if self.bot is not None and self.bot.intents.members:
            data = self.backend.member_payload(user)
            data["guild_id"] = str(self.guild_id)
            self.feed("GUILD_MEMBER_ADD", data)
        return user

    def new_channel(self, name: str) -> int:
        """A new text channel in the guild (announced with CHANNEL_CREATE once started)."""
        ch = self.backend.add_channel(name)
        if self.bot is not None:
            self.feed("CHANNEL_CREATE", self.backend.channel_payload(int(ch["id"])))
        return int(ch["id"])

    def new_thread(self, parent_id: int, name: str, *, private: bool = False) -> int:
        """A new thread under ``parent_id`` (announced with THREAD_CREATE once started)."""
        thread = self.backend.add_thread(parent_id, name, private=private)
        if self.bot is not None:
            data = self.backend.channel_payload(int(thread["id"]))
            self.feed("THREAD_CREATE", {**data, "newly_created": True})
        return int(thread["id"])

    def dm_channel_id(self, user: FakeUser) -> int:
        """The id of the DM channel between the bot and ``user`` (created if needed)."""
        return self.backend.dm_channel_id(user.id)

    def fail_dms(self, user: FakeUser, fail: bool = True) -> None:
        """Opening the DM works, but posting in it answers 403 / 50007."""
        if fail:
            self.backend.failing_dm_users.add(user.id)
        else:
            self.backend.failing_dm_users.discard(user.id)

    def fail_route(
        self,
        method: str,
        path_regex: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str = "Injected failure",
        times: int = 1,
    ) -> None:
        """The next ``times`` requests matching (method or ``"*"``, regex searched in the API
        path, e.g. ``r"/channels/\\d+/messages$"``) get this error answer."""
        self.backend.add_fault(
            method, path_regex, status=status, body={"code": code, "message": message}, times=times
        )

    def lose_channel(self, channel_id: int, *, status: int = 404) -> None:
        """From now on the bot cannot reach ``channel_id``: every request on it answers 404
        Unknown Channel (``status=404``, as after a deletion), 403 Missing Access
        (``status=403``) or 403 Missing Permissions (``status=50013``)."""
        errors = {
            404: ApiError(404, 10003, "Unknown Channel"),
            403: ApiError(403, 50001, "Missing Access"),
            50013: ApiError(403, 50013, "Missing Permissions"),
        }
        self.backend.lost_channels[channel_id] = errors[status]

    def restore_channel(self, channel_id: int) -> None:
        """The channel answers again (undoes :meth:`lose_channel`)."""
        self.backend.lost_channels.pop(channel_id, None)

    def rate_limit(
        self,
        method: str,
        path_regex: str,
        *,
        retry_after: float = 0.0,
        times: int = 1,
        is_global: bool = False,
    ) -> None:
        """The next ``times`` matching requests get a 429 (discord.py sleeps ``retry_after``
        and retries; keep it 0 to stay off the wall clock)."""
        self.backend.add_fault(
            method,
            path_regex,
            status=429,
            body={
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": is_global,
            },
            headers={
                "Via": "1.1 google",
                "Retry-After": str(retry_after),
                "X-RateLimit-Scope": "global" if is_global else "user",
            },
            times=times,
        )

    # -- records ---------------------------------------------------------------------------

    @property
    def network_attempts(self) -> list[str]:
        """Every socket/DNS call the guard blocked (this process)."""
        return netguard.attempts

    @property
    def requests(self) -> list[Request]:
        """Every HTTP request the bot made (all bot instances), in order."""
        return self.backend.requests

    @property
    def unexpected(self) -> list[Request]:
        """Requests to routes the fake Discord does not know (answered 404)."""
        return self.backend.unexpected

    def requests_of(self, *kinds: str) -> list[Request]:
        return [r for r in self.backend.requests if r.kind in kinds]

    def message(self, message_id: int) -> Message:
        if message_id not in self.backend.stored_messages:
            raise HarnessError(f"no message {message_id}")
        return Message(self.backend, message_id)

    def messages(self, channel_id: int | None = None) -> list[Message]:
        """Messages as they now stand in a channel (thread, DM), oldest first; ephemeral
        and deleted ones excluded."""
        cid = self.channel_id if channel_id is None else channel_id
        if cid not in self.backend.channels:
            raise HarnessError(f"unknown channel {cid}")
        return [
            Message(self.backend, mid)
            for mid in self.backend.channel_order[cid]
            if not self.backend.stored_messages[mid].deleted
        ]

    def last_message(self, channel_id: int | None = None) -> Message:
        msgs = self.messages(channel_id)
        if not msgs:
            raise HarnessError("no message in the channel")
        return msgs[-1]

    def dm_messages(self, user: FakeUser) -> list[Message]:
        cid = self.backend.dm_by_user.get(user.id)
        return [] if cid is None else self.messages(cid)

    def ephemeral_to(self, user: FakeUser) -> list[Message]:
        """Ephemeral interaction replies shown to ``user`` (not deleted), oldest first."""
        return [
            Message(self.backend, mid)
            for mid in self.backend.ephemeral_ids
            if self.backend.stored_messages[mid].interaction_user_id == user.id
            and not self.backend.stored_messages[mid].deleted
        ]

    def _public_guild_messages(self) -> Iterable[StoredMessage]:
        for cid, ids in self.backend.channel_order.items():
            if not self.backend.is_guild_channel(cid):
                continue
            for mid in ids:
                yield self.backend.stored_messages[mid]

    def all_public_text(self, *, history: bool = True) -> str:
        """Everything readable in guild channels: message content, embed text, component
        labels, attachment names, and names of channels/threads the bot created or renamed.
        With ``history`` (default) every version ever shown counts, deleted messages too;
        ephemeral messages and DMs are excluded."""
        parts: list[str] = list(self.backend.created_channel_names)
        for stored in self._public_guild_messages():
            if history:
                for payload, atts in stored.versions:
                    parts.extend(payload_text(payload, atts))
            elif not stored.deleted:
                parts.extend(payload_text(stored.payload, stored.attachments))
        return "\n".join(parts)

    def all_public_images(self, *, history: bool = True) -> list[bytes]:
        """Bytes of every image attachment shown in guild channels (see all_public_text)."""
        out: list[bytes] = []
        seen: set[int] = set()
        for stored in self._public_guild_messages():
            if history:
                versions = [atts for _, atts in stored.versions]
            else:
                versions = [] if stored.deleted else [stored.attachments]
            for atts in versions:
                for att in atts:
                    if att.is_image and att.id not in seen:
                        seen.add(att.id)
                        out.append(att.data)
        return out

    async def app_commands_payload(self, *, guild: bool = False) -> list[dict[str, Any]]:
        """What ``bot.tree.sync()`` would send (translated if the tree has a translator);
        ``guild=True`` for the commands registered for the harness guild."""
        tree = self._require_bot().tree
        target = discord.Object(self.guild_id) if guild else None
        cmds = tree._get_all_commands(guild=target)
        translator = tree.translator
        if translator:
            return [await c.get_translated_payload(tree, translator) for c in cmds]
        return [c.to_dict(tree) for c in cmds]

    @property
    def synced_commands(self) -> dict[int | None, list[dict[str, Any]]]:
        """What the bot synced (key None: global, else guild id)."""
        return self.backend.synced_commands

    # -- user actions ----------------------------------------------------------------------

    async def _run(self, records: list[InteractionRecord]) -> list[Reply]:
        for rec in records:
            self.feed("INTERACTION_CREATE", rec.payload)
        await self.idle()
        return [Reply(self.backend, rec.id) for rec in records]

    async def slash(
        self,
        user: FakeUser,
        command: str,
        /,
        *,
        channel: int | None = None,
        locale: str | None = None,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Reply:
        """Run ``/command`` (qualified name: ``"game new"``) as ``user``. Options come as
        keyword arguments by Python parameter name or Discord option name (use ``options=``
        for names that clash with ``channel``/``locale``/``options``)."""
        rec = self.build_slash(
            user, command, {**(options or {}), **kwargs}, channel=channel, locale=locale
        )
        (reply,) = await self._run([rec])
        return reply

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        /,
        focused: str,
        *,
        channel: int | None = None,
        locale: str | None = None,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types option ``focused``."""
        rec = self.build_slash(
            user,
            command,
            {**(options or {}), **kwargs},
            channel=channel,
            locale=locale,
            focused=focused,
        )
        (reply,) = await self._run([rec])
        return reply.choices or []

    async def context_menu(
        self,
        user: FakeUser,
        name: str,
        target: FakeUser | MessageRef,
        /,
        *,
        channel: int | None = None,
        locale: str | None = None,
    ) -> Reply:
        """Run the user (target is a :class:`FakeUser`) or message context menu ``name``."""
        bot = self._require_bot()
        guild_obj = discord.Object(self.guild_id)
        resolved: dict[str, Any] = {}
        if isinstance(target, FakeUser):
            ctype = discord.AppCommandType.user
            cid = self.channel_id if channel is None else channel
            target_id = self._resolve_user(target, resolved, self.backend.is_guild_channel(cid))
        else:
            ctype = discord.AppCommandType.message
            stored = self._stored(target)
            cid = stored.channel_id if channel is None else channel
            target_id = str(stored.id)
            resolved["messages"] = {target_id: data_copy(stored.payload)}
        menu = bot.tree.get_command(name, guild=guild_obj, type=ctype)
        is_guild = menu is not None
        if menu is None:
            menu = bot.tree.get_command(name, type=ctype)
        if menu is None:
            raise HarnessError(f"no {ctype.name} context menu {name!r}")
        self._check_visible(bot, menu, user, self.backend.is_guild_channel(cid))
        gid = self.guild_id if is_guild else None
        data: dict[str, Any] = {
            "id": str(self.backend.command_id(name, ctype.value, gid)),
            "name": name,
            "type": ctype.value,
            "target_id": target_id,
            "resolved": resolved,
        }
        if is_guild:
            data["guild_id"] = str(self.guild_id)
        rec = self.backend.new_interaction(
            type=2, user=user, channel_id=cid, data=data, locale=locale, command=name
        )
        (reply,) = await self._run([rec])
        return reply

    async def click(
        self,
        user: FakeUser,
        message: MessageRef,
        /,
        custom_id: str | None = None,
        **how: Unpack[ClickHow],
    ) -> Reply:
        """Click a button (by ``custom_id`` or ``label``) or pick ``values`` in a select
        menu of a message the bot posted (channel, thread, DM or ephemeral)."""
        rec = self.build_click(user, message, custom_id, **how)
        (reply,) = await self._run([rec])
        return reply

    async def click_many(self, clicks: Iterable[Any]) -> list[Reply]:
        """Feed several component interactions before waiting (races). Each item is
        ``(user, message, custom_id)``, ``(user, message, custom_id, values)`` or a dict of
        :meth:`click` arguments (``user``, ``message``, ``custom_id``, ``label``, ...)."""
        records = []
        for item in clicks:
            if isinstance(item, dict):
                kw = dict(item)
                records.append(self.build_click(kw.pop("user"), kw.pop("message"), **kw))
            else:
                user, message, *rest = item
                custom_id = rest[0] if rest else None
                values = rest[1] if len(rest) > 1 else None
                records.append(self.build_click(user, message, custom_id, values=values))
        return await self._run(records)

    async def submit_modal(
        self,
        user: FakeUser,
        reply: Reply,
        values: dict[str, Any],
        *,
        locale: str | None = None,
    ) -> Reply:
        """Submit the modal the bot opened in ``reply`` with ``{custom_id: value}``."""
        modal = reply.modal
        if modal is None:
            raise HarnessError(f"{reply!r} did not open a modal")
        opener = reply.record
        unknown = set(values)

        def answer(comp: dict[str, Any]) -> dict[str, Any]:
            t = comp.get("type")
            if t == 1:
                return {"type": 1, "components": [answer(c) for c in comp.get("components", [])]}
            if t == 18:
                return {"type": 18, "id": comp.get("id"), "component": answer(comp["component"])}
            cid = comp.get("custom_id")
            unknown.discard(cid)
            if t == TEXT_INPUT:
                return {"type": t, "custom_id": cid, "value": str(values.get(str(cid), ""))}
            if t in SELECT_TYPES:
                return {
                    "type": t,
                    "custom_id": cid,
                    "values": [str(v) for v in values.get(str(cid), [])],
                }
            return {"type": t, "id": comp.get("id")}

        components = [answer(c) for c in modal.get("components", [])]
        if unknown:
            raise HarnessError(f"the modal has no inputs {sorted(unknown)}")
        message = (
            self.backend.stored_messages.get(opener.message_id)
            if opener.message_id is not None
            else None
        )
        rec = self.backend.new_interaction(
            type=5,
            user=user,
            channel_id=opener.channel_id,
            data={"custom_id": modal["custom_id"], "components": components},
            locale=locale,
            message=message,
        )
        (result,) = await self._run([rec])
        return result

    async def say(self, user: FakeUser, content: str, *, channel: int | None = None) -> Message:
        """``user`` posts a plain message (MESSAGE_CREATE reaches the bot per its intents)."""
        bot = self._require_bot()
        cid = self.channel_id if channel is None else channel
        stored = self.backend.create_message(cid, {"content": content}, author=user)
        if not self.echo_gateway:  # the sink did not deliver it
            data = self.backend._gateway_message(stored)
            if self._wants(bot, "MESSAGE_CREATE", data):
                self.feed("MESSAGE_CREATE", data)
        await self.idle()
        return Message(self.backend, stored.id)

    # -- payload builders (public so tests can tamper before feeding) ----------------------

    def _stored(self, message: MessageRef) -> StoredMessage:
        if isinstance(message, Reply):
            found = message.message or (message.followups[0] if message.followups else None)
            if found is None:
                raise HarnessError(f"{message!r} has no message to click")
            message = found
        if isinstance(message, Message):
            message = message.id
        if isinstance(message, StoredMessage):
            message = message.id
        stored = self.backend.stored_messages.get(int(message))
        if stored is None:
            raise HarnessError(f"no message {message}")
        if stored.deleted:
            raise HarnessError(f"message {stored.id} was deleted")
        return stored

    def build_click(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: Sequence[Any] | None = None,
        locale: str | None = None,
        force: bool = False,
    ) -> InteractionRecord:
        self._require_bot()
        stored = self._stored(message)
        if stored.ephemeral and stored.interaction_user_id != user.id:
            raise HarnessError(f"{user.name} cannot see ephemeral message {stored.id}")
        channel = self.backend.channels[stored.channel_id]
        if channel["type"] == DM and self.backend.dm_recipient(stored.channel_id) != user:
            raise HarnessError(f"{user.name} cannot see the DM message {stored.id}")
        comps = [
            c
            for c in _walk_components(stored.payload.get("components") or [])
            if c.get("type") == BUTTON or c.get("type") in SELECT_TYPES
        ]
        if custom_id is not None:
            found = [c for c in comps if c.get("custom_id") == custom_id]
        elif label is not None:
            found = [c for c in comps if c.get("label") == label or c.get("placeholder") == label]
        elif values is not None:
            found = [c for c in comps if c.get("type") in SELECT_TYPES]
        else:
            raise HarnessError("click needs custom_id= or label=")
        described = [(c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in comps]
        if not found:
            raise HarnessError(
                f"no component custom_id={custom_id!r} label={label!r} on message "
                f"{stored.id}; it has {described}"
            )
        if len(found) > 1:
            raise HarnessError(f"ambiguous component label {label!r}; use custom_id: {described}")
        comp = found[0]
        if comp.get("disabled") and not force:
            raise HarnessError(f"component {described[comps.index(comp)]} is disabled")
        ctype = int(comp["type"])
        if ctype == BUTTON and comp.get("style") in (5, 6):
            raise HarnessError("link and premium buttons do not send interactions")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        if ctype in SELECT_TYPES:
            if values is None:
                raise HarnessError("a select menu needs values=")
            data["values"], resolved = self._select_values(comp, values, stored.channel_id, force)
            if resolved:
                data["resolved"] = resolved
        elif values is not None:
            raise HarnessError("values= is for select menus")
        return self.backend.new_interaction(
            type=3,
            user=user,
            channel_id=stored.channel_id,
            data=data,
            locale=locale,
            message=stored,
        )

    def _select_values(
        self, comp: dict[str, Any], values: Sequence[Any], channel_id: int, force: bool
    ) -> tuple[list[str], dict[str, Any]]:
        ctype = int(comp["type"])
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not force and not lo <= len(values) <= hi:
            raise HarnessError(f"select {comp.get('custom_id')} takes {lo}..{hi} values")
        resolved: dict[str, Any] = {}
        out: list[str] = []
        in_guild = self.backend.is_guild_channel(channel_id)
        for value in values:
            if ctype == 3:
                allowed = [o["value"] for o in comp.get("options", [])]
                labels = {o.get("label"): o["value"] for o in comp.get("options", [])}
                text = labels.get(value, value) if value not in allowed else value
                if text not in allowed and not force:
                    raise HarnessError(f"{value!r} is not an option of {comp.get('custom_id')}")
                out.append(str(text))
            elif ctype == 5 or (ctype == 7 and self._is_user(value)):
                out.append(self._resolve_user(value, resolved, in_guild))
            elif ctype in (6, 7):
                out.append(self._resolve_role(value, resolved))
            elif ctype == 8:
                out.append(self._resolve_channel(value, resolved))
        return out, resolved

    def _is_user(self, value: Any) -> bool:
        if isinstance(value, FakeUser):
            return True
        if isinstance(value, str):
            return self.backend.user_named(value) is not None
        return int(getattr(value, "id", value)) in self.backend.users

    def _resolve_user(self, value: Any, resolved: dict[str, Any], in_guild: bool) -> str:
        user = value
        if isinstance(value, str):
            user = self.backend.user_named(value)
        elif isinstance(value, int):
            user = self.backend.users.get(value)
        elif hasattr(value, "id") and not isinstance(value, FakeUser):
            user = self.backend.users.get(int(value.id))
        if not isinstance(user, FakeUser):
            raise HarnessError(f"unknown user {value!r}")
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if in_guild:
            member = self.backend.member_payload(user, with_user=False)
            member["permissions"] = str(self.backend.permissions_of(user).value)
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)

    def _resolve_role(self, value: Any, resolved: dict[str, Any]) -> str:
        roles = self.backend.roles_payload()
        for role in roles:
            if (
                value in (role["name"], role["id"])
                or str(getattr(value, "id", value)) == role["id"]
            ):
                resolved.setdefault("roles", {})[role["id"]] = role
                return role["id"]
        raise HarnessError(f"unknown role {value!r} (roles: {[r['name'] for r in roles]})")

    def _resolve_channel(self, value: Any, resolved: dict[str, Any]) -> str:
        cid = (
            self.channel_named(value)
            if isinstance(value, str)
            else int(getattr(value, "id", value))
        )
        data = self.backend.channel_payload(cid)
        entry: dict[str, Any] = {
            k: data[k]
            for k in ("id", "name", "type", "parent_id", "thread_metadata")
            if k in data and data[k] is not None
        }
        entry["permissions"] = str(self.backend.bot_permissions.value)
        resolved.setdefault("channels", {})[str(cid)] = entry
        return str(cid)

    def _find_command(
        self, command: str
    ) -> tuple[app_commands.Command[Any, ..., Any] | app_commands.Group, bool, list[str]]:
        tree = self._require_bot().tree
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise HarnessError("empty command name")
        root = tree.get_command(parts[0], guild=discord.Object(self.guild_id))
        is_guild = root is not None
        if root is None:
            root = tree.get_command(parts[0])
        if root is None:
            names = sorted(c.name for c in tree.get_commands()) + sorted(
                c.name for c in tree.get_commands(guild=discord.Object(self.guild_id))
            )
            raise HarnessError(f"no slash command /{parts[0]}; registered: {names}")
        if not isinstance(root, app_commands.Command | app_commands.Group):
            raise HarnessError(f"/{parts[0]} is not a slash command")
        return root, is_guild, parts

    def build_slash(
        self,
        user: FakeUser,
        command: str,
        values: dict[str, Any] | None = None,
        *,
        channel: int | None = None,
        locale: str | None = None,
        focused: str | None = None,
    ) -> InteractionRecord:
        """The INTERACTION_CREATE payload (application command, or autocomplete when
        ``focused`` names the option being typed) for ``/command`` with ``values``."""
        bot = self._require_bot()
        root, is_guild, parts = self._find_command(command)
        cid = self.channel_id if channel is None else channel
        if cid not in self.backend.channels:
            raise HarnessError(f"unknown channel {cid}")
        in_guild = self.backend.is_guild_channel(cid)
        if is_guild and not in_guild:
            raise HarnessError(f"/{parts[0]} is a guild command; it does not exist in DMs")
        if self.backend.channels[cid]["type"] == DM and self.backend.dm_recipient(cid) != user:
            raise HarnessError(f"{user.name} is not in DM channel {cid}")
        self._check_visible(bot, root, user, in_guild)
        data: dict[str, Any] = {
            "id": str(self.backend.command_id(root.name, 1, self.guild_id if is_guild else None)),
            "name": root.name,
            "type": 1,
        }
        if is_guild:
            data["guild_id"] = str(self.guild_id)
        node: dict[str, Any] = data
        current: Any = root
        for name in parts[1:]:
            if not isinstance(current, app_commands.Group):
                raise HarnessError(f"/{current.qualified_name} has no subcommands")
            sub = current.get_command(name)
            if sub is None:
                raise HarnessError(
                    f"/{current.qualified_name} has no subcommand {name!r}; "
                    f"it has {[c.name for c in current.commands]}"
                )
            child = {"name": sub.name, "type": 2 if isinstance(sub, app_commands.Group) else 1}
            node.setdefault("options", []).append(child)
            node, current = child, sub
        if isinstance(current, app_commands.Group):
            raise HarnessError(
                f"/{current.qualified_name} is a group; name a subcommand: "
                f"{[c.name for c in current.commands]}"
            )
        resolved: dict[str, Any] = {}
        node["options"] = self._build_options(current, values or {}, resolved, in_guild, focused)
        if resolved:
            data["resolved"] = resolved
        return self.backend.new_interaction(
            type=4 if focused else 2,
            user=user,
            channel_id=cid,
            data=data,
            locale=locale,
            command=current.qualified_name,
        )

    def _check_visible(self, bot: AnyBot, root: Any, user: FakeUser, in_guild: bool) -> None:
        payload = root.to_dict(bot.tree)
        if not in_guild:
            contexts = payload.get("contexts")
            if (contexts is not None and 1 not in contexts) or (
                contexts is None and payload.get("dm_permission") is False
            ):
                raise HarnessError(f"/{root.name} cannot be used in DMs")
            return
        needed = payload.get("default_member_permissions")
        if needed is not None:
            have = self.backend.permissions_of(user)
            if not (have.administrator or have >= discord.Permissions(int(needed))):
                raise HarnessError(
                    f"{user.name} cannot see /{root.name} (default_member_permissions={needed})"
                )

    def _build_options(
        self,
        cmd: app_commands.Command[Any, ..., Any],
        values: dict[str, Any],
        resolved: dict[str, Any],
        in_guild: bool,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        params = cmd.parameters
        by_name: dict[str, app_commands.Parameter] = {}
        for p in params:
            by_name[p.name] = p
            by_name[p.display_name] = p
        chosen: dict[str, Any] = {}
        for key, value in values.items():
            found = by_name.get(key)
            if found is None:
                raise HarnessError(
                    f"/{cmd.qualified_name} has no option {key!r}; "
                    f"options: {[p.display_name for p in params]}"
                )
            if found.name in chosen:
                raise HarnessError(f"option {found.display_name!r} given twice")
            chosen[found.name] = value
        if focused is not None:
            found = by_name.get(focused)
            if found is None:
                raise HarnessError(f"/{cmd.qualified_name} has no option {focused!r}")
            focused = found.name
            chosen.setdefault(focused, "")
        else:
            missing = [p.display_name for p in params if p.required and chosen.get(p.name) is None]
            if missing:
                raise HarnessError(f"/{cmd.qualified_name} needs options {missing}")
        out = []
        for p in params:
            if p.name not in chosen or chosen[p.name] is None:
                continue
            if p.name == focused:
                entry = {
                    "name": p.display_name,
                    "type": p.type.value,
                    "value": str(chosen[p.name]),
                    "focused": True,
                }
            else:
                value = self._option_value(cmd, p, chosen[p.name], resolved, in_guild)
                entry = {"name": p.display_name, "type": p.type.value, "value": value}
            out.append(entry)
        return out

    def _option_value(
        self,
        cmd: Any,
        p: app_commands.Parameter,
        value: Any,
        resolved: dict[str, Any],
        in_guild: bool,
    ) -> Any:
        where = f"/{cmd.qualified_name} {p.display_name}"
        if p.choices:
            value = self._choice_value(where, p, value)
        t = p.type
        if t is OptionType.string:
            value = str(value)
            lo, hi = p.min_value, p.max_value
            if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
                raise HarnessError(f"{where}: length must be within {lo}..{hi}")
            return value
        if t in (OptionType.integer, OptionType.number):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise HarnessError(f"{where} takes a number, not {value!r}")
            value = int(value) if t is OptionType.integer else float(value)
            if (p.min_value is not None and value < p.min_value) or (
                p.max_value is not None and value > p.max_value
            ):
                raise HarnessError(f"{where} must be within {p.min_value}..{p.max_value}")
            return value
        if t is OptionType.boolean:
            if not isinstance(value, bool):
                raise HarnessError(f"{where} takes a bool, not {value!r}")
            return value
        if t is OptionType.user:
            return self._resolve_user(value, resolved, in_guild)
        if t is OptionType.role:
            return self._resolve_role(value, resolved)
        if t is OptionType.mentionable:
            if self._is_user(value):
                return self._resolve_user(value, resolved, in_guild)
            return self._resolve_role(value, resolved)
        if t is OptionType.channel:
            return self._resolve_channel(value, resolved)
        if t is OptionType.attachment:
            return self._resolve_attachment(value, resolved)
        raise HarnessError(f"{where}: unsupported option type {t!r}")  # pragma: no cover

    @staticmethod
    def _choice_value(where: str, p: app_commands.Parameter, value: Any) -> Any:
        choices = p.choices
        if isinstance(value, app_commands.Choice):
            value = value.value
        elif isinstance(value, enum.Enum):
            for c in choices:
                if c.name == value.name:
                    return c.value
        for c in choices:
            if c.value == value and type(c.value) is type(value):
                return c.value
        for c in choices:
            if c.name == value:
                return c.value
        raise HarnessError(
            f"{where}: {value!r} is not a choice; choices: {[(c.name, c.value) for c in choices]}"
        )

    def _resolve_attachment(self, value: Any, resolved: dict[str, Any]) -> str:
        if isinstance(value, bytes):
            name, data = "upload.bin", value
        elif isinstance(value, tuple) and len(value) == 2:
            name, data = value
        else:
            raise HarnessError("attachment options take bytes or (filename, bytes)")
        aid = self.backend.snowflake()
        url = f"https://cdn.discordapp.com/ephemeral-attachments/{aid}/{aid}/{name}"
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        self.backend.cdn[url] = (bytes(data), content_type)
        resolved.setdefault("attachments", {})[str(aid)] = {
            "id": str(aid),
            "filename": name,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
            "ephemeral": True,
        }
        return str(aid)
