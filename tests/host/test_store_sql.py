"""The one SQL body of both stores (host/store_sql.py): its placeholders as PostgreSQL reads
them, the games row decoded from its columns, the :class:`Move` record, and the statements whose
SQL was once written differently for each database (upserts, ``INSERT OR IGNORE``,
``SUM(rank = 1)``), on both."""

from __future__ import annotations

import dataclasses
import json

import pytest

from host import store_sql
from host.rows import GAME_COLS, N_GAME_COLS, ChannelBusy, GameRow, Move, NewGame, game_row
from host.storage import open_store
from host.storage_pg import numbered


def test_placeholders_are_numbered_in_order() -> None:
    assert numbered("SELECT 1") == "SELECT 1"
    assert numbered("UPDATE t SET a = ?, b = ? WHERE id = ?") == (
        "UPDATE t SET a = $1, b = $2 WHERE id = $3"
    )
    assert numbered("? ?") == "$1 $2"


def test_the_games_columns_are_the_row_fields_in_order() -> None:
    names = [f.name for f in dataclasses.fields(GameRow)]
    assert GAME_COLS.split(", ") == names
    assert N_GAME_COLS == len(names) == 29


def test_a_games_row_decodes_its_json_columns() -> None:
    values: dict[str, object] = dict.fromkeys(GAME_COLS.split(", "))
    values.update(
        id=7,
        channel_id=100,
        game="mlem",
        status="active",
        options=json.dumps({"a": "b"}),
        seed=3,
        version=2,
        state=json.dumps({"x": 1}),
        lang="es",
        owner_id=1,
        table_to_move="[0]",
        created_at=1.0,
        updated_at=2.0,
        host_options="",
        nudge_messages=None,
        published_version=0,
        trail_seq=0,
        trail_key="",
    )
    row = game_row(values.values())
    assert (row.options, row.state, row.table_to_move) == ({"a": "b"}, {"x": 1}, [0])
    assert (row.host_options, row.nudge_messages, row.publish_fails) == ({}, [], 0)
    assert game_row({**values, "state": None}.values()).state is None


def test_a_move_is_a_frozen_record_with_the_old_defaults() -> None:
    move = Move(1, 4, 0, "x", by_user=9, by_bot=False, events=[], state={}, over=False, now=5.0)
    left_out = (move.think, move.timer, move.waits, move.waits_was, move.timers_opened)
    assert left_out == (None,) * 5
    assert (move.wake_at, tuple(move.timers_closed)) == (0.0, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.version = 5  # type: ignore[misc]


async def test_results_votes_and_stats_read_the_same_on_both_backends(db: str) -> None:
    store = await open_store(db)
    try:
        lobby = NewGame(
            "mlem", {}, seed=1, owner_id=1, guild_id=5, channel_id=9, lang="en", now=1.0
        )
        gid = await store.create_game(lobby)
        with pytest.raises(ChannelBusy):  # one live game a channel
            await store.create_game(dataclasses.replace(lobby, seed=2))
        assert await store.vote(gid, "undo", 1, 2.0) == {1}
        assert await store.vote(gid, "undo", 1, 3.0) == {1}  # a second vote is the same vote
        assert await store.vote(gid, "undo", 2, 3.0) == {1, 2}
        rows = [
            (gid, 0, 1, 5, "mlem", 10, 2, False, 4.0),
            (gid, 1, 2, 5, "mlem", 14, 1, True, 4.0),
        ]
        await store.save_results(rows)
        await store.save_results([(gid, 0, 1, 5, "mlem", 12, 1, True, 5.0), rows[1]])  # replaced
        assert await store.user_stats(1) == [("mlem", 1, 1, 12.0, 1)]
    finally:
        await store.close()


async def test_every_seats_dm_panel_read_at_once_as_one_by_one(db: str) -> None:
    """``dm_panels`` (one read for a publish's every seat) gives what ``dm_panel`` gives seat
    by seat; ``set_dm_panel`` (one statement in a transaction of its own) replaces a seat's."""
    store = await open_store(db)
    try:
        lobby = NewGame(
            "mlem", {}, seed=1, owner_id=1, guild_id=5, channel_id=9, lang="en", now=1.0
        )
        gid = await store.create_game(lobby)
        assert await store.dm_panels(gid) == {}
        await store.set_dm_panel(gid, 0, "a/1", 40, 41)
        await store.set_dm_panel(gid, 2, "", None, None)
        await store.set_dm_panel(gid, 0, "a/2", 40, 42)  # replaced
        panels = await store.dm_panels(gid)
        assert panels == {0: ("a/2", 40, 42), 2: ("", None, None)}
        for seat in range(3):
            assert await store.dm_panel(gid, seat) == panels.get(seat)
        assert await store.dm_panels(gid + 1) == {}
    finally:
        await store.close()


def test_an_actions_events_are_decoded_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The action log's events (host/store_sql.py ``decoded_events``): what ``json.loads``
    gives, decoded once per stored text (a publish reads the same actions after every move);
    the memo is bounded."""
    monkeypatch.setattr(store_sql, "_EVENTS", {})
    monkeypatch.setattr(store_sql, "EVENTS_KEPT", 3)
    text = json.dumps([{"code": "mlem.event.launch", "args": {"n": 1.0, "ok": True}}])
    first = store_sql.decoded_events(text)
    assert first == json.loads(text) and type(first[0]["args"]["n"]) is float
    assert store_sql.decoded_events("" + text) is first  # an equal text read again
    for n in range(5):
        assert store_sql.decoded_events(f"[{n}]") == [n]
    assert len(store_sql._EVENTS) <= 3
    assert store_sql.decoded_events(b"[7]") == [7]  # (bytes: decoded, not kept)
