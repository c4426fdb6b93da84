"""The fix: the CONNECT request refuses CR/LF in the tunnel host and headers (gh-146211).

``HTTPConnection.set_tunnel(host, port, headers)`` stores what it is given;
``connect()`` then sends ``CONNECT host:port`` and one ``name: value`` line
per tunnel header to the proxy. An unfixed ``_tunnel`` writes them as
given, so a CR or LF in the host or a header (a proxy URL or a
``Proxy-Authorization`` an attacker influences) adds header lines, or a
whole request, to what the proxy reads. gh-146211 (commit 05ed7ce7ae9e,
backported to 3.10-3.14; upstream's NEWS names no CVE, distributions'
trackers call it CVE-2026-1502) made ``_tunnel`` check first, before
anything is sent:

- the tunnel host against ``_contains_disallowed_url_pchar_re``
  (``\\x00``-``\\x20``, ``\\x7f``): ``ValueError("Tunnel host can't contain
  control characters %r")``;
- each header name against ``_is_legal_header_name`` and each value
  against ``_is_illegal_header_value`` (bpo-22928's patterns, the ones
  ``putheader`` uses: a folded ``\\r\\n\\t`` continuation still passes):
  ``ValueError("Invalid header name %r")`` / ``("Invalid header value %r")``
  with the Latin-1 bytes.

So the check is at ``connect()``, not at ``set_tunnel``, as upstream's. The
replacement makes those checks and calls the stock ``_tunnel``, which sends
the very bytes it sent before. Where upstream would encode a value that is
not text and fail (``AttributeError``), the stock formatting is kept: the
check reads ``"%s" % value``, what the stock line holds. A name or value
Latin-1 cannot encode is left to the stock code, which raises its own
``UnicodeEncodeError``.
"""

import re

from ._wrap import PY2, TEXT, connection, original
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "DISALLOWED"]

# Python 2/3: 2.7's ``_tunnel`` sends the ``str``/``unicode`` lines it formats, so
# the patterns read text; 3.x's encodes each line to Latin-1 and upstream's fixed
# code checks those bytes (its messages show them). Neither branch's own
# patterns differ otherwise: bpo-22928's, on 2.7 as ``\A...\Z`` and ``match``.
if PY2:  # pragma: no cover - exercised by the py27 environment
    _legal_name = re.compile(r"\A[^:\s][^:\r\n]*\Z").match
    _illegal_value = re.compile(r"\n(?![ \t])|\r(?![ \t\n])").search

    def _wire(text):
        return text
else:
    _legal_name = re.compile(br"[^:\s][^:\r\n]*").fullmatch
    _illegal_value = re.compile(br"\n(?![ \t])|\r(?![ \t\n])").search

    def _wire(text):
        return text.encode("latin-1")

#: 3.x's ``_contains_disallowed_url_pchar_re``, on 2.7 too: a byte above ``\x7f``
#: cannot split a line, and 2.7's stock ``_tunnel`` sends it (no upstream 2.7 fix).
DISALLOWED = re.compile("[\x00-\x20\x7f]")


class _Sent(Exception):
    """The probe's connection reached its socket: the stock code sent the line."""


class _Sink(object):
    def sendall(self, data):
        raise _Sent()


def _sends(module, host, headers):
    """Whether a connection tunnelling to *host* with *headers* gets to send anything."""
    conn = connection(module)
    try:
        conn.set_tunnel(host, 443, headers)
        conn.sock = _Sink()
        conn._tunnel()
    except ValueError:
        return False
    except _Sent:
        return True
    return True


def needs_fix(module):
    """Whether *module*'s ``_tunnel`` sends a tunnel host or header with CR/LF (gh-146211)."""
    if "_tunnel" not in getattr(module, "HTTPConnection", object).__dict__:
        return False
    return (_sends(module, "example.com\r\nX-Injected: 1", None)
            or _sends(module, "example.com", {"X-Probe": "1\r\nX-Injected: 1"}))


def _check(conn):
    """Raise as gh-146211's ``_tunnel`` does for *conn*'s tunnel host and headers."""
    host = conn._tunnel_host
    if isinstance(host, TEXT) and DISALLOWED.search(host) is not None:
        raise ValueError("Tunnel host can't contain control characters %r" % (host,))
    headers = conn._tunnel_headers
    for header, value in headers.items():
        # What the stock line holds. A name that starts alphanumeric and holds no
        # ':', CR or LF is legal, a value without CR and LF cannot split a line:
        # where every header is such, upstream's checks cannot fail (only its
        # encoding can, and the stock code's fails on the same header).
        name, text = "%s" % (header,), "%s" % (value,)
        if not (name[:1].isalnum() and ":" not in name and "\r" not in name
                and "\n" not in name and "\r" not in text and "\n" not in text):
            return _check_in_order(headers)


def _check_in_order(headers):
    """Upstream's loop: each header encoded, then its name and value checked, in order."""
    for header, value in headers.items():
        try:
            name, text = _wire("%s" % (header,)), _wire("%s" % (value,))
        except UnicodeError:  # the stock code raises its own, on the same header
            return
        if not _legal_name(name):
            raise ValueError("Invalid header name %r" % (name,))
        if _illegal_value(text):
            raise ValueError("Invalid header value %r" % (text,))


def replacements(module):
    """``{"HTTPConnection._tunnel": guarded}``, around the stock method."""
    stock = original(module, "_tunnel")

    def _tunnel(self):
        _check(self)
        return stock(self)

    return {"HTTPConnection._tunnel": named_as(_tunnel, stock, module=True)}
