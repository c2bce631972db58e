"""Skill ratings (host/ratings.py, host/skill.py): OpenSkill's Plackett-Luce updates from a
final ranking, bots rated per level, the rating written with the game's results, abandoned
games unrated, and ``python -m host.ratings rebuild`` giving exactly the incremental ratings,
on both databases."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from host import ratings
from host.clock import FakeClock
from host.sessions import Host, Player, Snapshot
from host.skill import Rating, bot_level, player_key, rate
from host.storage import open_store
from tests.host.kit import ANA, BEN, CAL, MOD, hosted


def test_a_two_player_win_moves_mu_the_right_way() -> None:
    ana, ben = rate({}, [("1", 1), ("2", 2)])
    assert ana.player == "1" and ben.player == "2"
    assert ana.before == ben.before == Rating(25.0, 25.0 / 3.0, 0)
    assert ana.after.mu > 25.0 > ben.after.mu
    assert ana.after.mu - 25.0 == pytest.approx(25.0 - ben.after.mu)
    assert ana.after.sigma < 25.0 / 3.0 and ben.after.sigma < 25.0 / 3.0
    assert ana.after.games == ben.after.games == 1
    # The shown (conservative) rating starts at 0: the winner's rises, the loser's falls.
    assert ana.before.shown == pytest.approx(0.0)
    assert ana.delta > 0 > ben.delta
    # A stronger winner gains less than an even one does.
    strong = rate({"1": Rating(30.0, 4.0, 10)}, [("1", 1), ("2", 2)])[0]
    assert 0 < strong.after.mu - 30.0 < ana.after.mu - 25.0
    assert strong.after.games == 11


def test_a_six_player_ranking_with_a_tie() -> None:
    seats = [("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5), ("f", 6)]
    changes = {c.player: c for c in rate({}, seats)}
    mu = {p: c.after.mu - c.before.mu for p, c in changes.items()}
    # The tied players move alike; the winner gains most, the last loses most.
    assert changes["b"].after == changes["c"].after
    assert mu["a"] == max(mu.values()) and mu["a"] > 0
    assert mu["f"] == min(mu.values()) and mu["f"] < 0
    assert mu["d"] > mu["e"] > mu["f"]
    assert sum(mu.values()) == pytest.approx(0.0, abs=1e-9)
    # (Ruling 1: OpenSkill's own tie numbers; a tie for second gains less than fourth.)
    assert mu["d"] > mu["b"] > 0
    # The same places without the tie: second and third part.
    apart = [(p, i + 1) for i, (p, _) in enumerate(seats)]
    plain = {c.player: c.after.mu for c in rate({}, apart)}
    assert plain["b"] > plain["c"]


def test_bot_levels_are_players_and_a_seat_on_autopilot_is_its_person() -> None:
    assert player_key(None, "hard") == "bot:hard"
    assert player_key(None, None) == "bot:normal"  # bots from before levels
    assert player_key(None, "bogus") == "bot:normal"
    assert player_key(42, None) == "42"  # a person, also on autopilot (a bot seat)
    assert bot_level("bot:easy") == "easy" and bot_level("42") is None


def test_one_player_in_two_seats_is_rated_once_from_the_mean() -> None:
    changes = rate({}, [("bot:hard", 1), ("1", 2), ("bot:hard", 3)])
    assert [c.player for c in changes] == ["bot:hard", "1"]
    three = rate({}, [("x", 1), ("1", 2), ("y", 3)])
    bot = changes[0].after
    assert bot.mu == pytest.approx((three[0].after.mu + three[2].after.mu) / 2)
    assert bot.sigma == pytest.approx((three[0].after.sigma + three[2].after.sigma) / 2)
    assert bot.games == 1
    # Fewer than two players: nothing to learn (ruling 3).
    assert rate({}, [("bot:hard", 1), ("bot:hard", 2)]) == []


async def play_out(host: Host, gid: int, rng: random.Random) -> Snapshot:
    """Play the game to its end: people pick at random, bots as the host moves them."""
    players = {p.user_id: p for p in (ANA, BEN, CAL)}
    while True:
        snap = await host.by_id(gid)
        if snap.row.status != "active":
            return snap
        mine = [d for d in snap.decisions if snap.human(d.seat)]
        if not mine:
            await host.play_bots(gid)
            continue
        d = mine[0]
        user = snap.seats[d.seat].user_id
        assert user is not None and user in players
        await host.play(gid, user, d.seat, snap.token(d), rng.choice(d.options).id)


async def a_game(
    host: Host, people: list[Player], bots: list[str], rng: random.Random, channel: int
) -> Snapshot:
    """A toy game of ``people`` and bots at ``bots`` levels, played to its end."""
    lobby = await host.new_lobby(
        guild_id=1, channel_id=channel, game_id="toy", owner=people[0], lang="en"
    )
    for p in people[1:]:
        await host.join(lobby.id, p)
    for level in bots:
        snap = await host.add_bot(lobby.id, people[0])
        seat = len(snap.seats) - 1
        while snap.seats[seat].level != level:
            snap = await host.cycle_bot_level(lobby.id, seat, people[0])
    await host.start(lobby.id, people[0])
    return await play_out(host, lobby.id, rng)


async def tables(host: Host) -> tuple[list[Any], list[Any]]:
    """The ratings and rating_changes tables, in full and in order."""
    store: Any = host.store
    async with store._reader() as tx:
        rated = await tx.rows("SELECT * FROM ratings ORDER BY game, player")
        changed = await tx.rows("SELECT * FROM rating_changes ORDER BY game_id, player")
    return [tuple(r) for r in rated], [tuple(r) for r in changed]


async def test_games_are_rated_with_their_results_and_rebuild_gives_the_same(db: str) -> None:
    clock = FakeClock()
    async with hosted(db, clock) as host:
        rng = random.Random(5)
        lineups: list[tuple[list[Player], list[str]]] = [
            ([ANA, BEN], []),
            ([ANA], ["hard"]),
            ([BEN, CAL], ["easy"]),
            ([ANA], ["hard", "hard"]),
            ([ANA, BEN, CAL], []),
            ([CAL], ["normal"]),
        ]
        for i, (people, bots) in enumerate(lineups):
            snap = await a_game(host, people, bots, rng, channel=100 + i)
            assert snap.row.status == "over"
            clock.advance(60)
            changes = await host.store.rating_changes(snap.id)
            keys = {player_key(s.user_id, s.level) for s in snap.seats}
            assert {c.player for c in changes} == keys
        # An abandoned game is not rated.
        lobby = await host.new_lobby(
            guild_id=1, channel_id=200, game_id="toy", owner=ANA, lang="en"
        )
        await host.join(lobby.id, BEN)
        await host.start(lobby.id, ANA)
        await host.abandon(lobby.id, MOD)
        assert await host.store.rating_changes(lobby.id) == []

        rated, changed = await tables(host)
        games = {r[1]: r[4] for r in rated}
        assert games == {"1": 4, "2": 3, "3": 3, "bot:hard": 2, "bot:easy": 1, "bot:normal": 1}
        assert len({r[0] for r in changed}) == len(lineups)
        mine = await host.store.user_ratings("1")
        assert list(mine) == ["toy"] and mine["toy"].games == 4
        # The leaderboard: this server's rated players, by μ − 3σ.
        board = await host.store.rating_board(1, "toy")
        shown = [r.shown for _, r in board]
        assert shown == sorted(shown, reverse=True) and len(board) == 6
        assert await host.store.rating_board(2, "toy") == []

        # Saving a game's results again (later) does not rate it twice, nor move its time.
        last = await host.by_id(changed[-1][0])
        when = "SELECT finished_at FROM results WHERE game_id = ?"
        first = await host.store._row(when, last.id)  # type: ignore[attr-defined]
        clock.advance(60)
        await host._save_results(last)
        assert await tables(host) == (rated, changed)
        assert await host.store._row(when, last.id) == first  # type: ignore[attr-defined]

        # Rebuilt from the results: exactly the same tables.
        store: Any = host.store
        async with store._write() as tx:
            await tx.run("UPDATE ratings SET mu = 0, games = 99")
            await tx.run("DELETE FROM rating_changes WHERE game_id = ?", changed[0][0])
        assert await host.store.rebuild_ratings() == (len(lineups), 6)
        assert await tables(host) == (rated, changed)
    # And so does the command's rebuild, on a database no process holds open.
    assert await ratings.rebuild(db) == (len(lineups), 6)
    store2 = await open_store(db)
    try:
        again = Host(store2, clock=clock)
        assert await tables(again) == (rated, changed)
    finally:
        await store2.close()


def test_the_command_rebuilds_the_database_it_is_given(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "cosmodrome.db")
    asyncio.run(make_and_close(path))
    assert ratings.main(["rebuild", "--db", path]) == 0
    assert capsys.readouterr().out.strip() == f"ratings: rebuilt 0 games into 0 ratings in {path}"


async def make_and_close(path: str) -> None:
    store = await open_store(path)
    await store.close()


def test_rebuild_refuses_a_database_that_is_not_there(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nope.db")
    assert ratings.main(["rebuild", "--db", missing]) == 2
    assert "nothing changed" in capsys.readouterr().err
    assert not (tmp_path / "nope.db").exists()


def test_rebuild_reads_the_bots_database_setting(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COSMODROME_DB", str(tmp_path / "absent.db"))
    assert ratings.main(["rebuild"]) == 2
    assert "absent.db" in capsys.readouterr().err
