"""Issue 47's acceptance: ``CPYTHON_SECURITY_PATCH=1`` stops twelve header injections.

Each run is a fresh interpreter of the test environment (the wheel and its
``.pth`` start-up files installed) running ``tests/scenarios/injection.py``:
twelve attempts, each a CR/LF followed by the header line ``X-Injected: 1``,
fed to the ``http.client`` (``httplib``) method, URL, host and header value,
a ``set_tunnel`` header (sent by ``_tunnel()`` to a fake socket), a Morsel
attribute, ``Morsel.set``'s value and coded value, ``Morsel.js_output`` (a
domain with LF), a ``wsgiref.headers.Headers`` value and ``add_header``
parameter, the status given to ``start_response`` under ``SimpleHandler``,
and an email ``Subject`` written by ``email.generator``. An attempt is
stopped when it raises or when the bytes that would go on the wire hold no
injected line.

Without any switch, measured here (2026-12-06) with this scenario: 2.7.18
stops 4/12 (URL, host, header value: ``InvalidURL``/``ValueError``; the
Subject: ``HeaderParseError``); 3.6.15, 3.8.18, 3.13.0 and PyPy3 stop 5/12
(those four and the method). The set_tunnel header, the three Morsel cases,
the two Headers cases and the status line get through on all of them.
"""

import json

from fresh_interpreter import run_scenario

#: The twelve attempts the scenario makes.
ATTEMPTS = ["http.client method", "http.client URL", "http.client host",
            "http.client header value", "set_tunnel header", "Morsel attribute", "Morsel.set",
            "Morsel.js_output", "Headers value", "Headers.add_header parameter",
            "start_response status", "email Subject"]

_RUNS = {}


def injection(**environ):
    """The scenario's answer in a fresh interpreter with *environ* (each once a session)."""
    key = json.dumps(environ, sort_keys=True)
    if key not in _RUNS:
        _RUNS[key] = run_scenario("injection", quiet=True, **environ)
    return _RUNS[key]


def test_the_umbrella_stops_all_twelve():
    attacks = injection(CPYTHON_SECURITY_PATCH="1")["attacks"]
    assert sorted(attacks) == sorted(ATTEMPTS)
    through = sorted(name for name, outcome in attacks.items() if outcome == "through")
    assert through == [], "%d/12 stopped: %r" % (12 - len(through), attacks)


def test_without_a_switch_every_attempt_is_made_and_judged():
    """The same twelve run without a switch (their counts: the docstring above);
    what the stock code stops, it stops by raising, never by a changed output."""
    attacks = injection()["attacks"]
    assert sorted(attacks) == sorted(ATTEMPTS)
    assert set(attacks.values()) <= set(["through"]) | set(
        outcome for outcome in attacks.values() if outcome.startswith("raised "))


def test_honest_counterparts_give_the_same_bytes_with_and_without_the_umbrella():
    honest = injection(CPYTHON_SECURITY_PATCH="1")["honest"]
    assert honest == injection()["honest"]
    assert sorted(honest) == sorted(ATTEMPTS)


def test_honest_counterparts_are_written_as_given():
    """The honest values reach the wire (so the comparison above compares something)."""
    honest = injection(CPYTHON_SECURITY_PATCH="1")["honest"]
    assert honest["http.client method"].startswith("PUT / HTTP/1.1\r\n")
    assert honest["http.client URL"].startswith("GET /p?q=1&r=a%20b HTTP/1.1\r\n")
    assert "\r\nHost: example.com:8080\r\n" in honest["http.client host"]
    assert "\r\nX-Value: a b\r\n" in honest["http.client header value"]
    assert honest["set_tunnel header"].startswith("CONNECT example.com:443 HTTP/1.")
    assert "\r\nX-Tunnel: a b\r\n" in honest["set_tunnel header"]
    assert honest["Morsel attribute"] == 'Set-Cookie: a="b c\\073d"; Max-Age=60; Path=/x'
    assert honest["Morsel.set"] == 'Set-Cookie: a="b c"'
    assert "a=b; Domain=example.com" in honest["Morsel.js_output"]
    assert honest["Headers value"] == "X-Value: a b\r\n\r\n"
    assert honest["Headers.add_header parameter"] == \
        'Content-Disposition: attachment; filename="a b.txt"\r\n\r\n'
    assert honest["start_response status"].startswith("HTTP/1.0 201 Created\r\n")
    assert "Subject: Hello world\n" in honest["email Subject"]
