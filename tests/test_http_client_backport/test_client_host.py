"""bpo-38576 (CVE-2019-18348): ``HTTPConnection()`` refuses a host with control characters.

Upstream's tests are CPython's ``test_urllib`` ``test_url_host_with_control_char_rejected``
and ``test_url_host_with_newline_header_injection_rejected`` (through
``urlopen``, whose ``HTTPConnection`` gets the URL's host: here the host is
given to the connection directly) and ``test_httplib``'s
``test_putrequest_override_host_validation`` (commit 9165addc22d0). They run
on a simulated unfixed ``HTTPConnection`` with the fix bound; every
interpreter here ships the fix, so each outcome is also compared with the
stock class's.
"""

import json
import re
import socket
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

import client_helpers as helpers
import http_client_backport
from client_helpers import client
from reference import needs
from budget import examples

FIX = helpers.FIXES["bpo-38576"]
STOCK_HAS_FIX = "_validate_host" in client.HTTPConnection.__dict__
CONTROLS = [chr(number) for number in list(range(0, 0x21)) + [0x7f]]


def outcome(module, host):
    try:
        conn = module.HTTPConnection(host)
    except Exception as error:
        return type(error).__name__, str(error)
    return conn.host, conn.port


def test_upstream_host_with_control_char_rejected():
    """test_url_host_with_control_char_rejected: each of 0x00-0x20 and 0x7f, named."""
    module = helpers.fixed(FIX)
    for char in CONTROLS:
        with pytest.raises(client.InvalidURL) as caught:
            module.HTTPConnection("localhost%s" % char)
        message = str(caught.value)
        assert "contain control" in message and repr(char) in message


def test_upstream_host_with_newline_header_injection_rejected():
    module = helpers.fixed(FIX)
    host = "localhost\r\nX-injected: header\r\n"  # urlopen gives the port apart
    for port in (80, 8080):
        with pytest.raises(client.InvalidURL) as caught:
            module.HTTPConnection(host, port)
        assert str(caught.value) == ("URL can't contain control characters. %r "
                                     "(found at least '\\r')" % (host,))


def test_upstream_override_host_validation():
    """test_putrequest_override_host_validation: the unfixed class sends such a host
    (``skip_host`` keeps ``putheader`` from refusing it as a header value)."""
    conn = helpers.unfixed().HTTPConnection("example.com\r\n")
    conn.sock = helpers.FakeSocket(b"")
    conn.putrequest("GET", "/", skip_host=1)


def test_unfixed_keeps_the_host():
    """What bpo-38576 fixed: the unfixed class keeps CR/LF in its host."""
    conn = helpers.unfixed().HTTPConnection("evil\r\nX-Injected", 80)
    assert conn.host == "evil\r\nX-Injected"


def test_probe():
    assert FIX.needs_fix(helpers.unfixed())
    assert not FIX.needs_fix(helpers.fixed(FIX))
    assert FIX.needs_fix(client) is not STOCK_HAS_FIX


@settings(max_examples=examples(300), deadline=None)
@given(st.text(st.characters(max_codepoint=0xff), max_size=14),
       st.sampled_from(["", ":80", ":8080", ":"]))
def test_any_host_as_the_stock_fixed_class(host, port):
    """Every host, refused or not, gives what the stock class (which has it) gives;
    an honest one the very attributes the unfixed class sets."""
    if str is bytes:
        host = host.encode("latin-1")
    fixed = outcome(helpers.fixed(FIX), host + port)
    if STOCK_HAS_FIX:
        assert fixed == outcome(client, host + port)
    if not FIX.DISALLOWED.search(host + port):
        assert fixed == outcome(helpers.unfixed(), host + port)


def test_pattern_is_the_modules_own():
    pattern = getattr(client, "_contains_disallowed_url_pchar_re", None)
    if pattern is None:
        pytest.skip("this stdlib has no bpo-38576 pattern")
    assert FIX.DISALLOWED.pattern == pattern.pattern


REFERENCE_CHILD = r"""
import http.client, json, sys
found = []
for host in json.loads(sys.stdin.read()):
    try:
        conn = http.client.HTTPConnection(host)
        found.append([conn.host, conn.port])
    except Exception as error:
        found.append([type(error).__name__, str(error)])
print(json.dumps(found))
"""

CORPUS = (["localhost" + char for char in CONTROLS]
          + ["example.com", "example.com:8080", "[::1]:80", "a b", "a\x00", "\x7fx:1",
             "localhost\r\nX-injected: header\r\n:8080", "h\u00e9", "x:"])


@needs(carrying=["CVE-2019-18348"])
def test_differential_against_the_reference():
    """Where Debian 12's python3.11 carries bpo-38576: each corpus host, the same outcome."""
    if str is bytes:
        pytest.skip("2.7's host is a byte string, refused on 0x80-0xff too")
    child = subprocess.Popen([helpers.REFERENCE, "-c", REFERENCE_CHILD],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = child.communicate(json.dumps(CORPUS).encode("ascii"))[0]
    module = helpers.fixed(FIX)
    for host, expected in zip(CORPUS, json.loads(out.decode("ascii"))):
        assert list(outcome(module, host)) == expected, host


@pytest.fixture
def guard_alone(monkeypatch):
    """The real class with its own bpo-38576 check made a no-op and the guard bound by
    ``patch(force=True)``: what ``urlopen`` meets on an interpreter without the fix."""
    http_client_backport.is_vulnerable()  # the probes read the stock class first
    monkeypatch.setattr(client.HTTPConnection, "_validate_host", lambda self, host: None)
    answer = b"HTTP/1.1 200 OK\r\n\r\nHello."
    monkeypatch.setattr(socket, "create_connection",
                        lambda *args, **kwargs: helpers.FakeSocket(answer))
    http_client_backport.patch(force=True)
    if str is bytes:
        import urllib2 as request
    else:
        from urllib import request
    yield request.build_opener(request.ProxyHandler({})).open  # urlopen, no proxy
    http_client_backport.unpatch()


def test_upstream_urlopen_host_with_control_char_rejected(guard_alone):
    """test_urllib's test_url_host_with_control_char_rejected, through urlopen."""
    for char in CONTROLS:
        for scheme in ("http", "https"):
            with pytest.raises(client.InvalidURL) as caught:
                guard_alone("%s://localhost%s/test/" % (scheme, char))
            message = str(caught.value)
            assert "contain control" in message and repr(char) in message


def test_upstream_urlopen_host_with_newline_header_injection_rejected(guard_alone):
    host = "localhost\r\nX-injected: header\r\n"
    for scheme, char in (("http", "\\r"), ("https", "\\n")):
        with pytest.raises(client.InvalidURL) as caught:
            guard_alone("%s://%s:8080/test/?test=a" % (scheme, host))
        assert re.search(r"contain control.*" + re.escape(char), str(caught.value))


def test_urlopen_reaches_the_stock_class_without_the_guard(monkeypatch):
    """Without the guard, the no-op check lets the host through: the fixture's
    simulation is what an unfixed interpreter does."""
    monkeypatch.setattr(client.HTTPConnection, "_validate_host", lambda self, host: None)
    assert client.HTTPConnection("localhost\r\nX: 1", 80).host == "localhost\r\nX: 1"
