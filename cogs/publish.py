"""Publishing a game to its channel and its players: the live table (edited in place or
posted anew, with its pings), the private panels sent by DM, and the older messages retired.
The trail of moves above the table is written by :class:`cogs.trail.TrailMixin`; the "My hand"
panel (an ephemeral private panel) is shown here too."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import present
from cogs.ahead import Ahead, AheadMixin, drop
from cogs.pacing import lost_reason
from core import i18n
from core.i18n import t
from host import pacing
from host.sessions import HostError, Snapshot, public_move
from host.storage import ActionRow

if TYPE_CHECKING:
    from host.locks import KeyedLocks

log = logging.getLogger(__name__)

#: The live moves a table reads back for its recent lines, its trail and its pings.
RECENT_ACTIONS = 300


class PublishMixin(AheadMixin):
    """Part of :class:`cogs.game.GameCog`."""

    if TYPE_CHECKING:
        publish_locks: KeyedLocks

        def spawn_bots(self, gid: int) -> None: ...

        async def write_trail(self, snap: Snapshot, public: list[Any]) -> bool: ...

        async def channel_lost(self, gid: int, err: BaseException) -> bool: ...

        async def dm_turn(
            self,
            snap: Snapshot,
            seats: list[int],
            settings: dict[int, tuple[bool, str | None]] | None = None,
        ) -> None: ...

        async def post_final(self, snap: Snapshot, table: discord.Embed | None = None) -> None: ...

    async def publish(self, gid: int, *, force_new: bool = False, ping: bool = True) -> None:
        """:meth:`_publish`, and if the channel cannot be reached (deleted, access lost), the
        game is paused (players told by DM) before the error goes on to the caller."""
        try:
            await self._publish(gid, force_new=force_new, ping=ping)
        except (discord.NotFound, discord.Forbidden) as err:
            await self.channel_lost(gid, err)
            raise

    async def _publish(self, gid: int, *, force_new: bool, ping: bool) -> None:
        """Bring the channel up to date with the game as stored now: the trail of moves, the
        table and the private panels by DM. Serialised per game, and always from the latest
        state, so the last publish shows the last move.

        The channel holds one live table, always the last game message: edited in place
        while the same players are to move, else posted anew at the bottom and the one it
        replaces deleted (greyed out if it cannot be deleted). Above it, the trail: one short
        text message per round listing the public moves, so a player back after a day reads
        what happened since, then the table. A new table mentions whom the game now waits
        for, and pings those newly to move (once per turn change) as the ``pings`` option
        says (:func:`host.pacing.table_pings`): with ``away``, the default, only those who
        have not acted in the game for a few minutes (a ping recorded as the wait's catch-up,
        which the pacing tick sends to the others still waited on a few minutes later); with
        ``live``, all of them; with ``days``, none (the pacing tick pings later). Never when
        ``ping`` is false (``/game status``).

        A private panel Discord failed to deliver (a 5xx) is owed: the game is left marked
        as lagging (stored, so a restart keeps it), and the next pacing tick, or the next
        publish, sends it again; the table goes on meanwhile, and "My hand" shows the same
        question."""
        async with self.publish_locks[gid]:
            # The game, its DM panels and its recent moves in one read.
            snap, read = await self.host.for_publish(gid, RECENT_ACTIONS)
            sent, quiet = await self._send_panels(snap, panels=read.panels)
            owed = not sent
            try:
                # Every panel was up to date (nothing sent, nothing written): the table is
                # drawn from the game as read for the panels, not read again (a move stored
                # since has its own publish, waiting for this one).
                await self._show_table(
                    gid,
                    force_new=force_new,
                    ping=ping,
                    snap=snap if quiet else None,
                    recent=read.actions if quiet else None,
                    settings=read.settings,
                )
            finally:
                if owed:
                    row = (await self.host.by_id(gid)).row
                    if row.published_version >= row.version:
                        await self.host.store.update_game(
                            gid, self.host.clock.now(), published_version=row.version - 1
                        )

    async def newer(self, snap: Snapshot) -> Snapshot | None:
        """The game as stored now if a newer move is stored already and its publish waits
        for this one (under the game's publish lock): what is being drawn would be replaced
        before anyone saw it, so only the newest is drawn (issue 23). None otherwise (and
        without a database read when no other publish of the game waits)."""
        if not self.publish_locks.waiting(snap.id):
            return None
        now = await self.host.by_id(snap.id)
        return now if now.row.version > snap.row.version else None

    async def _show_table(
        self,
        gid: int,
        *,
        force_new: bool,
        ping: bool,
        again: int = 3,
        snap: Snapshot | None = None,
        recent: list[ActionRow] | None = None,
        settings: dict[int, tuple[bool, str | None]] | None = None,
    ) -> None:
        """The trail and the table of :meth:`_publish` (under the game's publish lock), of
        ``snap`` (None: the game as stored now; ``recent``: its last
        :data:`RECENT_ACTIONS` live moves, read with it; ``settings``: people's settings
        read before, by user id, for :meth:`dm_turn`). A newer move stored meanwhile
        (``again`` times at most): its table instead. The table drawn ahead for the game,
        if any, is taken here; when it is not the one shown (another view, the table
        unchanged, a newer move), its drawing is stopped."""
        ahead = self.drawn_ahead.pop(gid, None)
        try:
            await self._show_table_of(
                gid,
                force_new=force_new,
                ping=ping,
                again=again,
                snap=snap,
                recent=recent,
                settings=settings,
                ahead=ahead,
            )
        finally:
            drop(ahead)

    async def _show_table_of(
        self,
        gid: int,
        *,
        force_new: bool,
        ping: bool,
        again: int,
        snap: Snapshot | None,
        recent: list[ActionRow] | None,
        settings: dict[int, tuple[bool, str | None]] | None,
        ahead: Ahead | None,
    ) -> None:
        """:meth:`_show_table`, with the table drawn ``ahead`` (None: none)."""
        if snap is None:
            snap, recent = await self.host.by_id(gid), None
        if snap.row.paused is not None:
            return  # its channel cannot be reached: nothing is drawn until it can
        if self.host.bot_to_move(snap) is not None:
            # Bots owed a move (after a rollback, a seat handed to a bot...): the table
            # says they think, and their moves follow in the background.
            self.spawn_bots(gid)
        lang = snap.row.lang
        # Only moves that told something: secret moves must not scroll the recent lines.
        if recent is None:
            recent = await self.host.store.actions(gid, limit=RECENT_ACTIONS)
        public = [a for a in recent if public_move(a.events)]
        lines = present.log_lines(snap, public[-30:], None, lang)
        embed = present.table_embed(snap, lines, lang)
        undoable = await self.host.undoable(snap, recent)
        back = any(s.autopilot and s.user_id for s in snap.seats)
        view = present.table_panel(snap, lang, undo=undoable is not None, back=back)
        to_move = snap.human_to_move() if snap.row.status == "active" else []
        await self.clear_nudges(snap, to_move)
        shown = present.fingerprint(embed, view, snap.view(None))
        old = snap.row.table_message_id
        # Some of those to move have moved (e.g. given their secret orders): edit in place,
        # so that the others are not mentioned again for the same turn.
        movers = snap.row.table_to_move
        same_movers = old is not None and (
            to_move == movers or (bool(to_move) and set(to_move) <= set(movers))
        )
        # Only bots to move ("thinking"): a moment between people's turns. The table is
        # edited in place and still counts as waiting for the people it named, so the
        # same people to move after the bots is no new turn (no new table, no ping).
        thinking = not to_move and self.host.bot_to_move(snap) is not None
        if thinking:
            same_movers = old is not None
        waits_for = movers if thinking else to_move  # recorded as the table's movers
        now = self.host.clock.now()
        shows = snap.row.version
        if not force_new and same_movers and snap.row.table_hash == shown:
            # e.g. a secret order changed: the table shows nothing new
            await self.host.store.update_game(gid, now, published_version=shows)
            return
        # The trail first: it stays above the table. A new trail message below the table
        # means the table must move down again.
        try:
            below = await self.write_trail(snap, public)
        except discord.HTTPException as err:  # the trail is a convenience: the table matters
            if lost_reason(err) is not None:
                raise  # the channel is gone: drawing the table would be for nothing
            log.warning("game %s: could not write the trail", gid)
            below = False
        if again and await self.newer(snap) is not None:
            await self._show_table(
                gid, force_new=force_new, ping=ping, again=again - 1, settings=settings
            )
            return
        picture = await self.table_picture(snap, lang, ahead)
        file = present.picture_file(picture)
        content = present.turn_of(snap, to_move, lang) or None
        if not force_new and not below and same_movers and old is not None:
            try:
                await self.edit(
                    snap.row.channel_id,
                    old,
                    content=content,
                    embed=embed,
                    view=view,
                    attachments=[file],
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                await self.host.store.update_game(
                    gid,
                    now,
                    table_hash=shown,
                    table_to_move=waits_for,
                    published_version=shows,
                )
                return
            except discord.NotFound as err:
                if lost_reason(err) is not None:
                    raise  # the channel, not the message, is gone
            file = present.picture_file(picture)  # the first one was consumed
        # Ping only those the game did not wait for already: a table moved down for
        # another reason (a new round, /game status) pings nobody again.
        fresh = [s for s in to_move if s not in movers or force_new]
        mode = snap.row.host_options.get("pings")
        acted = pacing.last_acted([s.user_id for s in snap.seats], recent)
        pinged_seats = [
            s
            for s in fresh
            if snap.seats[s].user_id is not None
            and ping
            and pacing.table_pings(mode, acted.get(s), now)
        ]
        pinged = [
            discord.Object(uid) for s in pinged_seats if (uid := snap.seats[s].user_id) is not None
        ]
        posted = await self.post(
            snap.row.channel_id,
            content=content,
            embed=embed,
            file=file,
            allowed_mentions=discord.AllowedMentions(
                users=pinged, roles=False, everyone=False, replied_user=False
            ),
            view=view,
        )
        try:
            await self.host.store.update_game(
                gid,
                now,
                table_message_id=posted,
                table_to_move=waits_for,
                table_hash=shown,
                published_version=shows,
            )
        except Exception:
            # Not recorded (the database failed): the next publish would edit the table
            # recorded before, above this one, and this one would stay behind with live
            # buttons. Take it back; the game still lags, so the table follows.
            await self.drop_message(snap.row.channel_id, posted)
            raise
        if pinged_seats and pacing.catches_up(snap.row.host_options):
            # Pinged: their waits' catch-up ping (pings=away) is done (the waits are those
            # the table was drawn with; one started again since is left alone).
            waits = snap.waits or {}
            since = {s: waits[s][0] for s in pinged_seats if s in waits}
            await self.host.table_pinged(gid, since)
        if old is not None and old != posted:
            await self.drop_message(snap.row.channel_id, old)
        if snap.row.status == "over" and snap.row.table_to_move:
            await self.post_final(snap, embed)  # the game just ended
        elif not force_new:
            await self.dm_turn(
                snap, [s for s in to_move if s not in snap.row.table_to_move], settings
            )

    async def clear_nudges(self, snap: Snapshot, waited: list[int]) -> None:
        """Delete the channel reminders of players the game no longer waits for: their
        "waiting for your move" would mislead, and the channel stays short."""
        keep: list[list[Any]] = []
        stale: list[int] = []
        for mid, seats in snap.row.nudge_messages:
            if set(seats) & set(waited):
                keep.append([mid, seats])
            else:
                stale.append(mid)
        if not stale:
            return
        await self.host.store.update_game(snap.id, self.host.clock.now(), nudge_messages=keep)
        for mid in stale:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(snap.row.channel_id).get_partial_message(mid).delete()  # type: ignore[attr-defined]

    async def send_panels(self, snap: Snapshot, *, again: int = 3) -> bool:
        """DM each person with an open private decision its panel, once per decision. A
        closed DM marks the seat so the table tells the player to use "My hand". Whether
        every panel owed went out: one Discord failed to take (a 5xx, a network error) is
        left unrecorded, so the next call sends it again, and the others go on."""
        sent, _ = await self._send_panels(snap, again=again)
        return sent

    async def _send_panels(
        self,
        snap: Snapshot,
        *,
        again: int = 3,
        panels: dict[int, tuple[str, int | None, int | None]] | None = None,
    ) -> tuple[bool, bool]:
        """:meth:`send_panels`, and whether it was quiet: every seat's panel up to date,
        nothing sent or written. ``panels``: every seat's, read with ``snap`` (None: read
        here)."""
        if snap.row.status != "active":
            return True, True
        sent = quiet = True
        # Every seat's panel in one read; once a seat's panel is being sent (other tasks
        # run meanwhile, e.g. a "My hand" recording its panel), each seat's is read again.
        if panels is None and any(not s.is_bot and s.user_id is not None for s in snap.seats):
            panels = await self.host.store.dm_panels(snap.id)
        for seat in range(len(snap.seats)):
            s = snap.seats[seat]
            if s.is_bot or s.user_id is None:
                continue
            private = [d for d in snap.decisions_for(seat) if d.private]
            token = present.panel_mark(snap, seat)
            if panels is not None:
                panel = panels.get(seat)
            else:
                panel = await self.host.store.dm_panel(snap.id, seat)
            if panel is not None and panel[0] == token:
                continue
            panels, quiet = None, False
            if again and (newest := await self.newer(snap)) is not None:
                # A newer move waits to be shown: this seat's picture would be replaced
                # before it is seen; every seat as the game stands now instead.
                return sent & await self.send_panels(newest, again=again - 1), False
            # The same question with other options (another seat took one from a shared
            # pool): edit the panel in place rather than send a new one.
            if (
                private
                and s.dm_open
                and panel is not None
                and panel[2] is not None
                and panel[0].split("/")[0] == token.split("/")[0]
                and await self.edit_panel(snap, seat, panel[1], panel[2])
            ):
                await self.host.store.set_dm_panel(snap.id, seat, token, panel[1], panel[2])
                continue
            if panel is not None and panel[1] is not None and panel[2] is not None:
                await self.disable_buttons(panel[1], panel[2])
            if not private:
                await self.host.store.set_dm_panel(snap.id, seat, "", None, None)
                continue
            if not s.dm_open:
                await self.host.store.set_dm_panel(snap.id, seat, token, None, None)
                continue
            lang = i18n.pick(s.locale)
            embed, view = present.private_panel(snap, seat, lang)
            file = await present.private_file(snap, seat, lang)
            if file is None:
                embed.set_image(url=None)
            try:
                dm = await self.bot.create_dm(discord.Object(s.user_id))
                kwargs: dict[str, Any] = {"embed": embed}
                if view is not None:
                    kwargs["view"] = view
                if file is not None:
                    kwargs["file"] = file
                msg = await dm.send(**kwargs)
                await self.host.store.set_dm_panel(snap.id, seat, token, dm.id, msg.id)
            except (TimeoutError, discord.HTTPException, OSError) as err:
                if isinstance(err, discord.HTTPException) and refused_for_good(err):
                    # Closed DMs (403), an unknown user (404) or another answer that would be
                    # the same at every try: as closed DMs, "My hand" shows the question.
                    await self.host.set_dm_open(snap.id, seat, False)
                    await self.host.store.set_dm_panel(snap.id, seat, token, None, None)
                    await self.channel(snap.row.channel_id).send(
                        t("host.dm.closed", snap.row.lang, who=f"<@{s.user_id}>"),
                        allowed_mentions=discord.AllowedMentions(users=True),
                    )
                    continue
                # Not sent, not recorded: owed (see _publish). The old panel, if any, is
                # greyed out already; "My hand" shows the question meanwhile.
                log.warning("game %s: the panel of seat %s was not sent (%r)", snap.id, seat, err)
                sent = False
        return sent, quiet

    async def edit_panel(
        self, snap: Snapshot, seat: int, channel_id: int | None, message_id: int
    ) -> bool:
        """Edit a seat's DM panel in place with its decisions as they stand now."""
        if channel_id is None:
            return False
        lang = i18n.pick(snap.seats[seat].locale)
        embed, view = present.private_panel(snap, seat, lang)
        file = await present.private_file(snap, seat, lang)
        if file is None:
            embed.set_image(url=None)
        try:
            await (
                self.channel(channel_id)
                .get_partial_message(message_id)
                .edit(embed=embed, view=view, attachments=[file] if file else [])
            )
        except discord.HTTPException:
            log.warning("game %s: could not edit the panel of seat %s", snap.id, seat)
            return False
        return True

    async def disable_buttons(self, channel_id: int, message_id: int) -> None:
        """Grey out every button of an older message (a table, a private panel), so the
        channel reads like a game and old buttons cannot be pressed."""
        channel = self.channel(channel_id)
        try:
            message = await channel.fetch_message(message_id)
            view = discord.ui.View.from_message(message, timeout=None)
            for item in view.children:
                if hasattr(item, "disabled"):
                    item.disabled = True  # type: ignore[attr-defined]
            # Stopped first, so discord.py does not keep this view in memory for ever:
            # nothing will ever dispatch to greyed-out buttons.
            view.stop()
            await message.edit(view=view)
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).edit(view=None)

    async def drop_message(self, channel_id: int, message_id: int) -> None:
        """Delete an older table (the bot may always delete its own messages); when that
        fails, grey its buttons out so that they can never be used."""
        try:
            await self.channel(channel_id).get_partial_message(message_id).delete()  # type: ignore[attr-defined]
        except discord.NotFound:
            return
        except discord.HTTPException:
            log.warning("could not delete the old table %s: greying it out", message_id)
            await self.disable_buttons(channel_id, message_id)

    async def retire(self, snap: Snapshot) -> None:
        """A game ended without a result (abandoned): disable its buttons."""
        for mid in (snap.row.table_message_id, snap.row.lobby_message_id):
            if mid is not None:
                await self.disable_buttons(snap.row.channel_id, mid)

    async def show_hand(self, interaction: discord.Interaction, snap: Snapshot) -> None:
        lang = self.lang(interaction)
        seat = snap.owned_seat(interaction.user.id)
        if seat is None:
            raise HostError("host.error.not_a_player")
        if snap.row.status == "lobby":
            raise HostError("host.error.not_started")
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, view = present.private_panel(snap, seat, lang, include_public=True)
        file = await present.private_file(snap, seat, lang)
        if file is None:
            embed.set_image(url=None)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)
        # The player has this panel now: no DM for the same decision. Not when their DMs
        # are open: a DM panel still owed (Discord failed to take it) goes out all the same,
        # since this reply is gone once they reload.
        mark = present.panel_mark(snap, seat)
        if mark and not snap.seats[seat].dm_open:
            panel = await self.host.store.dm_panel(snap.id, seat)
            await self.host.store.set_dm_panel(
                snap.id,
                seat,
                mark,
                panel[1] if panel else None,
                panel[2] if panel else None,
            )

    async def update_private_panel(
        self, interaction: discord.Interaction, gid: int, seat: int, include_public: bool = False
    ) -> None:
        """Edit the private panel clicked (a DM panel or "My hand") into the seat's decisions
        as they stand now, and record it as the seat's panel. Under the game's publish lock,
        so that a publish does not send this question as a new DM meanwhile; if one already
        has (another seat's move was published between this move and this edit), the
        clicked DM panel, greyed out by then, is left as it is: one live panel per question."""
        async with self.publish_locks[gid]:
            snap = await self.host.by_id(gid)
            mark = present.panel_mark(snap, seat)
            panel = await self.host.store.dm_panel(gid, seat)
            message = interaction.message
            where: tuple[int | None, int | None]
            if interaction.guild_id is None and message is not None:
                where = (message.channel.id, message.id)
                if mark and panel is not None and panel[0] == mark and panel[2] != message.id:
                    return  # this question went out as a new DM panel already
            else:  # an ephemeral panel: remember the DM panel there may be, to retire it later
                where = (panel[1], panel[2]) if panel else (None, None)
            lang = self.lang(interaction)
            embed, view = present.private_panel(snap, seat, lang, include_public=include_public)
            file = await present.private_file(snap, seat, lang)
            if file is None:
                embed.set_image(url=None)
            await interaction.edit_original_response(
                embed=embed, view=view, attachments=[file] if file else []
            )
            await self.host.store.set_dm_panel(gid, seat, mark, *where)


def refused_for_good(err: discord.HTTPException) -> bool:
    """Whether Discord's refusal of a DM would be the same at every try: any 4xx (closed DMs,
    an unknown user, a malformed request) but a rate limit; a 5xx is worth another try."""
    return isinstance(err, discord.Forbidden) or (400 <= err.status < 500 and err.status != 429)
