"""Templates parsed once (core.i18n._pieces) format every catalog string exactly as
``string.Formatter`` does: the same text, or the same kind of error."""

from __future__ import annotations

from typing import Any

import pytest

from core import i18n

VALUES: tuple[Any, ...] = (
    0,
    1,
    3,
    4.5,
    2.0,
    -1,
    "W",
    "2W+1X",
    "Ana",
    {"en": "Phobos", "es": "Fobos"},
)


def outcome(call: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", call(*args)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as err:
        return "error", type(err)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_catalog_string_formats_as_string_formatter_does(lang: str) -> None:
    formatter = i18n._FORMATTERS[lang]
    checked = 0
    for text in i18n.catalog()[lang].values():
        try:
            names = {name for _, name, _, _ in formatter.parse(text) if name}
        except ValueError:
            names = set()
        for value in VALUES:
            args = {name: i18n.localized(value, lang) for name in names}
            fast = outcome(i18n._format, formatter, text, args)
            slow = outcome(formatter.vformat, text, (), args)
            assert fast == slow, (text, args)
            checked += 1
        missing = outcome(i18n._format, formatter, text, {})
        assert missing == outcome(formatter.vformat, text, (), {}), text
    assert checked > 1000


@pytest.mark.parametrize(
    "text",
    ["{0}", "{a.b}", "{a[0]}", "{x:{w}}", "{", "}", "{{literal}}", "{a!r}", "{a!z}", "x{}y", ""],
)
def test_odd_templates_format_as_string_formatter_does(text: str) -> None:
    formatter = i18n._FORMATTERS["es"]
    args = {"a": "v", "x": 4.5, "w": "5"}
    fast = outcome(i18n._format, formatter, text, args)
    assert fast == outcome(formatter.vformat, text, (), args)


def test_a_log_line_is_written_once_and_reads_the_same() -> None:
    from cogs import present

    event = {"code": "recon_recover", "seat": 1, "args": {"pool": 3}}
    names = ["Ana", "Bea"]
    first = present.logged_line("mlem", 0, event, "es", names)
    assert first == present.event_line("mlem", 0, event, "es", names)
    assert present.logged_line("mlem", 0, event, "es", names) == first
    assert present.logged_line("mlem", 0, event, "en", names) == present.event_line(
        "mlem", 0, event, "en", names
    )
    # 1, 1.0 and True are equal keys for a dict, not for the cache
    for value in (1, 1.5, 1.0, True, "1"):
        other = {"code": "ufo_tile", "args": {"points": value}}
        assert present.logged_line("mlem", 0, other, "es", names) == present.event_line(
            "mlem", 0, other, "es", names
        )


def test_a_line_that_warns_is_not_kept_and_warns_each_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from cogs import present

    event = {"code": "no.such.string", "seat": 0}
    for _ in range(2):
        caplog.clear()
        assert present.logged_line("mlem", 0, event, "en", ["Ana"]) == "no.such.string"
        assert "missing string" in caplog.text
