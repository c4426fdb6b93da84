"""Fixtures the test files of ``http_client_backport`` share."""

import pytest

import http_client_backport


@pytest.fixture(autouse=True)
def client_unpatched():
    """http_client_backport, unpatched before the test and after it, whatever it did."""
    http_client_backport.unpatch()
    yield http_client_backport
    http_client_backport.unpatch()
