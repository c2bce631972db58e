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
   may gain less than the fourth place does: openskill.py issue #155; we keep the library's
   numbers rather than our own correction).
2. One player in several seats (two ``hard`` bots, say): each seat is rated as a separate
   player from the same rating, and the player's new μ and σ are the mean of its seats'.
   It counts one game.
3. A game with fewer than two distinct players (e.g. only bots of one level) is not rated.
4. Order: games are rated in the order their results were stored (``results.finished_at``,
   then the game's id); ``python -m host.ratings rebuild`` replays them in that order and
   gives exactly the incremental ratings.

    python -m host.ratings rebuild        # the database COSMODROME_DB names (or .env)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from openskill.models import PlackettLuce

from host.pacing import BOT_LEVELS, DEFAULT_BOT_LEVEL

#: The model (its defaults: μ 25, σ 25/3, β 25/6, τ 25/300).
MODEL = PlackettLuce()
MU = 25.0
SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative rating μ − 3σ: what players see and the leaderboard's order."""
        return conservative(self.mu, self.sigma)


def conservative(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class Change:
    """What one rated game did to one player's rating."""

    player: str
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """How much the shown rating moved."""
        return self.after.shown - self.before.shown


def player_key(user_id: int | None, level: str | None) -> str:
    """Who a seat is, for ratings: its person (also on autopilot), else its bot level
    (bots from before levels played at the default one)."""
    if user_id is not None:
        return str(user_id)
    return "bot:" + (level if level in BOT_LEVELS else DEFAULT_BOT_LEVEL)


def bot_level(player: str) -> str | None:
    """The level a bot player stands for; None for a person."""
    return player[4:] if player.startswith("bot:") else None


def rate(ratings: Mapping[str, Rating], seats: Sequence[tuple[str, int]]) -> list[Change]:
    """The changes one finished game makes: ``seats`` are (player, place) per seat, places
    from 1 (equal places: a tie); ``ratings`` the players' ratings before (missing: new).
    Players in the order they first sit; nothing when fewer than two players (ruling 3)."""
    players = list(dict.fromkeys(p for p, _ in seats))
    if len(players) < 2:
        return []
    before = {p: ratings.get(p, Rating()) for p in players}
    teams = [[MODEL.create_rating([before[p].mu, before[p].sigma])] for p, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in seats])
    new: dict[str, list[tuple[float, float]]] = {p: [] for p in players}
    for (p, _), team in zip(seats, rated, strict=True):
        new[p].append((team[0].mu, team[0].sigma))
    changes = []
    for p in players:
        mus, sigmas = zip(*new[p], strict=True)
        after = Rating(sum(mus) / len(mus), sum(sigmas) / len(sigmas), before[p].games + 1)
        changes.append(Change(p, before[p], after))
    return changes


#: A finished game as the ratings see it: its kind, and (player, place) per seat.
Played = tuple[str, Sequence[tuple[str, int]]]


def replay(games: Sequence[Played]) -> tuple[list[list[Change]], dict[tuple[str, str], Rating]]:
    """Rate ``games`` in order, from nobody rated: each game's changes, and every rating
    after the last, by (game kind, player)."""
    table: dict[tuple[str, str], Rating] = {}
    done = []
    for kind, seats in games:
        known = {p: table[(kind, p)] for p, _ in seats if (kind, p) in table}
        changes = rate(known, seats)
        for change in changes:
            table[(kind, change.player)] = change.after
        done.append(changes)
    return done, table


async def rebuild(target: str, *, timeout: float = 60.0) -> tuple[int, int]:
    """Rebuild every rating of the database ``target`` (an SQLite file or a PostgreSQL
    URL) from its stored results, in one transaction: (games rated, ratings written)."""
    from host.storage import is_postgres_url, open_store

    if not is_postgres_url(target) and not Path(target).is_file():
        raise FileNotFoundError(f"no database file {target!r}")
    store = await open_store(target, timeout=timeout)
    try:
        return await store.rebuild_ratings()
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    from host.settings import Settings, SettingsError, redact_url

    parser = argparse.ArgumentParser(
        prog="python -m host.ratings",
        description="Rebuild every skill rating from the stored results of finished games.",
    )
    parser.add_argument("command", choices=["rebuild"])
    parser.add_argument(
        "--db", help="an SQLite file or a postgresql:// URL (default: COSMODROME_DB, or .env)"
    )
    args = parser.parse_args(argv)
    target = args.db
    if target is None:
        try:
            target = Settings.from_env().db_path
        except SettingsError as exc:
            print(f"ratings: {exc}", file=sys.stderr)
            return 2
    try:
        games, players = asyncio.run(rebuild(target))
    except Exception as exc:  # a database that cannot be reached or read: one line
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        print(f"ratings: failed, nothing changed ({text})", file=sys.stderr)
        return 2
    print(f"ratings: rebuilt {games} games into {players} ratings in {redact_url(target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
