# -*- coding: utf-8 -*-
"""The test cases CPython added with each urlsplit fix, against the backport
and against the stdlib as ``patch()`` leaves it (every test runs with both).

Each test names the CPython test it mirrors (``Lib/test/test_urlparse.py``,
class ``UrlParseTestCase``); the inputs and expectations are upstream's, the
test code is ours. The gh-105704 table is also run through the reference
interpreter (Debian 12's ``python3.11``) when it is installed and its
``urlsplit`` carries all four fixes (each fix's probe asks it), which proves
the table.
"""

import json
import os
import subprocess
import sys

import pytest

from dependencies import importorskip
import reference

import urllib_parse_backport
from urllib_parse_backport import urlparse, urlsplit

PY3 = sys.version_info[0] >= 3
REFERENCE = os.environ.get("URLSPLIT_REFERENCE", reference.REFERENCE)
#: The four fixes of ``urlsplit``, which the reference must carry to be one.
URLSPLIT_FIXES = ["CVE-2023-24329", "CVE-2022-0391", "CVE-2024-11168", "CVE-2025-0938"]
#: The mark of a test run against the reference (Debian's probed; another, as given).
needs_reference = reference.needs(carrying=URLSPLIT_FIXES) if REFERENCE == reference.REFERENCE \
    else pytest.mark.skipif(not os.path.exists(REFERENCE), reason="no reference interpreter")
WORKER = os.path.join(os.path.dirname(__file__), "urlsplit_reference.py")


def run_reference(urls):
    """The reference interpreter's outcomes for *urls* (one process)."""
    process = subprocess.Popen([REFERENCE, WORKER], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)
    output = process.communicate(json.dumps(urls).encode("ascii"))[0]
    assert process.returncode == 0
    return json.loads(output.decode("ascii"))


@pytest.fixture(autouse=True, params=["backport", "patched stdlib"])
def implementation(request):
    """Binds this module's ``urlsplit``/``urlparse`` to the backport's, or to
    the stdlib's own after ``patch()`` (the parse_qs fix left out)."""
    global urlsplit, urlparse
    if request.param == "backport":
        yield request.param
        return
    stdlib = importorskip("urllib.parse" if PY3 else "urlparse")
    saved = urlsplit, urlparse
    urllib_parse_backport.unpatch()
    urllib_parse_backport.patch(leave_out=["CVE-2021-23336"])
    urlsplit, urlparse = stdlib.urlsplit, stdlib.urlparse
    try:
        yield request.param
    finally:
        urlsplit, urlparse = saved
        urllib_parse_backport.unpatch()


def _encoded(text):
    return text.encode("ascii") if PY3 else text


@pytest.mark.parametrize("kind", ["str", "bytes"] if PY3 else ["str"])
def test_remove_unsafe_bytes(kind):
    """Mirrors ``test_urlsplit_remove_unsafe_bytes`` (bpo-43882, CVE-2022-0391)."""
    convert = _encoded if kind == "bytes" else (lambda text: text)
    url = convert("http\t://www.python\n.org\t/java\nscript:\talert('msg\r\n')/?query\n="
                  "\tsomething#frag\nment")
    p = urlsplit(url)
    assert p.scheme == convert("http")
    assert p.netloc == convert("www.python.org")
    assert p.path == convert("/javascript:alert('msg')/")
    assert p.query == convert("query=something")
    assert p.fragment == convert("fragment")
    assert (p.username, p.password, p.port) == (None, None, None)
    assert p.hostname == convert("www.python.org")
    assert p.geturl() == convert("http://www.python.org/javascript:alert('msg')/"
                                 "?query=something#fragment")


def test_remove_unsafe_bytes_scheme_as_cache_key():
    """Mirrors the "with scheme as cache-key" part of ``test_urlsplit_remove_unsafe_bytes``."""
    url = "http://www.python.org/java\nscript:\talert('msg\r\n')/?query\n=\tsomething#frag\nment"
    for _ in range(2):
        p = urlsplit(url, scheme="ht\ntp")
        assert p.scheme == "http"
        assert p.geturl() == ("http://www.python.org/javascript:alert('msg')/"
                              "?query=something#fragment")


NOISE = "".join(chr(code) for code in range(0x21))
BASE_URL = "http://User:Pass@www.python.org:080/doc/?query=yes#frag"


@pytest.mark.parametrize("kind", ["str", "bytes"] if PY3 else ["str"])
def test_strip_url(kind):
    """Mirrors ``test_urlsplit_strip_url`` (gh-102153, CVE-2023-24329)."""
    convert = _encoded if kind == "bytes" else (lambda text: text)
    p = urlsplit(convert(NOISE + BASE_URL))
    assert p.scheme == convert("http")
    assert p.netloc == convert("User:Pass@www.python.org:080")
    assert (p.path, p.query, p.fragment) == (convert("/doc/"), convert("query=yes"),
                                             convert("frag"))
    assert (p.username, p.password) == (convert("User"), convert("Pass"))
    assert p.hostname == convert("www.python.org")
    assert p.port == 80
    assert p.geturl() == convert(BASE_URL)


def test_strip_url_keeps_trailing_space():
    """Mirrors ``test_urlsplit_strip_url``: only leading blanks go; a query's
    trailing spaces and ``'www.pypi.org '``'s round trip stay."""
    query_spaces_url = "https://www.python.org:88/doc/?query=    "
    p = urlsplit(NOISE + query_spaces_url)
    assert (p.scheme, p.netloc, p.path, p.query, p.port) == (
        "https", "www.python.org:88", "/doc/", "query=    ", 88)
    assert p.geturl() == query_spaces_url
    assert urlsplit("www.pypi.org ").geturl() == "www.pypi.org "


def test_strip_scheme_as_cache_key():
    """Mirrors the "with scheme as cache-key" part of ``test_urlsplit_strip_url``."""
    for _ in range(2):
        p = urlsplit("//www.python.org/", scheme=NOISE + "https" + NOISE)
        assert p.scheme == "https"
        assert p.geturl() == "https://www.python.org/"


# test_invalid_bracketed_hosts (gh-103848, CVE-2024-11168).
INVALID_BRACKETED_HOSTS = [
    "Scheme://user@[192.0.2.146]/Path?Query",
    "Scheme://user@[important.com:8000]/Path?Query",
    "Scheme://user@[v123r.IP]/Path?Query",
    "Scheme://user@[v12ae]/Path?Query",
    "Scheme://user@[v.IP]/Path?Query",
    "Scheme://user@[v123.]/Path?Query",
    "Scheme://user@[v]/Path?Query",
    "Scheme://user@[0439:23af::2309::fae7:1234]/Path?Query",
    "Scheme://user@[0439:23af:2309::fae7:1234:2342:438e:192.0.2.146]/Path?Query",
    "Scheme://user@]v6a.ip[/Path",
]

# The rows gh-105704 (CVE-2025-0938) added to test_invalid_bracketed_hosts:
# text before '[' or after ']' (other than a port) in the host part.
INVALID_BRACKETED_NETLOCS = [
    "scheme://prefix.[v6a.ip]", "scheme://[v6a.ip].suffix",
    "scheme://prefix.[v6a.ip]/", "scheme://[v6a.ip].suffix/",
    "scheme://prefix.[v6a.ip]?stuff", "scheme://[v6a.ip].suffix?stuff",
    "scheme://prefix.[::1]", "scheme://[::1].suffix",
    "scheme://prefix.[::1]/", "scheme://[::1].suffix/",
    "scheme://prefix.[::1]?stuff", "scheme://[::1].suffix?stuff",
    "scheme://prefix.[::1]:a", "scheme://[::1].suffix:a",
    "scheme://prefix.[::1]:a1", "scheme://[::1].suffix:a1",
    "scheme://prefix.[::1]:1a", "scheme://[::1].suffix:1a",
    "scheme://prefix.[::1]:", "scheme://[::1].suffix:/",
    "scheme://prefix.[::1]:?", "scheme://user@prefix.[v6a.ip]",
    "scheme://user@[v6a.ip].suffix",
]


@pytest.mark.parametrize("url", INVALID_BRACKETED_HOSTS + INVALID_BRACKETED_NETLOCS)
@pytest.mark.parametrize("name", ["urlsplit", "urlparse"])
def test_invalid_bracketed_hosts(name, url):
    """Mirrors ``test_invalid_bracketed_hosts`` (gh-103848 and gh-105704's rows)."""
    with pytest.raises(ValueError):
        globals()[name](url)


@needs_reference
def test_the_invalid_tables_are_what_the_reference_refuses():
    rows = run_reference(INVALID_BRACKETED_HOSTS + INVALID_BRACKETED_NETLOCS)
    assert [row["str"][:2] for row in rows] == [["error", "ValueError"]] * len(rows)


def test_splitting_bracketed_hosts():
    """Mirrors ``test_splitting_bracketed_hosts`` (gh-103848)."""
    p1 = urlsplit("scheme://user@[v6a.ip]/path?query")
    assert (p1.hostname, p1.username, p1.path) == ("v6a.ip", "user", "/path")
    p2 = urlsplit("scheme://user@[0439:23af:2309::fae7%test]/path?query")
    assert (p2.hostname, p2.username, p2.path) == ("0439:23af:2309::fae7%test", "user", "/path")
    p3 = urlsplit("scheme://user@[0439:23af:2309::fae7:1234:192.0.2.146%test]/path?query")
    assert p3.hostname == "0439:23af:2309::fae7:1234:192.0.2.146%test"
    assert (p3.username, p3.path) == ("user", "/path")


@pytest.mark.parametrize("url,message", [
    ("http://[1.2.3.4]/", "An IPv4 address cannot be in brackets"),
    ("http://[v1.]/", "IPvFuture address is invalid"),
    ("http://[::1]evil/", "Invalid IPv6 URL"),
    ("http://[::1/", "Invalid IPv6 URL"),
    ("http://[zz]/", "'zz' does not appear to be an IPv4 or IPv6 address"),
])
def test_error_messages_are_upstreams(url, message):
    """The messages of gh-103848's ``_check_bracketed_host`` (and of
    ``ipaddress.ip_address``, which it lets through) and gh-105704's check."""
    with pytest.raises(ValueError) as info:
        urlsplit(url)
    assert str(info.value).replace("u'", "'") == message


def test_the_blocklist_case_of_cve_2023_24329():
    """The issue's case: a leading blank no longer hides the host from a check."""
    assert urlparse(" https://evil.example/x").hostname == "evil.example"
    assert urlparse(" https://evil.example/x").scheme == "https"


def test_results_are_the_interpreters_own_types():
    own = importorskip("urllib.parse" if PY3 else "urlparse")
    assert type(urlsplit("http://a/b")) is own.SplitResult
    assert type(urlparse("http://a/b;c")) is own.ParseResult
    assert urlparse("http://a/b;c").params == "c"
    if PY3:
        assert type(urlsplit(b"http://a/b")) is own.SplitResultBytes
        assert type(urlparse(b"http://a/b")) is own.ParseResultBytes


def test_the_public_names_are_listed():
    assert "urlsplit" in urllib_parse_backport.__all__
    assert "urlparse" in urllib_parse_backport.__all__


class _Unbooleable(object):
    def __bool__(self):
        raise ZeroDivisionError("nope")

    __nonzero__ = __bool__


@pytest.mark.parametrize("url", ["//[zz]", " //[zz]", "http://[::1]x/", "//[", "//a"])
def test_allow_fragments_is_read_before_the_host_is_checked(url):
    # As the interpreter's own urlsplit: bool(allow_fragments) raises first.
    with pytest.raises(ZeroDivisionError):
        urlsplit(url, "", _Unbooleable())
