"""The entry point: settings from the environment and .env, and one-line errors."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

import bot
from host.settings import Settings, SettingsError


@pytest.fixture(autouse=True)
def _restore_discord_log_level() -> Any:
    """main() quietens discord.py's INFO lines; other tests keep the default level."""
    logger = logging.getLogger("discord")
    level = logger.level
    yield
    logger.setLevel(level)


def test_settings_from_env_and_dotenv(tmp_path, monkeypatch) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\nDISCORD_TOKEN='from-file'\nCOSMODROME_DB=games.db\n"
        "export COSMODROME_DEV_GUILD=42\n"
    )
    s = Settings.from_env(env={}, dotenv=dotenv)
    assert (s.token, s.db_path, s.dev_guild) == ("from-file", "games.db", 42)
    # The environment wins over the file.
    s = Settings.from_env(env={"DISCORD_TOKEN": "env"}, dotenv=dotenv)
    assert s.token == "env"
    s = Settings.from_env(env={}, dotenv=tmp_path / "missing")
    assert (s.token, s.db_path, s.dev_guild) == (None, "cosmodrome.db", None)
    with pytest.raises(SettingsError):
        Settings.from_env(env={"COSMODROME_DEV_GUILD": "abc"}, dotenv=None)


def test_build_bot_reads_environment_without_io(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COSMODROME_DB", str(tmp_path / "x.db"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    b = bot.build_bot()
    assert b.settings.db_path == str(tmp_path / "x.db")
    assert not (tmp_path / "x.db").exists()  # nothing opened until the bot starts


def test_missing_token_is_one_line(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "DISCORD_TOKEN" in err


def test_rejected_token_is_one_line(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")

    async def refuse(self, token: str, *, reconnect: bool = True) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(bot.Cosmodrome, "start", refuse)
    assert bot.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "rejected" in err


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith("cosmodrome: ")
    return err


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize(
    "error",
    [
        # What aiohttp raises when discord.com does not resolve / does not answer.
        aiohttp.ClientConnectorDNSError(
            SimpleNamespace(host="discord.com", port=443, ssl=True),  # type: ignore[arg-type]
            socket.gaierror(-3, "Temporary failure in name resolution"),
        ),
        aiohttp.ClientConnectorError(
            SimpleNamespace(host="discord.com", port=443, ssl=True),  # type: ignore[arg-type]
            ConnectionRefusedError(111, "Connect call failed"),
        ),
        TimeoutError(),
    ],
    ids=["dns", "refused", "timeout"],
)
def test_unreachable_discord_is_one_line(
    error: Exception, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("COSMODROME_DB", str(tmp_path / "x.db"))

    async def unreachable(self: Any, route: Any, **kwargs: Any) -> Any:
        raise error  # the first request of discord.py's own login (GET /users/@me)

    monkeypatch.setattr(discord.http.HTTPClient, "request", unreachable)
    assert bot.main() == 2
    err = one_line(capsys)
    assert "cannot reach Discord" in err and "Traceback" not in err


@pytest.mark.parametrize("where", ["missing-folder", "a-directory"])
def test_unwritable_database_is_one_line(
    where: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    path = tmp_path / "nowhere" / "x.db" if where == "missing-folder" else tmp_path
    monkeypatch.setenv("COSMODROME_DB", str(path))
    if where == "a-directory":
        # The render pool (one worker per core by default) starts before the database opens
        # and is shut down when it cannot: the first case covers that; this one spares the
        # ~4 s of spawning and joining workers (the same message either way).
        monkeypatch.setenv("COSMODROME_RENDER_WORKERS", "0")

    async def start(self: bot.Cosmodrome, token: str, *, reconnect: bool = True) -> None:
        await self.setup_hook()  # what login does once Discord accepted the token

    monkeypatch.setattr(bot.Cosmodrome, "start", start)
    assert bot.main() == 2
    err = one_line(capsys)
    assert "cannot open the database" in err and str(path) in err and "COSMODROME_DB" in err


def test_rejected_token_from_discord_401_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any
) -> None:
    """discord.py's own login code turns Discord's 401 into LoginFailure."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    response = SimpleNamespace(status=401, reason="Unauthorized")

    async def request(self: Any, route: Any, **kwargs: Any) -> Any:
        raise discord.HTTPException(response, {"code": 0, "message": "401: Unauthorized"})

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    assert bot.main() == 2
    err = one_line(capsys)
    assert "rejected" in err and "DISCORD_TOKEN" in err


def test_no_voice_library_warnings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    bot.build_bot(Settings(token="x"))
    assert not [r for r in caplog.records if "voice" in r.getMessage().lower()]


async def test_store_is_durable_against_power_cuts(tmp_path: Path) -> None:
    """WAL with synchronous=FULL: a committed move is on disk before it is announced."""
    from host.storage import Store

    store = await Store.open(tmp_path / "d.db")
    try:
        async with store.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
        async with store.db.execute("PRAGMA synchronous") as cur:
            assert (await cur.fetchone())[0] == 2  # type: ignore[index]  # 2 = FULL
    finally:
        await store.close()


#: A process started through bot.run_loop that opens the store, says so, waits for ever and
#: closes the store on its way out (as ``async with bot`` does when the bot is stopped).
_INTERRUPTED = """
import asyncio, sys
import bot
from host.storage import open_store

async def main():
    store = await open_store(sys.argv[1])
    print(type(asyncio.get_running_loop()).__module__.split(".")[0], flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await store.close()
        print("closed", flush=True)

try:
    bot.run_loop(main())
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize(("env", "loop"), [("", "uvloop"), ("0", "asyncio")])
def test_a_stop_closes_the_store_on_either_loop(
    env: str, loop: str, stop: signal.Signals, tmp_path: Path
) -> None:
    """SIGINT (Ctrl-C) and SIGTERM (a service manager's stop) cancel the bot's main task on
    uvloop's loop as on asyncio's: the store is closed and run_loop raises
    KeyboardInterrupt (main() returns 0)."""
    root = Path(bot.__file__).resolve().parent
    child = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED, str(tmp_path / "c.db")],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, bot.UVLOOP_ENV: env, "PYTHONPATH": str(root)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == loop
        child.send_signal(stop)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert out.split() == ["closed", "interrupted"]
    assert child.returncode == 0
