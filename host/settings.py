"""Settings from environment variables (and a ``.env`` file in the working directory)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse ``KEY=value`` lines (``#`` comments, optional quotes). Missing file: empty."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def redact_url(url: str) -> str:
    """A database URL fit for a log line: its password, if any, is starred out."""
    return re.sub(r"^(\w+://[^:/@]*:)[^/]*@", r"\1***@", url)


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    #: COSMODROME_DB: an SQLite file path, or a ``postgresql://`` URL for PostgreSQL.
    db_path: str = "cosmodrome.db"
    dev_guild: int | None = None
    #: COSMODROME_DB_POOL: at most this many PostgreSQL connections per process.
    db_pool: int = 10
    #: How often reminders and deadlines are checked (seconds); 0 turns the checks off.
    tick_seconds: float = 60.0

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
    ) -> Settings:
        """Environment first, then ``.env`` for what the environment does not set."""
        merged: dict[str, str] = {}
        if dotenv is not None:
            merged.update(read_dotenv(dotenv))
        merged.update(os.environ if env is None else env)
        guild = merged.get("COSMODROME_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"COSMODROME_DEV_GUILD must be a server id, got {guild!r}")
        pool = merged.get("COSMODROME_DB_POOL", "").strip() or "10"
        if not pool.isdigit() or not 2 <= int(pool) <= 1000:
            raise SettingsError(
                f"COSMODROME_DB_POOL must be a number from 2 to 1000, got {pool!r}"
            )
        return cls(
            db_pool=int(pool),
            token=merged.get("DISCORD_TOKEN", "").strip() or None,
            db_path=merged.get("COSMODROME_DB", "").strip() or "cosmodrome.db",
            dev_guild=int(guild) if guild else None,
        )
