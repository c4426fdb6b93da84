"""What the response-side fixes share: reading past ``100 Continue`` responses within
upstream's bounds, handing the final status line to the stock ``begin``, and the
throw-away responses the probes read.

Why a hand-off: ``HTTPResponse.begin`` reads status lines until one is not
``100 Continue``, then parses the final response's headers and framing. Only
the first part lacks the bounds (CVE-2021-3737, bpo-44022; gh-150743), so a
fixed ``begin`` reads that part itself, within the bounds, and then calls the
stock ``begin`` with the final status line already read: for that one call
the response's ``_read_status`` (an instance attribute, shadowing the class's
method) returns it. The stock loop sees a final status at once and goes on as
it always does, so everything after the 1xx responses is the stock code's.

The bounds are upstream's: at most ``_MAXHEADERS`` (100) lines per skipped
header block, the terminating blank line counted, as ``_read_headers`` counts
them (bpo-44022); at most 100 status lines, the final one counted
(``_MAXINTERIMRESPONSES``, gh-150743), so 99 ``100 Continue`` responses reach the
final one and the 100th raises ``HTTPException("got more than 100 interim
responses")`` once its headers are read.
"""

from __future__ import print_function

import io
import sys

# Python 2's httplib (the one difference the response fixes see): the stock
# ``begin`` returns early once ``msg`` is set (3.x: ``headers``), and skips a
# ``100 Continue``'s headers in a loop of its own, printing each stripped line
# ("header:"), where 3.x calls ``_read_headers`` and prints the list ("headers:").
PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    STDLIB = "httplib"
    BEGUN = "msg"
    CRLF_LINES = ("\r\n",)  # 2.7's trailer loop ends on CRLF only
else:
    STDLIB = "http.client"
    BEGUN = "headers"
    CRLF_LINES = (b"\r\n", b"\n", b"")

__all__ = ["PY2", "STDLIB", "BEGUN", "CRLF_LINES", "MAX_INTERIM",
           "skip_headers", "final_status", "hand_off", "throwaway", "raises"]

#: gh-150743's ``_MAXINTERIMRESPONSES``: status lines read before the final one, at most.
MAX_INTERIM = 100

_MISSING = object()


def skip_headers(response, module):
    """Read and drop one header block of a ``100 Continue`` response, within bpo-44022's
    bound: past ``_MAXHEADERS`` lines (the blank one counted) raise ``HTTPException``.

    3.x calls the module's own ``_read_headers`` where it has one (every 3.x
    release this distribution supports has); 2.7 reads the lines as its
    ``begin`` does (a stripped line that is empty ends the block) and counts
    them as ``_read_headers`` does."""
    if not PY2 and "_read_headers" in module.__dict__:
        skipped = module._read_headers(response.fp)
        if response.debuglevel > 0:
            print("headers:", skipped)
        return
    limit, most = module._MAXLINE, module._MAXHEADERS
    count = 0
    while True:
        line = response.fp.readline(limit + 1)
        if len(line) > limit:
            raise module.LineTooLong("header line")
        count += 1
        if count > most:
            raise module.HTTPException("got more than %d headers" % most)
        line = line.strip()
        if not line:
            return
        if response.debuglevel > 0:
            print("header:", line)


def final_status(response, module, most=None):
    """The first status line that is not ``100 Continue``, each ``100 Continue``'s headers
    skipped (:func:`skip_headers`); with *most*, at most that many status lines read
    (gh-150743): one more raises ``HTTPException`` before it is read."""
    seen = 0
    while True:
        if most is not None and seen >= most:
            raise module.HTTPException("got more than %d interim responses" % most)
        status = response._read_status()
        if status[1] != module.CONTINUE:
            return status
        seen += 1
        skip_headers(response, module)


def hand_off(response, stock, status):
    """Call ``stock(response)`` with *status* as the next status line it reads.

    The response's own ``_read_status`` (an instance attribute, which wins over
    the class's method) returns *status* for this call only; what was there
    before (another fix's hand-off, usually nothing) is back afterwards,
    however the call ends."""
    previous = _own_reader(response)
    try:
        response._read_status = lambda: status
        return stock(response)
    finally:
        if previous is _MISSING:
            try:
                del response._read_status
            except AttributeError:  # gone already: nothing of ours is left
                pass
        else:
            response._read_status = previous


def _own_reader(response):
    """The ``_read_status`` *response* holds itself (not its class's), or ``_MISSING``.

    2.7's ``io`` classes keep an instance's attributes with no ``__dict__``
    attribute to read them through (python-future's copy of 3.3's
    ``HTTPResponse`` derives from ``io.RawIOBase``): there the class's method,
    bound to *response*, means the instance holds none of its own."""
    own = getattr(response, "__dict__", None)
    if own is not None:
        return own.get("_read_status", _MISSING)
    value = getattr(response, "_read_status", _MISSING)
    return _MISSING if getattr(value, "__self__", None) is response else value


class _Socket(object):
    """A socket whose ``makefile`` is the bytes given: what a probe's response reads."""

    def __init__(self, data):
        self.data = data

    def makefile(self, *args):
        if isinstance(self.data, bytes):
            return io.BytesIO(self.data)
        return self.data


def throwaway(module, data):
    """A fresh stock ``HTTPResponse`` of *module* reading *data* (bytes, or a file)."""
    return module.HTTPResponse(_Socket(data))


def raises(module, call):
    """Whether ``call()`` raises one of the bounds' errors: ``HTTPException`` itself (not
    a subclass) saying "got more than". Any other error propagates."""
    try:
        call()
    except module.HTTPException as error:
        if type(error) is module.HTTPException and "got more than" in str(error):
            return True
        raise
    return False
