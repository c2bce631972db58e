"""What the host hands out and takes in: who asks (:class:`Player`), a game as loaded
(:class:`Snapshot`), what a play produced (:class:`Step`, :class:`Outcome`), the pacing
work of one game (:class:`Due`), the host's refusals (:class:`HostError`, :class:`Gone`),
and how a move's events are stored in the action log. No I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.contract import Decision, Event, Game, IllegalMove, Result
from host.storage import GameRow, SeatRow, TimerRow


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
    #: The public view as computed last, with the state it is of (see :meth:`view`).
    _public: tuple[Any, dict[str, Any]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

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
        """What ``seat`` may see (None: the public view). The public view is computed once
        per state (a table's publish reads it for its embed, its fingerprint, its trail,
        its picture and alt text): read it, never change it."""
        if seat is not None:
            return self.game.view(self.state, seat)
        kept = self._public
        if kept is not None and kept[0] is self.state:
            return kept[1]
        public = self.game.view(self.state, None)
        self._public = (self.state, public)
        return public

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
    """The event as stored in the action log: ``dataclasses.asdict`` of it (its fields in
    order) with its arguments as a plain dict, made directly (asdict copies deeply only to
    have the arguments replaced)."""
    return {
        "code": e.code,
        "args": dict(e.args),
        "seat": e.seat,
        "private_to": e.private_to,
        "reveals": e.reveals,
    }


def event_from(d: dict[str, Any]) -> Event:
    return Event(
        code=d["code"],
        args=d.get("args", {}),
        seat=d.get("seat"),
        private_to=d.get("private_to"),
        reveals=bool(d.get("reveals", False)),
    )
