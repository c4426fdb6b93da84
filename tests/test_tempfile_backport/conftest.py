"""Fixtures the test files of ``tempfile_backport`` share."""

import pytest

import tempfile_backport


@pytest.fixture(autouse=True)
def tempfile_unpatched():
    """tempfile_backport, unpatched before each test and after it, whatever it did."""
    tempfile_backport.unpatch()
    yield tempfile_backport
    tempfile_backport.unpatch()
