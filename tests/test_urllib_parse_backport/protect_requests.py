"""Requests through both ``protect()`` middlewares, as the rule tests write them.

``wsgi()`` builds an environ, ``asgi()`` a scope and its messages; each
returns what the application got, or the refusal it never saw.
"""

import io
import sys
import zlib

import pytest

from urllib_parse_backport.wsgi import protect

PY2 = sys.version_info[0] == 2
URLENCODED = "application/x-www-form-urlencoded"
BODY = b"q=common_term&utm_content=s;q=malicious_term"
FIXED = b"q=common_term&utm_content=s%3Bq=malicious_term"


def wsgi(body=None, content_type=None, method="POST", query="", limits=None, **headers):
    """``(status or None, body the app read, environ)`` for a request through
    ``wsgi.protect``; *headers*: extra environ keys (``HTTP_...``,
    ``CONTENT_LENGTH``, ``wsgi.input_terminated``). A body gets a length
    unless *headers* set one (``CONTENT_LENGTH=None``: none). *limits*: the
    bounds given to ``protect()``."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": "/form", "QUERY_STRING": query,
               "wsgi.input": io.BytesIO(body or b"")}
    if body is not None:
        environ["CONTENT_LENGTH"] = str(len(body))
    if content_type is not None:
        environ["CONTENT_TYPE"] = content_type
    for key, value in headers.items():
        key = key.replace("wsgi_", "wsgi.")
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value
    seen = {}

    def app(environ, start_response):
        seen["body"] = environ["wsgi.input"].read()
        seen["environ"] = environ
        return []
    status = []
    out = b"".join(protect(app, **(limits or {}))(environ, lambda s, h: status.append(s)))
    if status:
        assert "body" not in seen  # a refusal never calls the application
        return status[0], out, environ
    return None, seen["body"], seen["environ"]


def asgi(body, content_types=(), method="POST", query=b"", headers=(), messages=None, **limits):
    """``(status or None, body the app received)`` through ``asgi.protect``
    (with the bounds *limits*); *messages*: what the server sends, if not
    the whole body in one message."""
    if PY2:
        pytest.skip("ASGI is Python 3 only")
    from asgi_apps import recorder, run
    from urllib_parse_backport.asgi import protect as asgi_protect
    headers = list(headers) + [(b"content-type", value) for value in content_types]
    if body is not None and not any(name == b"transfer-encoding" for name, _ in headers) \
            and not any(name == b"content-length" for name, _ in headers):
        headers.append((b"content-length", b"%d" % len(body)))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": "/form", "raw_path": b"/form",
             "root_path": "", "query_string": query, "headers": headers}
    seen = []
    if messages is None:
        messages = [{"type": "http.request", "body": body or b"", "more_body": False}]
    sent = run(asgi_protect(recorder(seen), **limits), scope, messages)
    if not seen:
        return sent[0]["status"], sent[1]["body"]
    received = seen[0][1]
    return None, b"".join(m.get("body", b"") for m in received if m["type"] == "http.request")


def gzipped(data, name=None):
    """*data* in gzip, optionally with a file name in its header (RFC 1952 FNAME)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = compressor.compress(data) + compressor.flush()
    flags = b"\x08" if name else b"\x00"
    head = b"\x1f\x8b\x08" + flags + b"\x00\x00\x00\x00\x00\xff" + (name + b"\x00" if name else b"")
    crc = zlib.crc32(data) & 0xffffffff
    tail = bytes(bytearray([(crc >> s) & 0xff for s in (0, 8, 16, 24)]
                           + [(len(data) >> s) & 0xff for s in (0, 8, 16, 24)]))
    return head + deflated + tail
