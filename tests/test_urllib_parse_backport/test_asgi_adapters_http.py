"""A WSGI application behind an ASGI-to-WSGI adapter, behind ``asgi.protect``, over HTTP.

The adapters (a2wsgi, asgiref's ``WsgiToAsgi``, Starlette's
``WSGIMiddleware``) end the WSGI body at ``http.disconnect``. A client that
sends less than its Content-Length and half-closes gets its partial body
parsed as a whole one: ``protect()`` refuses such a body rather than hand
it on (docs/frameworks.rst, "A body cut short").
"""

import json
import socket
import sys

import pytest

if sys.version_info < (3, 6):
    pytest.skip("ASGI is Python 3 only", allow_module_level=True)

from dependencies import importorskip  # noqa: E402

from asgi_apps import SERVERS  # noqa: E402
from urllib_parse_backport.asgi import protect  # noqa: E402

#: The cut-short request of the report: 10 bytes announced and never sent.
BODY = b"q=common_term&utm_content=x;q=malicious_term"


def legacy_app(seen):
    """A WSGI application that reads the body to its end and splits it on ``&``
    and ``;``, as every parser did before bpo-42967 (CherryPy 18, Django 3.1.6)."""
    def app(environ, start_response):
        body = environ["wsgi.input"].read().decode("latin-1")
        fields = [field.split("=", 1) for field in body.replace(";", "&").split("&") if field]
        seen.append([value for name, value in fields if name == "q"])
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps(seen[-1]).encode("ascii")]
    return app


def adapter(name):
    if name == "a2wsgi":
        return importorskip("a2wsgi").WSGIMiddleware
    if name == "asgiref":
        return importorskip("asgiref.wsgi").WsgiToAsgi
    return importorskip("starlette.middleware.wsgi").WSGIMiddleware


def cut_short(port):
    """POST the body 10 bytes short of its Content-Length, half-close, and read
    what comes back until the server closes (bytes)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    try:
        sock.sendall(b"POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(BODY) + 10, BODY))
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                break
            if not data:
                break
            answer += data
        return answer
    finally:
        sock.close()


@pytest.fixture(params=sorted(SERVERS))
def serve(request):
    module, server = SERVERS[request.param]
    importorskip(module)
    return server


@pytest.mark.parametrize("name", ["a2wsgi", "asgiref", "starlette"])
def test_a_body_cut_short_never_reaches_the_parser_behind(name, serve):
    wrap = adapter(name)
    seen = []
    with serve(protect(wrap(legacy_app(seen)))) as port:
        cut_short(port)
    assert seen == []  # refused: the application never ran
    bare = []
    with serve(wrap(legacy_app(bare))) as port:
        cut_short(port)
    # Without protect(), what the adapter hands on when the client goes:
    # nothing, an empty body (a2wsgi under uvicorn), or the partial body, in
    # which the legacy parser finds the smuggled value (the hole closed above).
    assert bare in ([], [[]], [["common_term", "malicious_term"]])


@pytest.mark.parametrize("name", ["a2wsgi", "asgiref", "starlette"])
def test_a_whole_body_through_each_adapter_is_rewritten(name, serve):
    seen = []
    with serve(protect(adapter(name)(legacy_app(seen)))) as port:
        sock = socket.create_connection(("127.0.0.1", port), timeout=15)
        try:
            sock.sendall(b"POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(BODY), BODY))
            answer = b""
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        finally:
            sock.close()
    assert answer.startswith(b"HTTP/1.1 200")
    assert seen == [["common_term"]]
