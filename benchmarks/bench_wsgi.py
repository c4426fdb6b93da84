"""Cost of ``wsgi.protect(app)`` per request, against the bare app.

Why: the middleware runs on every request; without a ``;`` it should cost
next to nothing (target: under 2 us on 3.13, and no new string). Run it with
any interpreter from the repository root (it imports ``src``)::

    python3.13 benchmarks/bench_wsgi.py
    python2.7 benchmarks/bench_wsgi.py --rounds 15 --rst

Two ways of serving, each bare and through ``protect()``, timed interleaved
in this one process (best of N rounds, 3N for wsgiref, the order swapped
every round):

* ``callable``: the app called directly with a prepared environ, as a server
  calls it; nothing else is timed but resetting what the request changes.
* ``wsgiref``: a whole request through ``wsgiref.handlers.SimpleHandler``
  (environ set-up, headers, response written to memory), no socket.

Requests: ``GET`` with a 44-byte query without ``;``, ``GET`` with the attack
query (``;`` rewritten), ``POST`` of a 44-byte urlencoded body with a ``;``,
and the first ``GET`` again with ``wsgi.input_terminated`` set, as gunicorn
sets it on every request (an unlabelled ``GET``: its body is not read).
"""

from __future__ import print_function

import argparse
import io
import os
import sys
import timeit
from wsgiref.handlers import SimpleHandler

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from urllib_parse_backport.wsgi import protect  # noqa: E402

PLAIN = "q=common_term&utm_content=spring_sale&page=2"
ATTACK = "q=common_term&utm_content=s;q=malicious_term"
BODY = ATTACK.encode("ascii")
ERRORS = io.BytesIO if sys.version_info[0] == 2 else io.StringIO  # wsgi.errors: native str

REQUESTS = [
    ("GET, no ';'", PLAIN, None),
    ("GET, ';'", ATTACK, None),
    ("POST body, ';'", "", BODY),
    # gunicorn sets wsgi.input_terminated on every request (an unlabelled GET: not read).
    ("GET, terminated", PLAIN, b""),
]


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def start_response(status, headers, exc_info=None):
    return None


def callable_request(wsgi_app, query, body):
    """One request as a server makes it: its environ reset, then the call."""
    environ = {"REQUEST_METHOD": "POST" if body else "GET", "PATH_INFO": "/",
               "QUERY_STRING": query, "SERVER_NAME": "localhost", "SERVER_PORT": "80",
               "CONTENT_TYPE": "application/x-www-form-urlencoded" if body else "",
               "CONTENT_LENGTH": str(len(body)) if body else ""}
    if body == b"":
        environ["wsgi.input_terminated"] = True

        def run():
            environ["QUERY_STRING"] = query
            environ["wsgi.input"] = io.BytesIO(b"")
            return wsgi_app(environ, start_response)
    elif body is None:
        def run():
            environ["QUERY_STRING"] = query  # as received: protect() may rewrite it
            return wsgi_app(environ, start_response)
    else:
        length = environ["CONTENT_LENGTH"]

        def run():
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = length
            return wsgi_app(environ, start_response)
    run()  # the first call adds protect()'s environ key
    return run


def wsgiref_request(wsgi_app, query, body):
    """One request through wsgiref's handler: environ, status line, headers, body."""
    base = {"REQUEST_METHOD": "POST" if body else "GET", "PATH_INFO": "/",
            "QUERY_STRING": query, "SERVER_NAME": "localhost", "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1"}
    if body:
        base.update(CONTENT_TYPE="application/x-www-form-urlencoded",
                    CONTENT_LENGTH=str(len(body)))
    elif body == b"":
        base["wsgi.input_terminated"] = True
    data = body or b""

    def run():
        handler = SimpleHandler(io.BytesIO(data), io.BytesIO(), ERRORS(), dict(base),
                                multithread=False)
        handler.run(wsgi_app)
    return run


def best_of(rounds, number, runs):
    """Best time per call (seconds) of each function in *runs*, interleaved."""
    best = [float("inf")] * len(runs)
    for round_ in range(rounds):
        order = range(len(runs)) if round_ % 2 else reversed(range(len(runs)))
        for index in order:
            best[index] = min(best[index], timeit.timeit(runs[index], number=number) / number)
    return best


def measure(rounds, number):
    rows = []
    protected = protect(app)
    for server, build in (("callable", callable_request), ("wsgiref", wsgiref_request)):
        # A wsgiref request is ~50x longer: fewer calls per measurement, more
        # measurements, so that the best of them is as reliable.
        scale, more = (1, 1) if server == "callable" else (50, 3)
        for label, query, body in REQUESTS:
            bare, fixed = best_of(rounds * more, max(number // scale, 20),
                                  [build(app, query, body), build(protected, query, body)])
            rows.append((server, label, bare * 1e6, fixed * 1e6))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=51)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--rst", action="store_true", help="also print one reST table row")
    args = parser.parse_args()
    rows = measure(args.rounds, args.number)
    version = sys.version.split()[0]
    print("python %s" % version)
    print("%-9s %-15s %9s %11s %12s %7s" % ("server", "request", "bare us", "protect us",
                                            "overhead us", "ratio"))
    for server, label, bare, fixed in rows:
        print("%-9s %-15s %9.2f %11.2f %12.2f %6.2fx"
              % (server, label, bare, fixed, fixed - bare, fixed / bare))
    if args.rst:
        cells = ["%.2f (%.2fx)" % (fixed - bare, fixed / bare) for _, _, bare, fixed in rows]
        print("rst: " + "  ".join([version] + cells))


if __name__ == "__main__":
    main()
