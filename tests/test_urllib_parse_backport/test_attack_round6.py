"""A sixth round on ``protect()``: labels parsers read as forms, websockets, compressed forms.

Each test is a request an attacker (or an honest client) writes, shown
failing on the code before its fix: a body that Django REST framework or
python-multipart reads as a form under a label ``protect()`` passed unread
(a media range, ``x-url-encoded``), a websocket query that kept its ``;``,
an honest compressed form refused because its compressed bytes held a
``;`` by chance.
"""

import hashlib
import io
import sys
import zlib

import pytest

from dependencies import importorskip
from protect_requests import BODY, FIXED, URLENCODED, asgi, gzipped, wsgi
from urllib_parse_backport import parse_qs
from urllib_parse_backport.wsgi import ORIGINAL_BODY, protect

PY2 = sys.version_info[0] == 2

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")

SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
#: utf-7's '+ACY-' is '&': Django decodes the body with the charset, then splits.
UTF7_BODY = b"q=common_term&utm_content=s+ACY-q=malicious_term"


# --- labels a parser reads as a form ------------------------------------------------

#: A media range (DRF matches a '*' type or subtype to its FormParser) and
#: the spelling python-multipart, Werkzeug 2.3 and Quart read as urlencoded:
#: in any case, with parameters and whitespace.
FORM_LABELS = ["application/*", "*/*", "APPLICATION/*", " application/* ", "*/*;q=0.5",
               "application/*; charset=utf-8", "*/x-www-form-urlencoded",
               "text/plain, application/*", "application/x-url-encoded",
               "Application/X-URL-Encoded; charset=UTF-8"]


@pytest.mark.parametrize("label", FORM_LABELS)
def test_a_label_a_parser_reads_as_a_form_is_rewritten(label):
    assert wsgi(BODY, label)[:2] == (None, FIXED)
    assert asgi(BODY, [label.encode("ascii")]) == (None, FIXED)


@pytest.mark.parametrize("label", ["application/*", "*/*", "application/x-url-encoded"])
def test_utf_7_under_a_form_label_is_refused(label):
    content_type = label + "; charset=utf-7"
    assert wsgi(UTF7_BODY, content_type)[0] == "400 Bad Request"
    assert asgi(UTF7_BODY, [content_type.encode("ascii")])[0] == 400


@pytest.mark.parametrize("label", ["text/plain", "application/json", "image/png",
                                   "text/plain; name=\"*\"", "multipart/*; boundary=b"])
def test_a_label_that_is_no_range_and_no_form_stays_unread(label):
    # DRF hands multipart/* to its MultiPartParser, which splits on boundaries.
    assert wsgi(BODY, label)[:2] == (None, BODY)
    assert asgi(BODY, [label.encode("ascii")]) == (None, BODY)


def drf_data(body, content_type, protected):
    """What Django REST framework's ``request.data`` holds (``{name: [values]}``),
    with FormParser listed before JSONParser as in a DRF view, for a POST of
    *body*; the status when ``protect()`` refused it."""
    from wsgi_apps import django_app
    django_app()  # settings, once per process
    importorskip("rest_framework")
    from django.core.handlers.wsgi import WSGIRequest
    from rest_framework.negotiation import DefaultContentNegotiation
    from rest_framework.parsers import FormParser, JSONParser
    from rest_framework.request import Request
    seen = {}

    def app(environ, start_response):
        request = Request(WSGIRequest(environ), parsers=[FormParser(), JSONParser()],
                          negotiator=DefaultContentNegotiation())
        seen["data"] = dict(request.data.lists())
        start_response("200 OK", [])
        return []
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/form", "QUERY_STRING": "",
               "SERVER_NAME": "testserver", "SERVER_PORT": "80", "wsgi.url_scheme": "http",
               "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
               "CONTENT_TYPE": content_type}
    status = []
    (protect(app) if protected else app)(environ, lambda s, h: status.append(s))
    return seen.get("data", status[0])


@pytest.mark.parametrize("label", ["application/*", "*/*"])
@pytest.mark.parametrize("body, charset", [(BODY, ""), (UTF7_BODY, "; charset=utf-7")])
def test_django_rest_framework_reads_a_media_range_as_a_form(label, body, charset):
    unprotected = drf_data(body, label + charset, protected=False)
    assert "q" in unprotected  # FormParser read it: the label is a form to DRF
    got = drf_data(body, label + charset, protected=True)
    if charset:
        assert got == "400 Bad Request"  # a fixed Django splits utf-7's '&' too
    else:
        assert got == SAFE


def test_python_multipart_reads_x_url_encoded_as_a_form():
    if PY2:
        pytest.skip("python-multipart is installed on Python 3 only here")
    try:
        import python_multipart as multipart  # 0.0.13+
    except ImportError:
        multipart = importorskip("multipart")

    def fields(environ):
        found = []
        stream = environ["wsgi.input"]
        headers = {"Content-Type": environ["CONTENT_TYPE"],
                   "Content-Length": environ["CONTENT_LENGTH"]}

        def on_field(field):
            found.append((field.field_name, field.value))
        multipart.parse_form(headers, stream, on_field, lambda f: None)
        return found

    seen = []

    def app(environ, start_response):
        seen.append(fields(environ))
        start_response("200 OK", [])
        return []
    label = "application/x-url-encoded"
    environ = {"REQUEST_METHOD": "POST", "wsgi.input": io.BytesIO(BODY),
               "CONTENT_LENGTH": str(len(BODY)), "CONTENT_TYPE": label}
    app(dict(environ), lambda s, h: None)
    smuggled = [b"common_term", b"malicious_term"]
    assert [value for name, value in seen[0] if name == b"q"] == smuggled
    environ["wsgi.input"] = io.BytesIO(BODY)
    protect(app)(environ, lambda s, h: None)
    assert [value for name, value in seen[1] if name == b"q"] == [b"common_term"]


# --- websocket scopes ---------------------------------------------------------------

def run_scope(scope):
    """The scope the application behind ``asgi.protect`` was called with."""
    if PY2:
        pytest.skip("ASGI is Python 3 only")
    from asgi_apps import recorder, run
    from urllib_parse_backport.asgi import protect as asgi_protect
    seen = []
    run(asgi_protect(recorder(seen)), scope)
    return seen[0][0]


def test_a_websocket_query_is_rewritten():
    from_server = {"type": "websocket", "asgi": {"version": "3.0"}, "path": "/ws",
                   "raw_path": b"/ws", "query_string": b"q=common_term&utm_content=s;q=x",
                   "headers": [], "subprotocols": []}
    scope = run_scope(from_server)
    assert scope["query_string"] == b"q=common_term&utm_content=s%3Bq=x"
    assert from_server["query_string"] == b"q=common_term&utm_content=s;q=x"  # a copy
    from urllib_parse_backport.asgi import ORIGINAL_QUERY_STRING
    assert scope[ORIGINAL_QUERY_STRING] == from_server["query_string"]
    importorskip("starlette")
    from starlette.websockets import WebSocket
    params = WebSocket(scope, None, None).query_params
    assert params.getlist("q") == ["common_term"]


@pytest.mark.parametrize("kind", ["lifespan", "something-else"])
def test_lifespan_and_unknown_scopes_pass_untouched(kind):
    from_server = {"type": kind, "asgi": {"version": "3.0"}, "query_string": b"a=1;b=2"}
    assert run_scope(from_server) is from_server


# --- compressed forms ---------------------------------------------------------------

def five_fields(n):
    """A browser's form of five fields, their values varied as users vary them."""
    digest = hashlib.sha1(b"%d" % n).hexdigest().encode("ascii")
    return b"name=user%d&email=u%s%%40example.org&city=%s&zip=%d&note=%s" \
        % (n, digest[:8], digest[8:16], 75000 + n, digest[16:])


def honest_forms_with_a_semicolon_in_their_gzip():
    """Browser forms (no ';'), whose gzip bytes hold a ';' by chance."""
    return [(form, gzipped(form)) for form in map(five_fields, range(200))
            if b";" in gzipped(form)]


def test_honest_gzip_forms_are_never_refused():
    # Before: each of these (about a quarter of them) was refused with 415.
    found = honest_forms_with_a_semicolon_in_their_gzip()
    assert len(found) > 20
    for form, body in found:
        status, got, environ = wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="gzip")
        assert (status, got) == (None, form)
        assert "HTTP_CONTENT_ENCODING" not in environ
        assert environ["CONTENT_LENGTH"] == str(len(form))
        assert environ[ORIGINAL_BODY] == body


def test_an_honest_gzip_form_reaches_an_asgi_app_decoded():
    if PY2:
        pytest.skip("ASGI is Python 3 only")
    from asgi_apps import recorder, run
    from urllib_parse_backport.asgi import protect as asgi_protect
    form, body = honest_forms_with_a_semicolon_in_their_gzip()[0]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "path": "/form", "raw_path": b"/form", "query_string": b"",
             "headers": [(b"content-type", URLENCODED.encode("ascii")),
                         (b"content-encoding", b"gzip"),
                         (b"content-length", b"%d" % len(body))]}
    seen = []
    run(asgi_protect(recorder(seen)), scope,
        [{"type": "http.request", "body": body, "more_body": False}])
    got_scope, messages = seen[0]
    assert b"".join(m.get("body", b"") for m in messages) == form
    assert got_scope["headers"] == [(b"content-type", URLENCODED.encode("ascii")),
                                    (b"content-length", b"%d" % len(form))]


def raw_deflate(data):
    """*data* as a raw deflate stream (RFC 1951), as many clients send ``deflate``."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


@pytest.mark.parametrize("coding, encode", [("gzip", gzipped), ("x-gzip", gzipped),
                                            ("deflate", zlib.compress),
                                            ("deflate", raw_deflate)])
def test_a_compressed_form_with_a_separator_is_rewritten_like_any_form(coding, encode):
    # Before: refused with 415 (raw deflate, with or without a ';', always).
    body = encode(BODY)
    status, got, environ = wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING=coding)
    assert (status, got) == (None, FIXED)
    assert environ["CONTENT_LENGTH"] == str(len(FIXED))
    assert parse_qs(got.decode("ascii")) == SAFE
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", coding.encode("ascii"))]) == (None, FIXED)


def test_a_chunked_gzip_form_is_handed_on_as_one_decoded_chunk():
    # wsgiref leaves the framing in the stream: the form comes back framed anew.
    body = gzipped(BODY)
    framed = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    status, got, environ = wsgi(framed, URLENCODED, CONTENT_LENGTH=None,
                                HTTP_TRANSFER_ENCODING="chunked", HTTP_CONTENT_ENCODING="gzip")
    assert status is None and "HTTP_CONTENT_ENCODING" not in environ
    assert got == b"%x\r\n%s\r\n0\r\n\r\n" % (len(FIXED), FIXED)


def test_a_bomb_with_a_separator_costs_no_more_than_the_limit():
    body = gzipped(b"q=a;" + b"a" * (8 * 1024 * 1024))  # 8 MiB: about 8 KiB gzipped
    limits = {"max_body_size": 65536}
    assert wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="gzip",
                limits=limits)[0] == "413 Payload Too Large"
    if not PY2:
        assert asgi(body, [URLENCODED.encode("ascii")], max_body_size=65536,
                    headers=[(b"content-encoding", b"gzip")])[0] == 413
