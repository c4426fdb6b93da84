"""The fix of CVE-2025-8291 (gh-139700): the zip64 end of central directory
locator's offset is read and checked.

A zip64 archive ends with three records: the zip64 end of central directory
record, a locator (20 bytes) giving that record's offset, and the classic
end record. Before the fix ``_EndRecData64`` never read the locator's offset:
it took the 56 bytes before the locator as the zip64 record, whatever the
offset said, and took the record's directory size and offset as they were.
Another reader follows the offset. An archive built so that the two find
different records lists one set of members to ``zipfile`` and another to
those readers (a scanner, an installer's verifier): the parser differential
the advisory describes. Every interpreter of the matrix lacks the fix,
3.13.0 and Debian's 3.11.2 (deb12u6) included.

gh-139700 (listed in the NEWS of 3.9.24 and 3.10.19) reads the
record at the locator's offset first; where none is there and the offset is
not the one the record would have without prepended data, the record before
the locator (prepended data such as a self-extractor's stub). Then:

* an offset past where the record can start raises
  ``BadZipFile("Corrupt zip64 end of central directory locator")``;
* no record at either place raises
  ``BadZipFile("Zip64 end of central directory record not found")``;
* a record whose directory does not end at the locator's offset, or whose
  size does not match the bytes between them (its "zip64 extensible data"),
  raises ``BadZipFile("Corrupt zip64 end of central directory record")``;
* a short read of either record raises ``OSError("Unknown I/O error")``
  (2.7: ``IOError``, which ``ZipFile`` turns into "File is not a zip file").

A record with extensible data and no prepended data, which the stock reader
could not open (gh-126834), opens. ``is_zipfile()`` answers False for an
archive one of these refuses, as upstream's does.

:func:`replacements` binds upstream's ``_EndRecData64`` (written with the
stock module's constants) and an ``is_zipfile`` that calls the stock one.
Upstream's other half moved two lines between functions, and the replacement
takes them on itself, so that the stock callers stay: the stock
``_EndRecData`` passes an offset from the end of the file (upstream: from its
start), which the replacement turns into one from the start; the stock
``_RealGetContents`` takes the two zip64 records' sizes off the location it
is given (upstream: no longer), which the replacement adds to upstream's
location. Where the module has the fix, under ``force``, both replacements
call the stock functions.
"""

import io
import struct

from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "PROBE"]

#: An empty zip64 archive whose locator gives the offset 1 for a record at 0:
#: past where the record can start. The fixed reader refuses it; the stock one
#: never reads the offset.
PROBE = (b"PK\x06\x06" + struct.pack("<QHHLLQQQQ", 44, 45, 45, 0, 0, 0, 0, 0, 0)
         + b"PK\x06\x07" + struct.pack("<LQL", 0, 1, 1)
         + b"PK\x05\x06" + struct.pack("<HHHHLLH", 0, 0, 0, 0, 0, 0, 0))


def _bad_zip(module):
    """The module's ``BadZipFile`` (2.7: ``BadZipfile``)."""
    return getattr(module, "BadZipFile", None) or module.BadZipfile


def needs_fix(module):
    """Whether ``zipfile``'s (*module*) end record reader ignores the zip64 locator's
    offset: the fixed one raises ``BadZipFile`` on :data:`PROBE`; the stock one returns
    its records (any other outcome counts as unfixed too)."""
    try:
        module._EndRecData(io.BytesIO(PROBE))
    except _bad_zip(module):
        return False
    except Exception:  # noqa: B902 - no outcome but the fixed one counts as fixed
        return True
    return True


def replacements(module):
    """``{"_EndRecData64": new, "is_zipfile": new}``: gh-139700's reader and an
    ``is_zipfile`` that answers False where it refuses; where the module has the fix
    (under ``force``), functions that call the stock ones."""
    namespace = vars(module)
    read_64, is_zipfile = namespace["_EndRecData64"], namespace["is_zipfile"]
    if needs_fix(module):
        new_read_64 = _fixed_reader(module)
    else:
        def new_read_64(fpin, offset, endrec):
            return read_64(fpin, offset, endrec)
    bad_zip = _bad_zip(module)

    def new_is_zipfile(filename):
        try:
            return is_zipfile(filename)
        except bad_zip:  # gh-139700: the reader's new refusals answer False
            return False
    return {"_EndRecData64": named_as(new_read_64, read_64, module=True),
            "is_zipfile": named_as(new_is_zipfile, is_zipfile, module=True)}


def _fixed_reader(module):
    """gh-139700's ``_EndRecData64``, with *module*'s constants, for the stock callers."""
    # IOError: 3.x's OSError (an alias); 2.7's ZipFile turns it into "File is not a zip file".
    bad_zip, io_error = _bad_zip(module), IOError
    size_locator, size_64 = module.sizeEndCentDir64Locator, module.sizeEndCentDir64
    struct_locator, struct_64 = module.structEndArchive64Locator, module.structEndArchive64
    sig_locator, sig_64 = module.stringEndArchive64Locator, module.stringEndArchive64
    fields = (module._ECD_SIGNATURE, module._ECD_DISK_NUMBER, module._ECD_DISK_START,
              module._ECD_ENTRIES_THIS_DISK, module._ECD_ENTRIES_TOTAL, module._ECD_SIZE,
              module._ECD_OFFSET)
    location = module._ECD_LOCATION

    def _EndRecData64(fpin, offset, endrec):
        if offset < 0:  # the stock _EndRecData's offset counts from the end of the file
            fpin.seek(0, 2)
            offset += fpin.tell()
        offset -= size_locator
        if offset < 0:
            return endrec  # too small to hold a zip64 end record
        fpin.seek(offset)
        data = fpin.read(size_locator)
        if len(data) != size_locator:
            raise io_error("Unknown I/O error")
        sig, diskno, reloff, disks = struct.unpack(struct_locator, data)
        if sig != sig_locator:
            return endrec
        if diskno != 0 or disks > 1:
            raise bad_zip("zipfiles that span multiple disks are not supported")
        offset -= size_64
        if reloff > offset:
            raise bad_zip("Corrupt zip64 end of central directory locator")
        # First, the record where the locator says, as if no data were prepended.
        fpin.seek(reloff)
        extrasz = offset - reloff
        data = fpin.read(size_64)
        if len(data) != size_64:
            raise io_error("Unknown I/O error")
        if not data.startswith(sig_64) and reloff != offset:
            # Then, data prepended: the record just before the locator, with no
            # 'zip64 extensible data'.
            fpin.seek(offset)
            extrasz = 0
            data = fpin.read(size_64)
            if len(data) != size_64:
                raise io_error("Unknown I/O error")
        if not data.startswith(sig_64):
            raise bad_zip("Zip64 end of central directory record not found")
        (sig, sz, create_version, read_version, disk_num, disk_dir, dircount, dircount2,
         dirsize, diroffset) = struct.unpack(struct_64, data)
        if diroffset + dirsize != reloff or sz + 12 != size_64 + extrasz:
            raise bad_zip("Corrupt zip64 end of central directory record")
        for index, value in zip(fields, (sig, disk_num, disk_dir, dircount, dircount2,
                                         dirsize, diroffset)):
            endrec[index] = value
        # Upstream's location is the record's, offset - extrasz; the stock
        # _RealGetContents takes the two records' sizes off what it is given.
        endrec[location] = offset - extrasz + size_64 + size_locator
        return endrec
    return _EndRecData64
