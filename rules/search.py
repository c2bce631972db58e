"""One search engine for every game: information-set Monte Carlo over the game contract.

:func:`choose` picks an answer for ``seat`` using only the contract (``pending``, ``apply``,
``result``) plus the optional hooks a game may define (documented in
:class:`core.contract.Game`):

* ``sample(state, seat, rng) -> state`` — a state consistent with what ``seat`` may see:
  everything the seat's view hides (other hands, face-down tiles, deck order, other seats'
  secret choices, *and future randomness*: the generator seed kept in the state) is drawn
  again from ``rng``. The engine searches sampled states only.
* ``perfect_information = True`` — the game has nothing hidden and no stored future
  randomness, so its state may be searched as it is. A game with neither this flag nor
  ``sample`` is never searched (the engine must not peek): every level plays the heuristic.
* ``rollout(state, seat, rng) -> answer`` — the play-out policy (default: ``bot_choice``,
  else uniform random among the offered answers).
* ``evaluate(state, seat) -> float`` in [0, 1] — the seat's expected share of the win in a
  position, used when a play-out is cut short (budget ``depth``).
* ``prune(state, decision) -> option ids`` — the options worth searching (default: all).
* ``to_move(state) -> seats`` — the seats of ``pending`` computed cheaply (play-outs only
  need who moves next; default: ``pending``).
* ``reward_bonus(state, seat) -> float`` — added to a finished play-out's reward (what the
  game wants its bots to weigh besides the win; default: nothing).
* ``search_levels: dict[str, Budget]`` — the game's own budgets for some levels (a game whose
  moves are costly plays fewer play-outs to stay within the time a level allows).

Search: sequential halving over the candidate answers of the seat's decision. Each round
shares its play-outs equally among the surviving candidates; every candidate is played in
the *same* sampled worlds with the same play-out seeds (common random numbers), so their
differences are not noise of the sampling; the better half survives. The answer the game's
own policy would give is searched first, so near-ties go to it; a budget smaller than the
number of answers searches the first ones only, and no decision ever plays more play-outs
than its budget. The reward of a
finished play-out is the seat's share of the win (1 / number of winners), plus a small term
for the score margin so that close calls still lean the right way.

Budgets count play-outs, never wall-clock time, so the same ``rng`` gives the same move and
replays are exact. Multi-pick decisions are searched over every answer when there are few,
else over a seeded sample of legal answers.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.contract import Decision, IllegalMove, join_picks, random_answer

State = Any
BotChoice = Callable[[State, int, random.Random], str]


@dataclass(frozen=True)
class Budget:
    """How hard a bot thinks about one decision.

    ``playouts``: total play-outs per decision (0 = no search: the heuristic decides).
    ``depth``: moves per play-out before ``evaluate`` scores the position (None = to the
    end, or when the game has no ``evaluate``). ``noise``: the chance of picking a uniformly
    random answer instead (easy bots make mistakes). ``answers``: how many answers of a
    multi-pick decision are searched at most. ``tolerance``: among the answers whose mean
    reward is within this of the best, the first in offer (or ``prune``) order wins — the
    game's preference breaks near-ties, which keeps bots of different temperaments apart.
    ``defend``: the first answer (the game's own pick) survives every halving round, so a
    small budget never drops it on one unlucky play-out; it still loses at the end to an
    answer clearly (more than ``tolerance``) better. (Tried on Kosmonavts hard, 2026-11-26:
    of the first 16 league games against today's bot, four lost that the plain search won,
    one the other way; no level uses it.)"""

    playouts: int
    depth: int | None = None
    noise: float = 0.0
    answers: int = 12
    tolerance: float = 0.02
    defend: bool = False


#: The three levels a lobby offers per bot seat (autopilot: ``normal``).
#: Tuned on MLEM (bench/league.py; figures in the README): easy is the game's heuristic with
#: one answer in five at random, normal a short search (a few short play-outs) with one
#: answer in ten at random, hard a search whose play-outs are cut at a depth where the
#: game's ``evaluate`` judges the position. (Between two searching bots MLEM is mostly dice:
#: a normal level without slips lost only 42-46 % of its games against hard.)
LEVELS: dict[str, Budget] = {
    "easy": Budget(playouts=0, noise=0.2),
    "normal": Budget(playouts=6, depth=6, noise=0.1),
    "hard": Budget(playouts=32, depth=12),
}
DEFAULT_LEVEL = "normal"

#: weight of the score margin in a finished play-out's reward
MARGIN_WEIGHT = 0.1
#: a play-out longer than this is cut (a safety net against games that stall)
MAX_PLAYOUT_MOVES = 5000


def budget_of(level_or_budget: str | Budget, game: Any = None) -> Budget:
    """The budget of a level name (the game's own ``search_levels`` first)."""
    if isinstance(level_or_budget, Budget):
        return level_or_budget
    own = getattr(game, "search_levels", None) or {}
    try:
        return own.get(level_or_budget) or LEVELS[level_or_budget]
    except KeyError:
        raise ValueError(f"unknown bot level {level_or_budget!r}") from None


def searchable(game: Any) -> bool:
    """Whether the engine may search this game without peeking at hidden information."""
    return callable(getattr(game, "sample", None)) or bool(
        getattr(game, "perfect_information", False)
    )


def decision_of(game: Any, state: State, seat: int) -> Decision:
    for d in game.pending(state):
        if d.seat == seat:
            return d
    raise ValueError(f"no decision pending for seat {seat}")


def policy(game: Any, state: State, seat: int, rng: random.Random) -> str:
    """The game's play-out policy: ``rollout``, else ``bot_choice``, else uniform random."""
    hook = getattr(game, "rollout", None) or getattr(game, "bot_choice", None)
    if hook is not None:
        return str(hook(state, seat, rng))
    return random_answer(decision_of(game, state, seat), rng)


def candidates(
    game: Any, state: State, decision: Decision, rng: random.Random, cap: int
) -> list[str]:
    """The answers worth searching: the game's ``prune`` (default all offered ids); for a
    multi-pick decision every legal answer when there are at most ``cap``, else ``cap``
    distinct answers drawn from ``rng``."""
    prune = getattr(game, "prune", None)
    ids = [o.id for o in decision.options]
    if prune is not None:
        kept = [i for i in prune(state, decision) if decision.option(i) is not None]
        ids = kept or ids
    if not decision.multi:
        return list(dict.fromkeys(ids))
    hi = min(decision.max_picks, len(ids))
    lo = min(max(decision.min_picks, 0), hi)
    total = sum(math.comb(len(ids), k) for k in range(lo, hi + 1))
    if total <= cap:
        out = []
        for k in range(lo, hi + 1):
            for combo in itertools.combinations(ids, k):
                out.append(join_picks(decision, combo))
        return out
    seen: dict[str, None] = {}
    for _ in range(cap * 20):
        if len(seen) >= cap:
            break
        k = rng.randint(lo, hi)
        seen.setdefault(join_picks(decision, rng.sample(ids, k)), None)
    return list(seen)


def reward(game: Any, state: State, seat: int) -> float:
    """The seat's reward in a finished game: its share of the win, plus a margin term."""
    res = game.result(state)
    if res is None:  # pending() was empty but no result: count as a draw
        return 0.5
    winners = res.winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    mine = res.scores[seat]
    best_other = max((sc for i, sc in enumerate(res.scores) if i != seat), default=mine)
    margin = 0.5 + 0.5 * math.tanh((mine - best_other) / 10.0)
    out = (1 - MARGIN_WEIGHT) * share + MARGIN_WEIGHT * margin
    bonus = getattr(game, "reward_bonus", None)
    return out + float(bonus(state, seat)) if bonus is not None else out


def playout(game: Any, state: State, seat: int, rng: random.Random, depth: int | None) -> float:
    """Play ``state`` on with the game's policy for every seat; the reward for ``seat``."""
    evaluate = getattr(game, "evaluate", None)
    to_move = getattr(game, "to_move", None)
    limit = depth if (depth is not None and evaluate is not None) else MAX_PLAYOUT_MOVES
    s = state
    for _ in range(limit):
        if to_move is not None:
            seats = to_move(s)
        else:
            seats = [d.seat for d in game.pending(s)]
        if not seats:
            return reward(game, s, seat)
        mover = seats[0]
        answer = policy(game, s, mover, rng)
        try:
            s, _ = game.apply(s, mover, answer)
        except IllegalMove:
            s, _ = game.apply(s, mover, random_answer(decision_of(game, s, mover), rng))
    if evaluate is not None:
        return float(evaluate(s, seat))
    return 0.5


def _world(game: Any, state: State, seat: int, rng: random.Random) -> State:
    sample = getattr(game, "sample", None)
    if sample is not None:
        return sample(state, seat, rng)
    return state  # perfect information (checked by the caller)


def search(
    game: Any, state: State, seat: int, answers: Sequence[str], budget: Budget, rng: random.Random
) -> tuple[str, dict[str, float]]:
    """Sequential halving over ``answers`` with common random numbers; the best answer and
    the mean reward of every answer that was played."""
    alive = list(answers)[: max(1, budget.playouts)]  # a small budget: the first answers
    total = dict.fromkeys(alive, 0.0)
    count = dict.fromkeys(alive, 0)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    per_round = max(1, budget.playouts // rounds)
    spent = 0
    for r in range(rounds):
        if len(alive) == 1:
            break
        worlds = max(1, per_round // len(alive))
        worlds = min(worlds, (budget.playouts - spent) // len(alive))
        if worlds <= 0:
            break  # the budget is spent: the survivors are judged below
        spent += worlds * len(alive)
        for _w in range(worlds):
            world = _world(game, state, seat, rng)
            seed = rng.getrandbits(32)
            for ans in alive:
                try:
                    after, _ = game.apply(world, seat, ans)
                except IllegalMove:
                    continue  # not legal in this world (should not happen): no sample
                total[ans] += playout(game, after, seat, random.Random(seed), budget.depth)
                count[ans] += 1
        if r == rounds - 1:
            break  # the last survivors are judged below, near-ties to the first offered
        means = {a: total[a] / count[a] if count[a] else -1.0 for a in alive}
        order = sorted(alive, key=lambda a: -means[a])  # stable: ties keep offer order
        keep = order[: max(1, math.ceil(len(order) / 2))]
        if budget.defend and answers[0] in alive and answers[0] not in keep:
            keep.append(answers[0])
        alive = [a for a in alive if a in keep]  # back in offer order
    means = {a: total[a] / count[a] for a in total if count[a]}
    top = max(means[a] for a in alive if a in means) if means else 0.0
    best = next((a for a in alive if means.get(a, -1.0) >= top - budget.tolerance), alive[0])
    return best, means


def legal(game: Any, state: State, seat: int, answer: str) -> bool:
    """Whether the game accepts ``answer`` from ``seat`` now (a multi-pick answer may be a
    set of offered options that the rules still refuse together)."""
    try:
        game.apply(state, seat, answer)
    except IllegalMove:
        return False
    return True


def choose(
    game: Any, state: State, seat: int, rng: random.Random, level_or_budget: str | Budget
) -> str:
    """An answer for ``seat``'s pending decision (an option id, or a multi-pick answer).

    Deterministic in ``rng``. Raises ValueError when the seat has no decision."""
    budget = budget_of(level_or_budget, game)
    decision = decision_of(game, state, seat)
    if budget.noise and rng.random() < budget.noise:
        slip = random_answer(decision, rng)
        if not decision.multi or legal(game, state, seat, slip):
            return slip
        # A random mix of picks the rules refuse (goods beyond the holds…): the policy's.
        return policy(game, state, seat, rng)
    if budget.playouts <= 0 or not searchable(game):
        return policy(game, state, seat, rng)
    answers = candidates(game, state, decision, rng, budget.answers)
    own = policy(game, state, seat, rng)
    if own in answers:  # the game's own pick first: near-ties go to it
        answers.remove(own)
        answers.insert(0, own)
    elif decision.multi:
        answers.append(own)
    if len(answers) == 1:
        return answers[0]
    best, _ = search(game, state, seat, answers, budget, rng)
    return best


def bot_for(game: Any, level: str | Budget = DEFAULT_LEVEL) -> BotChoice:
    """A ``bot_choice(state, seat, rng)``-compatible function playing ``game`` at ``level``."""
    budget = budget_of(level, game)

    def bot_choice(state: State, seat: int, rng: random.Random) -> str:
        return choose(game, state, seat, rng, budget)

    bot_choice.__name__ = f"bot_{getattr(game, 'id', 'game')}_{level}"
    return bot_choice
