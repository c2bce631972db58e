"""A game's past: taking back the last move, voting it back to the start of the round, and
replaying the action log from the seed (for a recap, and to audit the stored state)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from host.play import Play
from host.records import HostError, Player, Snapshot, public_move
from host.storage import ActionRow, VersionConflict

#: How many games' replays are kept in memory at once, and for how long (seconds): a
#: viewer's clicks come in bursts, each one would otherwise replay the whole log again.
REPLAY_CACHE = 4
REPLAY_TTL = 300.0


@dataclass(frozen=True)
class Replay:
    """A game's steps as the replay viewer shows them: the start, then the table after each
    move that told the table something (a move made in secret shows nothing: the channel
    never learnt of it, and its effect appears with the next public move). A finished
    game's last step is always its final table."""

    #: The game's version the steps were built at.
    version: int
    #: The public view (``view(state, None)``) at each step.
    views: list[dict[str, Any]]
    #: The move that led to each step (None: the start).
    actions: list[ActionRow | None]

    @property
    def last(self) -> int:
        return len(self.views) - 1

    def rounds(self) -> list[Any]:
        """The round of each step (None where the game has none)."""
        return [v.get("round") for v in self.views]


class History(Play):
    """Undo, rollback and replay."""

    #: The replay viewer's games lately rebuilt: game id -> (when built, its replay), the
    #: least recently used first (see :meth:`replay_steps`). Made on first use: the host's
    #: parts have no ``__init__`` of their own (:class:`host.base.HostBase` has the one).
    _replay_cache: OrderedDict[int, tuple[float, Replay]] | None = None

    # -- undo and rollback --------------------------------------------------------------

    @staticmethod
    def _states(snap: Snapshot, actions: Iterable[Any]) -> Iterator[Any]:
        """The game's state at its start, then after each of ``actions`` in turn: the seeded
        engine replaying the stored log (every replay below walks it this way)."""
        state = snap.game.new(len(snap.seats), snap.row.options, snap.row.seed)
        yield state
        for a in actions:
            state, _ = snap.game.apply(state, a.seat, a.choice)
            yield state

    def _replay(self, snap: Snapshot, actions: list[Any]) -> Any:
        *_, state = self._states(snap, actions)
        return state

    async def undoable(
        self, snap: Snapshot, recent: list[ActionRow] | None = None
    ) -> tuple[int, int] | None:
        """(seat, seq) of the last action if its player may still take it back: a person's
        choice that revealed nothing, with nobody (not even a bot) acting since. Never while
        a secret choice is open: the table must not change when someone makes one.
        ``recent``: the game's latest live actions as read already (not read again)."""
        if snap.row.status != "active" or any(d.private for d in snap.decisions):
            return None
        if recent is not None:
            last = recent[-1:]
        else:
            last = await self.store.actions(snap.id, limit=1)
        if not last:
            return None
        a = last[-1]
        if a.by_bot or a.by_user is None or any(e.get("reveals") for e in a.events):
            return None
        if not public_move(a.events):
            return None  # secret choices are changed with their own buttons, in private
        return a.seat, a.seq

    async def undo(self, game_id: int, who: Player) -> Snapshot:
        async with self.locks[game_id]:
            snap = await self._active(game_id)
            seat = self._player_seat(snap, who)
            if any(d.private for d in snap.decisions):
                # One answer for everyone while secrets are being chosen: whether an undo
                # would work must not tell anyone that somebody has started choosing.
                raise HostError("host.error.undo_secret_phase")
            actions = await self.store.actions(game_id)
            if not actions:
                raise HostError("host.error.undo_nothing")
            last = actions[-1]
            if last.seat != seat or last.by_bot:
                raise HostError("host.error.undo_not_last")
            if last.timer is not None:
                raise HostError("host.error.undo_timer")
            if any(e.get("reveals") for e in last.events):
                raise HostError("host.error.undo_revealed")
            if not public_move(last.events):
                raise HostError("host.error.undo_private")
            state = self._replay(snap, actions[:-1])
            try:
                await self.store.undo_actions(
                    game_id,
                    snap.row.version,
                    [last.seq],
                    "undo",
                    snap.game.dump(state),
                    self.clock.now(),
                )
            except VersionConflict:
                raise HostError("host.error.stale") from None
            after = await self.by_id(game_id)
            await self.sync_waits(after, acted=seat)
            return after

    async def rollback(
        self, game_id: int, who: Player, *, bots: bool = True
    ) -> tuple[Snapshot, str, int, int]:
        """Vote (players) or force (Manage Channels) going back to the start of the current
        round (bots then move at once with ``bots``, else are owed their moves). Returns the
        snapshot, "rolled"/"voted", votes so far, votes needed."""
        async with self.locks[game_id]:
            snap = await self._active(game_id)
            actions = await self.store.actions(game_id)
            rounds = [snap.game.view(s, None).get("round") for s in self._states(snap, actions)]
            # the start of the current round: where its last unbroken run began (a round
            # number may come back, e.g. each flight of a Galaxy Trucker Trek counts cards
            # from 1 again)
            keep = len(actions)
            while keep > 0 and rounds[keep - 1] == rounds[-1]:
                keep -= 1
            if keep == len(actions):
                raise HostError("host.error.rollback_nothing")
            humans = {s.user_id for s in snap.seats if not s.is_bot and s.user_id is not None}
            needed = len(humans) // 2 + 1
            if not who.can_manage:
                if who.user_id not in humans:
                    raise HostError("host.error.not_a_player")
                kind = f"rollback:{keep}"  # a vote counts for the round it was cast in
                votes = await self.store.vote(game_id, kind, who.user_id, self.clock.now())
                votes &= humans
                if len(votes) < needed:
                    return snap, "voted", len(votes), needed
            state = self._replay(snap, actions[:keep])
            try:
                await self.store.undo_actions(
                    game_id,
                    snap.row.version,
                    [a.seq for a in actions[keep:]],
                    "rollback",
                    snap.game.dump(state),
                    self.clock.now(),
                )
            except VersionConflict:
                raise HostError("host.error.stale") from None
            await self.store.clear_votes(game_id, "rollback:%")
            after = await self.by_id(game_id)
            if bots:
                after = await self._run_bots(after, [])
            await self.sync_waits(after)
            return after, "rolled", needed, needed

    async def replay_views(self, game_id: int, frames: int = 24) -> list[dict[str, Any]]:
        """Public views sampled along the game (first and last included), for a recap."""
        snap = await self.by_id(game_id)
        actions = await self.store.actions(game_id)
        marks = {round(i * len(actions) / max(frames - 1, 1)) for i in range(frames)} | {0}
        return [
            snap.game.view(state, None)
            for i, state in enumerate(self._states(snap, actions))
            if i in marks
        ]

    # -- the replay viewer ---------------------------------------------------------------

    async def replay_steps(self, game_id: int) -> tuple[Snapshot, Replay]:
        """The game and its :class:`Replay`, rebuilt from the seed and the stored log (kept
        for :data:`REPLAY_TTL` seconds while the game's version stays the same, for at most
        :data:`REPLAY_CACHE` games). A lobby has no replay."""
        snap = await self.by_id(game_id)
        if snap.row.state is None:
            raise HostError("host.replay.not_started")
        cache = self._replay_cache
        if cache is None:
            cache = self._replay_cache = OrderedDict()
        now = self.clock.now()
        hit = cache.get(game_id)
        if hit is not None and hit[1].version == snap.row.version and now - hit[0] < REPLAY_TTL:
            cache.move_to_end(game_id)
            return snap, hit[1]
        actions = await self.store.actions(game_id)
        over = snap.row.status != "active"

        def build() -> Replay:  # off the event loop: a long game takes a while
            states = self._states(snap, actions)
            views = [snap.game.view(next(states), None)]
            steps: list[ActionRow | None] = [None]
            for i, (a, state) in enumerate(zip(actions, states, strict=True), start=1):
                if public_move(a.events) or (over and i == len(actions)):
                    views.append(snap.game.view(state, None))
                    steps.append(a)
            return Replay(snap.row.version, views, steps)

        replay = await asyncio.to_thread(build)
        now = self.clock.now()
        cache[game_id] = (now, replay)
        cache.move_to_end(game_id)
        while len(cache) > REPLAY_CACHE:
            cache.popitem(last=False)
        return snap, replay

    def forget_replays(self) -> None:
        """Drop the replays kept: the next :meth:`replay_steps` of any game rebuilds it."""
        self._replay_cache = None

    # -- audit --------------------------------------------------------------------------

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Replay the action log from the seed; the dump must equal the stored state."""
        snap = await self.by_id(game_id)
        return snap.game.dump(self._replay(snap, await self.store.actions(game_id)))
