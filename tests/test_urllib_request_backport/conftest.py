"""Fixtures the test files of ``urllib_request_backport`` share."""

import pytest

import urllib_request_backport


@pytest.fixture(autouse=True)
def request_unpatched():
    """urllib_request_backport, unpatched before each test and after it, whatever it did."""
    urllib_request_backport.unpatch()
    yield urllib_request_backport
    urllib_request_backport.unpatch()
