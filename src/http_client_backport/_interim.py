"""gh-150743: at most 100 interim (``100 Continue``) responses, and at most 100 trailer lines.

What the stock code allows (2.7 and every 3.x this distribution supports;
the fix was merged in June 2026): ``HTTPResponse.begin`` reads ``100
Continue`` responses for as long as the server sends them, and the end of a
chunked body reads trailer lines until a blank one, so a server streaming
either keeps the client in the loop for ever; a socket timeout never fires
while data keeps arriving. Upstream's
fix (GHSA-w4q2-g22w-6fr4, a follow-up to bpo-44022) bounds both loops:

- ``begin`` reads at most ``_MAXINTERIMRESPONSES`` (100) status lines; when
  all of them are ``100 Continue``, ``HTTPException("got more than 100
  interim responses")``. The fixed ``begin`` here reads them within that
  bound, each header block within bpo-44022's (as upstream's loop does), and
  hands the final status line to the stock ``begin`` (``_responses``);
- the trailer reader counts the lines before the blank one; past
  ``_MAXHEADERS`` (100), ``HTTPException("got more than 100 trailers")``.
  That reader is a loop with nothing to check in front of it, so the
  replacement is the fixed loop itself.

What differs on 2.7: its trailer loop is inside ``HTTPResponse._read_chunked``
(3.x: ``_read_and_discard_trailer``), so that method is replaced by
:func:`read_chunked_27`, 2.7's own code with the bound; its trailer ends on
``"\\r\\n"`` only, as 2.7's does. The fixed ``begin`` on 2.7 also bounds each
skipped header block (bpo-44022), as upstream's loop does. Which reader a
module has is read from its class, not from the interpreter: python-future's
copy of 3.3's module, on 2.7, has 3.x's.
"""

from ._continue_headers import make_begin
from ._responses import MAX_INTERIM, CRLF_LINES, raises, throwaway
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements"]

#: 100 ``100 Continue`` responses, then a final one: one status line past the bound.
INTERIM_PROBE = (b"HTTP/1.1 100 Continue\r\n\r\n" * MAX_INTERIM
                 + b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
#: The end of a chunked body with 101 trailer lines: one past the bound.
TRAILER_PROBE = b"0\r\n" + b"X: y\r\n" * 101 + b"\r\n"


def trailer_reader(module):
    """The name of *module*'s trailer reader: 3.x's ``_read_and_discard_trailer`` where
    the class has it, else 2.7's ``_read_chunked``."""
    if "_read_and_discard_trailer" in module.HTTPResponse.__dict__:
        return "_read_and_discard_trailer"
    return "_read_chunked"


def _reads_trailers(module):
    """Whether the stock trailer reader reads :data:`TRAILER_PROBE` to its end."""
    response = throwaway(module, TRAILER_PROBE)
    name = trailer_reader(module)
    stock = module.HTTPResponse.__dict__[name]
    if name == "_read_chunked":
        response.chunked, response.chunk_left = True, None
        return not raises(module, lambda: stock(response, None))
    response.fp.readline()  # the last chunk's size line: 3.x reads it before the trailer
    return not raises(module, lambda: stock(response))


def needs_fix(module):
    """Whether *module*'s stock trailer reader or ``begin`` lacks gh-150743's bound: read
    from what each does with one line, or one response, too many (~250 lines read)."""
    if _reads_trailers(module):
        return True
    response = throwaway(module, INTERIM_PROBE)
    return not raises(module, lambda: module.HTTPResponse.__dict__["begin"](response))


def _make_trailer_reader(module, stock):
    """3.x's ``_read_and_discard_trailer`` with gh-150743's count."""

    def _read_and_discard_trailer(self):
        discard_trailer(self, module)

    return named_as(_read_and_discard_trailer, stock)


def read_chunked_27(module, stock):
    """2.7's ``HTTPResponse._read_chunked`` with gh-150743's trailer count: the same
    reads, results and errors as 2.7.18's otherwise."""

    def _read_chunked(self, amt):
        assert self.chunked != module._UNKNOWN
        limit = module._MAXLINE
        chunk_left = self.chunk_left
        value = []
        while True:
            if chunk_left is None:
                line = self.fp.readline(limit + 1)
                if len(line) > limit:
                    raise module.LineTooLong("chunk size")
                line = line.split(";", 1)[0]  # chunk extensions
                try:
                    chunk_left = int(line, 16)
                except ValueError:  # protocol synchronisation is probably lost
                    self.close()
                    raise module.IncompleteRead("".join(value))
                if chunk_left == 0:
                    break
            if amt is None:
                value.append(self._safe_read(chunk_left))
            elif amt < chunk_left:
                value.append(self._safe_read(amt))
                self.chunk_left = chunk_left - amt
                return "".join(value)
            elif amt == chunk_left:
                value.append(self._safe_read(amt))
                self._safe_read(2)  # the CRLF at the end of the chunk
                self.chunk_left = None
                return "".join(value)
            else:
                value.append(self._safe_read(chunk_left))
                amt -= chunk_left
            self._safe_read(2)  # the CRLF at the end of the chunk
            chunk_left = None
        discard_trailer(self, module)
        self.close()  # everything read
        return "".join(value)

    return named_as(_read_chunked, stock)


def discard_trailer(response, module):
    """Read the trailer lines up to the blank one (or EOF: some servers send none), at
    most ``_MAXHEADERS`` of them (gh-150743)."""
    limit, most = module._MAXLINE, module._MAXHEADERS
    count = 0
    while True:
        line = response.fp.readline(limit + 1)
        if len(line) > limit:
            raise module.LineTooLong("trailer line")
        if not line or line in CRLF_LINES:  # EOF: some servers send no trailer
            return
        count += 1
        if count > most:
            raise module.HTTPException("got more than %d trailers" % most)


def replacements(module):
    """``HTTPResponse.begin`` (bounded, then the stock one) and the trailer reader."""
    methods = module.HTTPResponse.__dict__
    name = trailer_reader(module)
    trailer = (read_chunked_27 if name == "_read_chunked" else _make_trailer_reader)(
        module, methods[name])
    return {"HTTPResponse.begin": make_begin(module, methods["begin"], MAX_INTERIM),
            "HTTPResponse." + name: trailer}
