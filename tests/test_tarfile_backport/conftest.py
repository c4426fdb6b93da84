"""Fixtures the test files of ``tarfile_backport`` share."""

import tarfile

import pytest

import tarfile_backport


@pytest.fixture(autouse=True)
def tarfile_unpatched():
    """tarfile_backport, unpatched before each test and after it, whatever it did."""
    tarfile_backport.unpatch()
    yield tarfile_backport
    tarfile_backport.unpatch()


@pytest.fixture
def tarfile_fixed():
    """``tarfile`` with the fix in force (``patch(force=True)``), undone after.

    Checked first, so that a test whose archive loops on the stock reader fails
    here instead of reading for ever: ``_block`` must refuse a negative count."""
    tarfile_backport.patch(force=True)
    with pytest.raises(tarfile.InvalidHeaderError):
        tarfile.TarInfo()._block(-1)
    yield tarfile
    tarfile_backport.unpatch()
