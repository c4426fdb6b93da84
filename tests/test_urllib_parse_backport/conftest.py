"""Fixtures the test files of ``urllib_parse_backport`` share."""

import logging

import pytest


@pytest.fixture
def log(caplog):
    """``caplog`` at WARNING for the package's logger: what an operator sees."""
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    return caplog
