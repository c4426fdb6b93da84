"""CVE-2025-8291 (gh-139700): the zip64 end of central directory locator's offset is
read and checked.

The archives are built here, record by record (APPNOTE 4.3.14-4.3.16), around
a classic archive ``zipfile`` writes: the differential the advisory describes
(a second zip64 record and directory hidden in the first record's extensible
data, which the stock reader takes because they sit just before the
locator), each inconsistency gh-139700 refuses with its message, a record with
extensible data (gh-126834), and honest zip64 archives, as ``zipfile`` writes
them, with and without prepended data and a comment, which read exactly as
the stock reader reads them.
"""

import io
import struct
import zipfile

import pytest

BadZipFile = getattr(zipfile, "BadZipFile", None) or zipfile.BadZipfile
CVE = "CVE-2025-8291"
MEMBERS = [("x.txt", b"the real x"), ("y.txt", b"the real y")]
#: The classic end record of a zip64 archive: every field saturated.
END = b"PK\x05\x06" + struct.pack("<HHHHLLH", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)


@pytest.fixture
def zip64_fixed(zipfile_unpatched):
    """``zipfile`` with gh-139700's reader bound (``patch(force=True)``), undone after."""
    zipfile_unpatched.patch(force=True)
    assert zipfile_unpatched.status()["fixes"][CVE]["state"] == "patched"
    yield zipfile
    zipfile_unpatched.unpatch()


def lacks(package):
    return package.status()["fixes"][CVE]["lacks"]


def classic(members=MEMBERS):
    """``(local headers, central directory)`` of an archive ``zipfile`` writes."""
    out = io.BytesIO()
    archive = zipfile.ZipFile(out, "w")
    for name, data in members:
        archive.writestr(name, data)
    archive.close()
    data = out.getvalue()
    size, offset = struct.unpack("<LL", data[-10:-2])
    return data[:offset], data[offset:offset + size]


def record(count, size, offset, extensible=b"", record_size=None):
    """A zip64 end of central directory record (56 bytes and *extensible*)."""
    declared = 44 + len(extensible) if record_size is None else record_size
    fields = struct.pack("<QHHLLQQQQ", declared, 45, 45, 0, 0, count, count, size, offset)
    return b"PK\x06\x06" + fields + extensible


def locator(offset):
    return b"PK\x06\x07" + struct.pack("<LQL", 0, offset, 1)


def zip64(members=MEMBERS, extensible=b"", at=None, **fields):
    """A zip64 archive of *members*: its record (and *extensible* data), a locator
    giving *at* (else the record's offset), the classic end record."""
    files, directory = classic(members)
    head = files + directory
    values = dict(count=len(members), size=len(directory), offset=len(files))
    values.update(fields)
    return (head + record(values.pop("count"), values.pop("size"), values.pop("offset"),
                          extensible, **values)
            + locator(len(head) if at is None else at) + END)


def entries(directory):
    """The central directory's entries, each as bytes."""
    found, pos = [], 0
    while pos < len(directory):
        names, extra, comment = struct.unpack("<HHH", directory[pos + 28:pos + 34])
        found.append(directory[pos:pos + 46 + names + extra + comment])
        pos += len(found[-1])
    return found


def differential():
    """The advisory's archive: the locator gives a record whose directory lists
    both members; hidden in that record's extensible data, a directory listing
    ``y.txt`` alone and a record for it, just before the locator."""
    files, directory = classic()
    hidden = entries(directory)[1]
    head = files + directory
    second = record(1, len(hidden), len(head) + 56)
    first = record(2, len(directory), len(files), hidden + second)
    return head + first + locator(len(head)) + END


def listing(data):
    """What ``zipfile`` reads: ``[(name, bytes)]``, or the error's type and message."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return [(info.filename, archive.read(info)) for info in archive.infolist()]
    except Exception as exc:  # noqa: B902 - the outcome compared
        return type(exc), str(exc)


def test_the_record_the_locator_gives_is_read(zipfile_unpatched):
    data = differential()
    if lacks(zipfile_unpatched):
        assert listing(data) == MEMBERS[1:]  # the stock reader: the hidden directory
    zipfile_unpatched.patch()
    assert listing(data) == MEMBERS
    assert zipfile.is_zipfile(io.BytesIO(data))


def _crafted():
    files, directory = classic()
    head = len(files) + len(directory)
    return {
        "Corrupt zip64 end of central directory locator": [
            zip64(at=head + 1), zip64(at=2 ** 63)],
        "Zip64 end of central directory record not found": [
            # Where the locator says, then (prepended data) just before the locator.
            zip64().replace(b"PK\x06\x06", b"PK\x06\x00"),
            zip64(at=5).replace(b"PK\x06\x06", b"PK\x06\x00")],
        "Corrupt zip64 end of central directory record": [
            zip64(size=len(directory) + 1), zip64(offset=len(files) - 1),
            zip64(record_size=45), zip64(extensible=b"abcd", record_size=44)],
    }


@pytest.mark.parametrize("message,index", [(message, index) for message, found in
                                           sorted(_crafted().items())
                                           for index in range(len(found))])
def test_inconsistent_end_records_are_refused_with_upstreams_message(zip64_fixed, message,
                                                                     index):
    data = _crafted()[message][index]
    assert listing(data) == (BadZipFile, message)
    assert zipfile.is_zipfile(io.BytesIO(data)) is False


def test_a_record_with_extensible_data_is_read(zipfile_unpatched):
    # gh-126834: the stock reader takes the extensible data's last 56 bytes for the record.
    data = zip64(extensible=b"\x01\x00\x04\x00data" * 20)
    if lacks(zipfile_unpatched):
        assert listing(data) != MEMBERS
    zipfile_unpatched.patch()
    assert listing(data) == MEMBERS


def written(prefix=b"", comment=b"", count=3):
    """A zip64 archive as ``zipfile`` writes it (its file count limit lowered to 2),
    after *prefix*, with *comment*."""
    out = io.BytesIO()
    out.write(prefix)
    limit, zipfile.ZIP_FILECOUNT_LIMIT = zipfile.ZIP_FILECOUNT_LIMIT, 2
    try:
        archive = zipfile.ZipFile(out, "a" if prefix else "w", allowZip64=True)
        for index in range(count):
            archive.writestr("dir/m%d" % index, b"member %d" % index * index)
        archive.comment = comment
        archive.close()
    finally:
        zipfile.ZIP_FILECOUNT_LIMIT = limit
    assert b"PK\x06\x07" in out.getvalue()
    return out.getvalue()


HONEST = {
    "written": lambda: written(),
    "written, with a comment": lambda: written(comment=b"a comment"),
    "after a stub": lambda: written(prefix=b"#!/bin/sh\nexit 0\n" * 9),
    "after a stub, with a comment": lambda: written(prefix=b"MZ" + b"\0" * 510,
                                                    comment=b"c" * 300),
    "built here": lambda: zip64(),
    "after a stub, built here": lambda: b"\0" * 64 + zip64(),
    "classic": lambda: b"".join(classic()) + b"PK\x05\x06" + struct.pack(
        "<HHHHLLH", 0, 0, 2, 2, len(classic()[1]), len(classic()[0]), 0),
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_archives_read_as_the_stock_reader_reads_them(zipfile_unpatched, name):
    data = HONEST[name]()
    stock = listing(data), zipfile.is_zipfile(io.BytesIO(data))
    assert stock[1] is True and len(stock[0]) >= 2, stock
    zipfile_unpatched.patch(force=True)
    assert (listing(data), zipfile.is_zipfile(io.BytesIO(data))) == stock


def test_a_zip64_archive_is_appended_to_as_before(zipfile_unpatched):
    def append(data):
        out = io.BytesIO(data)
        with zipfile.ZipFile(out, "a") as archive:
            archive.writestr("added", b"new")
        return listing(out.getvalue())
    stock = append(written())
    assert ("added", b"new") in stock
    zipfile_unpatched.patch(force=True)
    assert append(written()) == stock


def test_the_probe_tells_the_fixed_reader_from_the_stock_one(zipfile_unpatched):
    # The status reads the probe on the stock reader; the patched reader refuses it.
    crafted = zip64(at=len(b"".join(classic())) + 1)
    stock = listing(crafted)
    assert (stock == MEMBERS) is lacks(zipfile_unpatched)
    zipfile_unpatched.patch()
    assert listing(crafted) == (BadZipFile, "Corrupt zip64 end of central directory locator")
    zipfile_unpatched.unpatch()
    assert listing(crafted) == stock


def test_the_skip_keeps_it_off(zipfile_unpatched):
    # What CPYTHON_SECURITY_SKIP=CVE-2025-8291 does (the start-up switch passes the
    # skip list on): the stock reader stays.
    report = zipfile_unpatched.patch(_leave_out=(CVE,))
    fix = zipfile_unpatched.status()["fixes"][CVE]
    assert fix["state"] != "patched" and fix["exposed"] is fix["lacks"]
    assert (CVE, "left out by CPYTHON_SECURITY_SKIP") in report.skipped
    if fix["lacks"]:
        assert listing(differential()) == MEMBERS[1:]
