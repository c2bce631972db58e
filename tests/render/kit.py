"""What the render tests share: the registered games and their renderers, seeded states along
a game played by the engine's bots, and the render strings of a game.

Not a test module: tests/render/test_render_contract.py runs the checks every renderer must
pass (a new game gets them by being registered in host/registry.py); each game's own
test_<game>_render.py keeps what only that game draws.
"""

from __future__ import annotations

import io
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

from core.contract import Decision, Game, random_answer
from host import registry
from rules.galaxy_trucker import GAME as GT
from tests.kit import png_ok

LANGS = ("en", "es")
ROOT = Path(__file__).resolve().parents[2]
#: Six players' names, one long, one with an accent, one with an emoji the fonts cannot draw.
NAMES = ["Ana", "Benjamín Longname", "Cal 🚀", "Dora", "Eve", "Fede"]

#: ``choose(game, state, decision, rng) -> answer``: who answers a decision while sampling.
Chooser = Callable[[Game, Any, Decision, random.Random], str]


def bot(game: Game, state: Any, d: Decision, rng: random.Random) -> str:
    """The game's bot answers."""
    choice: str = game.bot_choice(state, d.seat, rng)  # type: ignore[attr-defined]
    return choice


def game_ids() -> list[str]:
    """Every registered game, in a stable order (for ``parametrize``)."""
    return sorted(registry.games())


def renderer(game_id: str) -> ModuleType:
    return registry.renderer(game_id)


@cache
def _game_states(
    game_id: str,
    n: int,
    seed: int,
    every: int,
    options: tuple[tuple[str, str], ...],
    choose: Chooser,
) -> tuple[dict[str, Any], ...]:
    game = registry.get(game_id)
    rng = random.Random(seed)
    s = game.new(n, dict(options), seed)
    out = [s]
    k = 0
    while pending := game.pending(s):
        d = rng.choice(pending)
        s, _ = game.apply(s, d.seat, choose(game, s, d, rng))
        k += 1
        if k % every == 0:
            out.append(s)
    out.append(s)
    return tuple(out)


def game_states(
    game_id: str,
    n: int,
    seed: int,
    every: int,
    options: Mapping[str, str] | None = None,
    choose: Chooser = bot,
) -> tuple[dict[str, Any], ...]:
    """Every ``every``-th state of a seeded game (a random pending decision each move,
    answered by ``choose``: the game's bot unless told), and the last. Cached."""
    return _game_states(game_id, n, seed, every, tuple(sorted((options or {}).items())), choose)


def sample(states: tuple[dict[str, Any], ...], count: int) -> list[dict[str, Any]]:
    """About ``count`` states spread along ``states``, and the last."""
    step = max(1, len(states) // count)
    return [*states[::step], states[-1]]


def sampler(
    game_id: str, every: int, options: Mapping[str, str] | None = None, choose: Chooser = bot
) -> tuple[
    Callable[..., tuple[dict[str, Any], ...]], Callable[[int, int, int], list[dict[str, Any]]]
]:
    """One game's ``game_states(n, seed, every=every)`` (:func:`game_states` with these
    options and answers) and ``sample(n, seed, count)`` (:func:`sample` of those states)."""

    def states(n: int, seed: int, every: int = every) -> tuple[dict[str, Any], ...]:
        return game_states(game_id, n, seed, every, options, choose)

    def sampled(n: int, seed: int, count: int) -> list[dict[str, Any]]:
        return sample(states(n, seed), count)

    return states, sampled


def midgame(game_id: str) -> tuple[Any, int]:
    """A state half way through a seeded game of three (or the fewest allowed) played by the
    bots, and its player count."""
    game = registry.get(game_id)
    n = max(3, game.min_players)
    states = game_states(game_id, n, 7, 10)
    return states[len(states) // 2], n


def render_keys(game_id: str) -> set[str]:
    """The game's ``<id>.render.*`` strings (data/<id>/strings.json), checked to be the same
    keys in both languages."""
    data = json.loads((ROOT / "data" / game_id / "strings.json").read_text(encoding="utf-8"))
    prefix = f"{game_id}.render."
    en = {k for k in data["en"] if k.startswith(prefix)}
    es = {k for k in data["es"] if k.startswith(prefix)}
    assert en == es, en ^ es
    return en


#: Short names for pictures whose text is checked (marks, legends, sizes).
SHORT_NAMES = ["Ana", "Bea", "Cal", "Dan", "Eva", "Fil"]


#: The last play-outs of :func:`random_states` (the same one is asked for by consecutive
#: tests: one per language), newest last.
_PLAYED: dict[Any, tuple[Any, ...]] = {}
PLAYED_KEPT = 8


def random_states(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    limit: int = 20_000,
) -> list[Any]:
    """Every state of one seeded random play-out (a random pending decision each move, a
    random legal answer), from the set-up to the end or to ``limit`` moves. The last few
    play-outs are kept (never changed: games return new states), each played once."""
    key = (game, players, seed, tuple(sorted((options or {}).items())), limit)
    try:
        kept = _PLAYED.pop(key, None)
    except TypeError:  # a game that cannot be a key: played each time
        return _play_out(game, players, seed, options, limit)
    if kept is None:
        kept = tuple(_play_out(game, players, seed, options, limit))
    _PLAYED[key] = kept  # the newest last
    while len(_PLAYED) > PLAYED_KEPT:
        del _PLAYED[next(iter(_PLAYED))]
    return list(kept)


def _play_out(
    game: Game, players: int, seed: int, options: Mapping[str, str] | None, limit: int
) -> list[Any]:
    state = game.new(players, dict(options or {}), seed)
    rng = random.Random(seed)
    seen: list[Any] = [state]
    for _ in range(limit):
        pending = game.pending(state)
        if not pending:
            break
        d = rng.choice(pending)
        state, _ = game.apply(state, d.seat, random_answer(d, rng))
        seen.append(state)
    return seen


def spread_states(game: Game, players: int, seed: int, samples: int = 6) -> Iterator[Any]:
    """``samples`` states of one seeded random play-out (:func:`random_states`), spread over
    the game, the final one included."""
    seen = random_states(game, players, seed)
    step = max(1, len(seen) // (samples - 1))
    yield from seen[::step][: samples - 1]
    yield seen[-1]


def check_pictures_in_time(
    game_id: str,
    n: int,
    samples: list[list[dict[str, Any]]],
    table: Callable[[Image.Image], bool],
    private: Callable[[Image.Image], bool],
) -> None:
    """Each state of each sample (one a seeded game; languages alternate along it): the
    table (``table(image)`` holds) and every seat's private picture (``private(image)``
    holds) are PNGs within budget, drawn in a median under 100 ms each. Counted in CPU time
    of this process, so that other work on the machine does not make the test flaky
    (bench/render.py measures wall time)."""
    game, r = registry.get(game_id), renderer(game_id)
    spent: list[float] = []
    spent_private: list[float] = []
    for states in samples:
        for k, s in enumerate(states):
            lang = LANGS[k % 2]
            t0 = time.process_time()
            img = png_ok(r.render_table(game.view(s, None), NAMES[:n], lang))
            spent.append(time.process_time() - t0)
            assert table(img), img.size
            for seat in range(n):
                view = {**game.view(s, seat), "seat": seat}
                t0 = time.process_time()
                png = r.render_private(view, NAMES[:n], lang)
                spent_private.append(time.process_time() - t0)
                assert private(png_ok(png)), seat
    assert statistics.median(spent) < 0.1, statistics.median(spent)
    assert statistics.median(spent_private) < 0.1, statistics.median(spent_private)


def same_pixels(a: bytes | None, b: bytes | None, mode: str = "RGBA") -> bool:
    """Whether two PNGs (or two None) show the same picture: the same bytes, or else, decoded
    in ``mode``, the same size and the same pixels (decoding only when the bytes differ)."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    ia, ib = (Image.open(io.BytesIO(png)).convert(mode) for png in (a, b))
    return ia.size == ib.size and ia.tobytes() == ib.tobytes()


def assert_same_pictures(
    got: Sequence[bytes | None], want: Sequence[bytes | None], mode: str = "RGBA"
) -> None:
    """``got`` and ``want`` are the same pictures, one for one (:func:`same_pixels`)."""
    assert len(got) == len(want), (len(got), len(want))
    differ = [
        i for i, (a, b) in enumerate(zip(got, want, strict=True)) if not same_pixels(a, b, mode)
    ]
    assert not differ, f"pictures {differ} of {len(want)} differ"


def renderer_source(game_id: str) -> str:
    """The source of the game's renderer: render/<id>.py, or every module of the package
    render/<id>/ once it is split by what it draws."""
    one = ROOT / "render" / f"{game_id}.py"
    parts = sorted((ROOT / "render" / game_id).glob("*.py"))
    return "".join(p.read_text(encoding="utf-8") for p in ([one] if one.exists() else parts))


# ---------------------------------------------- seeded pictures (test_layers*, test_png_bands)


def sampled(game_id: str) -> list[tuple[dict[str, Any], dict[str, Any], list[str]]]:
    """(public view, a seat's view, names) at four points of seeded games, at the fewest
    and the most players."""
    game = registry.get(game_id)
    out = []
    for n, seed in ((game.min_players, 5), (game.max_players, 6)):
        names = [f"Player {i + 1}" for i in range(n)]
        for k, state in enumerate(spread_states(game, n, seed, samples=4)):
            out.append((game.view(state, None), game.view(state, k % n), names))
    return out


@cache
def gt_flight(players: int, level: str, seed: int) -> list[tuple[dict, dict, list[str]]]:
    """Every other table of a bot-built flight (and the pre-launch before it). Cached: a
    flight is built once per run (the pictures never change the views)."""
    s = GT.new(players, {"rules": "2", "level": level}, seed)
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    out = []
    step = 0
    while GT.pending(s):
        if s["phase"] != "build" and step % 2 == 0:
            out.append((GT.view(s, None), GT.view(s, step % players), names))
        d = rng.choice(GT.pending(s))
        s, _ = GT.apply(s, d.seat, GT.bot_choice(s, d.seat, rng))
        step += 1
    return out[:14]


def played(game_id: str, players: int, seed: int, every: int) -> list[tuple[dict, dict, list]]:
    """Consecutive pictures of a seeded random game (one every ``every`` moves)."""
    game = registry.get(game_id)
    s = game.new(players, {o.id: o.default for o in game.options}, seed)
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    out = []
    for step in range(400):
        pending = game.pending(s)
        if step % every == 0 or not pending:
            out.append((game.view(s, None), game.view(s, step % players), names))
        if not pending or len(out) >= 12:
            break
        d = rng.choice(pending)
        s, _ = game.apply(s, d.seat, random_answer(d, rng))
    return out


def mlem_table_whole(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """MLEM's table drawn whole and mapped at once, as PNG bytes (what its drawing by parts
    must equal byte for byte)."""
    from render import kit, layers
    from render.mlem import table

    return kit.png_of_mapped(
        layers.mapped(table._draw_table(kit.public(view), names, lang), table._PALETTE)
    )
