"""Pacing for games played over days: reminders, deadlines, autopilot.

Each game has host-level lobby options next to the game's own:

* ``reminders`` — when to nudge a player the game waits for: the first nudge after
  ``4h``/``12h``/``24h`` (default 12 h, or the server's default), then every 24 h, at most
  :data:`MAX_NUDGES` per turn; ``off`` sends none.
* ``deadline`` — how long a player has for a move (``none``, 12 h, 1–7 days). When it
  passes, the other players may skip the move or let a bot play it; if nobody does, a bot
  plays it once twice the deadline has passed, so no game is blocked forever.
* ``autopilot`` — after this many missed deadlines the seat is handed to a bot for the rest
  of the game (``never`` to keep waiting); the owner takes it back with one click.
* ``botlevel`` — how well a bot plays a seat on autopilot or an absent player's move
  (``easy``/``normal``/``hard``, the search engine's levels); bot seats have their own.
* ``pings`` — ``away`` (the default): a new table pings a player it now waits for only
  when that player has not acted in this game for :data:`AWAY_AFTER` (5 minutes; "acted" is
  any accepted move of theirs): someone clicking along is not pinged at every turn, someone
  away is (:func:`table_pings`). One who moved shortly before their turn came and then left
  is caught up: once the game has waited :data:`AWAY_AFTER` for a player the table did not
  ping for this turn, the light channel message of ``days`` pings them (the first nudge of
  the wait, :func:`nudge_times`; a table that pings a player records that nudge as sent,
  see :func:`catches_up`, so nobody is pinged twice for it). ``live`` ("always"): a new
  table pings the players it now waits for at once; ``days``: the table names them without
  a ping, and a light message pings a player only once the game has waited
  :data:`PING_AFTER` for them (a player who answers sooner is never pinged). With each,
  reminders and the DM on one's turn work as usual (the catch-up ping and the ping after
  :data:`PING_AFTER` come before the reminders, which keep their times). A game stored
  without the option (from before it existed) plays ``live``.

With a deadline, a warning goes out at half the time (:func:`nudge_times`), whatever the
reminders say, and no nudge ever goes out once the time is up: the time-up notice says it.

Everything here is a pure function of stored times and the clock's ``now``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from core.contract import OptionSpec

HOUR = 3600.0
DAY = 24 * HOUR
REPEAT = DAY
MAX_NUDGES = 3
#: Play over days: how long the game waits for a player before pinging them.
PING_AFTER = HOUR
#: The default pings (``away``): a new table pings a player who has not acted in the game
#: for this long; someone who moved more recently is taken to be watching.
AWAY_AFTER = 5 * 60.0
#: The ``pings`` a game stored without the option plays (it was the only behaviour then).
PINGS_UNSET = "live"
#: The levels a bot plays at (``rules.search.LEVELS``; a test keeps the two in step).
BOT_LEVELS = ("easy", "normal", "hard")
DEFAULT_BOT_LEVEL = "normal"

HOST_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("reminders", "host.opt.reminders", ("off", "4h", "12h", "24h"), "12h"),
    OptionSpec("deadline", "host.opt.deadline", ("none", "12h", "1d", "2d", "3d", "7d"), "none"),
    OptionSpec("autopilot", "host.opt.autopilot", ("1", "2", "3", "never"), "2"),
    OptionSpec("pings", "host.opt.pings", ("away", "live", "days"), "away"),
    OptionSpec("botlevel", "host.opt.botlevel", BOT_LEVELS, DEFAULT_BOT_LEVEL),
)


def defaults(reminders: str | None = None) -> dict[str, str]:
    out = {o.id: o.default for o in HOST_OPTIONS}
    if reminders in HOST_OPTIONS[0].choices:
        out["reminders"] = reminders  # the server's default cadence
    return out


def seconds(value: str | None) -> float | None:
    """``"12h"`` -> 43200.0, ``"2d"`` -> 172800.0; ``off``/``none``/unknown -> None."""
    if not value or value in ("off", "none", "never"):
        return None
    unit = {"h": HOUR, "d": DAY}.get(value[-1])
    if unit is None or not value[:-1].isdigit():
        return None
    return int(value[:-1]) * unit


def last_acted(users: Sequence[int | None], actions: Iterable[Any]) -> dict[int, float]:
    """When each seat's player (``users[seat]``) last acted in the game, among ``actions``
    (the recent log): a move of theirs the host accepted, not one a bot or a timer made."""
    out: dict[int, float] = {}
    for a in actions:
        if a.by_bot or a.timer is not None or not 0 <= a.seat < len(users):
            continue
        if a.by_user is not None and a.by_user == users[a.seat]:
            out[a.seat] = max(out.get(a.seat, a.at), a.at)
    return out


def table_pings(mode: str | None, last_acted: float | None, now: float) -> bool:
    """Whether a new table pings a player it now waits for, under the ``pings`` option
    ``mode`` (None: a game stored without it), given when the player last acted in this
    game (None: never). ``away``: only a player idle for :data:`AWAY_AFTER` or more."""
    mode = mode or PINGS_UNSET
    if mode == "days":
        return False
    if mode == "away":
        return last_acted is None or now - last_acted >= AWAY_AFTER
    return True


def catches_up(options: dict[str, str]) -> bool:
    """Whether the first nudge of a wait is ``away``'s catch-up ping (:data:`AWAY_AFTER`
    into the wait): a table that pings the player marks it as sent."""
    return options.get("pings") == "away"


def in_channel(number: int, options: dict[str, str]) -> bool:
    """Whether a wait's nudge ``number`` (1 for the first) goes to the channel rather than
    by DM: the first, and under ``away`` the first reminder after the catch-up ping too
    (the reminders go where they went before the catch-up existed)."""
    return number <= (2 if catches_up(options) else 1)


def nudge_times(since: float, options: dict[str, str]) -> list[float]:
    """When to nudge a player waited on since ``since``, in order: with ``pings=days`` a
    ping after :data:`PING_AFTER`, with ``pings=away`` the catch-up ping after
    :data:`AWAY_AFTER` (marked as sent when the table pinged); the reminders (the first after
    the ``reminders`` delay, then every :data:`REPEAT`, at most :data:`MAX_NUDGES`); with a
    deadline, a warning at half of it. Nothing at or after the deadline itself: the time-up
    notice is the last word."""
    times: list[float] = []
    if options.get("pings") == "days":
        times.append(since + PING_AFTER)
    elif catches_up(options):
        times.append(since + AWAY_AFTER)
    first = seconds(options.get("reminders"))
    if first is not None:
        times.extend(since + first + k * REPEAT for k in range(MAX_NUDGES))
    span = seconds(options.get("deadline"))
    if span is not None:
        times = [w for w in times if w < since + span]
        times.append(since + span / 2)
    return sorted(set(times))


def nudges_due(since: float, now: float, options: dict[str, str]) -> int:
    """How many nudges should have gone out by ``now`` for a wait that began at ``since``.

    A bot that was down through several reminder times sends one nudge when it is back,
    not a burst: callers send one and record this number."""
    return sum(1 for w in nudge_times(since, options) if w <= now)


def next_nudge(since: float, sent: int, options: dict[str, str]) -> float | None:
    times = nudge_times(since, options)
    return times[sent] if sent < len(times) else None


def deadline_at(since: float, deadline: str | None) -> float | None:
    span = seconds(deadline)
    return None if span is None else since + span


def autopilot_after(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def tick_wait(every: float, next_timer: float | None, now: float) -> float:
    """Seconds until the next pacing tick: the regular ``every``, or less when a decision's
    timer runs out sooner (live play with timers of a minute or two must not wait a whole
    interval). A timer already overdue after a tick is stuck: no hurry for it."""
    if next_timer is None or next_timer <= now:
        return every
    return max(1.0, min(every, next_timer - now + 0.5))


def wake_at(
    waits: dict[int, tuple[float, int, int]],
    options: dict[str, str],
    waiting: Collection[int] | None = None,
) -> float | None:
    """When the pacing tick next has something to do for a game whose waits are ``waits``
    (seat -> (since, nudges sent, deadline state)): the next nudge, the deadline's notice,
    or the bot's move once twice the deadline has passed. None: nothing until someone moves.
    ``waiting`` (the seats the game still waits for) leaves out stale waits. The game's
    running timers are a schedule of their own (``Storage.due_games``)."""
    times: list[float] = []
    span = seconds(options.get("deadline"))
    for seat, (since, sent, state) in waits.items():
        if waiting is not None and seat not in waiting:
            continue
        nudge = next_nudge(since, sent, options)
        if nudge is not None:
            times.append(nudge)
        if span is not None and state < 2:
            deadline = since + span  # (the very sums Host.pace compares with, to the bit)
            times.append(deadline if state == 0 else deadline + (deadline - since))
    return min(times, default=None)


#: Republishing a table after a failure that is not a lost channel: first after this long,
#: then twice as long after each further failure, up to :data:`RETRY_MAX`.
RETRY_FIRST = 60.0
RETRY_MAX = HOUR


def retry_after(fails: int) -> float:
    """Seconds before republishing again after ``fails`` failures in a row (>= 1)."""
    return min(RETRY_MAX, RETRY_FIRST * 2 ** max(0, min(fails - 1, 30)))
