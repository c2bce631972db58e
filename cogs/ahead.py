"""Drawing a click's table ahead of its publish (issue 23): the picture is asked of the render
pool the moment the move is committed, while the publish reads the game, writes the trail
and builds the embed; the publish (:mod:`cogs.publish`) takes it when it shows the same
thing."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from cogs import present
from cogs.common import CogBase
from host import renderpool
from host.sessions import Snapshot

if TYPE_CHECKING:
    from host.locks import KeyedLocks

#: A table drawn ahead of its publish (:meth:`AheadMixin.draw_ahead`): what it is drawn
#: from (the public view, the names, the language) and the drawing.
Ahead = tuple[dict[str, Any], list[str], str, "asyncio.Task[tuple[bytes, str]]"]

#: Tables drawn ahead kept at most (each is taken by its game's next publish).
AHEAD = 256


class AheadMixin(CogBase):
    """Part of :class:`cogs.game.GameCog` (through :class:`cogs.publish.PublishMixin`)."""

    #: Tables drawn ahead of their publish, by game (:meth:`draw_ahead`).
    drawn_ahead: dict[int, Ahead]
    #: Whether a click's table is drawn ahead (``bench.scale --no-draw-ahead``: not).
    draw_ahead_on = True

    if TYPE_CHECKING:
        publish_locks: KeyedLocks

    def draw_ahead(self, snap: Snapshot, before: Snapshot | None = None) -> None:
        """Start drawing the table of ``snap`` (a move just committed) in the render pool
        now, before its publish reads the game and writes the trail: the picture is drawn
        while the event loop does the rest (issue 23), and the publish takes it if it
        shows the same thing (:meth:`table_picture`). Only with render workers, and only
        when no other publish of the game runs or waits (a newer move could then make this
        picture one nobody sees). Nor when the move changed nothing the picture shows
        (``before``: the game before it; a secret order, say): its publish most often
        shows nothing new, and when it does it draws the table itself."""
        pool = renderpool.current()
        if not self.draw_ahead_on or pool is None or pool.broken or pool.closed:
            return  # (a pool that cannot draw: the publish draws in-process, once)
        if self.publish_locks.locked(snap.id):
            return
        if snap.row.status != "active" or snap.row.paused is not None:
            return
        view, names, lang = snap.view(None), snap.names, snap.row.lang
        if before is not None:
            shown = (before.view(None), before.names, before.row.lang)
            if shown == (view, names, lang):
                return
        task = asyncio.create_task(present.table_picture(snap.row.game, view, names, lang))
        task.add_done_callback(_quiet)
        drop(self.drawn_ahead.pop(snap.id, None))  # (an older move's, not taken yet)
        self.drawn_ahead[snap.id] = (view, names, lang, task)
        while len(self.drawn_ahead) > AHEAD:  # (never taken: a publish that failed early)
            drop(self.drawn_ahead.pop(next(iter(self.drawn_ahead))))

    async def table_picture(
        self, snap: Snapshot, lang: str, ahead: Ahead | None
    ) -> tuple[bytes, str]:
        """The table of ``snap`` and its alt text: the one drawn ``ahead`` when it was drawn
        from the same view, names and language (the same picture, byte for byte), else
        drawn now."""
        view, names = snap.view(None), snap.names
        if ahead is not None and ahead[:3] == (view, names, lang):
            drawn = ahead[3]
            await asyncio.wait([drawn])  # (its failure, even a cancellation, is not ours)
            if not drawn.cancelled() and drawn.exception() is None:
                return drawn.result()
        return await present.table_picture(snap.row.game, view, names, lang)


def drop(ahead: Ahead | None) -> None:
    """A table drawn ahead that will not be shown: its drawing stopped if it still runs
    (a call not yet handed to a worker is never drawn)."""
    if ahead is not None:
        ahead[3].cancel()


def _quiet(task: asyncio.Task[Any]) -> None:
    """A table drawn ahead that nobody took (a newer move came first) and failed: its
    error is no one's (the publish that shows the game draws its own)."""
    if not task.cancelled():
        task.exception()
