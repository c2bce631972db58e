"""Undo, rollback, the paged log, and the package posted when a game ends (the whole log as
a file, the final board, an animated recap, and how the players' ratings moved)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import present, replay, stats
from cogs.common import CogBase, guarded
from core.i18n import t
from host import registry
from host.sessions import Snapshot
from render import recap, words

log = logging.getLogger(__name__)


class HistoryMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    if TYPE_CHECKING:

        async def publish(self, gid: int, *, force_new: bool = False) -> None: ...

        async def close_trail(self, snap: Snapshot) -> None: ...

    @guarded
    async def on_undo(self, interaction: discord.Interaction, gid: int) -> None:
        await self.ack(interaction)
        snap = await self.host.undo(gid, self.player(interaction))
        await self.tell_table(interaction, snap, "host.undo.done")

    async def tell_table(self, interaction: discord.Interaction, snap: Snapshot, key: str) -> None:
        """After a player's act on the whole table (an undo, a seat taken back): ``key``
        (naming the player as ``who``) in the game's channel and language, the table shown
        again, and the same sentence to close a slash command."""
        text = t(key, snap.row.lang, who=interaction.user.display_name)
        await self.channel(snap.row.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        # After an undo the trail message above keeps the undone move's line, the notice
        # saying it was taken back: the moves from now on are written below the notice.
        await self.close_trail(snap)
        await self.publish(snap.id)
        await self.done(interaction, text)

    async def do_rollback(self, interaction: discord.Interaction, snap: Snapshot) -> None:
        who = self.player(interaction)
        snap, what, votes, needed = await self.host.rollback(snap.id, who, bots=False)
        name = interaction.user.display_name
        if what == "voted":
            await interaction.response.send_message(
                t("host.rollback.voted", snap.row.lang, name=name, votes=votes, needed=needed),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        round_ = snap.view(None).get("round")
        await interaction.response.send_message(
            t("host.rollback.done", snap.row.lang, name=name, n=round_ if round_ else "—"),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.publish(snap.id, force_new=True)

    @guarded
    async def on_log(
        self, interaction: discord.Interaction, gid: int, page: int | None = None
    ) -> None:
        snap = await self.host.by_id(gid)
        await self.show_log(interaction, snap, page, edit=page is not None)

    async def show_log(
        self,
        interaction: discord.Interaction,
        snap: Snapshot,
        page: int | None = None,
        *,
        edit: bool = False,
    ) -> None:
        """The log, paged: players also see their own private lines."""
        lang = self.lang(interaction)
        actions = await self.host.store.actions(snap.id, live=False)
        seat = snap.owned_seat(interaction.user.id)
        lines = present.log_lines(snap, actions, seat, lang)
        embed, view, _ = present.log_page(snap, lines, page, lang)
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
            return
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def post_final(self, snap: Snapshot, table: discord.Embed | None = None) -> None:
        """When a game ends: what of the final ranking and the secrets revealed did not fit
        on the final table (``table``, its embed), then the whole public log as a text
        file, the final board and an animated recap of the table over the game."""
        lang = snap.row.lang
        if table is not None:
            for more in present.final_overflow(snap, table, lang):
                await self.channel(snap.row.channel_id).send(
                    embed=more, allowed_mentions=discord.AllowedMentions.none()
                )
        actions = await self.host.store.actions(snap.id, live=False)
        text = present.log_file_text(snap, actions, lang)
        views = await self.host.replay_views(snap.id)
        render = registry.renderer(snap.row.game)

        def build() -> tuple[bytes, bytes]:
            frames = [render.render_table(v, snap.names, lang) for v in views]
            return frames[-1], recap.animate(frames)

        final, gif = await asyncio.to_thread(build)
        last, names = views[-1], snap.names
        final_text = present.describe(snap.row.game, "table", last, names, lang)
        recap_text = words.describe_recap(snap.row.game, last, names, lang)
        files = [
            discord.File(io.BytesIO(text.encode("utf-8")), filename=f"game-{snap.id}-log.txt"),
            discord.File(io.BytesIO(final), filename="final.png", description=final_text or None),
            discord.File(io.BytesIO(gif), filename="recap.gif", description=recap_text),
        ]
        content = t("host.final.package", lang, game=present.game_name(snap.row.game, lang))
        rated = stats.final_ratings(snap, await self.host.store.rating_changes(snap.id), lang)
        await self.channel(snap.row.channel_id).send(
            content if rated is None else f"{content}\n{rated}",
            files=files,
            view=replay.open_button(snap, lang),
        )
