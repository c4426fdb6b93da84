"""Archives for the tarfile_backport tests: gh-130577's crafted headers, a looping
archive, honest archives, and what a reader makes of each.

gh-130577's headers are upstream's (``OffsetValidationTests``): a size field
of eleven ``0xff`` bytes, GNU's base-256 for a negative number. 2.7's
``nti`` has no negative base-256 and refuses that field as an invalid
header; an octal size with a minus sign (``-0000002000``, -1024) is negative
on every interpreter: :func:`looping_archive` uses it.
"""

import io
import itertools
import tarfile

NUL, SPACE = tarfile.NUL, b" "

#: Upstream's ``OffsetValidationTests.invalid_posix_header``.
INVALID_POSIX = (NUL * tarfile.LENGTH_NAME + b"000755" + SPACE + NUL + b"000001" + SPACE + NUL
                 + b"000001" + SPACE + NUL + b"\xff" * 11 + SPACE + NUL * 11 + SPACE
                 + b"0011407" + NUL + tarfile.REGTYPE + NUL * tarfile.LENGTH_LINK
                 + tarfile.POSIX_MAGIC + NUL * 32 + NUL * 32 + NUL * 6 + SPACE + NUL
                 + NUL * 6 + SPACE + NUL + NUL * tarfile.LENGTH_PREFIX + NUL * 12)
#: Upstream's ``invalid_gnu_header``.
INVALID_GNU = (NUL * tarfile.LENGTH_NAME + b"0000755" + NUL + b"0000001" + NUL + b"0000001"
               + NUL + b"\xff" * 11 + SPACE + NUL * 11 + SPACE + b"0011327" + NUL
               + tarfile.REGTYPE + NUL * tarfile.LENGTH_LINK + tarfile.GNU_MAGIC + NUL * 32
               + NUL * 32 + NUL * 8 + NUL * 8 + NUL * 167)
#: Upstream's ``invalid_v7_header``.
INVALID_V7 = (NUL * tarfile.LENGTH_NAME + b"000755" + SPACE + NUL + b"000001" + SPACE + NUL
              + b"000001" + SPACE + NUL + b"\xff" * 11 + SPACE + NUL * 11 + SPACE
              + b"0010070" + NUL + tarfile.REGTYPE + NUL * tarfile.LENGTH_LINK + NUL * 255)
#: Upstream's ``valid_gnu_header`` and ``data_block``.
VALID_GNU = tarfile.TarInfo("filename").tobuf(tarfile.GNU_FORMAT)
DATA_BLOCK = b"\xff" * tarfile.BLOCKSIZE


def header(name, size_field):
    """A GNU header for *name* with the 12 bytes *size_field*, its checksum recomputed."""
    raw = bytearray(tarfile.TarInfo(name).tobuf(tarfile.GNU_FORMAT))
    raw[124:136] = size_field
    raw[148:156] = b" " * 8
    raw[148:156] = ("%06o\0 " % sum(raw)).encode("ascii")
    return bytes(raw)


def looping_archive():
    """Members ``a`` and ``b``, then ``evil`` of size -1024: the stock reader goes
    back to ``b`` from it, for ever."""
    empty = b"0" * 11 + NUL
    return header("a", empty) + header("b", empty) + header("evil", b"-0000002000" + NUL)


def recursion_tar():
    """CPython's ``Lib/test/recursion.tar`` (bpo-39017): a global pax header whose one
    record, ``0 X=``, has length 0."""
    raw = bytearray(tarfile.BLOCKSIZE)
    for at, text in ((0, b"bcaller"), (100, b"0"), (108, b"0"), (116, b"0"), (124, b"1"),
                     (136, b"0"), (148, b"002755\0 "), (156, b"g"), (263, b"00"), (329, b"0"),
                     (337, b"0")):
        raw[at:at + len(text)] = text
    return bytes(raw) + b"0 X="


def pax_archive(record, global_header=False):
    """An extended (or global) pax header holding *record* (bytes), then a member ``m``."""
    info = tarfile.TarInfo("p")
    info.type = tarfile.XGLTYPE if global_header else tarfile.XHDTYPE
    info.size = len(record)
    head = bytearray(info.tobuf(tarfile.USTAR_FORMAT))
    padding = NUL * (-len(record) % tarfile.BLOCKSIZE)
    return bytes(head) + record + padding + tarfile.TarInfo("m").tobuf(tarfile.USTAR_FORMAT)


def members(buffer, ignore_zeros=None, limit=None):
    """``[(name, offset)]`` of the members ``tarfile.open`` reads from *buffer*; at most
    *limit* (read by iteration, so that a looping archive stops there)."""
    with tarfile.open(mode="r", fileobj=io.BytesIO(buffer), ignore_zeros=ignore_zeros) as tar:
        found = tar if limit is not None else tar.getmembers()
        return [(m.name, m.offset) for m in itertools.islice(found, limit)]


def outcome(function, *args, **kwargs):
    """``("ok", value)`` or ``("error", exception type, message)``: typed, not text."""
    try:
        return ("ok", function(*args, **kwargs))
    except Exception as exc:  # noqa: B902 - the outcome is what is compared
        return ("error", type(exc), str(exc))
