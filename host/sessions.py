"""Sessions: one game per channel, from lobby to final scores. No discord here.

The :class:`Host` is the only writer of games. Every change follows one pipeline under the
game's lock: load from storage → check → apply → commit (one transaction) → report what
happened; the Discord layer then renders and publishes. Nothing is kept in memory between
calls except the locks, so a restarted process continues every game from the database.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from core.contract import (
    Decision,
    Event,
    Game,
    IllegalMove,
    OptionSpec,
    Result,
    answers,
    apply_checked,
    check_picks,
    join_picks,
    random_answer,
    seats_pending,
    split_picks,
    standing_of,
)
from host import pacing, registry
from host.clock import Clock
from host.locks import KeyedLocks
from host.storage import (
    ChannelBusy,
    GameRow,
    Loaded,
    Move,
    SeatRow,
    Storage,
    TimerRow,
    VersionConflict,
)

log = logging.getLogger(__name__)

MAX_BOT_STEPS = 5000
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


class HostError(IllegalMove):
    """A request the host refuses; ``code`` is an i18n key under ``host.error``."""


class Gone(HostError):
    """The clicked option is no longer offered (someone else's move took it away); the
    question itself is still open. ``code`` is the game's reason or ``host.error.gone``."""


@dataclass(frozen=True)
class Player:
    """Who is asking: a Discord user, as the host needs to know them."""

    user_id: int
    name: str
    locale: str = "en"
    can_manage: bool = False


@dataclass
class Snapshot:
    """A game as loaded from storage, with its rules object and derived facts."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    state: Any = None
    decisions: list[Decision] = field(default_factory=list)
    #: The game's standing decisions (see :func:`core.contract.standing_of`): never "to move".
    standing: list[Decision] = field(default_factory=list)
    moves_by_seat: dict[int, int] = field(default_factory=dict)
    #: The game's timers seen so far, by key.
    timers: dict[str, TimerRow] = field(default_factory=dict)
    #: Whom the game waits for: seat -> (since, nudges sent, deadline state); None when
    #: not loaded with the snapshot.
    waits: dict[int, tuple[float, int, int]] | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_bot:
                return s.seat
        return None

    def owned_seat(self, user_id: int) -> int | None:
        """The user's seat, also while a bot plays it for them (autopilot)."""
        for s in self.seats:
            if s.user_id == user_id and (not s.is_bot or s.autopilot):
                return s.seat
        return None

    def human(self, seat: int) -> bool:
        return not self.seats[seat].is_bot

    def token(self, decision: Decision) -> str:
        return decision.token(self.moves_by_seat.get(decision.seat, 0))

    def decisions_for(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]

    def standing_for(self, seat: int) -> list[Decision]:
        return [d for d in self.standing if d.seat == seat]

    def to_move(self) -> list[int]:
        return sorted({d.seat for d in self.decisions})

    def human_to_move(self) -> list[int]:
        return [s for s in self.to_move() if self.human(s)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def result(self) -> Result | None:
        return self.game.result(self.state) if self.state is not None else None

    def running_timers(self) -> list[tuple[float, list[int]]]:
        """(when it runs out, seats it runs for) of each running timer of the open
        decisions, soonest first. A key shared by several seats is one timer."""
        seats: dict[str, list[int]] = {}
        for d in sorted(self.decisions, key=lambda d: d.seat):
            row = self.timers.get(d.timer.key) if d.timer is not None else None
            if row is not None and row.running:
                on = seats.setdefault(row.key, [])
                if d.seat not in on:
                    on.append(d.seat)
        return sorted((self.timers[key].due, on) for key, on in seats.items())


@dataclass(frozen=True)
class Step:
    """One applied choice, for reporting."""

    seat: int
    choice: str
    by_bot: bool
    events: tuple[Event, ...]


@dataclass
class Outcome:
    """What a play produced: the snapshot before and after, and every step applied (the
    player's own, then any bot moves that followed)."""

    before: Snapshot
    after: Snapshot
    steps: list[Step]

    @property
    def events(self) -> list[tuple[int, Event]]:
        return [(s.seat, e) for s in self.steps for e in s.events]


@dataclass
class Due:
    """Pacing work for one game: nudges (seat, nudge number, waiting since), seats whose
    deadline just passed, seats a bot had to play for (deadline passed twice over), and
    timers that ran out (seat, timer key), their expiry already applied."""

    game_id: int
    nudges: list[tuple[int, int, float]] = field(default_factory=list)
    expired: list[int] = field(default_factory=list)
    forced: list[int] = field(default_factory=list)
    timed: list[tuple[int, str]] = field(default_factory=list)


#: The event a timer's move starts with in the action log (an i18n key: "X ran out of time").
TIMER_EVENT = "host.timer.ran_out"


def public_move(events: list[dict[str, Any]]) -> bool:
    """Did this move tell the table anything? Moves that only changed a seat's secret
    (a cube added to a hidden order) are not undone from the table, so the channel never
    learns that someone was composing in private."""
    return any(e.get("private_to") is None for e in events)


def event_dict(e: Event) -> dict[str, Any]:
    d = asdict(e)
    d["args"] = dict(e.args)
    return d


def event_from(d: dict[str, Any]) -> Event:
    return Event(
        code=d["code"],
        args=d.get("args", {}),
        seat=d.get("seat"),
        private_to=d.get("private_to"),
        reveals=bool(d.get("reveals", False)),
    )


class Host:
    def __init__(
        self,
        store: Storage,
        clock: Clock | None = None,
        seeds: random.Random | None = None,
        games: Callable[[], dict[str, Game]] = registry.games,
        chooser: registry.Chooser | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or Clock()
        self.seeds = seeds or random.SystemRandom()
        self._games = games
        #: How bots pick (default: the search engine, ``registry.bot_chooser()``).
        self._chooser = chooser
        #: Test-only: what a level name stands for when handed to the chooser (e.g. a
        #: smaller budget of the engine); levels not listed are passed by name.
        self.bot_budgets: dict[str, Any] = {}
        # One game at a time in this process, and across processes where the store can.
        self.locks = KeyedLocks(across=store.lock_game)

    def game(self, game_id: str) -> Game:
        try:
            return self._games()[game_id]
        except KeyError:
            raise HostError("host.error.unknown_game", game=game_id) from None

    # -- loading ------------------------------------------------------------------------

    async def snapshot(self, row: GameRow) -> Snapshot:
        """The game of ``row`` with its seats and derived facts. Seats and move counts are
        read again here, consistently (never in the middle of another task's write)."""
        async with self.store.reading():
            loaded = await self.store.load(row.id)
        if loaded is None:
            loaded = Loaded(row, await self.store.seats(row.id), {}, {}, {})
        return self._load(loaded)

    def _load(self, loaded: Loaded) -> Snapshot:
        row = loaded.row
        game = self.game(row.game)
        snap = Snapshot(row=row, seats=loaded.seats, game=game, waits=loaded.waits)
        snap.timers = loaded.timers
        if row.state is not None:
            snap.state = game.load(row.state)
            if row.status == "active":
                snap.decisions = game.pending(snap.state)
                snap.standing = standing_of(game, snap.state)
            snap.moves_by_seat = loaded.moves_by_seat
        return snap

    async def by_id(self, game_id: int) -> Snapshot:
        """The game, read in one statement (see :meth:`Storage.load`). An id no database
        integer can hold (a forged custom_id) names no game either."""
        if not -(2**63) <= game_id < 2**63:
            raise HostError("host.error.no_game")
        async with self.store.reading():
            loaded = await self.store.load(game_id)
        if loaded is None:
            raise HostError("host.error.no_game")
        return self._load(loaded)

    async def in_channel(self, channel_id: int) -> Snapshot:
        async with self.store.reading():
            loaded = await self.store.load(channel=channel_id)
        if loaded is None:
            raise HostError("host.error.no_game")
        return self._load(loaded)

    # -- lobby --------------------------------------------------------------------------

    async def new_lobby(
        self, *, guild_id: int | None, channel_id: int, game_id: str, owner: Player, lang: str
    ) -> Snapshot:
        game = self.game(game_id)
        options = {o.id: o.default for o in game.options}
        try:
            gid = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_id,
                options=options,
                seed=self.seeds.randrange(1, 2**31),
                lang=lang,
                owner_id=owner.user_id,
                now=self.clock.now(),
            )
        except ChannelBusy:
            raise HostError("host.error.channel_busy") from None
        await self.store.set_seats(gid, [self._seat_for(gid, owner)])
        reminders = None
        if guild_id is not None:
            _, reminders = await self.store.guild_settings(guild_id)
        await self.store.update_game(
            gid, self.clock.now(), host_options=pacing.defaults(reminders)
        )
        return await self.by_id(gid)

    @staticmethod
    def _seat_for(gid: int, p: Player) -> SeatRow:
        return SeatRow(gid, 0, p.user_id, False, p.name, p.locale, True)

    async def _lobby(self, game_id: int) -> Snapshot:
        snap = await self.by_id(game_id)
        if snap.row.status != "lobby":
            raise HostError("host.error.lobby_closed")
        return snap

    async def join(self, game_id: int, who: Player) -> Snapshot:
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if snap.seat_of(who.user_id) is not None:
                raise HostError("host.error.already_joined")
            if len(snap.seats) >= snap.game.max_players:
                raise HostError("host.error.lobby_full", max=snap.game.max_players)
            await self.store.set_seats(game_id, [*snap.seats, self._seat_for(game_id, who)])
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def add_bot(self, game_id: int, who: Player) -> Snapshot:
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if snap.seat_of(who.user_id) is None and not who.can_manage:
                raise HostError("host.error.not_in_lobby")
            if len(snap.seats) >= snap.game.max_players:
                raise HostError("host.error.lobby_full", max=snap.game.max_players)
            n = sum(1 for s in snap.seats if s.is_bot) + 1
            bot = SeatRow(
                game_id,
                len(snap.seats),
                None,
                True,
                f"Bot {n}",
                "en",
                False,
                level=pacing.DEFAULT_BOT_LEVEL,
            )
            await self.store.set_seats(game_id, [*snap.seats, bot])
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def cycle_bot_level(
        self, game_id: int, seat: int, who: Player, version: int | None = None
    ) -> Snapshot:
        """Switch a lobby's bot seat to the next level (easy → normal → hard → easy). With
        ``version`` (the lobby message's), a click on an out-of-date lobby is refused."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if version is not None and version != snap.row.version:
                raise HostError("host.error.stale")
            if snap.seat_of(who.user_id) is None and not who.can_manage:
                raise HostError("host.error.not_in_lobby")
            if not (0 <= seat < len(snap.seats)) or not snap.seats[seat].is_bot:
                raise HostError("host.error.stale")
            levels = pacing.BOT_LEVELS
            level = levels[(levels.index(self.level_of(snap, seat)) + 1) % len(levels)]
            await self.store.update_seat(game_id, seat, level=level)
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def leave(self, game_id: int, who: Player, *, bots: bool = True) -> tuple[Snapshot, str]:
        """Leave a lobby (seat removed; the lobby closes if no person is left), or hand
        one's seat in a running game to a bot (which moves at once with ``bots``, else is
        owed its moves: :meth:`play_bots`). Returns the snapshot and what happened."""
        async with self.locks[game_id]:
            snap = await self.by_id(game_id)
            seat = snap.seat_of(who.user_id)
            if seat is None:
                raise HostError("host.error.not_a_player")
            now = self.clock.now()
            if snap.row.status == "lobby":
                seats = [s for s in snap.seats if s.seat != seat]
                if not any(not s.is_bot for s in seats):
                    await self.store.finish(game_id, "abandoned", now)
                    return await self.by_id(game_id), "closed"
                await self.store.set_seats(game_id, seats)
                await self.store.bump_lobby(game_id, snap.row.version, now)
                return await self.by_id(game_id), "left"
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            await self.store.update_seat(game_id, seat, is_bot=True, autopilot=True)
            after = await self.by_id(game_id)
            if bots:
                after = await self._run_bots(after, [])
            # The seat's wait ends; a bot owed a move makes the game due (see _wake).
            await self.sync_waits(after)
            return await self.by_id(game_id), "bot"

    @staticmethod
    def lobby_options(snap: Snapshot) -> list[OptionSpec]:
        """The game's lobby options that apply with the values chosen so far: all of them,
        but those its optional ``unused_options(options)`` hook names (e.g. the hourglass
        of a game variant that has none), which the lobby neither lists nor switches."""
        hook = getattr(snap.game, "unused_options", None)
        unused = set(hook(dict(snap.row.options))) if hook is not None else set()
        return [o for o in snap.game.options if o.id not in unused]

    async def cycle_option(
        self, game_id: int, option_id: str, who: Player, version: int | None = None
    ) -> Snapshot:
        """Switch a lobby option to its next value. With ``version`` (the lobby message's),
        a click on an out-of-date lobby is refused: switching twice is not idempotent."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if version is not None and version != snap.row.version:
                raise HostError("host.error.stale")
            if snap.seat_of(who.user_id) is None and not who.can_manage:
                raise HostError("host.error.not_in_lobby")
            host_level = option_id.startswith("h.")
            specs = pacing.HOST_OPTIONS if host_level else self.lobby_options(snap)
            key = option_id.removeprefix("h.")
            spec = next((o for o in specs if o.id == key), None)
            if spec is None:
                raise HostError("host.error.not_offered")
            options = dict(snap.row.host_options if host_level else snap.row.options)
            current = options.get(spec.id, spec.default)
            i = spec.choices.index(current) if current in spec.choices else -1
            options[spec.id] = spec.choices[(i + 1) % len(spec.choices)]
            now = self.clock.now()
            field_name = "host_options" if host_level else "options"
            await self.store.bump_lobby(game_id, snap.row.version, now, **{field_name: options})
            return await self.by_id(game_id)

    async def start(self, game_id: int, who: Player, *, bots: bool = True) -> Outcome:
        """Deal the game. With ``bots`` the bot seats to move first move at once; without,
        they are owed their moves (see :meth:`play_bots`)."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if snap.seat_of(who.user_id) is None and not who.can_manage:
                raise HostError("host.error.not_in_lobby")
            n = len(snap.seats)
            if n < snap.game.min_players:
                raise HostError("host.error.too_few", min=snap.game.min_players, n=n)
            state = snap.game.new(n, snap.row.options, snap.row.seed)
            await self.store.start_game(
                game_id, snap.row.version, snap.row.seed, snap.game.dump(state), self.clock.now()
            )
            after = await self.by_id(game_id)
            steps: list[Step] = []
            if bots:
                after = await self._run_bots(after, steps)
            await self.sync_waits(after)
            return Outcome(before=snap, after=after, steps=steps)

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
        once the player's move has been shown (the Discord layer does that)."""
        async with self.locks[game_id]:
            before = await self.by_id(game_id)
            decision = self.check_turn(before, user_id, seat, token)
            choice = self.check_choice(before, decision, choice)
            steps: list[Step] = []
            after = await self._commit(before, seat, choice, user_id, False, steps)
            if bots:
                after = await self._run_bots(after, steps)
            return Outcome(before=before, after=after, steps=steps)

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
        """A bot's answer for ``seat``: the search engine at the seat's level, in a worker
        thread (a search takes up to a couple of seconds; the event loop goes on), from a
        generator seeded by the game and its version, so a position always gives the same
        move. Games the engine cannot search play their own heuristic (the engine's rule)."""
        seed = f"{snap.row.seed}:bot:{snap.row.version}:{seat}"
        level = self.level_of(snap, seat)
        choose = self._chooser or registry.bot_chooser()
        args = (
            snap.game,
            snap.state,
            seat,
            random.Random(seed),
            self.bot_budgets.get(level, level),
        )
        try:
            choice = str(await asyncio.to_thread(choose, *args))
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

    @staticmethod
    def bot_to_move(snap: Snapshot) -> int | None:
        """The first bot seat (autopilot included) the game waits for, if any. None while
        the game is paused (its channel is lost): its bots wait with its clocks."""
        if snap.row.status != "active" or snap.row.paused is not None:
            return None
        return next((s for s in snap.to_move() if not snap.human(s)), None)

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

    # -- pacing -------------------------------------------------------------------------

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
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            me = snap.seat_of(who.user_id)
            if me is None:
                raise HostError("host.error.not_a_player")
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
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            seat = next(
                (s.seat for s in snap.seats if s.user_id == who.user_id and s.autopilot), None
            )
            if seat is None:
                raise HostError("host.error.not_on_autopilot")
            await self.store.update_seat(game_id, seat, is_bot=False, autopilot=False, missed=0)
            after = await self.by_id(game_id)
            await self.sync_waits(after)
            return after

    # -- undo and rollback --------------------------------------------------------------

    def _replay(self, snap: Snapshot, actions: list[Any]) -> Any:
        state = snap.game.new(len(snap.seats), snap.row.options, snap.row.seed)
        for a in actions:
            state, _ = snap.game.apply(state, a.seat, a.choice)
        return state

    async def undoable(self, snap: Snapshot) -> tuple[int, int] | None:
        """(seat, seq) of the last action if its player may still take it back: a person's
        choice that revealed nothing, with nobody (not even a bot) acting since. Never while
        a secret choice is open: the table must not change when someone makes one."""
        if snap.row.status != "active" or any(d.private for d in snap.decisions):
            return None
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
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            seat = snap.seat_of(who.user_id)
            if seat is None:
                raise HostError("host.error.not_a_player")
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
            snap = await self.by_id(game_id)
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            actions = await self.store.actions(game_id)
            state = snap.game.new(len(snap.seats), snap.row.options, snap.row.seed)
            rounds = [snap.game.view(state, None).get("round")]
            for a in actions:
                state, _ = snap.game.apply(state, a.seat, a.choice)
                rounds.append(snap.game.view(state, None).get("round"))
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
        state = snap.game.new(len(snap.seats), snap.row.options, snap.row.seed)
        marks = {round(i * len(actions) / max(frames - 1, 1)) for i in range(frames)}
        views = [snap.game.view(state, None)]
        for i, a in enumerate(actions, start=1):
            state, _ = snap.game.apply(state, a.seat, a.choice)
            if i in marks:
                views.append(snap.game.view(state, None))
        return views

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
            ]
        )

    # -- ending -------------------------------------------------------------------------

    async def abandon(self, game_id: int, who: Player) -> tuple[Snapshot, str, int, int]:
        """Force (Manage Channels, or the owner of a lobby) or vote. Returns the snapshot,
        ``"abandoned"`` or ``"voted"``, votes so far and votes needed."""
        async with self.locks[game_id]:
            snap = await self.by_id(game_id)
            if not snap.row.live:
                raise HostError("host.error.game_over")
            humans = {s.user_id for s in snap.seats if not s.is_bot and s.user_id is not None}
            needed = len(humans) // 2 + 1
            now = self.clock.now()
            lobby_owner = snap.row.status == "lobby" and who.user_id == snap.row.owner_id
            if who.can_manage or lobby_owner:
                await self.store.finish(game_id, "abandoned", now)
                return await self.by_id(game_id), "abandoned", needed, needed
            if who.user_id not in humans:
                raise HostError("host.error.not_a_player")
            votes = await self.store.vote(game_id, "abandon", who.user_id, now) & humans
            if len(votes) >= needed:
                await self.store.finish(game_id, "abandoned", now)
                return await self.by_id(game_id), "abandoned", len(votes), needed
            return snap, "voted", len(votes), needed

    async def set_dm_open(self, game_id: int, seat: int, is_open: bool) -> None:
        await self.store.update_seat(game_id, seat, dm_open=is_open)

    async def remember_locale(self, snap: Snapshot, user_id: int, locale: str) -> None:
        seat = snap.seat_of(user_id)
        if seat is not None and snap.seats[seat].locale != locale:
            await self.store.update_seat(snap.id, seat, locale=locale)

    # -- audit --------------------------------------------------------------------------

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Replay the action log from the seed; the dump must equal the stored state."""
        snap = await self.by_id(game_id)
        state = snap.game.new(len(snap.seats), snap.row.options, snap.row.seed)
        for a in await self.store.actions(game_id):
            state, _ = snap.game.apply(state, a.seat, a.choice)
        return snap.game.dump(state)
