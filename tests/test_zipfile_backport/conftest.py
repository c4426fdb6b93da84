"""Fixtures the test files of ``zipfile_backport`` share."""

import pytest

import zip_helpers
import zipfile_backport


@pytest.fixture(autouse=True)
def zipfile_unpatched():
    """zipfile_backport, unpatched before each test and after it, whatever it did."""
    zipfile_backport.unpatch()
    yield zipfile_backport
    zipfile_backport.unpatch()


@pytest.fixture
def zipfile_fixed():
    """``zipfile`` with the fix in force (``patch(force=True)``), undone after (3.8+).

    Checked first, so that a test whose archive loops on the stock walk fails
    here instead of running for ever: ``_ancestry('//a')`` must stop."""
    if not zip_helpers.HAS_PATH:
        pytest.skip("2.7-3.7 have no zipfile.Path")
    zipfile_backport.patch(force=True)
    assert zip_helpers.walk("//a") == ["//a"]
    import zipfile
    yield zipfile
    zipfile_backport.unpatch()
