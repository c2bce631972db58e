"""Whom a game waits for, and since when (the waits that reminders and deadlines count
from), its timers as the host has seen them open, and its ``wake_at`` (when the pacing tick
next has something to do for it). Each is recorded as the game changes; the tick that acts
on them is :mod:`host.tick`."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

from core.contract import Decision
from host import pacing
from host.base import HostBase
from host.records import Snapshot
from host.storage import TimerRow

#: A game owing a bot move is due for the tick this long after (if its bots have not
#: moved by then, the tick starts them again; see :meth:`Host.pace`).
BOT_RETRY = pacing.RETRY_FIRST


def wake_time(
    waits: dict[int, tuple[float, int, int]],
    options: dict[str, str],
    now: float,
    *,
    bot_owes: bool,
    waiting: Iterable[int] | None = None,
) -> float | None:
    """When the pacing tick next has something to do for a game (its ``wake_at``): the next
    nudge or deadline of its waits (:func:`pacing.wake_at`), and no later than
    :data:`BOT_RETRY` from now while a bot owes a move — the cog moves the bots at once;
    should that fail, the tick starts them again then (and no other process picks the game
    up meanwhile)."""
    wake = pacing.wake_at(waits, options, None if waiting is None else set(waiting))
    if bot_owes:
        wake = min(wake if wake is not None else math.inf, now + BOT_RETRY)
    return wake


class Waits(HostBase):
    """Recording whom a game waits for, its timers and when it is next due."""

    async def sync_waits(self, snap: Snapshot, acted: int | None = None) -> None:
        """Record since when the game waits on each person. A seat that just acted (and
        is still to move) starts a new wait: reminders are counted per turn."""
        await self.sync_timers(snap)
        waits = await self.store.waits(snap.id)
        waiting = snap.to_move() if snap.row.status == "active" else []
        now = self.clock.now()
        keep = self._waits_after(snap, waits, waiting, acted=acted, now=now)
        wake = self._wake(snap, keep, now)
        if keep != waits or wake != snap.row.wake_at:
            await self.store.set_waits(snap.id, keep, wake_at=wake)
        # The snapshot says what is stored now (as a reload would), for whoever uses it next.
        snap.waits = keep
        snap.row = replace(snap.row, wake_at=wake)

    def _wake(
        self, snap: Snapshot, waits: dict[int, tuple[float, int, int]], now: float
    ) -> float | None:
        """The ``wake_at`` of a game with these waits: soon (:data:`BOT_RETRY`) if a bot owes
        a move (a seat handed to a bot, a rollback or a start leaving a bot to move: the
        tick starts the bots then if no task has made the move), else the next nudge or
        deadline (:func:`pacing.wake_at`)."""
        if snap.row.status != "active":
            return None
        bot_owes = self.bot_to_move(snap) is not None
        return wake_time(waits, snap.row.host_options, now, bot_owes=bot_owes)

    @staticmethod
    def _waits_after(
        snap: Snapshot,
        waits: dict[int, tuple[float, int, int]],
        waiting: list[int],
        *,
        acted: int | None,
        now: float,
    ) -> dict[int, tuple[float, int, int]]:
        """The waits table for the people among ``waiting``: kept as they are, started now
        for a new wait or for the seat that just acted."""
        keep: dict[int, tuple[float, int, int]] = {}
        for seat in waiting:
            if not snap.human(seat):
                continue
            row = waits.get(seat)
            keep[seat] = (now, 0, 0) if row is None or seat == acted else row
        return keep

    @staticmethod
    def bot_to_move(snap: Snapshot) -> int | None:
        """The first bot seat (autopilot included) the game waits for, if any. None while
        the game is paused (its channel is lost): its bots wait with its clocks."""
        if snap.row.status != "active" or snap.row.paused is not None:
            return None
        return next((s for s in snap.to_move() if not snap.human(s)), None)

    async def table_pinged(self, game_id: int, since: dict[int, float]) -> None:
        """A new table pinged these seats (seat -> the start of the wait it was drawn with):
        under ``pings=away`` that was the wait's catch-up ping (its first nudge,
        :func:`pacing.catches_up`), so it is recorded as sent and the tick sends none. A
        wait that has started again since (the seat moved meanwhile) is left alone."""
        async with self.locks[game_id]:
            snap = await self.by_id(game_id)
            if snap.row.status != "active" or not pacing.catches_up(snap.row.host_options):
                return
            waits = snap.waits if snap.waits is not None else await self.store.waits(game_id)
            done = {
                seat
                for seat, start in since.items()
                if (row := waits.get(seat)) is not None and row[0] == start and row[1] == 0
            }
            if not done:
                return
            keep = {
                seat: (start, 1 if seat in done else sent, dl)
                for seat, (start, sent, dl) in waits.items()
            }
            now = self.clock.now()
            marks = {seat: {"nudges": 1} for seat in sorted(done)}
            await self.store.mark_waits(game_id, marks, wake_at=self._wake(snap, keep, now))

    # -- timers -------------------------------------------------------------------------

    async def sync_timers(self, snap: Snapshot) -> None:
        """Start the timers of the open decisions that have not been seen before: a timer
        counts from the first time the host sees its key open (stored, so a restart keeps
        counting). Keys already known keep their start, fired or not, also when they close
        and open again (a move taken back does not reset the clock). A move does this in
        its own transaction (:meth:`_commit`); this is for the other changes."""
        if snap.row.status != "active":
            return
        opened, closed = self._timer_changes(snap.timers, snap.decisions)
        if not opened and not closed:
            return
        now = self.clock.now()
        await self.store.update_timers(snap.id, opened, closed, now)
        snap.timers = self._timers_after(snap, opened, closed, now)

    @staticmethod
    def _timer_changes(
        timers: dict[str, TimerRow], decisions: list[Decision]
    ) -> tuple[list[tuple[str, int, float]], set[str]]:
        """The timers (key, seat, seconds) to open and the keys to close for ``decisions``
        to be the open ones, given the game's ``timers``."""
        now_open: dict[str, tuple[str, int, float]] = {}
        for d in sorted(decisions, key=lambda d: d.seat):
            if d.timer is not None:
                now_open.setdefault(d.timer.key, (d.timer.key, d.seat, float(d.timer.seconds)))
        was_open = {key for key, row in timers.items() if row.open}
        opened = [v for k, v in now_open.items() if k not in was_open]
        return opened, was_open - set(now_open)

    @staticmethod
    def _timers_after(
        snap: Snapshot, opened: list[tuple[str, int, float]], closed: set[str], now: float
    ) -> dict[str, TimerRow]:
        """The game's timers once ``opened`` and ``closed`` are written (as the store
        writes them: a known key opens again with its old start)."""
        timers = dict(snap.timers)
        for key, seat, seconds in opened:
            row = timers.get(key)
            timers[key] = (
                replace(row, open=True) if row else TimerRow(snap.id, key, seat, now, seconds)
            )
        for key in closed:
            if key in timers:
                timers[key] = replace(timers[key], open=False)
        return timers

    @staticmethod
    def due_timer(snap: Snapshot, now: float) -> Decision | None:
        """The first open decision (in seat order) whose timer has run out. A key shared by
        several seats (a phase timer) fires once, for the first pending seat carrying it."""
        for d in sorted(snap.decisions, key=lambda d: d.seat):
            row = snap.timers.get(d.timer.key) if d.timer is not None else None
            if row is not None and row.running and now >= row.due:
                return d
        return None
