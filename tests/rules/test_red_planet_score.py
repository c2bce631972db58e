"""Mission: Red Planet explains its score: every production says who took what in each zone,
the final scoring names each step per player, the end reveals every mission met ✓ or not ✗,
a tie-break is named when it decided, and no option label is cut by Discord."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.i18n import has, t
from rules.red_planet import GAME, engine
from rules.red_planet.data import RES_VALUE
from tests.rules.red_planet_kit import started

NAMES = ["Ana", "Bea", "Cal", "Dan", "Eva", "Fil"]
#: Discord names are at most 32 characters.
LONG = [f"{c * 29}_{i}x" for i, c in enumerate("ABCDEF")]
BUTTON_LIMIT = 80  # Discord's limit for a button label (a select option's is 100)


def play(players: int, seed: int) -> tuple[Any, list[Any]]:
    """A whole game played by the bots, with every event."""
    rng = random.Random(seed)
    s = GAME.new(players, {}, seed)
    events: list[Any] = []
    while GAME.pending(s):
        d = rng.choice(GAME.pending(s))
        s, ev = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
        events += ev
    return s, events


def short(code: str) -> str:
    return code.removeprefix("red_planet.event.")


def texts(e: Any) -> list[str]:
    return [t(e.code, lang, NAMES, **dict(e.args)) for lang in ("en", "es")]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_token_taken_in_a_production_is_announced(players: int) -> None:
    for seed in range(3):
        s, events = play(players, seed)
        announced = [0] * s["nc"]
        for e in events:
            code = short(e.code)
            if code in ("prod.take", "prod.share"):
                announced[e.args["seat"]] += e.args["pts"]
            elif code in ("n_prod.take", "n_prod.share"):
                announced[s["neutral"]] += e.args["pts"]
            elif code == "action.A01":  # Blocks of Ice: 2 ice tokens, outside the zones
                announced[e.args["seat"]] += 2 * RES_VALUE["ice"]
            if code.startswith(("prod.", "n_prod.", "production", "final.")):
                for text in texts(e):
                    assert "{" not in text and "red_planet." not in text, text
        held = [sum(RES_VALUE[r] * k for r, k in tok.items()) for tok in s["tokens"]]
        assert announced == held


def test_a_production_names_the_zone_the_taker_and_what_was_taken() -> None:
    s = started(3)
    s["res"]["VM"] = ["cel", True]
    s["astros"]["VM"] = [2, 1, 0]
    s["res"]["TH"] = ["ice", True]
    s["astros"]["TH"] = [1, 1, 0]
    s["pile"]["TH"]["ice"] = 1
    ev: list[Any] = []
    engine._production(s, 2, ev)
    lines = [t(e.code, "en", NAMES, **dict(e.args)) for e in ev]
    assert (
        "Valles Marineris: Ana has the most astronauts (2) and takes 2 celerium (6 points)."
        in (lines)
    )
    assert "Tharsis: Ana ties for the most astronauts (1) and takes an equal share, 1 ice " in (
        "".join(lines)
    )
    assert any(line.startswith("Tharsis: 1 ice cannot be split evenly") for line in lines)
    es = [t(e.code, "es", NAMES, **dict(e.args)) for e in ev]
    assert (
        "Valles Marineris: Ana tiene más astronautas (2) y se lleva 2 de celerio (6 puntos)."
        in (es)
    )


def test_the_final_scoring_names_each_step_and_adds_up() -> None:
    for players in (2, 4, 6):
        s, events = play(players, 7)
        res = GAME.result(s)
        assert res is not None
        totals = [e for e in events if short(e.code) == "final.total"]
        assert [e.args["seat"] for e in totals] == list(range(players))
        for e in totals:
            seat = e.args["seat"]
            part = res.breakdown[seat]
            assert e.args["total"] == res.scores[seat] == sum(part.values())
            assert e.args["tokens"] == part["tokens"] and e.args["ice"] == part["ice_monopoly"]
            for text in texts(e):
                assert NAMES[seat] in text and str(res.scores[seat]) in text
        missions = [e for e in events if short(e.code).startswith("final.mission_")]
        assert len(missions) == sum(len(m) for m in s["missions"])
        for e in missions:
            en, es = texts(e)
            assert ("✓" in en) == (e.args["pts"] > 0) and ("✗" in es) == (e.args["pts"] == 0)
        # everything the final steps add is the jump from the tokens to the final score
        for seat in range(players):
            steps = [e for e in events if ".final." in e.code and e.args.get("seat") == seat]
            gained = sum(e.args["pts"] for e in steps if "pts" in e.args)
            assert res.breakdown[seat]["tokens"] + gained == res.scores[seat]
        assert short(events[-1].code) == "game_over"


def test_the_end_reveals_every_mission_met_or_not() -> None:
    for players in (2, 3, 6):
        s, _ = play(players, 3)
        view = GAME.view(s, None)
        lines = view["reveal"]
        held = [(seat, m) for seat in range(players) for m in s["missions"][seat]]
        shown = [
            (a["seat"], a["mission_key"].rsplit(".", 1)[1])
            for k, a in lines
            if k.startswith("red_planet.reveal.m")
        ]
        assert shown == held
        for key, args in lines:
            for lang in ("en", "es"):
                assert has(key, lang)
                text = t(key, lang, NAMES, **args)
                assert "{" not in text and NAMES[args["seat"]] in text
                if "mission_key" in args:
                    assert ("✓" in text) == (args["points"] > 0), text
                    assert ("✗" in text) == (args["points"] == 0), text
                    assert str(args["points"]) in text
        assert "reveal" not in GAME.view(GAME.new(players, {}, 3), None)


def test_the_tie_break_is_named_only_when_it_decided() -> None:
    s = started(3)
    s["step"] = "over"
    s["missions"] = [[], [], []]
    s["disc"] = {}
    s["tokens"] = [
        {"ice": 0, "syl": 0, "cel": 2},  # 6 points in 2 tokens
        {"ice": 0, "syl": 3, "cel": 0},  # 6 points in 3 tokens
        {"ice": 0, "syl": 0, "cel": 0},
    ]
    res = GAME.result(s)
    assert res is not None and res.ranks == (2, 1, 3)
    assert res.tiebreak == "red_planet.tiebreak.tokens"
    assert t(res.tiebreak, "en") == "the most point tokens held"
    assert t(res.tiebreak, "es") == "tener más fichas de puntos"
    s["tokens"][1] = {"ice": 0, "syl": 0, "cel": 2}  # same points, same tokens: shared
    res = GAME.result(s)
    assert res is not None and res.ranks == (1, 1, 3) and res.tiebreak == ""


def test_no_option_label_is_cut_by_discord() -> None:
    """Over random play-outs (2–6 players, 32-character names), every option label fits a
    button in both languages, so mission buttons keep their points."""
    seen = 0
    for g in range(10):
        players = 2 + g % 5
        rng = random.Random(f"labels:{g}")
        s = GAME.new(players, {}, g)
        while GAME.pending(s):
            for d in GAME.pending(s):
                for o in d.options:
                    for lang in ("en", "es"):
                        label = t(o.label, lang, LONG, **dict(o.args))
                        seen += 1
                        assert len(label) <= BUTTON_LIMIT, (len(label), label)
            d = rng.choice(GAME.pending(s))
            s, _ = GAME.apply(s, d.seat, rng.choice(d.options).id)
    assert seen > 1000


def test_every_mission_label_fits_with_its_points() -> None:
    for m in engine.MISSIONS:
        for lang in ("en", "es"):
            label = t(f"red_planet.mission.{m}", lang)
            assert len(label) <= BUTTON_LIMIT and (" points " in label or " puntos " in label)


def test_a_revealed_discovery_says_what_it_did() -> None:
    s = started(3)
    s["disc"] = {
        "TH": {"id": "D01", "known": [0], "up": False},  # Native Resistance: 1 each
        "VB": {"id": "D02", "known": [1], "up": False},  # Frozen Sea: ice
    }
    s["astros"]["TH"] = [2, 1, 0]
    ev: list[Any] = []
    engine._reveal_discoveries(s, ev)
    lines = [t(e.code, "en", NAMES, **dict(e.args)) for e in ev]
    assert "Tharsis: 2 astronauts go to the Memorial." in lines
    assert "Vastitas Borealis holds ice." in lines
    assert s["astros"]["TH"] == [1, 0, 0]
