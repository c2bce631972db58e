"""Plumbing every cog shares: the refusal guard, language choice, replies, command names."""

from __future__ import annotations

import functools
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.utils import MISSING

from cogs import present, ui
from core import i18n
from core.contract import IllegalMove
from core.i18n import t
from host import registry
from host.dbfaults import fault_key, storage_fault, timed_out
from host.sessions import Host, HostError, Player, Snapshot

if TYPE_CHECKING:
    from bot import Cosmodrome

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


#: Discord's error codes for "the bot cannot see that channel" and "Missing Permissions".
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013

#: Every channel permission the bot uses (README, "Set up the Discord application"); each
#: has a name under ``host.perm.`` in data/i18n/host.json.
PERMISSIONS = (
    "view_channel",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "embed_links",
    "attach_files",
    "read_message_history",
)


def needed_permission(err: discord.HTTPException, interaction: discord.Interaction) -> str:
    """The permission whose absence made Discord refuse a request (one of
    :data:`PERMISSIONS`): read from the refused route, then from the bot's permissions in
    the interaction's channel."""
    if err.code == MISSING_ACCESS:
        return "view_channel"
    response = err.response
    method = str(getattr(response, "method", "")).upper()
    path = str(getattr(getattr(response, "url", None), "path", "") or "")
    if re.search(r"/threads$", path):
        return "create_public_threads"
    if method == "GET" and re.search(r"/messages(/\d+)?$", path):
        return "read_message_history"
    have = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = "send_messages_in_threads" if in_thread else "send_messages"
    for name in ("view_channel", send, "embed_links", "attach_files", "read_message_history"):
        if not getattr(have, name, True):
            return name
    return send


def guarded(func: F) -> F:
    """Turn refusals into ephemeral sentences and unexpected errors into a short apology
    (logged with the traceback) — never silence, never a traceback in Discord. A permission
    the bot lacks in the channel is named (see :func:`needed_permission`). Also looks up
    the user's language override once per interaction."""
    return _guard(func, ack_first=False)


def acked(func: F) -> F:
    """:func:`guarded`, with the interaction acknowledged (:meth:`CogBase.ack`) before
    anything else, even the language lookup: a click is acknowledged within a millisecond
    or so whatever the load (issue 23). Its refusals are then ephemeral follow-ups (same
    sentences, still seen by the clicker alone). A click that cannot be acknowledged any
    more (expired) does nothing."""
    return _guard(func, ack_first=True)


def _guard(func: F, *, ack_first: bool) -> F:
    @functools.wraps(func)
    async def wrapper(
        self: CogBase, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        if ack_first:
            try:
                await self.ack(interaction)
            except discord.HTTPException as err:
                log.warning(
                    "%s: the interaction could not be acknowledged (%r)", func.__name__, err
                )
                return
        down = None
        try:
            _, override = await self.host.store.user_settings(interaction.user.id)
            if override:
                interaction.extras["lang"] = override
        except Exception as err:
            if not storage_fault(err):
                log.exception("could not read settings of %s", interaction.user.id)
            down = err
        lang = self.lang(interaction)
        if down is not None and timed_out(down):
            # The database does not answer: say so at once (within Discord's 3 s), touch
            # nothing. (A connection lost instead is worth going on: the pool connects anew.)
            log.warning("storage not answering (%r)", down)
            await self.reply(interaction, t(fault_key(down), lang))
            return
        try:
            await func(self, interaction, *args, **kwargs)
        except IllegalMove as err:
            await self.reply(interaction, present.refusal(err, lang, getattr(err, "snap", None)))
        except discord.Forbidden as err:
            if err.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                log.exception("error in %s", func.__name__)
                await self.reply(interaction, t("host.error.internal", lang))
                return
            name = needed_permission(err, interaction)
            log.warning("missing permission %s in channel %s", name, interaction.channel_id)
            perm = t(f"host.perm.{name}", lang)
            text = t("host.error.missing_permission", lang, permission=perm)
            await self.reply(interaction, text)
        except Exception as err:
            if storage_fault(err):
                log.warning("storage not answering in %s (%r)", func.__name__, err)
                await self.reply(interaction, t(fault_key(err), lang))
                return
            log.exception("error in %s", func.__name__)
            await self.reply(interaction, t("host.error.internal", lang))

    return wrapper  # type: ignore[return-value]


def cmd(name: str, prefix: str = "cmd") -> dict[str, Any]:
    """Name and description of a command, translatable (strings in data/i18n/host.json)."""
    key = f"{prefix}.{name}"
    return {
        "name": _(name, key=key),
        "description": _(i18n.t(f"{key}.desc", "en"), key=f"{key}.desc"),
    }


Param = tuple[app_commands.locale_str, app_commands.locale_str]


def param(key: str, description: str, description_key: str = "") -> Param:
    """A command parameter's name (its English name is ``key``'s, data/i18n/host.json) and
    description (``description``, the default; ``description_key`` or ``<key>.desc`` in
    other languages), for :func:`options`."""
    name = _(i18n.t(key, "en"), key=key)
    return name, _(description, key=description_key or f"{key}.desc")


def options(**params: Param) -> Callable[[F], F]:
    """A command's parameters as Discord shows them, each ``(name, description)`` (both
    translatable, see :func:`param`): :func:`app_commands.rename` and
    :func:`app_commands.describe` in one."""
    rename = app_commands.rename(**{p: name for p, (name, _desc) in params.items()})
    describe = app_commands.describe(**{p: desc for p, (_name, desc) in params.items()})

    def decorate(func: F) -> F:
        return rename(describe(func))

    return decorate


def slash(
    group: app_commands.Group, name: str, prefix: str = "cmd", **choices: Any
) -> Callable[[F], Any]:
    """Declare a command of ``group`` as every cog does: its translatable name and
    description (:func:`cmd`), the ``choices`` of its parameters, and :func:`guarded`. The
    parameters' names and descriptions go below it (:func:`options`)."""

    def decorate(func: F) -> Any:
        command: Any = guarded(func)
        if choices:
            command = app_commands.choices(**choices)(command)
        return group.command(**cmd(name, prefix))(command)

    return decorate


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_(i18n.t(f"{gid}.name", "en"), key=f"{gid}.name"), value=gid)
        for gid in registry.GAME_MODULES
    ]


def topic_choices() -> list[app_commands.Choice[str]]:
    """The parts of ``/game rules`` (see :data:`cogs.present.RULE_TOPICS`), localized."""
    return [
        app_commands.Choice(
            name=_(i18n.t(f"host.rules.topic.{topic}", "en"), key=f"host.rules.topic.{topic}"),
            value=topic,
        )
        for topic in present.RULE_TOPICS
    ]


class CogBase:
    """Helpers for cogs that talk to the host."""

    bot: Cosmodrome
    host: Host

    @staticmethod
    def lang(interaction: discord.Interaction) -> str:
        """The user's override, then the interaction's locale, then the guild's, then
        English."""
        override = interaction.extras.get("lang")
        if override:
            return str(override)
        return i18n.pick(str(interaction.locale), str(interaction.guild_locale or ""))

    @staticmethod
    def player(interaction: discord.Interaction) -> Player:
        user = interaction.user
        perms = interaction.permissions
        return Player(
            user_id=user.id,
            name=user.display_name,
            locale=i18n.pick(str(interaction.locale)),
            can_manage=bool(interaction.guild_id and perms.manage_channels),
        )

    async def reply(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """An ephemeral answer, whether or not the interaction was acknowledged already."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)

    @staticmethod
    async def ack(interaction: discord.Interaction) -> None:
        """Acknowledge now, answer later. A slash command is acknowledged privately (so a
        later refusal can never show in the channel); a button click silently."""
        if interaction.type == discord.InteractionType.application_command:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()

    async def done(self, interaction: discord.Interaction, text: str) -> None:
        """Close a slash command acknowledged with :meth:`ack` (buttons need nothing)."""
        if interaction.type == discord.InteractionType.application_command:
            await self.reply(interaction, text)

    async def channel_game(self, interaction: discord.Interaction) -> Snapshot:
        if interaction.channel_id is None:
            raise HostError("host.error.no_game")
        return await self.host.in_channel(interaction.channel_id)

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def post(
        self,
        channel_id: int,
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        file: discord.File | None = None,
        view: discord.ui.View | ui.Panel | None = None,
        allowed_mentions: discord.AllowedMentions | None = None,
    ) -> int:
        """``channel.send(...)`` with these arguments, the same request, and the new
        message's id: without the :class:`discord.Message` discord.py would build from
        Discord's answer (its embed, components, author, mentions) for nothing (issue 23:
        a table and a trail message a move). ``view`` may be a :class:`cogs.ui.Panel` (the
        components as plain dicts), sent as is and never stored."""
        state = self.bot._connection
        with discord.http.handle_message_parameters(
            content=content,
            file=file if file is not None else MISSING,
            embed=embed if embed is not None else MISSING,
            nonce=secrets.randbits(64),
            allowed_mentions=allowed_mentions,
            previous_allowed_mentions=state.allowed_mentions,
            view=view,  # type: ignore[arg-type]
        ) as params:
            data = await state.http.send_message(channel_id, params=params)
        message_id = int(data["id"])
        _keep_view(state, view, message_id)
        return message_id

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        *,
        content: str | None = MISSING,
        embed: discord.Embed | None = MISSING,
        attachments: list[discord.File] = MISSING,
        view: discord.ui.View | ui.Panel | None = MISSING,
        allowed_mentions: discord.AllowedMentions | None = MISSING,
    ) -> None:
        """``channel.get_partial_message(message_id).edit(...)`` with these arguments, the
        same request, without the :class:`discord.Message` built from the answer (see
        :meth:`post`)."""
        state = self.bot._connection
        if view is not MISSING:
            state.prevent_view_updates_for(message_id)
        with discord.http.handle_message_parameters(
            content=content,
            embed=embed,
            attachments=attachments,
            view=view,  # type: ignore[arg-type]
            allowed_mentions=allowed_mentions,
            previous_allowed_mentions=state.allowed_mentions if content is not MISSING else None,
        ) as params:
            await state.http.edit_message(channel_id, message_id, params=params)
        _keep_view(state, view, message_id)


def _keep_view(state: Any, view: object, message_id: int) -> None:
    """A discord.py view sent on ``message_id`` kept for its clicks, as ``send``/``edit``
    keep it (a :class:`cogs.ui.Panel` holds only dynamic items: nothing to keep)."""
    if isinstance(view, discord.ui.View) and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
