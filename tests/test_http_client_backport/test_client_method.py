"""bpo-39603 (CVE-2020-26116): ``putrequest`` refuses a method with control characters.

Upstream's test is CPython's ``test_httplib.HttpMethodTests.test_invalid_method_names``
(commit 8ca8a2e8fb06, and its 2.7 form that distributions carry); here it runs
on a simulated unfixed ``HTTPConnection`` with the fix bound
(``client_helpers.fixed``), and the rest of the stdlib's behaviour is compared
with the stock class: on 3.x the stock class has the fix, so every outcome,
refused or not, must be the stock one.
"""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import client_helpers as helpers
from client_helpers import client
from reference import needs
from budget import examples

FIX = helpers.FIXES["bpo-39603"]
STOCK_HAS_FIX = "_validate_method" in client.HTTPConnection.__dict__

#: CPython's test_invalid_method_names, as committed.
UPSTREAM_METHODS = ("GET\r", "POST\n", "PUT\n\r", "POST\nValue", "POST\nHOST:abc",
                    "GET\nrHost:abc\n", "POST\rRemainder:\r", "GET\rHOST:\n", "\nPUT")


def request(module, method, url="/"):
    return helpers.sent(module, "example.com", [("putrequest", (method, url)),
                                                ("endheaders", ())])


def test_upstream_invalid_method_names():
    """CPython test_httplib HeaderTests.test_invalid_method_names, via ``request()``."""
    module = helpers.fixed(FIX)
    for method in UPSTREAM_METHODS:
        conn = module.HTTPConnection("example.com")
        conn.sock = helpers.FakeSocket(b"")
        with pytest.raises(ValueError) as caught:
            conn.request(method=method, url="/")
        assert str(caught.value).startswith("method can't contain control characters")
        assert conn.sock.data == b""


def test_message_is_upstreams():
    message = request(helpers.fixed(FIX), "GET\r\nX-Injected: 1")
    assert message == ("ValueError", "method can't contain control characters. "
                       "'GET\\r\\nX-Injected: 1' (found at least '\\r')")


def test_unfixed_sends_the_injected_line():
    """The simulated unfixed class is what bpo-39603 fixed: it sends the header line."""
    data = request(helpers.unfixed(), "GET / HTTP/1.1\r\nX-Injected: 1\r\nX")
    assert b"\r\nX-Injected: 1\r\n" in data


def test_probe():
    assert FIX.needs_fix(helpers.unfixed())
    assert not FIX.needs_fix(helpers.fixed(FIX))
    assert FIX.needs_fix(client) is not STOCK_HAS_FIX


def test_replacement_looks_like_the_stock_method():
    stock = client.HTTPConnection.__dict__["putrequest"]
    new = FIX.replacements(client)["HTTPConnection.putrequest"]
    assert new is not stock
    assert (new.__name__, new.__doc__, new.__module__) == (
        stock.__name__, stock.__doc__, stock.__module__)
    assert getattr(new, "__qualname__", None) == getattr(stock, "__qualname__", None)


def outcomes(module, first, second):
    """What two ``putrequest`` calls on one connection do: upstream's state change."""
    conn = module.HTTPConnection("example.com")
    conn.sock = helpers.FakeSocket()
    found = []
    for method in (first, second):
        try:
            conn.putrequest(method, "/")
            found.append("ok")
        except Exception as error:
            found.append(type(error).__name__)
    return found, conn._buffer


def test_refused_method_leaves_the_request_started():
    """Upstream raises after ``__state`` becomes Request-started: the next call is refused."""
    module = helpers.fixed(FIX)
    assert outcomes(module, "GET\r", "GET") == (["ValueError", "CannotSendRequest"], [])
    assert outcomes(module, "GET", "GET\r")[0] == ["ok", "CannotSendRequest"]
    if STOCK_HAS_FIX:
        for pair in (("GET\r", "GET"), ("GET", "GET\r"), ("GET\n", "PUT\n")):
            assert outcomes(module, *pair) == outcomes(client, *pair)


@pytest.mark.skipif(not STOCK_HAS_FIX, reason="the stock class lacks bpo-39603 here")
@settings(max_examples=examples(300), deadline=None)
@given(st.text(st.characters(max_codepoint=0x17f), max_size=12))
def test_any_method_as_the_stock_fixed_class(method):
    """3.x: the stock class has bpo-39603: every method gives what it gives, bytes or error."""
    assert request(helpers.fixed(FIX), method) == request(client, method)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0xff), min_size=1, max_size=12),
       st.sampled_from(["/", "/a?b=c", "http://example.org:8080/x"]))
def test_honest_methods_give_the_same_bytes(method, url):
    """A method without control characters: the bytes the unfixed class sends."""
    if str is bytes:  # 2.7: a byte-string method, as 2.7 callers pass it
        method = method.encode("latin-1")
    assert request(helpers.fixed(FIX), method, url) == request(helpers.unfixed(), method, url)


def test_method_that_is_not_text_is_left_to_the_stock_code():
    if str is bytes:
        pytest.skip("2.7: bytes are str")
    assert request(helpers.fixed(FIX), b"GET\r\n") == request(helpers.unfixed(), b"GET\r\n")


REFERENCE_CHILD = r"""
import http.client, json, sys
found = []
for method in json.loads(sys.stdin.read()):
    conn = http.client.HTTPConnection("example.com")
    try:
        conn.putrequest(method, "/")
        found.append(["ok", b"".join(conn._buffer).decode("latin-1")])
    except Exception as error:
        found.append([type(error).__name__, str(error)])
print(json.dumps(found))
"""

CORPUS = list(UPSTREAM_METHODS) + ["GET", "PROPFIND", "M-SEARCH", "GET ", "\x00", "\x1f",
                                   "\x7f", "G\tET", "GET\x0b", "a b c", "\x1bGET"]


@needs(carrying=["CVE-2020-26116"])
def test_differential_against_the_reference():
    """Where Debian 12's python3.11 carries bpo-39603: each corpus method, the same outcome."""
    out = subprocess.check_output([helpers.REFERENCE, "-c", REFERENCE_CHILD],
                                  input=json.dumps(CORPUS).encode("ascii")) \
        if sys.version_info >= (3,) else _communicate(json.dumps(CORPUS))
    expected = json.loads(out.decode("ascii"))
    module = helpers.fixed(FIX)
    for method, (kind, text) in zip(CORPUS, expected):
        conn = module.HTTPConnection("example.com")
        try:
            conn.putrequest(str(method), "/")
            got = ["ok", b"".join(conn._buffer).decode("latin-1")]
        except Exception as error:
            got = [type(error).__name__, str(error)]
        assert got == [kind, text], method


def _communicate(text):
    child = subprocess.Popen([helpers.REFERENCE, "-c", REFERENCE_CHILD],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    return child.communicate(text.encode("ascii"))[0]


def test_stock_of_another_signature_gets_the_arguments_as_given():
    """A vendor's ``putrequest`` with other parameters: passed through untouched."""
    module = helpers.unfixed()
    calls = []

    def putrequest(self, method, url, *rest, **extra):
        calls.append((method, url, rest, extra))
    module.HTTPConnection.putrequest = putrequest
    guarded = FIX.replacements(module)["HTTPConnection.putrequest"]
    conn = module.HTTPConnection("example.com")
    guarded(conn, "GET", "/", 1, 2, 3, trace=True)
    assert calls == [("GET", "/", (1, 2, 3), {"trace": True})]
    with pytest.raises(ValueError):
        guarded(conn, "GET\n", "/")
    assert len(calls) == 1


def test_common_methods_have_no_control_character():
    assert not [method for method in FIX.COMMON if FIX.DISALLOWED.search(method)]


def test_unhashable_method_is_left_to_the_stock_code():
    method = bytearray(b"GET")
    assert request(helpers.fixed(FIX), method) == request(helpers.unfixed(), method)
