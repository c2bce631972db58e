"""Skill ratings: OpenSkill's Plackett-Luce model (μ 25, σ 25/3 to start), one rating per
player per game kind, updated from a finished game's final ranking in the transaction that
stores its results (:meth:`host.store_api.Storage.save_results`). Abandoned games have no
results, so they are never rated.

A player is a person (their Discord user id, as text) or a bot level (``bot:easy``,
``bot:normal``, ``bot:hard``): every level is rated as a player of its own, so people see
how they compare with it. A seat on autopilot counts as its person (the result is theirs).
What players see is the conservative rating μ − 3σ (0 to start): ``/leaderboard`` orders by
it, and the final message shows how it moved.

Rulings:

1. Ties share a place (the game's :class:`core.contract.Result` ranks) and are passed to the
   model as equal ranks, as OpenSkill computes them (with Plackett-Luce, a tie for second
   may gain less than the fourth place does, still so in openskill 6.2.0: openskill.py issue
   #155; we keep the library's numbers rather than our own correction).
2. One player in several seats (two ``hard`` bots, say): each seat is rated as a separate
   player from the same rating, and the player's new μ and σ are the mean of its seats'.
   It counts one game.
3. A game with fewer than two distinct players (e.g. only bots of one level) is not rated.
4. Order: games are rated in the order their results were stored (``results.finished_at``,
   then the game's id; results saved again keep their first time);
   ``python -m host.ratings rebuild`` replays them in that order and gives exactly the
   incremental ratings (unless the clock stepped back between two games' ends).

    python -m host.ratings rebuild        # the database COSMODROME_DB names (or .env)

The model is in host/skill.py (pure); the SQL in host/store_sql.py; this module is the
command.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from host.settings import Settings, SettingsError, redact_url
from host.storage import is_postgres_url, open_store


async def rebuild(target: str, *, timeout: float = 60.0) -> tuple[int, int]:
    """Rebuild every rating of the database ``target`` (an SQLite file or a PostgreSQL
    URL) from its stored results, in one transaction: (games rated, ratings written)."""
    if not is_postgres_url(target) and not Path(target).is_file():
        raise FileNotFoundError(f"no database file {target!r}")
    store = await open_store(target, timeout=timeout)
    try:
        return await store.rebuild_ratings()
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host.ratings",
        description="Rebuild every skill rating from the stored results of finished games.",
    )
    parser.add_argument("command", choices=["rebuild"])
    parser.add_argument(
        "--db", help="an SQLite file or a postgresql:// URL (default: COSMODROME_DB, or .env)"
    )
    args = parser.parse_args(argv)
    try:
        target = args.db or Settings.from_env().db_path
        games, players = asyncio.run(rebuild(target))
    except SettingsError as exc:
        return _fail(str(exc))
    except Exception as exc:  # a database that cannot be reached or read: one line
        return _fail("failed, nothing changed ({})".format(" ".join(f"{exc!r}".split())))
    print(f"ratings: rebuilt {games} games into {players} ratings in {redact_url(target)}")
    return 0


def _fail(why: str) -> int:
    print(f"ratings: {why}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
