"""The recap GIF keeps every seat's colour exact, for every registered game."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image

from host import registry
from render import kit, recap
from tests.kit import random_pick

FRAMES = 12


def replayed_views(game_id: str, players: int, seed: int) -> list[dict]:
    """Public views sampled along a whole random game, first and last included, the way the
    host samples them for the recap (``Host.replay_views``)."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    state = game.new(players, {}, seed)
    states = [state]
    while pending := game.pending(state):
        d = rng.choice(pending)
        state, _ = game.apply(state, d.seat, random_pick(d, rng))
        states.append(state)
    marks = sorted({round(i * (len(states) - 1) / (FRAMES - 1)) for i in range(FRAMES)})
    return [game.view(states[i], None) for i in marks]


def _colours(im: Image.Image) -> set[tuple[int, int, int]]:
    rgb = im.convert("RGB")
    return {c for _, c in rgb.getcolors(rgb.width * rgb.height) or []}  # type: ignore[misc]


@pytest.mark.parametrize("game_id", sorted(registry.GAME_MODULES))
def test_recap_keeps_every_seat_colour_exact(game_id: str) -> None:
    game = registry.get(game_id)
    players = min(game.max_players, len(kit.PALETTE))
    names = [f"Player {i + 1}" for i in range(players)]
    render = registry.renderer(game_id)
    frames = [render.render_table(v, names, "es") for v in replayed_views(game_id, players, 5)]
    gif = recap.animate(frames)

    # The colours the frames show at the recap's size (what the GIF has to keep).
    shown: set[tuple[int, int, int]] = set()
    for data in frames:
        im = Image.open(io.BytesIO(data)).convert("RGB")
        im = im.resize((700, round(im.height * 700 / im.width)), Image.Resampling.LANCZOS)
        shown |= _colours(im)
    used = [pc.rgb for pc in kit.PALETTE[:players] if pc.rgb in shown]
    assert used, "the table shows no seat colour at all"

    out: Any = Image.open(io.BytesIO(gif))
    # Identical consecutive pictures (e.g. while ships are built in private) are one frame.
    distinct = 1 + sum(1 for a, b in itertools.pairwise(frames) if a != b)
    assert distinct <= out.n_frames <= len(frames)
    in_frames: set[tuple[int, int, int]] = set()
    in_palette: set[tuple[int, int, int]] = set()
    for i in range(out.n_frames):
        out.seek(i)
        flat = out.getpalette() or []
        in_palette |= {(flat[j], flat[j + 1], flat[j + 2]) for j in range(0, len(flat) - 2, 3)}
        in_frames |= _colours(out)
    for rgb in used:
        assert rgb in in_palette, f"seat colour {rgb} is not in the GIF palette"
        assert rgb in in_frames, f"seat colour {rgb} drifted in the GIF frames"


def test_recap_maps_seat_colours_onto_themselves() -> None:
    """Blocks of every seat colour side by side come out of the GIF unchanged, each one."""
    im = Image.new("RGB", (60 * len(kit.PALETTE), 60), kit.BG)
    for i, pc in enumerate(kit.PALETTE):
        im.paste(pc.rgb, (60 * i, 0, 60 * i + 60, 60))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    gif = Image.open(io.BytesIO(recap.animate([buf.getvalue()] * 2, width=im.width)))
    rgb = gif.convert("RGB")
    for i, pc in enumerate(kit.PALETTE):
        assert rgb.getpixel((60 * i + 30, 30)) == pc.rgb


def test_recap_needs_frames() -> None:
    with pytest.raises(ValueError):
        recap.animate([])
