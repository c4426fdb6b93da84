"""Twelve header-injection attempts and their honest counterparts (issue 47).

Run as a script in a fresh interpreter; prints one JSON line:
``{"attacks": {name: outcome}, "honest": {name: wire text}}``. An attack's
outcome is ``"raised <Type>"``, ``"stopped"`` (the bytes that would go on
the wire hold no injected line) or ``"through"``. Each attack is a CR/LF (an
LF for ``js_output``) followed by the header line ``X-Injected: 1``. No
network: the connections write to a fake socket.
"""

from __future__ import print_function

import io
import json
import re
import sys

if sys.version_info[0] == 2:  # 2.7's module names
    import Cookie as cookies
    import httplib as client
    from StringIO import StringIO as TextIO
else:
    import http.cookies as cookies
    import http.client as client
    from io import StringIO as TextIO

import email.generator
import email.message
from wsgiref.handlers import SimpleHandler
from wsgiref.headers import Headers
from wsgiref.util import setup_testing_defaults

INJECTED = "\r\nX-Injected: 1"


class Wire(object):
    """A socket that keeps what is sent and answers *reply*."""

    def __init__(self, reply=b""):
        self.sent, self.reply = [], reply

    def sendall(self, data):
        self.sent.append(bytes(data))

    def makefile(self, *args, **keywords):
        return io.BytesIO(self.reply)

    def close(self):
        pass


def request(method="GET", url="/", host="example.com", value="v"):
    """The bytes of one request, written through putrequest/putheader/endheaders."""
    conn = client.HTTPConnection(host)
    conn.sock = Wire()
    conn.putrequest(method, url)
    conn.putheader("X-Value", value)
    conn.endheaders()
    return b"".join(conn.sock.sent)


def tunnel(value):
    """The CONNECT request ``_tunnel()`` sends a proxy for a tunnel header *value*."""
    conn = client.HTTPConnection("proxy.example", 3128)
    conn.set_tunnel("example.com", 443, headers={"X-Tunnel": value})
    conn.sock = Wire(b"HTTP/1.1 200 Connection established\r\n\r\n")
    conn._tunnel()
    return b"".join(conn.sock.sent)


def cookie_path(value, path):
    jar = cookies.SimpleCookie()
    jar["a"] = value
    jar["a"]["path"] = path
    jar["a"]["max-age"] = 60
    return jar.output()


def morsel_set(value, coded):
    morsel = cookies.Morsel()
    morsel.set("a", value, coded)
    return morsel.output()


def js_domain(domain):
    """``js_output`` of a morsel whose domain came in unchecked (as update() or
    unpickling fill it): ``dict.__setitem__`` passes by ``Morsel.__setitem__``."""
    jar = cookies.SimpleCookie()
    jar["a"] = "b"
    dict.__setitem__(jar["a"], "domain", domain)
    return jar.js_output()


def header_value(value):
    headers = Headers([])
    headers["X-Value"] = value
    return str(headers)


def header_param(filename):
    headers = Headers([])
    headers.add_header("Content-Disposition", "attachment", filename=filename)
    return str(headers)


def status_line(status):
    """The response a ``SimpleHandler`` writes for an app that starts with *status*."""
    def app(environ, start_response):
        start_response(status, [("Content-Type", "text/plain"),
                                ("Date", "Sun, 06 Dec 2026 00:00:00 GMT")])
        return [b"ok"]
    environ = {}
    setup_testing_defaults(environ)
    out, err = io.BytesIO(), io.BytesIO() if sys.version_info[0] == 2 else io.StringIO()
    handler = SimpleHandler(io.BytesIO(), out, err, environ)
    handler.run(app)
    return out.getvalue()


def subject(text):
    message = email.message.Message()
    message["Subject"] = text
    message.set_payload("body\n")
    out = TextIO()
    email.generator.Generator(out).flatten(message)
    return out.getvalue()


ATTACKS = [
    ("http.client method", lambda: request(method="GET" + INJECTED)),
    ("http.client URL", lambda: request(url="/" + INJECTED)),
    ("http.client host", lambda: request(host="example.com" + INJECTED)),
    ("http.client header value", lambda: request(value="v" + INJECTED)),
    ("set_tunnel header", lambda: tunnel("v" + INJECTED)),
    ("Morsel attribute", lambda: cookie_path("b", "/" + INJECTED)),
    ("Morsel.set", lambda: morsel_set("v" + INJECTED, "v" + INJECTED)),
    ("Morsel.js_output", lambda: js_domain("example.com" + INJECTED[1:])),
    ("Headers value", lambda: header_value("v" + INJECTED)),
    ("Headers.add_header parameter", lambda: header_param("a" + INJECTED)),
    ("start_response status", lambda: status_line("200 OK" + INJECTED)),
    ("email Subject", lambda: subject("Hello" + INJECTED)),
]

HONEST = [
    ("http.client method", lambda: request(method="PUT")),
    ("http.client URL", lambda: request(url="/p?q=1&r=a%20b")),
    ("http.client host", lambda: request(host="example.com:8080")),
    ("http.client header value", lambda: request(value="a b")),
    ("set_tunnel header", lambda: tunnel("a b")),
    ("Morsel attribute", lambda: cookie_path("b c;d", "/x")),
    ("Morsel.set", lambda: morsel_set("b c", '"b c"')),
    ("Morsel.js_output", lambda: js_domain("example.com")),
    ("Headers value", lambda: header_value("a b")),
    ("Headers.add_header parameter", lambda: header_param("a b.txt")),
    ("start_response status", lambda: status_line("201 Created")),
    ("email Subject", lambda: subject("Hello world")),
]

#: A line that starts a header named X-Injected, after any line break.
_INJECTED_LINE = re.compile(r"(?:\r\n|\r|\n)X-Injected\s*:")


def text(data):
    return data.decode("latin-1") if isinstance(data, bytes) else data


def outcome(attempt):
    try:
        wire = text(attempt())
    except Exception as exc:  # what stopped it is the outcome
        return "raised " + type(exc).__name__
    return "through" if _INJECTED_LINE.search(wire) else "stopped"


def main():
    print(json.dumps({"attacks": dict((name, outcome(attempt)) for name, attempt in ATTACKS),
                      "honest": dict((name, text(make())) for name, make in HONEST)},
                     sort_keys=True))


if __name__ == "__main__":
    main()
