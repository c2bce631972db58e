"""The entry point: settings from the environment and .env, and one-line errors."""

from __future__ import annotations

import discord
import pytest

import bot
from host.settings import Settings, SettingsError


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
