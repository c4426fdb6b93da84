"""The fix: ``putrequest`` refuses a method with control characters (CVE-2020-26116, bpo-39603).

An unfixed ``HTTPConnection.putrequest`` writes the method into the
request line as given, so ``"GET / HTTP/1.1\\r\\nX-Injected: 1\\r\\n..."``
passed as a method (an application that forwards a method it was sent)
adds header lines, or a whole second request, to what goes to the server.
bpo-39603 (3.5.10, 3.6.12, 3.7.9, 3.8.5, 3.9.0; never in a 2.7 release,
carried by distributions' 2.7) made ``putrequest`` call
``_validate_method``, which raises ``ValueError("method can't contain
control characters. {method!r} (found at least {char!r})")`` for any of
``\\x00``-``\\x1f`` in the method.

Upstream checks after the connection state changes: a refused method
leaves the connection ``Request-started`` (a second ``putrequest`` raises
``CannotSendRequest``), and a busy connection raises ``CannotSendRequest``
before the method is looked at. The replacement does the same, and calls
the stock method for every method it lets through. A method that is not
text (bytes on 3.x) is left to the stock code: it formats it with ``%s``,
its repr, where a line break cannot appear; upstream's regex raises
``TypeError`` there instead.
"""

import re

from ._wrap import PY2, TEXT, connection, original
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "DISALLOWED", "COMMON"]

# Python 2/3: 2.7's ``CannotSendRequest()`` is raised without arguments, 3.x's with
# the connection state (the two upstream ``putrequest``s, as they stand).
if PY2:  # pragma: no cover - exercised by the py27 environment
    def _busy_args(state):
        return ()
else:
    def _busy_args(state):
        return (state,)

#: bpo-39603's ``_contains_disallowed_method_pchar_re``: one character, linear search.
DISALLOWED = re.compile("[\x00-\x1f]")

_HOSTILE = "GET\r\nX-Injected: 1"

#: Methods a set look-up lets through before the search (none has a control character).
COMMON = frozenset(["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
                    "PATCH", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK",
                    "UNLOCK"])

#: The stock ``putrequest``'s parameters, on 2.7 and 3.x alike.
_PARAMETERS = ("self", "method", "url", "skip_host", "skip_accept_encoding")


def needs_fix(module):
    """Whether *module*'s ``putrequest`` takes a method with CR/LF (bpo-39603)."""
    if "putrequest" not in getattr(module, "HTTPConnection", object).__dict__:
        return False
    try:
        connection(module).putrequest(_HOSTILE, "/", skip_host=True, skip_accept_encoding=True)
    except ValueError:
        return False
    return True


def _refuse(module, conn, method, match):
    """Raise as bpo-39603's ``putrequest`` does for *method*, with its state change."""
    response = getattr(conn, "_HTTPConnection__response", None)
    if response and response.isclosed():
        conn._HTTPConnection__response = None
    state = conn._HTTPConnection__state
    if state == module._CS_IDLE:
        conn._HTTPConnection__state = module._CS_REQ_STARTED
    else:
        raise module.CannotSendRequest(*_busy_args(state))
    raise ValueError("method can't contain control characters. %r (found at least %r)"
                     % (method, match.group()))


def replacements(module):
    """``{"HTTPConnection.putrequest": guarded}``, around the stock method."""
    stock = original(module, "putrequest")
    search = DISALLOWED.search
    common = COMMON

    def check(conn, method):
        if isinstance(method, TEXT):
            match = search(method)
            if match is not None:
                _refuse(module, conn, method, match)

    code = stock.__code__
    if (code.co_varnames[:code.co_argcount] != _PARAMETERS or code.co_flags & 0x0C
            or len(stock.__defaults__ or ()) != 2):
        def putrequest(self, method, *args, **kwargs):  # a signature of its own: as given
            try:
                known = method in common
            except TypeError:  # unhashable: not text, left to the stock code
                known = True
            if not known:
                check(self, method)
            return stock(self, method, *args, **kwargs)
    else:  # the stock signature, its defaults: no packing of the arguments on each call
        def putrequest(self, method, url, skip_host=stock.__defaults__[0],
                       skip_accept_encoding=stock.__defaults__[1]):
            try:
                known = method in common
            except TypeError:  # unhashable: not text, left to the stock code
                known = True
            if not known:
                check(self, method)
            return stock(self, method, url, skip_host, skip_accept_encoding)

    return {"HTTPConnection.putrequest": named_as(putrequest, stock, module=True)}
