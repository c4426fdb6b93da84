"""``asgi.protect`` over HTTP: real ASGI frameworks served by real servers on 127.0.0.1.

Starlette (query via the stdlib's ``parse_qsl``, urlencoded bodies via
python-multipart's ``QuerystringParser``, which splits on ``;`` on every
interpreter), FastAPI (the same parsers, 3.6 here) and Django's ASGI handler
(3.1.6 on 3.8: its own ``limited_parse_qsl``, splitting on ``;``), where
installed for this interpreter, served by uvicorn (and hypercorn on 3.13).
Each gets the attack in the query and in an urlencoded body, framed by
``Content-Length`` and by ``Transfer-Encoding: chunked``. Without
``protect()`` the parsers that split on ``;`` see the smuggled ``q``; with
it every one sees only ``common_term``.
"""

import sys

import pytest

from dependencies import importorskip, missing

if sys.version_info[0] < 3:
    pytest.skip("ASGI is Python 3 only", allow_module_level=True)

from fresh_interpreter import ATTACK  # noqa: E402

from stdlib_state import UNFIXED  # noqa: E402
from wsgi_apps import (URLENCODED, over_the_limit, policy, request,  # noqa: E402
                       request_by_hand, request_chunked)

from asgi_apps import FRAMEWORKS, SERVERS  # noqa: E402
from urllib_parse_backport.asgi import protect  # noqa: E402

SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
BODY = ATTACK.encode("ascii")
#: The attack body cut inside the field it smuggles, as a client may send it.
CHUNKS = [BODY[:20], BODY[20:31], BODY[31:]]


def _splits(name):
    """(query splits, body splits) of framework *name* as installed here."""
    if name == "django":
        import django
        version = django.VERSION[:3]
        splits = (version < (2, 2, 19) or (3, 0) <= version < (3, 0, 13)
                  or (3, 1) <= version < (3, 1, 7))
        return splits, splits
    # Starlette/FastAPI: the stdlib's parse_qsl for the query; python-multipart
    # for bodies, which splits on ';' in every release pinned here.
    return UNFIXED, True


_APPS = {}


@pytest.fixture(params=sorted(FRAMEWORKS))
def framework(request):
    """``(app, (query splits, body splits))`` for one installed framework."""
    name = request.param
    if name not in _APPS:
        module, factory = FRAMEWORKS[name]
        try:
            __import__(module)
        except ImportError:
            _APPS[name] = None
        else:
            _APPS[name] = (factory(), _splits(name))
    if _APPS[name] is None:
        missing(FRAMEWORKS[name][0])
    return _APPS[name]


@pytest.fixture(params=sorted(SERVERS))
def serve(request):
    module, server = SERVERS[request.param]
    importorskip(module)
    return server


def attack(serve, app):
    """What *app* parses from the attack: the query (GET), and the body framed
    by Content-Length and chunked (POST)."""
    with serve(app) as port:
        get = request(port, "GET", ATTACK)
        post = request(port, "POST", body=BODY)
        chunked = request_chunked(port, CHUNKS)
    return get, post, chunked


def test_without_protect_the_splitting_parsers_see_the_smuggled_value(framework, serve):
    app, (query_splits, body_splits) = framework
    get, post, chunked = attack(serve, app)
    assert get["query"] == (SMUGGLED if query_splits else SAFE)
    assert post["form"] == (SMUGGLED if body_splits else SAFE)
    assert chunked["form"] == (SMUGGLED if body_splits else SAFE)


def test_with_protect_every_framework_sees_only_common_term(framework, serve):
    app, _ = framework
    get, post, chunked = attack(serve, protect(app))
    assert get["query"] == SAFE
    assert post["form"] == SAFE
    assert chunked["form"] == SAFE
    assert get["original"] == ATTACK  # the query as the server received it


def test_another_separator_is_the_only_one(framework, serve):
    app, _ = framework
    with serve(protect(app, separator=";")) as port:
        get = request(port, "GET", "a=1;b=2&c=3")
        post = request(port, "POST", body=b"a=1;b=2&c=3")
    expected = {"a": ["1"], "b": ["2&c=3"]}
    assert get["query"] == expected
    assert post["form"] == expected


def test_legacy_leaves_requests_alone(framework, serve):
    app, (query_splits, body_splits) = framework
    with policy(PYTHON_URLLIB_QS_SEPARATOR="legacy"):
        protected = protect(app)
    get, post, chunked = attack(serve, protected)
    assert get["query"] == (SMUGGLED if query_splits else SAFE)
    assert post["form"] == (SMUGGLED if body_splits else SAFE)
    assert get["original"] == ATTACK


#: A body no sniffing takes for a form (a space in a value); a parser told it is one splits it.
SPACED = b"q=common_term&utm_content=s s;q=malicious_term"
SPACED_SAFE = {"q": ["common_term"], "utm_content": ["s s;q=malicious_term"]}
SPACED_SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s s"]}


@pytest.mark.parametrize("labels", [(URLENCODED, "text/plain"), ("text/plain", URLENCODED)])
def test_a_repeated_content_type_smuggles_nothing(framework, serve, labels):
    # Starlette parses under the first label, Django joins both (and so parses
    # neither): protect() must treat the body as a form if any label says so.
    app, (_, body_splits) = framework
    head = ["Content-Type: %s" % label for label in labels]
    head.append("Content-Length: %d" % len(SPACED))
    with serve(app) as port:
        unprotected = request_by_hand(port, head, SPACED)["form"]
    with serve(protect(app)) as port:
        protected = request_by_hand(port, head, SPACED)["form"]
    if labels[0] == URLENCODED and body_splits and unprotected:  # Starlette, FastAPI
        assert unprotected == SPACED_SMUGGLED
    assert protected == (SPACED_SAFE if unprotected else {})


def test_a_form_over_the_limit_is_refused(framework, serve):
    # Passed on as received (as a first version did), Starlette, which sets no
    # limit of its own, read the smuggled field from it.
    app, (_, body_splits) = framework
    body = b"pad=" + b"x" * 300 + b"&" + BODY
    form, answer = over_the_limit(serve, app, protect, body)
    assert form.pop("pad") == ["x" * 300]
    assert form == (SMUGGLED if body_splits else SAFE)
    assert answer.startswith(b"This request's body could be read as a form")


@pytest.mark.parametrize("length", ["0", "5"])
def test_a_length_that_contradicts_the_chunked_framing_is_refused(framework, serve, length):
    # The servers follow Transfer-Encoding and de-chunk the body; a protect()
    # that trusted Content-Length: 0 passed it on unread.
    app, (_, body_splits) = framework
    head = ["Content-Type: " + URLENCODED, "Content-Length: " + length,
            "Transfer-Encoding: chunked"]
    body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in CHUNKS) + b"0\r\n\r\n"
    with serve(app) as port:
        try:
            unprotected = request_by_hand(port, head, body)["form"]
        except AssertionError:  # this server refuses the request itself
            unprotected = None
    with serve(protect(app)) as port:
        answer = request_by_hand(port, head, body, status=400) if unprotected is not None \
            else None
    if unprotected is None:
        pytest.skip("this server refuses a request with both headers itself")
    assert unprotected == (SMUGGLED if body_splits else SAFE)
    assert answer.startswith(b"This request has both a Content-Length and a Transfer-Encoding")


def test_a_charset_that_decodes_to_a_separator_is_refused(framework, serve):
    # Django decodes the body with the request's charset before it splits:
    # utf-7's '+ACY-' is '&', which splits in a fixed Django too.
    app, _ = framework
    body = b"q=common_term&utm=x+ACY-q=malicious_term"
    head = ["Content-Type: %s; charset=utf-7" % URLENCODED, "Content-Length: %d" % len(body)]
    with serve(protect(app)) as port:
        answer = request_by_hand(port, head, body, status=400)
    assert b"charset" in answer
    with serve(app) as port:
        try:
            unprotected = request_by_hand(port, head, body)["form"]
        except AssertionError:
            pytest.skip("this framework refuses the charset itself")
    if "malicious_term" not in unprotected.get("q", []):
        pytest.skip("this framework splits before it decodes")
    assert unprotected["q"] == ["common_term", "malicious_term"]  # the hole, without protect()


@pytest.mark.parametrize("content_type, body", [
    ("text/plain;charset=UTF-8", b"data:image/png;base64,iVBORw0KGgo="),  # canvas.toDataURL()
    ("text/css", b"a{color:red;margin:0}b{x:y;z:w}"),
])
def test_honest_bodies_reach_the_app_byte_for_byte(serve, content_type, body,
                                                   no_label_blind_parser):
    from asgi_apps import echo_app
    with serve(protect(echo_app)) as port:
        head = ["Content-Type: " + content_type, "Content-Length: %d" % len(body)]
        assert request_by_hand(port, head, body)["raw_body"] == body.decode("latin-1")
