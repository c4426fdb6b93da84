"""Fixtures the test files of ``idna_backport`` share."""

import pytest

import idna_backport
import idna_helpers


@pytest.fixture(autouse=True)
def idna_unpatched():
    """idna_backport, unpatched after each test, whatever it did."""
    yield idna_backport
    idna_backport.unpatch()


@pytest.fixture
def idna_fixed():
    """``encodings.idna`` with the fix bound (the names ``patch(force=True)`` binds)."""
    with idna_helpers.bound():
        yield idna_helpers.module()
