"""What the wsgiref_backport tests share: the stdlib modules, upstream's C0 helper,
outcomes of calls, and responses written by wsgiref's handlers into memory.

The fix modules are reached here only (``FIXES``), for their probes and
replacements; everything else goes through ``wsgiref_backport``'s public face.
"""

import io
import sys
import wsgiref.handlers as handlers
import wsgiref.headers as headers

import wsgiref_backport
from wsgiref_backport import _headers, _status
from reference import REFERENCE  # Debian 12's python3.11, probed

__all__ = ["handlers", "headers", "FIXES", "PY2", "control_characters_c0", "outcome",
           "respond", "patched", "HEADERS_MESSAGE", "STATUS_MESSAGE", "REFERENCE"]

PY2 = sys.version_info[0] == 2

#: ``{issue: fix module}``.
FIXES = {"gh-143916": _headers, "gh-144370": _status}

#: Upstream's messages (gh-143916, gh-144370).
HEADERS_MESSAGE = "Control characters not allowed in headers"
STATUS_MESSAGE = "Control characters are not allowed in status"


#: wsgi.errors is a native ``str`` stream.
_ERRORS = io.BytesIO if PY2 else io.StringIO


def control_characters_c0():
    """CPython's ``test.support.control_characters_c0`` (added by GH-143917): the C0
    characters and DEL, each a one-character string. Written here: the interpreters
    this project targets have no such helper."""
    return [chr(c) for c in range(0x20)] + ["\x7f"]


def outcome(function, *args, **kwargs):
    """``("ok", result)``, or ``(exception class name, message)``."""
    try:
        return ("ok", function(*args, **kwargs))
    except Exception as error:  # noqa: B902 - every outcome is compared
        return (type(error).__name__, str(error))


def respond(status, header_list, handler_class=None, protocol="HTTP/1.1"):
    """What a wsgiref handler writes for an app answering *status*, *header_list*:
    ``(bytes written, last line of wsgi.errors)``. The app's own ``Date`` header,
    when it gives one, keeps the clock out of the bytes."""
    handler_class = handler_class or handlers.SimpleHandler

    def app(environ, start_response):
        start_response(status, list(header_list))
        return [b"body"]

    out, errors = io.BytesIO(), _ERRORS()
    environ = {"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": protocol, "PATH_INFO": "/",
               "SERVER_NAME": "example.com", "SERVER_PORT": "80"}
    handler = handler_class(io.BytesIO(), out, errors, environ)
    handler.error_headers = [("Content-Type", "text/plain"), ("Date", "Thu, 01 Jan 1970")]
    handler.run(app)
    lines = errors.getvalue().strip().splitlines()
    return out.getvalue(), lines[-1] if lines else ""


class patched(object):
    """``with patched():`` the package patched (forced) inside, unpatched after."""

    def __enter__(self):
        return wsgiref_backport.patch(force=True)

    def __exit__(self, *exc_info):
        wsgiref_backport.unpatch()
