"""Games that teach themselves: ``/game rules`` in sections with a topic, every lobby option
explained (in the rules and in the lobby), and the lobby saying who set which option.

Played through the offline harness, in both languages, for every registered game."""

from __future__ import annotations

import pytest

from cogs import present
from core import i18n
from core.i18n import t
from host import pacing, registry
from tests.harness import Harness

LOCALES = {"en": "en-US", "es": "es-ES"}
GAMES = sorted(registry.GAME_MODULES)


def _norm(text: str) -> str:
    return text.replace("**", "").casefold()


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", GAMES)
async def test_rules_mention_every_lobby_option_and_value(
    harness: Harness, game: str, lang: str
) -> None:
    """Every lobby option (the game's and the host's pacing ones) and each of its values
    is named in ``/game rules``, with its one-line explanation; a game's own options are
    explained value by value in its ``<game>.rules.option.<id>`` text."""
    user = harness.user("Ana", LOCALES[lang])
    reply = await harness.slash(user, "game rules", game=game)
    text = _norm(reply.text())
    assert reply.ephemeral
    explained = present.explained_options(game)
    owned = [(game, o) for o in explained] + [("host", o) for o in pacing.HOST_OPTIONS]
    for owner, spec in owned:
        assert _norm(t(spec.label, lang)) in text, (game, lang, spec.id)
        for value in spec.choices:
            assert _norm(t(f"{spec.label}.{value}", lang)) in text, (game, lang, spec.id, value)
        key = present.help_key(spec, owner)
        assert key in i18n.catalog()[lang], (lang, key)
        assert _norm(t(key, lang)) in text
    for spec in explained:
        key = f"{game}.rules.option.{spec.id}"
        assert key in i18n.catalog()[lang], (lang, key)
        assert _norm(t(key, lang)) in text
        # The explanation speaks of each value by its name.
        for value in spec.choices:
            assert _norm(t(f"{spec.label}.{value}", lang)) in _norm(t(key, lang)), (key, value)


@pytest.mark.parametrize("game", sorted({*GAMES, "mlem", "kosmonavts", "red_planet"}))
def test_every_game_has_every_section_in_both_languages(game: str) -> None:
    for lang in LOCALES:
        for section in present.RULE_SECTIONS:
            key = f"{game}.rules.{section}"
            assert key in i18n.catalog()[lang], (lang, key)
            assert 40 <= len(t(key, lang)) <= 1024, (lang, key)
        if game not in registry.GAME_MODULES:
            continue
        embeds = present.rules_embeds(game, None, lang)
        for embed in embeds:  # within Discord's limits
            assert len(embed) <= present.EMBEDS_TOTAL
            assert all(len(f.value or "") <= 1024 for f in embed.fields)


async def test_rules_topic_shows_one_section(harness: Harness) -> None:
    ana = harness.user("Ana", "es-ES")
    reply = await harness.slash(ana, "game rules", game="mlem", topic="scoring")
    text = reply.text()
    assert t("mlem.rules.scoring", "es") in text
    assert t("mlem.rules.turn", "es") not in text
    assert "Puntuación" in text
    reply = await harness.slash(ana, "game rules", game="mlem", topic="options")
    text = reply.text()
    assert t("mlem.rules.option.missions", "es") in text
    assert t("mlem.rules.goal", "es") not in text


async def test_rules_topic_choices_are_localized(harness: Harness) -> None:
    payload = await harness.app_commands_payload()
    (game,) = [c for c in payload if c["name"] == "game"]
    rules = next(o for o in game["options"] if o["name"] == "rules")
    topic = next(o for o in rules["options"] if o["name"] == "topic")
    assert topic["name_localizations"]["es-ES"] == "tema"
    assert not topic.get("required")
    values = {c["value"]: c for c in topic["choices"]}
    assert set(values) == set(present.RULE_TOPICS)
    assert values["scoring"]["name_localizations"]["es-ES"] == "Puntuación"


def test_a_game_without_sections_falls_back_to_its_summary(monkeypatch) -> None:
    cat = {lang: dict(strings) for lang, strings in i18n.catalog().items()}
    for lang in cat:
        for section in present.RULE_SECTIONS:
            cat[lang].pop(f"mlem.rules.{section}", None)
    monkeypatch.setattr(i18n, "catalog", lambda: cat)
    embeds = present.rules_embeds("mlem", None, "en")
    text = "\n".join(f.value or "" for e in embeds for f in e.fields)
    assert cat["en"]["mlem.rules_summary"][:200] in text
    # A topic the game does not have shows the summary too.
    (embed,) = present.rules_embeds("mlem", "turn", "en")
    assert embed.fields[0].value == present.fit(cat["en"]["mlem.rules_summary"])


async def test_lobby_explains_options_and_says_who_set_them(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    lobby = (await h.slash(ana, "game new", game="mlem")).posted
    text = lobby.text()
    for spec in registry.get("mlem").options:
        assert t(present.help_key(spec, "mlem"), "en") in text
    for spec in pacing.HOST_OPTIONS:
        assert t(present.help_key(spec, "host"), "en") in text
    assert "anyone seated may switch an option" in text.lower()
    await h.click(ben, lobby, label="Join")
    await h.click(ben, lobby, label="UFO variant: No UFO")
    assert "UFO variant**: With UFO (set by Ben)" in lobby.content
    await h.click(ana, lobby, label="Time per move: no limit")
    await h.click(ana, lobby, label="UFO variant: With UFO")
    lines = lobby.content.splitlines()
    # One line per option, the latest change last.
    assert len(lines) == 2
    assert "Time per move**: 12 hours (set by Ana)" in lines[0]
    assert "UFO variant**: No UFO (set by Ana)" in lines[1]
    assert not lobby.stored.payload.get("allowed_mentions", {}).get("parse")
    # A join afterwards keeps the notes.
    cal = h.user("Cal", "en-US")
    await h.click(cal, lobby, label="Join")
    assert "set by Ana" in lobby.content and "3. Cal" in lobby.text()


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_lobby_option_buttons_fit_discord(lang: str) -> None:
    """A lobby button reads "<option>: <value>" within Discord's 80 characters."""
    for game in GAMES:
        for spec in (*registry.get(game).options, *pacing.HOST_OPTIONS):
            for value in spec.choices:
                label = f"{t(spec.label, lang)}: {t(f'{spec.label}.{value}', lang)}"
                assert len(label) <= 80, label
