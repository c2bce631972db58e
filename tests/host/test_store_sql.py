"""The one SQL body of both stores (host/store_sql.py): its placeholders as PostgreSQL reads
them, the games row decoded from its columns, and the :class:`Move` record."""

from __future__ import annotations

import dataclasses
import json

import pytest

from host.rows import GAME_COLS, N_GAME_COLS, GameRow, Move, game_row
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
