"""A bit-for-bit guard on the Ad Astra, Mission: Red Planet and Galaxy Trucker engines:
seeded games (random play, the heuristic bots and a searching bot) digested step by step —
every stored state (``dump``), the public view, every seat's private view, the pending
decisions with all their options, the events of each move and the code of each refused
move — against a digest pinned on the engines as they were before they were made faster
(issue 21; Galaxy Trucker's pinned on 1a9a402, before its building checks were sped up,
then again when its bots changed, and on 2026-11-27 when the building kept cells open: the
walks of random play alone are unchanged; its searching bot plays level I, where it still
weighs giving up).

A change that makes an engine faster must leave these digests equal; a change of the
rules (a new ruling) or of a game's bots changes them on purpose, and then the digest is
pinned again, with the reason in the commit."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from core.contract import IllegalMove, random_answer
from rules import search
from rules.ad_astra import GAME as AD_ASTRA
from rules.galaxy_trucker import GAME as GALAXY_TRUCKER
from rules.red_planet import GAME as RED_PLANET

#: game id -> sha256 of the walk below, pinned on the unchanged engines.
PINNED = {
    "ad_astra": "ee32cb9cdb8890dd5a97ed9c14357d778424ff15d3e2f4936a8dfcf3c8ecb2a7",
    "red_planet": "fa6834e94e5fe3056bdc07df46af6423453c6bdb01accd062f163bc5f1873f28",
    "galaxy_trucker": "d794d08ea22917b3e65c72d0acabdc27b9e140560ca24de5e331a65e2c22aacd",
}


class Digest:
    """A sha256 over the ``repr`` of everything added: dicts in their insertion order (as
    ``dump`` stores them), the contract's dataclasses with every field."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()

    def add(self, tag: str, x: Any) -> None:
        self.h.update(f"{tag}:{x!r}\n".encode())


def _walk(game: Any, d: Digest, s: Any, rng: random.Random, bots: dict[int, Any]) -> None:
    """Play ``s`` to the end: bots answer for their seats, random answers for the others."""
    steps = 0
    while True:
        d.add("state", game.dump(s))
        public = game.view(s, None)
        d.add("public", public)
        for seat in range(s["n"]):
            mine = game.view(s, seat)
            private = mine.pop("private")
            assert mine == public  # the rest of a seat's view is the public one
            d.add("private", private)
        pending = game.pending(s)
        d.add("pending", pending)
        if not pending:
            break
        dec = rng.choice(pending)
        bot = bots.get(dec.seat)
        choice = bot(s, dec.seat, rng) if bot is not None else random_answer(dec, rng)
        d.add("choice", [dec.seat, choice])
        try:
            s, events = game.apply(s, dec.seat, choice)
        except IllegalMove as exc:
            d.add("refused", [exc.code, exc.args_])
            continue
        d.add("events", events)
        steps += 1
        assert steps < 20_000
    d.add("result", game.result(s))


def _digest(
    game: Any, players: tuple[int, int], options: list[dict[str, str]], randoms: int = 20
) -> str:
    d = Digest()
    lo, hi = players
    searching = search.bot_for(game, search.Budget(playouts=4, depth=16))
    for g in range(randoms):
        n = lo + g % (hi - lo + 1)
        rng = random.Random(900 + g)
        s = game.new(n, options[g % len(options)], 700 + g)
        _walk(game, d, s, rng, {})
    for g in range(4):  # the heuristic bots against random play, then against each other
        n = lo + g % (hi - lo + 1)
        rng = random.Random(300 + g)
        s = game.new(n, options[g % len(options)], 400 + g)
        seats = range(n) if g >= 2 else [g % n]
        _walk(game, d, s, rng, dict.fromkeys(seats, game.bot_choice))
    rng = random.Random(5)  # one game with a searching bot (sample, rollout, evaluate)
    s = game.new(lo, options[0], 6)
    _walk(game, d, s, rng, {0: searching})
    return d.h.hexdigest()


CASES: dict[str, tuple[Any, tuple[int, int], list[dict[str, str]]]] = {
    "ad_astra": (
        AD_ASTRA,
        (3, 5),
        [
            {"artifacts": "all", "trade_time": "live"},
            {"artifacts": "base", "trade_time": "days"},
            {"artifacts": "all", "trade_time": "days", "rules": "1"},
        ],
    ),
    "red_planet": (RED_PLANET, (2, 6), [{}]),
    # its random games run long (building): six of them, every level and the Trek
    "galaxy_trucker": (
        GALAXY_TRUCKER,
        (2, 4),
        [
            {"level": "I", "rules": "2"},
            {"level": "II", "rules": "2", "hourglass": "90s"},
            {"level": "learning"},
            {"level": "III", "rules": "2"},
            {"level": "trek", "rules": "2"},
            {"level": "I"},
        ],
    ),
}
#: Random games per game (20 unless said).
RANDOMS = {"galaxy_trucker": 6}


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_seeded_games_digest_as_pinned(game_id: str) -> None:
    game, players, options = CASES[game_id]
    assert _digest(game, players, options, RANDOMS.get(game_id, 20)) == PINNED[game_id]
