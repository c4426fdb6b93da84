"""``wsgi.protect`` against the requests an attacker crafts: the headers are theirs.

Each case is a request whose body a real framework, as installed here, reads
as a form with ``;`` splitting fields, although its labels say otherwise: no
Content-Type, ``text/plain``, a chunked body, a Content-Type list, a charset
that decodes to a separator. Without ``protect()`` the framework sees the
smuggled ``q`` (checked first, so each case proves the hole is real here);
behind it, only ``common_term``, or a refusal where no rewrite can help. In-process with the
environ a real server builds, and the chunked case also over HTTP: through
cheroot, which de-chunks, and wsgiref, which passes the framing on.
"""

import json

import pytest

from dependencies import importorskip, missing
from fresh_interpreter import ATTACK

from wsgi_apps import (FRAMEWORKS, SERVERS, URLENCODED, call, import_framework, request_chunked,
                       server_environ)

from urllib_parse_backport.wsgi import protect

SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
BODY = ATTACK.encode("ascii")
#: A body no sniffing of shapes takes for a form (it has a space).
SPACED = b"q=common_term&utm_content=s s;q=malicious_term"

_APPS = {}


def splitting_app(name):
    """The framework's app if, as installed here, it splits bodies on ';'; else a skip."""
    if name not in _APPS:
        found = import_framework(name)
        _APPS[name] = found and (found[0](), found[1][1])
    if not _APPS[name]:
        missing(FRAMEWORKS[name][0])
    app, body_splits = _APPS[name]
    if not body_splits:
        pytest.skip("%s does not split bodies on ';' here" % (name,))
    return app


#: (framework, Content-Type or None for none, chunked, body): the table of the
#: issue, each with the framework version that reads it (tests/requirements).
CRAFTED = [
    # Bottle 0.12.18 parses every body but multipart as a form.
    ("bottle", None, False, BODY),
    ("bottle", "text/plain", False, BODY),
    ("bottle", "application/json", False, BODY),
    ("bottle", " multipart/form-data", False, BODY),  # Bottle does not strip the space
    # WebOb 1.8 hands a body without Content-Type to cgi.FieldStorage, which
    # reads it as urlencoded (2.7's, and an unfixed 3.x's, split on ';').
    ("webob", None, False, BODY),
    # ... whatever its bytes: a space, a raw UTF-8 byte, a JSON string literal.
    ("webob", None, False, SPACED),
    ("webob", None, False, b"q=common_term&utm=\xc3\xa9;q=malicious_term"),
    ("webob", None, False, b'"q=common_term&utm_content=s;q=malicious_term"'),
    # CherryPy splits the header on commas, sorts the elements and takes the
    # greatest: the urlencoded one, behind a multipart prefix.
    ("cherrypy", "MULTIPART/x, application/x-www-form-urlencoded", False, SPACED),
    # A chunked body: gunicorn, cheroot and Werkzeug de-chunk it, no CONTENT_LENGTH.
    ("webob", URLENCODED, True, BODY),
    ("webob", None, True, BODY),
    ("inhouse", URLENCODED, True, BODY),
    # Django 1.11 reads the last charset; the first is the one a careless reader takes.
    ("django", URLENCODED + "; charset=latin-1; charset=utf-8", False, BODY),
]


def _id(case):
    framework, content_type, chunked, body = case
    return "%s-%r%s%s" % (framework, content_type, "-chunked" if chunked else "",
                          "-odd" if len(body) % 2 else "")


def values(fields):
    return [value for name in fields for value in fields[name]]


def smuggled(fields):
    """Whether a field named ``q`` came out of the attacker's second value."""
    return any("malicious_term" in value for value in fields.get("q", []))


@pytest.mark.parametrize("framework, content_type, chunked, body", CRAFTED,
                         ids=[_id(case) for case in CRAFTED])
def test_a_crafted_body_reaches_the_framework_without_the_smuggled_field(
        framework, content_type, chunked, body):
    app = splitting_app(framework)

    def form(app, body):
        return call(app, "POST", body=body, content_type=content_type, chunked=chunked)["form"]

    # What the framework makes of the body when ';' is data: the fixed fields,
    # in its own decoding (Django 1.11 decodes each value with the charset
    # given, UTF-16 included, so the text is not ASCII's there).
    fixed = form(app, body.replace(b";", b"%3B"))
    unprotected = form(app, body)
    assert smuggled(unprotected) and unprotected != fixed  # the hole
    protected = form(protect(app), body)
    assert protected == fixed and "malicious_term" not in values(protected)
    if body is BODY:
        assert protected == SAFE


#: Charsets that write a separator other than as its ASCII byte: utf-7's
#: ``+ADs-`` is ';' (and ``+ACY-`` is '&', which even a fixed Django splits on).
UTF7_BODY = b"q=common_term&utm=x+ADs-q=malicious_term"
DECODED_BODIES = [
    ("utf-7", UTF7_BODY),
    ("UTF-7", b"q=common_term&utm=x+ACY-q=malicious_term"),
    ("unicode_escape", b"q=common_term&utm=x\\u003bq=malicious_term"),
    ("raw_unicode_escape", b"q=common_term&utm=x\\u003bq=malicious_term"),
    ("cp037", u"q=common_term&utm=x;q=malicious_term".encode("cp037")),
]


@pytest.mark.parametrize("charset, body", DECODED_BODIES, ids=[c for c, _ in DECODED_BODIES])
def test_a_charset_that_decodes_to_a_separator_is_refused(charset, body):
    # Django decodes the body with the request's charset before it splits it.
    app = splitting_app("django") if body is UTF7_BODY else app_of_django()
    content_type = URLENCODED + "; charset=" + charset
    status, answer = call_status(protect(app), "POST", body=body, content_type=content_type)
    assert status.startswith("400") and b"charset" in answer
    status, answer = call_status(app, "POST", body=body, content_type=content_type)
    if not (status.startswith("200") and smuggled(json.loads(answer.decode("utf-8"))["form"])):
        pytest.skip("this Django decodes each field after it splits (1.11 on 2.7), or "
                    "refuses the charset")


def test_a_get_whose_charset_decodes_the_query_to_a_separator_is_refused():
    # Django decodes the query string with the request's charset too.
    app = app_of_django()
    query = "q=common_term&utm=x+ACY-q=malicious_term"
    status, answer = call_status(protect(app), "GET", query=query, body=b"",
                                 content_type="text/plain; charset=utf-7")
    assert status.startswith("400") and b"charset" in answer
    unprotected = call(app, "GET", query=query, body=b"", content_type="text/plain; charset=utf-7")
    if not smuggled(unprotected["query"]):  # else the hole, in a fixed Django too
        pytest.skip("this Django decodes each field after it splits (1.11 on 2.7)")


def app_of_django():
    """Django's app, whether or not it splits on ';' here (a charset's '&' splits anyway)."""
    found = import_framework("django")
    if not found:
        missing("django")
    if "django" not in _APPS:
        _APPS["django"] = (found[0](), found[1][1])
    return _APPS["django"][0]


def call_status(app, method, query="", body=None, content_type=URLENCODED):
    """Call *app* as a server would; ``(status, body)`` whatever the status."""
    environ = server_environ(method, query, body, content_type, False)
    status = []
    out = b"".join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
    return status[0], out


#: (server, framework): cheroot de-chunks the body (no CONTENT_LENGTH,
#: wsgi.input_terminated); wsgiref passes the framing on with neither, and
#: Bottle de-chunks it itself and reads every body as a form.
CHUNKED_OVER_HTTP = [("cheroot", "webob"), ("cheroot", "inhouse"), ("wsgiref", "bottle")]


@pytest.mark.parametrize("server_name, framework", CHUNKED_OVER_HTTP,
                         ids=["-".join(pair) for pair in CHUNKED_OVER_HTTP])
@pytest.mark.parametrize("content_type", [URLENCODED, "text/plain", None])
def test_a_chunked_body_over_http(server_name, framework, content_type):
    module, server = SERVERS[server_name]
    if module is not None:
        importorskip(module)
    if content_type is not None and content_type != URLENCODED and framework != "bottle":
        pytest.skip("%s reads a text/plain body as text" % framework)
    if content_type is None and framework == "inhouse":
        pytest.skip("the in-house parser reads only declared forms")
    app = splitting_app(framework)
    # The attack cut across chunks, the ';' alone in one of them.
    chunks = [BODY[:10], BODY[10:27], b";", BODY[28:]]
    with server(app) as port:
        assert request_chunked(port, chunks, content_type)["form"] == SMUGGLED
    with server(protect(app)) as port:
        assert request_chunked(port, chunks, content_type)["form"] == SAFE
