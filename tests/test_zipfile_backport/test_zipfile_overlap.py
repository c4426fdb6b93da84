"""CVE-2024-0450 (gh-109858): a member whose data run into the next member's local
header, or into the central directory, is refused ("quoted-overlap" zip bomb).

Upstream's two tests (``test_full_overlap``, ``test_quoted_overlap`` of
``test_zipfile``), their archives byte for byte; the order of upstream's checks
(header, flags and name first, the password after); an archive opened before
``patch()``; honest archives (stored, deflated, streamed with data
descriptors, zip64, after a stub, appended to, with a member of its own
``ZipInfo``), which read exactly as the stock reader reads them; the probe and
the skip.
"""

import io
import struct
import sys
import zipfile
import zlib

import pytest

BadZipFile = getattr(zipfile, "BadZipFile", None) or zipfile.BadZipfile
CVE = "CVE-2024-0450"
PY2 = sys.version_info[0] == 2

#: Upstream's test_full_overlap: two names for one local header.
FULL_OVERLAP = (
    b'PK\x03\x04\x14\x00\x00\x00\x08\x00\xa0lH\x05\xe2\x1e'
    b'8\xbb\x10\x00\x00\x00\t\x04\x00\x00\x01\x00\x00\x00a\xed'
    b'\xc0\x81\x08\x00\x00\x00\xc00\xd6\xfbK\\d\x0b`P'
    b'K\x01\x02\x14\x00\x14\x00\x00\x00\x08\x00\xa0lH\x05\xe2'
    b'\x1e8\xbb\x10\x00\x00\x00\t\x04\x00\x00\x01\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00aPK'
    b'\x01\x02\x14\x00\x14\x00\x00\x00\x08\x00\xa0lH\x05\xe2\x1e'
    b'8\xbb\x10\x00\x00\x00\t\x04\x00\x00\x01\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00bPK\x05'
    b'\x06\x00\x00\x00\x00\x02\x00\x02\x00^\x00\x00\x00/\x00\x00'
    b'\x00\x00\x00'
)
#: Upstream's test_quoted_overlap: a's deflate stream quotes b's local header.
QUOTED_OVERLAP = (
    b'PK\x03\x04\x14\x00\x00\x00\x08\x00\xa0lH\x05Y\xfc'
    b'8\x044\x00\x00\x00(\x04\x00\x00\x01\x00\x00\x00a\x00'
    b'\x1f\x00\xe0\xffPK\x03\x04\x14\x00\x00\x00\x08\x00\xa0l'
    b'H\x05\xe2\x1e8\xbb\x10\x00\x00\x00\t\x04\x00\x00\x01\x00'
    b'\x00\x00b\xed\xc0\x81\x08\x00\x00\x00\xc00\xd6\xfbK\\'
    b'd\x0b`PK\x01\x02\x14\x00\x14\x00\x00\x00\x08\x00\xa0'
    b'lH\x05Y\xfc8\x044\x00\x00\x00(\x04\x00\x00\x01'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00aPK\x01\x02\x14\x00\x14\x00\x00\x00\x08\x00\xa0l'
    b'H\x05\xe2\x1e8\xbb\x10\x00\x00\x00\t\x04\x00\x00\x01\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00$\x00\x00\x00'
    b'bPK\x05\x06\x00\x00\x00\x00\x02\x00\x02\x00^\x00\x00'
    b'\x00S\x00\x00\x00\x00\x00'
)
OVERLAPPED = "Overlapped entries: 'a' (possible zip bomb)"


def lacks(package):
    return package.status()["fixes"][CVE]["lacks"]


def outcome(call, *args):
    """``call(*args)``'s result, or its error's type and message."""
    try:
        return call(*args)
    except Exception as exc:  # noqa: B902 - the outcome compared
        return type(exc), str(exc)


def test_cpython_quoted_overlap(zipfile_unpatched):
    if lacks(zipfile_unpatched):
        with zipfile.ZipFile(io.BytesIO(QUOTED_OVERLAP)) as zipf:
            assert len(zipf.read("a")) == 1064  # the stock reader: b's header, inflated
    zipfile_unpatched.patch()
    with zipfile.ZipFile(io.BytesIO(QUOTED_OVERLAP), "r") as zipf:
        assert zipf.namelist() == ["a", "b"]
        zi = zipf.getinfo("a")
        assert (zi.header_offset, zi.compress_size, zi.file_size) == (0, 52, 1064)
        zi = zipf.getinfo("b")
        assert (zi.header_offset, zi.compress_size, zi.file_size) == (36, 16, 1033)
        assert outcome(zipf.read, "a") == (BadZipFile, OVERLAPPED)
        assert len(zipf.read("b")) == 1033
        assert zipf.testzip() == "a"


def test_cpython_full_overlap(zipfile_unpatched):
    zipfile_unpatched.patch(force=True)
    with zipfile.ZipFile(io.BytesIO(FULL_OVERLAP), "r") as zipf:
        assert zipf.namelist() == ["a", "b"]
        for name in "ab":
            zi = zipf.getinfo(name)
            assert (zi.header_offset, zi.compress_size, zi.file_size) == (0, 16, 1033)
        assert len(zipf.read("a")) == 1033
        # The name check comes first: b's header is a's.
        with pytest.raises(BadZipFile, match="File name in directory"):
            zipf.read("b")


def stored(name, data, offset, flags=0, size=None):
    """A stored member's ``(local header and data, central directory entry)``; *size*:
    the compressed size both records give (else the data's)."""
    size = len(data) if size is None else size
    crc = zlib.crc32(data) & 0xFFFFFFFF
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, 0, 0, 0, crc, size, size,
                        len(name), 0) + name + data
    central = struct.pack("<4s6H3L5HLL", b"PK\x01\x02", 20, 20, flags, 0, 0, 0, crc, size,
                          size, len(name), 0, 0, 0, 0, 0, offset) + name
    return local, central


def overlapping(flags=0, last=False):
    """``a`` then ``b``: a's data (stored) run over b's local header, or, with *last*,
    a alone, its data running over the central directory."""
    if last:
        a_local, a_central = stored(b"a", b"xyz", 0, flags, size=20)
        body, directory = a_local, a_central
    else:
        b_local, b_central = stored(b"b", b"bb", 34)
        a_local, a_central = stored(b"a", b"xyz", 0, flags, size=3 + len(b_local))
        body, directory = a_local + b_local, a_central + b_central
    count = directory.count(b"PK\x01\x02")
    return body + directory + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count,
                                          len(directory), len(body), 0)


@pytest.mark.parametrize("last", [False, True],
                         ids=["into the next member", "into the central directory"])
def test_a_stored_member_running_over_is_refused(zipfile_unpatched, last):
    data = overlapping(last=last)
    with zipfile.ZipFile(io.BytesIO(data)) as zipf:
        stock = outcome(lambda: zipf.open("a").close())
    assert (stock is None) is lacks(zipfile_unpatched)
    zipfile_unpatched.patch()
    with zipfile.ZipFile(io.BytesIO(data)) as zipf:
        assert outcome(zipf.open, "a") == (BadZipFile, OVERLAPPED)
        if not last:
            assert zipf.read("b") == b"bb"


def test_the_password_is_asked_after_the_overlap(zipfile_unpatched):
    # Upstream checks the overlap before the password: an encrypted member that
    # overlaps raises BadZipFile, with or without a password.
    zipfile_unpatched.patch(force=True)
    with zipfile.ZipFile(io.BytesIO(overlapping(flags=0x1))) as zipf:
        assert outcome(zipf.open, "a") == (BadZipFile, OVERLAPPED)
        assert outcome(zipf.open, "a", "r", b"password") == (BadZipFile, OVERLAPPED)


@pytest.mark.skipif(PY2, reason="2.7's open() does not check flag bits 5 and 6")
@pytest.mark.parametrize("flag, message", [(0x20, "compressed patched data (flag bit 5)"),
                                           (0x40, "strong encryption (flag bit 6)")])
def test_the_flags_are_checked_before_the_overlap(zipfile_unpatched, flag, message):
    zipfile_unpatched.patch(force=True)
    with zipfile.ZipFile(io.BytesIO(overlapping(flags=flag))) as zipf:
        assert outcome(zipf.open, "a") == (NotImplementedError, message)


def test_an_archive_opened_before_patch_is_checked_after_it(zipfile_unpatched):
    with zipfile.ZipFile(io.BytesIO(QUOTED_OVERLAP)) as zipf:
        zipfile_unpatched.patch(force=True)
        assert outcome(zipf.read, "a") == (BadZipFile, OVERLAPPED)
        zipfile_unpatched.unpatch()
        if lacks(zipfile_unpatched):
            assert len(zipf.read("a")) == 1064


def written(mode="w", prefix=b"", base=None, streamed=False, folder="dir"):
    """An honest archive ``zipfile`` writes: stored and deflated members in *folder*,
    a directory, an empty member, the same data twice; after *prefix*, or appended to
    *base*; *streamed*: through ``open(name, 'w')`` into a stream with no
    position, so that each member has a data descriptor (3.6+)."""
    out = io.BytesIO(base if base is not None else prefix)
    out.seek(0, 2)
    target = out
    if streamed:
        class Unseekable(object):
            def write(self, data):
                return out.write(data)

            def flush(self):
                pass
        target = Unseekable()
    with zipfile.ZipFile(target, mode, compression=zipfile.ZIP_DEFLATED) as archive:
        for index in range(40):
            name = "%s/%d/m%d.txt" % (folder, index % 5, index)
            data = (b"member %d " % index) * (index * 7)
            if streamed:
                with archive.open(name, "w") as member:
                    member.write(data)
            else:
                archive.writestr(name, data, zipfile.ZIP_STORED if index % 3 else
                                 zipfile.ZIP_DEFLATED)
        if not streamed:
            archive.writestr(folder + "/empty", b"")
            archive.writestr(folder + "/again", b"member 3 " * 21)
            archive.writestr(zipfile.ZipInfo(folder + "/"), b"")
    return out.getvalue()


def contents(data):
    """``[(name, bytes)]`` of every member, read through ``open()`` and ``read()``,
    or the error."""
    def read_all():
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            found = [(info.filename, archive.read(info)) for info in archive.infolist()]
            with archive.open(archive.infolist()[0]) as first:
                found.append(("open", first.read()))
            found.append(("testzip", archive.testzip()))
            return found
    return outcome(read_all)


HONEST = {
    "written": lambda: written(),
    "after a stub": lambda: written(prefix=b"#!/bin/sh\nexit 0\n" * 9),
    "appended to": lambda: written("a", base=written(), folder="more"),
    "streamed": lambda: written(streamed=True),
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_archives_read_as_the_stock_reader_reads_them(zipfile_unpatched, name):
    if name == "streamed" and PY2:
        pytest.skip("2.7's ZipFile.open() does not write")
    data = HONEST[name]()
    stock = contents(data)
    assert isinstance(stock, list) and len(stock) >= 40, stock
    zipfile_unpatched.patch(force=True)
    assert contents(data) == stock


def test_a_zip64_member_reads_as_before(zipfile_unpatched):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", allowZip64=True) as archive:
        info = zipfile.ZipInfo("big")
        archive.writestr(info, b"z" * 100)
        archive.writestr("small", b"s")
    limit, zipfile.ZIP64_LIMIT = zipfile.ZIP64_LIMIT, 50
    try:
        with zipfile.ZipFile(out, "a", allowZip64=True) as archive:
            archive.writestr("forced64", b"f" * 80)
    finally:
        zipfile.ZIP64_LIMIT = limit
    stock = contents(out.getvalue())
    zipfile_unpatched.patch(force=True)
    assert contents(out.getvalue()) == stock and ("forced64", b"f" * 80) in stock


def session():
    """What reading members between writes gives: written and read back by the same
    ``ZipFile`` (3.x), then appended to and read again (2.7's writer appends where its
    last read left the file: it overwrites ``two``, stock and patched alike)."""
    found = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("one", b"1" * 30)
        if not PY2:
            found.append(outcome(archive.read, "one"))
        archive.writestr("two", b"2" * 30)
        if not PY2:
            found.append(outcome(archive.read, "two"))
    with zipfile.ZipFile(out, "a") as archive:
        found.append(outcome(archive.read, "one"))
        archive.writestr("three", b"3")
        found.extend(outcome(archive.read, name) for name in ("one", "two", "three"))
    return found


def test_members_written_then_read_in_one_session(zipfile_unpatched):
    # The members written after the first read have no end, as upstream's have none.
    stock = session()
    assert stock[-1] == b"3" and stock.count(b"1" * 30) >= 2
    zipfile_unpatched.patch(force=True)
    assert session() == stock


def test_the_probe_tells_the_fixed_reader_from_the_stock_one(zipfile_unpatched):
    from zipfile_backport import _overlap
    with zipfile.ZipFile(io.BytesIO(_overlap.PROBE)) as zipf:
        stock = outcome(lambda: zipf.open("a").close())
        assert (stock is None) is lacks(zipfile_unpatched)
        zipfile_unpatched.patch()
        assert outcome(zipf.open, "a") == (BadZipFile, OVERLAPPED)
        assert zipf.read("b") == b""


def test_the_skip_keeps_it_off(zipfile_unpatched):
    # What CPYTHON_SECURITY_SKIP=CVE-2024-0450 does: the stock open() stays.
    report = zipfile_unpatched.patch(_leave_out=(CVE,))
    fix = zipfile_unpatched.status()["fixes"][CVE]
    assert fix["state"] != "patched" and fix["exposed"] is fix["lacks"]
    assert (CVE, "left out by CPYTHON_SECURITY_SKIP") in report.skipped
    if fix["lacks"]:
        with zipfile.ZipFile(io.BytesIO(QUOTED_OVERLAP)) as zipf:
            assert len(zipf.read("a")) == 1064
