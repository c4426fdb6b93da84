"""``wsgi.protect`` over HTTP: real frameworks served by a real WSGI server on 127.0.0.1.

Each framework of wsgi_apps.py (Django, WebOb, Bottle, CherryPy where
installed for this interpreter, and an in-house parser) is served by
``wsgiref.simple_server`` and by cheroot (CherryPy's server), on port 0, in a
thread, and gets the attack query in the URL and as an urlencoded body.
Without ``protect()`` the frameworks whose parsers split on ``;`` see the
smuggled ``q``; with it every one sees only ``common_term``.
"""

import logging

import pytest

from dependencies import importorskip, missing
from fresh_interpreter import ATTACK

from wsgi_apps import (FRAMEWORKS, SERVERS, URLENCODED, cgi_app, import_framework,
                       over_the_limit, policy, request, request_by_hand, wsgiref_server)

from urllib_parse_backport.wsgi import protect

SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
BODY = ATTACK.encode("ascii")

_APPS = {}


@pytest.fixture(params=sorted(FRAMEWORKS))
def framework(request):
    """``(app, (query splits, body splits))`` for one installed framework."""
    name = request.param
    if name not in _APPS:
        found = import_framework(name)
        _APPS[name] = found and (found[0](), found[1])
    if _APPS[name] is None:
        missing(FRAMEWORKS[name][0])
    return _APPS[name]


@pytest.fixture(params=sorted(SERVERS))
def serve(request):
    """``serve(app)``: a context manager serving *app* on 127.0.0.1, yielding the port."""
    module, server = SERVERS[request.param]
    if module is not None:
        importorskip(module)
    return server


def attack(serve, app):
    """What *app* parses from the attack query (GET) and body (POST)."""
    with serve(app) as port:
        get = request(port, "GET", ATTACK)
        post = request(port, "POST", body=BODY)
    return get, post


def test_without_protect_the_splitting_frameworks_see_the_smuggled_value(framework, serve):
    app, (query_splits, body_splits) = framework
    get, post = attack(serve, app)
    assert get["query"] == (SMUGGLED if query_splits else SAFE)
    assert post["form"] == (SMUGGLED if body_splits else SAFE)


def test_with_protect_every_framework_sees_only_common_term(framework, serve):
    app, _ = framework
    get, post = attack(serve, protect(app))
    assert get["query"] == SAFE
    assert post["form"] == SAFE
    assert get["original"] == ATTACK  # the query as the server received it


def test_legacy_leaves_requests_alone(framework, serve):
    app, (query_splits, body_splits) = framework
    with policy(PYTHON_URLLIB_QS_SEPARATOR="legacy"):
        protected = protect(app)
    get, post = attack(serve, protected)
    assert get["query"] == (SMUGGLED if query_splits else SAFE)
    assert post["form"] == (SMUGGLED if body_splits else SAFE)
    assert get["original"] == ATTACK


def test_semicolon_as_separator_splits_where_the_policy_says(framework, serve):
    app, _ = framework
    with policy(PYTHON_URLLIB_QS_SEPARATOR=";"):
        protected = protect(app)
    get, post = attack(serve, protected)
    # Fields are split on ';' only: '&' is data.
    expected = {"q": ["common_term&utm_content=s", "malicious_term"]}
    assert get["query"] == expected and post["form"] == expected


def test_a_form_over_the_limit_is_refused(framework, serve, caplog):
    # Passed on as received (as a first version did), the frameworks that
    # split on ';' and set no limit of their own read the smuggled field.
    app, (_, body_splits) = framework
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    body = b"pad=" + b"x" * 300 + b"&" + BODY
    form, answer = over_the_limit(serve, app, protect, body)
    assert form.pop("pad") == ["x" * 300]
    assert form == (SMUGGLED if body_splits else SAFE)
    assert answer.startswith(b"This request's body could be read as a form")
    records = [r for r in caplog.records if r.name == "urllib_parse_backport"
               and "refused" in r.getMessage()]
    assert len(records) == 1
    assert "refused with 413" in records[0].getMessage()
    assert "over max_body_size=%d" % (len(body) - 1) in records[0].getMessage()


def test_the_body_reaches_the_app_byte_for_byte(serve, no_label_blind_parser):
    inhouse = FRAMEWORKS["inhouse"][1]()
    body = b"pad=" + b"x" * 70000 + b"&" + BODY + b"&z=%C3%A9+%3B"
    with serve(protect(inhouse, max_body_size=len(body) - 1)) as port:
        # Over the limit, under a label no parser but Bottle 0.12's reads as a form.
        assert request(port, "POST", body=body, content_type="text/plain")["raw_body"] == \
            body.decode("latin-1")
    with serve(protect(inhouse)) as port:
        assert request(port, "POST", body=body)["raw_body"] == \
            body.replace(b";", b"%3B").decode("latin-1")


@pytest.mark.parametrize("content_type, body", [
    ("multipart/form-data; boundary=x", BODY),
    ("text/plain", b"a note; with q=malicious_term in it"),
    ("text/plain", b'{"q":"common_term;q=malicious_term"}'),
    ("application/octet-stream", b"\x00\x01;q=1\x7f"),
])
def test_bodies_that_are_not_forms_reach_the_app_unchanged(
        serve, content_type, body, no_label_blind_parser):
    inhouse = FRAMEWORKS["inhouse"][1]()
    with serve(protect(inhouse)) as port:
        answer = request(port, "POST", body=body, content_type=content_type)
    assert answer["raw_body"] == body.decode("latin-1")


def reader(environ, start_response):
    """Reads the body in the way the query asks, within CONTENT_LENGTH, and echoes it."""
    stream, left = environ["wsgi.input"], int(environ.get("CONTENT_LENGTH") or 0)
    how, pieces = environ["QUERY_STRING"], []
    while left > 0:
        if how == "read":
            piece = stream.read(left)
        elif how == "read7":
            piece = stream.read(min(7, left))
        else:
            piece = stream.readline(left)
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    start_response("200 OK", [("Content-Type", "application/octet-stream")])
    return [b"|".join(pieces)]


@pytest.mark.parametrize("how", ["read", "read7", "readline"])
def test_the_new_stream_reads_like_the_server_stream(serve, how):
    from wsgi_apps import HTTPConnection

    def echo(app, body):
        with serve(app) as port:
            connection = HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                connection.request("POST", "/?" + how, body, {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Content-Length": str(len(body))})
                return connection.getresponse().read()
            finally:
                connection.close()

    plain = b"a=1&b=2\nc=3\n\nd=" + b"4" * 20
    assert echo(protect(reader), plain) == echo(reader, plain)
    assert echo(protect(reader), plain.replace(b"&", b";")) == \
        echo(reader, plain.replace(b"&", b"%3B"))


@pytest.mark.parametrize("length", ["-1", "44x"])
def test_a_length_that_is_not_a_number_is_refused_before_cgi_reads_to_the_end(length):
    # wsgiref passes any Content-Length on; cgi.FieldStorage reads to the end of
    # the stream when it is not a number, and the client ends it.
    importorskip("cgi")  # removed in 3.13
    from stdlib_state import UNFIXED
    head = ["Content-Type: " + URLENCODED, "Content-Length: " + length]
    with wsgiref_server(cgi_app) as port:
        form = request_by_hand(port, head, BODY, end=True)["form"]
    assert form == (SMUGGLED if UNFIXED else SAFE)
    with wsgiref_server(protect(cgi_app)) as port:
        answer = request_by_hand(port, head, BODY, status=400, end=True)
    assert answer.startswith(b"This request's Content-Length is not a number of bytes")


def test_a_form_without_length_is_rewritten_as_cgi_reads_it_to_the_end():
    # No Content-Length, no Transfer-Encoding: wsgiref hands the connection on,
    # and cgi.FieldStorage reads it until the client ends its side.
    importorskip("cgi")  # removed in 3.13
    from stdlib_state import UNFIXED
    head = ["Content-Type: " + URLENCODED]
    with wsgiref_server(cgi_app) as port:
        form = request_by_hand(port, head, BODY, end=True)["form"]
    assert form == (SMUGGLED if UNFIXED else SAFE)
    with wsgiref_server(protect(cgi_app)) as port:
        assert request_by_hand(port, head, BODY, end=True)["form"] == SAFE


def test_bytes_after_the_last_chunk_reach_cgi_rewritten():
    # wsgiref passes the chunked framing on and then the connection; the
    # client sends more after the last chunk and closes, and cgi.FieldStorage
    # (no length) reads the stream to its end and splits it.
    importorskip("cgi")  # removed in 3.13
    from stdlib_state import UNFIXED
    from wsgi_apps import frame_chunks
    head = ["Content-Type: " + URLENCODED, "Transfer-Encoding: chunked"]
    body = frame_chunks([b"q=common_term"]) + b"\r\n;q=malicious_term"
    with wsgiref_server(cgi_app) as port:
        form = request_by_hand(port, head, body, end=True)["form"]
    if UNFIXED:  # cgi reads the framing as data, and the field after it
        assert form["q"] == ["malicious_term"]  # the hole
    with wsgiref_server(protect(cgi_app)) as port:
        form = request_by_hand(port, head, body, end=True)["form"]
    assert "q" not in form and "%3B" not in "".join(form.keys())


@pytest.mark.parametrize("server_name", sorted(SERVERS))
def test_a_content_type_list_smuggles_nothing_to_cherrypy(server_name):
    # CherryPy splits Content-Type on commas, sorts the elements and takes the
    # greatest: the urlencoded one. protect() once saw the multipart prefix.
    module, server = SERVERS[server_name]
    if module is not None:
        importorskip(module)
    found = import_framework("cherrypy")
    if not found:
        missing("cherrypy")
    app = _APPS.setdefault("cherrypy", (found[0](), found[1]))[0]
    spaced = b"q=common_term&utm_content=s s;q=malicious_term"
    head = ["Content-Type: MULTIPART/x, application/x-www-form-urlencoded",
            "Content-Length: %d" % len(spaced)]
    with server(app) as port:
        assert request_by_hand(port, head, spaced)["form"]["q"] == ["common_term",
                                                                    "malicious_term"]
    with server(protect(app)) as port:
        assert request_by_hand(port, head, spaced)["form"]["q"] == ["common_term"]


@pytest.mark.parametrize("server_name", ["cheroot"])  # wsgiref labels it text/plain itself
@pytest.mark.parametrize("body", [
    b"q=common_term&utm_content=s s;q=malicious_term",  # a space
    b"q=common_term&utm_content=\xc3\xa9;q=malicious_term",  # a raw UTF-8 byte
    b'"q=common_term&utm_content=s;q=malicious_term"',  # a JSON string literal
])
def test_an_unlabelled_body_is_a_form_whatever_its_bytes(server_name, body):
    # WebOb 1.8 (through cgi) parses any unlabelled POST as a form.
    module, serve = SERVERS[server_name]
    importorskip(module)
    found = import_framework("webob")
    if not found or not found[1][1]:
        pytest.skip("WebOb here does not split bodies on ';'")
    app = _APPS.setdefault("webob", (found[0](), found[1]))[0]
    head = ["Content-Length: %d" % len(body)]
    with serve(app) as port:
        assert any("malicious_term" in v for v in request_by_hand(port, head, body)["form"]["q"])
    with serve(protect(app)) as port:
        form = request_by_hand(port, head, body)["form"]
    assert not any("malicious_term" in v for v in form.get("q", []))


@pytest.mark.parametrize("content_type, body", [
    ("text/plain;charset=UTF-8", b"data:image/png;base64,iVBORw0KGgo="),  # canvas.toDataURL()
    ("text/css", b"a{color:red;margin:0}b{x:y;z:w}"),
])
def test_honest_bodies_reach_the_app_byte_for_byte(serve, content_type, body,
                                                   no_label_blind_parser):
    inhouse = FRAMEWORKS["inhouse"][1]()
    with serve(protect(inhouse)) as port:
        answer = request(port, "POST", body=body, content_type=content_type)
    assert answer["raw_body"] == body.decode("latin-1")
