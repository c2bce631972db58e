"""COSMODROME_DB as a PostgreSQL URL: settings, and a start-up failure in one line that
never shows the password."""

from __future__ import annotations

import logging

import pytest

import bot
from host.settings import Settings, SettingsError, redact_url
from host.storage import SqliteStore, is_postgres_url, open_store
from host.storage_pg import PgStore
from tests.host.pgserver import PgTestServer


def test_the_url_picks_the_backend() -> None:
    assert is_postgres_url("postgresql://cosmo@db/cosmo")
    assert is_postgres_url("postgres://cosmo@db/cosmo")
    assert not is_postgres_url("cosmodrome.db") and not is_postgres_url("/srv/postgresql.db")


def test_pool_setting() -> None:
    assert Settings.from_env(env={}, dotenv=None).db_pool == 10
    assert Settings.from_env(env={"COSMODROME_DB_POOL": "25"}, dotenv=None).db_pool == 25
    for bad in ("1", "lots", "-3"):
        with pytest.raises(SettingsError, match="COSMODROME_DB_POOL"):
            Settings.from_env(env={"COSMODROME_DB_POOL": bad}, dotenv=None)


def test_passwords_are_starred_out() -> None:
    assert redact_url("postgresql://cosmo:hunter2@db:5432/cosmo") == (
        "postgresql://cosmo:***@db:5432/cosmo"
    )
    assert redact_url("postgresql://cosmo@db/cosmo") == "postgresql://cosmo@db/cosmo"
    assert redact_url("cosmodrome.db") == "cosmodrome.db"


async def test_open_store_opens_either(tmp_path, pg_url: str) -> None:
    sqlite = await open_store(tmp_path / "a.db")
    pg = await open_store(pg_url, pool=3)
    try:
        assert isinstance(sqlite, SqliteStore) and isinstance(pg, PgStore)
        # the clicks' pool and the publish locks' pool: 3 connections in all
        assert (pg.pool.get_max_size(), pg.lock_pool.get_max_size()) == (2, 1)
    finally:
        await sqlite.close()
        await pg.close()


async def test_a_database_that_cannot_be_opened_is_one_line(pg_server: PgTestServer) -> None:
    url = pg_server.url("no_such_db").replace("postgres@", "postgres:hunter2@")
    b = bot.build_bot(Settings(token="x", db_path=url))
    with pytest.raises(bot.StartupError) as err:
        await b.setup_hook()
    text = bot.startup_message(err.value)
    assert "no_such_db" in text and "hunter2" not in text and "\n" not in text


def test_shard_settings() -> None:
    pg = {"COSMODROME_DB": "postgresql://cosmo@db/cosmo"}
    s = Settings.from_env(env={}, dotenv=None)
    assert (s.shard_ids, s.shard_count, s.one_of_several) == (None, None, False)
    s = Settings.from_env(env={"COSMODROME_SHARD_COUNT": "4"}, dotenv=None)
    assert (s.shard_ids, s.shard_count, s.one_of_several) == ((0, 1, 2, 3), 4, False)
    env = {**pg, "COSMODROME_SHARDS": "2-3", "COSMODROME_SHARD_COUNT": "4"}
    s = Settings.from_env(env=env, dotenv=None)
    assert (s.shard_ids, s.shard_count, s.one_of_several) == ((2, 3), 4, True)
    env = {**pg, "COSMODROME_SHARDS": "5", "COSMODROME_SHARD_COUNT": "8"}
    assert Settings.from_env(env=env, dotenv=None).shard_ids == (5,)
    env = {**pg, "COSMODROME_SHARDS": "0,2, 4", "COSMODROME_SHARD_COUNT": "8"}
    assert Settings.from_env(env=env, dotenv=None).shard_ids == (0, 2, 4)
    # Every shard in one process is fine on SQLite.
    env = {"COSMODROME_SHARDS": "0-1", "COSMODROME_SHARD_COUNT": "2"}
    assert not Settings.from_env(env=env, dotenv=None).one_of_several


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"COSMODROME_SHARD_COUNT": "none"}, "COSMODROME_SHARD_COUNT"),
        ({"COSMODROME_SHARD_COUNT": "0"}, "COSMODROME_SHARD_COUNT"),
        ({"COSMODROME_SHARDS": "0-3"}, "needs COSMODROME_SHARD_COUNT"),
        ({"COSMODROME_SHARDS": "3-1", "COSMODROME_SHARD_COUNT": "4"}, "like 0-3"),
        ({"COSMODROME_SHARDS": "a", "COSMODROME_SHARD_COUNT": "4"}, "like 0-3"),
        ({"COSMODROME_SHARDS": "2-5", "COSMODROME_SHARD_COUNT": "4"}, "names shard 4"),
        ({"COSMODROME_SHARDS": "1,1", "COSMODROME_SHARD_COUNT": "4"}, "twice"),
        # Several processes on one SQLite file: refused (one writer).
        ({"COSMODROME_SHARDS": "0-1", "COSMODROME_SHARD_COUNT": "4"}, "postgresql://"),
    ],
)
def test_bad_shard_settings_are_one_line(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env(env=env, dotenv=None)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_several_processes_on_sqlite_refused_at_start(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    discord_log = logging.getLogger("discord")
    monkeypatch.setattr(discord_log, "level", discord_log.level)  # main() quietens it
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("COSMODROME_DB", str(tmp_path / "x.db"))
    monkeypatch.setenv("COSMODROME_SHARDS", "0-1")
    monkeypatch.setenv("COSMODROME_SHARD_COUNT", "4")
    assert bot.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cosmodrome: COSMODROME_SHARDS=0-1") and err.count("\n") == 0
    assert not (tmp_path / "x.db").exists()


async def test_a_settings_object_for_several_processes_on_sqlite_fails_to_start(
    tmp_path,
) -> None:
    b = bot.build_bot(
        Settings(token="x", db_path=str(tmp_path / "x.db"), shard_ids=(1,), shard_count=2)
    )
    assert (b.shard_ids, b.shard_count) == ([1], 2)
    with pytest.raises(bot.StartupError, match="postgresql://"):
        await b.setup_hook()
    assert not (tmp_path / "x.db").exists()
