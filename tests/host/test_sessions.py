"""Host sessions and storage with a toy game, on each backend (a real SQLite file, a real
PostgreSQL database): the ``db`` fixture runs every test that uses it once per backend."""

from __future__ import annotations

import asyncio

import pytest

from core.contract import IllegalMove
from host.migrate import migrations, pg_migration
from host.sessions import Host, HostError, Player
from host.storage import MIGRATIONS, SqliteStore
from tests import toygame
from tests.host.kit import ANA, BEN, CAL, MOD, USERS, make_host, play_one, started

LAST_MIGRATION = max(int(p.name[:4]) for p in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))


async def test_wal_and_migrations(host):
    if not isinstance(host.store, SqliteStore):
        assert await host.store.migrate() == LAST_MIGRATION  # nothing left to apply
        return
    async with host.store.db.execute("PRAGMA journal_mode") as c:
        assert (await c.fetchone())[0] == "wal"
    async with host.store.db.execute("PRAGMA user_version") as c:
        assert (await c.fetchone())[0] == LAST_MIGRATION
    assert await host.store.migrate() == LAST_MIGRATION  # idempotent


def test_one_migration_a_number_serves_both_databases():
    """PostgreSQL runs SQLite's migrations in its own words (host/migrate.py's
    pg_migration): a hand-written ``pg/`` migration would never be read."""
    assert not (MIGRATIONS / "pg").exists(), "write the migration once: host/migrations/README"
    assert [n for n, _, _ in migrations()] == list(range(1, LAST_MIGRATION + 1))
    assert [n for n, _, _ in migrations(LAST_MIGRATION - 1)] == [LAST_MIGRATION]


def test_postgresql_reads_a_migration_in_its_own_words():
    sqlite = (
        "-- A table.\n"
        "CREATE TABLE t (\n"
        "    id       INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    game_id  INTEGER NOT NULL REFERENCES games (id),\n"
        "    user_id  INTEGER PRIMARY KEY,\n"
        "    seed     INTEGER NOT NULL,\n"
        "    by_user  INTEGER,\n"
        "    seat     INTEGER NOT NULL DEFAULT 0,\n"
        "    at       REAL    NOT NULL\n"
        ");\n"
        "-- pg: CREATE INDEX t_seat ON t (seat);\n"
        "ALTER TABLE t ADD COLUMN message_id INTEGER;\n"
    )
    assert pg_migration(sqlite) == (
        "-- A table.\n"
        "CREATE TABLE t (\n"
        "    id       BIGSERIAL PRIMARY KEY,\n"
        "    game_id  BIGINT NOT NULL REFERENCES games (id),\n"
        "    user_id  BIGINT PRIMARY KEY,\n"
        "    seed     BIGINT NOT NULL,\n"
        "    by_user  BIGINT,\n"
        "    seat     INTEGER NOT NULL DEFAULT 0,\n"
        "    at       DOUBLE PRECISION    NOT NULL\n"
        ");\n"
        "CREATE INDEX t_seat ON t (seat);\n"
        "ALTER TABLE t ADD COLUMN message_id BIGINT;\n"
    )


async def test_one_live_game_per_channel(host):
    await host.new_lobby(guild_id=1, channel_id=5, game_id="toy", owner=ANA, lang="en")
    with pytest.raises(HostError) as err:
        await host.new_lobby(guild_id=1, channel_id=5, game_id="toy", owner=BEN, lang="en")
    assert err.value.code == "host.error.channel_busy"
    # Another channel (or thread) is fine.
    await host.new_lobby(guild_id=1, channel_id=6, game_id="toy", owner=BEN, lang="en")


async def test_lobby_rules(host):
    snap = await host.new_lobby(guild_id=1, channel_id=5, game_id="toy", owner=ANA, lang="en")
    with pytest.raises(HostError, match="too_few"):
        await host.start(snap.id, ANA)
    with pytest.raises(HostError, match="already_joined"):
        await host.join(snap.id, ANA)
    await host.join(snap.id, BEN)
    await host.add_bot(snap.id, ANA)
    with pytest.raises(HostError, match="lobby_full"):
        await host.join(snap.id, CAL)
    with pytest.raises(HostError, match="not_in_lobby"):
        await host.cycle_option(snap.id, "fast", CAL)
    snap = await host.cycle_option(snap.id, "fast", BEN)
    assert snap.row.options == {"fast": "on"}
    snap, what = await host.leave(snap.id, BEN)
    assert what == "left" and [s.name for s in snap.seats] == ["Ana", "Bot 1"]
    await host.start(snap.id, ANA)
    with pytest.raises(HostError, match="lobby_closed"):
        await host.join(snap.id, CAL)


async def test_refusals_change_nothing(host):
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    d = snap.decisions[0]
    other = 1 - d.seat
    users = {0: ANA, 1: BEN}
    version = snap.row.version
    with pytest.raises(HostError, match="not_your_button"):
        await host.play(gid, users[other].user_id, d.seat, snap.token(d), "add1")
    with pytest.raises(HostError, match="not_a_player"):
        await host.play(gid, CAL.user_id, d.seat, snap.token(d), "add1")
    with pytest.raises(HostError, match="not_your_turn"):
        await host.play(gid, users[other].user_id, other, snap.token(d), "add1")
    with pytest.raises(HostError, match="stale"):
        await host.play(gid, users[d.seat].user_id, d.seat, "00000000", "add1")
    with pytest.raises(HostError, match="gone"):  # the question is open; that option is not
        await host.play(gid, users[d.seat].user_id, d.seat, snap.token(d), "nonsense")
    after = await host.by_id(gid)
    assert after.row.version == version and after.row.state == snap.row.state
    assert await host.store.count_actions(gid) == 0


async def first_turn(host: Host) -> tuple[int, int, int, str]:
    """A started game of Ana and Ben: its id, who is to move (user id and seat) and the
    token of that decision's buttons."""
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    d = snap.decisions[0]
    return gid, USERS[d.seat].user_id, d.seat, snap.token(d)


async def test_stale_button_after_move(host):
    gid, user, seat, token = await first_turn(host)
    await host.play(gid, user, seat, token, "add1")
    with pytest.raises(HostError):
        await host.play(gid, user, seat, token, "add1")
    assert await host.store.count_actions(gid) == 1


async def test_concurrent_clicks_apply_once(host):
    gid, user, seat, token = await first_turn(host)
    results = await asyncio.gather(
        host.play(gid, user, seat, token, "add2"),
        host.play(gid, user, seat, token, "add2"),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], HostError)
    assert await host.store.count_actions(gid) == 1


async def test_simultaneous_private_decisions_stay_valid(host):
    """A secret pick button stays valid while others answer theirs."""
    gid = await started(host, ANA, BEN)
    users = {0: ANA, 1: BEN}
    while not (await host.by_id(gid)).row.state["secret"]:
        await play_one(host, gid, users)
    snap = await host.by_id(gid)
    tokens = {d.seat: snap.token(d) for d in snap.decisions}
    assert len(tokens) == 2 and all(d.private for d in snap.decisions)
    await host.play(gid, ANA.user_id, 0, tokens[0], "red")
    # Ben's button from before Ana's pick still plays.
    await host.play(gid, BEN.user_id, 1, tokens[1], "blue")


async def test_game_to_end_replay_and_restart(db):
    path = db
    host = await make_host(path)
    gid = await started(host, ANA, BEN, CAL)
    users = {0: ANA, 1: BEN, 2: CAL}
    for _ in range(3):
        await play_one(host, gid, users)
    await host.store.close()
    # A new process on the same file continues the game.
    host = await make_host(path)
    while (await host.by_id(gid)).row.status == "active":
        await play_one(host, gid, users)
    snap = await host.by_id(gid)
    assert snap.row.status == "over" and snap.result() is not None
    assert await host.replay(gid) == snap.row.state
    with pytest.raises(HostError, match="game_over"):
        await host.play(gid, ANA.user_id, 0, "00000000", "add1")
    await host.store.close()


async def test_bots_play_their_seats(host):
    snap = await host.new_lobby(guild_id=1, channel_id=8, game_id="toy", owner=ANA, lang="en")
    await host.add_bot(snap.id, ANA)
    await host.add_bot(snap.id, ANA)
    await host.start(snap.id, ANA)
    for _ in range(100):
        snap = await host.by_id(snap.id)
        if snap.row.status != "active":
            break
        assert snap.human_to_move() == [0]
        await play_one(host, snap.id, {0: ANA})
    snap = await host.by_id(snap.id)
    assert snap.row.status == "over"
    actions = await host.store.actions(snap.id)
    assert any(a.by_bot for a in actions) and any(not a.by_bot for a in actions)
    assert await host.replay(snap.id) == snap.row.state


async def test_leave_running_game_hands_seat_to_bot(host):
    gid = await started(host, ANA, BEN)
    before = await host.by_id(gid)
    ben_token = next((before.token(d) for d in before.decisions if d.seat == 1), "00000000")
    snap, what = await host.leave(gid, BEN)
    assert what == "bot" and snap.seats[1].is_bot and snap.seats[1].autopilot
    with pytest.raises(HostError, match="on_autopilot"):
        await host.play(gid, BEN.user_id, 1, ben_token, "add1")
    for _ in range(100):
        snap = await host.by_id(gid)
        if snap.row.status != "active":
            break
        assert snap.human_to_move() == [0]
        await play_one(host, gid, {0: ANA})
    assert (await host.by_id(gid)).row.status == "over"


async def test_abandon_vote_and_force(host):
    gid = await started(host, ANA, BEN, CAL)
    with pytest.raises(HostError, match="not_a_player"):
        await host.abandon(gid, Player(77, "X"))
    snap, what, votes, needed = await host.abandon(gid, ANA)
    assert (what, votes, needed) == ("voted", 1, 2)
    snap, what, *_ = await host.abandon(gid, ANA)  # same voter twice counts once
    assert what == "voted"
    snap, what, *_ = await host.abandon(gid, BEN)
    assert what == "abandoned" and snap.row.status == "abandoned"
    gid2 = await started(host, ANA, BEN, channel=101)
    snap, what, *_ = await host.abandon(gid2, MOD)
    assert what == "abandoned"


async def test_illegal_move_from_rules_changes_nothing(host):
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    with pytest.raises(IllegalMove):
        toygame.GAME.apply(snap.state, 1 - snap.decisions[0].seat, "add1")


async def test_undo_rules(host):
    gid = await started(host, ANA, BEN)
    users = {0: ANA, 1: BEN}
    snap = await host.by_id(gid)
    mover = snap.decisions[0].seat
    await play_one(host, gid, users)
    # A public move that revealed nothing: its player may take it back, once.
    assert await host.undoable(await host.by_id(gid)) is not None
    with pytest.raises(HostError, match="undo_not_last"):
        await host.undo(gid, users[1 - mover])
    back = await host.undo(gid, users[mover])
    assert back.row.state == snap.row.state
    assert (await host.store.actions(gid, live=False))[-1].undone == "undo"
    with pytest.raises(HostError, match="undo_nothing"):
        await host.undo(gid, users[mover])
    # A secret pick is not undone from the table (the channel must not learn of it).
    while not (await host.by_id(gid)).row.state["secret"]:
        await play_one(host, gid, users)
    snap = await host.by_id(gid)
    d = next(d for d in snap.decisions if d.seat == 0)
    await host.play(gid, ANA.user_id, 0, snap.token(d), "red")
    assert await host.undoable(await host.by_id(gid)) is None
    # While secrets are being chosen, everyone gets the same answer (Ana, who just chose,
    # and Ben, who has not), so an undo attempt tells nobody who has chosen.
    for who in (ANA, BEN):
        with pytest.raises(HostError, match="undo_secret_phase"):
            await host.undo(gid, who)
    # The pick that reveals everyone's colours cannot be taken back.
    snap = await host.by_id(gid)
    d = next(d for d in snap.decisions if d.seat == 1)
    await host.play(gid, BEN.user_id, 1, snap.token(d), "red")
    with pytest.raises(HostError, match="undo_revealed"):
        await host.undo(gid, BEN)
    assert await host.replay(gid) == (await host.by_id(gid)).row.state
