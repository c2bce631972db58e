"""``t`` keeps the texts it wrote (``core.i18n._TEXTS``: most of a click's texts are the
previous click's again) and gives each call the text it would write afresh: values equal
but written apart (``1``, ``1.0``, ``True``; ``0.0`` and ``-0.0``) stay apart, a changed
string (its own or a ``*_key`` argument's) is read anew, and what warns warns each time."""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest

from core import i18n
from core.i18n import t


@pytest.fixture(autouse=True)
def toy_strings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    cat = i18n.catalog()
    for lang in i18n.LANGS:
        monkeypatch.setitem(cat[lang], "toy.memo.plain", "{x} for {seat}")
        monkeypatch.setitem(cat[lang], "toy.memo.spec", "{x:.2f}")
        monkeypatch.setitem(cat[lang], "toy.memo.repr", "{x!r}")
        monkeypatch.setitem(cat[lang], "toy.memo.word", "a {thing_key}")
        monkeypatch.setitem(cat[lang], "toy.memo.thing", "rocket")
    monkeypatch.setattr(i18n, "_TEXTS", {})
    yield


def test_a_text_written_again_is_the_same_and_kept() -> None:
    first = t("toy.memo.plain", "es", ["Ana", "Ben"], x=2, seat=1)
    assert first == "2 for Ben"
    assert len(i18n._TEXTS) == 1
    assert t("toy.memo.plain", "es", ["Ana", "Ben"], x=2, seat=1) == first
    assert t("toy.memo.plain", "es", ["Ana", "Cal"], x=2, seat=1) == "2 for Cal"
    assert t("toy.memo.plain", "es", None, x=2, seat=1) == "2 for 1"


def test_equal_values_written_apart_stay_apart() -> None:
    got = [t("toy.memo.plain", "es", ["Ana", "Ben"], x=x, seat=0) for x in (1, 1.0, True, 1)]
    assert got == ["1 for Ana", "1 for Ana", "True for Ana", "1 for Ana"]
    assert [t("toy.memo.plain", "es", None, x=x, seat=1) for x in (True, 1.5)] == [
        "True for 1",
        "1,5 for 1",
    ]
    assert [t("toy.memo.spec", "en", x=x) for x in (0.0, -0.0, 0.0)] == ["0.00", "-0.00", "0.00"]
    got = [t("toy.memo.repr", "en", x=x) for x in (1, 1.0, True, 1, 1.0)]
    assert got == ["1", "1.0", "True", "1", "1.0"]


def test_a_changed_string_is_read_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    assert t("toy.memo.word", "en", thing_key="toy.memo.thing") == "a rocket"
    monkeypatch.setitem(i18n.catalog()["en"], "toy.memo.thing", "probe")
    assert t("toy.memo.word", "en", thing_key="toy.memo.thing") == "a probe"
    monkeypatch.setitem(i18n.catalog()["en"], "toy.memo.word", "the {thing_key}")
    assert t("toy.memo.word", "en", thing_key="toy.memo.thing") == "the probe"


def test_what_warns_warns_each_time(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="core.i18n")
    for _ in range(2):
        assert t("toy.memo.word", "en", thing_key="toy.memo.gone") == "a toy.memo.gone"
        assert t("toy.memo.plain", "en", x=1) == "{x} for {seat}"
    warned = [r.getMessage() for r in caplog.records]
    assert (
        warned
        == [
            "missing string toy.memo.gone",
            "bad arguments for string toy.memo.plain: ['x']",
        ]
        * 2
    )
    assert not i18n._TEXTS


def test_arguments_of_other_kinds_are_written_each_time() -> None:
    where = {"en": "Phobos", "es": "Fobos"}
    assert t("toy.memo.plain", "es", x=where, seat=0) == "Fobos for 0"
    assert t("toy.memo.plain", "es", x=[1], seat=0) == "[1] for 0"
    assert not i18n._TEXTS


def test_the_kept_texts_are_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "TEXTS_KEPT", 3)
    for x in range(7):
        assert t("toy.memo.plain", "en", x=x, seat=0) == f"{x} for 0"
        assert 1 <= len(i18n._TEXTS) <= 3


def test_equal_values_of_other_types_are_written_each_time() -> None:
    """A str subclass or an enum compares equal to a plain value but may print otherwise:
    never kept (the plain value's kept text is not given for it, nor the other way)."""

    class Shout(str):
        def __format__(self, spec: str) -> str:
            return self.upper()

    class Level(enum.IntEnum):
        HARD = 2

    assert t("toy.memo.plain", "en", x="go", seat=0) == "go for 0"
    assert t("toy.memo.plain", "en", x=Shout("go"), seat=0) == "GO for 0"
    assert t("toy.memo.plain", "en", x=2, seat=0) == "2 for 0"
    assert t("toy.memo.plain", "en", x=Level.HARD, seat=0) == f"{Level.HARD} for 0"
    assert t("toy.memo.plain", "en", x=Decimal("2.50"), seat=0) == "2.50 for 0"
    assert t("toy.memo.plain", "en", ["Ana"], x="go", seat=0) == "go for Ana"
    assert len(i18n._TEXTS) == 3


def test_a_text_without_arguments_is_kept_whatever_the_names() -> None:
    """Without arguments there is no seat to name: one text kept for every list of names."""
    cat = i18n.catalog()
    cat["en"]["toy.memo.label"] = cat["es"]["toy.memo.label"] = "Board"
    try:
        lists: list[Any] = [None, ["Ana"], ["Ben", "Cal"], [{"en": "Bot", "es": "Bot"}]]
        for names in lists:
            assert t("toy.memo.label", "es", names) == "Board"
    finally:
        for lang in i18n.LANGS:
            del cat[lang]["toy.memo.label"]
    assert len(i18n._TEXTS) == 1


def test_a_reloaded_catalog_is_read_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog loaded again with other strings (a file changed): the new text."""
    assert t("toy.memo.word", "en", thing_key="toy.memo.thing") == "a rocket"
    fresh = {lang: dict(texts) for lang, texts in i18n.catalog().items()}
    fresh["en"]["toy.memo.thing"] = "lander"
    monkeypatch.setattr(i18n, "catalog", lambda: fresh)
    assert t("toy.memo.word", "en", thing_key="toy.memo.thing") == "a lander"
    assert t("toy.memo.word", "es", thing_key="toy.memo.thing") == "a rocket"


def test_threads_writing_at_once_get_their_own_texts() -> None:
    """Pictures are drawn in threads: each call gets its own text while others fill and
    empty the kept texts at the same time."""
    i18n.TEXTS_KEPT, kept = 50, i18n.TEXTS_KEPT
    try:

        def write(base: int) -> list[bool]:
            return [
                t("toy.memo.plain", "es", ["Ana", "Ben"], x=base + i % 80, seat=i % 2)
                == f"{base + i % 80} for {['Ana', 'Ben'][i % 2]}"
                for i in range(2000)
            ]

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(write, range(0, 800, 100)))
    finally:
        i18n.TEXTS_KEPT = kept
    assert all(all(r) for r in results)
