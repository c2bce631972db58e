"""What the host tests share: the players, a Host on the toy games, a started game, one move,
the pacing tick as Discord runs it. Not a test module (the tests import it; none imports
another test module)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, cast

from core.contract import Game
from host.clock import FakeClock
from host.rows import GameRow
from host.sessions import Due, Host, Player
from host.storage import open_store
from tests import timedgame, toygame

ANA = Player(1, "Ana", "es")
BEN = Player(2, "Ben", "en")
CAL = Player(3, "Cal", "en")
MOD = Player(9, "Mod", "en", can_manage=True)
#: The move of seat k is made by USERS[k].
USERS = {0: ANA, 1: BEN, 2: CAL}

TOY: dict[str, Game] = {"toy": cast(Game, toygame.GAME)}
TOY_AND_TIMED: dict[str, Game] = {**TOY, "timed": cast(Game, timedgame.GAME)}


def game_row(
    game: str = "x", *, version: int = 1, seed: int = 5, state: dict[str, Any] | None = None
) -> GameRow:
    """An active game's row as the store would read it (no messages, owner 100), for tests
    that build a :class:`host.records.Snapshot` without a database."""
    return GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        game=game,
        status="active",
        options={},
        seed=seed,
        version=version,
        state=state,
        lang="en",
        owner_id=100,
        lobby_message_id=None,
        table_message_id=None,
        table_to_move=[],
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
    )


async def make_host(
    target: str,
    clock: FakeClock | None = None,
    *,
    seed: int = 7,
    games: Mapping[str, Game] = TOY,
) -> Host:
    """A Host on a fresh store at ``target`` (an SQLite path or a PostgreSQL URL) that knows
    only ``games``, with seeds from ``random.Random(seed)``."""
    return Host(
        await open_store(target),
        clock=clock or FakeClock(),
        seeds=random.Random(seed),
        games=lambda: dict(games),
    )


@asynccontextmanager
async def hosted(
    target: str, clock: FakeClock, *, seed: int = 7, games: Mapping[str, Game] = TOY
) -> AsyncIterator[Host]:
    """:func:`make_host`, its store closed at the end."""
    h = await make_host(target, clock, seed=seed, games=games)
    try:
        yield h
    finally:
        await h.store.close()


async def started(
    host: Host,
    *players: Player,
    channel: int = 100,
    game_id: str = "toy",
    pings: str | None = None,
) -> int:
    """A game of ``players`` started in ``channel`` (the first one opens the lobby), with the
    host option ``pings`` set first when given."""
    snap = await host.new_lobby(
        guild_id=1, channel_id=channel, game_id=game_id, owner=players[0], lang="en"
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    while pings is not None and (await host.by_id(snap.id)).row.host_options["pings"] != pings:
        await host.cycle_option(snap.id, "h.pings", players[0])
    await host.start(snap.id, players[0])
    return int(snap.id)


async def play_one(host: Host, gid: int, by: Mapping[int, Player] = USERS) -> None:
    """The first option of the first open decision, clicked by its seat's player."""
    snap = await host.by_id(gid)
    d = snap.decisions[0]
    await host.play(gid, by[d.seat].user_id, d.seat, snap.token(d), d.options[0].id)


async def tick(host: Host, batch: int = 2) -> dict[int, Due]:
    """What the Discord tick does with the host: the due games, batch by batch, paced."""
    dues: dict[int, Due] = {}
    after = 0
    while True:
        ids = await host.paced_games(after=after, limit=batch)
        for gid in ids:
            dues[gid] = await host.pace(gid)
        if len(ids) < batch:
            return dues
        after = ids[-1]


async def make_paced_host(target: str, clock: FakeClock) -> Host:
    """The pacing tests' Host: the toy and timed games, seeds from ``random.Random(3)``."""
    return await make_host(target, clock, seed=3, games=TOY_AND_TIMED)


def paced_host(target: str, clock: FakeClock) -> AbstractAsyncContextManager[Host]:
    """:func:`make_paced_host`, its store closed at the end."""
    return hosted(target, clock, seed=3, games=TOY_AND_TIMED)
