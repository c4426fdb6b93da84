"""What every test folder shares: ``tests/helpers`` on ``sys.path``, and fixtures.

The tests are grouped per package (``test_urllib_parse_backport/``,
``test_ctypes_safe/``; the checks of both at the top); the modules they share
(fresh interpreters, the stdlib's state, real WSGI apps, the one place that
reaches private modules) live in ``tests/helpers``.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers"))

import ctypes_safe  # noqa: E402
import http_cookies_backport  # noqa: E402
import urllib_parse_backport  # noqa: E402
from urllib_parse_backport import read_environment  # noqa: E402


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
def ctypes_unpatched():
    """ctypes_safe, unpatched before the test and after it, whatever it did."""
    ctypes_safe.unpatch()
    yield ctypes_safe
    ctypes_safe.unpatch()


@pytest.fixture
def cookies_unpatched():
    """http_cookies_backport, unpatched before the test and after it, whatever it did."""
    http_cookies_backport.unpatch()
    yield http_cookies_backport
    http_cookies_backport.unpatch()


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
