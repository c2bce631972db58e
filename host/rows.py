"""What the store reads and writes, whichever database holds it: the row types, the
exceptions of the optimistic version check, the :class:`NewGame` a lobby opens and the
:class:`Move` an accepted choice commits,
and the decoding of a ``games`` row (:data:`GAME_COLS`) and of :meth:`Storage.load`'s row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any


class VersionConflict(Exception):
    """The game moved on between read and write."""


class ChannelBusy(Exception):
    """A lobby or active game already lives in this channel."""


#: A game's state as its engine dumps it (JSON).
State = dict[str, Any]
#: Whom a game waits for: seat -> (since, nudges sent, deadline state).
Waits = dict[int, tuple[float, int, int]]
#: Timers a move opens: (key, seat, seconds).
Opened = list[tuple[str, int, float]]


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    options: dict[str, str]
    seed: int
    version: int
    state: dict[str, Any] | None
    lang: str
    owner_id: int
    lobby_message_id: int | None
    table_message_id: int | None
    table_to_move: list[int]
    created_at: float
    updated_at: float
    finished_at: float | None
    table_hash: str | None = None
    host_options: dict[str, str] = field(default_factory=dict)
    published_version: int = 0
    #: The channel's trail of moves (migration 0006): the message being written, the last
    #: action before its first line, and the round it is for.
    trail_message_id: int | None = None
    trail_seq: int = 0
    trail_key: str = ""
    #: Reminders posted in the channel: (message id, seats it names), until answered.
    nudge_messages: list[list[Any]] = field(default_factory=list)
    #: When the pacing tick next has work for this game (migration 0007; None: none).
    wake_at: float | None = None
    #: Why the game is paused (its channel cannot be reached), and since when.
    paused: str | None = None
    paused_at: float | None = None
    #: Failures to publish in a row (not a lost channel), and when to try again.
    publish_fails: int = 0
    retry_at: float | None = None

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "active")


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    is_bot: bool
    name: str
    locale: str
    dm_open: bool
    autopilot: bool = False
    missed: int = 0
    #: A bot seat's level (migration 0008): easy / normal / hard; None: the default.
    level: str | None = None


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    choice: str
    by_user: int | None
    by_bot: bool
    events: list[dict[str, Any]]
    at: float
    undone: str | None = None
    think: float | None = None
    #: The key of the timer that made this move when it ran out (None: a player or bot).
    timer: str | None = None


@dataclass(frozen=True)
class Move:
    """One accepted choice, as :meth:`Storage.commit_action` writes it in one transaction:
    the action (``seat``, ``choice``, who made it, its ``events``), the ``state`` after it,
    and whether the game is ``over``, if the game is still at ``version``.

    ``waits`` (when the move changes whom the game waits for) replaces the game's waits in
    the same transaction; with ``waits_was`` (the waits as the caller read them, under the
    game's lock) only what changed is written, in as few statements as can be.
    ``timers_opened``/``timers_closed`` are :meth:`Storage.update_timers`'s, done with the
    move. ``wake_at`` (see :func:`host.pacing.wake_at`) is written with the waits; left out,
    the tick looks at the game at once and works it out.

    With ``timer`` (a running timer's key) the move is that timer's expiry, and the timer is
    marked fired in the same transaction: if it already fired, nothing is written
    (:class:`VersionConflict`)."""

    game_id: int
    version: int
    seat: int
    choice: str
    by_user: int | None
    by_bot: bool
    events: list[dict[str, Any]]
    state: dict[str, Any]
    over: bool
    now: float
    think: float | None = None
    timer: str | None = None
    waits: dict[int, tuple[float, int, int]] | None = None
    wake_at: float | None = 0.0
    waits_was: dict[int, tuple[float, int, int]] | None = None
    timers_opened: list[tuple[str, int, float]] | None = None
    timers_closed: Iterable[str] = ()


@dataclass(frozen=True)
class NewGame:
    """A lobby as :meth:`Storage.create_game` opens it: which ``game``, its ``options`` and
    ``seed``, whose it is, where (``guild_id``, ``channel_id``), the table's ``lang`` and
    when (``now``)."""

    game: str
    options: dict[str, str]
    seed: int
    owner_id: int
    guild_id: int | None
    channel_id: int
    lang: str
    now: float


@dataclass(frozen=True)
class TimerRow:
    """A decision's timer as the host runs it (see :class:`core.contract.Timer`)."""

    game_id: int
    key: str
    seat: int
    started: float
    seconds: float
    open: bool = True
    fired_at: float | None = None
    fired_seq: int | None = None

    @property
    def due(self) -> float:
        return self.started + self.seconds

    @property
    def running(self) -> bool:
        return self.fired_at is None


@dataclass(frozen=True)
class Loaded:
    """A game with everything a move needs (:meth:`Storage.load`), read in one statement."""

    row: GameRow
    seats: list[SeatRow]
    moves_by_seat: dict[int, int]
    waits: dict[int, tuple[float, int, int]]
    timers: dict[str, TimerRow]


def loaded_row(r: Any, n: int) -> Loaded:
    """A :class:`Loaded` from a row of the game's ``n`` columns and four JSON lists: seats,
    move counts, waits and timers (times as JSON numbers or as exact text)."""
    row = game_row(list(r)[:n])
    seats, moves, waits, timers = (json.loads(r[n + i] or "[]") for i in range(4))
    return Loaded(
        row=row,
        seats=sorted(
            (
                SeatRow(
                    row.id, s[0], s[1], bool(s[2]), s[3], s[4], bool(s[5]), bool(s[6]), s[7], s[8]
                )
                for s in seats
            ),
            key=lambda s: s.seat,
        ),
        moves_by_seat={int(m[0]): int(m[1]) for m in moves},
        waits={int(w[0]): (float(w[1]), int(w[2]), int(w[3])) for w in waits},
        timers={
            t[0]: TimerRow(
                row.id,
                t[0],
                int(t[1]),
                float(t[2]),
                float(t[3]),
                bool(t[4]),
                None if t[5] is None else float(t[5]),
                t[6],
            )
            for t in timers
        },
    )


_GAME_FIELDS = tuple(f.name for f in fields(GameRow))
#: The ``games`` columns a :class:`GameRow` is read from, in its fields' order.
GAME_COLS = ", ".join(_GAME_FIELDS)
#: How many columns :data:`GAME_COLS` reads (where :meth:`Storage.load`'s lists begin).
N_GAME_COLS = len(_GAME_FIELDS)


def game_row(row: Iterable[Any]) -> GameRow:
    """A :class:`GameRow` from a row of :data:`GAME_COLS` (JSON columns decoded)."""
    r = dict(zip(_GAME_FIELDS, row, strict=False))
    r["options"] = json.loads(r["options"])
    r["table_to_move"] = json.loads(r["table_to_move"])
    r["state"] = json.loads(r["state"]) if r["state"] is not None else None
    r["host_options"] = json.loads(r["host_options"]) if r["host_options"] else {}
    r["nudge_messages"] = json.loads(r["nudge_messages"]) if r["nudge_messages"] else []
    r["publish_fails"] = r["publish_fails"] or 0
    return GameRow(**r)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
