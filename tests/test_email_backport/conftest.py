"""Fixtures the test files of ``email_backport`` share."""

import pytest

import email_backport


@pytest.fixture(autouse=True)
def email_unpatched():
    """email_backport, unpatched before each test and after it, whatever it did."""
    email_backport.unpatch()
    yield email_backport
    email_backport.unpatch()
