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
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from core.contract import Decision, Event, Option, Result

DATA = Path(__file__).resolve().parent.parent / "data"


def clone(s: dict[str, Any]) -> dict[str, Any]:
    """Deep copy of a state made of dicts, lists, strings, numbers, booleans and None.

    Tuples come back as tuples; keep states to JSON types so ``dump``/``load`` is the
    identity."""
    out: dict[str, Any] = marshal.loads(marshal.dumps(s))
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

    def __call__(
        self, option_id: str, label: str, style: str = "secondary", **args: Any
    ) -> Option:
        key = (option_id, label, style, *sorted(args.items()))
        try:
            return self._cache[key]
        except KeyError:
            opt = self._cache[key] = Option(option_id, self.prefix + label, args, style)
            return opt
        except TypeError:  # an unhashable argument: not shared
            return Option(option_id, self.prefix + label, args, style)


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


class EngineGame:
    """The contract's seven calls forwarded to a game's engine module, whose functions are
    named ``new_state``, ``pending_of``, ``apply_move``, ``view_of``, ``result_of``,
    ``dump_state`` and ``load_state``. A game class sets ``engine`` (and ``views``, the module
    with ``view_of``, when its views are made outside the engine) and adds its attributes
    and optional hooks (see :class:`core.contract.Game`)."""

    engine: ModuleType
    views: ModuleType | None = None

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
