"""The lobby's shared actions: starting a game, leaving a seat, the lobby message kept up
to date."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs import present
from cogs.common import CogBase
from core.i18n import t
from host.sessions import Player, Snapshot

log = logging.getLogger(__name__)


class LobbyMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    if TYPE_CHECKING:

        async def publish(
            self, gid: int, *, force_new: bool = False, ping: bool = True
        ) -> None: ...

        def spawn_bots(self, gid: int) -> None: ...

    async def do_start(
        self, gid: int, who: Player, interaction: discord.Interaction | None = None
    ) -> None:
        await self.host.start(gid, who, bots=False)
        snap = await self.host.by_id(gid)
        if interaction is not None and interaction.message is not None:
            await interaction.edit_original_response(
                embed=present.lobby_embed(snap, snap.row.lang), view=None
            )
        else:
            await self.refresh_lobby(snap)
        await self.publish(gid, force_new=True)
        self.spawn_bots(gid)

    async def do_leave(self, interaction: discord.Interaction, gid: int) -> None:
        lang = self.lang(interaction)
        snap, what = await self.host.leave(gid, self.player(interaction), bots=False)
        if what == "bot":
            await self.reply(interaction, t("host.leave.bot_took_seat", lang))
            await self.channel(snap.row.channel_id).send(
                t("host.leave.announce", snap.row.lang, name=interaction.user.display_name),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.publish(gid)
            return
        if interaction.type == discord.InteractionType.component:
            await interaction.response.edit_message(**present.lobby_message(snap))
        else:
            await self.refresh_lobby(snap)
            await self.reply(interaction, t("host.lobby.left", lang))

    async def refresh_lobby(self, snap: Snapshot) -> None:
        if snap.row.lobby_message_id is None:
            return
        msg = self.channel(snap.row.channel_id).get_partial_message(snap.row.lobby_message_id)
        try:
            await msg.edit(
                embed=present.lobby_embed(snap, snap.row.lang),
                view=present.lobby_view(snap, snap.row.lang),
            )
        except discord.HTTPException:
            log.warning("could not update lobby message of game %s", snap.id)
