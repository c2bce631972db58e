"""The privacy guard's one search per line (kit.any_of) finds what its patterns find."""

from __future__ import annotations

import re

from host import registry
from tests.e2e.kit import any_of, secret_patterns


def test_the_alternation_matches_exactly_where_one_pattern_does() -> None:
    lines = ["", "nothing secret here", "Ana rolled 3", "🤖 Bot 1 (hard)", "a\\b(c)"]
    for game in sorted(registry.games()):
        patterns = secret_patterns(game)
        either = any_of(patterns)
        if not patterns:
            assert either is None
            continue
        assert either is not None, game
        probes = lines + [p.pattern for p in patterns]
        for line in probes:
            assert bool(either.search(line)) == any(p.search(line) for p in patterns), line


def test_patterns_that_cannot_be_joined_are_searched_one_by_one() -> None:
    assert any_of([]) is None
    assert any_of([re.compile("a"), re.compile("b", re.I)]) is None
    assert any_of([re.compile("(a)\\1")]) is None
    either = any_of([re.compile("ab"), re.compile("c.d")])
    assert either is not None and either.search("xcyd") and not either.search("a b")
