"""Fixtures the test files of ``http_cookies_backport`` share."""

import pytest

import http_cookies_backport


@pytest.fixture
def cookies_unpatched():
    """http_cookies_backport, unpatched before the test and after it, whatever it did."""
    http_cookies_backport.unpatch()
    yield http_cookies_backport
    http_cookies_backport.unpatch()
