"""Moving a server's games from SQLite to PostgreSQL (python -m host.copydb)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest

from core.contract import Game
from host import copydb
from host.clock import FakeClock
from host.sessions import Host
from host.storage import open_store
from tests import toygame
from tests.host.kit import ANA, BEN, CAL, play_one, started

GAMES = {"toy": cast(Game, toygame.GAME)}
USERS = {0: ANA, 1: BEN, 2: CAL}


async def make_host(target: str, clock: FakeClock) -> Host:
    return Host(await open_store(target), clock=clock, seeds=random.Random(5), games=lambda: GAMES)


async def fill(path: str, clock: FakeClock) -> tuple[int, int, str]:
    """An SQLite database with a finished game, a running one and a lobby, settings and
    stats. Returns the running game, the seat to move and its button's token."""
    host = await make_host(path, clock)
    done = await started(host, ANA, BEN, channel=1)
    while (await host.by_id(done)).row.status == "active":
        await play_one(host, done, USERS)
    running = await started(host, ANA, BEN, CAL, channel=2)
    for _ in range(2):
        await play_one(host, running, USERS)
    await host.new_lobby(guild_id=1, channel_id=3, game_id="toy", owner=CAL, lang="es")
    await host.store.set_user_settings(ANA.user_id, True, "es")
    await host.store.set_guild_settings(1, "es", "4h")
    snap = await host.by_id(running)
    d = snap.decisions[0]
    await host.store.close()
    return running, d.seat, snap.token(d)


async def test_copy_moves_everything_and_the_game_goes_on(tmp_path: Path, pg_url: str) -> None:
    clock = FakeClock()
    src = str(tmp_path / "old.db")
    running, seat, token = await fill(src, clock)
    report = await copydb.copy_database(src, pg_url, games=lambda: GAMES)
    assert report.replayed == 2  # the finished game and the running one
    assert report.rows["games"] == 3 and report.rows["actions"] > 2
    assert report.rows["results"] == 2 and report.rows["user_settings"] == 1

    old, new = await make_host(src, clock), await make_host(pg_url, clock)
    try:
        for gid in (1, 2, 3):
            a, b = await old.by_id(gid), await new.by_id(gid)
            assert a.row == b.row and a.seats == b.seats
            assert await old.store.actions(gid, live=False) == await new.store.actions(
                gid, live=False
            )
        assert await new.store.user_stats(ANA.user_id) == await old.store.user_stats(ANA.user_id)
        assert await new.store.user_settings(ANA.user_id) == (True, "es")
        assert await new.store.guild_settings(1) == ("es", "4h")
        # A button posted before the move still plays, on PostgreSQL.
        await new.play(running, USERS[seat].user_id, seat, token, "add1")
        while (await new.by_id(running)).row.status == "active":
            await play_one(new, running, USERS)
        assert await new.replay(running) == (await new.by_id(running)).row.state
        # New games get new ids.
        snap = await new.new_lobby(guild_id=1, channel_id=4, game_id="toy", owner=ANA, lang="en")
        assert snap.id == 4
    finally:
        await old.store.close()
        await new.store.close()


async def test_copy_refuses_a_non_empty_target(tmp_path: Path, pg_url: str) -> None:
    src = str(tmp_path / "old.db")
    await fill(src, FakeClock())
    await copydb.copy_database(src, pg_url, games=lambda: GAMES)
    store = await open_store(pg_url)
    before = await store.count_actions(1)
    await store.close()
    with pytest.raises(copydb.CopyError, match="not empty"):
        await copydb.copy_database(src, pg_url, games=lambda: GAMES)
    store = await open_store(pg_url)
    assert await store.count_actions(1) == before
    assert len(await store.games_in_guild(1, live_only=False)) == 3
    await store.close()


async def test_a_game_that_does_not_replay_copies_nothing(tmp_path: Path, pg_url: str) -> None:
    src = str(tmp_path / "old.db")
    await fill(src, FakeClock())
    sqlite = await open_store(src)
    await sqlite.update_game(1, 0.0, state={"broken": True})
    await sqlite.close()
    with pytest.raises(copydb.CopyError, match="game 1"):
        await copydb.copy_database(src, pg_url, games=lambda: GAMES)
    store = await open_store(pg_url)
    assert await store.games_in_guild(1, live_only=False) == []
    await store.close()


def test_the_command_line_says_why_in_one_line(tmp_path: Path, capsys) -> None:
    assert copydb.main([str(tmp_path / "missing.db"), "postgresql:///x"]) == 2
    assert copydb.main([str(tmp_path / "a.db"), str(tmp_path / "b.db")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "SQLite file" in err[0] and "postgresql://" in err[1]
