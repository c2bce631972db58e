"""Bit-for-bit guard of the Kosmonavts and MLEM engines (and their bots' searches).

Seeded games, played through the contract, are hashed step by step: every state (its
``dump``), the public view, each seat's private view, every pending decision with its
options, each choice and the events it made, the result, and the search hooks' outputs
(``evaluate`` of every seat; a ``sample`` of a seat's world now and then). The digests are
pinned: they were recorded on the engines before they were made faster, so any change of
behaviour — a different state, view, option, event or bot move — shows here, while a change
of speed alone does not.

The random games answer a random pending decision with a random legal answer (or, in some
games, the game's ``bot_choice``); the bot games put one searching seat at each level
(easy, normal, hard) against random seats for the first moves of a game.

To record the digests afresh (only when behaviour is meant to change, with a schema
version bump): ``PRINT_DIGESTS=1 pytest tests/rules/test_kosmonavts_mlem_digest.py -s``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
from typing import Any

import pytest

from core.contract import random_answer
from rules.kosmonavts import GAME as KOSMO
from rules.mlem import GAME as MLEM
from rules.search import bot_for

GAMES: dict[str, Any] = {"kosmonavts": KOSMO, "mlem": MLEM}


def _setup(game_id: str, g: int) -> tuple[int, dict[str, str]]:
    if game_id == "kosmonavts":
        return 2 + g % 3, {
            "rules": ("basic", "advanced")[(g // 3) % 2],
            "planets": "players" if g % 4 == 1 else "random",
        }
    r = random.Random(g)
    return 2 + g % 4, {k: r.choice(("off", "on")) for k in ("ufo", "recon", "missions")}


def _js(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, default=repr).encode()


def _decisions(ds: list[Any]) -> bytes:
    """Every field of every decision and of its options (``dataclasses.asdict``, quicker)."""
    return _js(
        [
            [
                *(d.seat, d.prompt, d.args, d.private, d.key, d.min_picks, d.max_picks),
                d.grid,
                d.timer and [d.timer.key, d.timer.seconds, d.timer.option],
                [[o.id, o.label, o.args, o.style, o.cell, o.alone] for o in d.options],
            ]
            for d in ds
        ]
    )


class Trace:
    """A running sha256 of everything a game shows along the way."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.h = hashlib.sha256()

    def state(self, s: Any, step: int) -> list[Any]:
        game, h = self.game, self.h
        h.update(_js(game.dump(s)))
        h.update(_js(game.view(s, None)))
        n = s["n"]
        for seat in range(n):
            h.update(_js(game.view(s, seat)))
        pending = game.pending(s)
        h.update(_decisions(pending))
        if pending:
            h.update(_js([round(game.evaluate(s, seat), 12) for seat in range(n)]))
            if step % 7 == 0:
                seat = pending[0].seat
                w = game.sample(s, seat, random.Random(step))
                h.update(_js(game.dump(w)))
                h.update(_decisions(game.pending(w)))
        else:
            r = game.result(s)
            h.update(_js(dataclasses.asdict(r)))
        return pending

    def move(self, seat: int, choice: str, events: list[Any]) -> None:
        self.h.update(_js([seat, choice]))
        self.h.update(_js([[e.code, e.args, e.seat, e.private_to, e.reveals] for e in events]))


def _bot_share(game_id: str, g: int) -> float:
    if game_id == "kosmonavts":
        return 0.0 if g % 10 == 9 else 0.8
    return 0.34 if g % 3 == 2 else 0.0


def random_digest(game_id: str, g: int) -> str:
    """Game ``g`` (seed ``g``) played to its end: a random decision each move, answered at
    random or by the game's bot (its share varies per game; Kosmonavts games mostly by the
    pilots, so that they reach their natural end)."""
    game = GAMES[game_id]
    n, opts = _setup(game_id, g)
    rng = random.Random(g * 7919 + 1)
    s = game.new(n, opts, g)
    trace = Trace(game)
    step = 0
    while pending := trace.state(s, step):
        d = pending[rng.randrange(len(pending))]
        if rng.random() < _bot_share(game_id, g):
            choice = game.bot_choice(s, d.seat, rng)
        else:
            choice = random_answer(d, rng)
        s, events = game.apply(s, d.seat, choice)
        trace.move(d.seat, choice, events)
        step += 1
    return trace.h.hexdigest()


def bot_digest(game_id: str, level: str, g: int, moves: int) -> str:
    """Seat 0 plays at ``level`` (the other seats at random) for the first ``moves`` moves
    of game ``g``."""
    game = GAMES[game_id]
    n, opts = _setup(game_id, g)
    bot = bot_for(game, level)
    rng = random.Random(g)
    s = game.new(n, opts, g)
    trace = Trace(game)
    for step in range(moves):
        pending = trace.state(s, step)
        if not pending:
            break
        d = pending[rng.randrange(len(pending))]
        choice = bot(s, 0, rng) if d.seat == 0 else random_answer(d, rng)
        s, events = game.apply(s, d.seat, choice)
        trace.move(d.seat, choice, events)
    return trace.h.hexdigest()


RANDOM_GAMES = 20
PINNED_RANDOM: dict[str, list[str]] = {
    "kosmonavts": [
        "388612cb5b5efc8f225f289ebd298b786c24016213ad40fea3bd59a1204d3705",
        "2b1661f16b5792370314931910f04a1860385798db0f455829ad3fd195250dab",
        "2d1e0f0880a2b7e5fa33f8a5cf4cda186c78f869a7e28f76178643420bf18bb5",
        "9ed3131181b7967b432833d1f5bd8f648b0c3b50482c5a2105c1b8324e42d0c7",
        "bab0d8e49b79826a72fbd2ebda7642396c910a7927ea5191760494e6b37461f0",
        "bb66d4d3549f0ed69484dce3fddd0d4ca4c55ce3108621781c37c2ff0bc5a6c3",
        "c2559fd80aa9a999da78ca97f9bf9a396893497f2d0385cecfdfd93ac0636ff6",
        "90f3c1f7024fdc6c6683e91ac22f6798a4f804d839d3e3f27c3b9465095409f8",
        "125c5e7383b7d7eb8932a40e222ad7de400ed2da28db89c0fef91950b69e099e",
        "dcfd96d0ac6f324a32ab3733be622258186152fa7db917c37977bfee1bedd03e",
        "405131d200c583f64d6c3db93a85cf8bb77730b6a3c06968a81a5bd493ca8771",
        "010673373400ebd517feaea1dab9c786a7e8f29a1eaa6a94ac41a67c0fb91991",
        "fc535e66af12f668b6eba206c0740a029c6a3e4edee9d363969ea649fadbad01",
        "b420a5a8cb584676f02e646ed64f1d4d5d5c78966aad8ff759b103414b82ddfc",
        "b31ee8960cf9e72e8befed44e64bb0746adcc2d808196555914a4cc88ec10d0b",
        "fda63701dbb9c408355cdc8032282e39a0d637d8ab31caba00f1479da879deb8",
        "04b0e9fad32273971b0621ce0afe4407700313fd7858c96ffd1446c66ebfd259",
        "bac123be45b3cfa46424992ee8ff0d761c79a805b7ecca371fc1dc00cd1db9aa",
        "b9216028835b1e1cd97bd72159f35fcbb95f0b9fb61632f53d38730a5c7a837d",
        "4d4319fef00905e5509bb0a6d3c969c61a61467a9ae7310a10d978b7a1830684",
    ],
    "mlem": [
        "48e52d170b9a020cf978b1b64b8bbb784ad8177a14f1415c36b6d0f2c76f1632",
        "1a0b4d10953c9fd8277c274e9c77bb62ffe28b68c714fe25e20dbb77db11f1a4",
        "0b0ac189ea48797643cfd1beb21f933f226b0d6edb5e32b6cf3adb374d07c2a9",
        "c1958fc2b2e6a1b011938faf3d1f3c5f91151e7f9adea8e8ca05426feeda2c9e",
        "964650234d56ddbf91267aed79ebc821ff6db846e2366cf7f7964c9d2286b39a",
        "a574b91108fe4f51f3e49108462241747288e3b028dbff5c49ed091d4b881936",
        "62fb3968692a93c27e2c5bfff31c96478470b502b453bc845aabcb16d5015553",
        "0498f5a0792a3bb0e335e11822cd73c7151abc3b0ad6f3c8f7426bd4e8ddd3ee",
        "78b6a089f2f3b58afb7a1286bf2262b558ddd15d711c071153a2e76bae17c230",
        "01bcdece7e9d8f70066bbabe3891ac7cf4f3d3efc9e0bac42f8154f3a0b41231",
        "0b030ed30a3c462251e754c9ebfcbfadfe10ff4e99bc1421c0b07d4203e3d04c",
        "6490d87007b4e2722907b3fb7770138c820e8f9c6c23a2790bd3615104b2d8d5",
        "bb563bd7dd259d9e20944fceb74b6ed929275d2c8fae4cc84ce601be0b44af72",
        "5ca5f0fb40e925fd63e6ab7e4ab83caf192a5ef5e88d514ba0f65738b2cb99ba",
        "216fb3bfe8670da417e7bcb616b9ab11ed6cc0198f6094b882f1afd58d03fc2c",
        "4aa96d6929127cb2ffa3cee4c07ab5c5a68f164f53ac3fc5e5b6badf9532f08d",
        "5ecb4ffdfe120e4855528b659f2d4c213a59c8539fecf20573a8a70442472f4c",
        "3b6e4bd58104671f6b1ac55c649b3ce46882a104ae80ccf5d541e5f9a3527b49",
        "c883e2fb8f81f2cb7e196111c9b662665632ba54a2d1295e48244b3499affb22",
        "e71b126806498a9b477430c1a608da24661560b2dce7370c6cfaca58ab85b669",
    ],
}
BOT_RUNS = {
    "kosmonavts": [("easy", 5, 400), ("normal", 6, 200), ("hard", 7, 40)],
    "mlem": [("easy", 5, 400), ("normal", 6, 200), ("hard", 7, 80)],
}
PINNED_BOTS: dict[str, list[str]] = {
    "kosmonavts": [
        "e71af1045b8ad0a2b74cc21ae6b798c5eb6652baec763bb1afed788c91587e50",
        "65fa4fe083aa78a5154cd114128b5706d25489c13a660fb1020bf64b8b7e87bb",
        "25d7261a274ff30b22ac608da1be930ad33f492958482d53aaf6a11a50a6b6c1",
    ],
    "mlem": [
        "f14f85995c37340324ab052705b5fd3ee59449dbcd00ea2e3f841ed372a51629",
        "73730e50b16ea455a8a57a8dc6ac5d6472c56764838a4e7f632dddcf603134e9",
        "683939dbebb15d60ef110816f25a9bf38dcfd3698cf3acc75601c038acf912ec",
    ],
}
PRINT = bool(os.environ.get("PRINT_DIGESTS"))


@pytest.mark.parametrize("half", range(2))
@pytest.mark.parametrize("game_id", list(GAMES))
def test_seeded_random_games_replay_bit_for_bit(game_id: str, half: int) -> None:
    per = RANDOM_GAMES // 2
    got = [random_digest(game_id, g) for g in range(half * per, (half + 1) * per)]
    if PRINT:
        print(game_id, half, got)
        return
    assert got == PINNED_RANDOM[game_id][half * per : (half + 1) * per]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_bots_at_every_level_replay_bit_for_bit(game_id: str) -> None:
    got = [bot_digest(game_id, level, g, moves) for level, g, moves in BOT_RUNS[game_id]]
    if PRINT:
        print(game_id, "bots", got)
        return
    assert got == PINNED_BOTS[game_id]
