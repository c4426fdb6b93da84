"""Fixtures the test files of ``ipaddress_backport`` share."""

import pytest

import ipaddress_backport
import ipaddress_helpers


@pytest.fixture(autouse=True)
def ipaddress_unpatched():
    """ipaddress_backport, unpatched after each test, whatever it did."""
    yield ipaddress_backport
    ipaddress_backport.unpatch()


@pytest.fixture
def ipaddress_fixed():
    """``ipaddress`` with the fix in force: ``patch(force=True)``, undone after (3.x)."""
    if ipaddress_helpers.STDLIB is None:
        pytest.skip("2.7 ships no ipaddress")
    ipaddress_backport.patch(force=True)
    yield ipaddress_helpers.STDLIB
    ipaddress_backport.unpatch()
