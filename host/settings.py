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
    #: COSMODROME_DB_TIMEOUT: how long (seconds) one database call may wait (to connect,
    #: for a pooled connection, for a statement; SQLite: for a locked file) before the
    #: player is told the game's storage is not answering (see host/dbfaults.py).
    db_timeout: float = 1.0
    #: How often reminders and deadlines are checked (seconds); 0 turns the checks off.
    tick_seconds: float = 60.0
    #: COSMODROME_SHARDS: the Discord shards this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: COSMODROME_SHARD_COUNT: how many shards the bot has in all (None: Discord's advice).
    shard_count: int | None = None
    #: COSMODROME_RENDER_WORKERS: worker processes drawing the pictures (host/renderpool.py);
    #: 0 draws them in a thread of the bot's own process. From the environment the default
    #: is one per core; a Settings built in code (tests, benchmarks) draws in-process.
    render_workers: int = 0
    #: COSMODROME_BOT_WORKERS: worker processes searching the bots' moves (host/botpool.py);
    #: 0 searches in a thread of the bot's own process. From the environment the default is
    #: one; a Settings built in code (tests, benchmarks) searches in-process.
    bot_workers: int = 0

    @property
    def one_of_several(self) -> bool:
        """This process runs some shards, other processes the rest (PostgreSQL only)."""
        return (
            self.shard_ids is not None
            and self.shard_count is not None
            and set(self.shard_ids) != set(range(self.shard_count))
        )

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
        timeout = merged.get("COSMODROME_DB_TIMEOUT", "").strip() or "1"
        try:
            db_timeout = float(timeout)
        except ValueError:
            db_timeout = -1.0
        if not 0.05 <= db_timeout <= 60:
            raise SettingsError(
                "COSMODROME_DB_TIMEOUT must be a number of seconds from 0.05 to 60, "
                f"got {timeout!r}"
            )
        shard_ids, shard_count = parse_shards(
            merged.get("COSMODROME_SHARDS", "").strip(),
            merged.get("COSMODROME_SHARD_COUNT", "").strip(),
        )
        workers = merged.get("COSMODROME_RENDER_WORKERS", "").strip()
        if workers and (not workers.isdigit() or int(workers) > 64):
            raise SettingsError(
                f"COSMODROME_RENDER_WORKERS must be a number from 0 to 64, got {workers!r}"
            )
        searchers = merged.get("COSMODROME_BOT_WORKERS", "").strip() or "1"
        if not searchers.isdigit() or int(searchers) > 64:
            raise SettingsError(
                f"COSMODROME_BOT_WORKERS must be a number from 0 to 64, got {searchers!r}"
            )
        settings = cls(
            render_workers=int(workers) if workers else default_render_workers(),
            bot_workers=int(searchers),
            db_pool=int(pool),
            db_timeout=db_timeout,
            token=merged.get("DISCORD_TOKEN", "").strip() or None,
            db_path=merged.get("COSMODROME_DB", "").strip() or "cosmodrome.db",
            dev_guild=int(guild) if guild else None,
            shard_ids=shard_ids,
            shard_count=shard_count,
        )
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse what cannot work: several processes on one SQLite file (one writer)."""
        if self.one_of_several and not self.db_path.startswith(("postgresql://", "postgres://")):
            raise SettingsError(
                f"COSMODROME_SHARDS={format_shards(self.shard_ids or ())} runs only some of the "
                f"{self.shard_count} shards, so other processes run the rest: that needs "
                "COSMODROME_DB to be a postgresql:// URL (SQLite has one writer; run every "
                "shard in one process instead)"
            )


def default_render_workers() -> int:
    """One render worker per core."""
    return max(1, os.cpu_count() or 1)


def format_shards(ids: tuple[int, ...]) -> str:
    """``0-3`` for a range, ``0,2,5`` otherwise."""
    if len(ids) > 1 and list(ids) == list(range(ids[0], ids[-1] + 1)):
        return f"{ids[0]}-{ids[-1]}"
    return ",".join(str(i) for i in ids)


def parse_shards(shards: str, count: str) -> tuple[tuple[int, ...] | None, int | None]:
    """COSMODROME_SHARDS (``3``, ``0-3``, ``0,2,5``) and COSMODROME_SHARD_COUNT, checked
    together. Neither: None, None (one process, every shard Discord advises)."""
    total: int | None = None
    if count:
        if not count.isdigit() or not 1 <= int(count) <= 100_000:
            raise SettingsError(
                f"COSMODROME_SHARD_COUNT must be a number of shards (1 or more), got {count!r}"
            )
        total = int(count)
    if not shards:
        return (tuple(range(total)) if total is not None else None), total
    if total is None:
        raise SettingsError(
            f"COSMODROME_SHARDS={shards} needs COSMODROME_SHARD_COUNT too (the bot's shards in "
            "all, across every process)"
        )
    ids: list[int] = []
    for part in shards.replace(" ", "").split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if m is None or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
            raise SettingsError(
                f"COSMODROME_SHARDS must be shard ids like 0-3, 5 or 0,2,5; got {shards!r}"
            )
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        ids.extend(range(first, last + 1))
    wrong = [i for i in ids if i >= total]
    if wrong:
        raise SettingsError(
            f"COSMODROME_SHARDS={shards} names shard {wrong[0]}, but shards go from 0 to "
            f"{total - 1} with COSMODROME_SHARD_COUNT={total}"
        )
    if len(set(ids)) != len(ids):
        raise SettingsError(f"COSMODROME_SHARDS={shards} names a shard twice")
    return tuple(sorted(ids)), total
