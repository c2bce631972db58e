"""Galaxy Trucker data files: tiles, boards and cards are coherent, and strings.json covers
every key the engine uses, in English and Spanish, with the same placeholders."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from core.contract import IllegalMove
from rules.galaxy_trucker import GAME, engine
from rules.galaxy_trucker.tiles import START_CABINS, board_cells, cards, data, start_cell, tiles
from tests.rules.kit import ROOT, check_key, check_languages_match, strings, walk_keys

STRINGS = strings("galaxy_trucker")
SOURCE = json.loads(
    (ROOT.parent.parent / "shared" / "games" / "galaxy_trucker_tiles.json").read_text()
    if (ROOT.parent.parent / "shared" / "games" / "galaxy_trucker_tiles.json").exists()
    else "{}"
)


def test_tiles_schema_and_counts():
    ts = tiles()
    assert sorted(ts) == list(range(1, 157))
    counts = Counter(
        t.kind if t.type != "battery" else f"battery_{t.capacity}" for t in ts.values()
    )
    assert counts["starting_cabin"] == 4
    assert counts["cabin"] == 17
    assert counts["battery_2"] == 11 and counts["battery_3"] == 6
    assert counts["engine"] == 21 and counts["engine2"] == 9
    assert counts["cannon"] == 25 and counts["cannon2"] == 11
    assert counts["shield"] == 8 and counts["structural"] == 8
    assert counts["life_brown"] == 6 and counts["life_purple"] == 6
    assert counts["hold"] == 15 and counts["red_hold"] == 9
    for t in ts.values():
        assert len(t.sides) == 4 and set(t.sides) <= set("012U"), t
        if t.type == "cannon":
            assert t.sides[0] == "0", t  # barrel at the printed top
        if t.type == "engine":
            assert t.sides[2] == "0", t  # exhaust at the printed bottom
        if t.type == "starting_cabin":
            assert t.sides == "UUUU" and t.id in START_CABINS
        if t.type in ("battery", "cargo_hold"):
            assert t.capacity in (1, 2, 3)
        assert any(c != "0" for c in t.sides), t


def test_tiles_match_the_shared_fact_sheet():
    if not SOURCE:
        return  # the shared folder is not there (e.g. a packaged checkout)
    names = {"none": "0", "single": "1", "double": "2", "universal": "U"}
    for src in SOURCE["second_edition"]["tiles"]:
        sides = "".join(names[src["sides"][k]] for k in ("top", "right", "bottom", "left"))
        assert tiles()[src["id"]].sides == sides


def test_boards_and_levels():
    d = data()
    sizes = {"I": 18, "II": 27, "III": 36}
    for name, size in sizes.items():
        cells = board_cells(name)
        assert len(cells) == size
        assert start_cell(name) in cells
        r0, r1 = d["boards"][name]["printed_rows"]
        c0, c1 = d["boards"][name]["printed_columns"]
        assert all(r0 <= r <= r1 and c0 <= c <= c1 for r, c in cells)
    for lv in engine.LEVELS:
        info = d["levels"][lv]
        assert info["board"] in sizes
        assert len(info["start_spaces"]) == 4 == len(info["rewards"])
        assert info["start_spaces"] == sorted(info["start_spaces"], reverse=True)
        assert isinstance(info["designed"], list)  # DESIGNED values are named
    assert d["levels"]["learning"]["aliens"] is False
    assert d["levels"]["learning"]["hourglass_runs"] == 0
    assert d["levels"]["II"]["hourglass_runs"] == 3
    assert "start_spaces" in d["levels"]["III"]["designed"]


def test_cards_schema():
    cs = cards()
    assert len(cs) == 60
    by_level = Counter(c["level"] for c in cs.values())
    assert by_level == {1: 20, 2: 20, 3: 20}
    assert sum(1 for c in cs.values() if c["learning_flight"]) == 8
    assert all(c.get("provisional") for c in cs.values() if c["level"] == 3)
    for c in cs.values():
        assert c["type"] in {
            "slavers",
            "smugglers",
            "pirates",
            "stardust",
            "epidemic",
            "open_space",
            "meteor_swarm",
            "planets",
            "combat_zone",
            "abandoned_ship",
            "abandoned_station",
            "sabotage",
        }


def test_piles_have_the_level_mix():
    for lv, size in (("learning", 2), ("I", 2), ("II", 3), ("III", 4)):
        s = GAME.new(2, {"rules": "2", "level": lv}, 3)
        assert [len(p) for p in s["piles"]] == [size] * 4
        ids = [c for p in s["piles"] for c in p]
        assert len(set(ids)) == len(ids)
        if lv == "learning":
            assert all(cards()[c]["learning_flight"] for c in ids)


# --------------------------------------------------------------------------- strings


def test_strings_have_both_languages_with_the_same_placeholders():
    check_languages_match(STRINGS, "galaxy_trucker")
    assert "galaxy_trucker.name" in STRINGS["en"]
    assert "galaxy_trucker.rules_summary" in STRINGS["en"]


def _check_key(key: str, args: dict | None) -> None:
    if args is None:  # a phase
        assert key in STRINGS["en"], key
    else:
        check_key(STRINGS, key, args)


def _bot_or_random(s: dict, d: Any, rng: random.Random) -> str:
    """The bot's answer, now and then (while building) a random one instead."""
    choice: str = GAME.bot_choice(s, d.seat, rng)
    if rng.random() < 0.1 and "hg.out" not in choice and s["phase"] == "build":
        choice = rng.choice(d.options).id
    return choice


def test_every_key_the_engine_uses_is_translated():
    for spec in GAME.options:
        assert spec.label in STRINGS["en"]
        for v in spec.choices:
            assert f"{spec.label}.{v}" in STRINGS["en"]
    for lv in engine.LEVELS:
        for seed in range(2):
            s = GAME.new(3, {"rules": "2", "level": lv}, seed)
            rng = random.Random(seed)
            s = walk_keys(GAME, s, rng, _bot_or_random, _check_key)
            res = GAME.result(s)
            assert res is not None
            for b in res.breakdown:
                for part in b:
                    assert f"galaxy_trucker.{part}" in STRINGS["en"]
    for code in ("joint", "engine_dir", "engine_blocked", "cannon_blocked"):
        assert f"galaxy_trucker.problem.{code}" in STRINGS["en"]
    for key in ("gone.taken", "gone.tile", "gone.flipped"):
        assert f"galaxy_trucker.{key}" in STRINGS["en"]


def test_error_codes_are_translated():
    src = (ROOT / "rules" / "galaxy_trucker").glob("*.py")
    import re

    codes = {m for f in src for m in re.findall(r'err\("([a-z_]+)"', f.read_text())}
    assert codes
    for c in codes:
        assert f"galaxy_trucker.error.{c}" in STRINGS["en"], c
    assert "galaxy_trucker.error.not_your_turn" in STRINGS["en"]


def test_every_event_and_prompt_family_is_translated():
    en = STRINGS["en"]
    p = "galaxy_trucker."
    for kind in {c["type"] for c in cards().values()}:
        assert f"{p}event.card_{kind}" in en and f"{p}card.{kind}" in en
    for size in ("small", "large", "light", "heavy"):
        for side in ("front", "rear", "left", "right"):
            assert f"{p}event.hazard_{size}_{side}" in en
    for colour in ("brown", "purple"):
        for key in (
            "event.alien_",
            "event.alien_lost_",
            "prompt.alien_",
            "opt.alien_",
            "opt.noalien_",
        ):
            assert f"{p}{key}{colour}" in en
    for crit in ("crew", "engine_power", "firepower"):
        assert f"{p}event.combat_{crit}" in en
    for kind in ("abandoned_ship", "abandoned_station", "slavers", "smugglers", "pirates"):
        assert f"{p}prompt.{kind}" in en
    src = (ROOT / "rules" / "galaxy_trucker").glob("*.py")
    import re

    for f in src:
        for code in re.findall(r'\bev\(\s*"([a-z_]+)"', f.read_text()):
            assert f"{p}event.{code}" in en, code


def test_the_learning_flight_lobby_lists_no_hourglass() -> None:
    """The learning flight has no hourglass: its lobby does not offer one."""
    from types import SimpleNamespace

    from cogs.present import lobby_embed
    from core import i18n

    for level, listed in (("learning", False), ("II", True)):
        row = SimpleNamespace(options={"level": level}, host_options={}, status="lobby")
        snap = SimpleNamespace(game=GAME, seats=[], row=row)
        for lang in ("en", "es"):
            embed = lobby_embed(snap, lang)  # type: ignore[arg-type]
            text = " ".join(str(f.value) for f in embed.fields)
            hourglass = i18n.t("galaxy_trucker.opt.hourglass", lang)
            assert (hourglass in text) is listed, (level, lang)


def _labels_fit(state: Any, names: list[str]) -> list[tuple[int, str]]:
    from cogs.ui import option_label

    bad = []
    for d in GAME.pending(state):
        limit = 100 if d.multi else 80  # a select option, else a button
        for o in d.options:
            for lang in ("en", "es"):
                text = option_label(GAME.id, o, lang, names)
                if len(text) > limit:
                    bad.append((len(text), text))
    return bad


def test_every_button_and_select_label_fits_discord() -> None:
    """Over random play-outs (every level, 2-4 players, the bot's moves mixed with random
    ones) in English and Spanish, no label has to be cut: buttons hold 80 characters,
    select options 100."""
    from tests.kit import random_pick

    names = ["N" * 32, "M" * 32, "O" * 32, "P" * 32]  # Discord's longest display names
    for i, level in enumerate(("learning", "I", "II", "III")):
        for players in (2, 4):
            seed = 10 * i + players
            s = GAME.new(players, {"rules": "2", "level": level}, seed)
            rng = random.Random(seed)
            for _ in range(5000):
                pending = GAME.pending(s)
                if not pending:
                    break
                assert not _labels_fit(s, names[:players])
                d = rng.choice(pending)
                pick = (
                    GAME.bot_choice(s, d.seat, rng) if rng.random() < 0.7 else random_pick(d, rng)
                )
                try:
                    s, _ = GAME.apply(s, d.seat, pick)
                except IllegalMove:
                    continue  # a random mix of goods beyond the holds: refused, nothing changed


def test_the_longest_labels_fit_discord() -> None:
    """The labels with the longest arguments (a tile part's name, two-digit cells, five
    goods) fit a button too."""
    parts = [k for k in i18n_keys() if k.startswith("galaxy_trucker.tile.")]
    from core import i18n

    for lang in ("en", "es"):
        for key in [k for k in i18n_keys() if k.startswith("galaxy_trucker.opt.")]:
            for part in parts:
                args: dict[str, Any] = dict(row=10, col=10, part_key=part, left=3, planet=4)
                args.update(count=3, power="12½")
                args.update(goods="🟥🟥🟥🟥🟥", fit=4, n=5, space=10, tile=152, run=4, pile=3)
                args.update(who="👤👤", good="🟥", front_key=part, right_key=part)
                args.update(rear_key=part, left_key=part)
                text = i18n.t(key, lang, **args)
                assert len(text) <= 80, (key, lang, text)


def i18n_keys() -> list[str]:
    with open(Path(__file__).resolve().parents[2] / "data/galaxy_trucker/strings.json") as f:
        return list(json.load(f)["en"])
