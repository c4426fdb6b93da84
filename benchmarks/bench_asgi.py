"""Cost of ``asgi.protect(app)`` per request, against the bare app.

Why: the middleware runs on every request; without a ``;`` and without a
body it should cost next to nothing (target: under 1 us on 3.13). Run it
with a Python 3 interpreter from the repository root (it imports ``src``)::

    python3.13 benchmarks/bench_asgi.py

The bare app and the protected one are called interleaved in this one
process (best of N rounds, the order swapped every round), each call driven
to its end as an event loop would drive it (``send(None)`` until
``StopIteration``), so what is timed is the ASGI call and the middleware,
not a loop or a socket. Printed: the per-request time of each, what
``protect()`` adds, and their ratio, in the same run.

Requests (a uvicorn-like scope with 6 headers): ``GET`` with a 44-byte query
without ``;``, ``GET`` with the attack query (``;`` rewritten), ``POST`` of
a 44-byte urlencoded body with a ``;`` (received first, length rewritten).
"""

from __future__ import print_function

import argparse
import os
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from urllib_parse_backport.asgi import protect  # noqa: E402

PLAIN = b"q=common_term&utm_content=spring_sale&page=2"
ATTACK = b"q=common_term&utm_content=s;q=malicious_term"
HEADERS = [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"bench/1.0"), (b"accept", b"*/*"),
           (b"accept-encoding", b"gzip, deflate"), (b"connection", b"keep-alive"),
           (b"cookie", b"session=abc")]


def scope(query, body=None):
    headers = list(HEADERS)
    if body is not None:
        headers += [(b"content-type", b"application/x-www-form-urlencoded"),
                    (b"content-length", str(len(body)).encode("ascii"))]
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "POST" if body is not None else "GET", "scheme": "http",
            "path": "/search", "raw_path": b"/search", "root_path": "",
            "query_string": query, "headers": headers, "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 50000)}


class _Message(object):
    """An awaitable ``receive()`` result, ready at once (as a buffered server's)."""

    def __init__(self, body):
        self.message = {"type": "http.request", "body": body, "more_body": False}

    def __await__(self):
        return self

    def __next__(self):
        raise StopIteration(self.message)

    def send(self, value):
        raise StopIteration(self.message)


async def bare(scope, receive, send):
    """An ASGI 3 app doing the least a real one does: receive the body if any, finish."""
    if scope["method"] == "POST":
        await receive()


def drive(app, scope, receive):
    awaitable = app(scope, receive, None)
    iterator = awaitable.__await__() if not hasattr(awaitable, "send") else awaitable
    try:
        while True:
            iterator.send(None)
    except StopIteration:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=50000)
    args = parser.parse_args()
    protected = protect(bare)
    print("Python %s" % sys.version.split()[0])
    print("%-16s %10s %10s %10s %7s" % ("request", "bare us", "protect", "added", "ratio"))
    for label, query, body in [("GET, no ';'", PLAIN, None), ("GET, ';'", ATTACK, None),
                               ("POST body, ';'", b"", ATTACK)]:
        request = scope(query, body)
        receive = lambda: _Message(body)  # noqa: E731
        best = {}
        for round_ in range(args.rounds):
            order = [("bare", bare), ("protect", protected)]
            if round_ % 2:
                order.reverse()
            for name, app in order:
                seconds = timeit.timeit(lambda: drive(app, request, receive),
                                        number=args.number) / args.number
                best[name] = min(best.get(name, seconds), seconds)
        print("%-16s %10.3f %10.3f %10.3f %6.2fx" % (
            label, best["bare"] * 1e6, best["protect"] * 1e6,
            (best["protect"] - best["bare"]) * 1e6, best["protect"] / best["bare"]))


if __name__ == "__main__":
    main()
