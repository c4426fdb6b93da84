"""Honest archives read the same with the fix as without it: every member's name,
type, size, offsets and link, and every file's bytes, in each format and
compression the interpreter writes (``_block`` gets only counts of 0 or more
there, and the fix hands those to the original)."""

import io
import tarfile

import pytest

import tar_helpers as helpers

FORMATS = {"ustar": tarfile.USTAR_FORMAT, "gnu": tarfile.GNU_FORMAT, "pax": tarfile.PAX_FORMAT}
MODES = ["w", "w:gz", "w:bz2"]
LONG = "d/" + "n" * 120


def _archive(form, mode):
    """An archive of files of 0-5000 bytes, a directory, links and (GNU, pax) long names."""
    out = io.BytesIO()
    tar = tarfile.open(mode=mode, fileobj=out, format=FORMATS[form])
    for size in (0, 1, 511, 512, 513, 5000):
        info = tarfile.TarInfo("f%d" % size)
        info.size = size
        tar.addfile(info, io.BytesIO(bytes(bytearray(i % 251 for i in range(size)))))
    for name, kind, link in (("d", tarfile.DIRTYPE, ""), ("s", tarfile.SYMTYPE, "f1"),
                             ("h", tarfile.LNKTYPE, "f1")):
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, link
        tar.addfile(info)
    if form != "ustar":
        info = tarfile.TarInfo(LONG)
        info.size = 700
        tar.addfile(info, io.BytesIO(b"x" * 700))
        info = tarfile.TarInfo("longlink")
        info.type, info.linkname = tarfile.SYMTYPE, LONG
        tar.addfile(info)
    if form == "pax":
        info = tarfile.TarInfo("paxed")
        info.pax_headers = {"comment": "c" * 600}
        tar.addfile(info)
    tar.close()
    return out.getvalue()


def _read(buffer, mode):
    """Each member as ``tarfile`` reads it, with its file's bytes."""
    found = []
    with tarfile.open(mode=mode, fileobj=io.BytesIO(buffer)) as tar:
        for member in tar:
            data = tar.extractfile(member).read() if member.isreg() else None
            found.append((member.name, member.type, member.size, member.offset,
                          member.offset_data, member.linkname, data))
    return found


@pytest.mark.parametrize("form", sorted(FORMATS))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("read_mode", ["r", "r|*"])
def test_honest_archives_read_the_same(tarfile_unpatched, form, mode, read_mode):
    buffer = _archive(form, mode)
    stock = _read(buffer, read_mode)
    assert len(stock) >= 9
    tarfile_unpatched.patch(force=True)
    assert _read(buffer, read_mode) == stock


def test_upstreams_valid_header_reads_the_same(tarfile_unpatched):
    buffer = helpers.VALID_GNU + helpers.DATA_BLOCK
    stock = helpers.members(buffer)
    tarfile_unpatched.patch(force=True)
    assert helpers.members(buffer) == stock == [("filename", 0)]
