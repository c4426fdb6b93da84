"""The fix: ``start_response`` refuses control characters in the status (gh-144370).

``wsgiref.handlers.BaseHandler.send_preamble`` writes the status as the
status line (``HTTP/1.1 <status>``, or ``Status: <status>`` through CGI), so
an unfixed ``start_response`` that takes ``"200 OK\\r\\nSet-Cookie: a=b"``
adds header lines of the caller's choosing to the response. The stock
asserts (length, three digits, a space) do not look further, and vanish
under ``-O``. gh-144370 (GH-144371) makes ``start_response`` raise
``ValueError("Control characters are not allowed in status")`` for a status
holding a C0 character (HTAB included: it uses the header-name pattern of
gh-143916) or DEL, right after its type check: before the status asserts,
and after ``self.status`` and ``self.headers`` are set (as every 3.x stock
``start_response`` sets them first).

The replacement calls the original for every status without such a
character (or not a ``str``: the original's own check refuses it). For one
with, it does what upstream's does up to the refusal: where the stock would
raise first (``exc_info`` with headers sent, or headers already set), the
original is called and raises; then (3.x) ``self.status``,
``self.headers = self.headers_class(headers)`` (which refuses hostile headers
first, as upstream's does) and the type check; then the ValueError.
"""

import re
import sys

from _cpython_security._plain import is_plain as _plain

__all__ = ["needs_fix", "replacements", "MESSAGE"]

#: Upstream's message.
MESSAGE = "Control characters are not allowed in status"

# gh-144370 uses gh-143916's header-name pattern: C0 (HTAB too) and DEL.
_status_search = re.compile(r"[\x00-\x1F\x7F]").search

# Python 2/3 differences, in one place.
# 3.x: every stock ``start_response`` (3.6-3.13) sets ``self.status`` and
# ``self.headers`` before its type check (``_convert_string_type(status,
# "Status")``), and upstream refuses right after that check.
# 2.7: the stock asserts the type (``str``) first and sets the two attributes
# only after every check, so the refusal comes right after the type assert,
# with nothing set. Under ``-O`` that assert is gone and a unicode status is
# written too: it is checked then as well.
# ``_plain`` (the header guards' shared ``is_plain``) answers the common case
# without the pattern where it can.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    _CHECKED_TYPES = (str,) if __debug__ else (str, unicode)  # noqa: F821 - Python 2 only
    _SETS_FIRST = False
else:
    _CHECKED_TYPES = (str,)
    _SETS_FIRST = True


def needs_fix(module):
    """Whether the module's ``BaseHandler.start_response`` takes a status with CR/LF
    (tried on a throw-away handler); False where it has no ``BaseHandler``."""
    handler_class = getattr(module, "BaseHandler", None)
    if handler_class is None:
        return False
    try:
        handler_class().start_response("200 OK\r\nX-Injected: 1", [])
    except ValueError:
        return False
    return True


def replacements(module):
    """``{"BaseHandler.start_response": replacement}``, around the method the
    module's ``BaseHandler`` holds now."""
    original = module.BaseHandler.__dict__["start_response"]

    def start_response(self, status, headers, exc_info=None):
        if (type(status) not in _CHECKED_TYPES or _plain(status)
                or _status_search(status) is None):
            return original(self, status, headers, exc_info)
        # The stock raises before it reads the status: let it.
        if (self.headers_sent if exc_info else self.headers is not None):
            return original(self, status, headers, exc_info)
        exc_info = None  # as the stock: no reference cycle through the traceback
        if _SETS_FIRST:
            self.status = status
            self.headers = self.headers_class(headers)
            self._convert_string_type(status, "Status")
        raise ValueError(MESSAGE)

    start_response.__name__ = original.__name__
    start_response.__doc__ = original.__doc__
    if hasattr(original, "__qualname__"):
        start_response.__qualname__ = original.__qualname__
    return {"BaseHandler.start_response": start_response}
