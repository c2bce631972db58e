"""The rating model of host/ratings.py (read its docstring: who is a player, what is shown,
the rulings): OpenSkill's Plackett-Luce, pure functions, no I/O. The store rates with it in
the transaction that stores a game's results; ``python -m host.ratings rebuild`` replays it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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
