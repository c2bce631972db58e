"""The engine kit: the small helpers every rules engine needs, in one place.

Pure Python, no discord, no SQL, no PIL. A game's engine uses these instead of writing its
own copies:

* :func:`clone` — a deep copy of a plain-data state (dict/list/str/int/float/bool/None).
* :func:`rng` — the next seeded generator of a state. The state keeps a counter, so the same
  seed and the same choices draw the same numbers, bit for bit, after any save and load.
* :class:`Events` — builds :class:`core.contract.Event` values with the game's key prefix.
* :class:`Options` — builds (and shares) :class:`core.contract.Option` values with the
  game's key prefix.
* :func:`load_json` / :func:`data_path` — a game's component files under ``data/<game>/``,
  read once by the game's ``board``/``data`` module.
* :func:`check` — a guard for ``load`` that raises ``ValueError`` on impossible data.
"""

from __future__ import annotations

import json
import marshal
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from core.contract import Decision, Event, IllegalMove, Option, Result

DATA = Path(__file__).resolve().parent.parent / "data"


def clone(s: dict[str, Any]) -> dict[str, Any]:
    """Deep copy of a state made of dicts, lists, strings, numbers, booleans and None.

    Tuples come back as tuples; keep states to JSON types so ``dump``/``load`` is the
    identity."""
    out: dict[str, Any] = marshal.loads(marshal.dumps(s))
    return out


def rows(v: list[Any]) -> list[Any]:
    """A copy of a list of flat lists (or None): for :func:`copy_by_shape`."""
    return [x if x is None else x[:] for x in v]


def maps(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of a list of flat dicts: for :func:`copy_by_shape`."""
    return [x.copy() for x in v]


_SCALARS = (int, str, bool, float, type(None))


def copy_by_shape(s: dict[str, Any], shapes: Mapping[str, Callable[[Any], Any]]) -> dict[str, Any]:
    """What :func:`clone` gives (equal, sharing no container with ``s``), made key by key:
    ``shapes[key]`` copies a value of a known shape (much cheaper than a generic deep copy);
    other keys holding a container get :func:`clone`'s copy, scalars are shared."""
    out: dict[str, Any] = {}
    for k, v in s.items():
        f = shapes.get(k)
        if f is not None:
            out[k] = f(v)
        elif type(v) in _SCALARS:
            out[k] = v
        else:
            out[k] = marshal.loads(marshal.dumps(v))
    return out


def rng(
    s: dict[str, Any],
    game: str,
    counter: str = "rc",
    seed: str = "seed",
    stream: str = "{game}:{seed}:{n}",
) -> random.Random:
    """A fresh generator for the next random act of state ``s`` (mutated: its counter
    ``s[counter]`` goes up by one). Draw everything one act needs from the generator this
    returns; the next act asks again.

    ``stream`` is the generator's seed string, formatted with ``game``, ``seed`` (the
    state's seed), ``n`` (this act's number, from 0) and ``count`` (``n + 1``). Keep the
    default for new games; an engine whose saved games used another string passes it, so
    that they replay unchanged (Kosmonavts: ``"{seed}:{count}"``)."""
    n = int(s.get(counter, 0))
    s[counter] = n + 1
    return random.Random(stream.format(game=game, seed=s[seed], n=n, count=n + 1))


class Events:
    """Event builder for one game: ``ev = Events("mlem")`` then
    ``events.append(ev("crash", seat=2, moon="m1"))`` makes ``mlem.event.crash``.

    A ``seat`` is also put in the arguments (shown as the player's name)."""

    def __init__(self, game: str) -> None:
        self.prefix = f"{game}.event."

    def __call__(
        self,
        code: str,
        seat: int | None = None,
        *,
        private_to: int | None = None,
        reveals: bool = False,
        **args: Any,
    ) -> Event:
        if seat is not None:
            args = {"seat": seat, **args}
        return Event(
            code=self.prefix + code, args=args, seat=seat, private_to=private_to, reveals=reveals
        )


class Options:
    """Option builder for one game: ``opt = Options("kosmonavts")`` then
    ``opt("land", "opt.land", "primary", body="moon")`` makes an option whose label key is
    ``kosmonavts.opt.land``. Identical options are shared (they are immutable), which keeps
    ``pending`` cheap in play-outs."""

    def __init__(self, game: str) -> None:
        self.prefix = f"{game}."
        self._cache: dict[tuple[Any, ...], Option] = {}
        #: The same options keyed by the arguments in the order given (no sort): the
        #: first look-up, as a call site always names its arguments in one order.
        self._given: dict[tuple[Any, ...], Option] = {}

    def __call__(
        self, option_id: str, label: str, style: str = "secondary", **args: Any
    ) -> Option:
        given = (option_id, label, style, *args.items())
        try:
            return self._given[given]
        except KeyError:
            opt = self._given[given] = self._shared(option_id, label, style, args)
            return opt
        except TypeError:  # an unhashable argument: not shared
            return Option(option_id, self.prefix + label, args, style)

    def _shared(self, option_id: str, label: str, style: str, args: dict[str, Any]) -> Option:
        key = (option_id, label, style, *sorted(args.items()))
        try:
            return self._cache[key]
        except KeyError:
            opt = self._cache[key] = Option(option_id, self.prefix + label, args, style)
            return opt


def data_path(game: str, name: str) -> Path:
    return DATA / game / name


@cache
def load_json(game: str, name: str) -> Any:
    """``data/<game>/<name>``, parsed once per process. Treat the result as read-only."""
    return json.loads(data_path(game, name).read_text(encoding="utf-8"))


def check(cond: bool, what: str) -> None:
    """For ``load``: refuse impossible data with a readable reason."""
    if not cond:
        raise ValueError(f"invalid state: {what}")


def named(cls: Any, game: str | None, players: tuple[int, int] | None) -> None:
    """What a game's class line says of it: its ``id`` ``game`` (and ``name``, the key
    ``"<game>.name"``) and its ``min_players`` and ``max_players``; None leaves them."""
    if game is not None:
        cls.id, cls.name = game, f"{game}.name"
    if players is not None:
        cls.min_players, cls.max_players = players


#: The search hooks a game's ``search`` module may define (see :class:`core.contract.Game`).
SEARCH_HOOKS = ("sample", "rollout", "evaluate", "prune", "to_move", "reward_bonus")


class EngineGame:
    """The contract's seven calls forwarded to a game's engine module, whose functions are
    named ``new_state``, ``pending_of``, ``apply_move``, ``view_of``, ``result_of``,
    ``dump_state`` and ``load_state``. A game class sets ``engine`` (and ``views``, the module
    with ``view_of``, when its views are made outside the engine) and adds its attributes
    and optional hooks (see :class:`core.contract.Game`).

    The class line names the game, its seats and its modules, which fills in the glue every
    game repeats: ``class XGame(EngineGame, game="x", players=(2, 5), search=_search,
    bot=choose)`` sets ``id``, ``name`` (``"x.name"``), ``min_players`` and ``max_players``;
    binds every search hook (:data:`SEARCH_HOOKS`) the ``search`` module defines, and its
    ``LEVELS`` as ``search_levels``; and with ``bot`` (``choose(state, seat, rng) ->
    answer``) gives :meth:`bot_choice`."""

    engine: ModuleType
    views: ModuleType | None = None
    id: str
    name: str
    min_players: int
    max_players: int
    # Set only when the ``search`` module defines them (the host and the search engine ask
    # with getattr); declared here for readers and type checkers.
    sample: Callable[[dict[str, Any], int, random.Random], dict[str, Any]]
    rollout: Callable[[dict[str, Any], int, random.Random], str]
    evaluate: Callable[[dict[str, Any], int], float]
    prune: Callable[[dict[str, Any], Decision], list[str]]
    to_move: Callable[[dict[str, Any]], list[int]]
    search_levels: Mapping[str, Any]
    _bot: ClassVar[staticmethod[[dict[str, Any], int, random.Random], str] | None] = None

    def __init_subclass__(
        cls,
        *,
        game: str | None = None,
        players: tuple[int, int] | None = None,
        search: ModuleType | None = None,
        bot: Callable[[dict[str, Any], int, random.Random], str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        named(cls, game, players)
        if search is not None:
            for hook in SEARCH_HOOKS:
                if hasattr(search, hook):
                    setattr(cls, hook, staticmethod(getattr(search, hook)))
            if hasattr(search, "LEVELS"):
                cls.search_levels = search.LEVELS
        if bot is not None:
            cls._bot = staticmethod(bot)

    def bot_choice(self, state: dict[str, Any], seat: int, rng: random.Random) -> str:
        """A sensible pick for a bot seat, from what that seat may see (the ``bot`` of the
        class line); refused when the seat has nothing to decide."""
        if not any(d.seat == seat for d in self.pending(state)):
            raise IllegalMove(f"{self.id}.error.not_your_turn")
        if self._bot is None:
            raise NotImplementedError(f"{self.id}: no bot on the class line")
        return self._bot(state, seat, rng)

    def new(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return self.engine.new_state(players, options, seed)  # type: ignore[no-any-return]

    def pending(self, state: dict[str, Any]) -> list[Decision]:
        return self.engine.pending_of(state)  # type: ignore[no-any-return]

    def apply(
        self, state: dict[str, Any], seat: int, choice: str
    ) -> tuple[dict[str, Any], list[Event]]:
        return self.engine.apply_move(state, seat, choice)  # type: ignore[no-any-return]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return (self.views or self.engine).view_of(state, seat)  # type: ignore[no-any-return]

    def result(self, state: dict[str, Any]) -> Result | None:
        return self.engine.result_of(state)  # type: ignore[no-any-return]

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return self.engine.dump_state(state)  # type: ignore[no-any-return]

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return self.engine.load_state(data)  # type: ignore[no-any-return]


def cloned(data: Mapping[str, Any], game: str) -> dict[str, Any]:
    """``load``'s first step: a private copy of stored data, refused with ``ValueError``
    when it is not plain data."""
    try:
        return clone(dict(data))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a {game} state: {exc}") from exc


def view_head(s: Mapping[str, Any], phase_keys: Mapping[str, str], scores: Any) -> dict[str, Any]:
    """The first entries of a view for a state that keeps ``round``, ``step`` (its phase,
    ``"over"`` at the end) and ``n``: round, phase (its i18n key), step, scores, over,
    players."""
    return {
        "round": s["round"],
        "phase": phase_keys[s["step"]],
        "step": s["step"],
        "scores": scores,
        "over": s["step"] == "over",
        "players": s["n"],
    }


def result_view(res: Result, *, winners: bool = True) -> dict[str, Any]:
    """A view's ``result`` once the game is over: scores, ranks, each seat's breakdown and
    (``winners``) the winning seats."""
    out: dict[str, Any] = {
        "scores": list(res.scores),
        "ranks": list(res.ranks),
        "breakdown": [dict(b) for b in res.breakdown],
    }
    if winners:
        out["winners"] = list(res.winners)
    return out


def load_checked(
    data: Mapping[str, Any], game: str, validate: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """A game's ``load``: a private copy of ``data`` that ``validate`` accepts (it raises
    ``ValueError``, e.g. through :func:`check`); a missing or mistyped entry is refused with
    ``ValueError`` too."""
    s = cloned(data, game)
    try:
        validate(s)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"malformed {game} state: {exc!r}") from exc
    return s


def load_or_refuse(
    data: Mapping[str, Any],
    game: str,
    validate: Callable[[dict[str, Any]], None],
    upgrade: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """A game's ``load``: a private copy of ``data``, brought up to date by ``upgrade`` (a
    state an older engine saved), that ``validate`` accepts. Anything missing, mistyped or
    refused is one ``ValueError``: "not a(n) <game> state: ..."."""
    try:
        s = clone(dict(data))
        if upgrade is not None:
            upgrade(s)
        validate(s)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        article = "an" if game[0] in "aeiou" else "a"
        raise ValueError(f"not {article} {game} state: {exc!r}") from exc
    return s


def shown_scores(
    s: Mapping[str, Any],
    result_of: Callable[[Any], Result | None],
    running: Callable[[Any, int], int],
) -> list[int]:
    """The scores a table shows: the final ones once the game is over (``s["step"]``),
    else each seat's ``running`` score."""
    if s["step"] == "over":
        res = result_of(s)
        assert res is not None
        return list(res.scores)
    return [running(s, seat) for seat in range(s["n"])]


def ranks_of(keys: Sequence[Any]) -> tuple[int, ...]:
    """Each seat's place from its ranking key (points, then any tie-breaks, as a tuple):
    1 + how many seats have a greater key, so equal keys share a place."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def result_of_parts(parts: Sequence[Mapping[str, int]]) -> Result:
    """The result of a game scored by parts alone: each seat's total is the sum of its
    parts, and seats equal on points share a place (no tie-break)."""
    scores = tuple(sum(p.values()) for p in parts)
    return Result(scores=scores, ranks=ranks_of(scores), breakdown=tuple(parts))
