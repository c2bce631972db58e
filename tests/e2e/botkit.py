"""Bots held and watched in e2e tests: small search budgets with the real levels' shape, a
recorder of the budget each bot move was searched with, a gate that holds every bot's
search until opened, and a MLEM game played until it waits for a bot."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from core.i18n import t
from host import pacing, registry
from host.sessions import Host
from rules.search import LEVELS, Budget
from tests.e2e.driver import TO_MOVE, field, play_turn, refused
from tests.e2e.kit import host_of, open_game, snapshot
from tests.harness import FakeUser, Harness, Message

START = t("host.lobby.start", "en")

#: Small budgets with the real levels' shape (easy: the heuristic with slips).
SMALL = {
    "easy": LEVELS["easy"],
    "normal": Budget(playouts=2, depth=2),
    "hard": Budget(playouts=4, depth=3),
}


class Recorder:
    """Wraps the engine's ``choose``: records the budget each bot move was searched with."""

    def __init__(self) -> None:
        self.choose = registry.bot_chooser()
        self.used: list[tuple[int, Any]] = []

    def __call__(self, game: Any, state: Any, seat: int, rng: random.Random, level: Any) -> str:
        self.used.append((seat, level))
        return self.choose(game, state, seat, rng, level)


def small_budgets(h: Harness) -> Recorder:
    host = host_of(h)
    host.bot_budgets = dict(SMALL)
    rec = Recorder()
    host._chooser = rec
    return rec


async def open_lobby(
    h: Harness, game: str, owner: FakeUser, others: Sequence[FakeUser] = (), bots: int = 0
) -> Message:
    """A lobby of ``game``, joined by ``others``, with ``bots`` bots; not started."""
    return await open_game(h, game, owner, others, bots=bots, start=False)


class Gate:
    """Holds every bot's search until opened (the move waits on an asyncio event, so the
    harness sees the bot idle, as a person would see it thinking)."""

    def __init__(self, host: Host) -> None:
        self.event = asyncio.Event()
        self.waiting = 0
        self.calls = 0
        self.pick = host.bot_pick
        host.bot_pick = self  # type: ignore[method-assign]

    async def __call__(self, snap: Any, seat: int) -> str:
        self.calls += 1
        self.waiting += 1
        await self.event.wait()
        self.waiting -= 1
        return await self.pick(snap, seat)

    async def open(self, h: Harness) -> None:
        self.event.set()
        await h.idle()


def to_move(table: Message) -> str:
    return field(table, TO_MOVE) or ""


async def mlem_move_to_a_bot(h: Harness, ana: FakeUser, rng: random.Random) -> None:
    """Ana clicks until the game waits for the bot."""
    for _ in range(200):
        await play_turn(h, {ana: 0}, rng)
        if host_of(h).bot_to_move(await snapshot(h)) is not None:
            return
    raise AssertionError("the bot never got a turn")


def lobby_button(lobby: Message, act: str) -> str:
    for b in lobby.buttons:
        if (b.custom_id or "").endswith(f":l:{act}"):
            return b.custom_id  # type: ignore[return-value]
    raise AssertionError(f"no lobby button {act}: {[b.custom_id for b in lobby.buttons]}")


async def set_level(h: Harness, owner: FakeUser, lobby: Message, seat: int, level: str) -> None:
    for _ in range(len(pacing.BOT_LEVELS)):
        snap = await snapshot(h)
        if Host.level_of(snap, seat) == level:
            return
        reply = await h.click(owner, lobby, lobby_button(lobby, f"b.{seat}"))
        assert not refused(reply), reply.text()
    raise AssertionError(f"seat {seat} never reached {level}")


async def mlem_with_a_bot_thinking(
    h: Harness, seed: int, *, bots: int = 1, level: str | None = None, gate_first: bool = False
) -> tuple[FakeUser, Gate]:
    """Small budgets; Ana (en-US) opens a MLEM lobby with ``bots`` bots (the first at
    ``level``, if given), starts it, and clicks (``random.Random(seed)``) until the game
    waits for a bot, whose search a :class:`Gate` holds (set up before the start if
    ``gate_first``, else right after). Ana and the gate."""
    small_budgets(h)
    ana = h.user("Ana", "en-US")
    lobby = await open_lobby(h, "mlem", ana, bots=bots)
    if level is not None:
        await set_level(h, ana, lobby, 1, level)
    gate = Gate(host_of(h)) if gate_first else None
    await h.click(ana, lobby, label=START)
    gate = gate or Gate(host_of(h))
    await mlem_move_to_a_bot(h, ana, random.Random(seed))
    return ana, gate
