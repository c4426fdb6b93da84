"""Fixtures the test files of ``wsgiref_backport`` share."""

import pytest

import wsgiref_backport


@pytest.fixture(autouse=True)
def wsgiref_unpatched():
    """wsgiref_backport, unpatched before the test and after it, whatever it did."""
    wsgiref_backport.unpatch()
    yield wsgiref_backport
    wsgiref_backport.unpatch()
