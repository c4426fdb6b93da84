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
    """``encodings.idna`` with the fix in force: ``patch(force=True)``, undone after."""
    idna_backport.patch(force=True)
    yield idna_helpers.module()
    idna_backport.unpatch()
