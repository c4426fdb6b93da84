"""CVE-2025-13836 (gh-119451): a body of claimed length read in bounded pieces.

What the stock code allows (3.8, and 3.10 to 3.13.0 among the interpreters
this distribution supports): ``HTTPResponse._safe_read(amt)`` asks the
buffered socket file for all *amt* bytes in one ``read(amt)``, which
allocates *amt* bytes before a byte arrives. *amt* is the server's
``Content-Length`` (``read()`` of the whole body) or a chunk size, so a
response claiming 4 GiB and sending 1 KB costs the client 4 GiB of memory,
or a ``MemoryError``. Upstream (gh-119451, December 2025) reads at most
``_MIN_READ_BUF_SIZE`` (1 MiB) first, then pieces no larger than what has
arrived so far (each at most doubling the total), so the memory a read
takes is proportional to the data the server really sent.

2.7, 3.6, 3.7 and 3.9 read in pieces of ``MAXAMOUNT`` (1 MiB) already: the
probe finds them fixed. The fixed ``_safe_read`` calls the stock one for
each piece (so a read of at most 1 MiB is the stock call itself) and, when
a piece comes up short, raises ``IncompleteRead`` with everything read so
far and the bytes still expected, as the stock and upstream's do.
"""

import io

from ._responses import throwaway
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements"]

#: gh-119451's ``_MIN_READ_BUF_SIZE``: the largest first read.
FIRST = 1 << 20


class _Recorder(io.BytesIO):
    """A socket file that has no data and records the sizes it is asked to read."""

    def __init__(self):
        io.BytesIO.__init__(self)
        self.sizes = []

    def read(self, size=-1):
        self.sizes.append(size)
        return b""


def needs_fix(module):
    """Whether the stock ``_safe_read`` asks the socket file for more than 1 MiB at once
    when told to read 1 TiB (the file has nothing, so nothing is allocated)."""
    recorder = _Recorder()
    try:
        module.HTTPResponse.__dict__["_safe_read"](throwaway(module, recorder), 1 << 40)
    except module.IncompleteRead:
        pass
    return max(recorder.sizes or [0]) > FIRST


def make_safe_read(module, stock):
    """``_safe_read`` reading *amt* bytes through *stock* in pieces (gh-119451)."""

    def _safe_read(self, amt):
        if amt <= FIRST:
            return stock(self, amt)
        pieces = []
        got, size = 0, FIRST
        while True:
            try:
                piece = stock(self, size)
            except module.IncompleteRead as error:
                data = b"".join(pieces) + error.partial
                raise module.IncompleteRead(data, amt - len(data))
            pieces.append(piece)
            got += len(piece)
            if got >= amt:
                return b"".join(pieces)
            size = min(got, amt - got)

    return named_as(_safe_read, stock)


def replacements(module):
    """``HTTPResponse._safe_read``: the stock method, called for bounded pieces."""
    return {"HTTPResponse._safe_read": make_safe_read(
        module, module.HTTPResponse.__dict__["_safe_read"])}
