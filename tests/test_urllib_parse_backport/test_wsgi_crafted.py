"""``wsgi.protect`` against the requests an attacker crafts: the headers are theirs.

Each case is a request whose body a real framework, as installed here, reads
as a form with ``;`` splitting fields, although its labels say otherwise: no
Content-Type, ``text/plain``, a chunked body, a charset parameter given twice,
a charset that cannot decode the bytes. Without ``protect()`` the framework
sees the smuggled ``q`` (checked first, so each case proves the hole is real
here); behind it, only ``common_term``. In-process with the environ a real
server builds, and the chunked case also over HTTP: through cheroot, which
de-chunks, and wsgiref, which passes the framing on.
"""

import sys

import pytest

from fresh_interpreter import ATTACK

from wsgi_apps import SERVERS, URLENCODED, call, import_framework, request_chunked

from urllib_parse_backport.wsgi import protect

SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
BODY = ATTACK.encode("ascii")
#: An odd number of bytes, so that UTF-16 cannot decode it (a trailing '&' adds no field).
ODD_BODY = BODY + b"&"
assert len(ODD_BODY) % 2 == 1

_APPS = {}


def splitting_app(name):
    """The framework's app if, as installed here, it splits bodies on ';'; else a skip."""
    if name not in _APPS:
        found = import_framework(name)
        _APPS[name] = found and (found[0](), found[1][1])
    if not _APPS[name]:
        pytest.skip("%s is not installed here" % (name,))
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
    # A chunked body: gunicorn, cheroot and Werkzeug de-chunk it, no CONTENT_LENGTH.
    ("webob", URLENCODED, True, BODY),
    ("webob", None, True, BODY),
    ("inhouse", URLENCODED, True, BODY),
    # Django 1.11 reads the last charset; the first is the one a careless reader takes.
    ("django", URLENCODED + "; charset=utf-16; charset=utf-8", False, BODY),
    # Django 1.11 on 3.x falls back to latin-1 when the charset cannot decode
    # the body (on 2.7 it decodes each piece with replacement characters, so
    # no ASCII name survives there: no hole to show).
    ("django", URLENCODED + "; charset=utf-16", False, ODD_BODY),
    ("django", URLENCODED + "; charset=UTF-32", False, ODD_BODY),
    ("django", URLENCODED + '; charset="utf-16"', False, ODD_BODY),
]
PY2_DECODES_EACH_PIECE = [case for case in CRAFTED if case[3] is ODD_BODY]


def _id(case):
    framework, content_type, chunked, body = case
    return "%s-%r%s%s" % (framework, content_type, "-chunked" if chunked else "",
                          "-odd" if len(body) % 2 else "")


def values(fields):
    return [value for name in fields for value in fields[name]]


@pytest.mark.parametrize("framework, content_type, chunked, body", CRAFTED,
                         ids=[_id(case) for case in CRAFTED])
def test_a_crafted_body_reaches_the_framework_without_the_smuggled_field(
        framework, content_type, chunked, body):
    if sys.version_info[0] == 2 and (framework, content_type, chunked, body) in \
            PY2_DECODES_EACH_PIECE:
        pytest.skip("Django 1.11 on 2.7 reads no ASCII field from an undecodable body")
    app = splitting_app(framework)

    def form(app, body):
        return call(app, "POST", body=body, content_type=content_type, chunked=chunked)["form"]

    # What the framework makes of the body when ';' is data: the fixed fields,
    # in its own decoding (Django 1.11 decodes each value with the charset
    # given, UTF-16 included, so the text is not ASCII's there).
    fixed = form(app, body.replace(b";", b"%3B"))
    unprotected = form(app, body)
    assert "malicious_term" in values(unprotected) and unprotected != fixed  # the hole
    protected = form(protect(app), body)
    assert protected == fixed and "malicious_term" not in values(protected)
    if "charset" not in (content_type or ""):  # a charset decodes the values its way
        assert protected == SAFE


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
        pytest.importorskip(module)
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
