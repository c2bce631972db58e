"""A move: the click checked (whose turn, which decision, which option), applied through
the game's rules and committed in one transaction with everything it changes; and the bots,
who pick their moves off the game's lock and commit them the same way."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable
from dataclasses import replace

from core.contract import (
    Decision,
    Event,
    IllegalMove,
    answers,
    apply_checked,
    check_picks,
    join_picks,
    random_answer,
    seats_pending,
    split_picks,
    standing_of,
)
from host import botpool, pacing, registry, skill
from host.dbfaults import StorageDown, move_stored, storage_fault
from host.records import TIMER_EVENT, Gone, HostError, Outcome, Snapshot, Step, event_dict
from host.storage import Move, VersionConflict
from host.waits import Waits, wake_time

log = logging.getLogger(__name__)

MAX_BOT_STEPS = 5000


class Play(Waits):
    """Playing a move, a person's or a bot's, and the results of a game that ends."""

    # -- play ---------------------------------------------------------------------------

    def check_turn(self, snap: Snapshot, user_id: int, seat: int, token: str) -> Decision:
        """The decision a click answers, or a HostError saying why it cannot be played."""
        if snap.row.status == "lobby":
            raise HostError("host.error.not_started")
        if snap.row.status != "active":
            raise HostError("host.error.game_over")
        if not (0 <= seat < len(snap.seats)):
            raise HostError("host.error.stale")
        owner = snap.seats[seat]
        if owner.is_bot and owner.autopilot and owner.user_id == user_id:
            raise HostError("host.error.on_autopilot")
        if owner.is_bot or owner.user_id != user_id:
            if snap.seat_of(user_id) is None:
                raise HostError("host.error.not_a_player")
            raise HostError("host.error.not_your_button")
        for d in [*snap.decisions_for(seat), *snap.standing_for(seat)]:
            if snap.token(d) == token:
                return d
        if not snap.decisions_for(seat) and not snap.standing_for(seat):
            waiting = snap.human_to_move()
            raise HostError("host.error.not_your_turn", waiting=waiting)
        raise HostError("host.error.stale")

    def check_choice(self, snap: Snapshot, decision: Decision, choice: str) -> str:
        """The answer to store for ``choice`` (multi-pick ids in the decision's order), or
        a HostError: :class:`Gone` for an option no longer offered (with the game's
        sentence, e.g. who took it, when it has a ``gone_reason`` hook), else why the picks
        do not answer the decision."""
        picks = split_picks(choice) if decision.multi else [choice]
        for pick in picks:
            if decision.option(pick) is None:
                raise self.gone(snap, decision.seat, pick)
        try:
            check_picks(decision, choice)
        except IllegalMove as err:
            raise HostError(err.code, **err.args_) from None
        return join_picks(decision, picks) if decision.multi else choice

    @staticmethod
    def gone(snap: Snapshot, seat: int, option_id: str) -> Gone:
        hook = getattr(snap.game, "gone_reason", None)
        reason = hook(snap.state, seat, option_id) if hook is not None else None
        if reason is None:
            return Gone("host.error.gone")
        key, args = reason
        return Gone(key, **dict(args))

    async def play(
        self, game_id: int, user_id: int, seat: int, token: str, choice: str, *, bots: bool = True
    ) -> Outcome:
        """Apply a player's choice, committed. With ``bots``, the bot moves it unblocks are
        made at once (each committed); without, they are owed, for :meth:`play_bots` to make
        once the player's move has been shown (the Discord layer does that).

        A storage fault under the move's commit leaves its fate to be read back
        (:meth:`_stored_anyway`). Letting go of the game's lock never hides it: the stores
        do not raise over work done when a connection cannot be handed back (on
        PostgreSQL, ``storage_pg._hand_back``)."""
        async with self.locks[game_id]:
            before = await self.by_id(game_id)
            decision = self.check_turn(before, user_id, seat, token)
            choice = self.check_choice(before, decision, choice)
            steps: list[Step] = []
            try:
                after = await self._commit(before, seat, choice, user_id, False, steps)
            except Exception as err:
                if not storage_fault(err):
                    raise
                failed = err
            else:
                if bots:
                    after = await self._run_bots(after, steps)
                return Outcome(before=before, after=after, steps=steps)
        # Read back once the lock is released: the connection lost may be the lock's own.
        # (The bots a stored move unblocks are owed: the pacing tick makes their moves.)
        after = await self._stored_anyway(before, seat, user_id, choice, failed)
        return Outcome(before=before, after=after, steps=steps)

    async def _stored_anyway(
        self, before: Snapshot, seat: int, user_id: int, choice: str, err: Exception
    ) -> Snapshot:
        """The database failed under a move (e.g. the connection was lost during its
        COMMIT, or right after it, or the COMMIT and its ROLLBACK both failed): read what is
        durable (:func:`host.dbfaults.move_stored`: outside the move's transaction, which
        the store has ended by now) and go on as committed if the move is stored; else say
        that it was not made, or, when the storage does not answer that either, that it
        cannot tell yet."""
        stored = await move_stored(
            self.store,
            before.id,
            after_seq=sum(before.moves_by_seat.values()),
            seat=seat,
            user_id=user_id,
            choice=choice,
        )
        if stored is None:
            raise StorageDown("host.error.storage_unsure") from err
        if not stored:
            raise StorageDown("host.error.storage_not_made") from err
        log.warning("game %s: the move is stored although its commit failed (%r)", before.id, err)
        after = await self.by_id(before.id)
        if after.row.status == "over":
            # The game's last move: its results are written after its commit (idempotent).
            await self._save_results(after)
        return after

    async def _commit(
        self,
        snap: Snapshot,
        seat: int,
        choice: str,
        user_id: int | None,
        by_bot: bool,
        steps: list[Step],
        timer: str | None = None,
    ) -> Snapshot:
        state, events = apply_checked(snap.game, snap.state, seat, choice, timer=timer is not None)
        if timer is not None:  # the log tells whose time ran out, before what it did
            events = [Event(TIMER_EVENT, seat=seat), *events]
        over = snap.game.result(state) is not None
        now = self.clock.now()
        decisions = [] if over else snap.game.pending(state)
        waits = snap.waits if snap.waits is not None else await self.store.waits(snap.id)
        since = waits.get(seat)
        # Whom the game waits for after this move, and the timers of its open decisions,
        # written in the move's own transaction (one commit, one disk sync per move): only
        # what changed (the waits were read with the game, under its lock).
        keep = self._waits_after(snap, waits, seats_pending(decisions), acted=seat, now=now)
        opened, closed = ([], set()) if over else self._timer_changes(snap.timers, decisions)
        dumped = snap.game.dump(state)
        bots_owed = any(not snap.human(d.seat) for d in decisions)
        wake = wake_time(keep, snap.row.host_options, now, bot_owes=bots_owed)
        try:
            version = await self.store.commit_action(
                Move(
                    snap.id,
                    snap.row.version,
                    seat=seat,
                    choice=choice,
                    by_user=user_id,
                    by_bot=by_bot,
                    events=[event_dict(e) for e in events],
                    state=dumped,
                    over=over,
                    now=now,
                    think=None
                    if by_bot or timer is not None or since is None
                    else max(0.0, now - since[0]),
                    timer=timer,
                    waits=None if keep == waits and wake == snap.row.wake_at else keep,
                    wake_at=wake,
                    waits_was=waits,
                    timers_opened=opened,
                    timers_closed=closed,
                )
            )
        except VersionConflict:
            raise HostError("host.error.stale") from None
        steps.append(Step(seat, choice, by_bot, tuple(events)))
        # The game after the move, from memory: what a reload would read, without one.
        moves = dict(snap.moves_by_seat)
        seq = sum(moves.values()) + 1  # every action ever, undone ones too: seq 1..n
        moves[seat] = moves.get(seat, 0) + 1
        timers = self._timers_after(snap, opened, closed, now)
        if timer is not None and timer in timers:
            timers[timer] = replace(timers[timer], fired_at=now, fired_seq=seq)
        after = Snapshot(
            row=replace(
                snap.row,
                version=version,
                state=dumped,
                updated_at=now,
                status="over" if over else snap.row.status,
                finished_at=now if over else snap.row.finished_at,
                wake_at=wake,
            ),
            seats=snap.seats,
            game=snap.game,
            state=state,
            decisions=decisions,
            standing=[] if over else standing_of(snap.game, state),
            moves_by_seat=moves,
            timers=timers,
            waits=keep,
        )
        if over:
            await self._save_results(after)
        return after

    # -- bots ---------------------------------------------------------------------------

    @staticmethod
    def level_of(snap: Snapshot, seat: int) -> str:
        """How well a bot plays ``seat``: a bot seat's own level (chosen in the lobby), else
        (a seat on autopilot, an absent player's move) the game's ``botlevel`` option."""
        s = snap.seats[seat] if 0 <= seat < len(snap.seats) else None
        if s is not None and s.is_bot and not s.autopilot and s.level in pacing.BOT_LEVELS:
            return s.level
        level = snap.row.host_options.get("botlevel")
        return level if level in pacing.BOT_LEVELS else pacing.DEFAULT_BOT_LEVEL

    async def bot_pick(self, snap: Snapshot, seat: int) -> str:
        """A bot's answer for ``seat``: the search engine at the seat's level, off the event
        loop (a search takes up to a couple of seconds), from a generator seeded by the game
        and its version, so a position always gives the same move. Games the engine cannot
        search play their own heuristic (the engine's rule); a search that fails plays the
        game's heuristic, else a random answer (a bot never blocks a game)."""
        seed = f"{snap.row.seed}:bot:{snap.row.version}:{seat}"
        try:
            choice: str | None = await self._search(snap, seat, seed)
        except Exception:  # a bot must never block a game: fall back to the plainest move
            log.exception("game %s: the bot of seat %s could not search", snap.id, seat)
            choice = None
        offered = snap.decisions_for(seat)
        if choice is not None and any(answers(d, choice) for d in offered):
            return choice
        if choice is not None:  # e.g. a game's own spelling of a multi-pick answer
            log.warning("game %s: seat %s's bot answered %r, not offered", snap.id, seat, choice)
        pick = getattr(snap.game, "bot_choice", None)
        if pick is not None:
            choice = str(pick(snap.state, seat, random.Random(seed)))
            if any(answers(d, choice) for d in offered):
                return choice
        return random_answer(offered[0], random.Random(seed))

    async def _search(self, snap: Snapshot, seat: int, seed: str) -> str:
        """The search of :meth:`bot_pick`: in a bot worker process (host/botpool.py), the
        state passed as its stored dump, when the bot runs a pool and the game is one of the
        registry's; else (no pool, one that cannot search, a chooser of the tests') in a
        worker thread. The same answer either way."""
        level = self.level_of(snap, seat)
        budget = self.bot_budgets.get(level, level)
        dumped = snap.row.state
        pool = None if self._chooser else botpool.searcher(snap.game, snap.row.game, dumped)
        if pool is not None and dumped is not None:
            searched, choice = await pool.choose(snap.row.game, dumped, seat, seed, budget)
            if searched and choice is not None:
                return choice
        choose = self._chooser or registry.bot_chooser()
        args = (snap.game, snap.state, seat, random.Random(seed), budget)
        return str(await asyncio.to_thread(choose, *args))

    async def play_bots(self, game_id: int) -> list[Step]:
        """Make the moves the bot seats owe, one at a time, until a person is to move or the
        game is over. Each move is thought out off the game's lock (a person's click meanwhile
        is not kept waiting, and stale clicks are refused as ever) and committed under it
        only if the game has not moved since; else it is thought again on the new position.
        The steps committed (none: no bot owed a move)."""
        steps: list[Step] = []
        for _ in range(MAX_BOT_STEPS):
            snap = await self.by_id(game_id)
            seat = self.bot_to_move(snap)
            if seat is None:
                return steps
            choice = await self.bot_pick(snap, seat)
            async with self.locks[game_id]:
                now = await self.by_id(game_id)
                if now.row.version != snap.row.version or self.bot_to_move(now) != seat:
                    continue  # moved meanwhile: think again
                try:
                    await self._commit(now, seat, choice, None, True, steps)
                except HostError as err:
                    if err.code != "host.error.stale":  # (another process moved first)
                        raise
        raise RuntimeError(f"game {game_id}: bots did not stop after {MAX_BOT_STEPS} moves")

    async def bots_owed(self, game_ids: Iterable[int] | None = None) -> list[int]:
        """Active games (among ``game_ids``; None: all of them, once at start-up) where a bot
        seat is to move: after a restart, or a failed attempt, nothing else will make that
        move. The caller plays them (:meth:`play_bots`), skipping games whose bots it is
        already moving. The tick passes the games that are due: a game owing a bot move is
        due (its ``wake_at`` is set when the move that leaves it to a bot is committed)."""
        owed = []
        if game_ids is None:
            rows = await self.store.active_games()
        else:
            rows = [r for r in [await self.store.game(g) for g in game_ids] if r is not None]
        for row in rows:
            if row.status == "active" and self.bot_to_move(await self.snapshot(row)) is not None:
                owed.append(row.id)
        return owed

    @staticmethod
    def skip_pick(snap: Snapshot, seat: int) -> str | None:
        """The "do nothing" option of the seat's decision, if the game has one: the first
        offered of the game's ``skip_options`` (e.g. stay aboard, keep drifting)."""
        offered = {o.id for d in snap.decisions_for(seat) for o in d.options}
        for option_id in getattr(snap.game, "skip_options", ()):
            if option_id in offered:
                return str(option_id)
        return None

    async def _run_bots(self, snap: Snapshot, steps: list[Step]) -> Snapshot:
        for _ in range(MAX_BOT_STEPS):
            if snap.row.status != "active":
                return snap
            bots = [s for s in snap.to_move() if not snap.human(s)]
            if not bots:
                return snap
            seat = bots[0]
            choice = await self.bot_pick(snap, seat)
            snap = await self._commit(snap, seat, choice, None, True, steps)
        raise RuntimeError(f"game {snap.id}: bots did not stop after {MAX_BOT_STEPS} moves")

    # -- results ------------------------------------------------------------------------

    async def _save_results(self, snap: Snapshot) -> None:
        result = snap.result()
        if result is None:
            return
        actions = await self.store.actions(snap.id)
        with_bots = any(s.is_bot or s.autopilot for s in snap.seats) or any(
            a.by_bot for a in actions
        )
        now = self.clock.now()
        await self.store.save_results(
            [
                (
                    snap.id,
                    s.seat,
                    s.user_id,
                    snap.row.guild_id,
                    snap.row.game,
                    result.scores[s.seat],
                    result.ranks[s.seat],
                    int(with_bots),
                    now,
                )
                for s in snap.seats
            ],
            # Rated in the same transaction (see host/ratings.py).
            players=[skill.player_key(s.user_id, s.level) for s in snap.seats],
        )
