"""CVE-2021-3737 (bpo-44022): the headers of a ``100 Continue`` response, bounded.

What the stock code allows: Python 2.7.18's ``httplib.HTTPResponse.begin``
skips the header block of each ``100 Continue`` response in a loop of its own
that only ends at a blank line, so a server that sends one ``100 Continue``
and then header lines without end keeps the client reading (and printing, at
a debug level) for as long as it likes: a socket timeout never fires while
lines keep coming. Upstream (3.6.14, 3.7.11, 3.8.11, 3.9.6, 3.10.0) read
those lines with ``_read_headers``, the final response's own reader, whose
``_MAXHEADERS`` (100, the blank line counted) raises ``HTTPException("got more
than 100 headers")``. 2.7 got no release with it.

The fixed ``begin`` reads the status lines and skips each ``100 Continue``'s
headers within that bound (``_responses.final_status``), then hands the final
status line to the stock ``begin``, which parses the final response as it
always has. What differs on 2.7: the lines are read in 2.7's way (a line that
strips to nothing ends the block, each skipped line printed as ``header:``
at a debug level), counted as ``_read_headers`` counts them.
"""

from ._responses import final_status, hand_off, raises, throwaway, BEGUN
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements"]

#: One ``100 Continue`` with 100 header lines (101 lines with the blank one: one too
#: many for bpo-44022's bound), then a final response.
PROBE = (b"HTTP/1.1 100 Continue\r\n" + b"X: y\r\n" * 100 + b"\r\n"
         + b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")


def needs_fix(module):
    """Whether the stock ``HTTPResponse.begin`` of *module* reads :data:`PROBE` to its
    final response instead of raising ``HTTPException`` (about 110 lines read)."""
    response = throwaway(module, PROBE)
    return not raises(module, lambda: module.HTTPResponse.__dict__["begin"](response))


def make_begin(module, stock, most=None):
    """A ``begin`` that reads past ``100 Continue`` responses within the bounds (*most*:
    gh-150743's count, or none), then calls *stock* with the final status line."""

    def begin(self):
        if getattr(self, BEGUN) is not None:  # already begun: the stock code returns
            return stock(self)
        return hand_off(self, stock, final_status(self, module, most))

    return named_as(begin, stock)


def replacements(module):
    """``HTTPResponse.begin``: the stock method behind :func:`make_begin`'s bounded loop."""
    return {"HTTPResponse.begin": make_begin(module, module.HTTPResponse.__dict__["begin"])}
