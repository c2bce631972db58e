"""The bots' moves, made in the background: one task per game, started after a person's
move, at start-up and by the pacing tick for a game that owes a bot move."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from cogs.common import CogBase

log = logging.getLogger(__name__)


class BotsMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    #: The task making each game's owed bot moves, and the games asked for again while it
    #: ran (see :meth:`spawn_bots`).
    bot_tasks: dict[int, asyncio.Task[None]]
    _bots_again: set[int]

    if TYPE_CHECKING:

        async def publish(
            self, gid: int, *, force_new: bool = False, ping: bool = True
        ) -> None: ...

    def spawn_bots(self, gid: int) -> None:
        """Make the moves the game's bot seats owe, in the background: a person's move is
        committed and shown first (the table says the bots are thinking), then each bot
        thinks in a worker thread and its move is committed under the game's lock, and the
        table is shown again. One task per game; asked again while it runs, it looks again
        before it stops."""
        task = self.bot_tasks.get(gid)
        if task is not None and not task.done():
            self._bots_again.add(gid)
            return
        task = asyncio.create_task(self._play_bots(gid), name=f"bots-{gid}")
        self.bot_tasks[gid] = task

    async def _play_bots(self, gid: int) -> None:
        try:
            while True:
                self._bots_again.discard(gid)
                steps = await self.host.play_bots(gid)
                if steps:
                    await self.publish(gid)
                if gid not in self._bots_again:
                    return
        except Exception:  # the tick looks again (bots owed are found from storage)
            log.exception("game %s: the bots' moves failed", gid)
        finally:
            if self.bot_tasks.get(gid) is asyncio.current_task():
                del self.bot_tasks[gid]

    async def resume_bots(self, gids: list[int] | None = None) -> None:
        """Start the bots of every active game (among ``gids``; None: all, at start-up) that
        waits for a bot (after a restart, or a bot task that failed): nothing is kept in
        memory, so the stored game says it."""
        for gid in await self.host.bots_owed(gids):
            if gid not in self.bot_tasks:
                self.spawn_bots(gid)

    async def _resume_after_ready(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.resume_bots()
        except Exception:
            log.exception("resuming the bots failed")
