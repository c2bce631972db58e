"""Every picture the bot posts is described in words (issue 22.2), read through the offline
Discord harness over whole games of every registered game.

Each game is played to its end by two people of different languages (the one who opens it
sets the channel's language; the other has closed DMs and plays through "My hand"), bots
filling the seats the game needs. Then every image attachment ever posted (deleted tables
and edited panels too) is read:

* it carries a description, within Discord's limit (1024 characters; the harness refuses a
  longer one, as Discord does);
* in its reader's language: the channel's for the tables, the final board and the recap,
  the player's own for their private pictures (the description is the text the game's
  ``describe_*`` made for that language);
* a channel picture's text is a table's or the recap's, built from a public view, never a
  private picture's; and the shared privacy guard, which reads alt texts too, passes.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from cogs import present
from core.i18n import pick, t
from host import registry
from host.clock import FakeClock
from render import words
from tests.e2e.kit import (
    assert_finished,
    assert_no_secrets_in_channels,
    assert_played_in_private,
    open_game,
    play_straight,
    secret_patterns,
)
from tests.harness import Harness
from tests.harness.backend import ApiError, validate_message

pytestmark = pytest.mark.usefixtures("i18n_warnings")

#: (game, the opener's locale, the other player's): each game in one channel language,
#: both languages in every game's private pictures.
CASES = [
    ("mlem", "en-US", "es-ES"),
    ("kosmonavts", "es-ES", "en-US"),
    ("red_planet", "en-US", "es-ES"),
    ("galaxy_trucker", "es-ES", "en-US"),
    ("ad_astra", "es-ES", "en-US"),
]


#: Lobby options clicked: MLEM's variants hold its only secrets (missions, hidden points).
VARIANTS = {"mlem": {"ufo": 1, "recon": 1, "missions": 1}}


class Described:
    """Every text the bot made for a picture: text -> {(kind, lang, the view had secrets)}."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: dict[str, set[tuple[str, str, bool]]] = defaultdict(set)
        describe, recap = present.describe, words.describe_recap

        def described(
            game: str, kind: str, view: dict[str, Any], names: list[str], lang: str
        ) -> str:
            text = describe(game, kind, view, names, lang)
            self.made[text].add((kind, lang, "private" in view))
            return text

        def recapped(game: str, view: dict[str, Any], names: Any, lang: str) -> str:
            text = recap(game, view, names, lang)
            self.made[text].add(("recap", lang, "private" in view))
            return text

        monkeypatch.setattr(present, "describe", described)
        monkeypatch.setattr(words, "describe_recap", recapped)


def pictures(h: Harness) -> list[tuple[str, int | None, str, Any]]:
    """(where: "channel" / "private", the user it was shown to, file name, attachment) of
    every image ever posted, every version of every message, deleted ones too."""
    backend = h.backend
    dm_user = {cid: uid for uid, cid in backend.dm_by_user.items()}
    out = []
    for stored in backend.stored_messages.values():
        if stored.ephemeral:
            where, user = "private", stored.interaction_user_id
        elif backend.is_guild_channel(stored.channel_id):
            where, user = "channel", None
        else:
            where, user = "private", dm_user.get(stored.channel_id)
        seen = set()
        for _, atts in stored.versions:
            for a in atts:
                if a.is_image and a.id not in seen:
                    seen.add(a.id)
                    out.append((where, user, a.name, a))
    return out


@pytest.mark.parametrize(("game", "opener", "other"), CASES)
async def test_every_picture_of_a_whole_game_is_described(
    harness: Harness,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    opener: str,
    other: str,
) -> None:
    h = harness
    described = Described(monkeypatch)
    ana, ben = h.user("Ana", opener), h.user("Ben", other)
    h.fail_dms(ben)  # Ben's private pictures come as "My hand" replies
    bots = max(0, registry.get(game).min_players - 2)
    await open_game(h, game, ana, [ben], bots=bots, clicks=VARIANTS.get(game))
    await play_straight(h, [ana, ben], clock, random.Random(5))
    await assert_finished(h, [ana, ben])
    assert_played_in_private(h, [ana, ben], ben)

    channel_lang = pick(opener)
    lang_of = {ana.id: pick(opener), ben.id: pick(other)}
    shown = pictures(h)
    names = {name for _, _, name, _ in shown}
    assert {"table.png", "private.png", "final.png", "recap.gif"} <= names, names
    counts: dict[str, int] = defaultdict(int)
    for where, user, name, a in shown:
        text = a.description
        assert text, f"{where} {name} has no description"
        assert len(text) <= words.LIMIT, (name, len(text))
        made = described.made.get(text)
        assert made, f"{name}: a description the game did not make: {text[:200]}"
        kinds = {kind for kind, _, _ in made}
        langs = {lang for _, lang, _ in made}
        if where == "channel":
            assert channel_lang in langs, (name, text[:200])
            assert kinds <= {"table", "recap"}, (name, kinds)
            assert not any(secret for _, _, secret in made), (name, text[:200])
            if name == "recap.gif":
                assert kinds == {"recap"}
                assert text.startswith(
                    t("render.words.recap", channel_lang, game=t(f"{game}.name", channel_lang))
                )
        else:
            assert user in lang_of, (name, user)
            lang = lang_of[user]
            assert lang in langs, (name, lang, text[:200])
            if name == "private.png":
                assert "private" in kinds, (name, kinds)
                who = "Ana" if user == ana.id else "Ben"
                heading = t("render.words.private", lang, name=who, game=t(f"{game}.name", lang))
                assert text.startswith(heading), text[:200]
        counts[f"{where} {name}"] += 1
    print(f"\n{game}: described pictures {dict(counts)}")
    # The shared privacy guard reads alt texts too (channel lines and private ones).
    assert_no_secrets_in_channels(h, [ana, ben], secret_patterns(game))
    assert not h.unexpected and not h.errors, h.errors


def test_the_harness_refuses_a_description_longer_than_discord_allows() -> None:
    """As Discord does (50035): an attachment's description is 1024 characters at most."""

    def body(n: int) -> dict[str, Any]:
        return {"content": "x", "attachments": [{"id": 0, "description": "d" * n}]}

    validate_message(body(words.LIMIT), [], creating=True)
    with pytest.raises(ApiError) as refused:
        validate_message(body(words.LIMIT + 1), [], creating=True)
    assert refused.value.body["code"] == 50035
    assert "description" in refused.value.body["errors"]["attachments"]["0"]
