"""Fixtures the test files of ``urllib_parse_backport`` share."""

import logging

import pytest

import urllib_parse_backport
from urllib_parse_backport import read_environment


@pytest.fixture(scope="module")
def upstream_default_separator():
    """Parse with the upstream default ('&'), whatever PYTHON_URLLIB_QS_SEPARATOR says."""
    read_environment({})
    yield
    read_environment()


@pytest.fixture
def unpatched():
    """urllib_parse_backport, unpatched before the test and after it, whatever it did."""
    urllib_parse_backport.unpatch()
    yield urllib_parse_backport
    urllib_parse_backport.unpatch()


@pytest.fixture
def log(caplog):
    """``caplog`` at WARNING for the package's logger: what an operator sees."""
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    return caplog
