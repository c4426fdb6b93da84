"""gh-130577's own tests, and the archive that loops on the stock reader.

Mirrors CPython's ``test_tarfile.OffsetValidationTests`` (added by
gh-130577): each of upstream's four tests, on upstream's headers, with the
fix in force. On 2.7 the stock reader already refuses those headers (its
``nti`` has no negative base-256: "invalid header"), so they hold there
before the fix too; :func:`test_a_negative_octal_size_ends_the_archive` is
the case that loops on 2.7 as on 3.x.
"""

import itertools

import pytest

import tar_helpers as helpers


@pytest.mark.parametrize("invalid", [helpers.INVALID_POSIX, helpers.INVALID_GNU,
                                     helpers.INVALID_V7], ids=["posix", "gnu", "v7"])
def test_cpython_invalid_offset_header_validations(tarfile_fixed, invalid):
    with pytest.raises(tarfile_fixed.ReadError, match="file could not be opened successfully"):
        helpers.members(invalid)


def test_cpython_early_stop_at_invalid_offset_header(tarfile_fixed):
    buffer = helpers.VALID_GNU + helpers.INVALID_GNU + helpers.VALID_GNU
    assert helpers.members(buffer) == [("filename", 0)]


def test_cpython_ignore_invalid_archive(tarfile_fixed):
    # 3 invalid headers with their respective data
    buffer = (helpers.INVALID_GNU + helpers.DATA_BLOCK) * 3
    assert helpers.members(buffer, ignore_zeros=True) == []


@pytest.mark.parametrize("blocks, offset", [
    ((helpers.VALID_GNU, helpers.INVALID_GNU + helpers.DATA_BLOCK), 0),
    ((helpers.INVALID_GNU + helpers.DATA_BLOCK, helpers.VALID_GNU), 1024),
])
def test_cpython_ignore_invalid_offset_headers(tarfile_fixed, blocks, offset):
    assert helpers.members(b"".join(blocks), ignore_zeros=True) == [("filename", offset)]


def test_a_negative_octal_size_ends_the_archive(tarfile_fixed):
    # The stock reader goes from "evil" back to "b" for ever (2.7, 3.6-3.13.0).
    assert helpers.members(helpers.looping_archive()) == [("a", 0), ("b", 512)]


def test_a_negative_size_at_the_first_member_is_a_read_error(tarfile_fixed):
    buffer = helpers.header("evil", b"-0000002000" + helpers.NUL)
    with pytest.raises(tarfile_fixed.ReadError, match="file could not be opened successfully"):
        helpers.members(buffer)


def test_block_raises_upstreams_error_and_message(tarfile_fixed):
    info = tarfile_fixed.TarInfo("x")
    for count in (-1, -512, -(2 ** 80)):
        assert helpers.outcome(info._block, count) == (
            "error", tarfile_fixed.InvalidHeaderError, "invalid offset")
    assert [info._block(count) for count in (0, 1, 511, 512, 513, 834)] == [
        0, 512, 512, 512, 1024, 1024]


def test_the_probe_says_what_the_stock_reader_does(tarfile_unpatched):
    # Bounded: 20 members of a 3-member archive is the stock reader's loop.
    read = helpers.members(helpers.looping_archive(), limit=20)
    assert tarfile_unpatched.is_vulnerable() is (len(read) == 20)
    if len(read) == 20:
        assert [name for name, _ in read[:5]] == ["a", "b", "evil", "b", "evil"]
    tarfile_unpatched.patch()
    assert len(helpers.members(helpers.looping_archive(), limit=20)) == 2
    assert tarfile_unpatched.is_vulnerable() is (len(read) == 20)


def test_stream_mode_ends_too(tarfile_fixed):
    # "r|" reads forward only: the stock reader's seek back is a StreamError there;
    # fixed, the archive ends at the negative size as in "r".
    import io
    with tarfile_fixed.open(mode="r|", fileobj=io.BytesIO(helpers.looping_archive())) as tar:
        assert [m.name for m in itertools.islice(tar, 10)] == ["a", "b"]
