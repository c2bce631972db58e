"""COSMODROME_DB as a PostgreSQL URL: settings, and a start-up failure in one line that
never shows the password."""

from __future__ import annotations

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
        assert pg.pool.get_max_size() == 3
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
