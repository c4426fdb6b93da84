"""bpo-39017's own test, and pax records of length 0 elsewhere in an archive.

Mirrors CPython's ``test_tarfile.MiscReadTest.test_length_zero_header``
(added by bpo-39017), on ``Lib/test/recursion.tar`` rebuilt byte for byte.
Every 3.x of the matrix has the fix; 2.7 loops for ever on that archive.
Each test first reads a record of length 0 whose keyword is no UTF-8: the
stock 2.7 reader fails decoding it (no loop), the fixed one refuses it with
``ReadError``; so a missing fix fails the test instead of hanging it.
"""

import pytest

import tar_helpers as helpers

OPEN_FAILS = "file could not be opened successfully"


@pytest.fixture
def pax_fixed(tarfile_fixed):
    """``tarfile`` with the fix in force, checked on a record that cannot loop."""
    error = helpers.outcome(helpers.members, helpers.pax_archive(b"0 \xff=\n"))
    assert error[:2] == ("error", tarfile_fixed.ReadError), error
    return tarfile_fixed


def test_cpython_length_zero_header(pax_fixed):
    with pytest.raises(pax_fixed.ReadError, match=OPEN_FAILS):
        helpers.members(helpers.recursion_tar())


def test_a_zero_length_record_after_a_good_one_is_refused(pax_fixed):
    with pytest.raises(pax_fixed.ReadError, match=OPEN_FAILS):
        helpers.members(helpers.pax_archive(b"11 path=ab\n0 X=\n"))


def test_a_later_member_with_one_ends_the_archive(pax_fixed):
    buffer = helpers.VALID_GNU + helpers.pax_archive(b"0 X=\n")
    assert helpers.members(buffer) == [("filename", 0)]


@pytest.mark.parametrize("record, name", [(b"11 path=ab\n", "ab"),
                                          (b"16 path=abcdefg\n", "abcdefg"),
                                          (b"13 comment=c\n", "m")])
def test_honest_pax_records_read_the_same(tarfile_unpatched, record, name):
    buffer = helpers.pax_archive(record)
    stock = helpers.members(buffer)
    tarfile_unpatched.patch(force=True)
    assert helpers.members(buffer) == stock == [(name, 0)]
