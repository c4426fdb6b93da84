"""The fix: ``HTTPConnection`` refuses a host with control characters (CVE-2019-18348, bpo-38576).

An unfixed ``HTTPConnection("example.com\\r\\nX-Injected: 1")`` keeps the
host as given and writes it into the ``Host`` header of every request made
with ``skip_host`` unset, so a URL whose host an attacker chose
(``urlopen`` of a user-supplied URL) adds header lines. bpo-38576 (in
2.7.18 and the 2020 security releases of 3.x) made ``__init__`` call
``_validate_host`` on the host ``_get_hostport`` returned, which raises
``InvalidURL("URL can't contain control characters. {host!r} (found at
least {char!r})")`` for any character of ``_contains_disallowed_url_pchar_re``:
``\\x00``-``\\x20`` and ``\\x7f`` on 3.x, and ``\\x80``-``\\xff`` too on 2.7,
whose host is a byte string. The replacement runs the stock ``__init__``
and then that check, so an honest host gives the object the stock one gives.
"""

import re

from ._wrap import PY2, TEXT, connection, original
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "DISALLOWED"]

# Python 2/3: each upstream branch's ``_contains_disallowed_url_pchar_re``; 2.7's
# host is a byte string, and a non-ASCII byte in it is refused too (bpo-38576's 2.7 form).
if PY2:  # pragma: no cover - exercised by the py27 environment
    DISALLOWED = re.compile("[\x00-\x20\x7f-\xff]")
else:
    DISALLOWED = re.compile("[\x00-\x20\x7f]")

_HOSTILE = "example.com\r\nX-Injected: 1"


def needs_fix(module):
    """Whether *module*'s ``HTTPConnection`` takes a host with CR/LF (bpo-38576)."""
    if "__init__" not in getattr(module, "HTTPConnection", object).__dict__:
        return False
    try:
        connection(module, _HOSTILE)
    except module.InvalidURL:
        return False
    return True


def replacements(module):
    """``{"HTTPConnection.__init__": guarded}``, around the stock method."""
    stock = original(module, "__init__")
    search = DISALLOWED.search

    def __init__(self, *args, **kwargs):
        stock(self, *args, **kwargs)
        host = self.host
        if isinstance(host, TEXT):
            match = search(host)
            if match is not None:
                raise module.InvalidURL("URL can't contain control characters. %r "
                                        "(found at least %r)" % (host, match.group()))

    return {"HTTPConnection.__init__": named_as(__init__, stock, module=True)}
