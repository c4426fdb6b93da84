"""http_client_backport's public face on the running interpreter's own ``http.client``.

After :func:`patch` the three injections (a method, a connection host, a
tunnel host or header carrying CR/LF and a header line) are stopped with
upstream's exception and message, whichever guard this interpreter needed;
honest requests are the bytes the stock class sent before ``patch()``;
``unpatch()`` puts back the very functions that were there.
"""

import socket

import pytest

import client_helpers as helpers
import http_client_backport
from client_helpers import client

GUARDED = ("putrequest", "__init__", "_tunnel")
INJECTED = "\r\nX-Injected: 1"


def stock_functions():
    return dict((name, client.HTTPConnection.__dict__[name]) for name in GUARDED)


def attacks():
    """Each injection's outcome on the stdlib class as it is now."""
    found = {}
    method = "GET" + INJECTED
    found["method"] = helpers.sent(client, "example.com", [("putrequest", (method, "/"))])
    found["host"] = helpers.sent(client, "example.com" + INJECTED, [])
    found["tunnel host"] = helpers.sent(client, "proxy.example", [],
                                        ("example.com" + INJECTED, 443, None))
    found["tunnel header"] = helpers.sent(client, "proxy.example", [],
                                          ("example.com", 443, {"X-A": "1" + INJECTED}))
    return found


def honest():
    """Honest requests, through a tunnel and not, as bytes."""
    calls = [("putrequest", ("GET", "/a?b=c")), ("putheader", ("Accept", "*/*")),
             ("endheaders", ())]
    return [helpers.sent(client, "example.com:8080", calls),
            helpers.sent(client, "[::1]", [("putrequest", ("PROPFIND", "/"))] + calls[1:]),
            helpers.sent(client, "proxy.example", calls,
                         ("www.example.com", 443, {"Proxy-Authorization": "Basic eDp5"}))]


def assert_stopped(found):
    assert found["method"] == ("ValueError", "method can't contain control characters. %r "
                               "(found at least '\\r')" % ("GET" + INJECTED,))
    assert found["host"][0] == "InvalidURL"
    assert found["host"][1].startswith("URL can't contain control characters. ")
    assert found["tunnel host"] == ("ValueError", "Tunnel host can't contain control "
                                    "characters %r" % ("example.com" + INJECTED,))
    value = "1" + INJECTED
    value = value if str is bytes else value.encode("latin-1")
    assert found["tunnel header"] == ("ValueError", "Invalid header value %r" % (value,))


@pytest.mark.parametrize("force", [False, True])
def test_patch_stops_each_injection(force):
    before = attacks()
    assert isinstance(before["tunnel header"], bytes)  # no interpreter here has gh-146211
    http_client_backport.patch(force=force)
    assert_stopped(attacks())
    http_client_backport.unpatch()
    assert attacks() == before


def test_honest_requests_are_the_same_bytes():
    before = honest()
    assert all(isinstance(data, bytes) for data in before)
    http_client_backport.patch(force=True)
    assert honest() == before


def test_patch_and_unpatch_by_identity():
    stock = stock_functions()
    report = http_client_backport.patch(force=True)
    labels = set("%s.HTTPConnection.%s" % (client.__name__, name) for name in GUARDED)
    assert labels <= set(report.changed)  # and the package's other fixes
    assert http_client_backport.is_patched()
    now = stock_functions()
    assert all(now[name] is not stock[name] for name in GUARDED)
    assert all(now[name].__name__ == stock[name].__name__ for name in GUARDED)
    assert http_client_backport.patch(force=True) is report  # idempotent
    http_client_backport.unpatch()
    assert not http_client_backport.is_patched()
    back = stock_functions()
    assert all(back[name] is stock[name] for name in GUARDED)


def test_patch_binds_what_this_interpreter_lacks():
    """Only the guards the probes ask for: gh-146211 everywhere, bpo-39603 on 2.7."""
    report = http_client_backport.patch()
    lacks = dict((cve, entry["lacks"])
                 for cve, entry in http_client_backport.status()["fixes"].items())
    wanted = {"CVE-2020-26116": "putrequest", "CVE-2019-18348": "__init__",
              "gh-146211": "_tunnel"}
    for cve, name in wanted.items():
        label = "%s.HTTPConnection.%s" % (client.__name__, name)
        assert (label in report.changed) is lacks[cve]
    assert lacks["gh-146211"] and http_client_backport.is_vulnerable()
    assert lacks["CVE-2020-26116"] is ("_validate_method" not in client.HTTPConnection.__dict__)
    assert not http_client_backport.status()["exposed"]


def test_https_tunnel_is_guarded_too():
    """``HTTPSConnection`` inherits ``_tunnel``: the CONNECT goes out before TLS."""
    https = getattr(client, "HTTPSConnection", None)
    if https is None:
        pytest.skip("no ssl")
    http_client_backport.patch()
    conn = https("proxy.example", 3128)
    sock = helpers.FakeSocket()
    conn._create_connection = lambda *args, **kwargs: sock
    conn.set_tunnel("www.example.com", 443, {"Proxy-Authorization": "x" + INJECTED})
    with pytest.raises(ValueError):
        conn.connect()
    assert sock.data == b""


def test_urllib_proxy_tunnel_is_guarded(monkeypatch):
    """``urlopen`` of an https URL through a proxy: the request's Proxy-Authorization
    goes into the tunnel headers (urllib.request / urllib2 ``do_open``)."""
    if str is bytes:
        import urllib2 as request
    else:
        from urllib import request
    if not hasattr(request, "HTTPSHandler"):
        pytest.skip("no ssl")
    sock = helpers.FakeSocket()
    monkeypatch.setattr(socket, "create_connection", lambda *args, **kwargs: sock)
    opener = request.build_opener(request.ProxyHandler({"https": "http://proxy.example:3128"}))
    req = request.Request("https://www.example.com/",
                          headers={"Proxy-Authorization": "Basic eDp5" + INJECTED})
    http_client_backport.patch()
    with pytest.raises(ValueError) as caught:
        opener.open(req)
    assert str(caught.value).startswith("Invalid header value")
    assert sock.data == b""
