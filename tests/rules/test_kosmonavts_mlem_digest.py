"""Bit-for-bit guard of the Kosmonavts and MLEM engines (and their bots' searches).

Seeded games, played through the contract, are hashed step by step: every state (its
``dump``), the public view, each seat's private view, every pending decision with its
options, each choice and the events it made, the result, and the search hooks' outputs
(``evaluate`` of every seat every third step; a ``sample`` of a seat's world every seventh).
The digests are pinned: they were recorded on the engines before they were made faster
(commit 4a03e04), so any change of behaviour — a different state, view, option, event or
bot move — shows here, while a change of speed alone does not.

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
            if step % 3 == 0:
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
        "f5271e454ed2c24556677bee99f0d9684e22f54eeae02328ce924eb9a250cd09",
        "b6d0e695b1d5285fc528a6fbc90a0a4dccbd10347139cf5e54d8e65438d89299",
        "b3c03b6df26e17fc7ca2d6de509ef8f14b00b12f277b38d398206d4124a048e8",
        "468b927c6f632092571e89e28962d503efae1cd3011c241c5178d78f12659e26",
        "aa1fa516425582e61b8bd9202f252eb04b4c38aa59d5a5241e01ae32c68e3aeb",
        "3e270f5480f01aaeb741ffda04b5aa42fd4ce3eff83d40e878c6e7e2a0b4460c",
        "f3031ca95c91e9ed7bd40b0db0e01f0378841d3f9ce4666993e28c16d32cf58b",
        "09bb3948797b66f0c610313c7e7fb032b287436a0b2ac5a17a469d0d5382df11",
        "ec20f807537d88a447833e950b65c7b910eb55627d4b872c2673b3cc39f14ad2",
        "b0097a35092b565a98044ccdaf26ccf3576e65dbd7d49f4fe29b99bf80dcbcc6",
        "7137e554d8282d5cb760be4d99190a5090064d9c5a08f59332e9d0f35d7ead2d",
        "77aa03dc1e8a828606aeb9b497eb6aaeaf558d1404e060aa0ceaa2c337d8de23",
        "ee986f4dec612597cb11f4a3ee1ee018d66a7689d920d46b6f1fe7a91203f157",
        "4149fbf82c73ba185ab5761c4ecf86432e1d07822c22479478dfc1991de8a3f4",
        "aae547b205d76249e476e5693d55d1a74b6c6d866fd599a0a2c08716e66570f0",
        "db0c80107e544979027f35dca69b8748ef1d5f84edabaa18d54328dfbb2d32b0",
        "ca52c50b4bb29ae682c90648955bfe00d31f2c8ae27e2ffbf34b48305681e07a",
        "5c9c3cc605532ae40a494a643253eeab00e9e533f5faa4853a7a0e470b3fe1f6",
        "030ec081ec4cd15fba607bc74318f848885fc0b986215d9dc4e97d7036f575d1",
        "1acdff60ddb147e709d6fcc9e22179854eb005323851c268dd6a413d8bc33bc6",
    ],
    "mlem": [
        "99a2347bd4e8b445332fcd5ceb21e390c2362a673377b50bf6482ab9634950fc",
        "f3d5b098913bb907dbdbd63456716f69a49ad23708ecd13716381324eeaf271d",
        "7a4b9873d7b991d3aa406b6043fc965cbe7b7d4a4bee8c23244a71bd429cd2b4",
        "bef2d35de3fd1589b471f2801353642b00de30a2b222678124aa0e0980f8cd91",
        "16923825d6940a03ed71e150489a4abb9f1b874da0a4013d79aa85d6f598a980",
        "d6c2df7b5f0af8411df4b3469d3341b58b54a9f17b9db06a0acf7a7897e31d31",
        "ed8789ac47b3fc94dd0d85e66ee9a097413c16d29ff536c23af7925e26cb978b",
        "c9f5785e6f9a7ffdafb20eb9c0173d30c5b39f6a8d198862695610bd116af8fe",
        "8f69f52e8ec3193b6ac1840ea3fdae5844ca64fdd05fe0ef392b9e37c024c951",
        "eaa6f272c705b1743fb56c5d1a6da2ef610795482a47ceb4da217051fa7923bc",
        "5f93039831403237d7efe8347afa50ae006018ad0adee21d0f8b4e119ea07f2c",
        "6c19eb50a8a12c3e0346011bf36d19180ce24468ea827034dd1e5d88d3a68a00",
        "ddb29e95e8e8690c5d5eb7c6f1bae97e3928fd5f78b8b8febbe31dc97c14006b",
        "719ef2a44a140d3cb03afec24f3c5705364e79182ba9fbd26289dffbc29a8a8f",
        "aa27746ff4addf2e926464421900ec0e7dd7937f4f54d3831b8f486f98eec520",
        "8c6b0980f91d239039069f6291bb7464da3b1790a31ed3a87cd81bd03cc7cc02",
        "c3876c6e82421c257277d9828bb7176da023714abea8933283a8252efb7cc28f",
        "633093906f15c457e993e080bdf58bbc16db01c81308e3d5a480f3456cd9961b",
        "f56eefe2312617aaebc64ef6eb03c9909593b0569be1bdf9680233bb4626319f",
        "f03799a6af7431477228c21d1dfbd3ee9746180749ef1175d89cdd1c5b48f067",
    ],
}
BOT_RUNS = {
    "kosmonavts": [("easy", 5, 400), ("normal", 6, 200), ("hard", 7, 30)],
    "mlem": [("easy", 5, 400), ("normal", 6, 200), ("hard", 7, 80)],
}
PINNED_BOTS: dict[str, list[str]] = {
    "kosmonavts": [
        "b2337f6643ad543d4efdba2418aef46c48fc91d51d2f9eeeea95dabc69111024",
        "4a407029761b5e051acedd41bc6dc2ab71917404197dd8a0686c082ab2673c14",
        "28f00b359bd048be9e3135ccafc953c7c1f79016111c94a30e4bd2a3fbda944c",
    ],
    "mlem": [
        "1134420a90c54d9cc416cc0e7d573aa7657efc89d3a549aee93046ae77d65876",
        "4d2f122a2b1094d57a8a2930d65f26128df29453af31aae550ba45144e2af918",
        "fef98e1bba20474cfe557bbf6acb1b41e075d22fe80bd99dd9628ca36bc5e6a1",
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
