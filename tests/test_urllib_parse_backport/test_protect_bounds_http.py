"""The attacker-sized requests of docs/frameworks.rst ("What protect() costs"), over HTTP.

Each request is one the report measured as seconds of CPU per request
(a Content-Type of many ``charset=``, CherryPy's comma list, a form of
327,680 empty zlib members), sent to real servers on 127.0.0.1: WSGI
(wsgiref, cheroot) and ASGI (uvicorn, hypercorn). ``protect()`` answers
each with its bound's status and never calls the application; the honest
forms in the charsets the report saw refused reach it rewritten. No timing
is asserted here: test_protect_cost.py holds the growth.
"""

import json
import sys
import zlib

import pytest

from dependencies import importorskip
from wsgi_apps import SERVERS as WSGI_SERVERS
from wsgi_apps import request_by_hand

URLENCODED = "application/x-www-form-urlencoded"
FORM = b"q=common_term&utm_content=x;q=malicious_term"
#: Under h11's 16 kB for a request head (uvicorn, hypercorn), over max_header_size.
HEADER = 12 * 1024

#: (name, header lines, body, status): the report's families, at servers' sizes.
ATTACKS = [
    ("many charset parameters",
     ["Content-Type: " + (URLENCODED + "; charset=x" * (HEADER // 10))[:HEADER]], FORM, 431),
    ("a comma list of quotes", ["Content-Type: multipart/" + ',",' * (HEADER // 3)], FORM, 431),
    ("many parameters, short", ["Content-Type: " + URLENCODED + ";" * 40], FORM, 400),
    ("empty zlib members", ["Content-Type: " + URLENCODED, "Content-Encoding: deflate"],
     zlib.compress(b"") * 327680, 415),
]
HONEST = ["TIS-620", "ISO-2022-JP", "cp858", "hp-roman8"]


def recording_wsgi_app(seen):
    def app(environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        seen.append(body)
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps({"body": body.decode("latin-1")}).encode("ascii")]
    return app


def servers():
    """``(kind, name)`` for every server here."""
    found = [("wsgi", name) for name in sorted(WSGI_SERVERS)]
    if sys.version_info[0] > 2:
        from asgi_apps import SERVERS as ASGI_SERVERS
        found += [("asgi", name) for name in sorted(ASGI_SERVERS)]
    return found


@pytest.fixture(params=servers(), ids=lambda kind_name: "-".join(kind_name))
def served(request):
    """``serve(seen)``: a context manager serving a recording app behind
    ``protect()`` on a port, which it yields."""
    kind, name = request.param
    if kind == "wsgi":
        module, server = WSGI_SERVERS[name]
        from urllib_parse_backport.wsgi import protect
        make = recording_wsgi_app
    else:
        from asgi_apps import SERVERS as ASGI_SERVERS
        from asgi_apps import recording_echo as make
        module, server = ASGI_SERVERS[name]
        from urllib_parse_backport.asgi import protect
    if module:
        importorskip(module)
    return lambda seen: server(protect(make(seen)))


@pytest.mark.parametrize("name, head, body, status", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_an_attacker_sized_request_meets_its_bound(served, name, head, body, status):
    seen = []
    with served(seen) as port:
        answer = request_by_hand(port, head + ["Content-Length: %d" % len(body)], body,
                                 status=status)
    assert seen == [] and answer.startswith(b"This request")


@pytest.mark.parametrize("charset", HONEST)
def test_an_honest_form_in_a_charset_that_cannot_spell_a_separator_passes(served, charset):
    seen = []
    head = ["Content-Type: %s; charset=%s" % (URLENCODED, charset),
            "Content-Length: %d" % len(FORM)]
    with served(seen) as port:
        request_by_hand(port, head, FORM)
    assert seen == [FORM.replace(b";", b"%3B")]
