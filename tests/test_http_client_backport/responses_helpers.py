"""What the response-bound tests share: the stock module, binding the fixes, fake
sockets that count what is read, and one outcome of reading a response.

The fixes are bound with ``patch(force=True)``, on every interpreter, so
that honest input is compared with the stock code everywhere, not only
where a fix is due; ``unpatch()`` afterwards.
"""

from __future__ import print_function

import contextlib
import importlib
import io
import sys

import http_client_backport

PY2 = sys.version_info[0] == 2
STOCK = importlib.import_module("httplib" if PY2 else "http.client")

#: The registry's names of the three response fixes.
CONTINUE, INTERIM, LENGTH = "CVE-2021-3737", "gh-150743", "CVE-2025-13836"


@contextlib.contextmanager
def bound():
    """Every fix of the package bound (``patch(force=True)``), then unpatched."""
    http_client_backport.patch(force=True)
    try:
        yield
    finally:
        http_client_backport.unpatch()


def lacks(cve):
    """Whether the stock module lacks the fix for *cve* (the package's own probe)."""
    return http_client_backport.status()["fixes"][cve]["lacks"]


class CountingFile(io.BytesIO):
    """The bytes a response reads, counting the lines read and the largest size asked."""

    def __init__(self, data=b""):
        io.BytesIO.__init__(self, data)
        self.lines = 0
        self.largest = 0

    def readline(self, *args):
        self.lines += 1
        return io.BytesIO.readline(self, *args)

    def read(self, size=-1):
        self.largest = max(self.largest, size if size is not None else -1)
        return io.BytesIO.read(self, size)


class FakeSocket(object):
    """A socket whose ``makefile`` is a :class:`CountingFile` of *data*."""

    def __init__(self, data):
        self.file = data if isinstance(data, io.BytesIO) else CountingFile(data)

    def makefile(self, *args):
        return self.file


def response(data, **keywords):
    """An ``HTTPResponse`` of the stock module reading *data*; ``.fp`` counts."""
    return STOCK.HTTPResponse(FakeSocket(data), **keywords)


def error(exc):
    """An exception as compared: its type's name and its arguments (IncompleteRead: the
    partial data and the bytes expected)."""
    if isinstance(exc, STOCK.IncompleteRead):
        return (type(exc).__name__, exc.partial, exc.expected)
    return (type(exc).__name__, str(exc))


def outcome(data, ops=(("read", None),), method=None, debuglevel=0):
    """What reading *data* gives: status line and headers, each op's result, the error
    that ended it (if any) and what the debug level printed."""
    resp = response(data, method=method, debuglevel=debuglevel)
    results = []
    printed = io.BytesIO() if PY2 else io.StringIO()
    saved, sys.stdout = sys.stdout, printed
    try:
        resp.begin()
        results.append((resp.status, resp.reason, resp.version, resp.length,
                        resp.chunked, sorted(resp.getheaders())))
        for op, size in ops:
            if op == "readinto":
                buffer = bytearray(size)
                count = resp.readinto(buffer)
                results.append((count, bytes(buffer[:count])))
            elif size is None:
                results.append(getattr(resp, op)())
            else:
                results.append(getattr(resp, op)(size))
        results.append(("closed", resp.isclosed()))
    except Exception as exc:  # the outcome includes how it failed
        results.append(error(exc))
    finally:
        sys.stdout = saved
        resp.close()  # not left to the collector, which may close the file first
    return results, printed.getvalue()


def interim(count, lines=0):
    """*count* ``100 Continue`` responses, each with *lines* header lines."""
    return (b"HTTP/1.1 100 Continue\r\n" + b"X-Line: v\r\n" * lines + b"\r\n") * count


def final(body=b"abc"):
    """A final response with a ``Content-Length`` body."""
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body


def chunked(chunks=(b"abc",), trailers=0):
    """A chunked final response, with *trailers* trailer lines after the last chunk."""
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for chunk in chunks)
    return head + body + b"0\r\n" + b"X-Trailer: t\r\n" * trailers + b"\r\n"
