"""Fixtures of the e2e tests (the kit's functions are in tests/e2e/kit.py)."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture
def i18n_warnings(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Records the i18n layer's warnings ("missing string …") for
    :func:`tests.e2e.kit.assert_translated`; modules that check words use it with
    ``pytestmark = pytest.mark.usefixtures("i18n_warnings")``."""
    caplog.set_level(logging.WARNING, logger="core.i18n")
    return caplog
