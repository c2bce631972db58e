"""Sessions: one game per channel, from lobby to final scores. No discord here.

The :class:`Host` is the only writer of games. Every change follows one pipeline under the
game's lock: load from storage → check → apply → commit (one transaction) → report what
happened; the Discord layer then renders and publishes. Nothing is kept in memory between
calls except the locks, so a restarted process continues every game from the database.

:class:`Host` is a thin facade: its methods live in one module per seam, each one class
built on the one below it (a part never imports a later one):

* :mod:`host.records` — what the host hands out: :class:`Snapshot`, :class:`Player`,
  :class:`Step`, :class:`Outcome`, :class:`Due`, :class:`HostError`, :class:`Gone`;
* :mod:`host.base` — ``HostBase``: the store, clock, seeds, games and locks; loading a game;
* :mod:`host.waits` — ``Waits``: whom a game waits for since when, its timers, ``wake_at``;
* :mod:`host.play` — ``Play``: a move checked and committed; the bots;
* :mod:`host.lobby` — ``Lobby``: the lobby, the seats, the start, leaving, abandoning;
* :mod:`host.tick` — ``Tick``: nudges, deadlines, timers running out, covering for an
  absent player, autopilot;
* :mod:`host.history` — ``History``: undo, rollback, replay.

Everything callers use is importable from here, as before the split.
"""

from __future__ import annotations

from host.history import History
from host.lobby import Lobby
from host.play import MAX_BOT_STEPS
from host.records import (
    TIMER_EVENT,
    Due,
    Gone,
    HostError,
    Outcome,
    Player,
    Snapshot,
    Step,
    event_dict,
    event_from,
    public_move,
)
from host.tick import Tick
from host.waits import BOT_RETRY, wake_time

__all__ = [
    "BOT_RETRY",
    "MAX_BOT_STEPS",
    "TIMER_EVENT",
    "Due",
    "Gone",
    "Host",
    "HostError",
    "Outcome",
    "Player",
    "Snapshot",
    "Step",
    "event_dict",
    "event_from",
    "public_move",
    "wake_time",
]


class Host(Lobby, Tick, History):
    """The game host: ``Host(store, clock, seeds, games, chooser)`` (see ``HostBase``).
    Its parts share one instance, so every call between them (``self._commit``,
    ``self.bot_pick`` …) goes through the host and can be replaced on it."""
