"""URLs for the ``urlsplit`` differentials, and one outcome format for every side.

One copy for all sides: ``gen_urlsplit_data.py`` and ``urlsplit_reference.py``
(beside this file) run it inside the reference interpreter (Debian 12's
``python3.11``, which carries all four fixes), and
``test_urlsplit_differential.py`` runs it against the backport. Runs on 2.7
and 3.x; imports nothing but the stdlib.

The URLs avoid the scheme rules that differ between interpreters and that no
fix touches: a scheme always starts with a letter (gh-99418, missing from
3.6-3.10 and PyPy 3.9) and is never followed by digits alone (3.6-3.8 keep
``path:80`` as a path).
"""

import json
import random
import sys

PY2 = sys.version_info[0] == 2

#: Each fix's inputs, the issue's 39-URL classes, and ordinary URLs.
FIXED_CASES = [
    # CVE-2023-24329 (gh-102153): leading C0 controls and spaces.
    " https://evil.example/x", "\x00\x1f http://a/b", "\x0c//host/p", "   ", " x",
    # CVE-2022-0391 (bpo-43882): tab, CR, LF anywhere.
    "ht\ttp://a\r\n.b/c", "http://a/\tb?c\n=d#e\rf", "\n\t", "//ho\tst/", "http\n://x/",
    # CVE-2024-11168 (gh-103848): a bracketed host must be IPv6 or IPvFuture.
    "http://[::1]/", "http://[::1]:80/", "http://[v1.fe]/", "http://[v1.]/", "http://[1.2.3.4]/",
    "http://[zz]/", "http://[01.2.3.4]/", "http://[::ffff:1.2.3.4]/", "http://[fe80::1%25eth0]/",
    "http://user@[v6a.ip]/", "http://[::1/", "http://::1]/", "http://]::1[/",
    # CVE-2025-0938 (gh-105704): brackets inside a host name.
    "http://[::1]evil/", "http://prefix[::1]/", "http://[::1]]/", "http://[::1].suffix:80/",
    "http://u[x]@[::1]/", "http://[::1]@example.com/", "http://[::1]:a/", "http://[::1]:/",
    # Ordinary URLs.
    "http://example.com/a?b=c#d", "https://user:pw@host:8080/p;x?q#f", "//host/p", "",
    "mailto:x@y", "javascript:alert(1)", "file:///etc/passwd", "a/b/c?d", "HTTP://EXAMPLE.COM/",
]

_SCHEMES = ["", "http", "https", "ftp", "svn+ssh", "x-y.z"]
_PIECES = ["a", "example.com", "ex-ample.org", "user:pw@", "@", ":", ":80", ":0", "[", "]",
           "[::1]", "[v1.x]", "[1.2.3.4]", "%", "%25", ";", "/", "//", "?", "#", "=", "&",
           " ", "\t", "\r", "\n", "\x00", "\x1f", "\x7f", "\xe9", "\u2100" if not PY2 else "",
           "v", "::", "fe80::1", "0"]
_LEADS = ["", "", "", " ", "\x00", "\t\n", "\x1f ", "  "]


def generated(count, seed):
    """*count* URLs drawn from ``random.Random(seed)``: a lead of C0/space,
    a scheme, then pieces that hit brackets, blanks and delimiters."""
    rng = random.Random(seed)
    urls = []
    for _ in range(count):
        scheme = rng.choice(_SCHEMES)
        head = scheme + ":" if scheme else ""
        if rng.random() < 0.8:
            head += "//"
        body = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 7)))
        if not head:
            body = "x" + body  # no scheme starting with a digit (gh-99418)
        if scheme and body.strip("0123456789") == "" and not head.endswith("//"):
            body += "x"  # never 'scheme:80' (3.6-3.8's port rule)
        urls.append(rng.choice(_LEADS) + head + body)
    return urls


def outcome(func, url, scheme=""):
    """``["ok", [parts...]]`` or ``["error", exception name, message]``,
    JSON-ready (bytes results become latin-1 text)."""
    try:
        result = func(url, scheme)
    except Exception as exc:
        return ["error", type(exc).__name__, str(exc)]
    parts = []
    for part in result:
        if isinstance(part, bytes) and not PY2:
            part = part.decode("latin-1")
        parts.append(part)
    return ["ok", type(result).__name__, parts]


def outcomes(urlsplit, urls):
    """For each URL: the str outcome, the bytes outcome (Python 3, ASCII
    URLs), and the outcome with a blank-padded *scheme* (gh-102153 strips it)."""
    rows = []
    for url in urls:
        row = {"url": url, "str": outcome(urlsplit, url),
               "scheme": outcome(urlsplit, url, " \tftp\n")}
        if not PY2 and all(ord(c) < 128 for c in url):
            row["bytes"] = outcome(urlsplit, url.encode("ascii"))
        rows.append(row)
    return rows


def dumps(rows):
    return json.dumps(rows, indent=0, sort_keys=True, ensure_ascii=True)
