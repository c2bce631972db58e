"""Every user-facing string exists in English and Spanish, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from core import i18n
from host import pacing

ROOT = Path(__file__).resolve().parent.parent
KEY = re.compile(r"""["'](host\.[a-z_]+(?:\.[a-z0-9_]+)+|cmd\.[a-z_]+(?:\.[a-z_]+)*)["']""")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_same_keys_and_placeholders_in_both_languages() -> None:
    cat = i18n.catalog()
    assert set(cat["en"]) == set(cat["es"]), set(cat["en"]) ^ set(cat["es"])
    for key, text in cat["en"].items():
        assert placeholders(text) == placeholders(cat["es"][key]), key


def test_spanish_ordinals_have_their_period() -> None:
    # the RAE writes a figure's ordinal with a period before the letter: 1.º, 2.ª, n.º
    bare = re.compile(r"[0-9}][ºª]")
    wrong = {k: v for k, v in i18n.catalog()["es"].items() if bare.search(v)}
    assert not wrong, wrong
    assert i18n.t("galaxy_trucker.pic.place", "es", place=1) == "1.º"


def test_every_key_used_by_the_host_and_cogs_exists() -> None:
    cat = i18n.catalog()
    used: set[str] = set()
    for path in [*ROOT.glob("cogs/*.py"), *ROOT.glob("host/*.py"), ROOT / "bot.py"]:
        used |= set(KEY.findall(path.read_text(encoding="utf-8")))
    # Keys built at run time from data: lobby pacing options and log marks.
    for spec in pacing.HOST_OPTIONS:
        used |= {spec.label, *(f"{spec.label}.{c}" for c in spec.choices)}
    used |= {"host.log.undo", "host.log.rollback", "host.yesno.0", "host.yesno.1"}
    used |= {f"host.status.{s}" for s in ("lobby", "active", "over", "abandoned")}
    missing = sorted(k for k in used if k not in cat["en"] and not k.endswith("."))
    assert not missing, missing


def test_games_name_their_options_and_score_parts() -> None:
    from host import registry

    cat = i18n.catalog()
    for gid, game in registry.games().items():
        for key in (f"{gid}.name", f"{gid}.rules_summary"):
            assert key in cat["en"] and key in cat["es"], key
        for spec in game.options:
            for key in (spec.label, *(f"{spec.label}.{c}" for c in spec.choices)):
                assert key in cat["en"] and key in cat["es"], key


def test_no_string_takes_an_argument_named_like_t_s_own_parameters() -> None:
    # i18n.t(key, lang, names, **args): a template field called "key", "lang" or "names"
    # could never be filled (the call's keyword goes to t itself), and the player would
    # read the raw template.
    formatter = string.Formatter()
    taken = {"key", "lang", "names"}
    for lang, strings in i18n.catalog().items():
        for key, text in strings.items():
            fields = {name for _, name, _, _ in formatter.parse(text) if name}
            assert not fields & taken, (lang, key, text)


def test_warnings_are_counted_exactly_from_many_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pictures are drawn in threads; a caller caches a line only if no warning was counted
    # while it was formatted, so no count may be lost.
    import logging
    import threading

    monkeypatch.setattr(i18n, "log", logging.getLogger("test.i18n.quiet"))
    logging.getLogger("test.i18n.quiet").disabled = True
    before = i18n.warnings_logged()

    def warn_many() -> None:
        for _ in range(2000):
            i18n.t("test.no.such.string")

    threads = [threading.Thread(target=warn_many) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert i18n.warnings_logged() - before == 8000
