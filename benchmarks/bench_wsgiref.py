"""Cost of wsgiref_backport's guards on honest calls: patched / stock, from one run.

Why: every response wsgiref writes goes through ``start_response`` and
``Headers``; the guards must cost next to nothing on honest input. Run it
with any interpreter from the repository root (it imports ``src``)::

    python3.13 benchmarks/bench_wsgiref.py
    python2.7 benchmarks/bench_wsgiref.py --rounds 15

Each case is timed stock and patched interleaved in this one process (the
package patched and unpatched between measurements, the order swapped
every round), best of N rounds, in CPU time:

* single calls: ``Headers(list)`` of four pairs, ``h[name] = value`` (and
  ``h[name] = new``: a value made for the call, as a request id or a date is),
  ``name in h``, ``add_header`` with a ``filename`` parameter (a space in
  it), ``BaseHandler.start_response("201 Created", four pairs)``;
* ``SimpleHandler``: a whole response written to memory (status, four
  headers, body), no request parsing;
* ``simple_server``: a whole request as ``wsgiref.simple_server`` serves it
  (request line and headers parsed, environ, response), no socket. This is
  the path an application served by wsgiref pays on: the 1.05x bound is its.
"""

from __future__ import print_function

import argparse
import io
import itertools
import os
import sys
import time
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

import wsgiref_backport  # noqa: E402
from wsgiref.handlers import BaseHandler, SimpleHandler  # noqa: E402
from wsgiref.headers import Headers  # noqa: E402
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer  # noqa: E402

ERRORS = io.BytesIO if sys.version_info[0] == 2 else io.StringIO  # wsgi.errors: native str
CPU = getattr(time, "process_time", time.clock if sys.version_info[0] == 2 else None)

PAIRS = [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
         ("X-Request-Id", "6f1c2b7e"), ("Date", "Thu, 01 Jan 1970 00:00:00 GMT")]
REQUEST = (b"GET /reports/2024?format=txt HTTP/1.1\r\nHost: example.com\r\n"
           b"User-Agent: bench/1.0\r\nAccept: */*\r\n\r\n")


def app(environ, start_response):
    start_response("201 Created", list(PAIRS))
    return [b"created"]


def simple_handler():
    environ = {"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/",
               "SERVER_NAME": "example.com", "SERVER_PORT": "80"}
    SimpleHandler(io.BytesIO(), io.BytesIO(), ERRORS(), environ).run(app)


class _Server(WSGIServer):
    """A server without a socket (CPython test_wsgiref's MockServer)."""

    def __init__(self):
        self.server_address = ("example.com", 80)
        self.server_name, self.server_port = "example.com", 80
        self.setup_environ()
        self.set_app(app)


class _Handler(WSGIRequestHandler):
    """Reads a request from memory, writes the response to memory, logs nothing."""

    def setup(self):
        self.rfile, self.wfile = self.request

    def finish(self):
        pass

    def log_message(self, *args):
        pass


SERVER = _Server()


def served():
    _Handler((io.BufferedReader(io.BytesIO(REQUEST)), io.BytesIO()), ("127.0.0.1", 8888),
             SERVER)


def cases():
    headers = Headers(list(PAIRS))

    def add_header():
        headers.add_header("Content-Disposition", "attachment", filename="my report.txt")
        del headers._headers[4:]

    def start_response():
        BaseHandler().start_response("201 Created", list(PAIRS))

    def setitem():
        headers["X-Request-Id"] = "6f1c2b7e"

    fresh = itertools.count()

    def setitem_fresh():  # a value never seen before: the plain-string dict misses
        headers["X-Request-Id"] = "%08x" % next(fresh)
    return [("Headers(list)", lambda: Headers(list(PAIRS)), 20000),
            ("h[name] = value", setitem, 20000),
            ("h[name] = new", setitem_fresh, 20000),
            ("name in h", lambda: "Date" in headers, 50000),
            ("add_header", add_header, 20000),
            ("start_response", start_response, 10000),
            ("SimpleHandler", simple_handler, 1000),
            ("simple_server", served, 300)]


def best_of(rounds, number, run):
    """Best CPU time per call (seconds) of *run*, stock and patched, interleaved."""
    best = {"stock": float("inf"), "patched": float("inf")}
    for round_ in range(rounds):
        for label in ("stock", "patched") if round_ % 2 else ("patched", "stock"):
            if label == "patched":
                wsgiref_backport.patch(force=True)
            else:
                wsgiref_backport.unpatch()
            spent = timeit.Timer(run, timer=CPU).timeit(number) / number
            best[label] = min(best[label], spent)
    wsgiref_backport.unpatch()
    return best["stock"], best["patched"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the call counts")
    args = parser.parse_args()
    print("python %s" % sys.version.split()[0])
    print("%-16s %9s %11s %7s" % ("case", "stock us", "patched us", "ratio"))
    for label, run, number in cases():
        stock, patched = best_of(args.rounds, max(int(number * args.scale), 10), run)
        print("%-16s %9.2f %11.2f %6.2fx" % (label, stock * 1e6, patched * 1e6, patched / stock))


if __name__ == "__main__":
    main()
