"""Reminders, deadlines and autopilot on Discord (the rules of timing live in host.pacing).

``tick()`` is called every ``Settings.tick_seconds`` by a background task (tests call it
directly after moving the clock). Everything it decides is recorded in the database
before anything is sent, so a restart neither repeats nor loses a reminder.

The tick only reads the games that need it: tables that lag behind their game, and games
whose ``wake_at`` or a timer has come (chosen in SQL, batch by batch). A game whose channel
the bot cannot reach (deleted, access lost) is paused after one failure and left alone
until the channel answers again; other failures to publish are retried later and later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import present
from cogs.common import CogBase, guarded
from core import i18n
from core.i18n import t
from host import pacing
from host.dbfaults import storage_fault
from host.locks import KeyedLocks
from host.sessions import Snapshot

log = logging.getLogger(__name__)

#: Games the tick asks the database for at a time; it lets clicks through between batches.
BATCH = 100

#: Discord's answers that mean the bot cannot reach a channel, and the pause reason each
#: gives (``host.paused.<reason>`` in data/i18n/host.json): Unknown Channel, Missing Access,
#: Missing Permissions.
LOST_CHANNEL = {10003: "deleted", 50001: "no_access", 50013: "no_permission"}


def lost_reason(err: BaseException) -> str | None:
    """Why ``err`` says the game's channel cannot be reached, or None for other errors."""
    if isinstance(err, (discord.NotFound, discord.Forbidden)):
        return LOST_CHANNEL.get(err.code)
    return None


def ts(when: float) -> str:
    """A Discord timestamp that each client shows relative to now ("in 3 hours")."""
    return f"<t:{int(when)}:R>"


def jump(snap: Snapshot, *, table: bool = True) -> str:
    """A link to the game's table, or (``table=False``, for DMs read later) to its channel:
    the table is replaced at every turn change, and it is always the channel's bottom."""
    where = snap.row.table_message_id if table else None
    base = f"https://discord.com/channels/{snap.row.guild_id}/{snap.row.channel_id}"
    return f"{base}/{where}" if where else base


class PacingMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    _ticker: asyncio.Task[None] | None = None

    if TYPE_CHECKING:
        publish_locks: KeyedLocks

        async def publish(
            self, gid: int, *, force_new: bool = False, ping: bool = True
        ) -> None: ...

        async def tell_table(
            self, interaction: discord.Interaction, snap: Snapshot, key: str
        ) -> None: ...

    def start_ticker(self) -> None:
        every = self.bot.settings.tick_seconds
        if every and every > 0:
            self._ticker = asyncio.create_task(self._tick_loop(every))

    def stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    async def _tick_loop(self, every: float) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.tick()
            except Exception as err:
                if not storage_fault(err):
                    log.exception("pacing tick failed")
                else:  # the database is away: the next tick tries again
                    log.warning("pacing tick: the storage is not answering (%r)", err)
            await asyncio.sleep(await self._until_next_tick(every))

    async def _until_next_tick(self, every: float) -> float:
        try:
            due = await self.host.next_timer()
        except Exception:
            log.exception("reading the next timer failed")
            return every
        return pacing.tick_wait(every, due, self.host.clock.now())

    async def tick(self) -> None:
        """Republish the tables that lag and pace the games that are due; games with
        nothing due are not read at all. One game's trouble (a deleted channel, a player
        who moved meanwhile) never stops the others."""
        now = self.host.clock.now()
        after = 0
        while True:  # a move committed but not shown (a crash, a Discord error): show it
            batch = await self.host.store.lagging_games(now, after=after, limit=BATCH)
            for gid in batch:
                await self.republish(gid)
            if len(batch) < BATCH:
                break
            after = batch[-1]
            await asyncio.sleep(0)  # clicks first
        after = 0
        while True:
            batch = await self.host.paced_games(after=after, limit=BATCH)
            for gid in batch:
                try:
                    await self.pace_game(gid)
                except Exception as err:
                    if not await self.channel_lost(gid, err):
                        log.exception("pacing game %s failed", gid)
            if len(batch) < BATCH:
                break
            after = batch[-1]
            await asyncio.sleep(0)

    async def republish(self, gid: int) -> None:
        """Publish a table that lags. A lost channel pauses the game (in ``publish``);
        any other failure is tried again after a while that doubles each time."""
        try:
            await self.publish(gid)
        except Exception as err:
            if lost_reason(err) is not None:
                return
            when = await self.host.store.publish_failed(gid, self.host.clock.now())
            log.warning("republishing game %s failed (%r); next try at %s", gid, err, when)
        else:
            await self.host.store.publish_ok(gid)

    async def channel_lost(self, gid: int, err: BaseException) -> bool:
        """If ``err`` says the game's channel cannot be reached, pause the game (once) and
        tell its players by DM. Whether it did."""
        reason = lost_reason(err)
        if reason is None:
            return False
        if await self.host.store.pause_game(gid, reason, self.host.clock.now()):
            log.warning("game %s paused: its channel cannot be reached (%s)", gid, reason)
            try:
                await self.tell_paused(await self.host.by_id(gid), reason)
            except Exception:
                log.exception("game %s: could not tell its players of the pause", gid)
        return True

    async def tell_paused(self, snap: Snapshot, reason: str) -> None:
        """A DM to each person in the game, where DMs are open: the game is paused, why,
        and how to bring it back."""
        told: set[int] = set()
        for s in snap.seats:
            if s.user_id is None or s.user_id in told or not s.dm_open:
                continue
            if s.is_bot and not s.autopilot:
                continue
            told.add(s.user_id)
            lang = i18n.pick(s.locale)
            text = t(
                "host.paused.dm",
                lang,
                game=present.game_name(snap.row.game, lang),
                channel=f"<#{snap.row.channel_id}>",
                why=t(f"host.paused.{reason}", lang),
            )
            try:
                dm = await self.bot.create_dm(discord.Object(s.user_id))
                await dm.send(text)
            except discord.Forbidden:
                await self.host.set_dm_open(snap.id, s.seat, False)

    async def pace_game(self, gid: int) -> None:
        # (the bots' moves this unblocks are thought out off the game's lock: publish and
        # the game cog's pace_game start them)
        due = await self.host.pace(gid, bots=False)
        if due.timed:  # already applied and recorded: tell the channel, show the table
            snap = await self.host.by_id(gid)
            seats = list(dict.fromkeys(seat for seat, _ in due.timed))
            names = ", ".join(present.mention(snap, s) for s in seats)
            await self.channel(snap.row.channel_id).send(
                t("host.timer.fired", snap.row.lang, who=names),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.publish(gid)
        if due.forced:
            snap = await self.host.by_id(gid)
            names = ", ".join(present.mention(snap, s) for s in due.forced)
            await self.channel(snap.row.channel_id).send(
                t("host.deadline.forced", snap.row.lang, who=names),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.publish(gid)
        if not (due.nudges or due.expired):
            return
        # Only those still waited for now: someone may have moved since it was decided.
        snap = await self.host.by_id(gid)
        waiting = set(snap.human_to_move())
        nudges = [n for n in due.nudges if n[0] in waiting]
        if nudges:
            await self.send_nudges(snap, nudges)
        for seat in due.expired:
            if seat in waiting and seat not in due.forced:
                await self.announce_deadline(snap, seat)

    def _when(self, snap: Snapshot, since: float, lang: str) -> str:
        deadline = pacing.deadline_at(since, snap.row.host_options.get("deadline"))
        if deadline is not None:
            return t("host.remind.deadline", lang, when=ts(deadline))
        return t("host.remind.since", lang, when=ts(since))

    async def send_nudges(self, snap: Snapshot, nudges: list[tuple[int, int, float]]):
        """The first nudge of a turn goes to the channel (under ``pings=away``, the catch-up
        ping and the first reminder: :func:`host.pacing.in_channel`), later ones by DM (or
        to the channel when DMs are closed). Only the players the game waits for are named."""
        lang = snap.row.lang
        in_channel: list[tuple[int, float]] = []
        for seat, number, since in nudges:
            s = snap.seats[seat]
            if (
                pacing.in_channel(number, snap.row.host_options)
                or not s.dm_open
                or s.user_id is None
            ):
                in_channel.append((seat, since))
                continue
            user_lang = i18n.pick(s.locale)
            text = t(
                "host.remind.dm",
                user_lang,
                game=present.game_name(snap.row.game, user_lang),
                link=jump(snap, table=False),
                when=self._when(snap, since, user_lang),
            )
            try:
                dm = await self.bot.create_dm(discord.Object(s.user_id))
                await dm.send(text)
            except discord.Forbidden:
                await self.host.set_dm_open(snap.id, seat, False)
                in_channel.append((seat, since))
        if in_channel:
            who = " ".join(present.mention(snap, seat) for seat, _ in in_channel)
            since = min(since for _, since in in_channel)
            msg = await self.channel(snap.row.channel_id).send(
                t("host.remind.channel", lang, who=who, when=self._when(snap, since, lang)),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
            # Remembered, so that the table deletes it once these players have moved.
            async with self.publish_locks[snap.id]:
                row = (await self.host.by_id(snap.id)).row
                posted = [*row.nudge_messages, [msg.id, [seat for seat, _ in in_channel]]]
                await self.host.store.update_game(
                    snap.id, self.host.clock.now(), nudge_messages=posted
                )

    async def announce_deadline(self, snap: Snapshot, seat: int) -> None:
        lang = snap.row.lang
        can_skip = self.host.skip_pick(snap, seat) is not None
        await self.channel(snap.row.channel_id).send(
            t("host.deadline.passed", lang, who=present.mention(snap, seat)),
            view=present.deadline_view(snap, seat, lang, can_skip),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    @guarded
    async def on_cover(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, kind: str
    ) -> None:
        await self.ack(interaction)
        snap = await self.host.cover(gid, seat, tok, kind, self.player(interaction), bots=False)
        s = snap.seats[seat]
        key = "host.deadline.skipped" if kind == "skip" else "host.deadline.bot_played"
        text = t(key, snap.row.lang, who=present.who(snap, seat), by=interaction.user.display_name)
        if s.autopilot:
            text += "\n" + t("host.deadline.autopilot", snap.row.lang, who=present.who(snap, seat))
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(content=text, view=None)
        await self.publish(gid)

    @guarded
    async def on_take_back(self, interaction: discord.Interaction, gid: int) -> None:
        await self.ack(interaction)
        snap = await self.host.take_back(gid, self.player(interaction))
        await self.tell_table(interaction, snap, "host.autopilot.back")

    async def dm_turn(
        self,
        snap: Snapshot,
        seats: list[int],
        settings: dict[int, tuple[bool, str | None]] | None = None,
    ) -> None:
        """Players who asked for it get a DM when a public decision waits for them.
        ``settings``: people's settings read already, by user id (others are read here)."""
        for seat in seats:
            s = snap.seats[seat]
            if s.user_id is None or s.is_bot or not s.dm_open:
                continue
            if not any(not d.private for d in snap.decisions_for(seat)):
                continue  # private decisions come with their own DM panel
            if settings is not None and s.user_id in settings:
                wants, lang = settings[s.user_id]
            else:
                wants, lang = await self.host.store.user_settings(s.user_id)
            if not wants:
                continue
            lang = lang or i18n.pick(s.locale)
            text = t(
                "host.remind.your_turn",
                lang,
                game=present.game_name(snap.row.game, lang),
                link=jump(snap, table=False),
            )
            try:
                dm = await self.bot.create_dm(discord.Object(s.user_id))
                await dm.send(text)
            except discord.Forbidden:
                await self.host.set_dm_open(snap.id, seat, False)


__all__: list[Any] = ["PacingMixin", "jump", "ts"]
