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


@pytest.fixture
def no_label_blind_parser():
    """No label-blind parser loaded (Bottle <= 0.12.18 is the one protect() knows):
    a body under a label neither urlencoded nor multipart is nobody's form."""
    from label_blind import without_label_blind_parser
    with without_label_blind_parser():
        yield


@pytest.fixture
def label_blind_parser():
    """A label-blind parser loaded: a ``bottle`` module whose ``_parse_qsl`` splits
    on ``&`` and ``;`` as Bottle 0.12.18's does (CVE-2020-28473)."""
    from label_blind import with_label_blind_parser
    with with_label_blind_parser() as module:
        yield module
