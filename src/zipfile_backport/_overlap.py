"""The fix of CVE-2024-0450 (gh-109858): a member whose data runs into the next
member's header, or into the central directory, is refused.

A "quoted-overlap" zip bomb lists members whose compressed data overlap: the
first member's deflate stream quotes, as a stored block, the local header of
the next, whose data quote the next's, and so on, so that the same bytes are
decompressed once per member and a small archive expands to gigabytes.
gh-109858 (in 3.8.19, 3.9.19, 3.10.14, 3.11.8, 3.12.2 and 3.13.0) gives each
member read from the central directory the offset where its data must end:
the next member's local header, in the order of their offsets, or the central
directory for the last. ``ZipFile.open()`` then raises
``BadZipFile("Overlapped entries: 'a' (possible zip bomb)")`` where the data
would run past it. The check comes after the local header's own checks (its
magic, flag bits 5 and 6, its name) and before the password's, as upstream's
does. A fully overlapping member (two names for the same header) is left as
it was: upstream's check does not see it, the name check refuses the second.

``ZipInfo`` has ``__slots__``: the stock one cannot carry upstream's
``_end_offset``. The replacement keeps the offsets in the ``ZipFile`` itself,
keyed by the ``ZipInfo`` objects of its ``filelist``, computed at its first
``open()`` after :func:`patch` from ``filelist`` and ``start_dir`` (the same
order and ties as upstream's ``sorted(..., reverse=True)``), so an archive
opened before :func:`patch` is checked too. A ``ZipInfo`` the archive does not
list (one the caller built, one written after that first ``open()``) has no
end, as upstream's does not. The stock ``open()`` runs first: where it returns,
the data start where the file it opened stands (less a 12-byte encryption
header); where it raises an error upstream raises after its check (a missing
or wrong password), the member's local header is read once more (its position
restored, under the archive's lock where it has one) to find where they start,
and an overlap is reported instead, as upstream's order has it.
"""

import io
import struct
import sys

from _cpython_security._engine import named_as
from zipfile_backport._zip64 import _bad_zip  # BadZipFile, 2.7's BadZipfile

__all__ = ["needs_fix", "replacements", "PROBE"]

#: Where a ``ZipFile`` keeps ``{ZipInfo: offset where its data must end}``.
_ENDS = "_cpython_security_end_offsets"
#: A local file header: signature, versions and flags, sizes, the two lengths.
_HEADER = struct.Struct("<4s2B4HL2L2H")
#: 3.x checks flag bits 5 and 6 (patched data, strong encryption) before the
#: name; 2.7 does not, and its NotImplementedError comes after (compression).
_FLAG_CHECKS = 0x60 if sys.version_info[0] >= 3 else 0


def _stored(name, data, offset, compress_size):
    """A stored member's local header and central directory entry, as bytes."""
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0,
                        compress_size, compress_size, len(name), 0) + name + data
    central = struct.pack("<4s6H3L5HLL", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0,
                          compress_size, compress_size, len(name), 0, 0, 0, 0, 0,
                          offset) + name
    return local, central


def _probe():
    """Two stored members, the data of ``a`` running over ``b``'s header."""
    b_local, b_central = _stored(b"b", b"", 31, 0)
    a_local, a_central = _stored(b"a", b"", 0, len(b_local))
    body = a_local + b_local
    directory = a_central + b_central
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 2, 2, len(directory), len(body), 0)
    return body + directory + end


#: The fixed ``open('a')`` refuses it; the stock one opens it.
PROBE = _probe()


def needs_fix(module):
    """Whether ``zipfile``'s (*module*) ``open()`` reads a member whose data run into the
    next member's header (gh-109858): on :data:`PROBE` the fixed one raises
    ``BadZipFile``, the stock one opens it (any other outcome counts as unfixed too)."""
    try:
        archive = module.ZipFile(io.BytesIO(PROBE))
        try:
            archive.open("a").close()
        finally:
            archive.close()
    except _bad_zip(module):
        return False
    except Exception:  # noqa: B902 - no outcome but the fixed one counts as fixed
        return True
    return True


def replacements(module):
    """``{"ZipFile.open": new}``: gh-109858's check around the stock ``open()``; where
    the module has the fix (under ``force``), a function that calls the stock one."""
    original = module.ZipFile.__dict__["open"]
    if not needs_fix(module):
        def open(self, name, mode="r", *args, **kwargs):
            return original(self, name, mode, *args, **kwargs)
        return {"ZipFile.open": named_as(open, original, module=True)}
    bad_zip, zip_info = _bad_zip(module), module.ZipInfo

    def open(self, name, mode="r", *args, **kwargs):
        ends = self.__dict__.get(_ENDS)
        if ends is None and mode != "w":
            ends = _ends(self)
        info = name if isinstance(name, zip_info) else self.NameToInfo.get(name)
        end = ends.get(info) if ends else None
        if end is None or mode == "w":  # not listed when first read, or written
            return original(self, name, mode, *args, **kwargs)
        try:
            opened = original(self, name, mode, *args, **kwargs)
        except bad_zip:
            raise  # the local header's own checks: before upstream's
        except Exception as error:  # noqa: B902 - the password's come after it
            start = _header_start(self, info)
            if start is None or start + info.compress_size <= end:
                raise
            if isinstance(error, NotImplementedError) and info.flag_bits & _FLAG_CHECKS:
                raise  # flag bits 5 and 6: before upstream's check
        else:
            start = _opened_start(opened, info)
            if start is None:
                start = _header_start(self, info)
            if start is None or start + info.compress_size <= end:
                return opened
            opened.close()
        raise bad_zip("Overlapped entries: %r (possible zip bomb)" % (info.orig_filename,))
    return {"ZipFile.open": named_as(open, original, module=True)}


def _ends(archive):
    """*archive*'s ``{ZipInfo: end offset}``, as gh-109858 computes them, kept in the
    archive; None where no central directory was read (2.7's writer has no
    ``start_dir``)."""
    end = getattr(archive, "start_dir", None)
    if end is None:
        return None
    ends = {}
    for info in sorted(archive.filelist, key=lambda info: info.header_offset, reverse=True):
        ends[info] = end
        end = info.header_offset
    archive.__dict__[_ENDS] = ends
    return ends


def _opened_start(opened, info):
    """Where the data of *info* start, from the file the stock ``open()`` returned: its
    position, less the 12 bytes of an encryption header it read (None if unknown).
    3.x's shared file keeps it in ``_pos`` (3.6's has no ``tell()``)."""
    fileobj = getattr(opened, "_fileobj", None)
    try:
        position = fileobj._pos if hasattr(fileobj, "_pos") else fileobj.tell()
    except Exception:  # noqa: B902 - no position: the local header says
        return None
    return position - (12 if info.flag_bits & 0x1 else 0)


def _header_start(archive, info):
    """Where the data of *info* start, from its local header, or None if it is short
    or not one (the stock ``open()`` raises its own error there)."""
    header = _read_header(archive, info.header_offset)
    if header is None:
        return None
    return info.header_offset + _HEADER.size + header[-2] + header[-1]


class _NoLock(object):
    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False


def _read_header(archive, offset):
    """The fields of the local header at *offset*, read where the stock ``open()``
    reads it, the file's position restored; None if it is short or not one."""
    fp = archive.fp
    with getattr(archive, "_lock", None) or _NoLock():
        try:
            position = fp.tell()
        except Exception:  # noqa: B902 - a stream without a position: the stock decides
            return None
        try:
            fp.seek(offset)
            data = fp.read(_HEADER.size)
        except Exception:  # noqa: B902 - the stock open() raises its own error
            return None
        finally:
            fp.seek(position)
    if len(data) != _HEADER.size:
        return None
    fields = _HEADER.unpack(data)
    return fields if fields[0] == b"PK\x03\x04" else None
