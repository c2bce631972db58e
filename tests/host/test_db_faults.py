"""Database faults told apart from bugs (host/dbfaults.py), and their setting."""

from __future__ import annotations

import sqlite3

import pytest

from host.dbfaults import StorageDown, fault_key, storage_fault, timed_out
from host.settings import Settings, SettingsError


def test_timeout_setting() -> None:
    assert Settings.from_env(env={}, dotenv=None).db_timeout == 1.0
    env = {"COSMODROME_DB_TIMEOUT": "2.5"}
    assert Settings.from_env(env=env, dotenv=None).db_timeout == 2.5
    for bad in ("0", "soon", "-1", "nan", "600"):
        with pytest.raises(SettingsError, match="COSMODROME_DB_TIMEOUT"):
            Settings.from_env(env={"COSMODROME_DB_TIMEOUT": bad}, dotenv=None)


def test_faults_and_bugs_told_apart() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    assert storage_fault(full)
    assert storage_fault(sqlite3.OperationalError("database is locked"))
    assert not storage_fault(sqlite3.OperationalError("no such table: games"))
    assert not storage_fault(ValueError("a bug"))
    assert not storage_fault(TimeoutError())  # not the database's client: Discord's?
    try:
        raise RuntimeError("wrapped") from full
    except RuntimeError as err:
        assert storage_fault(err)
    assert fault_key(full) == "host.error.storage_down"
    try:
        raise StorageDown("host.error.storage_unsure") from full
    except StorageDown as err:
        assert storage_fault(err) and fault_key(err) == "host.error.storage_unsure"


def test_timeouts_told_from_lost_connections() -> None:
    assert timed_out(sqlite3.OperationalError("database is locked"))
    assert not timed_out(sqlite3.OperationalError("database or disk is full"))
    assert not timed_out(TimeoutError())  # not from the database's client
    try:
        raise StorageDown() from TimeoutError()
    except StorageDown as err:
        assert timed_out(err)
