"""gh-146211: the CONNECT request refuses CR/LF in the tunnel host and headers.

Upstream's fix (commit 05ed7ce7ae9e) checks in ``_tunnel``, so the error comes
from ``connect()``. The cases are urllib3's ``test_invalid_tunnel_headers``
and ``test_invalid_tunnel_host`` (test/with_dummyserver/test_connection.py,
written against the fixed CPython releases), run as CPython's
``test_httplib.TunnelTests`` runs a tunnel: ``_create_connection`` answers a
fake socket. No interpreter here has the fix (nor the reference
``python3.11``), so an honest tunnel is compared with the stock class's bytes.
"""

import pytest
from hypothesis import given, settings, strategies as st

import client_helpers as helpers
from client_helpers import client
from budget import examples

FIX = helpers.FIXES["gh-146211"]

#: urllib3's test_invalid_tunnel_headers cases.
BAD_HEADERS = [
    ("Invalid\r\nName", "ValidValue"), ("Invalid\rName", "ValidValue"),
    ("Invalid\nName", "ValidValue"), ("\r\nInvalidName", "ValidValue"),
    ("\rInvalidName", "ValidValue"), ("\nInvalidName", "ValidValue"),
    (" InvalidName", "ValidValue"), ("\tInvalidName", "ValidValue"),
    ("Invalid:Name", "ValidValue"), (":InvalidName", "ValidValue"),
    ("ValidName", "Invalid\r\nValue"), ("ValidName", "Invalid\rValue"),
    ("ValidName", "Invalid\nValue"), ("ValidName", "InvalidValue\r\n"),
    ("ValidName", "InvalidValue\r"), ("ValidName", "InvalidValue\n"),
]
#: urllib3's test_invalid_tunnel_host cases.
BAD_HOSTS = ["invalid\r.host", "\ninvalid.host", "invalid.host\r\n", "invalid.host\x00",
             "invalid host"]


def tunnelled(module, host, headers, port=443):
    """A connection of *module* to a proxy, tunnelling to *host*; ``connect()`` not yet run."""
    conn = module.HTTPConnection("proxy.example")
    sock = helpers.FakeSocket()
    conn._create_connection = lambda *args, **kwargs: sock
    conn.set_tunnel(host, port, headers)
    return conn, sock


def as_wire(text):
    return text if str is bytes else text.encode("latin-1")


@pytest.mark.parametrize("name,value", BAD_HEADERS)
def test_upstream_invalid_tunnel_headers(name, value):
    conn, sock = tunnelled(helpers.fixed(FIX), "tunnel", {name: value})
    with pytest.raises(ValueError) as caught:
        conn.connect()
    bad = as_wire(value if name == "ValidName" else name)
    kind = "value" if name == "ValidName" else "name"
    assert str(caught.value) == "Invalid header %s %r" % (kind, bad)
    assert sock.data == b""


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_upstream_invalid_tunnel_host(host):
    conn, sock = tunnelled(helpers.fixed(FIX), host, None)
    with pytest.raises(ValueError) as caught:
        conn.connect()
    assert str(caught.value) == "Tunnel host can't contain control characters %r" % (host,)
    assert sock.data == b""


def test_stock_sends_the_injected_lines():
    """What gh-146211 fixed: the stock ``_tunnel`` writes the lines as given."""
    conn, sock = tunnelled(client, "example.com", {"X-A": "1\r\nX-Injected: 1"})
    conn.connect()
    assert b"X-A: 1\r\nX-Injected: 1\r\n" in sock.data


def test_probe():
    assert FIX.needs_fix(client)  # no interpreter here has gh-146211
    assert FIX.needs_fix(helpers.unfixed())
    assert not FIX.needs_fix(helpers.fixed(FIX))


def test_probe_sees_a_header_only_fix():
    """A ``_tunnel`` that checks the host only still needs the fix."""
    module = helpers.unfixed()
    stock = module.HTTPConnection.__dict__["_tunnel"]

    def host_only(self):
        if "\n" in self._tunnel_host:
            raise ValueError("host")
        return stock(self)
    module.HTTPConnection._tunnel = host_only
    assert FIX.needs_fix(module)


def test_folded_value_passes_as_in_putheader():
    """bpo-22928's value pattern: CRLF followed by a blank continues the header."""
    headers = {"X-Folded": "a\r\n b"}
    conn, sock = tunnelled(helpers.fixed(FIX), "example.com", headers)
    conn.connect()
    stock, stock_sock = tunnelled(client, "example.com", headers)
    stock.connect()
    assert sock.data == stock_sock.data and b"X-Folded: a\r\n b\r\n" in sock.data


def test_value_that_is_not_text_keeps_the_stock_formatting():
    headers = {"X-Number": 5}
    conn, sock = tunnelled(helpers.fixed(FIX), "example.com", headers)
    conn.connect()
    assert b"X-Number: 5\r\n" in sock.data


def test_unencodable_value_raises_the_stock_error():
    if str is bytes:
        pytest.skip("2.7 formats and sends text as given")
    headers = {"X-Snowman": u"\u2603"}
    found = []
    for module in (helpers.fixed(FIX), client):
        conn, sock = tunnelled(module, "example.com", headers)
        with pytest.raises(UnicodeEncodeError) as caught:
            conn.connect()
        found.append((caught.value.object, caught.value.start, sock.data))
    assert found[0] == found[1]


HOSTS = st.text("abcdefghijklmnopqrstuvwxyz0123456789-.", min_size=1, max_size=20).filter(
    lambda host: ".." not in host and not host.startswith(".") and not host.endswith("."))
NAMES = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e,
                              blacklist_characters=":"), min_size=1, max_size=10)
VALUES = st.one_of(
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xff), max_size=12),
    st.sampled_from(["Basic dXNlcjpwYXNz", "a\r\n b", "x\r\n\ty", " ", ""]))


@settings(max_examples=examples(200), deadline=None)
@given(HOSTS, st.dictionaries(NAMES, VALUES, max_size=4), st.sampled_from([443, 8443]))
def test_honest_tunnels_give_the_same_bytes(host, headers, port):
    """A tunnel host and headers without CR/LF: the CONNECT request, and the request
    after it, are the bytes the stock class sends."""
    if str is bytes:  # 2.7: byte strings, as 2.7 callers pass them
        host = host.encode("ascii")
        headers = dict((k.encode("ascii"), v.encode("latin-1")) for k, v in headers.items())
    calls = [("putrequest", ("GET", "/")), ("putheader", ("Accept", "*/*")),
             ("endheaders", ())]
    fixed = helpers.sent(helpers.fixed(FIX), "proxy.example", calls, (host, port, headers))
    stock = helpers.sent(client, "proxy.example", calls, (host, port, headers))
    assert fixed == stock
    assert isinstance(fixed, bytes) and fixed.startswith(b"CONNECT ")


@settings(max_examples=examples(200), deadline=None)
@given(st.text(st.characters(max_codepoint=0xff), max_size=10),
       st.text(st.characters(max_codepoint=0xff), max_size=10))
def test_refused_exactly_where_the_patterns_say(name, value):
    """Refused iff the name is no legal header name or the value splits a line."""
    if str is bytes:
        name, value = name.encode("latin-1"), value.encode("latin-1")
    conn, sock = tunnelled(helpers.fixed(FIX), "example.com", {name: value})
    try:
        conn.connect()
        refused = False
    except ValueError:
        refused = True
    legal = getattr(client, "_is_legal_header_name")(as_wire(name))
    illegal = getattr(client, "_is_illegal_header_value")(as_wire(value))
    assert refused is (not legal or bool(illegal))
    assert (sock.data == b"") is refused


def test_an_unencodable_header_before_a_bad_one_raises_as_upstream():
    """Upstream encodes each header before checking it, in order: the unencodable one
    raises first (here the stock code raises it, on the same header)."""
    if str is bytes:
        pytest.skip("2.7 formats and sends text as given")
    from collections import OrderedDict
    headers = OrderedDict([("X-A", "ok"), ("X-B", u"\u2603"), ("X-C", "1\r\nX-Injected: 2")])
    conn, sock = tunnelled(helpers.fixed(FIX), "example.com", headers)
    with pytest.raises(UnicodeEncodeError):
        conn.connect()
    del headers["X-B"]
    conn, sock = tunnelled(helpers.fixed(FIX), "example.com", headers)
    with pytest.raises(ValueError):
        conn.connect()
    assert sock.data == b""
