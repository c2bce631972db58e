"""An argument named ``*_key`` holds an i18n key: it is shown as that key's text, in the
same language, with seat names still applied to the outer string."""

from __future__ import annotations

from core.i18n import t


def test_key_arguments_are_translated_in_the_same_language() -> None:
    args = {"seat": 1, "astronaut_key": "mlem.ability.moon_doubler", "space": 10, "points": 6}
    en = t("mlem.prompt.land_moon", "en", ["Ana", "Bea"], **args)
    es = t("mlem.prompt.land_moon", "es", ["Ana", "Bea"], **args)
    assert "Moon ×2" in en and "space 10" in en and "_key" not in en
    assert "Luna ×2" in es and "casilla 10" in es


def test_plain_arguments_are_left_alone() -> None:
    text = t("host.table.decide_line", "en", name="mlem.ability.booster", prompt="x")
    assert text == "mlem.ability.booster: x"
