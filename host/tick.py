"""What the clock makes happen: the pacing tick's nudges and deadlines, timers running out,
an absent player's move skipped or played by a bot (and autopilot after enough misses), and
a paused game resumed."""

from __future__ import annotations

import logging

from core.contract import IllegalMove
from host import pacing
from host.play import MAX_BOT_STEPS, Play
from host.records import Due, HostError, Player, Snapshot, Step, event_dict, public_move
from host.waits import wake_time

log = logging.getLogger(__name__)


class Tick(Play):
    """The pacing tick's work on one game, and covering for an absent player."""

    async def paced_games(self, *, after: int = 0, limit: int = 100) -> list[int]:
        """What the pacing tick must look at now (by id, after ``after``, at most
        ``limit``): active games whose next reminder, deadline or timer has come. Games
        with nothing due are not even read."""
        return await self.store.due_games(self.clock.now(), after=after, limit=limit)

    async def resume(self, game_id: int) -> bool:
        """Lift a game's pause (its channel is reachable again). The clocks of those it
        waits for start again from now: nobody could see the table meanwhile. False if it
        was not paused."""
        async with self.locks[game_id]:
            if not await self.store.resume_game(game_id):
                return False
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                return True
            now = self.clock.now()
            waits = snap.waits if snap.waits is not None else await self.store.waits(game_id)
            keep = {seat: (now, 0, 0) for seat in waits}
            # (a bot owed a move while paused makes the game due at once: see _wake)
            await self.store.set_waits(game_id, keep, wake_at=self._wake(snap, keep, now))
            return True

    async def pace(self, game_id: int, *, bots: bool = True) -> Due:
        """What the clock says must happen now in one game: nudges to send, deadlines to
        announce, and absent moves a bot must make (made here, under the game's lock).
        Everything is recorded before it is reported, so a restart never repeats it. With
        ``bots``, the bot seats' moves that a fired timer or an absent move unblocks are
        made here too; without, they are owed (the game stays due) for :meth:`play_bots`,
        which thinks off the game's lock (the Discord layer does that)."""
        async with self.locks[game_id]:
            due = Due(game_id=game_id)
            due.timed = await self._fire_timers(game_id, bots=bots)
            now = self.clock.now()
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                return due
            if snap.row.paused is not None:
                return due  # nobody can see the channel: its clocks wait for it
            waits = await self.store.waits(game_id)
            opts = snap.row.host_options
            waiting = set(snap.human_to_move())
            marks: dict[int, dict[str, int]] = {}
            for seat, (since, sent, dl_state) in sorted(waits.items()):
                if seat not in waiting:
                    continue
                wanted = pacing.nudges_due(since, now, opts)
                deadline = pacing.deadline_at(since, opts.get("deadline"))
                if wanted > sent:
                    marks.setdefault(seat, {})["nudges"] = wanted
                    # Once the time is up, the time-up notice speaks: no nudge in that tick.
                    if deadline is None or now < deadline:
                        due.nudges.append((seat, sent + 1, since))
                if deadline is None or now < deadline:
                    continue
                overdue = now >= deadline + (deadline - since)
                if dl_state == 0 and not overdue:
                    marks.setdefault(seat, {})["deadline"] = 1
                    due.expired.append(seat)
                elif overdue and dl_state < 2:
                    marks.setdefault(seat, {})["deadline"] = 2
                    due.forced.append(seat)
            # What was done, and when the tick must look again, in one transaction (checked
            # here, under the game's lock: a second process pacing it finds nothing to do).
            after_marks = {
                seat: (since, mark.get("nudges", sent), mark.get("deadline", dl))
                for seat, (since, sent, dl) in waits.items()
                for mark in (marks.get(seat, {}),)
            }
            # (a bot owing a move: its task died, or the process did; the cog moves it after
            # this, and the game stays due in case that fails too)
            bot_owes = self.bot_to_move(snap) is not None
            wake = wake_time(after_marks, opts, now, bot_owes=bot_owes, waiting=waiting)
            if marks or wake != snap.row.wake_at:
                await self.store.mark_waits(game_id, marks, wake_at=wake)
            made = []
            for seat in due.forced:
                snap = await self.by_id(game_id)
                if snap.row.status == "active" and snap.decisions_for(seat):
                    await self._cover(snap, seat, None, "bot", None, bots=bots)
                    made.append(seat)
            due.forced = made
            return due

    async def _fire_timers(self, game_id: int, *, bots: bool = True) -> list[tuple[int, str]]:
        """Apply the expiry of every timer of the game that has run out (under the game's
        lock). Each is an ordinary action committed with its time, marked as the timer's,
        in the transaction that marks the timer fired: a crash or a restart never fires a
        timer twice, and replay from the seed applies the same choice. Bots that the
        expiry unblocks then move (with ``bots``; else they are owed), and new timers
        start."""
        fired: list[tuple[int, str]] = []
        for _ in range(MAX_BOT_STEPS):
            snap = await self.by_id(game_id)
            if snap.row.status != "active" or snap.row.paused is not None:
                break  # (paused: nobody can see the table, its clocks wait for it)
            await self.sync_timers(snap)
            now = self.clock.now()
            decision = self.due_timer(snap, now)
            if decision is None or decision.timer is None:
                break
            timer = decision.timer
            steps: list[Step] = []
            try:
                after = await self._commit(
                    snap, decision.seat, timer.option, None, False, steps, timer=timer.key
                )
            except HostError as err:
                if err.code == "host.error.stale":
                    break  # moved meanwhile (another process): the next tick looks again
                raise
            except IllegalMove as err:  # the game refused what it offered; never retry
                log.warning("game %s: timer %s refused: %s", game_id, timer.key, err)
                await self.store.drop_timer(game_id, timer.key, now)
                continue
            fired.append((decision.seat, timer.key))
            if bots:
                await self._run_bots(after, steps)
        return fired

    async def next_timer(self) -> float | None:
        """When the soonest running timer of an active game runs out (for the tick)."""
        return await self.store.next_timer_due()

    async def cover(
        self,
        game_id: int,
        seat: int,
        token: str | None,
        kind: str,
        who: Player,
        *,
        bots: bool = True,
    ) -> Snapshot:
        """A deadline passed: another player skips the absent seat's move or lets a bot
        play it. Counts a miss; enough misses put the seat on autopilot. The bot moves it
        unblocks: as :meth:`pace`'s ``bots``."""
        async with self.locks[game_id]:
            snap = await self._active(game_id)
            me = self._player_seat(snap, who)
            if me == seat:
                raise HostError("host.error.cover_self")
            if not (0 <= seat < len(snap.seats)) or not snap.decisions_for(seat):
                raise HostError("host.error.stale")
            if token is not None and snap.token(snap.decisions_for(seat)[0]) != token:
                raise HostError("host.error.stale")
            since = (await self.store.waits(game_id)).get(seat)
            deadline = (
                pacing.deadline_at(since[0], snap.row.host_options.get("deadline"))
                if since
                else None
            )
            if deadline is None or self.clock.now() < deadline:
                raise HostError("host.error.deadline_not_passed")
            return await self._cover(snap, seat, token, kind, who, bots=bots)

    async def _cover(
        self,
        snap: Snapshot,
        seat: int,
        token: str | None,
        kind: str,
        who: Player | None,
        *,
        bots: bool = True,
    ) -> Snapshot:
        """Play the absent seat's move (under the game's lock). A move made of several
        secret steps (an order composed cube by cube) is finished in one go: the bot keeps
        choosing while its steps tell the table nothing. One cover, one miss."""
        if kind == "skip":
            choice = self.skip_pick(snap, seat)
            if choice is None:
                raise HostError("host.error.cannot_skip")
        else:
            choice = await self.bot_pick(snap, seat)
        steps: list[Step] = []
        by = who.user_id if who else None
        after = await self._commit(snap, seat, choice, by, True, steps)
        for _ in range(MAX_BOT_STEPS):
            last = steps[-1]
            secret_only = not public_move([event_dict(e) for e in last.events])
            if not (secret_only and after.row.status == "active" and after.decisions_for(seat)):
                break
            choice = await self.bot_pick(after, seat)
            after = await self._commit(after, seat, choice, by, True, steps)
        missed = snap.seats[seat].missed + 1
        limit = pacing.autopilot_after(snap.row.host_options.get("autopilot"))
        autopilot = limit is not None and missed >= limit
        await self.store.update_seat(
            snap.id,
            seat,
            missed=missed,
            **({"is_bot": True, "autopilot": True} if autopilot else {}),
        )
        after = await self.by_id(snap.id)
        if bots:
            after = await self._run_bots(after, steps)
        await self.sync_waits(after)
        return after

    async def take_back(self, game_id: int, who: Player) -> Snapshot:
        """The owner of a seat on autopilot plays it again."""
        async with self.locks[game_id]:
            snap = await self._active(game_id)
            seat = next(
                (s.seat for s in snap.seats if s.user_id == who.user_id and s.autopilot), None
            )
            if seat is None:
                raise HostError("host.error.not_on_autopilot")
            await self.store.update_seat(game_id, seat, is_bot=False, autopilot=False, missed=0)
            after = await self.by_id(game_id)
            await self.sync_waits(after)
            return after
