"""The ``/game`` commands and every button: thin adapters over :class:`host.sessions.Host`.

Each handler follows one pipeline: check (seat, staleness) → acknowledge → load → apply →
commit (inside the host) → render off the loop → respond/publish. Refusals are one
ephemeral sentence (see :func:`cogs.present.refusal`) and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from cogs import present, ui
from cogs.bots import BotsMixin
from cogs.common import (
    CogBase,
    acked,
    game_choices,
    guarded,
    options,
    param,
    slash,
    topic_choices,
)
from cogs.history import HistoryMixin
from cogs.lobby import LobbyMixin
from cogs.pacing import PacingMixin, jump, ts
from cogs.publish import PublishMixin
from cogs.replay import ReplayMixin
from cogs.trail import TrailMixin
from core import i18n
from core.contract import Decision
from core.i18n import t
from host import registry
from host.dbfaults import storage_fault
from host.locks import KeyedLocks
from host.sessions import Gone, Host, HostError, Snapshot
from host.storage import GameRow

if TYPE_CHECKING:
    from bot import Cosmodrome

log = logging.getLogger(__name__)


def on_game(
    group: app_commands.Group,
    name: str,
    act: Callable[[GameCog, discord.Interaction, Snapshot], Awaitable[None]],
) -> Any:
    """A command of ``group`` that finds the channel's game and hands it to ``act``."""

    async def command(self: GameCog, interaction: discord.Interaction) -> None:
        await act(self, interaction, await self.channel_game(interaction))

    # A callback named as a class's is a method to discord.py (which then passes the cog).
    command.__qualname__ = f"GameCog.{name}"
    return slash(group, name)(command)


class GameCog(
    PublishMixin,
    TrailMixin,
    LobbyMixin,
    BotsMixin,
    PacingMixin,
    HistoryMixin,
    ReplayMixin,
    CogBase,
    commands.Cog,
):
    """Board games in Discord channels."""

    game = app_commands.Group(
        name=_("game", key="cmd.game"),
        description=_("Play space board games in this channel", key="cmd.game.desc"),
    )

    def __init__(self, bot: Cosmodrome) -> None:
        self.bot = bot
        self.host: Host = bot.host
        # Dropped when the game is at rest; on PostgreSQL they hold across processes too.
        self.publish_locks = KeyedLocks(across=bot.host.store.lock_publish)
        #: The task making each game's owed bot moves, and the games asked for again
        #: while it ran (see :meth:`spawn_bots`).
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._bots_again: set[int] = set()
        self.drawn_ahead = {}
        self._resume: asyncio.Task[None] | None = None
        self.replay_pace = {}

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ui.DYNAMIC_ITEMS)
        ui.install_fast_dispatch(self.bot._connection._view_store)
        self.start_ticker()
        self._resume = asyncio.create_task(self._resume_after_ready())

    async def cog_unload(self) -> None:
        ticker = self._ticker
        self.stop_ticker()
        tasks: list[asyncio.Task[Any]] = list(self.bot_tasks.values())
        tasks += [ticker] if ticker is not None else []
        if self._resume is not None:
            tasks.append(self._resume)
        tasks += [ahead[3] for ahead in self.drawn_ahead.values()]
        self.drawn_ahead.clear()
        for task in tasks:
            task.cancel()
        # Wait for them to end: a task left pending when the loop closes is "destroyed but
        # pending" (a bot's move is made under the game's lock, committed or not at all).
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bot.remove_dynamic_items(*ui.DYNAMIC_ITEMS)
        ui.uninstall_fast_dispatch(self.bot._connection._view_store)

    # -- slash commands -----------------------------------------------------------------

    @slash(game, "new", game=game_choices())
    @options(
        game=param("cmd.new.game", "Which game to play"),
        thread=param("cmd.new.thread", "Open the game in a new thread of this channel"),
    )
    async def new(self, interaction: discord.Interaction, game: str, thread: bool = False) -> None:
        """Open a lobby for a new game in this channel (or in a new thread of it)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise HostError("host.error.guild_only")
        server_lang, _ = await self.host.store.guild_settings(interaction.guild_id)
        lang = server_lang or self.lang(interaction)
        channel_id = interaction.channel_id
        if thread:
            parent = interaction.channel
            if not isinstance(parent, discord.TextChannel):
                raise HostError("host.error.no_thread_here")
            await interaction.response.defer(ephemeral=True)
            made = await parent.create_thread(
                name=present.game_name(game, lang)[:90],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            channel_id = made.id
        snap = await self.host.new_lobby(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game_id=game,
            owner=self.player(interaction),
            lang=lang,
        )
        message_id: int | None
        if thread:
            msg = await self.channel(channel_id).send(**present.lobby_message(snap))
            message_id = msg.id
            await self.reply(
                interaction,
                t("host.lobby.in_thread", self.lang(interaction), channel=f"<#{channel_id}>"),
            )
        else:
            resp = await interaction.response.send_message(**present.lobby_message(snap))
            message_id = getattr(resp, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        await self.host.store.update_game(
            snap.id, self.host.clock.now(), lobby_message_id=message_id
        )

    @slash(game, "join")
    async def join(self, interaction: discord.Interaction) -> None:
        snap = await self.channel_game(interaction)
        snap = await self.host.join(snap.id, self.player(interaction))
        await self.refresh_lobby(snap)
        await self.reply(interaction, t("host.lobby.joined", self.lang(interaction)))

    leave = on_game(
        game, "leave", lambda cog, interaction, snap: cog.do_leave(interaction, snap.id)
    )

    @slash(game, "start")
    async def start(self, interaction: discord.Interaction) -> None:
        snap = await self.channel_game(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.do_start(snap.id, self.player(interaction))
        await self.reply(interaction, t("host.lobby.started_ack", self.lang(interaction)))

    @slash(game, "status")
    async def status(self, interaction: discord.Interaction) -> None:
        snap = await self.channel_game(interaction)
        lang = self.lang(interaction)
        if snap.row.status == "lobby":
            # The lobby again at the bottom; the older copy is greyed out, so only one
            # lobby message is ever live.
            resp = await interaction.response.send_message(**present.lobby_message(snap))
            message_id = getattr(resp, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            old = snap.row.lobby_message_id
            try:
                await self.host.store.update_game(
                    snap.id, self.host.clock.now(), lobby_message_id=message_id
                )
            except Exception:  # not recorded: one live lobby, the one recorded before
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
                raise
            if old is not None and old != message_id:
                await self.disable_buttons(snap.row.channel_id, old)
            return
        await interaction.response.defer(ephemeral=True)
        # The channel answers (this command came from it): a paused game goes on.
        resumed = snap.row.paused is not None and await self.host.resume(snap.id)
        await self.publish(snap.id, force_new=True, ping=False)  # a look, never a ping
        key = "host.paused.resumed" if resumed else "host.table.reposted"
        await self.reply(interaction, t(key, lang))

    hand = on_game(game, "hand", lambda cog, interaction, snap: cog.show_hand(interaction, snap))

    @slash(game, "log")
    async def log_(self, interaction: discord.Interaction) -> None:
        if interaction.channel_id is None:
            raise HostError("host.error.no_game")
        row = await self.host.store.latest_game(interaction.channel_id)
        if row is None:
            raise HostError("host.error.no_game")
        await self.show_log(interaction, await self.host.snapshot(row))

    @slash(game, "rules", game=game_choices(), topic=topic_choices())
    @options(
        game=param("cmd.new.game", "Which game", "cmd.rules.game.desc"),
        topic=param("cmd.rules.topic", "Only one part of the rules"),
    )
    async def rules(
        self, interaction: discord.Interaction, game: str, topic: str | None = None
    ) -> None:
        """The rules of a game in short sections (goal, a turn, scoring, the end, every
        lobby option), or only the section ``topic``."""
        lang = self.lang(interaction)
        if game not in registry.GAME_MODULES:
            raise HostError("host.error.unknown_game", game=game)
        if topic is not None and topic not in present.RULE_TOPICS:
            topic = None
        embeds = present.rules_embeds(game, topic, lang)
        await interaction.response.send_message(embed=embeds[0], ephemeral=True)
        for more in embeds[1:]:
            await interaction.followup.send(embed=more, ephemeral=True)

    @slash(game, "abandon")
    async def abandon(self, interaction: discord.Interaction) -> None:
        snap = await self.channel_game(interaction)
        snap, what, votes, needed = await self.host.abandon(snap.id, self.player(interaction))
        if what == "voted":
            await interaction.response.send_message(
                t(
                    "host.abandon.voted",
                    snap.row.lang,
                    name=interaction.user.display_name,
                    votes=votes,
                    needed=needed,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        await interaction.response.send_message(
            t("host.abandon.done", snap.row.lang, name=interaction.user.display_name),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.retire(snap)

    undo = on_game(game, "undo", lambda cog, interaction, snap: cog.on_undo(interaction, snap.id))
    rollback = on_game(
        game, "rollback", lambda cog, interaction, snap: cog.do_rollback(interaction, snap)
    )

    @slash(game, "replay")
    @options(
        number=param(
            "cmd.replay.number",
            "The game's number (its table's footer); none: the latest game here",
        )
    )
    async def replay(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1] | None = None
    ) -> None:
        """Step through a game of this channel privately (without a number: the latest)."""
        await self.open_replay(interaction, number)

    @slash(game, "mine")
    async def mine(self, interaction: discord.Interaction) -> None:
        lang = self.lang(interaction)
        rows = await self.host.store.games_of_user(interaction.user.id)
        if not rows:
            await self.reply(interaction, t("host.mine.none", lang))
            return
        lines = []
        for row in rows[:20]:
            snap = await self.host.snapshot(row)
            seat = snap.seat_of(interaction.user.id)
            yours = seat is not None and seat in snap.to_move()
            key = "host.mine.your_turn" if yours else "host.mine.waiting"
            line = t(
                key,
                lang,
                game=present.game_name(row.game, lang),
                link=jump(snap),
                status=t(f"host.status.{row.status}", lang),
            )
            lines.append(line + self.paused_note(row, lang))
        await self.reply(interaction, "\n".join(lines)[:1900])

    @staticmethod
    def paused_note(row: GameRow, lang: str) -> str:
        """ " — ⏸️ paused: its channel was deleted" for a paused game, else nothing."""
        if row.paused is None:
            return ""
        return " — " + t("host.paused.line", lang, why=t(f"host.paused.{row.paused}", lang))

    @slash(game, "list")
    async def list_(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise HostError("host.error.guild_only")
        lang = self.lang(interaction)
        rows = await self.host.store.games_in_guild(interaction.guild_id)
        if not rows:
            await self.reply(interaction, t("host.list.none", lang))
            return
        lines = []
        for row in rows:
            snap = await self.host.snapshot(row)
            waits = await self.host.store.waits(row.id)
            since = min((w[0] for w in waits.values()), default=None)
            waiting = ", ".join(present.who(snap, s) for s in snap.to_move()) or "—"
            if since is not None:
                waiting += " " + t("host.list.since", lang, when=ts(since))
            key = "host.list.lobby" if row.status == "lobby" else "host.list.active"
            line = t(
                key,
                lang,
                channel=f"<#{row.channel_id}>",
                game=present.game_name(row.game, lang),
                n=len(snap.seats),
                waiting=waiting,
            )
            lines.append(line + self.paused_note(row, lang))
        await self.reply(interaction, "\n".join(lines)[:1900])

    # -- buttons ------------------------------------------------------------------------

    @guarded
    async def on_lobby(
        self, interaction: discord.Interaction, gid: int, act: str, ver: int | None = None
    ) -> None:
        who = self.player(interaction)
        snap = await self.host.by_id(gid)
        if snap.row.status != "lobby":
            raise HostError("host.error.lobby_closed")  # never leave a running game from here
        if act == "start":
            await interaction.response.defer()
            await self.do_start(gid, who, interaction)
            return
        if act == "leave":
            await self.do_leave(interaction, gid)
            return
        if act == "join":
            snap = await self.host.join(gid, who)
        elif act == "bot":
            snap = await self.host.add_bot(gid, who)
        elif act.startswith("b."):
            snap = await self.host.cycle_bot_level(gid, ui.num(act.removeprefix("b.")), who, ver)
        else:
            option_id = act.removeprefix("o.")
            snap = await self.host.cycle_option(gid, option_id, who, ver)
            # The lobby says who set which option last (one line per option).
            before = interaction.message.content if interaction.message else None
            notes = present.option_change_notes(snap, option_id, who.name, before, snap.row.lang)
            await interaction.response.edit_message(
                content=notes,
                allowed_mentions=discord.AllowedMentions.none(),
                **present.lobby_message(snap),
            )
            return
        await interaction.response.edit_message(**present.lobby_message(snap))

    @acked
    async def on_move(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, opt: str
    ) -> None:
        """A choice clicked: acknowledged at once (:func:`cogs.common.acked`), then checked
        (a refusal is an ephemeral follow-up and changes nothing), played and shown."""
        try:
            snap = await self.host.by_id(gid)
        except HostError:
            raise HostError("host.error.no_game") from None
        message = interaction.message
        from_private = interaction.guild_id is None or (
            message is not None and message.flags.ephemeral
        )
        try:
            decision = self.host.check_turn(snap, interaction.user.id, seat, tok)
            self.host.check_choice(snap, decision, opt)
        except Gone as err:
            err.snap = snap  # type: ignore[attr-defined]
            await self.refresh_after_gone(interaction, gid, seat, from_private)
            raise
        except HostError as err:
            err.snap = snap  # type: ignore[attr-defined]
            raise
        locale = i18n.pick(str(interaction.locale))
        await self.host.remember_locale(snap, interaction.user.id, locale)
        if snap.row.paused is not None and interaction.channel_id == snap.row.channel_id:
            await self.host.resume(gid)  # a click in the channel: it is reachable again
        try:
            outcome = await self.host.play(gid, interaction.user.id, seat, tok, opt, bots=False)
        except Gone as err:
            # Another seat's move, committed meanwhile, took this option; the question
            # is still open, so say what happened rather than "too late".
            err.snap = snap  # type: ignore[attr-defined]
            await self.refresh_after_gone(interaction, gid, seat, from_private)
            raise
        except HostError:
            # It was playable when clicked, so another click got there first.
            raise HostError("host.error.raced") from None
        # (a move whose commit failed but is stored anyway counts as made: Host.play)
        # The move is committed: from here on a failure is a publishing failure (the
        # pacing tick republishes any table that lags), not a refused move.
        # The table shows the move (and "thinking" for the bots it unblocked) at once; the
        # bots' moves follow in the background. Its picture is drawn meanwhile.
        self.draw_ahead(outcome.after, outcome.before)
        try:
            if from_private:
                await self.update_private_panel(interaction, gid, seat)
            await self.publish(gid)
        except Exception as err:
            if not storage_fault(err):
                log.exception("game %s: move committed, publishing failed", gid)
            else:  # the game lags: the pacing tick shows it once the database answers
                log.warning("game %s: move committed, not shown yet (%r)", gid, err)
        if self.host.bot_to_move(outcome.after) is not None:
            self.spawn_bots(gid)  # (none owed: no task, no read of the game)

    async def refresh_after_gone(
        self, interaction: discord.Interaction, gid: int, seat: int, from_private: bool
    ) -> None:
        """A click on an option someone else just took, on the player's own panel (DM or
        "My hand"): show the panel's current options in place; the sentence follows."""
        if not from_private:
            return
        try:
            if not interaction.response.is_done():
                await interaction.response.defer()
            mine = interaction.guild_id is not None  # "My hand" shows every decision
            await self.update_private_panel(interaction, gid, seat, include_public=mine)
        except discord.HTTPException:
            log.warning("game %s: could not refresh the panel of seat %s", gid, seat)

    async def open_decision(
        self,
        interaction: discord.Interaction,
        gid: int,
        seat: int,
        tok: str,
        add: Callable[..., int],
        **where: Any,
    ) -> tuple[Snapshot, Decision, str, discord.ui.View]:
        """The game and the still-open decision a helper button (more options, another
        block of a grid) belongs to, the reader's language and a view of that decision's
        components as ``add`` lays them out (``ui.add_selects`` or ``ui.add_grid``, with
        ``where``: the page or the block); or the refusal (which can name whom the game
        waits for)."""
        snap = await self.host.by_id(gid)
        try:
            decision = self.host.check_turn(snap, interaction.user.id, seat, tok)
        except HostError as err:
            err.snap = snap  # type: ignore[attr-defined]
            raise
        lang = self.lang(interaction)
        view = discord.ui.View(timeout=None)
        ver = snap.row.version
        add(view, decision, tok, gid=gid, ver=ver, lang=lang, names=snap.names, **where)
        return snap, decision, lang, view

    @guarded
    async def on_more(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, start: int
    ) -> None:
        """The next page of a long list of options, shown only to the player deciding."""
        _, _, lang, view = await self.open_decision(
            interaction, gid, seat, tok, ui.add_selects, first_row=0, last_row=4, start=start
        )
        await interaction.response.send_message(
            t("host.more.prompt", lang), view=view, ephemeral=True
        )

    @guarded
    async def on_grid(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, r: int, c: int
    ) -> None:
        """Another block of a large grid: the panel it was clicked on is edited in place
        when it is the player's own (DM or ephemeral), else the block is shown privately."""
        snap, decision, lang, view = await self.open_decision(
            interaction, gid, seat, tok, ui.add_grid, first_row=0, last_row=4, origin=(r, c)
        )
        message = interaction.message
        own = interaction.guild_id is None or (message is not None and message.flags.ephemeral)
        if own:
            await interaction.response.edit_message(view=view)
        else:
            prompt = t(decision.prompt, lang, snap.names, **dict(decision.args))
            await interaction.response.send_message(prompt, view=view, ephemeral=True)

    @guarded
    async def on_your_move(self, interaction: discord.Interaction, gid: int, seat: int) -> None:
        """A seat's "Your move" button on a crowded table: that seat's choice, privately."""
        snap = await self.host.by_id(gid)
        mine = snap.owned_seat(interaction.user.id)
        if mine != seat:
            err = HostError(
                "host.error.not_a_player" if mine is None else "host.error.not_your_button"
            )
            err.snap = snap  # type: ignore[attr-defined]
            raise err
        await self.show_hand(interaction, snap)

    @guarded
    async def on_hand(self, interaction: discord.Interaction, gid: int) -> None:
        await self.show_hand(interaction, await self.host.by_id(gid))

    # -- shared actions -----------------------------------------------------------------

    async def pace_game(self, gid: int) -> None:
        """Pace a game that is due (see :class:`cogs.pacing.PacingMixin`), then start its
        bots if one owes a move that nothing is making (a game owing a bot move is due)."""
        await super().pace_game(gid)
        if gid not in self.bot_tasks:
            try:
                await self.resume_bots([gid])
            except Exception:
                log.exception("resuming the bots of game %s failed", gid)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.exception("command error", exc_info=error)
        await self.reply(interaction, t("host.error.internal", self.lang(interaction)))


#: The items in cogs/ui.py reach this cog by name and call it through this protocol; mypy
#: checks here that the cog answers every click.
_CLICKS: type[ui.Clicks] = GameCog


async def setup(bot: Cosmodrome) -> None:
    await bot.add_cog(GameCog(bot))
