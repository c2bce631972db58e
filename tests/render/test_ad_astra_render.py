"""Board pictures for Ad Astra: the table and private pictures render for many states of
random games (3–5 players) within budget; secrets never reach the table."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from core.contract import Decision, Game
from render import ad_astra as R
from render import kit
from rules.ad_astra import GAME
from rules.ad_astra.data import ARTIFACTS, RES, SOL, STARS
from tests.kit import png_ok
from tests.render import kit as K

NAMES = K.NAMES[:5]


def _bot_or_trade(game: Game, s: Any, d: Decision, rng: random.Random) -> str:
    """The engine's bot, who also plays a Trade card half the time (the bots never plan
    one)."""
    if "c.t" in [o.id for o in d.options] and rng.random() < 0.5:
        return "c.t"
    return K.bot(game, s, d, rng)


#: States along seeded games played by the engine's bots, who also play their Trade cards
#: (every 7th move, and the last).
game_states, sample = K.sampler(
    "ad_astra", every=7, options={"artifacts": "all"}, choose=_bot_or_trade
)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_table_and_private_pictures_of_random_games(n: int) -> None:
    K.check_pictures_in_time(
        "ad_astra",
        n,
        [sample(n, seed, 8) for seed in (n * 10 + 1, n * 10 + 2)],
        table=lambda img: img.width == R.W and 800 <= img.height <= 1300,
        private=lambda img: img.width == R.PW,
    )


def test_trade_states_show_open_hands() -> None:
    """While a Trade action resolves every hand is public, and the table draws it."""
    s = next(
        st
        for seed in (3, 4, 5, 6)
        for st in game_states(4, seed, every=1)
        if st["task"] is not None and st["task"]["k"] == "trade"
    )
    view = GAME.view(s, None)
    assert view["open_hands"] is not None
    plain = copy.deepcopy(view)
    plain["open_hands"] = None
    a = png_ok(R.render_table(view, NAMES[:4], "en"))
    b = png_ok(R.render_table(plain, NAMES[:4], "en"))
    # the open hand takes the place of the resource count in each player's panel
    assert a.size == b.size and a.tobytes() != b.tobytes()


def test_seat_colours_are_the_kits_six() -> None:
    rgbs = [R.seat_rgb(c) for c in range(6)]
    assert rgbs == [pc.rgb for pc in kit.PALETTE]
    assert len({R.seat_shape(c) for c in range(6)}) == 6


def test_every_seat_colour_is_drawn_in_a_five_player_game() -> None:
    s = sample(5, 61, 4)[2]
    img = png_ok(R.render_table(GAME.view(s, None), NAMES, "en")).convert("RGB")
    colours: list[tuple[int, int, int]] = [c for _, c in img.getcolors(1 << 20) or []]  # type: ignore[misc]
    for c in range(5):
        want = R.seat_rgb(c)
        near = [k for k in colours if sum(abs(a - b) for a, b in zip(k, want, strict=True)) < 24]
        assert near, (c, want)


def test_the_table_never_reads_the_private_part() -> None:
    for n in (3, 5):
        for s in sample(n, 70 + n, 3):
            public = GAME.view(s, None)
            expected = R.render_table(public, NAMES[:n], "en")
            for seat in range(n):
                assert R.render_table(GAME.view(s, seat), NAMES[:n], "en") == expected


def test_hidden_things_look_the_same_whatever_they_hide() -> None:
    """Two games that differ only in face-down planets, hands, resources and artifacts give
    the same public picture."""
    s = next(st for st in sample(4, 81, 6)[2:] if st["step"] != "act" or st["task"] is None)
    public = GAME.view(s, None)
    twisted = copy.deepcopy(s)
    for p in twisted["planets"]:
        if not p["up"]:
            p["t"] = "A" if p["t"] != "A" else "W"
    for seat in range(4):
        hand = twisted["res"][seat]
        total = sum(hand.values())
        for r in RES:
            hand[r] = 0
        hand["Z"] = total
        twisted["arts"][seat] = ["tropaeum"] * len(twisted["arts"][seat])
    assert GAME.view(twisted, None) == public
    assert R.render_table(GAME.view(twisted, None), NAMES[:4], "es") == R.render_table(
        public, NAMES[:4], "es"
    )


def test_private_picture_shows_the_secrets() -> None:
    s = next(
        st
        for seed in (91, 92, 93)
        for st in game_states(3, seed, every=1)
        if any(not st["planets"][p]["up"] for p in st["known"][0])
    )
    view = {**GAME.view(s, 0), "seat": 0}
    png = R.render_private(view, NAMES[:3], "en")
    png_ok(png)
    for change in ("resources", "artifacts", "known_planets", "action_hand"):
        other = copy.deepcopy(view)
        priv = other["private"]
        if change == "resources":
            priv["resources"] = {r: 7 for r in RES}
        elif change == "artifacts":
            priv["artifacts"] = ["arcanum", "cornu"]
        elif change == "known_planets":
            priv["known_planets"] = {"30": "A"}
        else:
            priv["action_hand"] = ["t"]
        assert R.render_private(other, NAMES[:3], "en") != png, change


def test_private_none_when_nothing_private() -> None:
    s = game_states(3, 5)[3]
    assert R.render_private(GAME.view(s, None), NAMES[:3], "en") is None
    assert R.render_private({"private": {}}, [], "en") is None


def test_odd_views() -> None:
    """A real view with broken parts (test_render_contract.py tries the generic odd input)."""
    v = copy.deepcopy(GAME.view(sample(4, 41, 4)[2], None))
    v["planets"][0] = None
    v["planets"][1]["type"] = "Q"
    v["slots"] = [None, {"seat": 9, "card": "p0"}, {"seat": 0, "card": "zz"}, 5]
    v["ships"] = [None, [-1, "x"], [999]]
    v["pieces"] = [None]
    v["scores"] = [300, -5, None, 1]
    png_ok(R.render_table(v, NAMES[:4], "en"))
    png_ok(
        R.render_private(
            {"private": {"action_hand": ["p9", "m0"], "artifacts": ["nope"]}, "seat": 9}, [], "es"
        )
    )


def test_every_render_string_the_renderer_uses_exists() -> None:
    en = K.render_keys("ad_astra")
    assert en
    src = K.renderer_source("ad_astra")
    used = {f"ad_astra.render.{k}" for k in re.findall(r'(?<![.\w])t\(\s*"([a-z_.]+)"', src)}
    used |= {f"ad_astra.render.system.{x}" for x in (SOL, *STARS)}
    used |= {f"ad_astra.render.abbr.{x}" for x in STARS}
    used |= {f"ad_astra.render.res.{r}" for r in (*RES, "A")}
    used |= {f"ad_astra.render.art.{a}" for a in ARTIFACTS}
    used |= {f"ad_astra.render.short.{k}" for k in "pmbts"}
    assert used <= en, used - en


def test_systems_do_not_overlap() -> None:
    boxes = [R._sys_box(code) for code in (SOL, *STARS)]
    for i, (ax0, ay0, ax1, ay1) in enumerate(boxes):
        assert ax0 >= 0 and ax1 <= R.MAP_X + R.MAP_W and ay1 < R.DEEP_Y
        for bx0, by0, bx1, by1 in boxes[i + 1 :]:
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
